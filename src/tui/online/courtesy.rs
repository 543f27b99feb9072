//! What a player grants the other on the online board, and what the server offers in
//! turn: a rematch once the game is over (`r`), aborting before one's first move (`A`),
//! giving the opponent time (`+`), and claiming the win when the opponent stayed away past
//! the return window (asked y/n; `y` later on the board claims it too).

use std::time::{Duration, Instant};

use super::{Ask, Online, View};
use crate::net::protocol::{ClientMessage, ClockView, GIVEN_TIME, GameId, Offer};
use crate::rules::Side;

impl Online {
    /// `r` on a game over: offers a rematch, or accepts the one the opponent offered.
    pub(super) fn rematch_key(&mut self, id: GameId) {
        let Some(game) = self.games.get(&id) else {
            return;
        };
        match game.pending() {
            Some((Offer::Rematch, by)) if Some(by) != game.you() => {
                self.send(ClientMessage::Answer {
                    game: id,
                    offer: Offer::Rematch,
                    accept: true,
                });
                self.info("rematch accepted: the new game begins…");
            }
            Some((Offer::Rematch, _)) => self.info("your rematch offer waits for an answer"),
            _ => {
                self.send(ClientMessage::Offer {
                    game: id,
                    offer: Offer::Rematch,
                });
                self.info("rematch offered (sides swapped): waiting for the answer");
            }
        }
    }

    /// Whether game `new`, whose state just came, is the rematch of the game over on
    /// screen (a rematch offered there, by either player): then the old one is left for it.
    pub(super) fn rematch_begun(&mut self, new: GameId) -> bool {
        let View::Game(old) = self.view else {
            return false;
        };
        let offered = self.games.get(&old).is_some_and(|g| {
            g.outcome().is_some() && matches!(g.pending(), Some((Offer::Rematch, _)))
        });
        if offered && old != new {
            self.games.remove(&old);
        }
        offered && old != new
    }

    /// `A`: asks whether to abort the game (the server refuses once the player has moved).
    pub(super) fn abort_key(&mut self, id: GameId) {
        self.ask = Some(Ask::Abort(id));
    }

    /// `+`: gives the opponent time, in a game on a clock.
    pub(super) fn give_time_key(&mut self, id: GameId) {
        let on_a_clock = self
            .games
            .get(&id)
            .is_some_and(super::game::OnlineGame::clock_runs);
        if on_a_clock {
            self.send(ClientMessage::GiveTime { game: id });
        } else {
            self.info("time is given in a game on a clock");
        }
    }

    /// `y` on the board: claims the win, if the server said it may be claimed.
    pub(super) fn claim_key(&mut self, id: GameId) {
        if self.games.get(&id).is_some_and(|g| g.claimable().is_some()) {
            self.send(ClientMessage::Claim { game: id });
        }
    }

    /// The server's `time_given`: `to` was given time in `game`; the clocks after it.
    pub(super) fn time_given(&mut self, game: GameId, to: Side, clocks: ClockView, now: Instant) {
        if let Some(g) = self.games.get_mut(&game) {
            g.set_clocks(clocks, now);
            let whom = if g.you() == Some(to) {
                "you were".to_owned()
            } else {
                format!("the {to} were")
            };
            self.info(&format!("{whom} given {} s", GIVEN_TIME.as_secs()));
        }
    }

    /// The server's `claimable`: `side`'s player in `game` is gone past the window; the
    /// server ends the game itself after `ends_in`. The player is asked, if on its board.
    pub(super) fn claimable(&mut self, game: GameId, side: Side, ends_in: Duration, now: Instant) {
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        g.set_claimable(Some(now + ends_in));
        if g.you() == Some(side.opponent()) && self.on_screen(game) && self.ask.is_none() {
            self.ask = Some(Ask::Claim(game));
        }
    }
}
