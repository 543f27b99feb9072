//! The games that end while a player is away (a window to return that ran out, an
//! opponent's resignation): noted for the player when they end, and told on each of its
//! connections until it downloads them (its client saves them as it saves a game it saw
//! end; a connection that only checks the name, as `brandubh online` makes first, leaves
//! them for the next).

use super::Hub;
use crate::net::protocol::{GameId, ServerMessage};
use crate::net::server::conn_id::ConnId;
use crate::rules::Side;

impl Hub {
    /// `game` is ending: each of its players with no connection is noted, to be told on
    /// its return.
    pub(super) fn note_away(&mut self, game: GameId) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let away: Vec<String> = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter_map(|side| live.stored.seat(side))
            .filter(|seat| !self.is_connected(&seat.key))
            .map(|seat| seat.key.clone())
            .collect();
        for key in away {
            if let Err(e) = self.store.note_away(game, &key) {
                tracing::error!("database: game {game} ended while a player was away: {e}");
            }
        }
    }

    /// Tells `conn`, the player of `key` just identified, of its games that ended while it
    /// was away and that it has not downloaded since (the newest few).
    pub(super) fn tell_away(&mut self, conn: ConnId, key: &str) {
        let games = match self.store.away_games(key) {
            Ok(games) => games,
            Err(e) => {
                tracing::error!("database: the games ended while a player was away: {e}");
                return;
            }
        };
        for game in games {
            match self.store.finished(game) {
                Ok(Some(Ok(stored))) => {
                    let summary = stored.summary();
                    self.send(conn, &ServerMessage::Finished { game: summary });
                }
                Ok(Some(Err(unreadable))) => {
                    tracing::error!("game {game} cannot be read back: {}", unreadable.why);
                }
                Ok(None) => {}
                Err(e) => tracing::error!("database: game {game}: {e}"),
            }
        }
    }

    /// `conn` asked for the record of `game`: if it is the player's, one that ended while it
    /// was away, it is no longer told.
    pub(super) fn delivered(&mut self, conn: ConnId, game: GameId) {
        let Some(seat) = self.conns.get(&conn).and_then(|c| c.seat.as_ref()) else {
            return;
        };
        if let Err(e) = self.store.delivered(&seat.key, game) {
            tracing::error!("database: game {game} downloaded: {e}");
        }
    }

    /// Whether a connection of the player of `key` is open.
    pub(super) fn is_connected(&self, key: &str) -> bool {
        self.conns
            .values()
            .any(|c| c.seat.as_ref().is_some_and(|s| s.key == key))
    }
}
