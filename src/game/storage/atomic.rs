//! Atomic writes: a save, an export or the settings go to a temporary file beside the target,
//! flushed to disk and then renamed over it (or linked, for a new file that must not replace
//! one), so that a failure or crash leaves the previous file or the new one, never a mix.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::target::{self, Target};
use super::temp;
use super::version::FileVersion;
use crate::game::record::Game;

/// Why a game could not be saved. The previous file at the path, if any, is intact.
#[derive(Debug)]
pub struct SaveError {
    path: PathBuf,
    error: io::Error,
    refusal: Refusal,
}

/// Why a save left a file that is there alone, if it did.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Refusal {
    /// Not a refusal: the write failed.
    None,
    /// The save was of a new file, and a file of that name exists.
    Taken,
    /// The file is not as this game last read or wrote it.
    Changed,
}

impl SaveError {
    /// The file that was to be written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the save was of a new file and a file of that name exists (it is untouched).
    /// Other failures that the system reports as "exists" (a file where a folder should be)
    /// are not this.
    pub fn already_exists(&self) -> bool {
        self.refusal == Refusal::Taken
    }

    /// Whether the save was over the game's own file and another program (another copy of
    /// the game) has written that file since this game last read or wrote it: it is untouched.
    pub fn changed_since_seen(&self) -> bool {
        self.refusal == Refusal::Changed
    }

    /// What the system said, without the path (for a game too large to save, an error of
    /// kind [`io::ErrorKind::FileTooLarge`] holding a [`crate::game::TooLarge`]).
    pub const fn io_error(&self) -> &io::Error {
        &self.error
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot save to {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What an atomic write does when its target exists.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Existing {
    /// Replace it (the player agreed to; an autosave, an export, the settings).
    Replace,
    /// Replace it if it is still this version, or not there (a save of the game's own file).
    ReplaceSeen(FileVersion),
    /// Leave it and fail with [`io::ErrorKind::AlreadyExists`] (a save under a new name).
    Keep,
}

/// Saves `game` to `path` atomically: the JSON goes to a temporary file in the same folder,
/// which is flushed to disk and then renamed over `path`. A failure or crash at any point
/// leaves either the previous file or the new one, never a mix. Missing folders are created.
/// A link is followed and kept: the file it names is replaced. Returns the version written.
///
/// A game beyond what a save holds (see [`Game::write_json`]) is not written, so that every
/// file saved loads: the error's [`SaveError::io_error`] says why.
pub fn save_atomic(path: &Path, game: &Game) -> Result<FileVersion, SaveError> {
    write_atomic(
        path,
        Existing::Replace,
        |out| game.write_json(out),
        |_| Ok(()),
    )
}

/// Saves `game` over its own file `path` as [`save_atomic`] does, if the file is still
/// `seen`, the version this game last read or wrote there, or is gone. If another program has
/// written it since, nothing is written and the error says
/// [`SaveError::changed_since_seen`]. (A write between the check and the rename, a moment
/// later, is not noticed.)
pub fn save_over_seen(
    path: &Path,
    game: &Game,
    seen: FileVersion,
) -> Result<FileVersion, SaveError> {
    write_atomic(
        path,
        Existing::ReplaceSeen(seen),
        |out| game.write_json(out),
        |_| Ok(()),
    )
}

/// Saves `game` to `path` as a new file, as atomically as [`save_atomic`], but never replaces
/// a file: if `path` exists, even one created by another program a moment ago, nothing is
/// written and the error says [`SaveError::already_exists`].
pub fn save_new(path: &Path, game: &Game) -> Result<FileVersion, SaveError> {
    write_atomic(path, Existing::Keep, |out| game.write_json(out), |_| Ok(()))
}

/// Writes to `path` what `write` writes, as [`save_atomic`] writes a game (exports use it).
/// Where `path` names a device or a FIFO (`/dev/null`, `/dev/stdout`), it is written in place.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    write_atomic(path, Existing::Replace, write, |_| Ok(())).map(drop)
}

/// Writes the regular file `path` by name: `fill` is given the path of a new, empty temporary
/// file beside it to fill and flush to disk (for writers that take a path, as `SQLite`'s
/// backup does); then the file is committed as [`write_file`] does when `replace`, else as
/// [`save_new`] does (an existing file is kept and the error says
/// [`SaveError::already_exists`]).
pub fn write_by_name(
    path: &Path,
    replace: bool,
    fill: impl FnOnce(&Path) -> io::Result<()>,
) -> Result<(), SaveError> {
    let existing = if replace {
        Existing::Replace
    } else {
        Existing::Keep
    };
    write_atomic(path, existing, |_| Ok(()), fill).map(drop)
}

/// Writes `value` to `path` as pretty JSON with a final newline, atomically as [`save_atomic`]
/// writes a game (the terminal game's settings use it).
pub fn write_json_atomic(path: &Path, value: &impl serde::Serialize) -> Result<(), SaveError> {
    write_file(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        out.write_all(b"\n")
    })
}

/// Saves `game` in `dir` as a new file named `name(n)` for the first `n` from `first` whose
/// file does not exist, never replacing a file (see [`save_new`]). Returns the file.
pub fn save_first_free(
    dir: &Path,
    name: impl Fn(u32) -> String,
    first: u32,
    game: &Game,
) -> Result<PathBuf, SaveError> {
    /// Names tried before giving up (a folder of that many games is a mistake).
    const TRIES: u32 = 1_000_000;
    let mut last = None;
    for n in (first..).take(TRIES as usize) {
        let path = dir.join(name(n));
        if fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        match save_new(&path, game) {
            Err(e) if e.already_exists() => last = Some(e),
            result => return result.map(|_| path),
        }
    }
    Err(last.unwrap_or_else(|| SaveError {
        path: dir.join(name(first)),
        error: io::Error::new(io::ErrorKind::AlreadyExists, "every name is taken"),
        refusal: Refusal::Taken,
    }))
}

/// One more than the highest `n` of the files `{prefix}{n}.json` in `dir` (1 when there are
/// none, or no folder yet), so that numbered saves continue after the files already there.
pub fn next_number(dir: &Path, prefix: &str) -> io::Result<u32> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(1),
        Err(e) => return Err(e),
    };
    let mut highest = 0;
    for entry in entries {
        let name = entry?.file_name();
        let n = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|n| n.strip_suffix(".json"))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u32>().ok());
        highest = highest.max(n.unwrap_or(0));
    }
    Ok(highest.saturating_add(1))
}

