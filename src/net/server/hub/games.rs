//! The games: created, joined, watched, left, played, offers and their answers, and their
//! end. Each change is stored before it is applied or told.

use std::collections::HashMap;
use std::time::Instant;

use super::{Hub, Live, Refusal, Reply, refusal, refuse, store_error};
use crate::game::Game;
use crate::net::protocol::{
    ClockView, ErrorCode, GameId, GameSetup, GameSummary, Offer, ServerMessage, SideChoice, Timing,
};
use crate::net::server::conn_id::ConnId;
use crate::net::server::log;
use crate::net::server::store::{Seat, Stage, StoredGame, rebuild};
use crate::net::server::timing::control;
use crate::rules::{Move, Side};

impl Hub {
    pub(super) fn create(&mut self, conn: ConnId, seat: &Seat, setup: GameSetup) -> Reply {
        check_timing(setup.timing)?;
        let waiting = self
            .games
            .values()
            .filter(|l| l.stored.stage == Stage::Open && l.stored.creator.key == seat.key)
            .count();
        if waiting >= self.limits.open_games_per_player {
            return refuse(ErrorCode::Refused, "too many open games: leave one first");
        }
        let code = setup
            .private
            .then(|| hex::encode(rand::random::<[u8; 6]>()));
        let summary = self.open_game(seat, setup, code.clone())?;
        self.send(
            conn,
            &ServerMessage::Created {
                game: summary,
                code,
            },
        );
        Ok(())
    }

    /// Stores a new open game of `seat` on `setup`, and keeps it in memory; its summary.
    fn open_game(
        &mut self,
        seat: &Seat,
        setup: GameSetup,
        code: Option<String>,
    ) -> Result<GameSummary, Refusal> {
        let game = rebuild(&setup, &[], None, None).map_err(|e| refusal(ErrorCode::Refused, e))?;
        let id = self
            .store
            .create(&setup, seat, code.as_deref())
            .map_err(|e| store_error(&e))?;
        let stored = StoredGame {
            id,
            game,
            setup,
            creator: seat.clone(),
            code,
            attackers: None,
            defenders: None,
            stage: Stage::Open,
        };
        let mut live = Live::new(stored);
        live.ratings = self.seat_ratings(&live.stored);
        let summary = self.marked(live.summary());
        log::game_created(id, &seat.name);
        self.games.insert(id, live);
        Ok(summary)
    }

    /// Begins at once a game between `creator`, on `setup` (its side among it), and
    /// `opponent` (a challenge accepted, a rematch): stored, and its state sent to both.
    /// Returns its number; a game that cannot be stored is not begun.
    pub(super) fn begin_between(
        &mut self,
        creator: &Seat,
        setup: &GameSetup,
        opponent: &Seat,
    ) -> Result<GameId, Refusal> {
        check_timing(setup.timing)?;
        let setup = GameSetup {
            private: false,
            ..setup.clone()
        };
        let id = self.open_game(creator, setup, None)?.id;
        if let Err(refused) = self.seat_opponent(id, opponent) {
            if let Err(e) = self.store.withdraw(id) {
                tracing::error!("game {id}, not begun, is left open: {e}");
            }
            self.forget(id);
            return Err(refused);
        }
        Ok(id)
    }

    pub(super) fn join(&mut self, seat: &Seat, game: Option<GameId>, code: Option<&str>) -> Reply {
        let found = self.games.values().find(|live| {
            live.stored.stage == Stage::Open
                && match (game, code) {
                    (_, Some(code)) => live.stored.code.as_deref() == Some(code),
                    (Some(id), None) => live.stored.id == id && !live.stored.setup.private,
                    (None, None) => false,
                }
        });
        let Some(live) = found else {
            return refuse(ErrorCode::NoGame, "no such open game");
        };
        if live.stored.creator.key == seat.key {
            return refuse(
                ErrorCode::Refused,
                "you created this game: wait for an opponent",
            );
        }
        if let Some(why) = self.club.block_between(&live.stored.creator, seat) {
            return refuse(ErrorCode::Refused, why);
        }
        let id = live.stored.id;
        self.busy_with = Some(id);
        self.seat_opponent(id, seat)
    }

    /// Seats `seat` opposite the creator of the open game `id` and begins it: stored, then
    /// its state sent to both players.
    fn seat_opponent(&mut self, id: GameId, seat: &Seat) -> Reply {
        let Some(live) = self.games.get_mut(&id) else {
            return refuse(ErrorCode::NoGame, "no such open game");
        };
        let creator_side = match live.stored.setup.side {
            SideChoice::Random if rand::random::<bool>() => Side::Attackers,
            SideChoice::Attackers => Side::Attackers,
            SideChoice::Defenders | SideChoice::Random => Side::Defenders,
        };
        let creator = Some(live.stored.creator.clone());
        let joiner = Some(seat.clone());
        let mut started = live.stored.clone();
        (started.attackers, started.defenders) = match creator_side {
            Side::Attackers => (creator, joiner),
            Side::Defenders => (joiner, creator),
        };
        started.stage = Stage::Playing;
        self.store.start(&started).map_err(|e| store_error(&e))?;
        live.stored = started;
        live.turn_start = Instant::now();
        live.turn += 1;
        log::game_begun(&live.stored);
        self.note_ratings(id);
        self.schedule_flag(id);
        for conn in self.player_conns(id) {
            self.send_state(conn, id);
        }
        Ok(())
    }

