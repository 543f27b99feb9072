//! Scores of positions, as the search reports them and as game analyses record them, and
//! the one way they are shown to people ([`Score::text`]).

use std::fmt;

use crate::rules::Side;

/// A score, from the point of view of one side (for a search, the side to move at the root).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Score {
    /// An evaluation, in hundredths of an attacking soldier.
    Eval(i32),
    /// A forced win, this many plies from the position (0: the game is won already).
    Win(u32),
    /// A forced loss, this many plies from the position (0: the game is lost already).
    Loss(u32),
}

impl Score {
    /// The value of a game already won: a win in `n` plies is worth `MATE - n`.
    pub const MATE: i32 = 30_000;
    /// The farthest win or loss a value can express, in plies; values nearer to zero are
    /// evaluations.
    pub const MAX_DISTANCE: u32 = 1_000;

    /// One number for the score: evaluations as they are, a win in `n` plies as `30000 - n`,
    /// a loss in `n` plies as `n - 30000`.
    #[allow(clippy::cast_possible_wrap)]
    pub const fn value(self) -> i32 {
        match self {
            Score::Eval(v) => v,
            Score::Win(n) => Score::MATE - n as i32,
            Score::Loss(n) => n as i32 - Score::MATE,
        }
    }

    /// The score a number stands for, the inverse of [`Score::value`]: within
    /// [`Score::MAX_DISTANCE`] of `±MATE` a win or loss, otherwise an evaluation.
    #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
    pub const fn from_value(value: i32) -> Score {
        let bound = Score::MATE - Score::MAX_DISTANCE as i32;
        if value >= bound {
            Score::Win(value.abs_diff(Score::MATE))
        } else if value <= -bound {
            Score::Loss(value.abs_diff(-Score::MATE))
        } else {
            Score::Eval(value)
        }
    }

    /// The same score from the other side's point of view.
    #[must_use]
    pub const fn negated(self) -> Score {
        match self {
            Score::Eval(v) => Score::Eval(-v),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
        }
    }

    /// The score, which is `side`'s, as people read it, saying whose point of view it is:
    /// `attackers +0.35` (an evaluation in soldiers, for the attackers), `defenders win in 5`
    /// (plies; a forced loss is told as the other side's win), `attackers won`. The terminal
    /// game and the command line show every score so; the OpenTafl protocol keeps its own
    /// format ([`Display`](fmt::Display)).
    pub fn text(self, side: Side) -> String {
        match self {
            Score::Eval(v) => format!("{side} {:+.2}", f64::from(v) / 100.0),
            Score::Win(0) => format!("{side} won"),
            Score::Loss(0) => format!("{} won", side.opponent()),
            Score::Win(n) => format!("{side} win in {n}"),
            Score::Loss(n) => format!("{} win in {n}", side.opponent()),
        }
    }

    /// Whether the score is a forced win.
    pub const fn is_win(self) -> bool {
        matches!(self, Score::Win(_))
    }

    /// Whether the score is a forced loss.
    pub const fn is_loss(self) -> bool {
        matches!(self, Score::Loss(_))
    }
}

impl fmt::Display for Score {
    /// `+35`, `-120`, `win in 3`, `loss in 4` (plies), `won`, `lost`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Eval(v) => write!(f, "{v:+}"),
            Score::Win(0) => f.write_str("won"),
            Score::Loss(0) => f.write_str("lost"),
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_negate() {
        for score in [
            Score::Eval(0),
            Score::Eval(-19_999),
            Score::Eval(19_999),
            Score::Win(0),
            Score::Win(7),
            Score::Loss(0),
            Score::Loss(101),
        ] {
            assert_eq!(Score::from_value(score.value()), score);
            assert_eq!(score.negated().value(), -score.value());
            assert_eq!(score.negated().negated(), score);
        }
        assert_eq!(Score::Win(3).value(), 29_997);
        assert_eq!(Score::from_value(-29_996), Score::Loss(4));
        assert!(Score::Win(2).is_win() && !Score::Win(2).is_loss());
        assert!(Score::Loss(2).is_loss() && !Score::Eval(-500).is_loss());
    }

    #[test]
    fn a_score_in_words_says_whose_point_of_view_it_is() {
        let texts = [
            Score::Eval(35),
            Score::Eval(-120),
            Score::Win(3),
            Score::Loss(4),
            Score::Win(0),
            Score::Loss(0),
        ]
        .map(|s| s.text(Side::Defenders));
        assert_eq!(
            texts,
            [
                "defenders +0.35",
                "defenders -1.20",
                "defenders win in 3",
                "attackers win in 4",
                "defenders won",
                "attackers won"
            ]
        );
        assert_eq!(Score::Eval(0).text(Side::Attackers), "attackers +0.00");
    }

    #[test]
    fn scores_display_as_players_read_them() {
        let texts = [
            Score::Eval(35),
            Score::Eval(-120),
            Score::Win(3),
            Score::Loss(4),
        ]
        .map(|s| s.to_string());
        assert_eq!(texts, ["+35", "-120", "win in 3", "loss in 4"]);
        assert_eq!(Score::Win(0).to_string(), "won");
        assert_eq!(Score::Loss(0).to_string(), "lost");
    }
}
