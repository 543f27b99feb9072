//! A game record another program sent (a server's download of a finished online game),
//! checked by replaying it and kept as a new save beside the player's own.

use std::path::{Path, PathBuf};

use super::atomic::save_new;
use super::new_path::new_save_path;
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

    /// A finished game, as a server would send it.
    const ESCAPE: &str = include_str!("../../../assets/games/escape.json");

    #[test]
    fn a_downloaded_game_is_a_new_save_and_a_bad_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path().join("saves");
        let first = save_downloaded(&saves, ESCAPE).unwrap();
        let second = save_downloaded(&saves, ESCAPE).unwrap();
        assert_ne!(first, second, "never over another save");
        let bytes = std::fs::read_to_string(&second).unwrap();
        let sent = Game::from_json(ESCAPE).unwrap();
        assert_eq!(Game::from_json(&bytes).unwrap().moves(), sent.moves());
        let refused = save_downloaded(dir.path(), "{").unwrap_err();
        assert!(
            refused.starts_with("the server sent a bad game"),
            "{refused}"
        );
    }
}
