//! Moves and fixed-capacity move lists.

use std::fmt;
use std::ops::Deref;

use super::square::Square;

/// A move of one piece from one square to another along a rank or file.
#[derive(Copy, Clone, Eq, PartialEq, Hash, PartialOrd, Ord, Debug)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to` (not checked for legality).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece arrives on.
    pub const fn to(self) -> Square {
        self.to
    }
}

impl fmt::Display for Move {
    /// Plain notation, `d2-d5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// The most moves any position can have: each empty square is reached from at most four
/// directions, by the first piece in each.
pub const MAX_MOVES: usize = 4 * Square::COUNT;

/// The legal moves of a position, without allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub(crate) fn new() -> MoveList {
        let a1 = Square::CORNERS[0];
        MoveList {
            moves: [Move::new(a1, a1); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Why a move cannot be played in a position.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// There is no piece on the starting square.
    NoPiece(Square),
    /// The piece on the starting square belongs to the side not to move.
    NotYourPiece(Square),
    /// The piece would not move.
    NullMove(Square),
    /// The squares are not on one rank or file.
    NotStraight(Move),
    /// A piece stands in the way (on the destination or between).
    Blocked(Move, Square),
    /// Only the king may stop on the throne or a corner.
    RestrictedSquare(Square),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GameOver => write!(f, "the game is over"),
            Self::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            Self::NotYourPiece(sq) => write!(f, "the piece on {sq} belongs to the other side"),
            Self::NullMove(sq) => write!(f, "the piece on {sq} must move to another square"),
            Self::NotStraight(mv) => {
                write!(
                    f,
                    "{mv} is not along a rank or file (pieces move like rooks)"
                )
            }
            Self::Blocked(mv, sq) if *sq == mv.to() => write!(f, "{sq} is occupied"),
            Self::Blocked(mv, sq) => write!(f, "{mv} is blocked by the piece on {sq}"),
            Self::RestrictedSquare(sq) if sq.is_throne() => {
                write!(f, "only the king may stop on the throne {sq}")
            }
            Self::RestrictedSquare(sq) => write!(f, "only the king may stop on the corner {sq}"),
        }
    }
}

impl std::error::Error for IllegalMove {}
