//! The pure rules engine: squares, bitboards, positions, presets, move generation, captures,
//! outcomes, repetition, Zobrist keys, notation and perft. No I/O, threads or randomness.

mod bitboard;
mod capture;
mod moves;
mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
mod preset;
mod square;
mod state;
mod tables;
mod zobrist;

pub use bitboard::Bitboard;
pub use moves::{IllegalMove, MAX_MOVES, Move, MoveList};
pub use notation::{AnnotatedMove, EndMark, MoveText, ParseMoveError, excerpt};
pub use outcome::{
    Outcome, Reason, decided_at_setup, decided_by_move, is_third_occurrence, repetition_outcome,
};
pub use perft::{divide, perft};
pub use piece::{Piece, Side};
pub use position::{Position, START, SetupError};
pub use preset::{KingBesideThrone, KingOnThrone, Preset, Repetition, Rules};
pub use square::{ParseSquareError, SIZE, Square};
pub use state::{GameState, MoveError};
