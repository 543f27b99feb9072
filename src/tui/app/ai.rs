//! The AI side of the app: starting the worker on the AI's turn or for a hint, taking its
//! reports, stopping it, the AI-vs-AI pace and pause, and the AI's answer to a draw offer.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::analysis::Analysing;
use super::{App, Screen};
use crate::ai::{Budget, Limits, Score, SearchInfo, limits_with};
use crate::game::{EngineKind, Level, MoveTime, Player};
use crate::rules::{Move, Side};
use crate::tui::panels::{AiView, Search, score_text};
use crate::tui::text::player_text;
use crate::tui::worker::{JobId, MoveLimits, Report, Worker};

impl App {
    /// Lets time pass: takes the AI's reports and starts it when it is its turn. Returns
    /// whether anything changed on screen.
    pub fn tick(&mut self, now: Instant) -> bool {
        self.ai.now = now;
        let mut changed = self.run_clock(now);
        // A search's time runs on screen, a tenth of a second at a time.
        if let Some(thinking) = self.ai.thinking.as_mut() {
            let tenths = now.saturating_duration_since(thinking.started).as_millis() / 100;
            changed |= tenths != thinking.shown_tenths;
            thinking.shown_tenths = tenths;
        }
        while let Some(report) = self.ai.worker.as_mut().and_then(Worker::try_report) {
            changed |= self.on_report(report, now);
        }
        if self.ai.thinking.is_none() && self.ai_to_move(now) {
            self.start_thinking(Purpose::Move);
            changed = true;
        }
        changed
    }

    /// Whether an AI should start on its move now.
    pub(super) fn ai_to_move(&self, now: Instant) -> bool {
        let side = self.session.side_to_move();
        matches!(self.screen, Screen::Game)
            && self.overlay.is_none()
            && !self.ai.paused
            && self.session.outcome().is_none()
            && self.session.player(side) != Player::Human
            && (self.has_human()
                || self
                    .ai
                    .last_move_at
                    .is_none_or(|at| self.ai.pace.due(at, now)))
    }

    /// Starts the worker on the side to move: its own move, or a hint for a person.
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
        self.start_worker();
        let Some(worker) = self.ai.worker.as_mut() else {
            return;
        };
        let id = worker.start(engine, level, self.session.state(), limits);
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
    /// without a clock, the level's ([`limits_with`]); on a clock, the clock decides how long
    /// the move may take, and the lower levels keep their depth bound.
    pub(super) fn move_limits(
        &self,
        side: Side,
        level: Level,
        time: Option<MoveTime>,
    ) -> MoveLimits {
        let limits = limits_with(level, time);
        if self.session.clocks().is_some() {
            self.on_the_clock(
                side,
                Limits {
                    time: None,
                    ..limits
                },
            )
        } else {
            limits.into()
        }
    }

    /// `limits` for `side`'s move, if it plays on a clock: their time cut to the most its
    /// clock allows ([`Clocks::move_budget`](crate::game::Clocks::move_budget), from the
    /// pieces on the board), and on main time the target the worker's pacer aims at.
    pub(super) fn on_the_clock(&self, side: Side, limits: Limits) -> MoveLimits {
        let Some(clocks) = self.session.clocks() else {
            return limits.into();
        };
        let pieces = self.session.state().position().occupied().count();
        let budget = clocks.move_budget(side, pieces);
        let time = limits.time.map_or(budget.most, |t| t.min(budget.most));
        MoveLimits {
            limits: Limits {
                time: Some(time),
                ..limits
            },
            target: budget.target.map(|t| t.min(time)),
        }
    }

    /// Starts the worker thread if it is not running; if it cannot be started, pauses the AI
    /// and says why on the status line.
    pub(super) fn start_worker(&mut self) {
        if self.ai.worker.is_none() {
            match Worker::spawn(self.ai.seed) {
                Ok(worker) => self.ai.worker = Some(worker),
                Err(e) => {
                    self.ai.paused = true;
                    self.error(format!("cannot start the AI: {e}"));
                }
            }
        }
    }

