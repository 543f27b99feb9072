//! Challenges in the terminal client: `C` in the lobby names a player (typed, or ↑ ↓ among
//! those online), the create form gives the terms, and the challenge goes to the server;
//! the challenges waiting, made and received, show in a small panel of the lobby, whose
//! keys answer the oldest one received (`a` accept, `d` decline) or withdraw one's own
//! (`d`). A challenge received shows on the status line wherever the player is.

use std::time::{Duration, Instant};

use super::create::{CreateForm, side_text, timing_text};
use super::{Online, Prompt, View};
use crate::net::protocol::{
    ChallengeEnd, ChallengeId, ChallengeView, ClientMessage, GameId, GameSetup,
};
use crate::quote::excerpt;

/// A challenge waiting, as the server last sent it, and when it expires.
#[derive(Clone, Debug)]
struct Waiting {
    view: ChallengeView,
    expires: Instant,
    /// Received (not made by this player).
    received: bool,
}

/// The challenges waiting, made and received, oldest first.
#[derive(Clone, Debug, Default)]
pub struct ChallengeList {
    waiting: Vec<Waiting>,
}

impl ChallengeList {
    /// The oldest challenge received.
    fn first_received(&self) -> Option<ChallengeId> {
        self.waiting.iter().find(|w| w.received).map(|w| w.view.id)
    }

    /// The newest challenge made.
    fn last_made(&self) -> Option<ChallengeId> {
        self.waiting
            .iter()
            .rev()
            .find(|w| !w.received)
            .map(|w| w.view.id)
    }

    /// The panel's lines at `now` (none when nothing waits): a heading with its keys, then
    /// one line per challenge.
    pub fn lines(&self, now: Instant) -> Vec<String> {
        if self.waiting.is_empty() {
            return Vec::new();
        }
        let mut lines = vec!["Challenges · a accept · d decline / withdraw".to_owned()];
        for w in &self.waiting {
            let left = w.expires.saturating_duration_since(now).as_secs();
            let terms = terms_text(&w.view.setup);
            let who = if w.received {
                format!("{} challenges you", excerpt(&w.view.from))
            } else {
                format!("you challenge {}", excerpt(&w.view.to))
            };
            lines.push(format!("  {who}: {terms} · {}:{:02}", left / 60, left % 60));
        }
        lines
    }
}

/// A challenge's terms in words: `walker 5m+3s, the challenger plays defenders`.
fn terms_text(setup: &GameSetup) -> String {
    format!(
        "{} {}, challenger plays {}",
        setup.rules.name(),
        timing_text(setup.timing),
        side_text(setup.side)
    )
}

/// How a challenge ended, in words, for the player told.
fn end_text(why: ChallengeEnd, received: bool, other: &str) -> String {
    match (why, received) {
        (ChallengeEnd::Accepted, _) => format!("challenge accepted: the game with {other} begins"),
        (ChallengeEnd::Declined, false) => format!("{other} declined your challenge"),
        (ChallengeEnd::Declined, true) => format!("challenge of {other} declined"),
        (ChallengeEnd::Withdrawn, true) => format!("{other} withdrew the challenge"),
        (ChallengeEnd::Withdrawn, false) => format!("challenge to {other} withdrawn"),
        (ChallengeEnd::Expired, _) => format!("the challenge with {other} expired"),
        (ChallengeEnd::Gone, _) => format!("the challenge with {other} ended: a player left"),
    }
}

impl Online {
    /// `C` in the lobby: asks whom to challenge.
    pub(super) fn ask_whom(&mut self) {
        let first = self.lobby.others().first().map(|n| (*n).to_owned());
        self.offer_name(Prompt::Challenge, first.unwrap_or_default());
        self.info("challenge whom? a name (↑ ↓ those online), then Enter for the terms; Esc none");
    }

    /// The name to challenge was typed: the create form gives the terms.
    pub(super) fn whom_typed(&mut self, name: &str) {
        let name = name.trim().to_owned();
        if name.is_empty() {
            self.status = None;
            return;
        }
        // Rated unless the command line said casual, as the create form starts.
        let setup = self.start.create.clone().unwrap_or_else(|| GameSetup {
            rated: true,
            ..GameSetup::default()
        });
        self.create = Some(CreateForm::challenge(setup, &name));
        self.info(&format!("the terms of the challenge to {}", excerpt(&name)));
        self.challenging = Some(name);
    }

    /// Sends the challenge to `name` on `setup`.
    pub(super) fn send_challenge(&mut self, name: String, setup: GameSetup) {
        self.info(&format!("challenging {}…", excerpt(&name)));
        self.send(ClientMessage::ChallengePlayer { name, setup });
    }

    /// `a` (`accept`) or `d` in the lobby: answers the oldest challenge received, or `d`
    /// withdraws the newest one made.
    pub(super) fn answer_challenge_key(&mut self, accept: bool) {
        let made = if accept {
            None
        } else {
            self.challenges.last_made()
        };
        let Some(challenge) = self.challenges.first_received().or(made) else {
            self.info("no challenge to answer");
            return;
        };
        self.send(ClientMessage::AnswerChallenge { challenge, accept });
    }

    /// A challenge waiting came (made or received), at `now`.
    pub(super) fn challenged(&mut self, view: ChallengeView, now: Instant) {
        let received = self.start.name.as_deref() != Some(view.from.as_str());
        let expires = now + Duration::from_millis(view.expires_ms);
        let text = if received {
            let place = if matches!(self.view, View::Lobby) {
                "a accept · d decline"
            } else {
                "answer it in the lobby (q)"
            };
            format!(
                "{} challenges you ({}): {place}",
                excerpt(&view.from),
                terms_text(&view.setup)
            )
        } else {
            format!(
                "challenge sent to {}: waiting for the answer",
                excerpt(&view.to)
            )
        };
        self.challenges.waiting.retain(|w| w.view.id != view.id);
        self.challenges.waiting.push(Waiting {
            view,
            expires,
            received,
        });
        if received {
            self.assist.ring();
        }
        self.info(&text);
    }

    /// A challenge ended; accepted, the game it began is shown (now, or when its state
    /// comes).
    pub(super) fn challenge_ended(
        &mut self,
        id: ChallengeId,
        why: ChallengeEnd,
        game: Option<GameId>,
    ) {
        let Some(at) = self.challenges.waiting.iter().position(|w| w.view.id == id) else {
            return;
        };
        let w = self.challenges.waiting.remove(at);
        let other = if w.received { &w.view.from } else { &w.view.to };
        self.info(&end_text(why, w.received, &excerpt(other)));
        if let Some(game) = game {
            if self.games.contains_key(&game) {
                self.show_game(game);
            } else {
                self.awaited = Some(game);
            }
        }
    }
}
