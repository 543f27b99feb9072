//! A position in the context of a game: the rules, every position since the start (for
//! repetition), and the outcome once the game is over.

use std::fmt;

use super::bitboard::Bitboard;
use super::moves::{IllegalMove, Move, MoveList};
use super::notation::{AnnotatedMove, EndMark, InfoMark, MoveText, ParseMoveError};
use super::outcome::{
    Outcome, Reason, decided_at_setup, decided_by_move, is_third_occurrence, occurrences_before,
    repetition_outcome,
};
use super::piece::{Piece, Side};
use super::position::Position;
use super::preset::Rules;
use super::square::Square;

/// Rules, the positions of a game so far and its outcome. Playing a move updates all three.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    rules: Rules,
    history: Vec<Position>,
    outcome: Option<Outcome>,
}

impl GameState {
    /// A game under `rules` from `start`. A start position that is already decided (king
    /// missing or on a corner, side to move without moves) starts with its outcome.
    pub fn new(rules: Rules, start: Position) -> GameState {
        GameState {
            outcome: decided_at_setup(&rules, &start),
            rules,
            history: vec![start],
        }
    }

    /// A game under `rules` from the standard start position.
    pub fn start(rules: Rules) -> GameState {
        GameState::new(rules, Position::start())
    }

    /// The rules of the game.
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `history` always holds the start position.
        &self.history[self.history.len() - 1]
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.history[0]
    }

    /// Every position so far, the start first and the current one last.
    pub fn history(&self) -> &[Position] {
        &self.history
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.history.len() - 1
    }

    /// The outcome, once the game is over.
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why the game is over, in words ([`Outcome::why`]), if it is; a repetition was made by
    /// the side whose move ended the game.
    pub fn outcome_why(&self) -> Option<String> {
        let last_mover = self.position().side_to_move().opponent();
        self.outcome.map(|o| o.why(&self.rules, last_mover))
    }

    /// Whether the game is over.
    pub const fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves: none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How often the current position has occurred so far, this time included.
    pub fn occurrences(&self) -> usize {
        1 + occurrences_before(&self.history[..self.ply()], self.position())
    }

    /// Checks `mv` without playing it.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.position().check_move(mv)
    }

    /// Plays a legal move and returns it annotated; an illegal one is refused and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<AnnotatedMove, IllegalMove> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move already known to be legal in the current, unfinished game.
    pub fn play_unchecked(&mut self, mv: Move) -> AnnotatedMove {
        let mut next = *self.position();
        let king_before = next.pieces(Side::Defenders) & !next.defenders();
        let captured = next.play_unchecked(mv, &self.rules);
        self.history.push(next);
        self.outcome = decided_by_move(&self.rules, &next, captured)
            .or_else(|| {
                is_third_occurrence(&self.history)
                    .then(|| repetition_outcome(&self.rules, next.side_to_move()))
            })
            .or_else(|| {
                (!next.has_moves())
                    .then(|| Outcome::win(next.side_to_move().opponent(), Reason::NoMoves))
            });
        let mark = match self.outcome.map(|o| o.reason) {
            Some(Reason::KingCaptured) => Some(EndMark::KingCaptured),
            Some(Reason::KingEscaped) => Some(EndMark::KingEscaped),
            _ => None,
        };
        AnnotatedMove {
            mv,
            captured: captured & !king_before,
            mark,
        }
    }

    /// Plays a move written as text. Annotations are checked, not trusted: listed captures
    /// must be exactly the soldiers the move captures (in any order; the king's square may be
    /// added when he is captured), piece letters must name the pieces on their squares, an
    /// end mark must be right, and so must OpenTafl's marks `+` and `-`.
    pub fn play_text(&mut self, text: &str) -> Result<AnnotatedMove, MoveError> {
        let written: MoveText = text.parse()?;
        self.check_move(written.mv)?;
        let before = *self.position();
        if let Some(&(square, letter)) = written
            .letters
            .iter()
            .find(|&&(sq, piece)| before.piece_at(sq) != Some(piece))
        {
            return Err(MoveError::WrongPiece {
                square,
                letter,
                actual: before.piece_at(square),
            });
        }
        let done = self.play_unchecked(written.mv);
        let wrong = annotation_error(&written, done, before.king())
            .or_else(|| info_error(&written, done, self.position(), &self.rules));
        if let Some(error) = wrong {
            self.undo();
            return Err(error);
        }
        Ok(done)
    }

    /// The moves of `line` as they would be played from here, annotated, up to the first
    /// one that cannot be played (the game is unchanged).
    pub fn annotate(&self, line: &[Move]) -> Vec<AnnotatedMove> {
        let mut state = self.clone();
        line.iter().map_while(|&mv| state.play(mv).ok()).collect()
    }

    /// Takes back the last move, if any, and returns the position it was played from.
    pub fn undo(&mut self) -> Option<&Position> {
        if self.history.len() < 2 {
            return None;
        }
        self.history.pop();
        self.outcome = None;
        Some(self.position())
    }

    /// Ends the game by a decision outside the board (agreement, resignation, adjudication).
    pub fn conclude(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }
}

