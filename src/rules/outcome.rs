//! How games end.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::bitboard::Bitboard;
use super::piece::Side;
use super::position::Position;
use super::preset::{Repetition, Rules};

/// Why a game ended.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The king reached a corner.
    KingEscaped,
    /// The attackers captured the king.
    KingCaptured,
    /// The attackers encircled every defender and the king.
    Encircled,
    /// The side to move had no legal move.
    NoMoves,
    /// A position occurred for the third time.
    Repetition,
    /// Both players agreed to a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time (the flag fell); the other side wins.
    Time,
    /// A match runner stopped the game (for example at a ply cap).
    Adjudicated,
    /// A player of an online game left and did not come back in time; the other side wins.
    Abandoned,
    /// An online game stopped before both players had moved: no winner, never rated.
    Aborted,
    /// Another program's record gives the result (a winner or a draw) in words that name none
    /// of these reasons (OpenTafl's `Attacker wins`): the game ended off the board as
    /// recorded.
    Recorded,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 12] = [
        Reason::KingEscaped,
        Reason::KingCaptured,
        Reason::Encircled,
        Reason::NoMoves,
        Reason::Repetition,
        Reason::Agreement,
        Reason::Resignation,
        Reason::Time,
        Reason::Adjudicated,
        Reason::Abandoned,
        Reason::Aborted,
        Reason::Recorded,
    ];

    /// The kebab-case name used in output and save files, e.g. `king-captured`.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::KingEscaped => "king-escaped",
            Reason::KingCaptured => "king-captured",
            Reason::Encircled => "encircled",
            Reason::NoMoves => "no-moves",
            Reason::Repetition => "repetition",
            Reason::Agreement => "agreement",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
            Reason::Adjudicated => "adjudicated",
            Reason::Abandoned => "abandoned",
            Reason::Aborted => "aborted",
            Reason::Recorded => "recorded",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `side`.
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// Why the game ended, in words for people: `the king was captured`, `the defenders have
    /// no move`. A repetition names the side that made the position occur a third time,
    /// `last_mover` (the side whose move ended the game), and, where the rules make someone
    /// else lose, who and why: `threefold repetition by the attackers; the defenders began
    /// the cycle`.
    ///
    /// ```
    /// use brandubh::rules::{Outcome, Preset, Reason, Side};
    ///
    /// let standard = Preset::Standard.rules();
    /// let won = Outcome::win(Side::Defenders, Reason::Repetition);
    /// assert_eq!(won.why(&standard, Side::Attackers), "threefold repetition by the attackers");
    /// let fellhuhn = Preset::Fellhuhn.rules();
    /// assert_eq!(
    ///     won.why(&fellhuhn, Side::Defenders),
    ///     "threefold repetition by the defenders; the attackers began the cycle"
    /// );
    /// let escaped = Outcome::win(Side::Defenders, Reason::KingEscaped);
    /// assert_eq!(escaped.why(&standard, Side::Defenders), "the king escaped to a corner");
    /// ```
    pub fn why(self, rules: &Rules, last_mover: Side) -> String {
        let loser = self.winner.map_or(last_mover.opponent(), Side::opponent);
        match self.reason {
            Reason::KingEscaped => "the king escaped to a corner".to_owned(),
            Reason::KingCaptured => "the king was captured".to_owned(),
            Reason::Encircled => "the defenders are encircled".to_owned(),
            Reason::NoMoves => format!("the {loser} have no move"),
            Reason::Repetition => {
                let by = format!("threefold repetition by the {last_mover}");
                match (rules.repetition, self.winner) {
                    (Repetition::SideToMoveLoses, Some(_)) => {
                        format!("{by}; the {loser} began the cycle")
                    }
                    (Repetition::DefendersLose, Some(_)) => {
                        format!("{by}, which loses for the defenders")
                    }
                    _ => by,
                }
            }
            Reason::Agreement => "agreed by both players".to_owned(),
            Reason::Resignation => format!("the {loser} resigned"),
            Reason::Time => format!("the {loser} ran out of time"),
            Reason::Adjudicated => "adjudicated".to_owned(),
            Reason::Abandoned => format!("the {loser} left and did not return"),
            Reason::Aborted => "aborted before both players had moved".to_owned(),
            Reason::Recorded => "as recorded".to_owned(),
        }
    }
}

impl fmt::Display for Outcome {
    /// `attackers king-captured`, `defenders king-escaped`, `draw repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} {}", self.reason),
            None if self.reason == Reason::Aborted => write!(f, "{}", self.reason),
            None => write!(f, "draw {}", self.reason),
        }
    }
}

/// The win a move decides on the board alone: the king captured or escaped, or (after an
/// attackers' move, where the rules have it) the defenders encircled. `captured` is what the
/// move took. Repetition and "no legal move" are decided by [`GameState`](super::GameState).
#[inline]
pub(crate) fn decided_by_move(
    rules: &Rules,
    after: &Position,
    captured: Bitboard,
) -> Option<Outcome> {
    let mover = after.side_to_move().opponent();
    match mover {
        Side::Attackers => {
            if after.king().is_none() && !captured.is_empty() {
                Some(Outcome::win(Side::Attackers, Reason::KingCaptured))
            } else if rules.encirclement && after.is_encircled() {
                Some(Outcome::win(Side::Attackers, Reason::Encircled))
            } else {
                None
            }
        }
        Side::Defenders => after
            .king_escaped()
            .then_some(Outcome::win(Side::Defenders, Reason::KingEscaped)),
    }
}

/// The outcome of a set-up position before any move: king missing or on a corner, the
/// defenders to move while encircled, or the side to move without a legal move.
pub(crate) fn decided_at_setup(rules: &Rules, position: &Position) -> Option<Outcome> {
    let side = position.side_to_move();
    if position.king().is_none() {
        Some(Outcome::win(Side::Attackers, Reason::KingCaptured))
    } else if position.king_escaped() {
        Some(Outcome::win(Side::Defenders, Reason::KingEscaped))
    } else if rules.encirclement && side == Side::Defenders && position.is_encircled() {
        Some(Outcome::win(Side::Attackers, Reason::Encircled))
    } else if !position.has_moves() {
        Some(Outcome::win(side.opponent(), Reason::NoMoves))
    } else {
        None
    }
}

/// Whether the last position of `history` (oldest first) occurs there for the third time.
#[inline]
pub(crate) fn is_third_occurrence(history: &[Position]) -> bool {
    history
        .split_last()
        .is_some_and(|(current, earlier)| occurrences_before(earlier, current) >= 2)
}

/// How often `position` occurred in `earlier`, the positions before it (oldest first, the
/// last one being the position it arises from). Only positions with the same side to move
/// since the last capture are compared: no earlier position can recur.
#[inline]
pub(crate) fn occurrences_before(earlier: &[Position], position: &Position) -> usize {
    let pieces = position.occupied().count();
    earlier
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .take_while(|p| p.occupied().count() == pieces)
        .filter(|p| *p == position)
        .count()
}

/// What the rules decide when the last move created a third occurrence; `side_to_move` is
/// the side to move in the repeated position.
pub(crate) const fn repetition_outcome(rules: &Rules, side_to_move: Side) -> Outcome {
    let winner = match rules.repetition {
        Repetition::MoverLoses => Some(side_to_move),
        Repetition::SideToMoveLoses => Some(side_to_move.opponent()),
        Repetition::DefendersLose => Some(Side::Attackers),
        Repetition::Draw => None,
    };
    Outcome {
        winner,
        reason: Reason::Repetition,
    }
}
