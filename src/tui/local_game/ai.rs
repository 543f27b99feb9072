//! The AI side of the app: asking for a search on the AI's turn or for a hint, taking its
//! reports, stopping it, the AI-vs-AI pace and pause, and the AI's answer to a draw offer.
//! The searches run on the runtime's worker; the app only asks for them ([`Effect`]).

use std::time::{Duration, Instant};

use super::analysis_job::Analyzing;
use super::{LocalGame, Screen};
use crate::ai::{Budget, Limits, Score, SearchInfo, limits_with};
use crate::ai::{JobId, MoveLimits, Report};
use crate::game::{EngineKind, Level, MoveTime, Player};
use crate::rules::Side;
use crate::tui::component::JobIds;
use crate::tui::effect::Effect;
use crate::tui::engine_help::{HINT_LEVEL, HINT_TIME, hint_text};
use crate::tui::panels::{AiView, Search};
use crate::tui::text::player_text;

/// A tenth of a second: how a search's time runs on screen.
const TENTH: Duration = Duration::from_millis(100);

impl LocalGame {
    /// Lets time pass until `now`: runs the clock, and asks for the AI's search when it is its
    /// turn.
    pub(super) fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.ai.now = now;
        self.run_clock(now);
        if let Some(thinking) = self.ai.thinking.as_mut() {
            thinking.shown_tenths =
                now.saturating_duration_since(thinking.started).as_millis() / TENTH.as_millis();
        }
        if self.ai.thinking.is_none() && self.ai_to_move(now) {
            self.start_thinking(Purpose::Move);
        }
        self.take_effects()
    }

    /// When the screen changes next with no event: the clock's text, the search's time (a
    /// tenth of a second at a time), the AI-vs-AI pace's next move. `None`: only an event
    /// changes it.
    pub(super) fn next_tick(&self) -> Option<Instant> {
        let clock = self.next_clock_change();
        let search = self.ai.thinking.as_ref().map(|t| {
            let tenths = u32::try_from(t.shown_tenths + 1).unwrap_or(u32::MAX);
            t.started + TENTH.saturating_mul(tenths)
        });
        let pace = self.ai.last_move_at.filter(|_| self.waits_for_the_pace());
        let pace = pace.map(|at| self.ai.pace.next_at(at));
        [clock, search, pace].into_iter().flatten().min()
    }

    /// Whether an AI-vs-AI game waits for the pace's delay before its next move.
    fn waits_for_the_pace(&self) -> bool {
        self.ai.thinking.is_none() && !self.has_human() && self.may_think()
    }

    /// Whether an AI may start on its move now, if it is its turn: its game is on screen and
    /// goes on, and it is not paused.
    fn may_think(&self) -> bool {
        matches!(self.screen, Screen::Game)
            && self.overlays.is_empty()
            && !self.covered
            && !self.ai.paused
            && self.session.outcome().is_none()
            && self.session.player(self.session.side_to_move()) != Player::Human
    }

    /// Whether an AI should start on its move now.
    pub(super) fn ai_to_move(&self, now: Instant) -> bool {
        self.may_think()
            && (self.has_human()
                || self
                    .ai
                    .last_move_at
                    .is_none_or(|at| self.ai.pace.due(at, now)))
    }

    /// Asks for a search for the side to move: its own move, or a hint for a person.
    pub(super) fn start_thinking(&mut self, purpose: Purpose) {
        let side = self.session.side_to_move();
        let (engine, level, limits) = match (purpose, self.session.player(side)) {
            (
                Purpose::Move,
                Player::Ai {
                    engine,
                    level,
                    time,
                },
            ) => (engine, level, self.move_limits(side, level, time)),
            _ => (EngineKind::Search, HINT_LEVEL, self.ai.hint_limits.into()),
        };
        let id = self.next_job();
        self.effects.push(Effect::Search {
            id,
            engine,
            level,
            state: Box::new(self.session.state().clone()),
            limits,
        });
        let player = match (purpose, self.session.player(side)) {
            (Purpose::Move, player @ Player::Ai { .. }) => player,
            _ => Player::Ai {
                engine,
                level,
                time: None,
            },
        };
        self.ai.thinking = Some(Thinking::new(id, side, purpose, player));
    }

    /// The limits of `side`'s move by an AI at `level` with its own move `time` (for `max`):
    /// the level's ([`limits_with`]), on a clock within what it allows.
    pub(super) fn move_limits(
        &self,
        side: Side,
        level: Level,
        time: Option<MoveTime>,
    ) -> MoveLimits {
        self.on_the_clock(side, limits_with(level, time))
    }

    /// `limits` for `side`'s move, if it plays on a clock: their time cut to the most its
    /// clock allows ([`Clocks::move_budget`](crate::game::Clocks::move_budget), from the
    /// pieces on the board), and on main time the target the worker's pacer aims at
    /// ([`MoveLimits::on_clock`]).
    pub(super) fn on_the_clock(&self, side: Side, limits: Limits) -> MoveLimits {
        let position = self.session.state().position();
        MoveLimits::on_clocks(limits, self.session.clocks(), side, position)
    }

    /// Whether `report` is on a job it waits for (its move search or hint, its analysis).
    pub(in crate::tui) fn awaits_report(&self, report: &Report) -> bool {
        report.job().is_some_and(|id| {
            self.ai.thinking.as_ref().is_some_and(|t| t.id == id)
                || self.ai.analysis.as_ref().is_some_and(|a| a.id == id)
        })
    }

    /// Whether an analysis of the game runs (Esc in review stops it first).
    pub(in crate::tui) const fn analyzing(&self) -> bool {
        self.ai.analysis.is_some()
    }

    /// The number of the next job for the worker.
    pub(super) fn next_job(&mut self) -> JobId {
        self.ai.jobs.next()
    }

    /// The AI's thread could not be started (`why`): the AI pauses, and the status line says
    /// so.
    pub fn ai_unavailable(&mut self, why: &str) {
        self.ai.thinking = None;
        self.ai.analysis = None;
        self.ai.paused = true;
        self.error(format!("cannot start the AI: {why}"));
    }

    /// Takes one report of the worker (a late report of a job that was cancelled changes
    /// nothing).
    pub(super) fn on_report(&mut self, report: Report, now: Instant) -> Vec<Effect> {
        self.take_report(report, now);
        self.take_effects()
    }

    /// Takes one report of the worker; returns whether it changed anything.
    pub(super) fn take_report(&mut self, report: Report, now: Instant) -> bool {
        if report == Report::Gone {
            // The next AI turn starts a new thread.
            self.ai.thinking = None;
            self.ai.paused = true;
            self.error("the AI stopped working: p to try again".to_owned());
            if let Some(analyzing) = self.ai.analysis.take()
                && analyzing.stored > 0
            {
                self.changed();
            }
            return true;
        }
        if matches!(report, Report::Analysis(..) | Report::Analyzed(..)) {
            return self.on_analysis_report(report);
        }
        let Some(thinking) = self.ai.thinking.as_mut() else {
            return false;
        };
        match report {
            Report::Progress(id, info) if id == thinking.id => thinking.info = Some(info),
            Report::Done(id, mv) if id == thinking.id => {
                let thinking = self.ai.thinking.take();
                let Some(thinking) = thinking else {
                    return false;
                };
                if let Some(info) = &thinking.info {
                    self.ai.judgement = Some((thinking.side, info.score));
                }
                match (thinking.purpose, mv) {
                    (Purpose::Move, Ok(mv)) => match self.session.play(mv) {
                        Ok(_) => {
                            self.ai.last_move_at = Some(now);
                            self.after_move();
                            self.ring();
                        }
                        Err(e) => {
                            self.ai.paused = true;
                            self.error(format!("the AI chose an illegal move {mv}: {e}"));
                        }
                    },
                    (Purpose::Hint, Ok(mv)) => {
                        self.hint = Some(mv);
                        self.board.selected = None;
                        self.info(hint_text(mv, thinking.info.as_ref()));
                    }
                    (_, Err(why)) => self.error(format!("the AI found no move: {why}")),
                }
            }
            Report::Progress(..)
            | Report::Done(..)
            | Report::Lines(..)
            | Report::Analysis(..)
            | Report::Analyzed(..)
            | Report::Gone => return false,
        }
        true
    }

    /// What the panel shows of the AI.
    pub(super) fn ai_view(&self) -> AiView<'_> {
        let over = self.session.outcome().is_some();
        AiView {
            thinking: self.ai.thinking.as_ref().map(|t| Search {
                title: match t.purpose {
                    Purpose::Move => format!("{} thinking…", player_text(t.player)),
                    Purpose::Hint => "Looking for a hint…".to_owned(),
                },
                can_hurry: t.purpose == Purpose::Move,
                info: t.info.as_ref(),
                side: t.side,
                elapsed: self.ai.now.saturating_duration_since(t.started),
            }),
            // A game that is over waits for nothing.
            paused: self.ai.paused && !over,
            watching: (!self.has_human() && !over).then_some(self.ai.pace.delay()),
        }
    }

    /// Stops the AI and forgets what it was doing.
    pub(super) fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.ai.thinking.take() {
            self.effects.push(Effect::Stop(thinking.id));
        }
    }

    pub(super) fn move_now(&mut self) {
        match &self.ai.thinking {
            Some(t) if t.purpose == Purpose::Move => {
                self.effects.push(Effect::Stop(t.id));
                self.info("the AI moves now".to_owned());
            }
            _ => self.error("the AI is not thinking".to_owned()),
        }
    }

    pub(super) fn ask_hint(&mut self) {
        if self.ai.thinking.is_some() {
            self.error("wait: the AI is thinking".to_owned());
        } else if self.can_move_by_hand() {
            self.start_thinking(Purpose::Hint);
            self.info("looking for a hint…".to_owned());
        }
    }

    pub(super) fn toggle_pause(&mut self) {
        if self.session.outcome().is_some() {
            self.error("the game is over: nothing to pause".to_owned());
            return;
        }
        self.ai.paused = !self.ai.paused;
        if self.ai.paused {
            if self
                .ai
                .thinking
                .as_ref()
                .is_some_and(|t| t.purpose == Purpose::Move)
            {
                self.cancel_thinking();
            }
            self.info("AI paused: p to resume".to_owned());
        } else {
            self.info("AI resumed".to_owned());
        }
    }

    /// A person offers the AI playing `ai_side` a draw: it accepts unless its last search
    /// says it stands better.
    pub(super) fn ai_answers_draw(&mut self, ai_side: Side) {
        match self.ai.judgement {
            Some((judged, score)) if judged == ai_side && !is_better(score) => {
                self.agree_draw(format!(
                    "the AI ({ai_side}) accepts the draw: it sees no advantage ({})",
                    score.text(ai_side)
                ));
            }
            Some((judged, score)) => self.error(format!(
                "the AI ({ai_side}) declines the draw: it thinks it stands better ({})",
                score.text(judged)
            )),
            None => self.error("the AI declines: it has not judged the game yet".to_owned()),
        }
    }
}

