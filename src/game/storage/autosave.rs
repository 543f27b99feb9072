//! One autosave file per game, in the autosave folder of the save folder, under a name no other
//! game or program instance can take. Leaving a game for another never overwrites its
//! autosave, so an unfinished game stays recoverable; old ones are pruned: finished ones after
//! a while, unfinished ones beyond the newest [`KEEP_UNFINISHED`].

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::atomic::{SaveError, save_atomic, save_first_free};
use super::listing::{self, SaveEntry, SaveKind};
use super::new_path::compact_stamp;
use super::paths::AUTOSAVE_DIR;
use super::summaries::SummaryCache;
use super::temp::remove_stale_temporaries;
use crate::game::record::Game;
use crate::game::time::Timestamp;

/// Finished autosaves kept: the newest ones; older ones go when a new game is autosaved.
const KEEP_FINISHED: usize = 20;
/// Unfinished autosaves kept: the newest ones; older ones go when a new game is autosaved.
pub const KEEP_UNFINISHED: usize = 20;
/// Finished autosaves older than this go too.
const KEEP_FINISHED_FOR: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The autosave of one game: its own file, named when the game is first autosaved
/// (`autosave/20261129-141339-4321.json`: the time and the process number, with a counter if
/// that is taken).
///
/// A game continued from an autosave gets a file of its own at its first autosave, and the
/// file it came from is removed then, if it is still as it was when the game was read: two
/// program instances continuing the same game each keep their own line of play, and a file
/// the other instance has written since (moves this game does not have) is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Autosave {
    file: Option<PathBuf>,
    continued_from: Option<Continued>,
}

/// The autosave a game was continued from, and when it had last been written then.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Continued {
    path: PathBuf,
    modified: Option<SystemTime>,
}

impl Continued {
    /// Removes the file if it was not written since it was read (best effort: at worst the
    /// game is listed twice). Without a modification time, it is kept.
    fn remove_if_unchanged(self) {
        let now = fs::metadata(&self.path).and_then(|m| m.modified()).ok();
        if self.modified.is_some() && now == self.modified {
            let _ = fs::remove_file(self.path);
        }
    }
}

impl Autosave {
    /// The autosave of a new game: no file until the first write.
    pub fn new() -> Autosave {
        Autosave::default()
    }

    /// The autosave of a game continued from the autosave at `path`, last written at
    /// `modified` (as the file's time was before the game was read from it). It is removed
    /// once the game has its own, unless it has been written since.
    pub fn continuing(path: PathBuf, modified: Option<SystemTime>) -> Autosave {
        Autosave {
            file: None,
            continued_from: Some(Continued { path, modified }),
        }
    }

    /// The game's autosave file, once written.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The autosave this game was continued from, until the game has its own.
    pub fn continued_from(&self) -> Option<&Path> {
        self.continued_from.as_ref().map(|c| c.path.as_path())
    }

    /// Writes `game` to its autosave file in the autosave folder of `save_dir`, taking a new
    /// name the first time (and pruning old finished autosaves then). The temporary files of
    /// saves killed mid-write go from the save folder and the autosave folder.
    pub fn write(&mut self, save_dir: &Path, game: &Game) -> Result<(), SaveError> {
        remove_stale_temporaries(save_dir);
        if let Some(file) = &self.file {
            save_atomic(file, game)?;
        } else {
            let dir = save_dir.join(AUTOSAVE_DIR);
            prune(&dir, Timestamp::now());
            let base = format!("{}-{}", compact_stamp(Timestamp::now()), std::process::id());
            let name = |n: u32| match n {
                1 => format!("{base}.json"),
                n => format!("{base}-{n}.json"),
            };
            self.file = Some(save_first_free(&dir, name, 1, game)?);
        }
        if let Some(old) = self.continued_from.take() {
            old.remove_if_unchanged();
        }
        Ok(())
    }

    /// The game is saved to a file of its own: its autosave (and the one it was continued
    /// from) are not needed any more and are removed. The next write takes a new file.
    pub fn discard(&mut self) {
        if let Some(file) = self.file.take() {
            let _ = fs::remove_file(file);
        }
        if let Some(old) = self.continued_from.take() {
            old.remove_if_unchanged();
        }
    }
}

