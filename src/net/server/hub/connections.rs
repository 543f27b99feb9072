//! The hub's connections: a player identifying, a connection gone, and what is sent to
//! connections (a game's state, broadcasts, answers remembered until they leave, reads
//! handed to the readers); one that reads too slowly is cut off.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Hub, Live, Reply, refusal, refuse, store_error};
use crate::net::identity;
use crate::net::protocol::{ClientMessage, ClockView, ErrorCode, GameId, GameView, ServerMessage};
use crate::net::server::conn_id::ConnId;
use crate::net::server::log;
use crate::net::server::reader::{Ask, Read};
use crate::net::server::store::{Seat, Stage};
use crate::rules::{Side, position_record};

/// A game's clocks as they stand now: the running one charged with its turn so far.
pub(super) fn clock_view(live: &Live) -> Option<ClockView> {
    let playing = live.stored.stage == Stage::Playing;
    let to_move = live.stored.game.state().position().side_to_move();
    live.stored.game.clocks().map(|clocks| {
        let mut running = *clocks;
        if playing {
            running.spend(to_move, live.turn_start.elapsed());
        }
        ClockView {
            clocks: running,
            running: playing.then_some(to_move),
        }
    })
}

impl Hub {
    pub(super) fn identify(
        &mut self,
        conn: ConnId,
        (name, bot): (&str, bool),
        key: &str,
        signature: &str,
    ) -> Reply {
        let Some(c) = self.conns.get(&conn) else {
            return Ok(());
        };
        if c.seat.is_some() {
            return refuse(ErrorCode::NotNow, "already identified");
        }
        if !identity::verify(key, &c.nonce, &c.binding, signature) {
            return refuse(
                ErrorCode::BadSignature,
                "the signature does not prove the key",
            );
        }
        let ip = c.ip;
        let name = self
            .name_claims
            .claim(&self.limits, (ip, key), (name, bot), |claim| {
                self.store.claim_name(claim)
            })
            .map_err(|e| store_error(&e))?
            .map_err(|why| refusal(ErrorCode::BadName, why))?;
        let seat = Seat {
            key: key.to_owned(),
            name: name.clone(),
        };
        let rating = self.main_rating(&name);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(seat.clone());
            c.rating = rating;
        }
        if bot {
            self.bots.insert(name.clone());
        }
        log::identified(conn, &name);
        self.send(conn, &ServerMessage::Welcome { name });
        self.welcome_to_club(conn, &seat.key);
        // Every game the player is in, and the news to the opponents.
        let mine: Vec<(GameId, Option<Side>)> = self
            .games
            .values()
            .filter(|live| {
                live.stored.creator.key == seat.key || live.stored.side_of(&seat.key).is_some()
            })
            .map(|live| (live.stored.id, live.stored.side_of(&seat.key)))
            .collect();
        self.send_challenges(conn, &seat.key);
        for (game, side) in mine {
            self.busy_with = Some(game);
            self.send_state(conn, game);
            if let Some(side) = side {
                let presence = ServerMessage::Presence {
                    game,
                    side,
                    connected: true,
                    return_ms: None,
                };
                self.broadcast_except(game, conn, &presence);
                self.returned(conn, game, side);
            }
        }
        self.busy_with = None;
        self.tell_away(conn, &seat.key);
        Ok(())
    }

    pub(super) fn disconnected(&mut self, conn: ConnId) {
        let Some(gone) = self.conns.remove(&conn) else {
            return;
        };
        self.forget_spectator(conn);
        for game in &gone.watching {
            if let Some(live) = self.games.get_mut(game) {
                live.spectators.remove(&conn);
            }
            self.tell_spectators(*game, None);
        }
        let Some(seat) = gone.seat else {
            return;
        };
        if self.is_connected(&seat.key) {
            return;
        }
        self.challenges_gone(&seat.key);
        let games: Vec<(GameId, Side)> = self
            .games
            .values()
            .filter(|l| l.stored.stage == Stage::Playing)
            .filter_map(|l| l.stored.side_of(&seat.key).map(|side| (l.stored.id, side)))
            .collect();
        for (game, side) in games {
            self.busy_with = Some(game);
            self.start_return_window(game, side);
            let presence = self.absence(game, side);
            self.broadcast(game, &presence);
        }
    }

    /// The measured one-way lag of `key`'s connection (the least of its connections').
    pub(super) fn lag_of(&self, key: &str) -> Duration {
        self.conns
            .values()
            .filter(|c| c.seat.as_ref().is_some_and(|s| s.key == key))
            .map(|c| c.lag)
            .min()
            .unwrap_or_default()
    }

    /// The connections of a game's players (and of an open game's creator).
    pub(super) fn player_conns(&self, game: GameId) -> Vec<ConnId> {
        let Some(live) = self.games.get(&game) else {
            return Vec::new();
        };
        let keys: Vec<&str> = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter_map(|side| live.stored.seat(side).map(|s| s.key.as_str()))
            .chain([live.stored.creator.key.as_str()])
            .collect();
        self.conns
            .iter()
            .filter(|(_, c)| {
                c.seat
                    .as_ref()
                    .is_some_and(|s| keys.contains(&s.key.as_str()))
            })
            .map(|(&id, _)| id)
            .collect()
    }

    /// The seat of the player online named `name`, if one is.
    pub(super) fn online_seat(&self, name: &str) -> Option<Seat> {
        self.conns
            .values()
            .filter_map(|c| c.seat.as_ref())
            .find(|s| s.name == name)
            .cloned()
    }

    /// Sends `message` to every connection of the players of `keys`.
    pub(super) fn tell_keys(&mut self, keys: &[String], message: &ServerMessage) {
        let conns: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat.as_ref().is_some_and(|s| keys.contains(&s.key)))
            .map(|(&id, _)| id)
            .collect();
        for conn in conns {
            self.send(conn, message);
        }
    }

    /// The connections of a game's players and spectators.
    pub(super) fn watchers(&self, game: GameId) -> Vec<ConnId> {
        let mut conns = self.player_conns(game);
        if let Some(live) = self.games.get(&game) {
            conns.extend(
                live.spectators
                    .iter()
                    .filter(|c| !conns.contains(c))
                    .collect::<Vec<_>>(),
            );
        }
        conns
    }

    pub(super) fn broadcast(&mut self, game: GameId, message: &ServerMessage) {
        for conn in self.watchers(game) {
            self.send(conn, message);
        }
    }

    pub(super) fn broadcast_except(
        &mut self,
        game: GameId,
        except: ConnId,
        message: &ServerMessage,
    ) {
        for conn in self.watchers(game) {
            if conn != except {
                self.send(conn, message);
            }
        }
    }

    /// Sends a game's whole state to a connection.
    pub(super) fn send_state(&mut self, conn: ConnId, game: GameId) {
        let (Some(live), Some(c)) = (self.games.get(&game), self.conns.get(&conn)) else {
            return;
        };
        let you = c.seat.as_ref().and_then(|s| live.stored.side_of(&s.key));
        let record = &live.stored.game;
        let position = record.state().position();
        let to_move = position.side_to_move();
        let clocks = clock_view(live);
        let view = GameView {
            summary: self.marked(live.summary()),
            start: position_record(record.state().start_position()),
            position: position_record(position),
            to_move,
            moves: record.moves().iter().map(ToString::to_string).collect(),
            clocks,
            you,
            pending: live.pending,
        };
        self.send(conn, &ServerMessage::State(Box::new(view)));
        self.send_chat_log(conn, game, you);
    }

    /// Sends a message to a connection; one whose queue is full reads too slowly and is
    /// cut off.
    pub(super) fn send(&mut self, conn: ConnId, message: &ServerMessage) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.out.send(message).is_err() {
            self.cut(conn);
        }
    }

    /// Cuts off a connection that reads too slowly: its task ends at once.
    pub(super) fn cut(&mut self, conn: ConnId) {
        if let Some(hangup) = self.conns.get_mut(&conn).and_then(|c| c.hangup.take()) {
            let _ = hangup.send(());
        }
        self.disconnected(conn);
    }

    /// Whether the answer to `request`, asked again by `conn`, is still queued for it (then
    /// it is neither worked out nor queued again).
    pub(super) fn still_queued(&self, conn: ConnId, request: &ClientMessage) -> bool {
        self.conns
            .get(&conn)
            .and_then(|c| c.last_answer.as_ref())
            .is_some_and(|(asked, queued)| asked == request && queued.load(Ordering::Acquire))
    }

    /// Sends `reply`, the answer to `request`, remembered until it leaves the queue; a
    /// connection whose queue is full is cut off.
    pub(super) fn send_answer(
        &mut self,
        conn: ConnId,
        request: ClientMessage,
        reply: &ServerMessage,
    ) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        let queued = Arc::new(AtomicBool::new(true));
        match c.out.send_flagged(reply, &queued) {
            Ok(()) => c.last_answer = Some((request, queued)),
            Err(_) => self.cut(conn),
        }
    }

    /// Hands `ask` to the readers, which answer `conn` themselves; `request`, if given, is
    /// remembered as [`Hub::send_answer`] does, from now until its answer leaves the queue.
    /// Refused with `not_now` when as many reads as may be are in flight.
    pub(super) fn read(&mut self, conn: ConnId, ask: Ask, request: Option<ClientMessage>) -> Reply {
        let Some(c) = self.conns.get_mut(&conn) else {
            return Ok(());
        };
        let queued = request.as_ref().map(|_| Arc::new(AtomicBool::new(true)));
        let read = Read {
            conn,
            ask,
            out: c.out.clone(),
            queued: queued.clone(),
        };
        if self.readers.read(read).is_err() {
            return refuse(
                ErrorCode::NotNow,
                "the server is busy: ask again in a moment",
            );
        }
        if let (Some(request), Some(queued)) = (request, queued) {
            c.last_answer = Some((request, queued));
        }
        Ok(())
    }
}
