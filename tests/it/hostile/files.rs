//! Hostile files and arguments given to the puzzle tools and `match`: FIFOs, devices and
//! huge sparse files where a set or a record is read, control bytes in records and paths,
//! sets with duplicate or empty ids, and the cases where a command would lose work (a set
//! replaced by an empty one, a record written over). Each refusal is one line and exit code 2,
//! and each command ends by itself (a run that does not is killed and fails the test).

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::Command;

use brandubh::puzzle::{PuzzleSet, shipped};
use brandubh::rules::Preset;

use super::verdict::{Outcome, Run};
use super::{checked, repo};

/// Runs the binary with `args` in `dir`, judged as every hostile case is (ends by itself, no
/// panic, exit 0 or 2, one line for a refusal, no raw control character).
fn run(dir: &Path, args: &[&dyn AsRef<OsStr>]) -> Outcome {
    let label = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().escape_debug().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    checked(dir, &Run::new(label, args)).unwrap_or_else(|why| panic!("{why}"))
}

/// Runs a command that must be refused; returns its one line.
fn refused(dir: &Path, args: &[&dyn AsRef<OsStr>]) -> String {
    let outcome = run(dir, args);
    let err = String::from_utf8_lossy(&outcome.stderr)
        .trim_end()
        .to_owned();
    assert_eq!(outcome.code, Some(2), "{err}");
    err
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
}

/// A sparse file of `len` bytes: as large as the system says, nothing on the disk.
fn sparse(path: &Path, len: u64) {
    fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// The first `count` puzzles shipped for the standard rules, renamed by `ids`, as a set file
/// at `path`.
fn set_with_ids(path: &Path, ids: &[&str]) {
    let mut puzzles = shipped(Preset::Standard).unwrap().puzzles;
    puzzles.truncate(ids.len());
    for (puzzle, id) in puzzles.iter_mut().zip(ids) {
        (*id).clone_into(&mut puzzle.id);
    }
    fs::write(path, PuzzleSet::new(Preset::Standard, puzzles).to_json()).unwrap();
}

#[cfg(unix)]
#[test]
fn the_puzzle_tools_refuse_fifos_and_huge_files_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(&d.join("set.json"));
    mkfifo(&d.join("record.otg"));
    // Larger than any set or record, and read whole before.
    sparse(&d.join("huge.json"), 100_000_000);
    sparse(&d.join("huge.otg"), 100_000_000);
    for set in ["set.json", "huge.json", "/dev/zero"] {
        let line = refused(d, &[&"puzzles", &"verify", &set]);
        assert!(line.contains(set), "{line}");
        assert!(
            line.contains("not a file") || line.contains("larger than"),
            "{line}"
        );
        let line = refused(d, &[&"puzzles", &"export", &set, &"out"]);
        assert!(
            line.contains("not a file") || line.contains("larger than"),
            "{line}"
        );
    }
    let outcome = run(
        d,
        &[
            &"puzzles",
            &"import",
            &"record.otg",
            &"huge.otg",
            &"/dev/zero",
            &"--out",
            &"new.json",
        ],
    );
    let out = String::from_utf8_lossy(&outcome.stdout);
    assert!(out.contains("record.otg: skipped: not a file"), "{out}");
    assert!(
        out.contains("huge.otg: skipped: the file has 100000000 bytes, larger than"),
        "{out}"
    );
    assert!(out.contains("/dev/zero: skipped: not a file"), "{out}");
    assert!(
        !d.join("new.json").exists(),
        "no puzzle read: nothing written"
    );
}

#[test]
fn puzzles_import_prints_control_bytes_of_records_and_paths_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = fs::read_to_string(repo("tests/data/otg/puzzle.otg")).unwrap();
    let hostile = record.replace("[puzzle-start:1a]", "[puzzle-start:\u{1b}]0;PWNED\u{7}]");
    fs::write(d.join("start.otg"), hostile).unwrap();
    fs::write(d.join("a\u{1b}[2Jb.otg"), "not a record").unwrap();
    // `run` fails on any raw control character written.
    let outcome = run(
        d,
        &[
            &"puzzles",
            &"import",
            &"start.otg",
            &"a\u{1b}[2Jb.otg",
            &"--out",
            &"set\u{1b}]0;x\u{7}.json",
        ],
    );
    let out = String::from_utf8_lossy(&outcome.stdout);
    assert!(out.contains("\\u{1b}]0;PWNED\\u{7}"), "{out}");
    assert!(out.contains("a\\u{1b}[2Jb.otg: skipped"), "{out}");
}

