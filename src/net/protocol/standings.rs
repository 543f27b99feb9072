//! Version 4's ratings on the wire: the leaderboard's pages, a player's profile, the
//! players online with whether they play, and each seat's rating in a game's summary.
//! docs/protocol.md, "Version 4: ratings".

use serde::{Deserialize, Serialize};

use super::{GameId, GameSetup, GameSummary, Timing};
use crate::net::ratings::{Change, Pool, Shown, Speed};
use crate::rules::Preset;

/// The most players in a leaderboard page.
pub const LEADERBOARD_PAGE: usize = 50;

/// The most points of rating history in a profile (the newest, over every pool).
pub const PROFILE_HISTORY: usize = 100;

/// The most recent games in a profile.
pub const PROFILE_RECENT: usize = 10;

impl GameSetup {
    /// The people's pool of its rules at its speed (a game with a bot in it may count for
    /// the bots' pool instead: the server says).
    pub fn pool(&self) -> Pool {
        Pool {
            rules: self.rules,
            speed: self.timing.speed(),
            bots: false,
        }
    }
}

impl Timing {
    /// The speed it is rated at: correspondence for days per move, live otherwise.
    pub fn speed(self) -> Speed {
        match self {
            Timing::Correspondence { .. } => Speed::Correspondence,
            Timing::Untimed | Timing::Clock { .. } => Speed::Live,
        }
    }
}

/// The ratings of a game's players in its pool, read when the game was made, began or
/// resumed (a newcomer's `1500?` for a player not rated there yet; `None`: no such seat).
#[derive(Clone, Copy, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRatings {
    /// The creator's.
    #[serde(default)]
    pub creator: Option<Shown>,
    /// The attackers' player's.
    #[serde(default)]
    pub attackers: Option<Shown>,
    /// The defenders' player's.
    #[serde(default)]
    pub defenders: Option<Shown>,
}

/// What the lobby says of a player online beside the name.
#[derive(Clone, Copy, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerStatus {
    /// Whether they play a game in progress (a correspondence game among them).
    pub playing: bool,
    /// Their rating in the pool they played most rated games in, if any.
    #[serde(default)]
    pub rating: Option<Shown>,
}

/// Which page of which leaderboard a client asks for.
#[derive(Clone, Copy, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardAsk {
    /// The pool's rules.
    pub rules: Preset,
    /// The pool's speed.
    #[serde(default)]
    pub speed: Speed,
    /// The page, from 0 ([`LEADERBOARD_PAGE`] players each).
    #[serde(default)]
    pub page: u32,
    /// Whether it is the bots' pool of the rules and speed.
    #[serde(default)]
    pub bots: bool,
}

impl LeaderboardAsk {
    /// The pool asked for.
    pub fn pool(&self) -> Pool {
        Pool {
            rules: self.rules,
            speed: self.speed,
            bots: self.bots,
        }
    }
}

/// A rated game's players' ratings before and after it.
#[derive(Clone, Copy, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatedGame {
    /// The game.
    pub game: GameId,
    /// The attackers' player's.
    pub attackers: Change,
    /// The defenders' player's.
    pub defenders: Change,
}

/// One player on a leaderboard.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranked {
    /// The place, from 1.
    pub rank: usize,
    /// The name.
    pub name: String,
    /// The rating.
    pub rating: Shown,
    /// Rated games played in the pool.
    pub games: u32,
}

/// A page of a pool's leaderboard, the highest rating first.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard {
    /// The pool's rules.
    pub rules: Preset,
    /// The pool's speed.
    pub speed: crate::net::ratings::Speed,
    /// Whether it is the bots' pool of the rules and speed.
    #[serde(default)]
    pub bots: bool,
    /// The page, from 0.
    pub page: u32,
    /// The players rated in the pool, in all.
    pub total: usize,
    /// The page's players (at most [`LEADERBOARD_PAGE`]).
    pub players: Vec<Ranked>,
}

/// A player's rating and rated results in one pool.
#[derive(Clone, Copy, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolRecord {
    /// The pool.
    pub pool: Pool,
    /// The rating.
    pub rating: Shown,
    /// Rated games won.
    pub wins: u32,
    /// Rated games drawn.
    pub draws: u32,
    /// Rated games lost.
    pub losses: u32,
}

/// A player's rating after one rated game.
#[derive(Clone, Copy, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint {
    /// The pool.
    pub pool: Pool,
    /// The game.
    pub game: GameId,
    /// The rating after it, rounded.
    pub rating: i32,
}

/// A player's profile.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The name.
    pub name: String,
    /// Whether they are online now.
    pub online: bool,
    /// Whether they play a game in progress now.
    pub playing: bool,
    /// Each pool they are rated in, the most played first.
    pub pools: Vec<PoolRecord>,
    /// Their rating after each of their last rated games (at most [`PROFILE_HISTORY`],
    /// over every pool), oldest first.
    pub history: Vec<RatingPoint>,
    /// Their last finished games (at most [`PROFILE_RECENT`]), newest first.
    pub recent: Vec<GameSummary>,
}
