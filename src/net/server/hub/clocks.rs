//! The clocks on the server: a flag falls on the server's clock, without a move; a player
//! gone from a game on a clock has a window to come back, after which the game is lost; the
//! server notes when it is alive, and after a restart the player to move is charged the time
//! it used before (not the time the server was down).

use std::time::{Duration, Instant};

use super::{Hub, Live};
use crate::game::Clocks;
use crate::net::protocol::{GameId, ServerMessage};
use crate::net::server::conn_id::ConnId;
use crate::net::server::event::Event;
use crate::net::server::store::{Stage, now_ms};
use crate::net::server::timing::millis;
use crate::rules::Side;

/// How long a game's end that could not be stored (a timer's: a flag, an absence) waits
/// before it is tried again.
const RETRY_STORE: Duration = Duration::from_secs(1);

impl Hub {
    /// Asks to be told when the side to move's time could run out.
    pub(super) fn schedule_flag(&self, game: GameId) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let Some(clocks) = live.stored.game.clocks() else {
            return;
        };
        let side = live.stored.game.state().position().side_to_move();
        let mut running = *clocks;
        running.spend(side, live.turn_start.elapsed());
        let wait = left_in_all(&running, side).saturating_add(self.limits.max_lag_credit);
        let turn = live.turn;
        let Some(timers) = self.timers.upgrade() else {
            return;
        };
        self.runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = timers.send(Event::FlagCheck { game, turn });
        });
    }

    pub(super) fn flag_check(&mut self, game: GameId, turn: u64) {
        if self.games.get(&game).is_some_and(|l| l.turn == turn) && !self.flag_fell(game) {
            self.schedule_flag(game);
        }
    }

    /// Ends `game` on time if the clock of the side to move has run out; returns whether it
    /// did (not if the end could not be stored: the next check tries again).
    pub(super) fn flag_fell(&mut self, game: GameId) -> bool {
        let Some(live) = self.games.get(&game) else {
            return false;
        };
        let side = live.stored.game.state().position().side_to_move();
        let elapsed = self.turn_time(live);
        let Some(clocks) = live.stored.game.clocks() else {
            return false;
        };
        let mut running = *clocks;
        if !running.spend(side, elapsed) {
            return false;
        }
        let mut record = live.stored.game.clone();
        record.spend_time(elapsed);
        self.finish(game, record).is_ok()
    }

    /// Notes that the server is alive now (every [`Limits::alive_every`] and when it stops):
    /// after a restart, the player to move is charged up to there.
    ///
    /// [`Limits::alive_every`]: crate::net::server::Limits::alive_every
    pub(super) fn note_alive(&self) {
        if let Err(e) = self.store.note_alive(now_ms()) {
            tracing::error!("database: noting the server alive: {e}");
        }
    }

    /// Sends the hub [`Event::Alive`] every [`Limits::alive_every`], for as long as it runs.
    ///
    /// [`Limits::alive_every`]: crate::net::server::Limits::alive_every
    pub(super) fn start_noting_alive(&self) {
        let every = self.limits.alive_every;
        let timers = self.timers.clone();
        self.runtime.spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                let Some(hub) = timers.upgrade() else {
                    return;
                };
                if hub.send(Event::Alive).is_err() {
                    return;
                }
            }
        });
    }

    /// `game`, resumed after a restart: on a clock, its player to move is charged the time
    /// used from its turn's start to when the server was last `alive` (the time the server
    /// was down is not charged), stored with its turn beginning again now; a flag that fell
    /// meanwhile ends it on time.
    pub(super) fn charge_before_restart(&mut self, game: GameId, alive: Option<i64>) {
        let began = match self.store.turn_began(game) {
            Ok(began) => began,
            Err(e) => {
                tracing::error!("database: when the turn of game {game} began: {e}");
                return;
            }
        };
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let (Some(alive), Some(began)) = (alive, began) else {
            return;
        };
        let used = Duration::from_millis(alive.saturating_sub(began).try_into().unwrap_or(0));
        if live.stored.stage != Stage::Playing || used.is_zero() {
            return;
        }
        let mut record = live.stored.game.clone();
        if record.spend_time(used) {
            if let Err(why) = self.finish(game, record) {
                tracing::error!("game {game} lost on time before the restart: {}", why.1);
            }
            return;
        }
        let Some(clocks) = record.clocks() else {
            return;
        };
        match self.store.charged(game, clocks, now_ms()) {
            Ok(()) => {
                if let Some(live) = self.games.get_mut(&game) {
                    live.stored.game = record;
                }
            }
            Err(e) => tracing::error!("database: charging game {game} after a restart: {e}"),
        }
    }

    /// `side`'s player is gone from `game`: on a clock, its window to come back starts.
    pub(super) fn start_return_window(&mut self, game: GameId, side: Side) {
        let window = self.limits.return_window;
        let Some(live) = self.games.get_mut(&game).filter(|l| l.has_return_window()) else {
            return;
        };
        // A window past what the system's clock can count is none.
        let Some(by) = Instant::now().checked_add(window) else {
            return;
        };
        *live.return_by(side) = Some(by);
        self.schedule_return_check(game, side, window);
    }

    pub(super) fn schedule_return_check(&self, game: GameId, side: Side, wait: Duration) {
        let Some(timers) = self.timers.upgrade() else {
            return;
        };
        self.runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = timers.send(Event::ReturnCheck { game, side });
        });
    }

    /// The news that `side`'s player is gone from `game`, with the time left to come back.
    pub(super) fn absence(&mut self, game: GameId, side: Side) -> ServerMessage {
        let return_ms = self
            .games
            .get_mut(&game)
            .and_then(|live| *live.return_by(side))
            .map(|by| millis(by.saturating_duration_since(Instant::now())));
        ServerMessage::Presence {
            game,
            side,
            connected: false,
            return_ms,
        }
    }

    /// `side`'s player came back to `game` on `conn`: its window closes, it hears of an
    /// opponent still gone, and an opponent whose window ran out meanwhile loses.
    pub(super) fn returned(&mut self, conn: ConnId, game: GameId, side: Side) {
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        *live.return_by(side) = None;
        let opponent = side.opponent();
        let Some(by) = *live.return_by(opponent) else {
            return;
        };
        if by <= Instant::now() {
            self.abandoned(game, opponent);
        } else {
            let presence = self.absence(game, opponent);
            self.send(conn, &presence);
        }
    }

    /// The window of `side`'s player in `game` may have run out: the game is lost for it,
    /// unless its flag fell first, or its opponent is gone too (then it is lost when the
    /// opponent comes back).
    pub(super) fn return_check(&mut self, game: GameId, side: Side) {
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        let Some(by) = *live.return_by(side) else {
            return;
        };
        let now = Instant::now();
        if by > now {
            // Early, or a later absence: checked again when it runs out.
            self.schedule_return_check(game, side, by - now);
            return;
        }
        if live.return_by(side.opponent()).is_some() {
            return;
        }
        self.abandoned(game, side);
    }

    /// Ends `game` as lost by `side`, who left and did not return (or on time, had its flag
    /// fallen first). An end that cannot be stored is tried again a little later.
    pub(super) fn abandoned(&mut self, game: GameId, side: Side) {
        if self.flag_fell(game) {
            return;
        }
        let Some(live) = self.games.get(&game) else {
            return;
        };
        // The clocks as they stand when the game ends, in the archive and the saves.
        let mut record = live.stored.game.clone();
        record.spend_time(self.turn_time(live));
        let _ = record.abandon(side);
        if self.finish(game, record).is_err() {
            self.schedule_return_check(game, side, RETRY_STORE);
        }
    }

    /// The time the side to move has used in this turn, less its measured lag (up to a
    /// bound).
    pub(super) fn turn_time(&self, live: &Live) -> Duration {
        let side = live.stored.game.state().position().side_to_move();
        let credit = live
            .stored
            .seat(side)
            .map_or(Duration::ZERO, |seat| self.lag_of(&seat.key))
            .min(self.limits.max_lag_credit);
        live.turn_start.elapsed().saturating_sub(credit)
    }
}

/// Time left on `side`'s clock, overtime periods to come included.
fn left_in_all(clocks: &Clocks, side: Side) -> Duration {
    let clock = clocks.side(side);
    let control = clocks.control();
    let periods = if clock.in_overtime() {
        clock.periods().saturating_sub(1)
    } else {
        control.periods()
    };
    clock
        .left()
        .saturating_add(control.period().saturating_mul(periods))
}