#[test]
fn an_import_that_reads_no_puzzle_keeps_the_set_it_would_replace() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_with_ids(&d.join("myset.json"), &["mine"]);
    let before = fs::read(d.join("myset.json")).unwrap();
    let line = refused(
        d,
        &[&"puzzles", &"import", &"typo.otg", &"--out", &"myset.json"],
    );
    assert!(line.contains("myset.json"), "{line}");
    assert_eq!(fs::read(d.join("myset.json")).unwrap(), before);
    assert!(!d.join("new.json").exists());
}

#[test]
fn an_import_never_writes_over_one_of_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = fs::read(repo("tests/data/otg/puzzle.otg")).unwrap();
    fs::write(d.join("puzzle.otg"), &record).unwrap();
    for out in ["puzzle.otg", "./puzzle.otg"] {
        let line = refused(
            d,
            &[
                &"puzzles",
                &"import",
                &"puzzle.otg",
                &"--rules",
                &"opentafl",
                &"--out",
                &out,
            ],
        );
        assert!(line.contains("puzzle.otg"), "{line}");
        assert_eq!(fs::read(d.join("puzzle.otg")).unwrap(), record);
    }
}

#[test]
fn sets_with_duplicate_or_empty_ids_are_refused_by_export_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sets: [(&str, &[&str]); 3] = [
        ("twice.json", &["same", "same"]),
        ("empty.json", &[""]),
        ("clash.json", &["a b", "a_b"]),
    ];
    for (name, ids) in sets {
        set_with_ids(&d.join(name), ids);
        let line = refused(d, &[&"puzzles", &"export", &name, &"out"]);
        assert!(line.contains("id"), "{name}: {line}");
        assert!(
            fs::read_dir(d.join("out")).map_or(true, |mut e| e.next().is_none()),
            "{name}: nothing written"
        );
        if name != "clash.json" {
            let line = refused(d, &[&"puzzles", &"verify", &name]);
            assert!(line.contains("id"), "{name}: {line}");
        }
    }
}

#[test]
fn a_file_given_as_the_match_save_folder_is_refused_in_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("games"), "a file").unwrap();
    let line = refused(
        d,
        &[
            &"match",
            &"--attackers",
            &"random",
            &"--defenders",
            &"random",
            &"--games",
            &"1",
            &"--save-dir",
            &"games",
        ],
    );
    assert!(
        line.contains("games") && line.contains("not a folder"),
        "{line}"
    );
    assert!(!line.contains("os error"), "{line}");
    assert_eq!(fs::read(d.join("games")).unwrap(), b"a file");
}

/// A FIFO or a device as the progress file: read at once as unreadable, never waited on (the
/// trainer would hang on its quit, which waits for the storage thread) nor read without end.
#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_as_the_progress_file_is_refused_without_waiting() {
    use std::sync::mpsc;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("progress.json");
    mkfifo(&fifo);
    for path in [fifo.clone(), "/dev/zero".into()] {
        let (sender, receiver) = mpsc::channel();
        let read = path.clone();
        std::thread::spawn(move || {
            let _ = sender.send(brandubh::tui::load_progress(&read));
        });
        // A guard against a hang, not a timing: reading a FIFO waits for a writer forever.
        let loaded = receiver.recv_timeout(Duration::from_secs(20));
        if loaded.is_err() {
            // Release the reader blocked in its open, then fail.
            let _ = fs::OpenOptions::new().write(true).open(&fifo);
            panic!("reading the progress waits on {}", path.display());
        }
        let (_, warning) = loaded.unwrap();
        assert!(
            warning.as_deref().is_some_and(|w| w.contains("not a file")),
            "{warning:?}"
        );
    }
}

#[test]
fn progress_counters_stop_at_their_largest_value() {
    use brandubh::puzzle::{Attempt, Progress};
    let full = u32::MAX;
    let text = format!(
        "{{\"solved\":{full},\"failed\":{full},\"streak\":{full},\"best_streak\":{full},\
         \"rating\":1432.0,\"tried\":{{}}}}"
    );
    let mut progress: Progress = serde_json::from_str(&text).unwrap();
    let puzzles = shipped(Preset::Standard).unwrap().puzzles;
    progress.record(&puzzles[0], Attempt::Solved);
    progress.record(&puzzles[1], Attempt::Failed);
    assert_eq!((progress.solved(), progress.failed()), (full, full));
    assert_eq!(progress.best_streak(), full);
}