/// Whether a search score says the side that searched stands better.
const fn is_better(score: Score) -> bool {
    match score {
        Score::Eval(v) => v > 0,
        Score::Win(_) => true,
        Score::Loss(_) => false,
    }
}

/// Why the AI is thinking.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) enum Purpose {
    /// To play its move.
    Move,
    /// To suggest a move to a person.
    Hint,
}

/// A search in progress.
#[derive(Clone, Debug)]
pub(super) struct Thinking {
    pub(super) id: JobId,
    pub(super) side: Side,
    pub(super) purpose: Purpose,
    pub(super) player: Player,
    pub(super) info: Option<SearchInfo>,
    /// When it started.
    pub(super) started: Instant,
    /// The tenths of a second the panel last showed it running (it ticks on them).
    pub(super) shown_tenths: u128,
}

impl Thinking {
    /// Job `id`: `player`'s search for `side`, for `purpose`, starting now.
    pub(super) fn new(id: JobId, side: Side, purpose: Purpose, player: Player) -> Thinking {
        Thinking {
            id,
            side,
            purpose,
            player,
            info: None,
            started: Instant::now(),
            shown_tenths: 0,
        }
    }
}

/// The AI side of the app: the search in progress, and the AI-vs-AI pace.
pub(super) struct AiState {
    /// The numbers of the jobs asked of the worker (online play's too).
    pub(super) jobs: JobIds,
    pub(super) thinking: Option<Thinking>,
    pub(super) paused: bool,
    pub(super) pace: Pace,
    pub(super) last_move_at: Option<Instant>,
    /// The last search's score, for the side that searched.
    pub(super) judgement: Option<(Side, Score)>,
    /// The budget of a hint search.
    pub(super) hint_limits: Limits,
    /// The analysis running on the worker, if any.
    pub(super) analysis: Option<Analyzing>,
    /// The budgets an analysis is offered at.
    pub(super) budgets: Vec<Budget>,
    /// The time of the last tick: what the panel's clock of a search shows.
    pub(super) now: Instant,
}

