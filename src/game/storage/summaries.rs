//! Summaries of saves read before, so that the list of saves opens without replaying every
//! game: kept in memory, and in an index file in the cache folder so that the first list of a
//! new run opens at once too. Each summary is kept with the version of its file when it was
//! read ([`FileVersion`]: size, time written, and on Unix which file it is on disk); a file no
//! longer at that version is read again. The index is only a cache: one that is missing,
//! unreadable or of another program version is rebuilt from the saves.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic::{SaveError, write_file};
use super::load::load;
use super::read::read_regular_file;
use super::version::FileVersion;
use crate::game::load_error::LoadError;
use crate::game::record::Game;
use crate::game::tags::Tags;
use crate::game::time::Timestamp;

pub use crate::folders::CACHE_DIR_ENV;
/// The index file's name, in the cache folder.
pub const INDEX_FILE: &str = "summaries.json";
/// The `format` field of the index file.
const INDEX_FORMAT: &str = "brandubh-summaries";
/// The largest index read (far more than 100,000 saves take).
const MAX_INDEX_BYTES: u64 = 64 << 20;

/// The index file: `$BRANDUBH_CACHE_DIR/summaries.json` if that is set and not empty, else
/// `brandubh/summaries.json` in the user's cache folder as the `directories` crate finds it
/// (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%`
/// on Windows); `None` if there is no home folder.
pub fn default_index_path() -> Option<PathBuf> {
    crate::folders::CACHE.path().map(|dir| dir.join(INDEX_FILE))
}

/// What a save holds, in short.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct SaveSummary {
    /// Players, rules, plies and result ([`Game::summary`]).
    pub text: String,
    /// Moves played.
    pub plies: usize,
    /// Whether the game is over.
    pub finished: bool,
    /// When the game last changed.
    pub updated: Timestamp,
    /// The game's tags: the players' names, event, date...
    pub tags: Tags,
}

impl SaveSummary {
    /// The summary of `game`.
    pub fn of(game: &Game) -> SaveSummary {
        SaveSummary {
            text: game.summary(),
            plies: game.moves().len(),
            finished: game.outcome().is_some(),
            updated: game.updated(),
            tags: game.tags().clone(),
        }
    }

    /// The summary of the game saved at `path`.
    pub fn read(path: &Path) -> Result<SaveSummary, LoadError> {
        load(path).map(|game| SaveSummary::of(&game))
    }
}

impl SaveSummary {
    /// When the game last changed, to the minute: `2026-11-29 14:13 UTC`.
    pub fn updated_text(&self) -> String {
        let stamp = self.updated.to_string();
        let minute = stamp.get(..16).unwrap_or(&stamp).replace('T', " ");
        format!("{minute} UTC")
    }
}

impl fmt::Display for SaveSummary {
    /// `human vs human, standard, 14 plies, ongoing, 2026-11-29 14:13 UTC`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.text, self.updated_text())
    }
}

/// Summaries of saves read before, each with the version of its file when it was read: a file
/// still at that version is not read again, so a long list opens again at once. (A file that
/// did not load is read again each time: it may have been fixed.)
#[derive(Debug, Default)]
pub struct SummaryCache {
    /// By path (as bytes: hashed much faster than a [`Path`], which hashes its components).
    known: HashMap<OsString, (FileVersion, SaveSummary)>,
    /// The index file it is kept in, if any.
    index: Option<PathBuf>,
    /// Whether it holds what the index file does not.
    unwritten: bool,
}

impl SummaryCache {
    /// The summaries kept in the index file at `index` (none if it cannot be read or is of
    /// another version of the program), kept there by [`SummaryCache::write_index`].
    pub fn kept_in(index: PathBuf) -> SummaryCache {
        let known = read_regular_file(&index, MAX_INDEX_BYTES)
            .ok()
            .and_then(|(bytes, _)| serde_json::from_slice::<IndexFile>(&bytes).ok())
            .filter(|file| file.format == INDEX_FORMAT && file.generator == generator())
            .map(|file| file.entries.into_iter().filter_map(Entry::known).collect())
            .unwrap_or_default();
        SummaryCache {
            known,
            index: Some(index),
            unwritten: false,
        }
    }

    /// Writes the summaries to the index file, if it has one and they changed since it was
    /// read or written (atomically, as a save is written).
    pub fn write_index(&mut self) -> Result<(), SaveError> {
        let Some(index) = self.index.as_deref().filter(|_| self.unwritten) else {
            return Ok(());
        };
        let mut entries: Vec<Entry> = self.known.iter().filter_map(Entry::new).collect();
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let file = IndexFile {
            format: INDEX_FORMAT.to_owned(),
            generator: generator(),
            entries,
        };
        // Compact: a smaller file is read faster.
        write_file(index, |out| Ok(serde_json::to_writer(out, &file)?))?;
        self.unwritten = false;
        Ok(())
    }

