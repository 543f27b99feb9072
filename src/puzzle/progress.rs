//! The player's puzzle progress: solved, failed, the streak, and an Elo rating that moves
//! with each attempt against the puzzle's own rating, so that the next puzzle fits.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::record::Puzzle;

/// A new player's rating.
pub const START_RATING: f64 = 1000.0;
/// The Elo factor for a player's first attempts, and after them.
const K_NEW: f64 = 64.0;
const K_SETTLED: f64 = 24.0;
/// Attempts after which the factor settles.
const SETTLED_AFTER: u32 = 20;
/// The Elo scale: a difference of this many points is ten to one.
const ELO_SCALE: f64 = 400.0;

/// How an attempt ended.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attempt {
    /// Solved without a wrong move and without asking for the answer.
    Solved,
    /// A wrong move, or the answer shown.
    Failed,
}

/// Everything remembered about the player's puzzles.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    solved: u32,
    failed: u32,
    streak: u32,
    best_streak: u32,
    #[serde(deserialize_with = "rating_in_range")]
    rating: f64,
    /// The last result of each puzzle tried, by its id.
    tried: BTreeMap<String, Attempt>,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress {
            solved: 0,
            failed: 0,
            streak: 0,
            best_streak: 0,
            rating: START_RATING,
            tried: BTreeMap::new(),
        }
    }
}

/// How far under the player's rating the next puzzle is aimed: a puzzle rated 100 under is
/// solved about 64% of the time by the Elo formula, so that a player mostly succeeds and is
/// still stretched.
pub const AIM_BELOW: f64 = 100.0;

impl Progress {
    /// Puzzles solved, counting each attempt.
    pub const fn solved(&self) -> u32 {
        self.solved
    }

    /// Puzzles failed, counting each attempt.
    pub const fn failed(&self) -> u32 {
        self.failed
    }

    /// Puzzles solved in a row, up to now.
    pub const fn streak(&self) -> u32 {
        self.streak
    }

    /// The longest streak so far.
    pub const fn best_streak(&self) -> u32 {
        self.best_streak
    }

    /// The player's puzzle rating, rounded.
    #[allow(clippy::cast_possible_truncation)]
    pub fn rating(&self) -> i32 {
        self.rating.round() as i32
    }

    /// The last result of the puzzle `id`, if it was tried.
    pub fn result(&self, id: &str) -> Option<Attempt> {
        self.tried.get(id).copied()
    }

    /// Records an attempt at `puzzle`: the counts (which stop at their largest value), the
    /// streak, and the rating moved by Elo against the puzzle's rating. Only the first attempt
    /// at a puzzle moves the rating.
    pub fn record(&mut self, puzzle: &Puzzle, attempt: Attempt) {
        let first = !self.tried.contains_key(&puzzle.id);
        if first {
            let attempts = self.solved.saturating_add(self.failed);
            let k = if attempts < SETTLED_AFTER {
                K_NEW
            } else {
                K_SETTLED
            };
            let score = match attempt {
                Attempt::Solved => 1.0,
                Attempt::Failed => 0.0,
            };
            self.rating += k * (score - expected_score(self.rating, f64::from(puzzle.rating)));
        }
        match attempt {
            Attempt::Solved => {
                self.solved = self.solved.saturating_add(1);
                self.streak = self.streak.saturating_add(1);
                self.best_streak = self.best_streak.max(self.streak);
            }
            Attempt::Failed => {
                self.failed = self.failed.saturating_add(1);
                self.streak = 0;
            }
        }
        self.tried.insert(puzzle.id.clone(), attempt);
    }

    /// The index of the puzzle that fits the player best among `puzzles`: one not tried
    /// before (else one failed, else any), whose rating is nearest [`AIM_BELOW`] under the
    /// player's; ties go to the first. `None` for no puzzles.
    pub fn next(&self, puzzles: &[Puzzle]) -> Option<usize> {
        let rank = |p: &Puzzle| match self.result(&p.id) {
            None => 0,
            Some(Attempt::Failed) => 1,
            Some(Attempt::Solved) => 2,
        };
        let best_rank = puzzles.iter().map(rank).min()?;
        puzzles
            .iter()
            .enumerate()
            .filter(|(_, p)| rank(p) == best_rank)
            .min_by(|(_, a), (_, b)| {
                let aim = self.rating - AIM_BELOW;
                let gap = |p: &Puzzle| (f64::from(p.rating) - aim).abs();
                gap(a).total_cmp(&gap(b))
            })
            .map(|(i, _)| i)
    }
}

/// The largest rating read, above or below zero: Elo against puzzles rated a few thousand at
/// most never comes near it, so a file beyond it is not progress of ours.
const MAX_RATING: f64 = 10_000.0;

/// A rating as a progress file holds it, refused outside [`MAX_RATING`] either side of zero.
fn rating_in_range<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    let rating = f64::deserialize(deserializer)?;
    if rating.abs() <= MAX_RATING {
        Ok(rating)
    } else {
        Err(serde::de::Error::custom(format!(
            "rating {rating} is beyond {MAX_RATING} either side of zero"
        )))
    }
}

/// The Elo expected score of a player rated `player` against a puzzle rated `puzzle`.
fn expected_score(player: f64, puzzle: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((puzzle - player) / ELO_SCALE))
}
