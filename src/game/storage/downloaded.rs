//! A game record another program sent (a server's download of a finished online game),
//! checked by replaying it and kept as a save beside the player's own, named by the game's
//! date and where it came from, so that a game downloaded again is recognised, not copied.

use std::path::{Path, PathBuf};

use super::atomic::save_new;
use super::new_path::{compact_stamp, new_save_path};
use crate::game::Game;

/// Where a downloaded game came from: the server and the game's number there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Origin<'a> {
    /// `HOST:PORT`.
    pub server: &'a str,
    /// The game's number on that server.
    pub game: u64,
}

impl Origin<'_> {
    /// The end of the file name of a game from here: `-example.org-7343-game7.json` (the
    /// server's characters other than letters, digits, `.` and `-` written as `-`).
    fn file_suffix(self) -> String {
        let server: String = self
            .server
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let server = server.trim_matches('-');
        format!("-{server}-game{}.json", self.game)
    }
}

/// The save in `dir` of the game from `origin`, if it was downloaded before.
pub fn downloaded_before(dir: &Path, origin: Origin<'_>) -> Option<PathBuf> {
    let suffix = origin.file_suffix();
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("game-") && name.ends_with(&suffix))
        })
}

/// Writes a game downloaded from `origin` into `dir` as a save named by the game's date and
/// its origin (`game-20261207-222905-example.org-7343-game7.json`); returns its path, or the
/// path of the save already there if it was downloaded before. Without an origin (a game
/// still in progress, saved as it stands), a new save named by its date alone.
pub fn save_downloaded(
    dir: &Path,
    origin: Option<Origin<'_>>,
    json: &str,
) -> Result<PathBuf, String> {
    let game = Game::from_json(json).map_err(|e| format!("the server sent a bad game: {e}"))?;
    if let Some(path) = origin.and_then(|origin| downloaded_before(dir, origin)) {
        return Ok(path);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let path = match origin {
        Some(origin) => {
            let stamp = compact_stamp(game.created());
            dir.join(format!("game-{stamp}{}", origin.file_suffix()))
        }
        None => new_save_path(dir, &game),
    };
    save_new(&path, &game).map_err(|e| e.to_string())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished game, as a server would send it.
    const ESCAPE: &str = include_str!("../../../assets/games/escape.json");

    #[test]
    fn a_game_downloaded_again_from_the_same_server_is_recognised_not_copied() {
        let dir = tempfile::tempdir().unwrap();
        let here = Origin {
            server: "example.org:7343",
            game: 7,
        };
        let first = save_downloaded(dir.path(), Some(here), ESCAPE).unwrap();
        let name = first.file_name().unwrap().to_str().unwrap().to_owned();
        let created = Game::from_json(ESCAPE).unwrap().created();
        let stamp = super::super::new_path::compact_stamp(created);
        assert_eq!(name, format!("game-{stamp}-example.org-7343-game7.json"));
        assert_eq!(downloaded_before(dir.path(), here), Some(first.clone()));
        assert_eq!(
            save_downloaded(dir.path(), Some(here), ESCAPE).unwrap(),
            first
        );
        // Another game, or the same number on another server: another file.
        let other = Origin { game: 17, ..here };
        assert_eq!(downloaded_before(dir.path(), other), None);
        let elsewhere = Origin {
            server: "[::1]:7343",
            game: 7,
        };
        assert_ne!(
            save_downloaded(dir.path(), Some(elsewhere), ESCAPE).unwrap(),
            first
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_downloaded_game_is_named_by_the_day_it_was_played() {
        let dir = tempfile::tempdir().unwrap();
        let mut game = Game::from_json(ESCAPE).unwrap();
        game.set_created("2020-01-02T03:04:05Z".parse().unwrap());
        let here = Origin {
            server: "example.org:7343",
            game: 7,
        };
        let path = save_downloaded(dir.path(), Some(here), &game.to_json()).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, "game-20200102-030405-example.org-7343-game7.json");
        let saved = crate::game::storage::load(&path).unwrap();
        assert_eq!(saved.created().to_string(), "2020-01-02T03:04:05Z");
    }

    #[test]
    fn a_downloaded_game_is_a_new_save_and_a_bad_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path().join("saves");
        let first = save_downloaded(&saves, None, ESCAPE).unwrap();
        let second = save_downloaded(&saves, None, ESCAPE).unwrap();
        assert_ne!(first, second, "never over another save");
        let bytes = std::fs::read_to_string(&second).unwrap();
        let sent = Game::from_json(ESCAPE).unwrap();
        assert_eq!(Game::from_json(&bytes).unwrap().moves(), sent.moves());
        let refused = save_downloaded(dir.path(), None, "{").unwrap_err();
        assert!(
            refused.starts_with("the server sent a bad game"),
            "{refused}"
        );
    }
}
