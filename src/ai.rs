//! AI opponents behind one seam, [`Ai`]: a seeded random mover and an alpha-beta search
//! engine, their levels and budgets, and a match runner for engine-vs-engine games.
//!
//! The AI knows nothing of terminals or files: callers pass a [`GameState`], [`Limits`], a stop
//! flag and a progress callback, and get a move back.

mod arena;
mod eval;
mod fill;
mod limits;
mod random;
mod search;
mod tt;

use std::sync::atomic::AtomicBool;

pub use arena::{
    EngineSpec, GameResult, MatchConfig, MatchSummary, ParseEngineError, SideRecord,
    elo_difference, play_match,
};
pub use limits::{Limits, ParseDurationError, format_duration, parse_duration};
pub use random::RandomAi;
pub use search::{DEFAULT_TT_MB, Score, SearchAi, SearchInfo};

use crate::game::{EngineKind, Level};
use crate::rules::{GameState, Move};

/// An engine that picks moves.
pub trait Ai: Send {
    /// A short name such as `search:hard` or `random`.
    fn name(&self) -> String;

    /// Chooses a move for the side to move in `state`, within `limits`, returning early once
    /// `stop` is set. `progress` is called with a report after each completed search depth.
    /// Returns `None` only when there is no legal move (the game is over).
    fn choose(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Move>;
}

/// A new engine of `kind` playing at `level`, seeded with `seed` (its only source of randomness).
pub fn engine_for(kind: EngineKind, level: Level, seed: u64) -> Box<dyn Ai> {
    match kind {
        EngineKind::Search => Box::new(SearchAi::new(level, seed, DEFAULT_TT_MB)),
        EngineKind::Random => Box::new(RandomAi::new(seed)),
    }
}

/// The budget of a level, per move: depth-bounded for `easy` and `medium`, time-bounded for
/// `hard` and `max` (`max` is meant to be given the full time a caller allows, 1 s by default).
pub fn limits_for(level: Level) -> Limits {
    match level {
        Level::Easy => Limits::depth(2),
        Level::Medium => Limits::depth(4),
        Level::Hard => Limits::time(std::time::Duration::from_millis(250)),
        Level::Max => Limits::time(std::time::Duration::from_secs(1)),
    }
}
