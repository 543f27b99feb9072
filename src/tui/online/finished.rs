//! A finished game of the player's lands in the save folder like any other: online play asks
//! the server for its record when it ends and hands it to the storage thread, which says how
//! the write went (never lost silently); and what online play remembers is written there too.

use std::path::Path;

use super::Online;
use crate::net::protocol::{ClientMessage, GameId};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::tui::net_request::NetRequest;

impl Online {
    /// Game `game` of the player's ended: its record is asked for, to be saved (if there is
    /// a save folder).
    pub(super) fn download_finished(&mut self, game: GameId) {
        if self.start.save_dir.is_some() {
            self.send(ClientMessage::Download { game });
        }
    }

    /// The server sent game `game`'s record: it is saved in the save folder, if the game is
    /// one of the player's.
    pub(super) fn save_finished(&mut self, game: GameId, json: String) {
        let mine = self.games.get(&game).is_some_and(|g| g.you().is_some());
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
        match result {
            Ok(path) => self.info(&format!(
                "game #{game} saved as {}",
                escaped(&path.as_ref().display().to_string(), MESSAGE_CHARS)
            )),
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