/// Runs `read` on a thread and returns what it gave, or fails if it is still waiting after a
/// generous bound (a FIFO without a writer is waited on forever); `fifo` is then opened for
/// writing, which lets the stuck reader go.
#[cfg(unix)]
fn without_waiting<T: Send + 'static>(fifo: &Path, read: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(read());
    });
    let got = receiver.recv_timeout(std::time::Duration::from_secs(20));
    if got.is_err() {
        let _ = fs::OpenOptions::new().write(true).open(fifo);
        panic!("the reader waits on the FIFO {}", fifo.display());
    }
    got.unwrap()
}

/// The online client's files (its identity key, the pinned servers) and the server's key:
/// a FIFO where one should be is refused, never waited on.
#[cfg(unix)]
#[test]
fn a_fifo_as_an_identity_or_key_file_is_refused_without_waiting() {
    use brandubh::net::identity::{IDENTITY_FILE, Identity};
    use brandubh::net::tls::{CERT_FILE, KNOWN_SERVERS_FILE, KnownServers, ServerKey};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_owned();
    for name in [IDENTITY_FILE, CERT_FILE, KNOWN_SERVERS_FILE] {
        mkfifo(&d.join(name));
    }
    let at = d.clone();
    let identity = without_waiting(&d.join(IDENTITY_FILE), move || {
        Identity::load_or_create(&at).map(|_| ())
    });
    let err = identity.unwrap_err().to_string();
    assert!(err.contains("not a file"), "{err}");
    let at = d.clone();
    let key = without_waiting(&d.join(CERT_FILE), move || {
        ServerKey::load_or_create(&at).map(|_| ())
    });
    assert!(key.is_err());
    let known = KnownServers::new(d.join(KNOWN_SERVERS_FILE));
    let pinned = without_waiting(&d.join(KNOWN_SERVERS_FILE), move || known.get("example"));
    assert_eq!(pinned, None);
}

#[test]
fn a_file_given_as_the_export_folder_is_refused_in_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_with_ids(&d.join("set.json"), &["one"]);
    fs::write(d.join("records"), "a file").unwrap();
    let line = refused(d, &[&"puzzles", &"export", &"set.json", &"records"]);
    assert!(
        line.contains("records") && line.contains("not a folder"),
        "{line}"
    );
    assert_eq!(fs::read(d.join("records")).unwrap(), b"a file");
}

/// OpenTafl puzzle records mutated line by line, imported: whatever the record, the import
/// ends by itself in one line or a set, and a set it writes verifies and exports.
#[test]
fn hostile_puzzle_records() {
    let seed = fs::read_to_string(repo("tests/data/otg/puzzle.otg")).unwrap();
    let seed_case = super::corpus::Case {
        label: "puzzle.otg: the seed".into(),
        bytes: seed.clone().into_bytes(),
    };
    let mut checks: Vec<super::Check> = Vec::new();
    let cases =
        std::iter::once(seed_case).chain(super::corpus::record_mutations("puzzle.otg", &seed));
    for case in cases {
        checks.push(Box::new(move |dir: &Path| {
            fs::write(dir.join("p.otg"), &case.bytes).map_err(|e| e.to_string())?;
            let label = |command: &str| format!("{} [{command}]", case.label);
            let import = Run::new(
                label("puzzles import"),
                &[
                    &"puzzles",
                    &"import",
                    &"p.otg",
                    &"--rules",
                    &"opentafl",
                    &"--out",
                    &"set.json",
                ],
            );
            if checked(dir, &import)?.code != Some(0) {
                return Ok(());
            }
            for args in [
                &["puzzles", "verify", "set.json"][..],
                &["puzzles", "export", "set.json", "out"],
            ] {
                let mut back = Run::new(
                    label(&args.join(" ")),
                    &args
                        .iter()
                        .map(|a| a as &dyn AsRef<OsStr>)
                        .collect::<Vec<_>>(),
                );
                back.must_succeed = true;
                checked(dir, &back)?;
            }
            Ok(())
        }));
    }
    assert!(checks.len() > 50, "{} cases", checks.len());
    super::run_all(&checks);
}

#[test]
fn a_progress_file_with_an_absurd_rating_is_not_progress() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("progress.json");
    for rating in ["1e300", "-1e300", "123456.0"] {
        let text = format!(
            "{{\"solved\":1,\"failed\":0,\"streak\":1,\"best_streak\":1,\"rating\":{rating},\
             \"tried\":{{}}}}"
        );
        fs::write(&path, &text).unwrap();
        let (progress, warning) = brandubh::tui::load_progress(&path);
        assert_eq!(progress, brandubh::puzzle::Progress::default(), "{rating}");
        assert!(
            warning.as_deref().is_some_and(|w| w.contains("rating")),
            "{rating}: {warning:?}"
        );
    }
}
