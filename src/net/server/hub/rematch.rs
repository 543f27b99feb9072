//! Rematches: the players of a game just over are kept a while (bounded), so that one may
//! offer a new game on the same terms with the sides swapped ([`Offer::Rematch`]) and the
//! other accept it or decline it. Leaving the game's board withdraws it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{Hub, Reply, refuse};
use crate::net::protocol::{ErrorCode, GameId, GameSetup, Offer, ServerMessage, SideChoice};
use crate::net::server::store::{Seat, StoredGame};
use crate::rules::Side;

/// How long a game over may be played again.
const KEPT: Duration = Duration::from_secs(10 * 60);

/// The most games over kept for a rematch; the oldest go first.
const MOST: usize = 4096;

/// A game over that its players may play again.
struct Finished {
    setup: GameSetup,
    /// Its players, the attackers first.
    seats: [Seat; 2],
    /// The side of the player who offered a rematch, while it waits for an answer.
    offered_by: Option<Side>,
    ended: Instant,
}

impl Finished {
    fn side_of(&self, key: &str) -> Option<Side> {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .zip(&self.seats)
            .find_map(|(side, seat)| (seat.key == key).then_some(side))
    }

    fn seat(&self, side: Side) -> &Seat {
        &self.seats[usize::from(side == Side::Defenders)]
    }
}

/// The games over that may be played again, by number.
#[derive(Default)]
pub(super) struct Rematches {
    games: HashMap<GameId, Finished>,
}

impl Rematches {
    /// Keeps `stored`, a game just over with two players, for a rematch.
    pub(super) fn remember(&mut self, stored: &StoredGame) {
        let (Some(attackers), Some(defenders)) = (&stored.attackers, &stored.defenders) else {
            return;
        };
        let now = Instant::now();
        self.games
            .retain(|_, f| now.saturating_duration_since(f.ended) < KEPT);
        if self.games.len() >= MOST
            && let Some(oldest) = self
                .games
                .iter()
                .min_by_key(|(_, f)| f.ended)
                .map(|(&id, _)| id)
        {
            self.games.remove(&oldest);
        }
        self.games.insert(
            stored.id,
            Finished {
                setup: stored.setup.clone(),
                seats: [attackers.clone(), defenders.clone()],
                offered_by: None,
                ended: now,
            },
        );
    }

    /// The games over kept, by number.
    #[cfg(test)]
    pub(super) fn ids(&self) -> Vec<GameId> {
        let mut ids: Vec<GameId> = self.games.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    fn get_mut(&mut self, game: GameId) -> Option<&mut Finished> {
        self.games
            .get_mut(&game)
            .filter(|f| f.ended.elapsed() < KEPT)
    }
}

impl Hub {
    /// `seat` offers a rematch of `game` (`accept`), accepts the one its opponent offered,
    /// or declines it (or withdraws its own: `accept` false).
    pub(super) fn rematch(&mut self, seat: &Seat, game: GameId, accept: bool) -> Reply {
        let Some(finished) = self.rematches.get_mut(game) else {
            return refuse(
                ErrorCode::NoGame,
                format!("game {game} cannot be played again (not over, too old, or left)"),
            );
        };
        let Some(side) = finished.side_of(&seat.key) else {
            return refuse(ErrorCode::NoGame, format!("you did not play game {game}"));
        };
        let keys = finished.seats.clone().map(|s| s.key);
        let opponent = finished.seat(side.opponent()).clone();
        if accept && let Some(why) = self.club.block_between(&opponent, seat) {
            return refuse(ErrorCode::Refused, why);
        }
        let Some(finished) = self.rematches.get_mut(game) else {
            return Ok(());
        };
        let told = match (accept, finished.offered_by) {
            (true, Some(by)) if by != side => return self.rematch_accepted(game, by),
            (true, Some(_)) => return refuse(ErrorCode::Refused, "your rematch offer waits"),
            (true, None) => {
                finished.offered_by = Some(side);
                ServerMessage::Offered {
                    game,
                    offer: Offer::Rematch,
                    by: side,
                }
            }
            (false, Some(_)) => {
                finished.offered_by = None;
                ServerMessage::Declined {
                    game,
                    offer: Offer::Rematch,
                }
            }
            (false, None) => return Ok(()),
        };
        self.tell_keys(&keys, &told);
        Ok(())
    }

    /// The rematch of `game` offered by `by`'s player is accepted: the new game begins, its
    /// creator the one who offered, playing the other side.
    fn rematch_accepted(&mut self, game: GameId, by: Side) -> Reply {
        let Some(finished) = self.rematches.games.remove(&game) else {
            return Ok(());
        };
        let side = match by {
            Side::Attackers => SideChoice::Defenders,
            Side::Defenders => SideChoice::Attackers,
        };
        let setup = GameSetup {
            side,
            ..finished.setup.clone()
        };
        let (offerer, opponent) = (finished.seat(by).clone(), finished.seat(by.opponent()));
        let opponent = opponent.clone();
        if let Err(refused) = self.begin_between(&offerer, &setup, &opponent) {
            self.rematches.games.insert(game, finished);
            return Err(refused);
        }
        Ok(())
    }

    /// `seat` left the board of `game`, over: a rematch offer waiting is withdrawn (the
    /// opponent told), and none can be made from it any more.
    pub(super) fn left_finished(&mut self, seat: &Seat, game: GameId) -> Reply {
        let Some(finished) = self.rematches.games.get(&game) else {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        };
        if finished.side_of(&seat.key).is_none() {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        }
        let keys = finished.seats.clone().map(|s| s.key);
        let offered = finished.offered_by.is_some();
        self.rematches.games.remove(&game);
        if offered {
            let declined = ServerMessage::Declined {
                game,
                offer: Offer::Rematch,
            };
            self.tell_keys(&keys, &declined);
        }
        Ok(())
    }
}
