//! Move notation: `d2-d5`, with captures `d2-d5xd6/e5`, and end marks `++` (king captured)
//! and `--` (king escaped).

use std::fmt;
use std::str::FromStr;

use super::{Bitboard, Move, ParseSquareError, Square};
use crate::quote::excerpt;

/// The mark that ends a move which ends the game on the board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum EndMark {
    /// `++`: the move captured the king.
    KingCaptured,
    /// `--`: the king escaped to a corner.
    KingEscaped,
}

impl EndMark {
    /// `++` or `--`.
    pub const fn text(self) -> &'static str {
        match self {
            EndMark::KingCaptured => "++",
            EndMark::KingEscaped => "--",
        }
    }
}

/// A move with what it did, as the engine reports it: `e2-d2xd3`, `c4-c1xc2/b1`, `d5-a7--`.
/// As in OpenTafl's notation, the king's capture is shown by `++` alone (`d3-c3++`); only
/// soldiers are listed after `x`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct AnnotatedMove {
    /// The move itself.
    pub mv: Move,
    /// The squares of the soldiers it captured (the king's capture is the `++` mark).
    pub captured: Bitboard,
    /// The end mark, if the move captured the king or let him escape.
    pub mark: Option<EndMark>,
}

impl fmt::Display for AnnotatedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        for (i, sq) in self.captured.enumerate() {
            write!(f, "{}{sq}", if i == 0 { 'x' } else { '/' })?;
        }
        if let Some(mark) = self.mark {
            f.write_str(mark.text())?;
        }
        Ok(())
    }
}

/// A move as a player or file wrote it: the move, and the annotations to check, if given.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct MoveText {
    /// The move.
    pub mv: Move,
    /// The captures listed after `x`, in the order written; `None` when there is no `x` part.
    pub captures: Option<Vec<Square>>,
    /// The end mark, if one was written.
    pub mark: Option<EndMark>,
}

/// Why a text is not a move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum ParseMoveError {
    /// Not of the shape `d2-d5[xd6[/e5]][++|--]`.
    Malformed(String),
    /// A square in it is not a square.
    Square(ParseSquareError),
    /// A captured square is listed twice.
    DuplicateCapture(Square),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(s) if s.is_empty() => write!(f, "a move is missing"),
            Self::Malformed(s) => {
                write!(
                    f,
                    "\"{}\" is not a move (expected a form like d2-d5 or d2-d5xd6)",
                    excerpt(s)
                )
            }
            Self::Square(e) => write!(f, "{e}"),
            Self::DuplicateCapture(sq) => write!(f, "capture {sq} is listed twice"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl From<ParseSquareError> for ParseMoveError {
    fn from(e: ParseSquareError) -> Self {
        ParseMoveError::Square(e)
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || ParseMoveError::Malformed(s.to_owned());
        let text = s.trim();
        let (text, mark) = if let Some(rest) = text.strip_suffix("++") {
            (rest, Some(EndMark::KingCaptured))
        } else if let Some(rest) = text.strip_suffix("--") {
            (rest, Some(EndMark::KingEscaped))
        } else {
            (text, None)
        };
        let (squares, captures) = match text.split_once(['x', 'X']) {
            Some((squares, captures)) => (squares, Some(captures)),
            None => (text, None),
        };
        let (from, to) = squares.split_once('-').ok_or_else(malformed)?;
        if from.is_empty() || to.is_empty() {
            return Err(malformed());
        }
        let mv = Move::new(from.parse()?, to.parse()?);
        let captures = match captures {
            None => None,
            Some(list) => {
                let mut seen = Vec::new();
                for name in list.split('/') {
                    if name.is_empty() {
                        return Err(malformed());
                    }
                    let sq: Square = name.parse()?;
                    if seen.contains(&sq) {
                        return Err(ParseMoveError::DuplicateCapture(sq));
                    }
                    seen.push(sq);
                }
                Some(seen)
            }
        };
        Ok(MoveText { mv, captures, mark })
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a move; annotations are accepted but not checked here (use
    /// [`GameState::play_text`](super::GameState::play_text) for that).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<MoveText>().map(|t| t.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn parses_plain_and_annotated_forms() {
        let t: MoveText = "d2-d5xd6/e5++".parse().unwrap();
        assert_eq!(t.mv, Move::new(sq("d2"), sq("d5")));
        assert_eq!(t.captures, Some(vec![sq("d6"), sq("e5")]));
        assert_eq!(t.mark, Some(EndMark::KingCaptured));
        let t: MoveText = " c4-c1-- ".parse().unwrap();
        assert_eq!((t.captures, t.mark), (None, Some(EndMark::KingEscaped)));
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "",
            "d2",
            "d2-",
            "-d5",
            "d2d5",
            "d2-d5x",
            "d2-d5xd6/",
            "d2-d5x/d6",
        ] {
            assert!(
                matches!(bad.parse::<MoveText>(), Err(ParseMoveError::Malformed(_))),
                "{bad}"
            );
        }
        assert_eq!(
            "d2-d9".parse::<MoveText>(),
            Err(ParseMoveError::Square(ParseSquareError::OffBoard(
                "d9".into()
            )))
        );
        assert_eq!(
            "d2-d5xd6/d6".parse::<MoveText>(),
            Err(ParseMoveError::DuplicateCapture(sq("d6")))
        );
    }

    #[test]
    fn long_input_is_cut_in_messages() {
        let long = "é".repeat(100);
        let err = long.parse::<MoveText>().unwrap_err().to_string();
        assert_eq!(err.chars().filter(|&c| c == 'é').count(), 40, "{err}");
        assert!(err.contains("é…\""), "{err}");
        assert_eq!(excerpt("d2-d5"), "d2-d5");
    }

    #[test]
    fn prints_captures_in_square_order() {
        let a = AnnotatedMove {
            mv: Move::new(sq("e2"), sq("d2")),
            captured: [sq("d3"), sq("c2")].into_iter().collect(),
            mark: None,
        };
        assert_eq!(a.to_string(), "e2-d2xc2/d3");
    }
}
