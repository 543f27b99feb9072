//! Saved games on disk: atomic saves that replace a file or never do, loading with a size cap,
//! the save folder and its listing, save names, and one autosave file per game.

mod atomic;
mod autosave;
mod downloaded;
mod listing;
mod load;
mod manage;
mod name;
mod new_path;
mod paths;
mod read;
mod summaries;
mod target;
mod temp;
mod version;

use std::fmt;
use std::path::PathBuf;

#[cfg(test)]
pub(crate) use atomic::fail_writes;
pub use atomic::{
    SaveError, next_number, save_atomic, save_first_free, save_new, save_over_seen, write_by_name,
    write_file, write_json_atomic,
};
pub use load::{Loaded, load, load_with_format};
pub use new_path::new_save_path;
pub use target::create_folders;

pub use autosave::Autosave;
pub use downloaded::{Origin, downloaded_before, save_downloaded};
pub use listing::{
    ListError, Progress, READS_PER_REPORT, SaveEntry, SaveKind, latest_unfinished,
    latest_unfinished_with, list_saves, list_saves_watched, list_saves_with,
};
pub use manage::{ManageError, delete_save, rename_save};
pub use name::{BadSaveName, MAX_NAME_CHARS, SaveName};
pub use paths::{AUTOSAVE_DIR, LEGACY_AUTOSAVE};
pub use read::{ReadError, read_regular_file};
pub use summaries::{CACHE_DIR_ENV, INDEX_FILE, SaveSummary, SummaryCache, default_index_path};
pub use version::{FileVersion, same_file};

pub use crate::folders::SAVE_DIR_ENV;

/// From now on, a write past the file size limit (`ulimit -f`) fails with "File too large" as
/// a full disk fails, instead of killing the program (the default action of the signal the
/// system sends, SIGXFSZ, which would leave the terminal as the game had set it, the move
/// unsaved and a temporary file behind). The program calls it once at its start; later calls
/// do nothing.
pub fn survive_file_size_limit() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // A handler, any handler, turns the signal into an error of the write. Without
            // one (it cannot be registered: no such signal), the default stays.
            let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, ignored);
        });
    }
}

/// There is no default save folder: neither the override nor the home folder is set.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct NoSaveDir;

impl fmt::Display for NoSaveDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no folder for saved games: the home folder is unknown; set {SAVE_DIR_ENV}"
        )
    }
}

impl std::error::Error for NoSaveDir {}

/// The folder for saved games: `$BRANDUBH_SAVE_DIR` if set and not empty; otherwise
/// `brandubh` in the user's data folder as the `directories` crate finds it:
/// `$XDG_DATA_HOME/brandubh` (when absolute) or `~/.local/share/brandubh` on Linux and other
/// Unix, `~/Library/Application Support/brandubh` on macOS, `%APPDATA%\brandubh` on Windows.
pub fn default_save_dir() -> Result<PathBuf, NoSaveDir> {
    crate::folders::SAVES.path().ok_or(NoSaveDir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use crate::game::record::Game;
    use crate::rules::{Position, Preset};

    /// Set in a copy of this test binary that checks [`default_save_dir`] in the environment
    /// it was given: the expected folder.
    const EXPECTED_DIR_ENV: &str = "BRANDUBH_TEST_EXPECTED_SAVE_DIR";

    /// Checks the save folder in a child process per environment (the environment of this
    /// process cannot be changed safely while other tests run).
    #[test]
    fn the_save_folder_follows_the_environment() {
        if let Some(expected) = std::env::var_os(EXPECTED_DIR_ENV) {
            assert_eq!(default_save_dir(), Ok(PathBuf::from(expected)));
            return;
        }
        let mut cases = vec![(
            vec![(SAVE_DIR_ENV, "/tmp/saves"), ("HOME", "/home/u")],
            "/tmp/saves",
        )];
        if cfg!(all(unix, not(target_os = "macos"))) {
            cases.extend([
                (vec![("HOME", "/home/u")], "/home/u/.local/share/brandubh"),
                (
                    vec![("XDG_DATA_HOME", "/data"), ("HOME", "/home/u")],
                    "/data/brandubh",
                ),
                // The XDG spec says to ignore a relative XDG_DATA_HOME.
                (
                    vec![("XDG_DATA_HOME", "relative"), ("HOME", "/home/u")],
                    "/home/u/.local/share/brandubh",
                ),
                (
                    vec![(SAVE_DIR_ENV, ""), ("XDG_DATA_HOME", ""), ("HOME", "/h")],
                    "/h/.local/share/brandubh",
                ),
            ]);
        }
        let me = std::env::current_exe().unwrap();
        let name = "game::storage::tests::the_save_folder_follows_the_environment";
        for (vars, expected) in cases {
            let out = std::process::Command::new(&me)
                .args([name, "--exact", "--test-threads=1"])
                .env_clear()
                .envs(vars.iter().copied())
                .env(EXPECTED_DIR_ENV, expected)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && stdout.contains("1 passed"),
                "{vars:?}: {stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    /// A hot-seat game under `standard` with `moves` played (for the tests of storage and its
    /// submodules).
    pub(super) fn game(moves: &[&str]) -> Game {
        let mut g = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        for mv in moves {
            g.play_text(mv).unwrap();
        }
        g
    }
}
