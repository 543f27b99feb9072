//! A bot's answers to what asks for a new game or ends one: a challenge to it and a rematch
//! offered are accepted while it has room (its games in progress, those accepted and its
//! open game counted against its most), on any terms (rules, side, clock, untimed or
//! correspondence: it plays them all as its own), and declined when full or stopping; the
//! win of a game whose opponent is gone past the return window is claimed at once.

use super::{Do, Seats};
use crate::net::protocol::{ChallengeView, ClientMessage, GameId, Offer};
use crate::rules::Side;

/// The games just over a bot remembers, whose rematch it may be offered.
pub(super) const OVER_KEPT: usize = 16;

impl Seats {
    /// Challenge `challenge` waits: answered when it is to the bot.
    pub(super) fn challenged(&mut self, challenge: &ChallengeView) -> Vec<Do> {
        if challenge.to != self.name {
            return Vec::new();
        }
        let accept = self.may_take_one_more();
        tracing::info!(
            challenge = challenge.id,
            from = challenge.from,
            accept,
            "challenged"
        );
        let answer = ClientMessage::AnswerChallenge {
            challenge: challenge.id,
            accept,
        };
        self.answered(answer, accept)
    }

    /// `by`'s player offers a rematch of `game`: answered when it is a game the bot just
    /// played against that player.
    pub(super) fn rematch_offered(&mut self, game: GameId, by: Side) -> Vec<Do> {
        if !self.over.iter().any(|&(g, side)| g == game && side != by) {
            return Vec::new();
        }
        let accept = self.may_take_one_more();
        tracing::info!(game, accept, "rematch offered");
        let answer = ClientMessage::Answer {
            game,
            offer: Offer::Rematch,
            accept,
        };
        self.answered(answer, accept)
    }

    /// `side`'s player of `game` is gone past the return window: the bot claims the win.
    pub(super) fn claimable(&mut self, game: GameId, side: Side) -> Vec<Do> {
        match self.games.get(&game) {
            Some(played) if played.side != side => {
                tracing::info!(game, "opponent gone: claiming the win");
                vec![Do::Send(ClientMessage::Claim { game })]
            }
            _ => Vec::new(),
        }
    }

    /// The pong of ping `id`: a game accepted before it has begun by now, or will not.
    pub(super) fn pong(&mut self, id: u64) -> Vec<Do> {
        let before = self.coming.len();
        self.coming.retain(|&ping| ping != id);
        if self.coming.len() == before {
            return Vec::new();
        }
        self.fill()
    }

    /// Game `game`, played on `side`, is over: its rematch may be offered.
    pub(super) fn just_over(&mut self, game: GameId, side: Side) {
        if self.over.len() == OVER_KEPT {
            self.over.pop_front();
        }
        self.over.push_back((game, side));
    }

    /// Whether the bot takes a game offered now: not stopping, and room for it.
    fn may_take_one_more(&self) -> bool {
        !self.stopping && self.room()
    }

    /// Sends `answer`; when it accepts, a ping too, so that the game it begins counts as
    /// held until its pong (by then its `state` has come, or it did not begin).
    fn answered(&mut self, answer: ClientMessage, accept: bool) -> Vec<Do> {
        let mut todo = vec![Do::Send(answer)];
        if accept {
            let ping = self.ping();
            self.coming.push(self.last_ping);
            todo.push(ping);
        }
        todo
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{begun, bot, created, creates, ended};
    use super::*;
    use crate::net::protocol::{GameSetup, ServerMessage};

    /// A challenge from Ann to `to`.
    fn challenge(id: u64, to: &str) -> ServerMessage {
        ServerMessage::Challenged(ChallengeView {
            id,
            from: "ann".into(),
            to: to.into(),
            setup: GameSetup::default(),
            expires_ms: 300_000,
        })
    }

    fn answer(challenge: u64, accept: bool) -> Do {
        Do::Send(ClientMessage::AnswerChallenge { challenge, accept })
    }

    #[test]
    fn a_bot_with_room_accepts_a_challenge_and_counts_its_game_until_the_pong() {
        let (mut seats, _) = bot(2);
        seats.message(&created(1));
        let todo = seats.message(&challenge(7, "bot"));
        assert_eq!(
            todo,
            [answer(7, true), Do::Send(ClientMessage::Ping { id: 1 })]
        );
        // The open game and the one accepted fill it: another challenge is declined.
        assert_eq!(seats.message(&challenge(8, "bot")), [answer(8, false)]);
        // The challenge withdrawn meanwhile: at the pong its room is free again.
        assert_eq!(seats.message(&ServerMessage::Pong { id: 1 }), []);
        assert_eq!(seats.message(&challenge(9, "bot"))[0], answer(9, true));
    }

    #[test]
    fn a_full_or_stopping_bot_declines_and_one_to_another_is_not_its_to_answer() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        assert_eq!(seats.message(&challenge(3, "bot")), [answer(3, false)]);
        assert_eq!(seats.message(&challenge(4, "bob")), []);
        let (mut seats, _) = bot(3);
        seats.stop();
        assert_eq!(seats.message(&challenge(5, "bot")), [answer(5, false)]);
    }

    #[test]
    fn a_rematch_of_a_game_just_over_is_accepted_with_room_and_declined_when_full() {
        let rematch = |game, by| ServerMessage::Offered {
            game,
            offer: Offer::Rematch,
            by,
        };
        let reply = |game, accept| {
            Do::Send(ClientMessage::Answer {
                game,
                offer: Offer::Rematch,
                accept,
            })
        };
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        seats.message(&begun(1, Side::Defenders));
        let todo = seats.message(&ended(1));
        assert_eq!(creates(&todo), 1, "{todo:?}");
        // Its own side's offer (never its own) and a game it did not play go unanswered.
        assert_eq!(seats.message(&rematch(1, Side::Defenders)), []);
        assert_eq!(seats.message(&rematch(9, Side::Attackers)), []);
        // Its next game open fills a bot of one.
        seats.message(&created(2));
        assert_eq!(
            seats.message(&rematch(1, Side::Attackers)),
            [reply(1, false)]
        );
        let (mut seats, _) = bot(2);
        seats.message(&created(1));
        seats.message(&begun(1, Side::Defenders));
        seats.message(&created(2));
        seats.message(&ended(1));
        let todo = seats.message(&rematch(1, Side::Attackers));
        assert_eq!(todo[0], reply(1, true), "{todo:?}");
    }

    #[test]
    fn a_bot_claims_the_win_when_its_opponent_is_gone_only() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        seats.message(&begun(1, Side::Defenders));
        let claimable = |side| ServerMessage::Claimable {
            game: 1,
            side,
            ends_ms: 1_000,
        };
        assert_eq!(
            seats.message(&claimable(Side::Attackers)),
            [Do::Send(ClientMessage::Claim { game: 1 })]
        );
        assert_eq!(seats.message(&claimable(Side::Defenders)), []);
    }
}