/// Writes a file with `write`: atomically where `path` names a regular file or none (through
/// any links), in place where it names a device or a FIFO. `before_commit` runs once the
/// temporary file is complete and on disk (tests inject failures there). Returns the version
/// of the file written.
fn write_atomic(
    path: &Path,
    existing: Existing,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    before_commit: impl FnOnce(&Path) -> io::Result<()>,
) -> Result<FileVersion, SaveError> {
    let fail = |error| SaveError {
        path: path.to_owned(),
        error,
        refusal: Refusal::None,
    };
    // A new save takes the name itself, whatever is there: a link or a device is taken too.
    let target = match existing {
        Existing::Keep => Target::File(path.to_owned()),
        Existing::Replace | Existing::ReplaceSeen(_) => target::resolve(path).map_err(fail)?,
    };
    let result = match &target {
        Target::File(file) => write_through_temp(file, existing, write, before_commit),
        Target::Special => write_in_place(path, write).map_err(Commit::Failed),
    };
    result.map_err(|error| match error {
        Commit::Taken(error) => SaveError {
            refusal: Refusal::Taken,
            ..fail(error)
        },
        Commit::Changed => SaveError {
            refusal: Refusal::Changed,
            ..fail(io::Error::other(
                "the file changed since this game last read or wrote it",
            ))
        },
        Commit::Failed(error) => fail(error),
    })
}

/// Writes `path` atomically through a temporary file beside it, renamed over it at the end.
fn write_through_temp(
    path: &Path,
    existing: Existing,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    before_commit: impl FnOnce(&Path) -> io::Result<()>,
) -> Result<FileVersion, Commit> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    target::create_folders(dir)?;
    let temp = temp::temp_path(dir, name);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)?;
    let written = fill(file, path, write).and_then(|version| {
        before_commit(&temp)?;
        #[cfg(test)]
        fail_writes::injected()?;
        Ok(version)
    });
    let committed = written
        .map_err(Commit::Failed)
        .and_then(|version| commit(&temp, path, existing).map(|()| version));
    if committed.is_err() {
        // Best effort: the temporary file is useless now; the target is untouched.
        let _ = fs::remove_file(&temp);
    } else if let Ok(folder) = File::open(dir) {
        // Make the rename itself durable where the platform allows syncing a folder.
        let _ = folder.sync_all();
    }
    committed
}

