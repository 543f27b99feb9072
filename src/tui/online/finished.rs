//! A finished game of the player's lands in the save folder like any other: online play asks
//! the server for its record when it ends (or, for one that ended while the player was away,
//! when the server says so on the next connection) and hands it to the storage thread, which
//! says how the write went (never lost silently); and what online play remembers is written
//! there too.

use std::path::Path;

use super::Online;
use crate::net::protocol::{ClientMessage, GameId, GameSummary};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::Side;
use crate::tui::net_request::NetRequest;
use crate::tui::panels::outcome_parts;

impl Online {
    /// Game `game` of the player's ended: its record is asked for, to be saved (if there is
    /// a save folder).
    pub(super) fn download_finished(&mut self, game: GameId) {
        if self.start.save_dir.is_some() {
            self.send(ClientMessage::Download { game });
        }
    }

    /// The server says `game`, one of the player's, ended while it was away: said on the
    /// status line, and saved (if there is a save folder) as a game seen ending.
    pub(super) fn finished_away(&mut self, game: &GameSummary) {
        let id = game.id;
        let told = away_text(game, self.lobby_name().as_deref());
        self.info(&told);
        if self.start.save_dir.is_some() {
            self.away.insert(id, told);
            self.download_finished(id);
        }
    }

    /// The server sent game `game`'s record: it is saved in the save folder, if the game is
    /// one of the player's.
    pub(super) fn save_finished(&mut self, game: GameId, json: String) {
        let mine = self.away.contains_key(&game)
            || self.games.get(&game).is_some_and(|g| g.you().is_some());
        if let (true, Some(dir)) = (mine, self.start.save_dir.clone()) {
            self.requests.push(NetRequest::SaveFinished {
                game,
                server: Some(crate::net::client::with_port(&self.start.server)),
                dir,
                json,
            });
        }
    }

    /// The storage thread saved game `game` to the file `result` names, or says why not.
    pub fn saved(&mut self, game: GameId, result: &Result<impl AsRef<Path>, String>) {
        let away = self.away.remove(&game);
        match result {
            Ok(path) => {
                let path = escaped(&path.as_ref().display().to_string(), MESSAGE_CHARS);
                match away {
                    Some(told) => self.info(&format!("{told}; saved as {path}")),
                    None => self.info(&format!("game #{game} saved as {path}")),
                }
            }
            Err(e) => self.error(&format!(
                "game #{game} NOT saved: {}",
                escaped(e, MESSAGE_CHARS)
            )),
        }
    }

    /// The storage thread wrote what online play remembers, or says why not.
    pub fn remembered(&mut self, result: &Result<(), String>) {
        if let Err(e) = result {
            self.error(&format!(
                "the server and name are not remembered: {}",
                escaped(e, MESSAGE_CHARS)
            ));
        }
    }
}

/// What happened to `game` while the player `me` was away, in words: `while you were away:
/// game 12 vs bob ended, bob won on time`.
fn away_text(game: &GameSummary, me: Option<&str>) -> String {
    let seat = |side: Side| match side {
        Side::Attackers => game.attackers.as_deref(),
        Side::Defenders => game.defenders.as_deref(),
    };
    let name = |side: Side| seat(side).map_or_else(|| "?".to_owned(), excerpt);
    let mine = [Side::Attackers, Side::Defenders]
        .into_iter()
        .find(|&side| me.is_some() && seat(side) == me);
    let versus = mine.map_or_else(
        || format!("{} vs {}", name(Side::Attackers), name(Side::Defenders)),
        |side| format!("vs {}", name(side.opponent())),
    );
    let how = game.outcome.map_or_else(String::new, |outcome| {
        let (_, why) = outcome_parts(outcome);
        match outcome.winner {
            Some(winner) if Some(winner) == mine => format!(", you won: {why}"),
            Some(winner) => format!(", {} won: {why}", name(winner)),
            None => format!(", drawn: {why}"),
        }
    });
    format!("while you were away: game #{} {versus} ended{how}", game.id)
}
