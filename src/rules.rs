//! The pure rules engine: squares, bitboards, positions, presets, move generation, captures,
//! outcomes, repetition, Zobrist keys, notation, OpenTafl rules strings and perft. No I/O, threads or randomness.
//!
//! ```
//! use brandubh::rules::{GameState, Position, Preset, Reason, Side, perft};
//!
//! // The king walks out: the engine annotates every move and ends the game.
//! let mut game = GameState::start(Preset::Standard.rules());
//! for text in ["a4-a3", "c4-c2", "d7-e7", "d4-c4", "e7-e6", "c4-c7", "a3-a2"] {
//!     game.play_text(text)?;
//! }
//! let last = game.play_text("c7-a7")?;
//! assert_eq!(last.to_string(), "c7-a7--");
//! assert_eq!(game.outcome().map(|o| (o.winner, o.reason)), Some((Some(Side::Defenders), Reason::KingEscaped)));
//!
//! // Positions are OpenTafl records, rank 1 first; perft counts move sequences.
//! let start: Position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".parse()?;
//! assert_eq!(perft(&GameState::new(Preset::Standard.rules(), start), 2), 960);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod capture;
mod moves;
mod notation;
mod opentafl;
mod outcome;
mod perft;
mod piece;
mod position;
mod preset;
mod square;
mod state;
mod tables;
mod threats;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use moves::{IllegalMove, MAX_MOVES, Move, MoveList};
pub use notation::{AnnotatedMove, EndMark, MoveText, ParseMoveError, RecordEntry};
pub use opentafl::{
    RulesStringError, parse_position_record, parse_rules_string, position_record, rules_string,
};
pub use outcome::{Outcome, Reason};
pub(crate) use outcome::{decided_by_move, is_third_occurrence, repetition_outcome};
pub use perft::{divide, perft};
pub use piece::{Piece, Side};
pub use position::{Position, START, SetupError};
pub use preset::{KingBesideThrone, KingOnThrone, Preset, Repetition, Rules};
pub use square::{ParseSquareError, SIZE, Square};
pub use state::{GameState, MoveError};

/// The engine's internal steps are no part of its public surface: outside the crate they
/// cannot be named. Each block below must fail to compile.
///
/// ```compile_fail
/// use brandubh::rules::decided_at_setup;
/// ```
/// ```compile_fail
/// use brandubh::rules::decided_by_move;
/// ```
/// ```compile_fail
/// use brandubh::rules::is_third_occurrence;
/// ```
/// ```compile_fail
/// use brandubh::rules::repetition_outcome;
/// ```
/// ```compile_fail
/// use brandubh::rules::InfoMark;
/// ```
/// ```compile_fail
/// let _ = "d2-d5+".parse::<brandubh::rules::MoveText>().map(|text| text.info);
/// ```
/// ```compile_fail
/// brandubh::rules::Position::start().for_each_piece_moves(|_, _| {});
/// ```
/// ```compile_fail
/// let _ = brandubh::rules::Position::start().king_escaped();
/// ```
/// ```compile_fail
/// let _ = brandubh::rules::Piece::from_letter('K');
/// ```
#[cfg(doctest)]
pub struct InternalStepsArePrivate;
