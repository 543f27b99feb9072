//! The program's folders on the user's machine: each is the user's folder of its kind as the
//! `directories` crate finds it (`~/.config`, `~/.cache`, `~/.local/share` on Linux,
//! `~/Library/...` on macOS, `%APPDATA%` and `%LOCALAPPDATA%` on Windows) with the program's
//! name joined, unless an environment variable names another (tests, and players who keep
//! their things elsewhere).

use std::path::PathBuf;

/// The environment variable that names the config folder (settings, identity, known servers).
pub const CONFIG_DIR_ENV: &str = "BRANDUBH_CONFIG_DIR";
/// The environment variable that names the cache folder (the index of save summaries).
pub const CACHE_DIR_ENV: &str = "BRANDUBH_CACHE_DIR";
/// The environment variable that names the folder of saved games.
pub const SAVE_DIR_ENV: &str = "BRANDUBH_SAVE_DIR";
/// The environment variable that names the data folder (puzzle progress).
pub const DATA_DIR_ENV: &str = "BRANDUBH_DATA_DIR";

/// Which of the user's folders a folder of ours lives in.
#[derive(Copy, Clone, Debug)]
enum Base {
    Config,
    Cache,
    Data,
}

/// One of the program's folders.
#[derive(Copy, Clone, Debug)]
pub struct Folder {
    env: Option<&'static str>,
    base: Base,
    name: &'static str,
}

/// Settings, the player's online identity and the servers they trust.
pub const CONFIG: Folder = Folder {
    env: Some(CONFIG_DIR_ENV),
    base: Base::Config,
    name: "brandubh",
};
/// What can be made again: the index of save summaries.
pub const CACHE: Folder = Folder {
    env: Some(CACHE_DIR_ENV),
    base: Base::Cache,
    name: "brandubh",
};
/// Saved games and autosaves.
pub const SAVES: Folder = Folder {
    env: Some(SAVE_DIR_ENV),
    base: Base::Data,
    name: "brandubh",
};
/// The player's own data other than games: puzzle progress (in `puzzles/`).
pub const DATA: Folder = Folder {
    env: Some(DATA_DIR_ENV),
    base: Base::Data,
    name: "brandubh",
};
/// A game server's key, certificate and database (`--data` names another).
pub const SERVER_DATA: Folder = Folder {
    env: None,
    base: Base::Data,
    name: "brandubh-server",
};

impl Folder {
    /// The folder: its environment variable's value if that is set and not empty, else the
    /// program's name in the user's folder of its kind; `None` if there is no home folder.
    pub fn path(self) -> Option<PathBuf> {
        if let Some(dir) = self
            .env
            .and_then(std::env::var_os)
            .filter(|v| !v.is_empty())
        {
            return Some(PathBuf::from(dir));
        }
        let base = directories::BaseDirs::new()?;
        let root = match self.base {
            Base::Config => base.config_dir(),
            Base::Cache => base.cache_dir(),
            Base::Data => base.data_dir(),
        };
        Some(root.join(self.name))
    }
}
