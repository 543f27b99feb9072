//! The saves in a folder, named ones and autosaves, newest first, each with a summary of what
//! it holds; and the game to continue: the most recent unfinished one.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::paths::{AUTOSAVE_DIR, LEGACY_AUTOSAVE};
use super::summaries::{SaveSummary, SummaryCache};
use super::version::FileVersion;
use crate::game::load_error::LoadError;
use crate::quote::{MESSAGE_CHARS, escaped_os};

/// Who wrote a save.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum SaveKind {
    /// The player, under a name.
    Named,
    /// The autosave (one file per game, or `autosave.json` of older versions).
    Autosave,
}

/// A saved game found in a folder.
#[derive(Debug)]
pub struct SaveEntry {
    /// The file.
    pub path: PathBuf,
    /// The file name without `.json` (other programs' records keep their whole name), as
    /// shown: control and invisible characters, and bytes that are not UTF-8, escaped
    /// ([`escaped_os`]), so that every save is listed and none looks like another.
    pub name: String,
    /// Who wrote it.
    pub kind: SaveKind,
    /// When the file was last written, if the system says (to the system's precision: saves
    /// of the same second are told apart).
    pub modified: Option<SystemTime>,
    /// What the game holds, or why it cannot be loaded.
    pub summary: Result<SaveSummary, LoadError>,
}

impl SaveEntry {
    /// Whether this is a game to continue: it loads, is not over and has moves.
    pub fn is_unfinished(&self) -> bool {
        self.summary
            .as_ref()
            .is_ok_and(|s| !s.finished && s.plies > 0)
    }
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

/// The saves in `dir` and in its autosave folder, newest first, each loaded for its summary:
/// every `.json` file (one that does not load is listed with the reason), and every other
/// file that holds a game by its content, whatever its name (an OpenTafl record, a move
/// record), even one that is not UTF-8. Hidden files are left out. A folder that does not
/// exist yet holds none.
pub fn list_saves(dir: &Path) -> Result<Vec<SaveEntry>, ListError> {
    list_saves_with(dir, &mut SummaryCache::default())
}

/// [`list_saves`], with the summaries of `cache` for the files unchanged since it read them
/// (and the others read into it; those of files gone from the folders are forgotten).
pub fn list_saves_with(dir: &Path, cache: &mut SummaryCache) -> Result<Vec<SaveEntry>, ListError> {
    list_saves_watched(dir, cache, &mut |_| {})
}

/// How far a listing is: of the `total` files in the folders, `done` are summarised.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Progress {
    /// Files summarised.
    pub done: usize,
    /// Files in the folders.
    pub total: usize,
}

/// Files read from disk (not found in the cache) between two reports of a listing's progress.
pub const READS_PER_REPORT: usize = 100;

/// [`list_saves_with`], telling `progress` how far it is after every [`READS_PER_REPORT`]
/// files it had to read (a listing whose summaries are all in the cache says nothing).
pub fn list_saves_watched(
    dir: &Path,
    cache: &mut SummaryCache,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<SaveEntry>, ListError> {
    let autosaves = dir.join(AUTOSAVE_DIR);
    let files = save_files(dir, &autosaves)?;
    let total = files.len();
    let mut saves = Vec::with_capacity(total);
    let mut reads = 0;
    for (done, (found, autosaved)) in files.into_iter().enumerate() {
        let (entry, read) = summarised(found, cache, kind_in(autosaved));
        saves.extend(entry);
        if read {
            reads += 1;
            if reads % READS_PER_REPORT == 0 {
                progress(Progress {
                    done: done + 1,
                    total,
                });
            }
        }
    }
    let listed: HashSet<&OsStr> = saves.iter().map(|e| e.path.as_os_str()).collect();
    cache.keep_only(&[dir, &autosaves], &listed);
    sort_newest_first(&mut saves);
    Ok(saves)
}

/// The kind of a save of the name given, in the autosave folder (`autosaved`) or not: an
/// older version's `autosave.json` is an autosave wherever it is.
fn kind_in(autosaved: bool) -> impl Fn(&str) -> SaveKind {
    move |name| {
        if autosaved || name == LEGACY_AUTOSAVE.trim_end_matches(".json") {
            SaveKind::Autosave
        } else {
            SaveKind::Named
        }
    }
}

/// Newest first; the same moment by name.
pub(super) fn sort_newest_first(saves: &mut [SaveEntry]) {
    saves.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.name.cmp(&b.name))
    });
}

