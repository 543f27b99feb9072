//! The clocks on the server: a flag falls on the server's clock, without a move; a player
//! gone from a game on a clock has a window to come back, after which the opponent may
//! claim the win (or wait; the game ends by itself after [`ENDS_AFTER_WINDOWS`] windows); the
//! server notes when it is alive, and after a restart the player to move is charged the time
//! it used before (not the time the server was down).

use std::time::{Duration, Instant};

use super::games::my_game;
use super::{Hub, Live, Reply, refuse};
use crate::game::Clocks;
use crate::net::protocol::{ErrorCode, GameId, ServerMessage};
use crate::net::server::conn_id::ConnId;
use crate::net::server::event::Event;
use crate::net::server::store::{Seat, Stage, now_ms};
use crate::net::server::timing::millis;
use crate::rules::Side;

/// A player gone from a game on a clock for this many return windows loses it even if the
/// opponent never claims the win, so that no game stays open for ever.
pub const ENDS_AFTER_WINDOWS: u32 = 10;

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

    /// `side`'s player came back to `game` on `conn`: its window closes, and it hears of an
    /// opponent still gone (and, if the opponent's window ran out meanwhile, that it may
    /// claim the win).
    pub(super) fn returned(&mut self, conn: ConnId, game: GameId, side: Side) {
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        *live.return_by(side) = None;
        let opponent = side.opponent();
        let Some(by) = *live.return_by(opponent) else {
            return;
        };
        let presence = self.absence(game, opponent);
        self.send(conn, &presence);
        if by <= Instant::now() {
            self.window_over(game, opponent);
        }
    }

    /// The window of `side`'s player in `game` may have run out: then the opponent, if
    /// there, may claim the win; past [`ENDS_AFTER_WINDOWS`] windows the game is lost for
    /// the player gone (on time, had its flag fallen first).
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
        self.window_over(game, side);
    }

    /// `side`'s player in `game` is gone past its window: the game ends if it is gone past
    /// the last deadline; otherwise the opponent's connections (if any) are told they may
    /// claim the win, and the game is checked again at that deadline.
    fn window_over(&mut self, game: GameId, side: Side) {
        let Some(by) = self.games.get_mut(&game).and_then(|l| *l.return_by(side)) else {
            return;
        };
        let extra = self
            .limits
            .return_window
            .saturating_mul(ENDS_AFTER_WINDOWS - 1);
        let now = Instant::now();
        let Some(ends) = by.checked_add(extra).filter(|&ends| ends > now) else {
            self.abandoned(game, side);
            return;
        };
        let claimable = ServerMessage::Claimable {
            game,
            side,
            ends_ms: millis(ends - now),
        };
        for conn in self.player_conns(game) {
            self.send(conn, &claimable);
        }
        self.schedule_return_check(game, side, ends - now);
    }

    /// `seat` claims the win of `game`: its opponent is gone past the return window.
    pub(super) fn claim(&mut self, seat: &Seat, game: GameId) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let gone = side.opponent();
        if !live.return_by(gone).is_some_and(|by| by <= Instant::now()) {
            return refuse(
                ErrorCode::Refused,
                "your opponent is here, or still has time to come back",
            );
        }
        self.abandon(game, gone)
    }

    /// Ends `game` as lost by `side`, who left and did not return (or on time, had its flag
    /// fallen first). An end that cannot be stored is tried again a little later.
    pub(super) fn abandoned(&mut self, game: GameId, side: Side) {
        if self.abandon(game, side).is_err() {
            self.schedule_return_check(game, side, RETRY_STORE);
        }
    }

    /// Ends `game` as lost by `side`, gone (or on time, had its flag fallen first).
    fn abandon(&mut self, game: GameId, side: Side) -> Reply {
        if self.flag_fell(game) {
            return Ok(());
        }
        let Some(live) = self.games.get(&game) else {
            return Ok(());
        };
        // The clocks as they stand when the game ends, in the archive and the saves.
        let mut record = live.stored.game.clone();
        record.spend_time(self.turn_time(live));
        let _ = record.abandon(side);
        self.finish(game, record)
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
