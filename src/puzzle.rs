//! Puzzles: positions where one side forces a win, or has one move that holds, proven by
//! an exact search.
//!
//! [`Solver`] answers "does the side to move force a win within N of its own moves?" over
//! the rules engine alone, with no evaluation. [`Puzzle`]s are stored in sets per preset
//! ([`shipped`]), made by [`generate`] from engine self-play, and verified by the solver.

mod coach;
mod generate;
mod otg;
mod progress;
mod record;
mod solve;
mod symmetry;

pub use coach::{Verdict, judge, winning_line};
pub use generate::{GenerateConfig, Generated, HOLD_AGAINST, LONGEST_WIN, Rejections, generate};
pub use otg::{OtgPuzzleError, puzzle_from_otg, puzzle_to_otg};
pub use progress::{AIM_BELOW, Attempt, Progress, START_RATING};
pub use record::{
    Difficulty, FORMAT, Goal, Grade, MAX_MOVES, MAX_SET_BYTES, Puzzle, PuzzleError, PuzzleSet,
    SetError, VERSION, shipped, shipped_json,
};
pub use solve::{Resistance, Solver};
pub use symmetry::{canonical_key, images};
