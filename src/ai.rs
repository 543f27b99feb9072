//! AI opponents behind one seam, [`Ai`]: a seeded random mover and an alpha-beta search
//! engine, their levels and budgets, and a match runner for engine-vs-engine games.
//!
//! The AI knows nothing of terminals or files: callers pass a [`GameState`], [`Limits`], a stop
//! flag and a progress callback, and get a move back.

mod bench;
mod engine_match;
mod eval;
mod external;
mod fill;
mod game_analyzer;
mod limits;
mod pacing;
mod params;
mod random;
mod search;
mod time_source;
mod tt;
mod worker;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use bench::{BENCH_CASES, BenchCase, BenchResult, bench, signature};
pub use engine_match::{
    EngineSpec, GameResult, MatchConfig, MatchSummary, ParseEngineError, SideRecord,
    UnplayableRules, elo_difference, engine_usage, play_match,
};
pub use eval::{Features, Weights, features, weights};
pub use external::{DEFAULT_MOVE_TIME, ExternalAi, ExternalOptions, HELLO_WAIT, SLOWNESS_ALLOWED};
pub use game_analyzer::{AnalysisEvent, Analyzer, Budget, Progress, Stopped};
pub use limits::Limits;
pub use pacing::Pacer;
pub use params::SearchParams;
pub use random::RandomAi;
pub use search::{DEFAULT_TT_MB, SearchAi, SearchInfo};
#[cfg(test)]
pub(crate) use time_source::manual::ManualTime;
pub use time_source::{RealTime, TimeSource};
pub use tt::MAX_TT_MB;
pub use worker::{JobId, MoveLimits, Report, Worker};

/// Scores are game-layer data (analyses save them); the search reports them.
pub use crate::game::Score;
use crate::game::{EngineKind, Level, MoveTime, format_duration};
use crate::rules::{GameState, Move, Outcome};

/// An engine that picks moves.
pub trait Ai: Send {
    /// A short name such as `search:hard` or `random`.
    fn name(&self) -> String;

    /// Chooses a move for the side to move in `state`, within `limits`, returning early once
    /// `stop` is set. `progress` is called with a report after each completed search depth.
    /// Without a move, says why: the game is over, the engine was stopped before it had one,
    /// or it failed (an engine in another program that crashed, ran over its time or played
    /// an illegal move; it fails again at every later move).
    fn choose(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, NoMove>;

    /// The `count` best lines of `state` (fewer if it has fewer legal moves), best score first,
    /// within `limits` in all; those found before `stop` is set are kept, and there are none
    /// without legal moves. An engine that only knows one line (the default) gives the last
    /// report of its search for a move, if it made one.
    fn lines(
        &mut self,
        state: &GameState,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<SearchInfo> {
        let mut last = None;
        if count == 0
            || self
                .choose(state, limits, stop, &mut |info| last = Some(info.clone()))
                .is_err()
        {
            return Vec::new();
        }
        last.into_iter().collect()
    }

    /// The game the engine played is over, with `outcome`.
    fn game_over(&mut self, _outcome: &Outcome) {}
}

/// Why an engine gave no move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum NoMove {
    /// The game is over: there is no legal move.
    GameOver,
    /// The engine was stopped before it had a move.
    Stopped,
    /// The engine failed, in an unfinished game: it loses the game.
    Failed(Failure),
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::GameOver => f.write_str("the game is over"),
            NoMove::Stopped => f.write_str("the engine was stopped"),
            NoMove::Failed(failure) => failure.fmt(f),
        }
    }
}

/// Why an engine failed to give a move in an unfinished game: it loses the game.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Failure {
    /// Its program could not start, or stopped answering.
    Crashed(String),
    /// It thought longer than [`SLOWNESS_ALLOWED`] times its budget.
    Time {
        /// The time it was given for the move.
        budget: Duration,
        /// The time it had taken when it was given up.
        taken: Duration,
    },
    /// It answered with an illegal move.
    IllegalMove(String),
    /// It broke the protocol or gave up.
    Protocol(String),
}

impl Failure {
    /// Whether the failure is a loss on time (the others are losses by resignation).
    pub const fn is_time(&self) -> bool {
        matches!(self, Failure::Time { .. })
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Crashed(why) => write!(f, "the engine crashed: {why}"),
            Failure::Time { budget, taken } => write!(
                f,
                "the engine took over {} for a move, {SLOWNESS_ALLOWED} times its {}",
                format_duration(*taken),
                format_duration(*budget)
            ),
            Failure::IllegalMove(why) => write!(f, "the engine played an illegal move {why}"),
            Failure::Protocol(why) => write!(f, "the engine broke the protocol: {why}"),
        }
    }
}

/// A new engine of `kind` playing at `level`, seeded with `seed` (its only source of randomness).
pub fn engine_for(kind: EngineKind, level: Level, seed: u64) -> Box<dyn Ai> {
    match kind {
        EngineKind::Search => Box::new(SearchAi::new(level, seed, DEFAULT_TT_MB)),
        EngineKind::Random => Box::new(RandomAi::new(seed)),
    }
}

/// The budget of a level, per move: depth-bounded for `easy` (1 ply), `medium` (2) and `hard`
/// (5), so they play the same on any machine; time-bounded for `max` (the default
/// [`MoveTime`], 1 s, and meant to be given the full time a caller allows). `easy` and
/// `medium` also add a bounded random bonus to each root move (see [`SearchAi::new`]), so
/// they vary and can be beaten, but never miss a forced win or walk into a loss they see.
pub fn limits_for(level: Level) -> Limits {
    limits_with(level, None)
}

/// The budget of a level per move as [`limits_for`] gives it, with `max` given `time` per
/// move if it has one (a player's own move time, as in `ai:max:3s`; the other levels have
/// none).
pub fn limits_with(level: Level, time: Option<MoveTime>) -> Limits {
    match level {
        Level::Easy => Limits::depth(1),
        Level::Medium => Limits::depth(2),
        Level::Hard => Limits::depth(5),
        Level::Max => Limits::time(time.unwrap_or_default().duration()),
    }
}
