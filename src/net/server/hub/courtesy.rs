//! What one player grants the other in a game in progress: aborting it before having
//! moved (no winner, never rated), and giving the opponent time.

use super::connections::clock_view;
use super::games::my_game;
use super::{Hub, Reply, refuse, store_error};
use crate::net::protocol::{ErrorCode, GIVEN_TIME, GameId, ServerMessage, Timing};
use crate::net::server::store::Seat;

impl Hub {
    /// `seat` aborts `game`, in which it has not moved yet: it ends with no winner.
    pub(super) fn abort(&mut self, seat: &Seat, game: GameId) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let record = &live.stored.game;
        let first = record.state().start_position().side_to_move();
        let first_ply = usize::from(side != first);
        if record.moves().len() > first_ply {
            return refuse(
                ErrorCode::Refused,
                "you have moved in this game: it can no longer be aborted (resign instead)",
            );
        }
        let mut record = record.clone();
        let _ = record.abort();
        self.finish(game, record)
    }

    /// `seat` gives its opponent in `game` [`GIVEN_TIME`] more on its main time (a game on
    /// a clock, not in overtime); both players and the spectators see the clocks after it.
    pub(super) fn give_time(&mut self, seat: &Seat, game: GameId) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        if !matches!(live.stored.setup.timing, Timing::Clock { .. }) {
            return refuse(
                ErrorCode::Refused,
                "time is given in a game on a clock only",
            );
        }
        let to = side.opponent();
        let Some(mut clocks) = live.stored.game.clocks().copied() else {
            return refuse(
                ErrorCode::Refused,
                "time is given in a game on a clock only",
            );
        };
        if !clocks.give(to, GIVEN_TIME) {
            return refuse(
                ErrorCode::Refused,
                "your opponent is in overtime: its periods are fixed",
            );
        }
        self.store
            .set_clocks(game, &clocks)
            .map_err(|e| store_error(&e))?;
        live.stored.game.set_clocks(clocks);
        let Some(clocks) = clock_view(live) else {
            return Ok(());
        };
        self.broadcast(game, &ServerMessage::TimeGiven { game, to, clocks });
        self.schedule_flag(game);
        Ok(())
    }
}
