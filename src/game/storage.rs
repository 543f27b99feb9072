//! Saved games on disk: atomic saves, loading with a size cap, the save folder and its listing.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::import::{self, Format};
use super::save::MAX_SAVE_BYTES;
use super::{Game, LoadError, LoadErrorKind, Timestamp};

/// The environment variable that overrides the default save folder.
pub const SAVE_DIR_ENV: &str = "BRANDUBH_SAVE_DIR";
/// The file name of the autosave in the save folder.
pub const AUTOSAVE_FILE: &str = "autosave.json";

/// Why a game could not be saved. The previous file at the path, if any, is intact.
#[derive(Debug)]
pub struct SaveError {
    path: PathBuf,
    error: io::Error,
}

impl SaveError {
    /// The file that was to be written.
    pub fn path(&self) -> &Path {
        &self.path
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

/// Saves `game` to `path` atomically: the JSON goes to a temporary file in the same folder,
/// which is flushed to disk and then renamed over `path`. A failure or crash at any point
/// leaves either the previous file or the new one, never a mix. Missing folders are created.
pub fn save_atomic(path: &Path, game: &Game) -> Result<(), SaveError> {
    write_atomic(path, |out| game.write_json(out), |_| Ok(()))
}

/// Writes `text` to `path` atomically, as [`save_atomic`] writes a game (exports use it).
pub fn write_text_atomic(path: &Path, text: &str) -> Result<(), SaveError> {
    write_atomic(path, |out| out.write_all(text.as_bytes()), |_| Ok(()))
}

/// Tells temporary files of one process apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes a file atomically with `write`; `before_rename` runs once the temporary file is
/// complete and on disk (tests inject failures there).
fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    before_rename: impl FnOnce(&Path) -> io::Result<()>,
) -> Result<(), SaveError> {
    let fail = |error| SaveError {
        path: path.to_owned(),
        error,
    };
    let name = path
        .file_name()
        .ok_or_else(|| fail(io::Error::new(io::ErrorKind::InvalidInput, "no file name")))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(fail)?;
    let mut temp_name = OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(
        ".{}-{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let temp = dir.join(temp_name);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(fail)?;
    let written = fill(file, path, write).and_then(|()| before_rename(&temp));
    let renamed = written.and_then(|()| fs::rename(&temp, path));
    if let Err(error) = renamed {
        // Best effort: the temporary file is useless now; the target is untouched.
        let _ = fs::remove_file(&temp);
        return Err(fail(error));
    }
    // Make the rename itself durable where the platform allows syncing a folder.
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Writes the content to the temporary `file`, with the permissions of the file it will
/// replace, and flushes it to disk.
fn fill(
    file: File,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Ok(meta) = fs::metadata(target) {
        file.set_permissions(meta.permissions())?;
    }
    let mut out = BufWriter::new(file);
    write(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Loads the game at `path`: a saved game, an OpenTafl game record or a move record, told
/// apart by content (see [`import::detect`]). Non-files and files over [`MAX_SAVE_BYTES`] are
/// refused before reading them.
pub fn load(path: &Path) -> Result<Game, LoadError> {
    load_with_format(path).map(|(game, _)| game)
}

/// [`load`], also saying which kind of file it was (a game read from another program's
/// record is saved in a file of its own, never over the record).
pub fn load_with_format(path: &Path) -> Result<(Game, Format), LoadError> {
    let in_file = |kind: LoadErrorKind| LoadError::from(kind).in_file(path);
    let meta = fs::metadata(path).map_err(|e| in_file(LoadErrorKind::Unreadable(e)))?;
    if !meta.is_file() {
        return Err(in_file(LoadErrorKind::NotAFile));
    }
    if meta.len() > MAX_SAVE_BYTES {
        return Err(in_file(LoadErrorKind::TooLarge(meta.len())));
    }
    // Read one byte over the limit at most: the file may have grown since it was measured,
    // and the parser refuses what is too long.
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|file| file.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| in_file(LoadErrorKind::Unreadable(e)))?;
    import::read(&bytes).map_err(|e| e.in_file(path))
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
    if let Some(dir) = std::env::var_os(SAVE_DIR_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::BaseDirs::new()
        .map(|base| base.data_dir().join("brandubh"))
        .ok_or(NoSaveDir)
}

/// The autosave file: [`AUTOSAVE_FILE`] in the default save folder.
pub fn autosave_path() -> Result<PathBuf, NoSaveDir> {
    default_save_dir().map(|dir| dir.join(AUTOSAVE_FILE))
}

/// A path for a new save of `game` in `dir`, named after its creation time
/// (`game-20261129-141339.json`), with `-2`, `-3`... added if that name is taken.
pub fn new_save_path(dir: &Path, game: &Game) -> PathBuf {
    let stamp = game.created().to_string();
    let (date, time) = stamp.split_once('T').unwrap_or((&stamp, ""));
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    let base = format!("game-{}-{}", digits(date), digits(time));
    let mut path = dir.join(format!("{base}.json"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}.json"));
        n += 1;
    }
    path
}

/// A saved game found in a folder.
#[derive(Debug)]
pub struct SaveEntry {
    /// The file.
    pub path: PathBuf,
    /// The file name without `.json` (OpenTafl records keep their `.otg`).
    pub name: String,
    /// When the file was last written, if the system says.
    pub modified: Option<Timestamp>,
    /// The game's [`Game::summary`] line, or why it cannot be loaded.
    pub summary: Result<String, LoadError>,
}

/// A folder of saves could not be listed.
#[derive(Debug)]
pub struct ListError {
    dir: PathBuf,
    error: io::Error,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot list saved games in {}: {}",
            self.dir.display(),
            self.error
        )
    }
}

impl std::error::Error for ListError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The `.json` and `.otg` files in `dir` (not hidden ones), newest first, each loaded for
/// its summary.
/// A folder that does not exist yet holds no saves.
pub fn list_saves(dir: &Path) -> Result<Vec<SaveEntry>, ListError> {
    let fail = |error| ListError {
        dir: dir.to_owned(),
        error,
    };
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail(e)),
    };
    let mut saves = Vec::new();
    for entry in entries {
        let path = entry.map_err(fail)?.path();
        let is_otg = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("otg"));
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !n.starts_with('.'))
            .and_then(|n| n.strip_suffix(".json").or(is_otg.then_some(n)))
            .map(str::to_owned)
        else {
            continue;
        };
        let modified = fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .map(Timestamp::from_system_time);
        let summary = load(&path).map(|game| game.summary());
        saves.push(SaveEntry {
            path,
            name,
            modified,
            summary,
        });
    }
    saves.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(saves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
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

    fn game(moves: &[&str]) -> Game {
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
            |out| {
                out.write_all(b"{\"format\": \"brandubh-game\", \"ver")?;
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            },
            |_| Ok(()),
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("cannot save to "), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
        assert_eq!(files_in(dir.path()), ["game.json"]);
    }

    #[test]
    fn saving_creates_the_folder_and_listing_summarises_each_save() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path().join("deep").join("saves");
        assert!(list_saves(&saves).unwrap().is_empty());
        let mut g = game(&["d2-c2", "d3-e3"]);
        let created = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        g.set_timestamps(created, created);
        let first = new_save_path(&saves, &g);
        assert_eq!(first, saves.join("game-20231114-221320.json"));
        save_atomic(&first, &g).unwrap();
        let second = new_save_path(&saves, &g);
        assert_ne!(first, second);
        assert!(
            second.to_string_lossy().ends_with("-2.json"),
            "{}",
            second.display()
        );
        fs::write(saves.join("broken.json"), "{").unwrap();
        fs::write(saves.join("notes.txt"), "not a save").unwrap();
        let list = list_saves(&saves).unwrap();
        let mut names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names.len(), 2);
        assert_eq!(names[0], "broken");
        let good = list.iter().find(|e| e.name != "broken").unwrap();
        assert_eq!(
            good.summary.as_deref().unwrap(),
            "human vs human, standard, 2 plies, ongoing"
        );
        assert!(good.modified.is_some());
        let bad = list.iter().find(|e| e.name == "broken").unwrap();
        assert!(matches!(
            bad.summary.as_ref().unwrap_err().kind(),
            LoadErrorKind::Truncated { .. }
        ));
    }
}
