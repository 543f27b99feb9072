//! The server's log lines that clients can cause as often as they like (connections,
//! identities, games, refusals), bounded: at most [`LINES_PER_SECOND`] of each kind a
//! second. The lines over that are counted, and the count goes in the next line of the kind
//! (`held_back`), so a flood makes a few lines a second, not a full disk. Every client's text
//! is written escaped (`?`).

use std::fmt::Debug;
use std::net::SocketAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::conn_id::ConnId;
use super::store::StoredGame;
use crate::net::protocol::GameId;
use crate::rules::{Outcome, Side};

/// The most lines of one kind a second.
pub(super) const LINES_PER_SECOND: u32 = 100;

/// Lines of one kind: how many were written this second, how many held back since the last.
pub(super) struct Throttle {
    second: Option<Instant>,
    written: u32,
    held_back: u64,
}

impl Throttle {
    /// No line written yet.
    pub(super) const fn new() -> Throttle {
        Throttle {
            second: None,
            written: 0,
            held_back: 0,
        }
    }

    /// Whether a line may be written at `now`: `Some(n)` with the `n` lines held back
    /// before it, `None` (held back, and counted) over the budget.
    pub(super) fn allow(&mut self, now: Instant) -> Option<u64> {
        let new_second = self
            .second
            .is_none_or(|start| now.saturating_duration_since(start) >= Duration::from_secs(1));
        if new_second {
            self.second = Some(now);
            self.written = 0;
        }
        if self.written < LINES_PER_SECOND {
            self.written += 1;
            Some(std::mem::take(&mut self.held_back))
        } else {
            self.held_back += 1;
            None
        }
    }
}

/// Connections opened and closed.
static CONNECTIONS: Mutex<Throttle> = Mutex::new(Throttle::new());
/// Players identified.
static IDENTITIES: Mutex<Throttle> = Mutex::new(Throttle::new());
/// Games created, begun and ended.
static GAMES: Mutex<Throttle> = Mutex::new(Throttle::new());
/// Connections refused over the caps, hellos refused, requests refused, connections cut off.
static REFUSALS: Mutex<Throttle> = Mutex::new(Throttle::new());

/// Whether a line of the kind `throttle` may be written now (see [`Throttle::allow`]).
fn told(throttle: &Mutex<Throttle>) -> Option<u64> {
    throttle
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .allow(Instant::now())
}

/// The lines held back, as a field written only when there were some.
fn shown(held_back: u64) -> Option<u64> {
    (held_back > 0).then_some(held_back)
}

/// A connection accepted.
pub(super) fn connection(conn: ConnId, peer: SocketAddr) {
    if let Some(held_back) = told(&CONNECTIONS) {
        tracing::info!(conn, %peer, held_back = shown(held_back), "connection");
    }
}

/// A connection ended.
pub(super) fn closed(conn: ConnId) {
    if let Some(held_back) = told(&CONNECTIONS) {
        tracing::info!(conn, held_back = shown(held_back), "connection closed");
    }
}

/// A player identified on a connection, by the name it plays under.
pub(super) fn identified(conn: ConnId, name: &str) {
    if let Some(held_back) = told(&IDENTITIES) {
        tracing::info!(conn, ?name, held_back = shown(held_back), "identified");
    }
}

/// A game created, waiting for an opponent.
pub(super) fn game_created(game: GameId, creator: &str) {
    if let Some(held_back) = told(&GAMES) {
        tracing::info!(game, ?creator, held_back = shown(held_back), "game created");
    }
}

/// A game begun between the players of its two sides.
pub(super) fn game_begun(game: &StoredGame) {
    if let Some(held_back) = told(&GAMES) {
        let [attackers, defenders] = [Side::Attackers, Side::Defenders]
            .map(|side| game.seat(side).map_or("", |s| s.name.as_str()));
        let held_back = shown(held_back);
        tracing::info!(
            game = game.id,
            ?attackers,
            ?defenders,
            held_back,
            "game begun"
        );
    }
}

/// A game ended.
pub(super) fn game_ended(game: GameId, outcome: Outcome) {
    if let Some(held_back) = told(&GAMES) {
        let held_back = shown(held_back);
        tracing::info!(game, result = %outcome, held_back, "game ended");
    }
}

/// A connection refused over the caps (closed at once).
pub(super) fn over_caps(peer: SocketAddr) {
    if let Some(held_back) = told(&REFUSALS) {
        tracing::warn!(%peer, held_back = shown(held_back), "connection refused: over the caps");
    }
}

/// A hello, a request refused (`what`), or a connection cut off after too many bad
/// messages; `reply` is what it was told.
pub(super) fn refused(conn: ConnId, what: &str, reply: &impl Debug) {
    if let Some(held_back) = told(&REFUSALS) {
        tracing::info!(conn, ?reply, held_back = shown(held_back), "{what}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_lines_is_cut_to_the_budget_and_the_rest_counted() {
        let mut throttle = Throttle::new();
        let start = Instant::now();
        let written = (0..1000)
            .filter(|_| throttle.allow(start).is_some())
            .count();
        assert_eq!(written, LINES_PER_SECOND as usize);
        // The next second's first line tells how many were held back.
        let later = start + Duration::from_secs(1);
        assert_eq!(
            throttle.allow(later),
            Some(1000 - u64::from(LINES_PER_SECOND))
        );
        assert_eq!(throttle.allow(later), Some(0));
    }
}
