//! Checking a position chosen to start a game from (`play --position`, the new-game screen,
//! "play from here" in a review, `match --position`).

use std::fmt;

use crate::rules::{GameState, Outcome, Position, Rules, SetupError};

/// Why a position cannot start a game.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum StartError {
    /// The text is not a position.
    Setup(SetupError),
    /// The game would be over before the first move (king missing or on a corner, the
    /// defenders encircled, or the side to move without a move).
    Over(Outcome),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Setup(e) => write!(f, "{e}"),
            StartError::Over(outcome) => write!(
                f,
                "the game is already over in this position ({outcome}): nothing to play"
            ),
        }
    }
}

impl std::error::Error for StartError {}

/// `position` if a game under `rules` can start from it: one that is not over yet.
///
/// A game started from a position has no history before it: repetitions count from there.
pub fn check_start(rules: &Rules, position: Position) -> Result<Position, StartError> {
    match GameState::new(*rules, position).outcome() {
        Some(outcome) => Err(StartError::Over(outcome)),
        None => Ok(position),
    }
}

/// Parses a position string (the side to move is part of it) as the start of a game under
/// `rules`, checked with [`check_start`].
///
/// ```
/// use brandubh::game::{StartError, parse_start};
/// use brandubh::rules::{Position, Preset};
///
/// let rules = Preset::Standard.rules();
/// assert_eq!(parse_start(&rules, brandubh::rules::START), Ok(Position::start()));
/// assert!(matches!(parse_start(&rules, "/7/7/7/7/7/7/7/ a"), Err(StartError::Over(_))));
/// ```
pub fn parse_start(rules: &Rules, text: &str) -> Result<Position, StartError> {
    let position = text.parse().map_err(StartError::Setup)?;
    check_start(rules, position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, Reason, Side};

    #[test]
    fn positions_that_are_not_positions_or_already_decided_are_refused() {
        let rules = Preset::Standard.rules();
        let position = parse_start(&rules, "/3t3/7/3T3/ttTKTtt/3T3/3t3/3t3/ d").unwrap();
        assert_eq!(position.side_to_move(), Side::Defenders);
        assert_eq!(
            parse_start(&rules, "/3t3/3t3/"),
            Err(StartError::Setup(SetupError::RankCount(2)))
        );
        let escaped = parse_start(&rules, "K6/7/7/7/7/7/7 a").unwrap_err();
        assert_eq!(
            escaped,
            StartError::Over(Outcome::win(Side::Defenders, Reason::KingEscaped))
        );
        assert!(escaped.to_string().contains("already over"), "{escaped}");
        // Encirclement decides under the rules that have it only.
        let encircled = "/7/1ttttt1/1tTKTt1/1t3t1/1ttttt1/7/7/ d";
        assert!(matches!(
            parse_start(&rules, encircled),
            Err(StartError::Over(Outcome {
                reason: Reason::Encircled,
                ..
            }))
        ));
        assert!(parse_start(&Preset::Walker.rules(), encircled).is_ok());
    }
}