    pub(super) fn watch(&mut self, conn: ConnId, seat: &Seat, game: GameId) -> Reply {
        // A private game is known by its code until it begins: only its creator sees it.
        let hidden = |live: &&mut Live| {
            let stored = &live.stored;
            stored.stage == Stage::Open && stored.setup.private && stored.creator.key != seat.key
        };
        let Some(live) = self.games.get_mut(&game).filter(|live| !hidden(live)) else {
            return refuse(ErrorCode::NoGame, format!("no game {game} to watch"));
        };
        live.spectators.insert(conn);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.watching.insert(game);
        }
        self.send_state(conn, game);
        self.tell_spectators(game, Some(conn));
        Ok(())
    }

    pub(super) fn leave(&mut self, conn: ConnId, seat: &Seat, game: GameId) -> Reply {
        let Some(live) = self.games.get_mut(&game) else {
            // A game over: no rematch from it any more for a player, no chat for a spectator.
            let rematch = self.left_finished(seat, game);
            return rematch.or_else(|_| self.leave_over(conn, game));
        };
        if live.spectators.remove(&conn) {
            if let Some(c) = self.conns.get_mut(&conn) {
                c.watching.remove(&game);
            }
            self.tell_spectators(game, None);
            return Ok(());
        }
        if live.stored.stage == Stage::Open && live.stored.creator.key == seat.key {
            self.store.withdraw(game).map_err(|e| store_error(&e))?;
            self.forget(game);
            return Ok(());
        }
        if live.stored.side_of(&seat.key).is_some() {
            return refuse(
                ErrorCode::Refused,
                "a game in progress is left by resigning",
            );
        }
        refuse(
            ErrorCode::NoGame,
            format!("you neither play in nor watch game {game}"),
        )
    }

    pub(super) fn play(&mut self, seat: &Seat, game: GameId, ply: usize, text: &str) -> Reply {
        // The mover's clock runs for the turn, less its measured lag (up to a bound).
        let credit = self.lag_of(&seat.key).min(self.limits.max_lag_credit);
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let record = &live.stored.game;
        if is_resent(record, side, ply, text) {
            return Ok(());
        }
        if record.state().position().side_to_move() != side {
            return refuse(ErrorCode::BadMove, "it is not your turn");
        }
        if ply != record.moves().len() {
            return refuse(
                ErrorCode::BadMove,
                format!("stale move: {} moves are played", record.moves().len()),
            );
        }
        let mv: Move = text.parse().map_err(|e| bad_move(&e))?;
        record.state().check_move(mv).map_err(|e| bad_move(&e))?;
        // Played on a copy, stored, then applied: a move not stored is not played.
        let mut next = record.clone();
        if next.spend_time(live.turn_start.elapsed().saturating_sub(credit)) {
            return self.finish(game, next);
        }
        let done = next.play(mv).map_err(|e| bad_move(&e))?;
        let clocks = next.clocks().copied();
        let mv = done.to_string();
        let outcome = next.outcome();
        let rated = self
            .store
            .add_move(game, ply, &mv, clocks.as_ref(), outcome)
            .map_err(|e| store_error(&e))?;
        live.stored.game = next;
        live.turn_start = Instant::now();
        live.turn += 1;
        live.pending = None;
        let moved = ServerMessage::Moved {
            game,
            ply,
            mv,
            clocks: clocks.map(|clocks| ClockView {
                clocks,
                running: Some(side.opponent()),
            }),
        };
        self.broadcast(game, &moved);
        match outcome {
            Some(outcome) => self.ended(game, outcome, rated),
            None => self.schedule_flag(game),
        }
        Ok(())
    }

    pub(super) fn offer(&mut self, seat: &Seat, game: GameId, offer: Offer) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        if live.pending.is_some() {
            return refuse(ErrorCode::Refused, "an offer is already waiting");
        }
        if offer == Offer::Takeback && takeback_plies(live, side) == 0 {
            return refuse(ErrorCode::Refused, "no move of yours to take back");
        }
        live.pending = Some((offer, side));
        self.broadcast(
            game,
            &ServerMessage::Offered {
                game,
                offer,
                by: side,
            },
        );
        Ok(())
    }

    pub(super) fn answer(
        &mut self,
        seat: &Seat,
        game: GameId,
        offer: Offer,
        accept: bool,
    ) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let Some((pending, by)) = live.pending.filter(|&(o, by)| o == offer && by != side) else {
            return refuse(ErrorCode::Refused, "no such offer from your opponent");
        };
        if !accept {
            live.pending = None;
            self.broadcast(game, &ServerMessage::Declined { game, offer });
            return Ok(());
        }
        let mut record = live.stored.game.clone();
        match pending {
            Offer::Draw => {
                let _ = record.agree_draw();
                self.finish(game, record)?;
            }
            Offer::Takeback => {
                for _ in 0..takeback_plies(live, by) {
                    record.undo();
                }
                let clocks = record.clocks().copied();
                let ply = record.moves().len();
                self.store
                    .take_back(game, ply, clocks.as_ref())
                    .map_err(|e| store_error(&e))?;
                live.stored.game = record;
                live.pending = None;
                live.turn_start = Instant::now();
                live.turn += 1;
                self.schedule_flag(game);
                for conn in self.watchers(game) {
                    self.send_state(conn, game);
                }
            }
            // Never pending: a rematch is offered once the game is over (`Hub::rematch`).
            Offer::Rematch => return refuse(ErrorCode::Refused, "no rematch before the end"),
        }
        Ok(())
    }

    /// Ends a game with `record`, its record with the outcome: stored first, then in
    /// memory, told, and out of memory. A failed write leaves the game as it was.
    pub(super) fn finish(&mut self, game: GameId, record: Game) -> Reply {
        let Some(outcome) = record.outcome() else {
            return Ok(());
        };
        let rated = self
            .store
            .finish(game, outcome, record.clocks())
            .map_err(|e| store_error(&e))?;
        log::game_ended(game, outcome);
        if let Some(live) = self.games.get_mut(&game) {
            live.stored.game = record;
        }
        self.ended(game, outcome, rated);
        Ok(())
    }

    /// A game's end, stored (and rated, if `rated` holds the players' rating changes):
    /// told with the clocks it ended with (noted for a player not connected, told on its
    /// return), and the game out of memory (its chat open a while).
    pub(super) fn ended(
        &mut self,
        game: GameId,
        outcome: crate::rules::Outcome,
        rated: Option<[crate::net::ratings::Change; 2]>,
    ) {
        let clocks = self
            .games
            .get(&game)
            .and_then(|live| live.stored.game.clocks().copied());
        self.broadcast(
            game,
            &ServerMessage::Result {
                game,
                outcome,
                clocks,
            },
        );
        self.tell_rated(game, rated);
        self.note_away(game);
        if let Some(live) = self.games.get(&game) {
            self.rematches.remember(&live.stored);
        }
        self.keep_for_chat(game);
        self.forget(game);
    }

    /// `seat` resigns `game`.
    pub(super) fn resign(&mut self, seat: &Seat, game: GameId) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let mut record = live.stored.game.clone();
        let _ = record.resign(side);
        self.finish(game, record)
    }
}

