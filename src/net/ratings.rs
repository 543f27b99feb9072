//! Glicko-2 ratings of online players (the `skillratings` crate does the arithmetic): one
//! rating per pool (a rule preset and a speed), the rule that says which games are rated
//! ([`is_rated`]), and a rating as players see it ([`Shown`]: `1523`, `1500?` while
//! provisional). Pure: the server stores the ratings and calls [`rate_game`] when a rated
//! game ends, one game being one rating period (as on the Copenhagen tafl server).

use std::fmt;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2, glicko2_rating_period};

use crate::rules::{Preset, Reason, Side};

/// A rating deviation above which a rating is provisional, marked `?` (as lichess does).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How fast a game is played: a rating is kept for each.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// At one sitting: on a clock, or with no clock.
    #[default]
    Live,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// Both speeds, live first.
    pub const ALL: [Speed; 2] = [Speed::Live, Speed::Correspondence];

    /// Its name, as the database and the command line write it.
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Live => "live",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of that name.
    pub fn named(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The games a rating is kept for: one rule preset at one speed, among people or with bots
/// (a game with a bot in it is rated in the bots' pool unless the server rates bots with
/// people: `brandubh serve --bots-rated-with-humans`).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pool {
    /// The rules.
    pub rules: Preset,
    /// The speed.
    pub speed: Speed,
    /// Whether it is the pool of the games with a bot in them.
    #[serde(default)]
    pub bots: bool,
}

impl Pool {
    /// Every pool: each preset live, then each by correspondence; then the bots' pools in
    /// the same order.
    pub fn all() -> impl Iterator<Item = Pool> {
        [false, true].into_iter().flat_map(|bots| {
            Speed::ALL.into_iter().flat_map(move |speed| {
                Preset::ALL
                    .into_iter()
                    .map(move |rules| Pool { rules, speed, bots })
            })
        })
    }
}

impl fmt::Display for Pool {
    /// `standard live`, `standard live · with bots`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.rules.name(), self.speed.name())?;
        if self.bots {
            write!(f, " · with bots")?;
        }
        Ok(())
    }
}

/// A player's Glicko-2 rating: the rating, its deviation and volatility.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Rating {
    /// The rating (1500 for a newcomer).
    pub rating: f64,
    /// Its deviation (350 for a newcomer).
    pub deviation: f64,
    /// Its volatility (0.06 for a newcomer).
    pub volatility: f64,
}

impl Default for Rating {
    /// A newcomer's rating: the crate's (1500, deviation 350, volatility 0.06).
    fn default() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rating {
    /// The rating as players see it, rounded.
    pub fn shown(self) -> Shown {
        Shown {
            rating: round(self.rating),
            deviation: round(self.deviation),
        }
    }
}

/// A game's result for one player.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Score {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Score {
    /// `side`'s score in a game `winner` won (`None`: a draw).
    pub fn of(side: Side, winner: Option<Side>) -> Score {
        match winner {
            None => Score::Draw,
            Some(w) if w == side => Score::Win,
            Some(_) => Score::Loss,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// Whether a game that ended for `reason` changes its players' ratings: it was created
/// rated, each side made a move (a game resigned or lost on time before that is not rated)
/// and it was not aborted (whatever its moves). The one place this rule is written.
pub fn is_rated(rated: bool, plies: usize, reason: Reason) -> bool {
    rated && plies >= 2 && reason != Reason::Aborted
}

/// `player`'s rating after one rating period of `results` (each opponent's rating before
/// the period, and the player's score), with the usual constant tau = 0.5.
pub fn rate_period(player: Rating, results: &[(Rating, Score)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|&(opponent, score)| (opponent.into(), score.outcome()))
        .collect();
    glicko2_rating_period(&player.into(), &results, &Glicko2Config::new()).into()
}

/// Both players' ratings after one game (one rating period), attackers first, `winner`
/// having won (`None`: a draw).
pub fn rate_game(attackers: Rating, defenders: Rating, winner: Option<Side>) -> [Rating; 2] {
    let score = Score::of(Side::Attackers, winner).outcome();
    let (a, d) = glicko2(
        &attackers.into(),
        &defenders.into(),
        &score,
        &Glicko2Config::new(),
    );
    [a.into(), d.into()]
}

/// A rating as players see it: rounded, with its deviation (a provisional one is marked).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shown {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
}

impl Shown {
    /// Whether it is provisional: a deviation over [`PROVISIONAL_DEVIATION`].
    pub fn provisional(self) -> bool {
        f64::from(self.deviation) > PROVISIONAL_DEVIATION
    }
}

impl fmt::Display for Shown {
    /// `1523`, or `1500?` while provisional.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.provisional() { "?" } else { "" };
        write!(f, "{}{mark}", self.rating)
    }
}

/// A rating before and after a rated game.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// Before the game.
    pub before: Shown,
    /// After it.
    pub after: Shown,
}