    /// The summary of the save at `path`, whose file is at `version` now (`None`: unknown,
    /// read again), and whether it was read from the file: the one read before if the file is
    /// still as it was then.
    pub(super) fn summary(
        &mut self,
        path: &Path,
        version: Option<FileVersion>,
    ) -> (Result<SaveSummary, LoadError>, bool) {
        if let (Some(version), Some((seen, summary))) = (version, self.known.get(path.as_os_str()))
            && version == *seen
        {
            return (Ok(summary.clone()), false);
        }
        let summary = SaveSummary::read(path);
        if let (Some(version), Ok(summary)) = (version, &summary) {
            self.known
                .insert(path.as_os_str().to_owned(), (version, summary.clone()));
            self.unwritten = true;
        }
        (summary, true)
    }

    /// Forgets the summaries of files in `folders` other than `listed` (files gone, or that
    /// no longer load), so that the index does not grow with every save ever listed.
    pub(super) fn keep_only(&mut self, folders: &[&Path], listed: &HashSet<&OsStr>) {
        let before = self.known.len();
        self.known.retain(|path, _| {
            listed.contains(path.as_os_str())
                || !Path::new(path)
                    .parent()
                    .is_some_and(|p| folders.contains(&p))
        });
        self.unwritten |= self.known.len() != before;
    }
}

/// The program version the summaries were made by (a newer one may summarise otherwise).
fn generator() -> String {
    format!("{} {}", env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))
}

/// The index file as written.
#[derive(Serialize, Deserialize)]
struct IndexFile {
    format: String,
    generator: String,
    entries: Vec<Entry>,
}

/// One summary in the index: the file (by a UTF-8 path: other files are read each time), its
/// version, and the summary.
#[derive(Serialize, Deserialize)]
struct Entry {
    path: String,
    version: FileVersion,
    text: String,
    plies: usize,
    finished: bool,
    updated: u64,
    /// Always written: an index from before tags were kept lacks them, fails to read and is
    /// rebuilt.
    tags: Tags,
}

impl Entry {
    fn new((path, (version, summary)): (&OsString, &(FileVersion, SaveSummary))) -> Option<Entry> {
        Some(Entry {
            path: path.to_str()?.to_owned(),
            version: *version,
            text: summary.text.clone(),
            plies: summary.plies,
            finished: summary.finished,
            updated: summary.updated.unix_seconds(),
            tags: summary.tags.clone(),
        })
    }

    fn known(self) -> Option<(OsString, (FileVersion, SaveSummary))> {
        let summary = SaveSummary {
            text: self.text,
            plies: self.plies,
            finished: self.finished,
            updated: Timestamp::from_unix_seconds(self.updated)?,
            tags: self.tags,
        };
        Some((OsString::from(self.path), (self.version, summary)))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::game::storage::save_atomic;
    use crate::game::storage::tests::game;

    #[test]
    fn summaries_kept_in_the_index_are_not_read_again_while_their_files_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("a.json");
        save_atomic(&save, &game(&["d2-c2"])).unwrap();
        let index = dir.path().join("cache").join(INDEX_FILE);
        let version = || Some(FileVersion::of(&fs::metadata(&save).unwrap()));
        let mut first = SummaryCache::kept_in(index.clone());
        let (summary, read) = first.summary(&save, version());
        assert_eq!((summary.unwrap().plies, read), (1, true));
        first.write_index().unwrap();
        // A new run: the summary comes from the index, not from the file.
        let mut second = SummaryCache::kept_in(index.clone());
        let (summary, read) = second.summary(&save, version());
        assert_eq!((summary.unwrap().plies, read), (1, false));
        // Saved again: another version, read again.
        save_atomic(&save, &game(&["d2-c2", "d3-e3"])).unwrap();
        let (summary, read) = second.summary(&save, version());
        assert_eq!((summary.unwrap().plies, read), (2, true));
    }

    #[test]
    fn an_index_that_is_not_one_is_rebuilt_and_the_gone_files_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join(INDEX_FILE);
        fs::write(&index, "{ not an index").unwrap();
        let mut cache = SummaryCache::kept_in(index.clone());
        let [kept, gone] = ["kept.json", "gone.json"].map(|n| dir.path().join(n));
        for path in [&kept, &gone] {
            save_atomic(path, &game(&[])).unwrap();
            let version = FileVersion::of(&fs::metadata(path).unwrap());
            assert!(cache.summary(path, Some(version)).0.is_ok());
        }
        cache.keep_only(&[dir.path()], &HashSet::from([kept.as_os_str()]));
        cache.write_index().unwrap();
        let text = fs::read_to_string(&index).unwrap();
        assert!(
            text.contains("kept.json") && !text.contains("gone.json"),
            "{text}"
        );
        assert_eq!(SummaryCache::kept_in(index).known.len(), 1);
    }
}