/// Adds the saves of `dir` (not of its subfolders) to `saves`, of the kind `kind` gives their
/// name, their summaries from `cache` if their files are unchanged.
pub(super) fn list_folder(
    dir: &Path,
    saves: &mut Vec<SaveEntry>,
    cache: &mut SummaryCache,
    kind: impl Fn(&str) -> SaveKind,
) -> Result<(), ListError> {
    for found in folder_files(dir)? {
        saves.extend(summarised(found, cache, &kind).0);
    }
    Ok(())
}

/// A file in a save folder, and what the system says of it (through a link), if it could.
type Found = (PathBuf, Option<fs::Metadata>);

/// The files of the save folder `dir` and of its autosave folder `autosaves`, each with
/// whether it is in the autosave folder.
fn save_files(dir: &Path, autosaves: &Path) -> Result<Vec<(Found, bool)>, ListError> {
    let named = folder_files(dir)?.into_iter().map(|found| (found, false));
    let in_autosaves = folder_files(autosaves)?
        .into_iter()
        .map(|found| (found, true));
    Ok(named.chain(in_autosaves).collect())
}

/// The files in `dir` that may be saves (not hidden, not folders), each with its metadata
/// (taken here, where the folder is open: a link's is that of the file it names). A folder
/// that does not exist yet holds none.
fn folder_files(dir: &Path) -> Result<Vec<Found>, ListError> {
    let fail = |error| ListError {
        dir: dir.to_owned(),
        error,
    };
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail(e)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(fail)?;
        if entry.file_name().as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let path = entry.path();
        let meta = match entry.file_type() {
            Ok(t) if t.is_dir() => continue,
            Ok(t) if !t.is_symlink() => entry.metadata().ok(),
            _ => fs::metadata(&path).ok(),
        };
        files.push((path, meta));
    }
    Ok(files)
}

/// The save at `path`, of the kind `kind` gives its name, with its summary from `cache` if
/// its file is unchanged (`None`: not a `.json` file and not a game either, a file of
/// something else beside the saves); and whether its file was read.
fn summarised(
    (path, meta): Found,
    cache: &mut SummaryCache,
    kind: impl Fn(&str) -> SaveKind,
) -> (Option<SaveEntry>, bool) {
    let Some(file_name) = path.file_name() else {
        return (None, false);
    };
    let json_name = path
        .file_stem()
        .filter(|_| path.extension().is_some_and(|e| e == "json"));
    // The version before the content: a file written in between is read again next time.
    let (summary, read) = cache.summary(&path, meta.as_ref().map(FileVersion::of));
    if json_name.is_none() && summary.is_err() {
        return (None, read);
    }
    let name = escaped_os(json_name.unwrap_or(file_name), MESSAGE_CHARS);
    let modified = meta.and_then(|m| m.modified().ok());
    let entry = SaveEntry {
        summary,
        kind: kind(&name),
        path,
        name,
        modified,
    };
    (Some(entry), read)
}

/// The game to continue in `dir`: the most recently written unfinished save with moves, named
/// or autosaved, other than the files in `except` (the game in play).
pub fn latest_unfinished(dir: &Path, except: &[&Path]) -> Result<Option<SaveEntry>, ListError> {
    latest_unfinished_with(dir, except, &mut SummaryCache::default())
}

