//! The help an online game gives on this machine, as the local game does: the same warnings
//! (threats to the king, repetitions) and bell, and the engine's help, which runs on the
//! runtime's one worker ([`Effect::Search`]) with its reports coming back as events: a hint
//! and the live evaluation for the players of a game made with engine help allowed, the live
//! evaluation for spectators always. An answer about a position the game has left is dropped.

use std::time::{Duration, Instant};

use crate::ai::{JobId, Limits, Report, SearchInfo};
use crate::game::{EngineKind, Game};
use crate::net::protocol::GameId;
use crate::rules::{GameState, Move, Side};
use crate::tui::effect::Effect;
use crate::tui::engine_help::{EVAL_TIME, HINT_LEVEL, HINT_TIME, hint_text};
use crate::tui::warnings::Warnings;

/// A game as the help sees it: its number and its record (the position now is its last).
#[derive(Copy, Clone, Debug)]
pub struct GameRef<'a> {
    /// The game's number.
    pub id: GameId,
    /// Its record.
    pub record: &'a Game,
}

/// What a search on the worker is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move suggested to the player.
    Hint,
    /// The live evaluation of the position.
    Eval,
}

/// A search: what for, of which game, at which ply (the position it is about).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Aim {
    purpose: Purpose,
    game: GameId,
    ply: usize,
}

/// The live evaluation's last look: of which game at which ply, for which side to move, its
/// last report and how long it had searched then, and whether it still searches.
#[derive(Clone, Debug)]
pub struct Eval {
    game: GameId,
    ply: usize,
    side: Side,
    info: Option<SearchInfo>,
    started: Instant,
    elapsed: Duration,
    searching: bool,
    /// The position evaluated, to look again after a hint interrupted the search.
    state: Box<GameState>,
}

impl Eval {
    /// The last report, if one came.
    pub const fn info(&self) -> Option<&SearchInfo> {
        self.info.as_ref()
    }

    /// The side to move in the position evaluated: the report's score is theirs.
    pub const fn side(&self) -> Side {
        self.side
    }

    /// How long it had searched at its last report.
    pub const fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Whether it still searches.
    pub const fn searching(&self) -> bool {
        self.searching
    }
}

/// What a report of the worker came to, for online play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    /// Not a search of online play's.
    NotOurs,
    /// Taken (progress, or an answer dropped as stale): nothing to say.
    Quiet,
    /// A hint, in words, to show.
    Hint(String),
    /// A line to show as an error.
    Failed(String),
}

/// The warnings, the bell and the engine's help of online play.
#[derive(Clone, Debug)]
pub struct Assist {
    warnings: Warnings,
    bell: bool,
    /// The glyph the board marks repeating destinations with.
    repeat_mark: &'static str,
    /// A search asked for and not yet handed to the worker, with the position it searches.
    asked: Option<(Aim, Box<GameState>)>,
    /// The search on the worker, and its last report.
    running: Option<(JobId, Aim)>,
    last_info: Option<SearchInfo>,
    /// A search to stop.
    stop: Option<JobId>,
    /// Whether the live evaluation is on.
    eval_on: bool,
    eval: Option<Eval>,
    /// The hint shown: of which game, at which ply.
    hint: Option<(GameId, usize, Move)>,
    /// The bell is due (if it is on).
    ring: bool,
}

impl Default for Assist {
    /// Warnings on, bell off, as the local game starts.
    fn default() -> Self {
        Assist::new(true, false, "!")
    }
}

impl Assist {
    /// Warnings shown if `warnings`, the bell on if `bell`; repeating destinations marked
    /// with `repeat_mark`.
    pub const fn new(warnings: bool, bell: bool, repeat_mark: &'static str) -> Assist {
        Assist {
            warnings: Warnings::new(warnings),
            bell,
            repeat_mark,
            asked: None,
            running: None,
            last_info: None,
            stop: None,
            eval_on: false,
            eval: None,
            hint: None,
            ring: false,
        }
    }

    /// The warnings.
    pub const fn warnings(&self) -> &Warnings {
        &self.warnings
    }

    /// The warnings, to ask them about a move.
    pub const fn warnings_mut(&mut self) -> &mut Warnings {
        &mut self.warnings
    }

