//! Each level's engine and its budget per move.

use super::engine::Ai;
use super::limits::Limits;
use super::random::RandomAi;
use super::search::{DEFAULT_TT_MB, SearchAi};
use crate::game::{EngineKind, Level, MoveTime};

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
