//! A game record another program sent (a server's download of a finished online game),
//! checked by replaying it and kept as a new save beside the player's own.

use std::path::{Path, PathBuf};

use super::{new_save_path, save_new};
use crate::game::Game;

/// Writes a downloaded game into `dir` as a new save; returns its path.
pub fn save_downloaded(dir: &Path, json: &str) -> Result<PathBuf, String> {
    let game = Game::from_json(json).map_err(|e| format!("the server sent a bad game: {e}"))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let path = new_save_path(dir, &game);
    save_new(&path, &game).map_err(|e| e.to_string())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::rules::{Position, Preset};

    #[test]
    fn a_downloaded_game_is_a_new_save_and_a_bad_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        game.play_text("d2-c2").unwrap();
        let json = game.to_json();
        let first = save_downloaded(&dir.path().join("saves"), &json).unwrap();
        let second = save_downloaded(&dir.path().join("saves"), &json).unwrap();
        assert_ne!(first, second, "never over another save");
        let bytes = std::fs::read_to_string(&second).unwrap();
        assert_eq!(Game::from_json(&bytes).unwrap().moves(), game.moves());
        let refused = save_downloaded(dir.path(), "{").unwrap_err();
        assert!(
            refused.starts_with("the server sent a bad game"),
            "{refused}"
        );
    }
}