/// Refuses a time control the server does not play (a correspondence game of too many
/// days per move).
fn check_timing(timing: Timing) -> Reply {
    if control(timing).is_none() && timing != Timing::default() {
        return refuse(
            ErrorCode::Refused,
            format!(
                "a correspondence game has 1 to {} days per move",
                crate::net::protocol::MAX_CORRESPONDENCE_DAYS
            ),
        );
    }
    Ok(())
}

/// The game in progress `seat` plays in, and its side.
pub(super) fn my_game<'a>(
    games: &'a mut HashMap<GameId, Live>,
    seat: &Seat,
    game: GameId,
) -> Result<(&'a mut Live, Side), Refusal> {
    let live = games
        .get_mut(&game)
        .filter(|l| l.stored.stage == Stage::Playing)
        .ok_or_else(|| refusal(ErrorCode::NoGame, format!("no game {game} in progress")))?;
    let side = live
        .stored
        .side_of(&seat.key)
        .ok_or_else(|| refusal(ErrorCode::NoGame, "you do not play in this game"))?;
    Ok((live, side))
}

/// How many plies a takeback asked by `by` undoes: its last move, and the opponent's reply
/// if one was made since.
fn takeback_plies(live: &Live, by: Side) -> usize {
    let record = &live.stored.game;
    let played = record.moves().len();
    let to_move = record.state().position().side_to_move();
    let plies = if to_move == by { 2 } else { 1 };
    if played >= plies { plies } else { 0 }
}

/// Whether `text` at `ply` by `side` is the move last played, sent again (queued by a
/// client while its connection was down, then sent once more): taken as done, unanswered.
fn is_resent(record: &Game, side: Side, ply: usize, text: &str) -> bool {
    ply + 1 == record.moves().len()
        && record.state().position().side_to_move() == side.opponent()
        && text
            .parse::<Move>()
            .is_ok_and(|mv| record.moves().get(ply).is_some_and(|done| done.mv == mv))
}

fn bad_move(e: &impl std::fmt::Display) -> Refusal {
    refusal(ErrorCode::BadMove, e.to_string())
}
