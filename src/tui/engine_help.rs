//! What the engine's help is, wherever a person gets it (the local game, an online game that
//! allows it): the budget of a hint, its words, and the budget of one look of the live
//! evaluation. The searches themselves run on the runtime's one worker.

use std::time::Duration;

use crate::ai::{Score, SearchInfo};
use crate::game::Level;
use crate::rules::Move;

/// The level the hints (and the live evaluation) are searched at: the strongest, given
/// [`HINT_TIME`].
pub const HINT_LEVEL: Level = Level::Max;

/// How long a hint is searched.
pub const HINT_TIME: Duration = Duration::from_secs(1);

/// How long the live evaluation searches each position (then it shows its last depth until
/// the next move).
pub const EVAL_TIME: Duration = Duration::from_secs(5);

/// The hint in words: the move, and what the search proved. `info` is the search's last
/// report; its score counts for `mv` when its line starts with it. Distances are in plies,
/// as the panel's score gives them.
pub fn hint_text(mv: Move, info: Option<&SearchInfo>) -> String {
    let score = info.filter(|i| i.pv.first() == Some(&mv)).map(|i| i.score);
    match score {
        Some(Score::Win(n)) => format!("hint: win in {n}: {mv} (marked with ? ?)"),
        Some(Score::Loss(n)) => {
            format!("hint: every move loses; longest resistance {mv}, lost in {n}")
        }
        _ => format!("hint: {mv} (marked with ? ?)"),
    }
}
