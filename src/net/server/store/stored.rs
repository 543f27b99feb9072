//! A game as the server stores it: its stage, its players' seats, its setup, and its record
//! rebuilt from the setup and the stored moves.

use crate::game::{ChatLine, Clocks, Game, Player, Tag, Tags};
use crate::net::protocol::{GameId, GameSetup, GameSummary, SeatRatings};
use crate::net::server::timing::control;
use crate::rules::{Outcome, Position, Side};

/// A game's stage.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(in crate::net::server) enum Stage {
    /// Waiting for an opponent.
    Open,
    /// Being played.
    Playing,
    /// Over.
    Over,
}

impl Stage {
    pub(super) const fn name(self) -> &'static str {
        match self {
            Stage::Open => "open",
            Stage::Playing => "playing",
            Stage::Over => "over",
        }
    }
}

/// A player's key and name.
#[derive(Clone, Eq, PartialEq, Debug)]
pub(in crate::net::server) struct Seat {
    pub key: String,
    pub name: String,
}

/// A game as stored: who, how, and the record (moves, clocks, result).
#[derive(Clone, Debug)]
pub(in crate::net::server) struct StoredGame {
    pub id: GameId,
    pub setup: GameSetup,
    pub creator: Seat,
    pub code: Option<String>,
    pub attackers: Option<Seat>,
    pub defenders: Option<Seat>,
    pub stage: Stage,
    pub game: Game,
}

impl StoredGame {
    /// The seat of `side`.
    pub fn seat(&self, side: Side) -> Option<&Seat> {
        match side {
            Side::Attackers => self.attackers.as_ref(),
            Side::Defenders => self.defenders.as_ref(),
        }
    }

    /// The side `key` plays, if any.
    pub fn side_of(&self, key: &str) -> Option<Side> {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .find(|&side| self.seat(side).is_some_and(|seat| seat.key == key))
    }

    /// The game's summary for lobbies and archives.
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            id: self.id,
            setup: self.setup.clone(),
            attackers: self.attackers.as_ref().map(|s| s.name.clone()),
            defenders: self.defenders.as_ref().map(|s| s.name.clone()),
            creator: self.creator.name.clone(),
            plies: self.game.moves().len(),
            outcome: self.game.outcome(),
            ratings: SeatRatings::default(),
            spectators: 0,
            bots: Vec::new(),
            date: None,
        }
    }

    /// The record as a save file, the players' names in its tags, with `chat` (a line
    /// beyond a save's bounds, which the server never stores, leaves the chat out).
    pub fn save_json(&self, chat: Vec<ChatLine>) -> String {
        let mut game = self.game.clone();
        if let Err(why) = game.set_chat(chat) {
            tracing::warn!("game {}: its chat is not saved: {why}", self.id);
        }
        let mut tags = Tags::default();
        for side in [Side::Attackers, Side::Defenders] {
            if let Some(seat) = self.seat(side) {
                tags.set_fitted(Tag::name_of(side), &seat.name);
            }
        }
        tags.set_fitted(Tag::Event, &format!("online game {}", self.id));
        game.set_tags(tags);
        game.to_json()
    }
}

/// A stored game that cannot be read back (a setup, clocks, result or move it cannot
/// have): its number and why.
#[derive(Debug)]
pub(in crate::net::server) struct Unreadable {
    pub id: GameId,
    pub why: String,
}

/// A game record from its setup and stored moves: each move replayed (every stored one was
/// checked when played), then the clocks as they stood and an off-board result; or why it
/// cannot be.
pub(in crate::net::server) fn rebuild(
    setup: &GameSetup,
    moves: &[String],
    clocks: Option<Clocks>,
    outcome: Option<Outcome>,
) -> Result<Game, String> {
    let mut game = Game::new(
        setup.rules.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    if let Some(control) = control(setup.timing) {
        game.set_clocks(Clocks::new(control));
    }
    for (ply, mv) in moves.iter().enumerate() {
        game.play_text(mv)
            .map_err(|e| format!("its move {} {mv:?}: {e}", ply + 1))?;
    }
    if let Some(clocks) = clocks {
        game.set_clocks(clocks);
    }
    if let Some(outcome) = outcome.filter(|_| game.outcome().is_none()) {
        let _ = game.end_as_told(outcome);
    }
    Ok(game)
}
