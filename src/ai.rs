//! AI opponents behind one seam, [`Ai`]: a seeded random mover and an alpha-beta search
//! engine, their levels and budgets, and a match runner for engine-vs-engine games.
//!
//! The AI knows nothing of terminals or files: callers pass a
//! [`GameState`](crate::rules::GameState), [`Limits`], a stop flag and a progress callback,
//! and get a move back.

mod bench;
mod engine;
mod engine_match;
mod eval;
mod external;
mod fill;
mod game_analyzer;
mod levels;
mod limits;
mod pacing;
mod params;
mod random;
mod search;
mod time_source;
mod tt;
mod worker;

pub use bench::{BENCH_CASES, BenchCase, BenchResult, bench, signature};
pub use engine::{Ai, Failure, NoMove, SLOWNESS_ALLOWED, SearchInfo};
pub use engine_match::{
    EngineSpec, GameResult, MatchConfig, MatchSummary, ParseEngineError, SideRecord,
    UnplayableRules, elo_difference, engine_usage, play_match,
};
pub use eval::{Features, Weights, features, weights};
pub use external::{DEFAULT_MOVE_TIME, ExternalAi, ExternalOptions, HELLO_WAIT};
pub use game_analyzer::{AnalysisEvent, Analyzer, Budget, Progress, Stopped};
pub use levels::{engine_for, limits_for, limits_with};
pub use limits::Limits;
pub use pacing::Pacer;
pub use params::SearchParams;
pub use random::RandomAi;
pub use search::{DEFAULT_TT_MB, SearchAi};
#[cfg(test)]
pub(crate) use time_source::manual::ManualTime;
pub use time_source::{RealTime, TimeSource};
pub use tt::MAX_TT_MB;
pub use worker::{JobId, MoveLimits, Report, Worker};

/// Scores are game-layer data (analyses save them); the search reports them.
pub use crate::game::Score;
