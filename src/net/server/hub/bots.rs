//! Bots (`brandubh bot`) marked wherever the hub shows names: in game summaries and among
//! the players online. A name is a bot's when a bot first claimed it.

use super::Hub;
use crate::net::protocol::{GameSummary, Role};

impl Hub {
    /// `summary` with the roles whose names are bots' marked.
    pub(super) fn marked(&self, mut summary: GameSummary) -> GameSummary {
        summary.bots = [Role::Creator, Role::Attackers, Role::Defenders]
            .into_iter()
            .filter(|&role| summary.name(role).is_some_and(|n| self.bots.contains(n)))
            .collect();
        summary
    }

    /// The positions in `players` of the bots' names.
    pub(super) fn bots_among(&self, players: &[&str]) -> Vec<usize> {
        players
            .iter()
            .enumerate()
            .filter(|(_, name)| self.bots.contains(**name))
            .map(|(i, _)| i)
            .collect()
    }
}
