//! The hub's side of ratings and players: each game's players' ratings kept beside it for
//! the lobby and the board, the rating changes told after a rated game, the players online
//! and whether each plays, the spectators counted, and the leaderboard and profiles handed
//! to the readers.

use std::collections::HashSet;

use super::{Hub, Live, Reply, refuse};
use crate::net::protocol::{
    ClientMessage, ErrorCode, GameId, PlayerStatus, SeatRatings, ServerMessage, normalize_name,
};
use crate::net::ratings::{Change, Pool, Rating, Shown};
use crate::net::server::conn_id::ConnId;
use crate::net::server::reader::Ask;
use crate::net::server::store::{Seat, Stage, StoredGame};
use crate::rules::Side;

impl Hub {
    /// `name`'s rating in `pool`, a newcomer's (`1500?`) if not rated there yet (`None`
    /// if it cannot be read: logged).
    fn rating_in(&self, name: &str, pool: Pool) -> Option<Shown> {
        self.store
            .rating(name, pool)
            .inspect_err(|e| tracing::error!("database: {e}"))
            .ok()
            .map(|rating| rating.unwrap_or_else(|| Rating::default().shown()))
    }

    /// The ratings of `stored`'s players in its pool, read now.
    pub(super) fn seat_ratings(&self, stored: &StoredGame) -> SeatRatings {
        let pool = self.store.pool_of(stored);
        let of = |seat: Option<&Seat>| seat.and_then(|s| self.rating_in(&s.name, pool));
        SeatRatings {
            creator: of(Some(&stored.creator)),
            attackers: of(stored.attackers.as_ref()),
            defenders: of(stored.defenders.as_ref()),
        }
    }

    /// Reads again the ratings of `game`'s players, kept with it (when it is created, begins
    /// or resumes).
    pub(super) fn note_ratings(&mut self, game: GameId) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let ratings = self.seat_ratings(&live.stored);
        if let Some(live) = self.games.get_mut(&game) {
            live.ratings = ratings;
        }
    }

    /// `name`'s rating in the pool of the most rated games (`None` if none, or not read:
    /// logged), shown beside the name in the players online.
    pub(super) fn main_rating(&self, name: &str) -> Option<Shown> {
        self.store
            .main_rating(name)
            .inspect_err(|e| tracing::error!("database: {e}"))
            .ok()
            .flatten()
    }

    /// Tells `game`'s players and spectators how its players' ratings changed (a rated game
    /// that has just ended), and notes each player's main rating anew.
    pub(super) fn tell_rated(&mut self, game: GameId, changes: Option<[Change; 2]>) {
        let (Some([attackers, defenders]), Some(live)) = (changes, self.games.get(&game)) else {
            return;
        };
        let names: Vec<String> = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter_map(|side| live.stored.seat(side).map(|s| s.name.clone()))
            .collect();
        self.broadcast(
            game,
            &ServerMessage::Rated(crate::net::protocol::RatedGame {
                game,
                attackers,
                defenders,
            }),
        );
        for name in names {
            let rating = self.main_rating(&name);
            for c in self.conns.values_mut() {
                if c.seat.as_ref().is_some_and(|s| s.name == name) {
                    c.rating = rating;
                }
            }
        }
    }

    /// Tells `game`'s players and spectators how many watch it now, but `newcomer` (whose
    /// state says so already).
    pub(super) fn tell_spectators(&mut self, game: GameId, newcomer: Option<ConnId>) {
        if let Some(live) = self.games.get(&game) {
            let count = live.spectators.len();
            let told = ServerMessage::Spectators { game, count };
            match newcomer {
                Some(conn) => self.broadcast_except(game, conn, &told),
                None => self.broadcast(game, &told),
            }
        }
    }

    /// The players online, by name (each once), with whether each plays a game in progress
    /// and their main rating.
    pub(super) fn online_players(&self) -> Vec<(String, PlayerStatus)> {
        // Once over the games, not once per player: the lobby is asked for often.
        let playing: HashSet<&str> = self
            .games
            .values()
            .filter(|l| l.stored.stage == Stage::Playing)
            .flat_map(|l| [l.stored.attackers.as_ref(), l.stored.defenders.as_ref()])
            .flatten()
            .map(|seat| seat.key.as_str())
            .collect();
        let mut players: Vec<(String, PlayerStatus)> = self
            .conns
            .values()
            .filter_map(|c| {
                let seat = c.seat.as_ref()?;
                let status = PlayerStatus {
                    playing: playing.contains(seat.key.as_str()),
                    rating: c.rating,
                };
                Some((seat.name.clone(), status))
            })
            .collect();
        players.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        players.dedup_by(|a, b| a.0 == b.0);
        players
    }

    /// Whether `key`'s player plays a game in progress.
    fn plays(&self, key: &str) -> bool {
        self.games
            .values()
            .any(|l| l.stored.stage == Stage::Playing && l.stored.side_of(key).is_some())
    }

    /// Hands a leaderboard page to the readers (asked by anyone: no identity needed).
    pub(super) fn leaderboard(&mut self, conn: ConnId, request: ClientMessage) -> Reply {
        let ClientMessage::Leaderboard(ask) = request else {
            return Ok(());
        };
        if self.still_queued(conn, &request) {
            return Ok(());
        }
        let (pool, page) = (ask.pool(), ask.page);
        self.read(conn, Ask::Leaderboard { pool, page }, Some(request))
    }

    /// Hands `name`'s profile to the readers, with whether the player is online and plays.
    pub(super) fn profile(&mut self, conn: ConnId, request: ClientMessage) -> Reply {
        let ClientMessage::Profile { ref name } = request else {
            return Ok(());
        };
        let Ok(name) = normalize_name(name) else {
            return refuse(ErrorCode::BadName, "no player has that name");
        };
        let key = self
            .conns
            .values()
            .filter_map(|c| c.seat.as_ref())
            .find(|s| s.name == name)
            .map(|s| s.key.clone());
        let ask = Ask::Profile {
            playing: key.as_deref().is_some_and(|k| self.plays(k)),
            online: key.is_some(),
            name,
        };
        self.read(conn, ask, Some(request))
    }
}

impl Live {
    /// The game's summary for the lobby, with its players' ratings and its spectators.
    pub(super) fn summary(&self) -> crate::net::protocol::GameSummary {
        crate::net::protocol::GameSummary {
            ratings: self.ratings,
            spectators: self.spectators.len(),
            ..self.stored.summary()
        }
    }
}
