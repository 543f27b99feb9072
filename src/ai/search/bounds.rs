//! The search's bounds: the deepest line, the scores of wins by distance, and a score above
//! them all.

use crate::ai::eval::MAX_EVAL;
use crate::game::Score;

/// The deepest line searched, in plies from the root.
pub(super) const MAX_PLY: usize = 100;
/// A win at ply `p` from the root scores `MATE - p`.
pub(super) const MATE: i32 = Score::MATE;
/// Above every score.
pub(super) const INF: i32 = 31_000;
/// Scores at or beyond this are wins (or, negated, losses).
#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
pub(super) const WIN_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
const _: () = assert!(MAX_EVAL < WIN_BOUND);
// Every win or loss the search reports reads back as one from its value.
#[allow(clippy::cast_possible_truncation)]
const _: () = assert!(MAX_PLY + 1 < Score::MAX_DISTANCE as usize);
