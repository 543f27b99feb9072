//! `brandubh serve backup`: a consistent copy of a server's database, taken while the server
//! runs, by `SQLite`'s online backup from a process of its own.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::store::DB_FILE;
use crate::game::storage;

/// How often a backup tries again while the database is busy (a checkpoint, the server
/// recovering its log), and how long it waits between two tries.
const BUSY_TRIES: u32 = 50;
const BUSY_PAUSE: Duration = Duration::from_millis(100);

/// A backup that could not be made; the file named was not touched.
#[derive(Debug)]
pub struct BackupError(String);

impl fmt::Display for BackupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BackupError {}

/// Copies the database of the server whose data folder is `data` into `file`, consistent
/// (one read transaction: as it stood at one moment, the server writing on meanwhile), as a
/// database of one file (no log beside it), checked, and written atomically (a temporary
/// file renamed at the end). An existing `file` is replaced only when `replace`.
pub fn backup(data: &Path, file: &Path, replace: bool) -> Result<(), BackupError> {
    let source = data.join(DB_FILE);
    if !source.is_file() {
        return Err(BackupError(format!(
            "no server database at {}",
            source.display()
        )));
    }
    if is_the_database(data, file) {
        return Err(BackupError(format!(
            "{} is the server's own database or one of its files: back up into another file",
            file.display()
        )));
    }
    if std::fs::metadata(file).is_ok_and(|m| !m.is_file()) {
        return Err(BackupError(format!(
            "{} is not a regular file: back up into a file",
            file.display()
        )));
    }
    storage::write_by_name(file, replace, |temp| copy(&source, temp)).map_err(|e| {
        if e.already_exists() {
            BackupError(format!(
                "{} already exists: give --force to replace it",
                file.display()
            ))
        } else {
            BackupError(format!(
                "cannot back up into {}: {}",
                file.display(),
                e.io_error()
            ))
        }
    })
}

/// Whether `file` names (through links too) the database in `data`, or its log or index
/// (`server.sqlite3-wal`): replacing one of those under a running server would lose or
/// corrupt its games.
fn is_the_database(data: &Path, file: &Path) -> bool {
    let resolved = file.canonicalize().ok().or_else(|| {
        let folder = match file.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        Some(folder.canonicalize().ok()?.join(file.file_name()?))
    });
    let (Some(resolved), Ok(data)) = (resolved, data.canonicalize()) else {
        return false;
    };
    resolved.parent() == Some(data.as_path())
        && resolved
            .file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with(DB_FILE))
}

/// Copies the database `source` into the empty file `target` and checks the copy.
fn copy(source: &Path, target: &Path) -> std::io::Result<()> {
    let failed = |what: &str, e: rusqlite::Error| std::io::Error::other(format!("{what}: {e}"));
    // Read and write, not read only: a read-only connection to a server stopped (its log
    // gone) would make the log and its index, and leave them in the server's folder. This
    // one, the last to close, removes them. Nothing is written; a missing file is not made.
    let from = Connection::open_with_flags(
        source,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| failed(&format!("cannot open {}", source.display()), e))?;
    let mut to = Connection::open(target).map_err(|e| failed("cannot write", e))?;
    step_through(&from, &mut to)
        .map_err(|e| failed(&format!("cannot read {}", source.display()), e))?;
    from.close()
        .map_err(|(_, e)| failed(&format!("cannot close {}", source.display()), e))?;
    // The source's log mode came with its pages: the copy is one file.
    to.pragma_update(None, "journal_mode", "DELETE")
        .map_err(|e| failed("cannot write", e))?;
    let verdict: String = to
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| failed("cannot check the copy", e))?;
    if verdict != "ok" {
        return Err(std::io::Error::other(format!(
            "the copy fails its check: {verdict}"
        )));
    }
    to.close().map_err(|(_, e)| failed("cannot write", e))?;
    std::fs::File::open(target)?.sync_all()
}

/// Copies every page in one step (one read transaction: a consistent copy, never started
/// again by the server's writes), trying again a bounded number of times while busy.
fn step_through(from: &Connection, to: &mut Connection) -> rusqlite::Result<()> {
    let backup = Backup::new(from, to)?;
    for _ in 0..BUSY_TRIES {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            // Every page is copied in one step: `More` does not come.
            StepResult::More => {}
            _busy_or_locked => std::thread::sleep(BUSY_PAUSE),
        }
    }
    Err(rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
        Some("the database stayed busy".into()),
    ))
}
