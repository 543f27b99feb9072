//! Squares of the 7×7 board and their names (`a1` bottom-left, `g7` top-right).

use std::fmt;
use std::str::FromStr;

use crate::quote::excerpt;

/// Number of files (and of ranks) on the board.
pub const SIZE: u8 = 7;

/// One of the 49 squares, numbered `rank * 7 + file` from `a1` = 0 to `g7` = 48.
#[derive(Copy, Clone, Eq, PartialEq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 49;
    /// The throne, `d4`.
    pub const THRONE: Square = Square(24);
    /// The four corners: `a1`, `g1`, `a7`, `g7`.
    pub const CORNERS: [Square; 4] = [Square(0), Square(6), Square(42), Square(48)];

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square(rank * SIZE + file))
        } else {
            None
        }
    }

    /// The square with this index (0..49), if there is one.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            #[allow(clippy::cast_possible_truncation)]
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of a valid index; callers guarantee `index < 49`.
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 49);
        #[allow(clippy::cast_possible_truncation)]
        Square(index as u8)
    }

    /// Index 0..49 (`rank * 7 + file`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..7 (0 = a).
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// Rank 0..7 (0 = rank 1).
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        #[allow(clippy::cast_possible_wrap)]
        let (f, r) = (self.file() as i8 + df, self.rank() as i8 + dr);
        if f < 0 || r < 0 {
            return None;
        }
        #[allow(clippy::cast_sign_loss)]
        Square::new(f as u8, r as u8)
    }

    /// Whether this is the throne, `d4`.
    pub const fn is_throne(self) -> bool {
        self.0 == Self::THRONE.0
    }

    /// Iterator over all 49 squares, `a1`, `b1`, … `g7`.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIZE * SIZE).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

/// Why a text is not a square name.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum ParseSquareError {
    /// Shaped like a square (`a9`, `h1`, `z12`) but off the 7×7 board.
    OffBoard(String),
    /// Not shaped like a square at all.
    Malformed(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OffBoard(s) => write!(f, "{s} is not on the board (a1 to g7)"),
            Self::Malformed(s) if s.is_empty() => write!(f, "a square is missing"),
            Self::Malformed(s) => {
                write!(f, "\"{}\" is not a square (expected a1 to g7)", excerpt(s))
            }
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let file = chars.next().filter(char::is_ascii_alphabetic);
        let rank = chars.as_str();
        let (Some(file), true) = (
            file,
            !rank.is_empty() && rank.len() <= 3 && rank.bytes().all(|b| b.is_ascii_digit()),
        ) else {
            return Err(ParseSquareError::Malformed(s.to_owned()));
        };
        let file = file.to_ascii_lowercase();
        let rank: u8 = rank.parse().unwrap_or(u8::MAX);
        let square = file
            .is_ascii_lowercase()
            .then(|| u8::try_from(u32::from(file) - u32::from('a')).ok())
            .flatten()
            .and_then(|f| rank.checked_sub(1).and_then(|r| Square::new(f, r)));
        square.ok_or_else(|| ParseSquareError::OffBoard(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("g7".parse::<Square>().map(Square::index), Ok(48));
        assert_eq!("D4".parse::<Square>(), Ok(Square::THRONE));
    }

    #[test]
    fn bad_names_are_errors() {
        for bad in ["d9", "h1", "a0", "a8", "z12"] {
            assert_eq!(
                bad.parse::<Square>(),
                Err(ParseSquareError::OffBoard(bad.into()))
            );
        }
        for bad in ["", "4", "dd", "d", "d-1", "é1", "d4x"] {
            assert_eq!(
                bad.parse::<Square>(),
                Err(ParseSquareError::Malformed(bad.into()))
            );
        }
        assert_eq!(
            "d9".parse::<Square>().unwrap_err().to_string(),
            "d9 is not on the board (a1 to g7)"
        );
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let a1 = Square::new(0, 0).unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(0, -1), None);
        assert_eq!(a1.offset(1, 1).map(|s| s.to_string()), Some("b2".into()));
        assert_eq!(Square::new(6, 3).unwrap().offset(1, 0), None);
    }
}
