//! A game's chat: each line stored before it is relayed, the chat so far sent after a
//! game's state (a late spectator, a player coming back), and lines still taken for a while
//! after the game's end ("gg").

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::{Hub, Refusal, Reply, refusal, refuse, store_error};
use crate::net::protocol::{Channel, ChatEntry, ErrorCode, GameId, ServerMessage, check_chat};
use crate::net::server::conn_id::ConnId;
use crate::net::server::store::Seat;
use crate::rules::Side;

/// How long after its end a game still takes chat lines.
pub(super) const CHAT_AFTER_END: Duration = Duration::from_secs(5 * 60);

/// A game over that still takes chat lines: its players' keys and the spectators watching
/// when it ended, until when.
pub(super) struct AfterEnd {
    keys: Vec<String>,
    spectators: HashSet<ConnId>,
    until: Instant,
}

/// The games over that still take chat lines.
pub(super) type AfterEnds = HashMap<GameId, AfterEnd>;

impl Hub {
    pub(super) fn chat(&mut self, conn: ConnId, seat: &Seat, game: GameId, text: &str) -> Reply {
        check_chat(text)
            .map_err(|e| refusal(ErrorCode::BadMessage, format!("the chat line {e}")))?;
        let (channel, to) = self.chat_channel(conn, seat, game)?;
        let line = ChatEntry {
            from: seat.name.clone(),
            channel,
            text: text.to_owned(),
        };
        self.store
            .add_chat(game, &line)
            .map_err(|e| store_error(&e))?;
        let said = ServerMessage::Chat {
            game,
            from: line.from,
            channel,
            text: line.text,
        };
        // Not to those who block the speaker.
        for conn in to {
            let hearer = self.conns.get(&conn).and_then(|c| c.seat.as_ref());
            if !hearer.is_some_and(|h| self.is_blocked(&h.key, &seat.key)) {
                self.send(conn, &said);
            }
        }
        Ok(())
    }

    /// The channel `seat` on `conn` writes in, in `game` or one just over, and who reads it:
    /// the players' chat is read by all, the spectators' by spectators only.
    fn chat_channel(
        &self,
        conn: ConnId,
        seat: &Seat,
        game: GameId,
    ) -> Result<(Channel, Vec<ConnId>), Refusal> {
        if let Some(live) = self.games.get(&game) {
            return if live.stored.side_of(&seat.key).is_some() {
                Ok((Channel::Players, self.watchers(game)))
            } else if live.spectators.contains(&conn) {
                Ok((
                    Channel::Spectators,
                    live.spectators.iter().copied().collect(),
                ))
            } else {
                Err(refusal(ErrorCode::NoGame, "watch the game to chat in it"))
            };
        }
        let Some(over) = self
            .after_end
            .get(&game)
            .filter(|over| over.until > Instant::now())
        else {
            return Err(refusal(ErrorCode::NoGame, format!("no game {game}")));
        };
        let spectators = over.spectators.iter().copied();
        if over.keys.contains(&seat.key) {
            let players = self
                .conns
                .iter()
                .filter(|(_, c)| c.seat.as_ref().is_some_and(|s| over.keys.contains(&s.key)))
                .map(|(&id, _)| id);
            let mut to: Vec<ConnId> = players.collect();
            to.extend(spectators.filter(|c| !to.contains(c)).collect::<Vec<_>>());
            Ok((Channel::Players, to))
        } else if over.spectators.contains(&conn) {
            Ok((Channel::Spectators, spectators.collect()))
        } else {
            Err(refusal(ErrorCode::NoGame, "the game is over"))
        }
    }

    /// Sends `conn` the chat of `game` so far that a receiver playing `you` may see (a
    /// spectator, `None`, sees both channels; nobody the lines of those it blocks), if it
    /// has any.
    pub(super) fn send_chat_log(&mut self, conn: ConnId, game: GameId, you: Option<Side>) {
        let lines = match self.store.chat_log(game, you.is_some()) {
            Ok(lines) => lines,
            Err(e) => {
                tracing::error!("database: the chat of game {game}: {e}");
                return;
            }
        };
        let blocked = self
            .conns
            .get(&conn)
            .and_then(|c| c.seat.as_ref())
            .map(|seat| self.club.names_blocked_by(&seat.key))
            .unwrap_or_default();
        let lines: Vec<ChatEntry> = lines
            .into_iter()
            .filter(|line| !blocked.contains(&line.from))
            .collect();
        if !lines.is_empty() {
            self.send(conn, &ServerMessage::ChatLog { game, lines });
        }
    }

    /// `game` has ended: its players and spectators may still chat in it for
    /// [`CHAT_AFTER_END`]. The games whose time is up are forgotten.
    pub(super) fn keep_for_chat(&mut self, game: GameId) {
        let now = Instant::now();
        self.after_end.retain(|_, over| over.until > now);
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let keys = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter_map(|side| live.stored.seat(side).map(|s| s.key.clone()))
            .collect();
        let over = AfterEnd {
            keys,
            spectators: live.spectators.clone(),
            until: now + CHAT_AFTER_END,
        };
        self.after_end.insert(game, over);
    }

    /// `conn` leaves `game`, just over (its board closed): no error, and a spectator no
    /// longer chats in it. A game neither in play nor just over is no game.
    pub(super) fn leave_over(&mut self, conn: ConnId, game: GameId) -> Reply {
        let Some(over) = self.after_end.get_mut(&game) else {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        };
        over.spectators.remove(&conn);
        Ok(())
    }

    /// A connection gone: it is no longer a spectator of a game over.
    pub(super) fn forget_spectator(&mut self, conn: ConnId) {
        for over in self.after_end.values_mut() {
            over.spectators.remove(&conn);
        }
    }
}
