//! What a game's lobby line does not say, given on demand ([`ClientMessage::Details`]): its
//! players' key fingerprints, to tell look-alike names apart, and to its creator the invite
//! code of a private game, to give it again.
//!
//! [`ClientMessage::Details`]: crate::net::protocol::ClientMessage::Details

use super::{ConnId, Hub, Reply, refuse};
use crate::net::protocol::{ErrorCode, GameId, PlayerKey, ServerMessage};
use crate::net::server::store::{Seat, StoredGame};
use crate::net::tls::fingerprint;

impl Hub {
    /// Answers `seat`'s question about game `game` on `conn`.
    pub(super) fn details(&mut self, conn: ConnId, seat: &Seat, game: GameId) -> Reply {
        let Some(live) = self.games.get(&game) else {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        };
        let stored = &live.stored;
        let code = (stored.creator.key == seat.key)
            .then(|| stored.code.clone())
            .flatten();
        let reply = ServerMessage::Details {
            game,
            players: player_keys(stored),
            code,
        };
        self.send(conn, &reply);
        Ok(())
    }
}

/// The creator and the players of `stored`, each once, with their keys' fingerprints.
fn player_keys(stored: &StoredGame) -> Vec<PlayerKey> {
    let mut seats: Vec<&Seat> = vec![&stored.creator];
    for seat in [&stored.attackers, &stored.defenders].into_iter().flatten() {
        if !seats
            .iter()
            .any(|s| s.key == seat.key && s.name == seat.name)
        {
            seats.push(seat);
        }
    }
    seats
        .into_iter()
        .map(|seat| PlayerKey {
            name: seat.name.clone(),
            fingerprint: key_fingerprint(&seat.key),
        })
        .collect()
}

/// The fingerprint of a public key as the server keeps it (hex): `SHA256:` and the digest
/// of its bytes.
fn key_fingerprint(key_hex: &str) -> String {
    match hex::decode(key_hex) {
        Ok(bytes) => fingerprint(&bytes),
        Err(_) => fingerprint(key_hex.as_bytes()),
    }
}