/// Writes the device or FIFO at `path` in place (it is opened as it is: never created,
/// replaced or truncated).
fn write_in_place(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<FileVersion> {
    let file = OpenOptions::new().write(true).open(path)?;
    let version = FileVersion::of(&file.metadata()?);
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    out.flush()?;
    Ok(version)
}

/// Why a save failed at its last step or before.
enum Commit {
    /// The name of a new file is taken.
    Taken(io::Error),
    /// The file is not the version this game last read or wrote.
    Changed,
    /// Anything else.
    Failed(io::Error),
}

impl From<io::Error> for Commit {
    fn from(e: io::Error) -> Self {
        Commit::Failed(e)
    }
}

/// Gives the complete temporary file `temp` the name `path`.
fn commit(temp: &Path, path: &Path, existing: Existing) -> Result<(), Commit> {
    let taken = |e: io::Error| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Commit::Taken(e)
        } else {
            Commit::Failed(e)
        }
    };
    match existing {
        Existing::Replace => Ok(fs::rename(temp, path)?),
        Existing::ReplaceSeen(seen) => match fs::metadata(path) {
            Ok(now) if FileVersion::of(&now) != seen => Err(Commit::Changed),
            _ => Ok(fs::rename(temp, path)?),
        },
        // A hard link fails if the name is taken, where a rename would replace the file.
        Existing::Keep => match hard_link(temp, path) {
            Ok(()) => {
                // A leftover link is a stale temporary file, removed by a later save.
                let _ = fs::remove_file(temp);
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(Commit::Taken(e)),
            Err(_) => {
                // No hard links here (FAT, some network folders): take the name with an empty
                // file, then rename the content over it.
                OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .map_err(taken)?;
                Ok(fs::rename(temp, path).inspect_err(|_| {
                    let _ = fs::remove_file(path);
                })?)
            }
        },
    }
}

#[cfg(test)]
pub(super) use fail_writes::hard_link;
#[cfg(not(test))]
pub(super) use fs::hard_link;

/// Failures injected into every write of the current thread, for tests of the layers above
/// (a full disk while the terminal game autosaves), and a file system without hard links.
#[cfg(test)]
pub(crate) mod fail_writes {
    use std::cell::Cell;
    use std::io;
    use std::path::Path;

    thread_local! {
        static FAILURE: Cell<Option<io::ErrorKind>> = const { Cell::new(None) };
        static NO_HARD_LINKS: Cell<bool> = const { Cell::new(false) };
    }

    /// From now on, writes on this thread fail with `kind` (`None`: they work again).
    pub(crate) fn inject(kind: Option<io::ErrorKind>) {
        FAILURE.set(kind);
    }

    /// From now on, hard links on this thread fail as on a file system without them (FAT,
    /// some network folders), or work again.
    pub(crate) fn without_hard_links(off: bool) {
        NO_HARD_LINKS.set(off);
    }

    /// [`std::fs::hard_link`], unless hard links are off on this thread.
    pub(crate) fn hard_link(original: &Path, link: &Path) -> io::Result<()> {
        if NO_HARD_LINKS.get() {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "no hard links here (injected)",
            ));
        }
        std::fs::hard_link(original, link)
    }

    /// The injected failure, if any.
    pub(super) fn injected() -> io::Result<()> {
        match FAILURE.get() {
            Some(kind) => Err(io::Error::new(kind, "injected failure")),
            None => Ok(()),
        }
    }
}