/// What is wrong with the annotations of `written`, given what the move did; `king` is the
/// king's square before the move (it may be listed among the captures when he is taken).
fn annotation_error(
    written: &MoveText,
    done: AnnotatedMove,
    king: Option<Square>,
) -> Option<MoveError> {
    if let Some(listed) = &written.captures {
        let listed: Bitboard = listed.iter().copied().collect();
        let king = king.filter(|_| done.mark == Some(EndMark::KingCaptured));
        let with_king = king.map_or(done.captured, |k| done.captured.with(k));
        if listed != done.captured && listed != with_king {
            return Some(MoveError::WrongCaptures {
                written: listed,
                actual: done,
            });
        }
    }
    (written.mark.is_some() && written.mark != done.mark).then_some(MoveError::WrongMark(done))
}

/// What is wrong with an information mark of `written`, given the position `after` the move.
fn info_error(
    written: &MoveText,
    done: AnnotatedMove,
    after: &Position,
    rules: &Rules,
) -> Option<MoveError> {
    match written.info? {
        InfoMark::KingThreatened => after
            .king_capture_moves(rules)
            .is_empty()
            .then_some(MoveError::WrongThreatMark(done)),
        InfoMark::KingCanEscape => after
            .king_open_corners()
            .is_empty()
            .then_some(MoveError::WrongEscapeMark(done)),
    }
}

/// Why a written move cannot be played.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum MoveError {
    /// The text is not a move.
    Parse(ParseMoveError),
    /// The move is not legal here.
    Illegal(IllegalMove),
    /// The listed captures are not the ones the move makes.
    WrongCaptures {
        /// What the text listed.
        written: Bitboard,
        /// What the move does.
        actual: AnnotatedMove,
    },
    /// The end mark does not match what the move does.
    WrongMark(AnnotatedMove),
    /// A piece letter names a piece that is not on its square.
    WrongPiece {
        /// The square written with the letter.
        square: Square,
        /// The piece the letter names.
        letter: Piece,
        /// What stands there before the move.
        actual: Option<Piece>,
    },
    /// `+` written, but after the move the attackers cannot capture the king with one move.
    WrongThreatMark(AnnotatedMove),
    /// `-` written, but after the move the king has no open line to a corner.
    WrongEscapeMark(AnnotatedMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(e) => write!(f, "{e}"),
            Self::Illegal(e) => write!(f, "illegal move: {e}"),
            Self::WrongCaptures { written, actual } => {
                let names: Vec<String> = written.iter().map(|s| s.to_string()).collect();
                let listed = if names.is_empty() {
                    "no captures".to_owned()
                } else {
                    format!("captures {}", names.join("/"))
                };
                if actual.captured.is_empty() {
                    write!(f, "{listed} listed, but the move captures nothing")
                } else {
                    write!(f, "{listed} listed, but the move is {actual}")
                }
            }
            Self::WrongMark(actual) => match actual.mark {
                Some(_) => write!(f, "wrong end mark: the move is {actual}"),
                None => write!(
                    f,
                    "end mark given, but the move {actual} does not end the game"
                ),
            },
            Self::WrongPiece {
                square,
                letter,
                actual,
            } => {
                let letter = letter.letter();
                match actual {
                    Some(piece) => write!(
                        f,
                        "{letter}{square} written, but the piece on {square} is {}",
                        piece.letter()
                    ),
                    None => write!(f, "{letter}{square} written, but {square} is empty"),
                }
            }
            Self::WrongThreatMark(actual) => write!(
                f,
                "\"+\" written, but after {actual} the attackers cannot capture the king with one move"
            ),
            Self::WrongEscapeMark(actual) => write!(
                f,
                "\"-\" written, but after {actual} the king has no open line to a corner"
            ),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> Self {
        MoveError::Parse(e)
    }
}

impl From<IllegalMove> for MoveError {
    fn from(e: IllegalMove) -> Self {
        MoveError::Illegal(e)
    }
}
