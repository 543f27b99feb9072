//! Two things a player hears of games not on screen, and keeps of a game watched: an alert
//! when a move makes it the player's move in a game it is not looking at (a line, a mark on
//! the lobby's row; the bell rings as for any move of the opponent), and a spectator's save
//! (`s` on the board) of the game watched, written to the save folder as any save.

use super::{Online, View};
use crate::net::protocol::GameId;
use crate::rules::Side;
use crate::tui::net_request::NetRequest;

impl Online {
    /// A move was played in game `game`: if it is the player's move there now and the game
    /// is not on screen, the lobby marks it and the status line says so.
    pub(super) fn alert_if_elsewhere(&mut self, game: GameId) {
        let Some(g) = self.games.get(&game) else {
            return;
        };
        if self.on_screen(game) || !g.my_turn() {
            return;
        }
        let opponent = g.name(g.you().unwrap_or(Side::Attackers).opponent());
        self.lobby.alert(game);
        if matches!(self.view, View::Lobby) {
            self.refresh(self.now);
        }
        self.info(&format!(
            "your move in #{game} against {opponent}: Enter on it in the lobby"
        ));
    }

    /// `s` on the board of game `id`, watched: the game as it stands is saved as a new save
    /// in the save folder (on the storage thread, which says where).
    pub(super) fn save_watched(&mut self, id: GameId) {
        let Some(dir) = self.start.save_dir.clone() else {
            self.error("no save folder to save the game in (set BRANDUBH_SAVE_DIR)");
            return;
        };
        let Some(game) = self.games.get(&id) else {
            return;
        };
        let json = game.save_json();
        self.requests.push(NetRequest::SaveFinished {
            game: id,
            server: None,
            dir,
            json,
        });
        self.info(&format!("saving game #{id}…"));
    }
}