impl fmt::Display for Change {
    /// `1523 → 1538 (+15)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let delta = self.after.rating - self.before.rating;
        write!(f, "{} → {} ({delta:+})", self.before, self.after)
    }
}

/// The most digits of a rating or deviation shown: far beyond any real one, it bounds the
/// size of the messages that carry them.
pub const SHOWN_BOUND: i32 = 99_999;

/// `x` rounded to the nearest whole number, within ±[`SHOWN_BOUND`].
#[allow(clippy::cast_possible_truncation)]
fn round(x: f64) -> i32 {
    // `as` saturates (and maps NaN to 0); the clamp bounds it further.
    (x.round() as i32).clamp(-SHOWN_BOUND, SHOWN_BOUND)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn the_worked_example_of_the_glicko2_paper() {
        // Glickman, "Example of the Glicko-2 system": one period of three games.
        let player = rating(1500.0, 200.0);
        let results = [
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ];
        let after = rate_period(player, &results);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn one_game_is_one_period_for_both_players() {
        let [a, d] = rate_game(Rating::default(), Rating::default(), Some(Side::Attackers));
        assert_eq!(a.shown().rating, 1662, "{a:?}");
        assert_eq!(d.shown().rating, 1338, "{d:?}");
        assert_eq!(a.shown().deviation, 290);
        // The same as each player's period of that one game.
        let alone = rate_period(Rating::default(), &[(Rating::default(), Score::Win)]);
        assert_eq!(alone, a);
        let [a, d] = rate_game(rating(1600.0, 80.0), rating(1400.0, 80.0), None);
        assert!(
            a.rating < 1600.0 && d.rating > 1400.0,
            "a draw: {a:?} {d:?}"
        );
    }

    #[test]
    fn a_newcomer_starts_at_the_crate_s_default_and_shows_provisional() {
        let newcomer = Rating::default();
        assert_eq!(
            (newcomer.rating, newcomer.deviation, newcomer.volatility),
            (1500.0, 350.0, 0.06)
        );
        assert_eq!(newcomer.shown().to_string(), "1500?");
        assert_eq!(rating(1523.4, 110.0).shown().to_string(), "1523");
        let change = Change {
            before: rating(1523.0, 60.0).shown(),
            after: rating(1538.2, 58.0).shown(),
        };
        assert_eq!(change.to_string(), "1523 → 1538 (+15)");
    }

    #[test]
    fn a_game_is_rated_only_if_created_rated_each_side_moved_and_not_aborted() {
        assert!(!is_rated(true, 0, Reason::Resignation));
        assert!(!is_rated(true, 1, Reason::Resignation));
        assert!(is_rated(true, 2, Reason::Resignation));
        assert!(!is_rated(false, 40, Reason::KingCaptured));
        assert!(!is_rated(true, 1, Reason::Aborted));
        assert!(!is_rated(true, 2, Reason::Aborted));
    }
}
