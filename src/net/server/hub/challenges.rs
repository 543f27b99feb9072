//! Challenges: a player online challenges another by name to a game on given terms; the
//! other sees it live and accepts it (the game begins for both) or declines it. Live only,
//! never stored: bounded per player (out and in), they expire, and end when either player
//! leaves the server.

use std::collections::HashMap;
use std::time::Instant;

use super::{Hub, Reply, refusal, refuse};
use crate::net::protocol::{
    ChallengeEnd, ChallengeId, ChallengeView, ErrorCode, GameSetup, ServerMessage, normalize_name,
};
use crate::net::server::conn_id::ConnId;
use crate::net::server::event::Event;
use crate::net::server::store::Seat;
use crate::net::server::timing::millis;

/// A challenge waiting for its answer.
struct Challenge {
    from: Seat,
    to: Seat,
    setup: GameSetup,
    expires: Instant,
}

impl Challenge {
    fn view(&self, id: ChallengeId) -> ChallengeView {
        ChallengeView {
            id,
            from: self.from.name.clone(),
            to: self.to.name.clone(),
            setup: self.setup.clone(),
            expires_ms: millis(self.expires.saturating_duration_since(Instant::now())),
        }
    }

    fn keys(&self) -> [String; 2] {
        [self.from.key.clone(), self.to.key.clone()]
    }

    fn between(&self, key: &str) -> bool {
        self.from.key == key || self.to.key == key
    }
}

/// The challenges waiting, by number.
#[derive(Default)]
pub(super) struct Challenges {
    last: ChallengeId,
    waiting: HashMap<ChallengeId, Challenge>,
}

#[cfg(test)]
impl Challenges {
    /// The challenges waiting, by number.
    pub(super) fn ids(&self) -> Vec<ChallengeId> {
        let mut ids: Vec<ChallengeId> = self.waiting.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// The keys of each challenge's challenger and player challenged.
    pub(super) fn pairs(&self) -> Vec<(String, String)> {
        let keys = |c: &Challenge| (c.from.key.clone(), c.to.key.clone());
        self.waiting.values().map(keys).collect()
    }

    /// Moves every expiry back by `by`, as if that much time had passed.
    pub(super) fn warp(&mut self, by: std::time::Duration) {
        for c in self.waiting.values_mut() {
            c.expires = c.expires.checked_sub(by).unwrap_or(c.expires);
        }
    }
}

impl Hub {
    /// `seat` challenges the player online named `name` to a game on `setup`.
    pub(super) fn challenge(&mut self, seat: &Seat, name: &str, setup: GameSetup) -> Reply {
        let name = normalize_name(name)
            .map_err(|e| refusal(ErrorCode::Refused, format!("no such player: the name {e}")))?;
        let Some(to) = self.online_seat(&name) else {
            return refuse(ErrorCode::Refused, format!("{name} is not online"));
        };
        if to.key == seat.key {
            return refuse(ErrorCode::Refused, "you cannot challenge yourself");
        }
        if let Some(why) = self.club.block_between(&to, seat) {
            return refuse(ErrorCode::Refused, why);
        }
        let waiting = self.challenges.waiting.values();
        let (mut out, mut incoming, mut again) = (0, 0, false);
        for c in waiting {
            out += usize::from(c.from.key == seat.key);
            incoming += usize::from(c.to.key == to.key);
            again |= c.from.key == seat.key && c.to.key == to.key;
        }
        if again {
            return refuse(ErrorCode::Refused, format!("you challenge {name} already"));
        }
        if out >= self.limits.challenges_out {
            return refuse(
                ErrorCode::Refused,
                format!(
                    "{} challenges of yours wait already: withdraw one first",
                    self.limits.challenges_out
                ),
            );
        }
        if incoming >= self.limits.challenges_in {
            return refuse(
                ErrorCode::Refused,
                format!("{name} has too many challenges waiting: try later"),
            );
        }
        let wait = self.limits.challenge_expiry;
        let Some(expires) = Instant::now().checked_add(wait) else {
            return refuse(ErrorCode::Refused, "no challenge can wait that long");
        };
        self.challenges.last += 1;
        let id = self.challenges.last;
        let challenge = Challenge {
            from: seat.clone(),
            to,
            setup,
            expires,
        };
        let told = ServerMessage::Challenged(challenge.view(id));
        self.tell_keys(&challenge.keys(), &told);
        self.challenges.waiting.insert(id, challenge);
        if let Some(timers) = self.timers.upgrade() {
            self.runtime.spawn(async move {
                tokio::time::sleep(wait).await;
                let _ = timers.send(Event::ChallengeExpiry { challenge: id });
            });
        }
        Ok(())
    }

    /// `seat` answers challenge `id`: the player challenged accepts or declines it, the
    /// challenger withdraws it.
    pub(super) fn answer_challenge(&mut self, seat: &Seat, id: ChallengeId, accept: bool) -> Reply {
        let Some(challenge) = self.challenges.waiting.get(&id) else {
            return refuse(ErrorCode::NoGame, format!("no challenge {id} waits"));
        };
        let why = match (
            challenge.to.key == seat.key,
            challenge.from.key == seat.key,
            accept,
        ) {
            (true, _, true) => ChallengeEnd::Accepted,
            (true, _, false) => ChallengeEnd::Declined,
            (false, true, false) => ChallengeEnd::Withdrawn,
            (false, true, true) => {
                return refuse(ErrorCode::Refused, "your challenge waits for its answer");
            }
            (false, false, _) => {
                return refuse(ErrorCode::NoGame, format!("challenge {id} is not yours"));
            }
        };
        let game = if why == ChallengeEnd::Accepted {
            let (from, to) = (challenge.from.clone(), challenge.to.clone());
            let setup = challenge.setup.clone();
            Some(self.begin_between(&from, &setup, &to)?)
        } else {
            None
        };
        self.end_challenge(id, why, game);
        Ok(())
    }

    /// Challenge `id` may have expired: ended if so.
    pub(super) fn challenge_expiry(&mut self, id: ChallengeId) {
        let due = self
            .challenges
            .waiting
            .get(&id)
            .is_some_and(|c| c.expires <= Instant::now());
        if due {
            self.end_challenge(id, ChallengeEnd::Expired, None);
        }
    }

    /// `key`'s player left the server: its challenges, made or received, end.
    pub(super) fn challenges_gone(&mut self, key: &str) {
        let gone: Vec<ChallengeId> = self
            .challenges
            .waiting
            .iter()
            .filter(|(_, c)| c.between(key))
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            self.end_challenge(id, ChallengeEnd::Gone, None);
        }
    }

    /// Tells `conn`, of `key`'s player just identified, the challenges it made or received
    /// that still wait (another connection of the same player had them).
    pub(super) fn send_challenges(&mut self, conn: ConnId, key: &str) {
        let views: Vec<ChallengeView> = self
            .challenges
            .waiting
            .iter()
            .filter(|(_, c)| c.between(key))
            .map(|(&id, c)| c.view(id))
            .collect();
        for view in views {
            self.send(conn, &ServerMessage::Challenged(view));
        }
    }

    /// Ends challenge `id` for `why`, both its players told (with the game it began).
    fn end_challenge(&mut self, id: ChallengeId, why: ChallengeEnd, game: Option<u64>) {
        let Some(challenge) = self.challenges.waiting.remove(&id) else {
            return;
        };
        let told = ServerMessage::ChallengeEnded {
            challenge: id,
            why,
            game,
        };
        self.tell_keys(&challenge.keys(), &told);
    }
}
