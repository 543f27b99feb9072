//! Move notation: `d2-d5`, with captures `d2-d5xd6/e5`, and end marks `++` (king captured)
//! and `--` (king escaped); read also in OpenTafl's notation (`Ke5-e1`, the marks `+` and
//! `-`, `---` for a resignation) and the archive notation (`e2-d2xc2xd3`, `timeout`).

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::Piece;
use super::square::{ParseSquareError, Square};
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
        for (i, sq) in self.captured.iter().enumerate() {
            write!(f, "{}{sq}", if i == 0 { 'x' } else { '/' })?;
        }
        if let Some(mark) = self.mark {
            f.write_str(mark.text())?;
        }
        Ok(())
    }
}

/// A mark after a move that tells, without ending the game, how the king stands (OpenTafl's
/// notation): checked like every annotation.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub(crate) enum InfoMark {
    /// `+`: after the move the attackers could capture the king with one move.
    KingThreatened,
    /// `-`: after the move the king has an open line to a corner.
    KingCanEscape,
}

/// A move as a player or file wrote it: the move, and the annotations to check, if given.
/// Our form is `d2-d5xd6/e5++`; OpenTafl's notation adds piece letters (`Ke5-e1`, `xKd4`)
/// and the marks `+` and `-`, and other archives list captures as `xc2xd3`.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct MoveText {
    /// The move.
    pub mv: Move,
    /// The captures listed after `x`, in the order written; `None` when there is no `x` part.
    pub captures: Option<Vec<Square>>,
    /// The squares written with a piece letter (`t`, `T`, `K`) in front, with that piece:
    /// the moving piece's square or captured ones. Each must hold that piece before the move.
    pub letters: Vec<(Square, Piece)>,
    /// The end mark, if one was written.
    pub mark: Option<EndMark>,
    /// The information mark (`+`, `-`), if one was written.
    pub(crate) info: Option<InfoMark>,
}

/// Why a text is not a move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum ParseMoveError {
    /// Not of the shape `d2-d5[xd6[/e5]][++|--|+|-]`.
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

/// Splits the marks off the end of a move: `++`, `--`, `+` or `-`.
fn split_marks(text: &str) -> (&str, Option<EndMark>, Option<InfoMark>) {
    if let Some(rest) = text.strip_suffix("++") {
        (rest, Some(EndMark::KingCaptured), None)
    } else if let Some(rest) = text.strip_suffix("--") {
        (rest, Some(EndMark::KingEscaped), None)
    } else if let Some(rest) = text.strip_suffix('+') {
        (rest, None, Some(InfoMark::KingThreatened))
    } else if let Some(rest) = text.strip_suffix('-') {
        (rest, None, Some(InfoMark::KingCanEscape))
    } else {
        (text, None, None)
    }
}

/// A square with an optional piece letter in front (`e5`, `Ke5`), the letter recorded in
/// `letters`.
fn lettered_square(
    text: &str,
    letters: &mut Vec<(Square, Piece)>,
) -> Result<Square, ParseMoveError> {
    let mut chars = text.chars();
    let letter = chars.next().and_then(Piece::from_letter);
    match letter {
        Some(piece) if chars.next().is_some_and(|c| c.is_ascii_alphabetic()) => {
            let sq: Square = text[1..].parse()?;
            letters.push((sq, piece));
            Ok(sq)
        }
        _ => Ok(text.parse()?),
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || ParseMoveError::Malformed(s.to_owned());
        let (text, mark, info) = split_marks(s.trim());
        let (squares, captures) = match text.split_once(['x', 'X']) {
            Some((squares, captures)) => (squares, Some(captures)),
            None => (text, None),
        };
        let (from, to) = squares.split_once('-').ok_or_else(malformed)?;
        if from.is_empty() || to.is_empty() {
            return Err(malformed());
        }
        let mut letters = Vec::new();
        let mv = Move::new(lettered_square(from, &mut letters)?, to.parse()?);
        let captures = match captures {
            None => None,
            Some(list) => {
                let mut seen = Vec::new();
                for name in list.split(['/', 'x', 'X']) {
                    if name.is_empty() {
                        return Err(malformed());
                    }
                    let sq = lettered_square(name, &mut letters)?;
                    if seen.contains(&sq) {
                        return Err(ParseMoveError::DuplicateCapture(sq));
                    }
                    seen.push(sq);
                }
                Some(seen)
            }
        };
        Ok(MoveText {
            mv,
            captures,
            letters,
            mark,
            info,
        })
    }
}

/// One entry of a move record: a move, or an ending written in the place of a move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum RecordEntry {
    /// A move, with its annotations to check.
    Move(MoveText),
    /// `---` (OpenTafl's notation): the side to move resigns.
    Resignation,
    /// `timeout` (the archive notation): the side to move ran out of time.
    Timeout,
}

impl FromStr for RecordEntry {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "---" => Ok(RecordEntry::Resignation),
            "timeout" => Ok(RecordEntry::Timeout),
            _ => s.parse().map(RecordEntry::Move),
        }
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
    fn reads_opentafl_letters_and_marks() {
        let t: MoveText = "Ke5-e1xe2/Kd1+".parse().unwrap();
        assert_eq!(t.mv, Move::new(sq("e5"), sq("e1")));
        assert_eq!(t.captures, Some(vec![sq("e2"), sq("d1")]));
        assert_eq!(
            t.letters,
            [(sq("e5"), Piece::King), (sq("d1"), Piece::King)]
        );
        assert_eq!((t.mark, t.info), (None, Some(InfoMark::KingThreatened)));
        let t: MoveText = "td2-d5-".parse().unwrap();
        assert_eq!(t.letters, [(sq("d2"), Piece::Attacker)]);
        assert_eq!((t.mark, t.info), (None, Some(InfoMark::KingCanEscape)));
        let t: MoveText = "Kc4-c1--".parse().unwrap();
        assert_eq!((t.mark, t.info), (Some(EndMark::KingEscaped), None));
        for bad in ["k5-e1", "Ze5-e1", "e5-e1+-", "e5-e1xZd2"] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_the_archive_form_of_several_captures() {
        let t: MoveText = "e2-d2xc2xd3".parse().unwrap();
        assert_eq!(t.captures, Some(vec![sq("c2"), sq("d3")]));
        let t: MoveText = "e2-d2xc2/d3xe1".parse().unwrap();
        assert_eq!(t.captures, Some(vec![sq("c2"), sq("d3"), sq("e1")]));
        assert_eq!(
            "e2-d2xc2xc2".parse::<MoveText>(),
            Err(ParseMoveError::DuplicateCapture(sq("c2")))
        );
        assert!(matches!(
            "e2-d2xc2x".parse::<MoveText>(),
            Err(ParseMoveError::Malformed(_))
        ));
    }

    #[test]
    fn record_entries_are_moves_resignations_and_timeouts() {
        assert_eq!("---".parse(), Ok(RecordEntry::Resignation));
        assert_eq!(" timeout ".parse(), Ok(RecordEntry::Timeout));
        assert!(matches!(
            "d2-d5xd6".parse::<RecordEntry>(),
            Ok(RecordEntry::Move(MoveText {
                captures: Some(_),
                ..
            }))
        ));
        assert!("----".parse::<RecordEntry>().is_err());
        assert!("Timeout".parse::<RecordEntry>().is_err());
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