    /// The glyph the board marks repeating destinations with.
    pub const fn repeat_mark(&self) -> &'static str {
        self.repeat_mark
    }

    /// Whether the bell is on.
    pub const fn bell(&self) -> bool {
        self.bell
    }

    /// `b`: the bell on or off; returns the line that says so.
    pub fn toggle_bell(&mut self) -> &'static str {
        self.bell = !self.bell;
        if self.bell {
            "bell on: it rings when the opponent has moved and when a game ends"
        } else {
            "bell off"
        }
    }

    /// Rings the bell once, if it is on.
    pub const fn ring(&mut self) {
        self.ring = true;
    }

    /// Whether the live evaluation is on.
    pub const fn eval_on(&self) -> bool {
        self.eval_on
    }

    /// The live evaluation of `game`, if it is on and has looked at the position now.
    pub fn eval_of(&self, game: GameRef<'_>) -> Option<&Eval> {
        let ply = game.record.moves().len();
        self.eval
            .as_ref()
            .filter(|e| self.eval_on && e.game == game.id && e.ply == ply)
    }

    /// The hint shown on `game`'s board, if it is still about the position now.
    pub fn hint_on(&self, game: GameRef<'_>) -> Option<Move> {
        let ply = game.record.moves().len();
        self.hint
            .filter(|(id, at, _)| *id == game.id && *at == ply)
            .map(|(_, _, mv)| mv)
    }

    /// Asks the worker for a search of `game`'s position now, for `purpose` (a search
    /// running is stopped: the worker runs one at a time).
    pub fn ask(&mut self, purpose: Purpose, game: GameRef<'_>, now: Instant) {
        let ply = game.record.moves().len();
        let state = game.record.state();
        if purpose == Purpose::Eval {
            self.eval = Some(Eval {
                game: game.id,
                ply,
                side: state.position().side_to_move(),
                info: None,
                started: now,
                elapsed: Duration::ZERO,
                searching: true,
                state: Box::new(state.clone()),
            });
        }
        let aim = Aim {
            purpose,
            game: game.id,
            ply,
        };
        self.asked = Some((aim, Box::new(state.clone())));
    }

    /// `a`: the live evaluation on (looking at `game` now) or off; returns whether it is on.
    pub fn toggle_eval(&mut self, game: GameRef<'_>, now: Instant) -> bool {
        self.eval_on = !self.eval_on;
        if self.eval_on {
            self.ask(Purpose::Eval, game, now);
        } else {
            self.stop_purpose(Purpose::Eval);
            self.eval = None;
        }
        self.eval_on
    }

    /// `game` changed (a move, a new state): a hint about it is gone, and the live
    /// evaluation, if on and following it, looks at the new position.
    pub fn moved(&mut self, game: GameRef<'_>, now: Instant) {
        if self.hint.is_some_and(|(id, ..)| id == game.id) {
            self.hint = None;
        }
        let follows = self.eval.as_ref().is_some_and(|e| e.game == game.id);
        if self.eval_on && follows {
            self.ask(Purpose::Eval, game, now);
        }
    }

    /// The player left the game's board: its searches stop, the evaluation goes off.
    pub fn left(&mut self) {
        self.eval_on = false;
        self.eval = None;
        self.hint = None;
        self.asked = None;
        if let Some((id, _)) = self.running.take() {
            self.stop = Some(id);
        }
    }

    fn stop_purpose(&mut self, purpose: Purpose) {
        if self
            .asked
            .as_ref()
            .is_some_and(|(a, _)| a.purpose == purpose)
        {
            self.asked = None;
        }
        if let Some((id, aim)) = self.running
            && aim.purpose == purpose
        {
            self.running = None;
            self.stop = Some(id);
        }
    }

    /// What the runtime is to do: a search to stop, one to start (numbered by `next_job`),
    /// the bell.
    pub fn take_effects(&mut self, mut next_job: impl FnMut() -> JobId) -> Vec<Effect> {
        let mut effects = Vec::new();
        if let Some(id) = self.stop.take() {
            effects.push(Effect::Stop(id));
        }
        if let Some((aim, state)) = self.asked.take() {
            let id = next_job();
            let time = match aim.purpose {
                Purpose::Hint => HINT_TIME,
                Purpose::Eval => EVAL_TIME,
            };
            effects.push(Effect::Search {
                id,
                engine: EngineKind::Search,
                level: HINT_LEVEL,
                state,
                limits: Limits::time(time).into(),
            });
            self.running = Some((id, aim));
            self.last_info = None;
        }
        if std::mem::take(&mut self.ring) && self.bell {
            effects.push(Effect::Bell);
        }
        effects
    }

    /// Takes a report of the worker, at `now`; `game` is where the searched game stands
    /// now, if this client still has it.
    pub fn on_report(
        &mut self,
        report: &Report,
        game: impl Fn(GameId) -> Option<usize>,
        now: Instant,
    ) -> Answered {
        if *report == Report::Gone {
            self.running = None;
            self.asked = None;
            if let Some(eval) = self.eval.as_mut() {
                eval.searching = false;
            }
            return Answered::NotOurs;
        }
        let Some((running, aim)) = self.running else {
            return Answered::NotOurs;
        };
        let current = game(aim.game) == Some(aim.ply);
        match report {
            Report::Progress(id, info) if *id == running => {
                self.last_info = Some(info.clone());
                if let Some(eval) = self.eval.as_mut().filter(|_| aim.purpose == Purpose::Eval)
                    && current
                {
                    eval.info = Some(info.clone());
                    eval.elapsed = now.saturating_duration_since(eval.started);
                }
                Answered::Quiet
            }
            Report::Done(id, result) if *id == running => {
                self.running = None;
                let answered = match (aim.purpose, result) {
                    // The position moved on: the answer is about another one.
                    _ if !current => Answered::Quiet,
                    (Purpose::Eval, _) => {
                        if let Some(eval) = self.eval.as_mut() {
                            eval.searching = false;
                        }
                        Answered::Quiet
                    }
                    (Purpose::Hint, Ok(mv)) => {
                        self.hint = Some((aim.game, aim.ply, *mv));
                        Answered::Hint(hint_text(*mv, self.last_info.as_ref()))
                    }
                    (Purpose::Hint, Err(why)) => {
                        Answered::Failed(format!("the engine found no move: {why}"))
                    }
                };
                // A hint stopped the evaluation: it looks again.
                let eval_waits = self.eval.as_ref().is_some_and(|e| e.searching);
                if self.eval_on && aim.purpose == Purpose::Hint && eval_waits {
                    self.resume_eval();
                }
                answered
            }
            _ => Answered::NotOurs,
        }
    }

    /// Asks again for the evaluation a hint interrupted.
    fn resume_eval(&mut self) {
        if let Some(eval) = &self.eval {
            let aim = Aim {
                purpose: Purpose::Eval,
                game: eval.game,
                ply: eval.ply,
            };
            self.asked = Some((aim, eval.state.clone()));
        }
    }
}
