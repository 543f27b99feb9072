//! The types of version 4's messages: challenges (a player challenged by name, how it
//! ended) and the time one player gives the other.

use serde::{Deserialize, Serialize};

use super::GameSetup;

/// A challenge's number on its server (live only: numbers start again with the server).
pub type ChallengeId = u64;

/// The time [`super::ClientMessage::GiveTime`] adds to the opponent's clock.
pub const GIVEN_TIME: std::time::Duration = std::time::Duration::from_secs(15);

/// A challenge as both its players see it.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeView {
    /// Its number.
    pub id: ChallengeId,
    /// The challenger.
    pub from: String,
    /// The player challenged.
    pub to: String,
    /// The terms, the challenger's side among them.
    pub setup: GameSetup,
    /// The milliseconds, when this was sent, before it expires.
    pub expires_ms: u64,
}

/// How a challenge ended.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// Accepted: the game began.
    Accepted,
    /// Declined by the player challenged.
    Declined,
    /// Withdrawn by the challenger.
    Withdrawn,
    /// Not answered in time.
    Expired,
    /// One of the two left the server.
    Gone,
}
