//! What a client reads out of the server's summaries and states: the names by role, a bot's
//! marked ([`GameSummary::shown`]), and the game record a [`GameView`] holds
//! ([`GameView::record`]).

use serde::{Deserialize, Serialize};

use super::{GameSummary, GameView};
use crate::game::{Game, Player};
use crate::quote::excerpt;
use crate::rules::{Position, parse_position_record};

/// Who a name of a [`GameSummary`] is.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The creator.
    Creator,
    /// The attackers' player.
    Attackers,
    /// The defenders' player.
    Defenders,
}

impl GameSummary {
    /// The name of `role`, if known.
    pub fn name(&self, role: Role) -> Option<&str> {
        match role {
            Role::Creator => Some(&self.creator),
            Role::Attackers => self.attackers.as_deref(),
            Role::Defenders => self.defenders.as_deref(),
        }
    }

    /// The name of `role` escaped for a terminal and marked ` [bot]` if it is a bot's;
    /// `?` if not known yet.
    pub fn shown(&self, role: Role) -> String {
        self.name(role).map_or_else(
            || "?".to_owned(),
            |name| bot_marked(name, self.bots.contains(&role)),
        )
    }
}

/// `name`, escaped for a terminal, marked ` [bot]` if `bot`.
pub fn bot_marked(name: &str, bot: bool) -> String {
    let shown = excerpt(name);
    if bot { format!("{shown} [bot]") } else { shown }
}

impl GameView {
    /// The game it holds, replayed from its start position (every move checked); a view
    /// whose position or moves do not replay is refused with the reason.
    pub fn record(&self) -> Result<Game, String> {
        let rules = self.summary.setup.rules.rules();
        let start_side = if self.moves.len().is_multiple_of(2) {
            self.to_move
        } else {
            self.to_move.opponent()
        };
        let start: Position = parse_position_record(&self.start, start_side)
            .map_err(|e| format!("the server sent a bad position: {e}"))?;
        let mut record = Game::new(rules, start, Player::Human, Player::Human);
        for (i, mv) in self.moves.iter().enumerate() {
            record
                .play_text(mv)
                .map_err(|e| format!("the server sent a bad move {}: {e}", i + 1))?;
        }
        Ok(record)
    }
}
