//! The puzzle progress file, `puzzles/progress.json` in the data folder: read and written on
//! the storage thread.

use std::path::{Path, PathBuf};

use crate::game::storage::{SaveError, write_file};
use crate::puzzle::Progress;

/// The progress file, `puzzles/progress.json` in the data folder.
pub fn progress_path() -> Option<PathBuf> {
    crate::folders::DATA
        .path()
        .map(|dir| dir.join("puzzles").join("progress.json"))
}

/// The progress in the file at `path`: a fresh one if there is none; a fresh one and a
/// one-line warning if it cannot be read or is not progress.
pub fn load_progress(path: &Path) -> (Progress, Option<String>) {
    let read = match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Progress::default(), None),
        Err(e) => Err(e.to_string()),
        Ok(text) => serde_json::from_str(&text).map_err(|e| e.to_string()),
    };
    match read {
        Ok(progress) => (progress, None),
        Err(why) => {
            let why = why.lines().next().unwrap_or_default().to_owned();
            let warning = format!(
                "puzzle progress {} unreadable ({why}); starting fresh",
                path.display()
            );
            (Progress::default(), Some(warning))
        }
    }
}

/// Writes the progress, as JSON `text`, atomically to `path`, making its folder if need be;
/// a failure in one line.
pub fn write_progress(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_file(path, |out| out.write_all(text.as_bytes())).map_err(|e: SaveError| e.to_string())
}