    /// Takes one report of the worker; returns whether it changed anything (a late report of
    /// a job that was cancelled changes nothing).
    pub(super) fn on_report(&mut self, report: Report, now: Instant) -> bool {
        if report == Report::Gone {
            // Dropping the worker joins the ended thread; the next AI turn starts a new one.
            self.ai.worker = None;
            self.ai.thinking = None;
            self.ai.paused = true;
            self.error("the AI stopped working: p to try again".to_owned());
            if let Some(analysing) = self.ai.analysis.take()
                && analysing.stored > 0
            {
                self.changed();
            }
            return true;
        }
        if matches!(report, Report::Analysis(..) | Report::Analysed(..)) {
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
                    (Purpose::Move, Some(mv)) => match self.session.play(mv) {
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
                    (Purpose::Hint, Some(mv)) => {
                        self.hint = Some(mv);
                        self.selected = None;
                        self.info(hint_text(mv, thinking.info.as_ref()));
                    }
                    (_, None) => self.error("the AI found no move".to_owned()),
                }
            }
            Report::Progress(..)
            | Report::Done(..)
            | Report::Analysis(..)
            | Report::Analysed(..)
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
                elapsed: self.ai.now.saturating_duration_since(t.started),
            }),
            // A game that is over waits for nothing.
            paused: self.ai.paused && !over,
            watching: (!self.has_human() && !over).then_some(self.ai.pace.delay()),
        }
    }

    /// Stops the AI and forgets what it was doing.
    pub(super) fn cancel_thinking(&mut self) {
        if self.ai.thinking.take().is_some()
            && let Some(worker) = self.ai.worker.as_mut()
        {
            worker.stop();
        }
    }

    pub(super) fn move_now(&mut self) {
        match (&self.ai.thinking, self.ai.worker.as_mut()) {
            (Some(t), Some(worker)) if t.purpose == Purpose::Move => {
                worker.stop();
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
                    judgement_text(ai_side, score)
                ));
            }
            Some((judged, score)) => self.error(format!(
                "the AI ({ai_side}) declines the draw: it thinks it stands better ({})",
                judgement_text(judged, score)
            )),
            None => self.error("the AI declines: it has not judged the game yet".to_owned()),
        }
    }
}

/// The level the hints are searched at: the strongest, given [`HINT_TIME`].
const HINT_LEVEL: Level = Level::Max;

/// How long a hint is searched.
const HINT_TIME: Duration = Duration::from_secs(1);

/// The hint in words: the move, and what the search proved. `info` is the search's last
/// report; its score counts for `mv` when its line starts with it. Distances are in plies,
/// as the panel's score gives them.
fn hint_text(mv: Move, info: Option<&SearchInfo>) -> String {
    let score = info.filter(|i| i.pv.first() == Some(&mv)).map(|i| i.score);
    match score {
        Some(Score::Win(n)) => format!("hint: win in {n}: {mv} (marked with ? ?)"),
        Some(Score::Loss(n)) => {
            format!("hint: every move loses; longest resistance {mv}, lost in {n}")
        }
        _ => format!("hint: {mv} (marked with ? ?)"),
    }
}

/// A search score of `side`'s, for whom and in what: `+0.35 soldiers for the defenders`,
/// `the defenders win in 1 ply`.
fn judgement_text(side: Side, score: Score) -> String {
    let plies = |n: u32| if n == 1 { "ply" } else { "plies" };
    match score {
        Score::Eval(_) => format!("{} soldiers for the {side}", score_text(score)),
        Score::Win(n) => format!("the {side} win in {n} {}", plies(n)),
        Score::Loss(n) => format!("the {side} lose in {n} {}", plies(n)),
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

/// The AI side of the app: the worker thread (started when first needed), the search in
/// progress, and the AI-vs-AI pace.
pub(super) struct AiState {
    pub(super) worker: Option<Worker>,
    pub(super) thinking: Option<Thinking>,
    pub(super) paused: bool,
    pub(super) pace: Pace,
    pub(super) last_move_at: Option<Instant>,
    /// The last search's score, for the side that searched.
    pub(super) judgement: Option<(Side, Score)>,
    /// The budget of a hint search.
    pub(super) hint_limits: Limits,
    pub(super) seed: u64,
    /// The analysis running on the worker, if any.
    pub(super) analysis: Option<Analysing>,
    /// The budgets an analysis is offered at.
    pub(super) budgets: Vec<Budget>,
    /// The time of the last tick: what the panel's clock of a search shows.
    pub(super) now: Instant,
}

impl Default for AiState {
    fn default() -> Self {
        // A different game every time; the engines are deterministic for a given seed.
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
            u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
        });
        AiState {
            worker: None,
            thinking: None,
            paused: false,
            pace: Pace::default(),
            last_move_at: None,
            judgement: None,
            hint_limits: Limits::time(HINT_TIME),
            seed,
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

    /// Whether the next move is due, the last one having come at `last`.
    pub fn due(self, last: Instant, now: Instant) -> bool {
        now.saturating_duration_since(last) >= self.0
    }
}

impl Default for Pace {
    /// Half a second between moves.
    fn default() -> Self {
        Pace(Duration::from_millis(500))
    }
}
