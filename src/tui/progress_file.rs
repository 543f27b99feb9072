//! The puzzle progress file, `puzzles/progress.json` in the data folder: read and written on
//! the storage thread. A file there that cannot be read as progress (a newer version's, a
//! damaged one, a FIFO) is never written over: the progress of the run is kept until quit.

use std::path::{Path, PathBuf};

use crate::game::storage::{ReadError, SaveError, create_folders, read_regular_file, write_file};
use crate::puzzle::Progress;
use crate::quote::{MESSAGE_CHARS, escaped, quoted_path};

/// The largest progress file read: one remembering 100,000 puzzles fits.
const MAX_BYTES: u64 = 16 << 20;

/// The progress file, `puzzles/progress.json` in the data folder.
pub fn progress_path() -> Option<PathBuf> {
    crate::folders::DATA
        .path()
        .map(|dir| dir.join("puzzles").join("progress.json"))
}

/// The progress in the file at `path`: a fresh one if there is none; a fresh one and a
/// one-line warning if it cannot be read or is not progress (the file is then left as it is:
/// see [`write_progress`]).
pub fn load_progress(path: &Path) -> (Progress, Option<String>) {
    match read(path) {
        Ok(progress) => (progress.unwrap_or_default(), None),
        Err(why) => {
            let warning = format!(
                "puzzle progress {} unreadable ({why}); this run's is kept until you quit",
                quoted_path(path)
            );
            (Progress::default(), Some(warning))
        }
    }
}

/// The progress in the file at `path`, `None` if there is no file, or why it cannot be read
/// (one line, escaped).
fn read(path: &Path) -> Result<Option<Progress>, String> {
    let bytes = match read_regular_file(path, MAX_BYTES) {
        Ok((bytes, _)) => bytes,
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        let why = e.to_string();
        escaped(why.lines().next().unwrap_or_default(), MESSAGE_CHARS)
    })
}

/// Writes the progress, as JSON `text`, atomically to `path`, making its folder if need be;
/// a failure in one line. A file at `path` that is not progress [`load_progress`] reads is
/// left as it is, and the write refused.
pub fn write_progress(path: &Path, text: &str) -> Result<(), String> {
    // Something there (not only a folder on the way that is a file, which the write says).
    let there = std::fs::symlink_metadata(path).is_ok();
    if there && let Err(why) = read(path) {
        return Err(format!(
            "{} left as it is, not progress ({why})",
            quoted_path(path)
        ));
    }
    if let Some(dir) = path.parent() {
        create_folders(dir).map_err(|e| format!("{}: {e}", quoted_path(dir)))?;
    }
    write_file(path, |out| out.write_all(text.as_bytes())).map_err(|e: SaveError| e.to_string())
}