/// Removes the autosaves in `dir` that are kept no longer: the finished ones beyond the newest
/// [`KEEP_FINISHED`] or older than [`KEEP_FINISHED_FOR`] at `now`, and the unfinished ones
/// beyond the newest [`KEEP_UNFINISHED`]. Only files named as this program names autosaves
/// that load as games are removed; files that do not load, or of other names, never are.
/// Best effort.
fn prune(dir: &Path, now: Timestamp) {
    let mut saves = Vec::new();
    let mut cache = SummaryCache::default();
    if listing::list_folder(dir, &mut saves, &mut cache, |_| SaveKind::Autosave).is_err() {
        return;
    }
    saves.retain(|e| {
        e.path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_autosave_name)
    });
    listing::sort_newest_first(&mut saves);
    let too_old = |e: &SaveEntry| {
        e.modified
            .and_then(|m| now.system_time().duration_since(m).ok())
            .is_some_and(|age| age > KEEP_FINISHED_FOR)
    };
    let finished = |e: &&SaveEntry| e.summary.as_ref().is_ok_and(|s| s.finished);
    let unfinished = |e: &&SaveEntry| e.summary.as_ref().is_ok_and(|s| !s.finished);
    let finished_gone = saves
        .iter()
        .filter(finished)
        .enumerate()
        .filter(|&(i, e)| i >= KEEP_FINISHED || too_old(e))
        .map(|(_, e)| e);
    let unfinished_gone = saves.iter().filter(unfinished).skip(KEEP_UNFINISHED);
    for entry in finished_gone.chain(unfinished_gone) {
        let _ = fs::remove_file(&entry.path);
    }
}