/// Writes the content to the temporary `file`, with the permissions of the file it will
/// replace, flushes it to disk, and returns its version (the file's, once renamed).
fn fill(
    file: File,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<FileVersion> {
    if let Ok(meta) = fs::metadata(target) {
        file.set_permissions(meta.permissions())?;
    }
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()?;
    Ok(FileVersion::of(&file.metadata()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::storage::load;
    use crate::game::storage::tests::game;

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failure_after_the_temporary_file_is_written_keeps_the_previous_save() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let old = game(&["d2-c2"]);
        save_atomic(&path, &old).unwrap();
        let before = fs::read(&path).unwrap();

        let new = game(&["d2-c2", "d3-e3", "c2-c3"]);
        let mut temp_seen = None;
        let err = write_atomic(
            &path,
            Existing::Replace,
            |out| new.write_json(out),
            |temp| {
                // The new game is complete on disk, under another name.
                temp_seen = Some(Game::from_json_bytes(&fs::read(temp)?).map(|g| g.moves().len()));
                Err(io::Error::other("injected crash before the rename"))
            },
        )
        .unwrap_err();
        assert!(matches!(temp_seen, Some(Ok(3))), "{temp_seen:?}");
        assert!(err.to_string().contains("injected crash"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
        assert_eq!(load(&path).unwrap().moves().len(), 1);
        assert_eq!(
            files_in(dir.path()),
            ["game.json"],
            "no temporary file left"
        );

        save_atomic(&path, &new).unwrap();
        assert_eq!(load(&path).unwrap(), new);
        assert_eq!(files_in(dir.path()), ["game.json"]);
    }

    #[test]
    fn a_failure_while_writing_keeps_the_previous_save() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        save_atomic(&path, &game(&["d2-c2"])).unwrap();
        let before = fs::read(&path).unwrap();
        let err = write_atomic(
            &path,
            Existing::Replace,
            |out| {
                out.write_all(b"{\"format\": \"brandubh-game\", \"ver")?;
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            },
            |_| Ok(()),
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("cannot save to "), "{err}");
        let source = std::error::Error::source(&err).map(ToString::to_string);
        assert_eq!(
            source.as_deref(),
            Some("disk full"),
            "the cause, for error chains"
        );
        assert_eq!(fs::read(&path).unwrap(), before);
        assert_eq!(files_in(dir.path()), ["game.json"]);
    }

    #[test]
    fn new_saves_never_replace_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.json");
        save_new(&path, &game(&["d2-c2"])).unwrap();
        let before = fs::read(&path).unwrap();
        let err = save_new(&path, &game(&["d2-c2", "d3-e3"])).unwrap_err();
        assert!(err.already_exists(), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
        assert_eq!(
            files_in(dir.path()),
            ["mine.json"],
            "no temporary file left"
        );
        // Replacing is for the game's own file.
        save_atomic(&path, &game(&["d2-c2", "d3-e3"])).unwrap();
        assert_eq!(load(&path).unwrap().moves().len(), 2);
    }

    #[test]
    fn numbered_saves_continue_after_the_files_there_and_skip_taken_names() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path().join("match");
        assert_eq!(next_number(&saves, "game-").unwrap(), 1, "no folder yet");
        let name = |n: u32| format!("game-{n:03}.json");
        let g = game(&["d2-c2"]);
        assert_eq!(
            save_first_free(&saves, name, 1, &g).unwrap(),
            saves.join("game-001.json")
        );
        fs::write(saves.join("game-007.json"), "not ours").unwrap();
        fs::write(saves.join("game-x.json"), "").unwrap();
        fs::write(saves.join("other-9.json"), "").unwrap();
        assert_eq!(next_number(&saves, "game-").unwrap(), 8);
        // Another run took 8 meanwhile: the next free number is used, nothing is replaced.
        fs::write(saves.join("game-008.json"), "taken").unwrap();
        assert_eq!(
            save_first_free(&saves, name, 8, &g).unwrap(),
            saves.join("game-009.json")
        );
        assert_eq!(
            fs::read_to_string(saves.join("game-007.json")).unwrap(),
            "not ours"
        );
        assert_eq!(
            fs::read_to_string(saves.join("game-008.json")).unwrap(),
            "taken"
        );
    }

    #[test]
    fn a_file_where_the_folder_should_be_is_a_failure_not_a_taken_name() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("autosave");
        fs::write(&blocker, "a file").unwrap();
        let name = |n: u32| format!("{n}.json");
        let err = save_first_free(&blocker, name, 1, &game(&["d2-c2"])).unwrap_err();
        assert!(!err.already_exists(), "{err}");
        assert_eq!(
            err.path(),
            blocker.join("1.json"),
            "gave up at the first name"
        );
        let err = save_new(&blocker.join("x.json"), &game(&[])).unwrap_err();
        assert!(!err.already_exists(), "{err}");
        // Numbering there is a failure too, not a folder without saves.
        assert!(next_number(&blocker, "game-").is_err());
    }

    #[test]
    fn without_hard_links_new_saves_still_never_replace_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.json");
        fail_writes::without_hard_links(true);
        let first = save_new(&path, &game(&["d2-c2"]));
        let before = fs::read(&path);
        let taken = save_new(&path, &game(&["d2-c2", "d3-e3"]));
        fail_writes::without_hard_links(false);
        first.unwrap();
        assert_eq!(load(&path).unwrap().moves().len(), 1);
        let err = taken.unwrap_err();
        assert!(err.already_exists(), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before.unwrap());
        assert_eq!(
            files_in(dir.path()),
            ["mine.json"],
            "no temporary file left"
        );
    }

    /// Set in a copy of this test binary that saves to a bare file name in its current folder.
    const BARE_NAME_ENV: &str = "BRANDUBH_TEST_SAVE_TO_BARE_NAME";

    /// A save to `game.json` (no folder): in the current folder, which is not one of the
    /// program's own and is never cleaned, not even of a temporary file of ours. Checked in a
    /// child process started in a folder of its own (the current folder of this process is
    /// shared by every test).
    #[test]
    fn a_bare_file_name_saves_in_the_current_folder_and_leaves_its_other_files() {
        if std::env::var_os(BARE_NAME_ENV).is_some() {
            save_atomic(Path::new("game.json"), &game(&["d2-c2"])).unwrap();
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        // Written by a process that cannot run (above any process number), two days ago.
        let stale = dir.path().join(".old.json.brandubh-2000000000-1.tmp");
        File::create(&stale)
            .unwrap()
            .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 86_400))
            .unwrap();
        let name = "game::storage::atomic::tests::a_bare_file_name_saves_in_the_current_folder_and_leaves_its_other_files";
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--test-threads=1"])
            .current_dir(dir.path())
            .env(BARE_NAME_ENV, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            files_in(dir.path()),
            [".old.json.brandubh-2000000000-1.tmp", "game.json"],
            "a folder not the program's own is not cleaned"
        );
        assert_eq!(
            load(&dir.path().join("game.json")).unwrap().moves().len(),
            1
        );
    }

    #[test]
    fn a_game_beyond_the_bounds_of_a_save_is_never_written() {
        use crate::game::save::TooLarge;
        use crate::game::save_format::MAX_COMMENT_CHARS;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let mut g = game(&["d2-c2", "d3-e3"]);
        g.set_comment(0, Some("a".repeat(MAX_COMMENT_CHARS - 10)));
        g.set_start_comment(Some("b".repeat(10)));
        save_atomic(&path, &g).unwrap();
        assert_eq!(load(&path).unwrap(), g, "at the limit");
        let before = fs::read(&path).unwrap();
        g.set_comment(1, Some("c".into()));
        for err in [
            save_atomic(&path, &g).unwrap_err(),
            save_new(&dir.path().join("new.json"), &g).unwrap_err(),
        ] {
            assert_eq!(err.io_error().kind(), io::ErrorKind::FileTooLarge);
            let inner = err.io_error().get_ref().unwrap();
            assert_eq!(
                inner.downcast_ref::<TooLarge>(),
                Some(&TooLarge::Comments(MAX_COMMENT_CHARS + 1))
            );
            assert!(err.to_string().contains("too large to save"), "{err}");
        }
        assert_eq!(
            fs::read(&path).unwrap(),
            before,
            "the previous save is kept"
        );
        assert_eq!(files_in(dir.path()), ["game.json"], "nothing else written");
    }

    #[test]
    fn an_injected_failure_keeps_the_previous_save() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        save_atomic(&path, &game(&["d2-c2"])).unwrap();
        fail_writes::inject(Some(io::ErrorKind::StorageFull));
        let err = save_atomic(&path, &game(&["d2-c2", "d3-e3"])).unwrap_err();
        fail_writes::inject(None);
        assert_eq!(err.io_error().kind(), io::ErrorKind::StorageFull);
        assert_eq!(load(&path).unwrap().moves().len(), 1);
        assert_eq!(files_in(dir.path()), ["game.json"]);
    }
}