impl Default for AiState {
    fn default() -> Self {
        AiState {
            jobs: JobIds::default(),
            thinking: None,
            paused: false,
            pace: Pace::default(),
            last_move_at: None,
            judgement: None,
            hint_limits: Limits::time(HINT_TIME),
            analysis: None,
            budgets: Budget::PRESETS.to_vec(),
            now: Instant::now(),
        }
    }
}

/// The delay between moves in an AI-vs-AI game.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Pace(Duration);

impl Pace {
    const STEPS_MS: [u64; 7] = [0, 100, 250, 500, 1000, 2000, 4000];

    /// The least time a move stays on screen before the next one, at the fastest pace too (no
    /// delay): a fast engine's game is watched, not over in an instant.
    const SHOWN: Duration = Duration::from_millis(30);

    /// The delay between moves.
    pub const fn delay(self) -> Duration {
        self.0
    }

    /// One step faster (a shorter delay) or slower.
    #[must_use]
    pub fn step(self, faster: bool) -> Pace {
        let ms = u64::try_from(self.0.as_millis()).unwrap_or(u64::MAX);
        let next = if faster {
            Pace::STEPS_MS.iter().rev().find(|&&s| s < ms)
        } else {
            Pace::STEPS_MS.iter().find(|&&s| s > ms)
        };
        next.map_or(self, |&s| Pace(Duration::from_millis(s)))
    }

    /// When the next move is due, the last one having come at `last`: after the delay, and
    /// never before the last move has been on screen for [`Pace::SHOWN`].
    pub fn next_at(self, last: Instant) -> Instant {
        last + self.0.max(Pace::SHOWN)
    }

    /// Whether the next move is due, the last one having come at `last`.
    pub fn due(self, last: Instant, now: Instant) -> bool {
        now >= self.next_at(last)
    }
}

impl Default for Pace {
    /// Half a second between moves.
    fn default() -> Self {
        Pace(Duration::from_millis(500))
    }
}
