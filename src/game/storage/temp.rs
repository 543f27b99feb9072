//! The temporary files of atomic saves, `.NAME.brandubh-PID-N.tmp` beside the file they will
//! become, and the removal of those left behind by writers that are gone (a save killed
//! mid-write) from the program's own folders.
//!
//! Only a name with the marker `brandubh-`, which no other program makes, is taken for one of
//! ours, and only in the folders the program owns (the save folder and its autosave folder):
//! a folder a game is exported to, or saved to by a name typed, may hold files of other
//! programs named alike (`.vimrc.99999-1.tmp`), and is never cleaned.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use super::paths::AUTOSAVE_DIR;

/// A temporary file this old is left over when its writer cannot be asked about (no `/proc`),
/// or when it bears this process's own number (a save takes milliseconds: it is an earlier
/// process's that had the number).
const STALE_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// A temporary file of a writer that is gone is removed once it is this old. The wait keeps
/// the files of a live writer whose process number means another process here (a writer in
/// another PID namespace sharing the folder).
const DEAD_WRITER_GRACE: Duration = Duration::from_secs(60);

/// Tells the temporary files of one process apart.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The mark of our temporary files, before the writer's process number.
const MARKER: &str = "brandubh-";

/// A fresh temporary file name in `dir` for a save that will be named `name`.
pub(super) fn temp_path(dir: &Path, name: &OsStr) -> PathBuf {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(
        ".{MARKER}{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    dir.join(temp)
}

/// The process number of the writer of a temporary file named like [`temp_path`]'s, or
/// `None` for any other file.
fn writer_pid(file_name: &str) -> Option<u32> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (target, tag) = inner.rsplit_once('.')?;
    let (pid, n) = tag.strip_prefix(MARKER)?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if target.is_empty() || !digits(n) || !digits(pid) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` is running, where the system says (`/proc` on Linux); `None` where
/// it cannot be known.
fn process_alive(pid: u32) -> Option<bool> {
    let proc = Path::new("/proc");
    proc.join("self")
        .exists()
        .then(|| proc.join(pid.to_string()).exists())
}

/// Whether the temporary file of writer `pid`, last written `age` ago, is left over. Where
/// the system says which processes run, a file is stale when its writer is gone (and the file
/// is not brand new); the file of a running writer is never touched. This process's own files
/// are its saves in progress unless a day old. Where the system cannot say, a file a day old
/// is stale.
fn is_stale(pid: u32, age: Duration) -> bool {
    if pid == std::process::id() {
        return age >= STALE_AGE;
    }
    match process_alive(pid) {
        Some(alive) => !alive && age >= DEAD_WRITER_GRACE,
        None => age >= STALE_AGE,
    }
}

/// When this process last cleaned each folder of stale temporary files.
static CLEANED: Mutex<Vec<(PathBuf, Instant)>> = Mutex::new(Vec::new());

/// [`remove_stale`] in `dir`, a folder of the program's own, at a save there, unless this
/// process cleaned it less than [`DEAD_WRITER_GRACE`] ago: no file has become stale since (a
/// dead writer's file must be that old to be judged), and a game autosaved at every move
/// reads the folder once a minute, not at every save.
pub(super) fn remove_stale_in_own_folder(dir: &Path) {
    let now = Instant::now();
    let due =
        CLEANED.lock().is_ok_and(
            |mut cleaned| match cleaned.iter_mut().find(|(d, _)| d == dir) {
                Some((_, last)) if now.duration_since(*last) < DEAD_WRITER_GRACE => false,
                Some((_, last)) => {
                    *last = now;
                    true
                }
                None => {
                    cleaned.push((dir.to_owned(), now));
                    true
                }
            },
        );
    if due {
        remove_stale(dir);
    }
}

/// Removes the temporary files in `dir` left by writers that are gone (see [`is_stale`]).
/// Best effort: a folder or file that cannot be read or removed is left alone.
fn remove_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(writer_pid) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        if meta.is_file() && is_stale(pid, age) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes the temporary files that writers gone (a save killed mid-write) left in the save
/// folder `dir` and its autosave folder, the program's own folders (see this module's notes). Best
/// effort, and at most once a minute per folder.
pub(super) fn remove_stale_temporaries(dir: &Path) {
    remove_stale_in_own_folder(dir);
    remove_stale_in_own_folder(&dir.join(AUTOSAVE_DIR));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    #[test]
    fn temporary_names_carry_the_writer() {
        let path = temp_path(Path::new("/saves"), OsStr::new("game.json"));
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with(".game.json.brandubh-"), "{name}");
        assert_eq!(writer_pid(name), Some(std::process::id()));
        assert_eq!(writer_pid(".a.b.json.brandubh-12-3.tmp"), Some(12));
        for other in [
            "game.json",
            ".hidden",
            "x.brandubh-12-3.tmp",
            "..brandubh-12-3.tmp",
            ".a.json.brandubh-12.tmp",
            ".a.json.brandubh-x-3.tmp",
            ".a.json.brandubh-12-.tmp",
            ".a.json.brandubh--3.tmp",
            // Other programs' names, as the temporary files of older versions were.
            ".a.json.12-3.tmp",
            ".important.db.1234-7.tmp",
            ".vimrc.99999-1.tmp",
            ".a.json.other-12-3.tmp",
        ] {
            assert_eq!(writer_pid(other), None, "{other}");
        }
    }

    fn aged(dir: &Path, name: &str, age: Duration) -> PathBuf {
        let path = dir.join(name);
        let file = File::create(&path).unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
        path
    }

    #[test]
    fn old_temporary_files_go_and_live_writers_keep_theirs() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let minute = Duration::from_secs(60);
        let day = Duration::from_secs(24 * 60 * 60);
        let live_fresh = aged(
            dir.path(),
            &format!(".a.json.brandubh-{me}-1.tmp"),
            minute * 5,
        );
        let live_yesterday = aged(
            dir.path(),
            &format!(".c.json.brandubh-{me}-3.tmp"),
            minute * 60 * 23,
        );
        let earlier_process = aged(dir.path(), &format!(".b.json.brandubh-{me}-2.tmp"), day * 2);
        let unrelated = aged(dir.path(), "notes.tmp", day * 2);
        let hidden = aged(dir.path(), ".keep", day * 2);
        let save = aged(dir.path(), "c.json", day * 2);
        remove_stale(dir.path());
        assert!(live_fresh.exists(), "this process is alive");
        assert!(live_yesterday.exists(), "not yet a day old");
        assert!(
            !earlier_process.exists(),
            "a day old under this process's number: an earlier process's"
        );
        assert!(unrelated.exists() && hidden.exists() && save.exists());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temporary_files_of_gone_writers_go_on_linux() {
        let dir = tempfile::tempdir().unwrap();
        // Above Linux's largest process number (2^22): no such process can run.
        let gone = 2_000_000_000_u32;
        assert_eq!(process_alive(gone), Some(false));
        assert_eq!(process_alive(std::process::id()), Some(true));
        // Process 1 is alive in every PID namespace: its files stay, however old.
        let other_live = aged(
            dir.path(),
            ".a.json.brandubh-1-7.tmp",
            Duration::from_secs(600),
        );
        let other_live_old = aged(
            dir.path(),
            ".b.json.brandubh-1-7.tmp",
            Duration::from_secs(3 * 24 * 60 * 60),
        );
        let gone_old = aged(
            dir.path(),
            &format!(".a.json.brandubh-{gone}-7.tmp"),
            Duration::from_secs(600),
        );
        let gone_new = aged(
            dir.path(),
            &format!(".a.json.brandubh-{gone}-8.tmp"),
            Duration::ZERO,
        );
        // Without the marker it is another program's, whatever its number says.
        let unmarked = aged(
            dir.path(),
            &format!(".a.json.{gone}-7.tmp"),
            Duration::from_secs(600),
        );
        remove_stale(dir.path());
        assert!(unmarked.exists(), "not ours");
        assert!(other_live.exists(), "a live writer's file is never touched");
        assert!(other_live_old.exists(), "not even an old one");
        assert!(!gone_old.exists(), "the writer is gone");
        assert!(gone_new.exists(), "too new to judge");
    }

    #[test]
    fn an_own_folder_is_cleaned_at_a_save_at_most_once_a_minute() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::process::id();
        let old = Duration::from_secs(2 * 24 * 60 * 60);
        let first = aged(dir.path(), &format!(".a.json.brandubh-{me}-901.tmp"), old);
        remove_stale_in_own_folder(dir.path());
        assert!(!first.exists());
        let second = aged(dir.path(), &format!(".a.json.brandubh-{me}-902.tmp"), old);
        remove_stale_in_own_folder(dir.path());
        assert!(second.exists(), "cleaned less than a minute ago");
        // A minute on, the next save cleans again.
        if let Ok(mut cleaned) = CLEANED.lock() {
            for (d, last) in cleaned.iter_mut() {
                if d == dir.path() {
                    *last = last.checked_sub(DEAD_WRITER_GRACE).unwrap_or(*last);
                }
            }
        }
        remove_stale_in_own_folder(dir.path());
        assert!(!second.exists(), "a minute later");
    }
}