/// [`latest_unfinished`], with the summaries of `cache` (see [`list_saves_with`]).
pub fn latest_unfinished_with(
    dir: &Path,
    except: &[&Path],
    cache: &mut SummaryCache,
) -> Result<Option<SaveEntry>, ListError> {
    let mut files = save_files(dir, &dir.join(AUTOSAVE_DIR))?;
    // Newest first, the same moment by path: only the files newer than the game to continue
    // are read (most often none: it is the last one written).
    let written = |((_, meta), _): &(Found, bool)| meta.as_ref().and_then(|m| m.modified().ok());
    files.sort_by(|a, b| written(b).cmp(&written(a)).then_with(|| a.0.0.cmp(&b.0.0)));
    Ok(files
        .into_iter()
        .filter(|((path, _), _)| !except.contains(&path.as_path()))
        .filter_map(|(found, autosaved)| summarised(found, cache, kind_in(autosaved)).0)
        .find(SaveEntry::is_unfinished))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::Game;
    use crate::game::storage::tests::game;
    use crate::game::storage::{save_atomic, save_new};
    use crate::game::time::Timestamp;
    use crate::rules::Side;
    use std::fs::File;
    use std::time::Duration;

    /// Marks the file at `path` as last written `age` seconds ago.
    fn age(path: &Path, age: u64) {
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(age))
            .unwrap();
    }

    /// Saves `game` at `path`, written `age` ago.
    fn saved(path: &Path, game: &Game, age: u64) {
        save_atomic(path, game).unwrap();
        self::age(path, age);
    }

    #[test]
    fn a_summary_is_read_again_only_when_its_file_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kept.json");
        save_atomic(&path, &game(&["d2-c2"])).unwrap();
        let mut cache = SummaryCache::default();
        let plies = |cache: &mut SummaryCache| {
            let listed = list_saves_with(dir.path(), cache).unwrap();
            listed[0].summary.as_ref().map(|s| s.plies).ok()
        };
        assert_eq!(plies(&mut cache), Some(1));
        // Other bytes of the same length in the same file, written at the same time: taken
        // for the file read before, it is not read again.
        let meta = fs::metadata(&path).unwrap();
        let len = usize::try_from(meta.len()).unwrap();
        fs::write(&path, vec![b' '; len]).unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(meta.modified().unwrap())
            .unwrap();
        assert_eq!(plies(&mut cache), Some(1), "the summary read before");
        assert_eq!(
            plies(&mut SummaryCache::default()),
            None,
            "read afresh, it does not load"
        );
        // Saved again: another file, read again.
        save_atomic(&path, &game(&["d2-c2", "d3-e3"])).unwrap();
        assert_eq!(plies(&mut cache), Some(2));
    }

    #[test]
    fn listing_summarises_named_saves_and_autosaves_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path().join("deep").join("saves");
        assert!(list_saves(&saves).unwrap().is_empty(), "no folder yet");
        let mut g = game(&["d2-c2", "d3-e3"]);
        let created = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        g.set_timestamps(created, created);
        saved(&saves.join("opening.json"), &g, 30);
        saved(
            &saves.join(AUTOSAVE_DIR).join("1-2.json"),
            &game(&["d2-c2"]),
            20,
        );
        saved(&saves.join(LEGACY_AUTOSAVE), &game(&[]), 10);
        fs::write(saves.join("broken.json"), "{").unwrap();
        fs::write(saves.join("notes.txt"), "not a save").unwrap();
        // Records of other programs, found by their content whatever their names.
        fs::write(saves.join("moves.txt"), "1. d2-c2 d3-e3\n2. c2-c1").unwrap();
        let otg = crate::game::import::to_otg(&game(&["d2-c2"])).unwrap();
        fs::write(saves.join("opentafl.record"), otg).unwrap();
        for (file, seconds) in [("moves.txt", 40), ("opentafl.record", 50)] {
            age(&saves.join(file), seconds);
        }
        fs::write(saves.join(".hidden.json"), "{").unwrap();
        fs::create_dir(saves.join("folder.json")).unwrap();
        let list = list_saves(&saves).unwrap();
        let names: Vec<(&str, SaveKind)> = list.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(
            names,
            [
                ("broken", SaveKind::Named),
                ("autosave", SaveKind::Autosave),
                ("1-2", SaveKind::Autosave),
                ("opening", SaveKind::Named),
                ("moves.txt", SaveKind::Named),
                ("opentafl.record", SaveKind::Named),
            ]
        );
        assert_eq!(list[4].summary.as_ref().unwrap().plies, 3);
        assert_eq!(list[5].summary.as_ref().unwrap().plies, 1);
        let opening = list[3].summary.as_ref().unwrap();
        assert_eq!(
            opening.to_string(),
            "human vs human, standard, 2 plies, ongoing, 2023-11-14 22:13 UTC"
        );
        assert_eq!((opening.plies, opening.finished), (2, false));
        assert!(list[3].modified.is_some());
        assert!(list[0].summary.is_err());
    }

    /// Writes `game` at `path`, written `age` ago, whatever the file's name.
    fn written(path: &Path, game: &Game, age: u64) {
        fs::write(path, game.to_json()).unwrap();
        self::age(path, age);
    }

    #[cfg(unix)]
    #[test]
    fn every_save_is_listed_under_a_name_that_shows_what_it_is() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path();
        let latin1 = saves.join(OsStr::from_bytes(b"caf\xe9.json"));
        written(&latin1, &game(&["d2-c2"]), 30);
        written(&saves.join("evil\u{202e}nosj.txt.json"), &game(&[]), 20);
        written(&saves.join("bell\u{7}\u{200b}.json"), &game(&[]), 10);
        written(
            &saves.join(OsStr::from_bytes(b".hidden\xff.json")),
            &game(&[]),
            5,
        );
        let list = list_saves(saves).unwrap();
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["bell\\u{7}\\u{200b}", "evil\\u{202e}nosj.txt", "caf\\xe9"]
        );
        // The file is the one the name stands for, and it loads.
        assert_eq!(list[2].path, latin1);
        assert_eq!(list[2].summary.as_ref().unwrap().plies, 1);
    }

    #[test]
    fn a_file_where_the_save_folder_should_be_cannot_be_listed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("saves");
        fs::write(&file, "not a folder").unwrap();
        let err = list_saves(&file).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("cannot list saved games in {}: ", file.display())),
            "{err}"
        );
        let source = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<io::Error>());
        assert_eq!(
            source.map(io::Error::kind),
            Some(io::ErrorKind::NotADirectory)
        );
        assert!(latest_unfinished(&file, &[]).is_err());
    }

    #[test]
    fn the_game_to_continue_is_found_without_reading_the_older_saves() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path();
        let older: Vec<PathBuf> = (0..5)
            .map(|n| saves.join(format!("older-{n}.json")))
            .collect();
        for (n, path) in older.iter().enumerate() {
            saved(path, &game(&["d2-c2"]), 100 + n as u64);
        }
        saved(&saves.join("latest.json"), &game(&["d2-e2"]), 10);
        let mut cache = SummaryCache::default();
        let found = latest_unfinished_with(saves, &[], &mut cache).unwrap();
        assert_eq!(found.unwrap().name, "latest");
        // None of the older saves was read: the cache has none of their summaries.
        for path in &older {
            let version = FileVersion::of(&fs::metadata(path).unwrap());
            assert!(
                cache.summary(path, Some(version)).1,
                "{} was read",
                path.display()
            );
        }
    }

    #[test]
    fn the_game_to_continue_is_the_latest_unfinished_one_with_moves() {
        let dir = tempfile::tempdir().unwrap();
        let saves = dir.path();
        let auto = saves.join(AUTOSAVE_DIR);
        assert!(latest_unfinished(saves, &[]).unwrap().is_none());
        let mut finished = game(&["d2-c2"]);
        finished.resign(Side::Defenders).unwrap();
        saved(
            &auto.join("old.json"),
            &game(&["d2-c2", "d3-e3", "c2-c3"]),
            300,
        );
        saved(&saves.join("named.json"), &game(&["d2-c2", "d3-e3"]), 200);
        saved(&auto.join("newer.json"), &game(&["d2-e2"]), 100);
        saved(&auto.join("finished.json"), &finished, 50);
        saved(&auto.join("empty.json"), &game(&[]), 40);
        fs::write(saves.join("broken.json"), "{").unwrap();
        let first = latest_unfinished(saves, &[]).unwrap().unwrap();
        assert_eq!(
            (first.name.as_str(), first.kind),
            ("newer", SaveKind::Autosave)
        );
        // The game in play is not offered.
        let next = latest_unfinished(saves, &[&first.path]).unwrap().unwrap();
        assert_eq!((next.name.as_str(), next.kind), ("named", SaveKind::Named));
        let last = latest_unfinished(saves, &[&first.path, &next.path])
            .unwrap()
            .unwrap();
        assert_eq!(last.name, "old");
        // A named save of the same game written later wins.
        save_new(&saves.join("later.json"), &game(&["d2-e2", "d3-e3"])).unwrap();
        assert_eq!(
            latest_unfinished(saves, &[]).unwrap().unwrap().name,
            "later"
        );
    }
}