/// Whether `name` is one [`Autosave::write`] gives: `20261129-141339-4321.json`, or with a
/// counter, `20261129-141339-4321-2.json`.
fn is_autosave_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".json") else {
        return false;
    };
    let parts: Vec<&str> = stem.split('-').collect();
    let digits = |part: &str, len: Option<usize>| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && len.is_none_or(|len| part.len() == len)
    };
    matches!(parts.len(), 3 | 4)
        && digits(parts[0], Some(8))
        && digits(parts[1], Some(6))
        && parts[2..].iter().all(|p| digits(p, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::storage::paths::LEGACY_AUTOSAVE;
    use crate::game::storage::tests::game;
    use crate::rules::Side;
    use std::fs::File;
    use std::time::SystemTime;

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
    }

    #[test]
    fn every_game_gets_its_own_autosave() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = Autosave::new();
        let mut second = Autosave::new();
        first.write(dir.path(), &game(&["d2-c2"])).unwrap();
        second.write(dir.path(), &game(&["d2-e2"])).unwrap();
        let (a, b) = (
            first.file().unwrap().to_owned(),
            second.file().unwrap().to_owned(),
        );
        assert_ne!(a, b, "the same second and process, yet two files");
        assert!(a.starts_with(dir.path().join(AUTOSAVE_DIR)));
        let name = a.file_name().unwrap().to_str().unwrap();
        assert!(
            name.ends_with(&format!("-{}.json", std::process::id())),
            "{name}"
        );
        first.write(dir.path(), &game(&["d2-c2", "d3-e3"])).unwrap();
        assert_eq!(
            first.file(),
            Some(a.as_path()),
            "later writes keep the file"
        );
        assert_eq!(super::super::load(&a).unwrap().moves().len(), 2);
        assert_eq!(super::super::load(&b).unwrap().moves().len(), 1);
        assert_eq!(files(&dir.path().join(AUTOSAVE_DIR)).len(), 2);
    }

    #[test]
    fn a_continued_game_moves_to_a_file_of_its_own_at_its_first_write() {
        let dir = tempfile::tempdir().unwrap();
        let legacy = dir.path().join(LEGACY_AUTOSAVE);
        save_atomic(&legacy, &game(&["d2-c2"])).unwrap();
        let mut auto = Autosave::continuing(legacy.clone(), modified(&legacy));
        assert_eq!(auto.continued_from(), Some(legacy.as_path()));
        assert!(legacy.exists(), "nothing changes before the game does");
        auto.write(dir.path(), &game(&["d2-c2", "d3-e3"])).unwrap();
        assert!(!legacy.exists());
        assert_eq!(auto.continued_from(), None);
        let own = auto.file().unwrap().to_owned();
        assert_eq!(super::super::load(&own).unwrap().moves().len(), 2);
        // Saved to a file of its own: the autosave goes.
        auto.discard();
        assert!(!own.exists() && auto.file().is_none());
        auto.write(dir.path(), &game(&["d2-c2", "d3-e3", "c2-c3"]))
            .unwrap();
        let again = auto.file().unwrap();
        assert_eq!(super::super::load(again).unwrap().moves().len(), 3);
    }

    #[test]
    fn an_autosave_cleans_the_save_folders_of_temporary_files_of_gone_writers_only() {
        let dir = tempfile::tempdir().unwrap();
        let auto = dir.path().join(AUTOSAVE_DIR);
        fs::create_dir_all(&auto).unwrap();
        let old = SystemTime::now() - Duration::from_secs(2 * 86_400);
        let me = std::process::id();
        let file = |folder: &Path, name: String| {
            let path = folder.join(name);
            File::create(&path).unwrap().set_modified(old).unwrap();
            path
        };
        // Ours, of an earlier process with this number (a day old): stale.
        let ours = [
            file(dir.path(), format!(".a.json.brandubh-{me}-1.tmp")),
            file(&auto, format!(".b.json.brandubh-{me}-2.tmp")),
        ];
        // Not ours: no mark.
        let theirs = [
            file(dir.path(), format!(".a.json.{me}-1.tmp")),
            file(&auto, format!(".b.json.{me}-2.tmp")),
        ];
        Autosave::new()
            .write(dir.path(), &game(&["d2-c2"]))
            .unwrap();
        assert!(ours.iter().all(|p| !p.exists()), "{ours:?}");
        assert!(theirs.iter().all(|p| p.exists()), "{theirs:?}");
    }

    fn modified(path: &Path) -> Option<SystemTime> {
        fs::metadata(path).and_then(|m| m.modified()).ok()
    }

    #[test]
    fn a_continued_autosave_written_since_by_another_instance_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        // Instance A plays a game; instance B continues it from A's autosave.
        let mut a = Autosave::new();
        a.write(dir.path(), &game(&["d2-c2"])).unwrap();
        let a_file = a.file().unwrap().to_owned();
        let mut b = Autosave::continuing(a_file.clone(), modified(&a_file));
        // A plays on (dated a second later: a coarse clock could give the same time), then B.
        let seen = modified(&a_file).unwrap();
        a.write(dir.path(), &game(&["d2-c2", "d3-e3"])).unwrap();
        File::options()
            .write(true)
            .open(&a_file)
            .unwrap()
            .set_modified(seen + Duration::from_secs(1))
            .unwrap();
        b.write(dir.path(), &game(&["d2-c2", "d3-c3"])).unwrap();
        assert_eq!(
            super::super::load(&a_file).unwrap().moves().len(),
            2,
            "A's line is kept"
        );
        assert_ne!(b.file(), Some(a_file.as_path()));
        // Saved to a file of its own, B leaves A's autosave alone too.
        b.discard();
        assert!(a_file.exists());
        // Unchanged since it was read, the file continued from goes.
        let mut c = Autosave::continuing(a_file.clone(), modified(&a_file));
        c.discard();
        assert!(!a_file.exists());
    }

    fn aged(path: &Path, game: &Game, days: u64) {
        save_atomic(path, game).unwrap();
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(days * 86_400 + 60))
            .unwrap();
    }

    #[test]
    fn only_old_or_surplus_finished_autosaves_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let auto = dir.path().join(AUTOSAVE_DIR);
        let mut finished = game(&["d2-c2"]);
        finished.resign(Side::Attackers).unwrap();
        // Finished games from 1 to KEEP_FINISHED + 2 days old, and old unfinished ones.
        for day in 1..=KEEP_FINISHED as u64 + 2 {
            aged(
                &auto.join(format!("20260101-0000{day:02}-1.json")),
                &finished,
                day,
            );
        }
        let [unfinished_old, empty_old] = ["20250101-000000-7.json", "20250101-000000-8.json"];
        aged(&auto.join(unfinished_old), &game(&["d2-c2"]), 400);
        aged(&auto.join(empty_old), &game(&[]), 400);
        fs::write(auto.join("broken.json"), "{").unwrap();
        let f = |day: u64| auto.join(format!("20260101-0000{day:02}-1.json"));
        let old = Timestamp::now();
        prune(&auto, old);
        for day in 1..=KEEP_FINISHED as u64 {
            assert!(f(day).exists(), "day {day} is among the newest");
        }
        assert!(!f(KEEP_FINISHED as u64 + 1).exists() && !f(KEEP_FINISHED as u64 + 2).exists());
        assert!(auto.join(unfinished_old).exists());
        assert!(auto.join(empty_old).exists());
        assert!(auto.join("broken.json").exists());
        // A month later every finished one is too old; the others stay.
        let later = Timestamp::from_unix_seconds(old.unix_seconds() + 31 * 86_400).unwrap();
        prune(&auto, later);
        assert_eq!(
            files(&auto),
            [unfinished_old, empty_old, "broken.json"].map(|n| auto.join(n))
        );
    }

    #[test]
    fn a_finished_autosave_goes_once_older_than_the_limit_not_at_it() {
        let dir = tempfile::tempdir().unwrap();
        let auto = dir.path().join(AUTOSAVE_DIR);
        let path = auto.join("20231114-221320-1.json");
        let mut finished = game(&["d2-c2"]);
        finished.resign(Side::Attackers).unwrap();
        save_atomic(&path, &finished).unwrap();
        let written = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(written.system_time())
            .unwrap();
        let after =
            |seconds| Timestamp::from_unix_seconds(written.unix_seconds() + seconds).unwrap();
        prune(&auto, after(KEEP_FINISHED_FOR.as_secs()));
        assert!(path.exists(), "exactly 30 days old");
        prune(&auto, after(KEEP_FINISHED_FOR.as_secs() + 1));
        assert!(!path.exists(), "older than 30 days");
    }

    #[test]
    fn only_the_unfinished_autosaves_beyond_the_newest_are_pruned_and_only_ours() {
        let dir = tempfile::tempdir().unwrap();
        let auto = dir.path().join(AUTOSAVE_DIR);
        let ours = |day: usize| auto.join(format!("20260101-0000{day:02}-42-2.json"));
        // Unfinished games from 1 to KEEP_UNFINISHED + 1 days old: the oldest is one too many.
        for day in 1..=KEEP_UNFINISHED + 1 {
            aged(&ours(day), &game(&["d2-c2"]), day as u64);
        }
        let mut finished = game(&["d2-c2"]);
        finished.resign(Side::Attackers).unwrap();
        aged(&auto.join("20260101-000100-42.json"), &finished, 0);
        // Not ours, older still: another name, another extension, a file that does not load.
        let theirs = [
            "mine.json",
            "20260101-000000-42.txt",
            "20260101-0000-42.json",
        ];
        for name in theirs {
            aged(&auto.join(name), &game(&["d2-c2"]), 100);
        }
        fs::write(auto.join("20260101-000000-9.json"), "{").unwrap();
        let before = files(&auto);
        prune(&auto, Timestamp::now());
        let gone: Vec<PathBuf> = before
            .into_iter()
            .filter(|p| !files(&auto).contains(p))
            .collect();
        assert_eq!(gone, [ours(KEEP_UNFINISHED + 1)]);
    }

    #[test]
    fn autosave_names_are_told_from_others() {
        for ours in ["20261129-141339-4321.json", "20261129-141339-4321-2.json"] {
            assert!(is_autosave_name(ours), "{ours}");
        }
        for theirs in [
            "autosave.json",
            "20261129-141339.json",
            "20261129-141339-4321.json.tmp",
            "2026112-141339-4321.json",
            "20261129-141339-x.json",
            "20261129-141339-1-2-3.json",
        ] {
            assert!(!is_autosave_name(theirs), "{theirs}");
        }
    }
}
