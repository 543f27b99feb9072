//! The hostile-input suite: a corpus generated from valid seeds (saved games, OpenTafl records,
//! move records, settings, protocol sessions, command lines) and every command that reads
//! each kind, run on every case. Whatever the input, a command ends by itself, never panics,
//! exits 0 or 2 with a refusal in one line, never writes a raw control character to the
//! terminal, and what it writes it reads back.

mod corpus;
mod files;
mod verdict;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use corpus::Case;
use verdict::{Outcome, Run, judge, run_in};

/// Threads running cases at once.
const WORKERS: usize = 3;

/// One check of one case, run in a fresh temporary folder: `Err` says what went wrong.
type Check = Box<dyn Fn(&Path) -> Result<(), String> + Send + Sync>;

/// Runs every check, on [`WORKERS`] threads, and fails with the first failures.
fn run_all(checks: &[Check]) {
    // Shown with `--nocapture`: the size of each part of the corpus.
    println!("{} cases", checks.len());
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some(check) = checks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let dir = tempfile::tempdir().expect("a temporary folder");
                    if let Err(why) = check(dir.path()) {
                        failures.lock().expect("no panic").push(why);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().expect("no panic");
    assert!(
        failures.is_empty(),
        "{} of {} cases failed; the first:\n{}",
        failures.len(),
        checks.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Runs `run` in `dir` and judges it.
fn checked(dir: &Path, run: &Run) -> Result<Outcome, String> {
    let outcome = run_in(dir, run)?;
    judge(run, &outcome)?;
    Ok(outcome)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).expect("a seed file")
}

/// The checks of one game file (a save, a record or a move record) named `file_name`: every
/// command that reads a game reads it, and the commands agree. A file one of them loads, all
/// of them load; what `export` writes, `replay` reads back.
fn game_file_check(case: Case, file_name: &'static str, must_load: bool) -> Check {
    Box::new(move |dir| {
        let file = dir.join(file_name);
        std::fs::write(&file, &case.bytes).map_err(|e| e.to_string())?;
        let label = |command: &str| format!("{} [{command}]", case.label);
        let mut replay = Run::new(label("replay"), &[&"replay", &file_name]);
        replay.must_succeed = must_load;
        let loads = checked(dir, &replay)?.code == Some(0);
        let mut analysis = Run::new(
            label("analyze --game"),
            &[&"analyze", &"--game", &file_name, &"--depth", &"1"],
        );
        analysis.must_succeed = loads;
        checked(dir, &analysis)?;
        for (format, out) in [("otg", "out.otg"), ("json", "out.json")] {
            let mut export = Run::new(
                label(&format!("export {format}")),
                &[
                    &"export",
                    &"--format",
                    &format,
                    &file_name,
                    &"--output",
                    &out,
                ],
            );
            export.must_succeed = loads;
            if checked(dir, &export)?.code == Some(0) {
                let mut back = Run::new(
                    label(&format!("replay of its {format} export")),
                    &[&"replay", &out],
                );
                back.must_succeed = true;
                checked(dir, &back)?;
            }
        }
        // Not a terminal: refused in one line, whether the file loads or not.
        checked(
            dir,
            &Run::new(label("play --load"), &[&"play", &"--load", &file_name]),
        )?;
        Ok(())
    })
}

/// The saved games the corpus starts from: every kind of field the format has (clock,
/// comments, analysis, custom rules, a resignation, a repetition).
fn save_seeds() -> Vec<(&'static str, String)> {
    vec![
        (
            "clock-comments",
            read("tests/it/hostile/seeds/clock-comments.json"),
        ),
        ("analyzed", read("tests/data/analyzed/ai-game.json")),
        (
            "custom-rules",
            read("assets/games/custom-rules-resignation.json"),
        ),
        ("repetition", read("assets/games/repetition.json")),
    ]
}

#[test]
fn hostile_saved_games() {
    let mut checks = Vec::new();
    for (name, seed) in save_seeds() {
        checks.push(game_file_check(
            Case {
                label: format!("{name}: the seed"),
                bytes: seed.clone().into_bytes(),
            },
            "game.json",
            true,
        ));
        for case in corpus::json_field_mutations(name, &seed, 3)
            .into_iter()
            .chain(corpus::byte_mutations(name, &seed))
        {
            checks.push(game_file_check(case, "game.json", false));
        }
    }
    assert!(checks.len() > 500, "{} cases", checks.len());
    run_all(&checks);
}

#[test]
fn hostile_opentafl_records() {
    let seed = read("tests/data/otg/commented.otg");
    let mut checks = vec![game_file_check(
        Case {
            label: "commented.otg: the seed".into(),
            bytes: seed.clone().into_bytes(),
        },
        "game.otg",
        true,
    )];
    for case in corpus::record_mutations("commented.otg", &seed) {
        checks.push(game_file_check(case, "game.otg", false));
    }
    assert!(checks.len() > 150, "{} cases", checks.len());
    run_all(&checks);
}

#[test]
fn hostile_move_records() {
    let mut checks = Vec::new();
    for case in corpus::move_records() {
        let text = String::from_utf8_lossy(&case.bytes).into_owned();
        let label = case.label.clone();
        checks.push(game_file_check(case, "moves.txt", false));
        // A command line holds no NUL and has a length limit: those cases are files only.
        if text.contains('\0') || text.len() > 10_000 {
            continue;
        }
        checks.push(Box::new(move |dir: &Path| {
            checked(
                dir,
                &Run::new(
                    format!("{label} [replay --moves]"),
                    &[&"replay", &"--moves", &text],
                ),
            )
            .map(drop)
        }));
    }
    run_all(&checks);
}

/// Command lines with one hostile value in one option's place (`{}`), for every command.
fn command_templates() -> Vec<Vec<&'static str>> {
    let templates: &[&str] = &[
        "replay --moves {}",
        "replay --position {} --moves d7-b7",
        "replay --rules {} --moves d7-b7",
        "replay {}",
        "analyze --position {} --depth 1",
        "analyze --depth {}",
        "analyze --time {} --depth 1",
        "analyze --nodes {} --depth 1",
        "analyze --hash {} --depth 1",
        "analyze --game {}",
        "perft --depth {}",
        "perft --depth 1 --threads {}",
        "perft --depth 1 --position {}",
        "export --format {} game.json",
        "export --format otg {}",
        "export --format otg game.json --output {}",
        "match --attackers {} --defenders random --games 1",
        "match --attackers random --defenders {} --games 1",
        "match --attackers random --defenders random --games {}",
        "match --attackers random --defenders random --games 1 --time {}",
        "match --attackers random --defenders random --games 1 --max-plies {}",
        "match --attackers random --defenders random --games 1 --jobs {}",
        "match --attackers random --defenders random --games 1 --seed {}",
        "match --attackers random --defenders random --games 1 --opening-plies {}",
        "match --attackers random --defenders random --games 1 --position {}",
        "match --attackers random --defenders random --games 1 --save-dir {}",
        "otep --level {}",
        "otep --time {}",
        "otep --seed {}",
        "otep --log {}",
        "play --attackers {}",
        "play --clock {}",
        "play --load {}",
        "--rules {}",
        "--clock {}",
        "--position {}",
        "--save-dir {}",
        "--ascii={}",
        "{}",
    ];
    templates.iter().map(|t| t.split(' ').collect()).collect()
}

#[test]
fn hostile_command_lines() {
    let seed = read("tests/it/hostile/seeds/clock-comments.json");
    let mut values: Vec<OsString> = corpus::option_values()
        .into_iter()
        .map(OsString::from)
        .collect();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        values.push(OsString::from_vec(b"d7\xff-b7".to_vec()));
    }
    let mut checks: Vec<Check> = Vec::new();
    for template in command_templates() {
        // Positions start with `/`: given where a path goes, they would name folders outside
        // the suite's own, so they go only to `--position`.
        let position = template.contains(&"--position");
        for value in &values {
            if !position && value.to_string_lossy().starts_with('/') {
                continue;
            }
            let args: Vec<OsString> = template
                .iter()
                .map(|&part| {
                    if part == "{}" {
                        value.clone()
                    } else {
                        OsString::from(part)
                    }
                })
                .collect();
            let seed = seed.clone();
            checks.push(Box::new(move |dir: &Path| {
                std::fs::write(dir.join("game.json"), &seed).map_err(|e| e.to_string())?;
                let mut run = Run::new(format!("{args:?}"), &[]);
                run.args.clone_from(&args);
                checked(dir, &run).map(drop)
            }));
        }
    }
    run_all(&checks);
}

#[test]
fn hostile_protocol_sessions() {
    let mut checks: Vec<Check> = Vec::new();
    for case in corpus::protocol_sessions() {
        checks.push(Box::new(move |dir: &Path| {
            let mut run = Run::new(case.label.clone(), &[&"otep", &"--time", &"20ms"]);
            run.stdin.clone_from(&case.bytes);
            run.many_lines = true;
            let outcome = checked(dir, &run)?;
            if outcome.code != Some(0) {
                return Err(format!("{}: exit {:?}", case.label, outcome.code));
            }
            Ok(())
        }));
    }
    run_all(&checks);
}

/// The settings file is read by the terminal game, which needs a terminal: its reader is run
/// directly, as the game runs it. A settings file never stops the game: it gives the defaults
/// and a warning of one line, without a raw control character.
#[test]
fn hostile_settings_files() {
    use brandubh::tui::SettingsFile;
    let mut checks: Vec<Check> = Vec::new();
    for case in corpus::settings() {
        checks.push(Box::new(move |dir: &Path| {
            let path = dir.join("settings.json");
            std::fs::write(&path, &case.bytes).map_err(|e| e.to_string())?;
            let (_, _, warning) = SettingsFile::load(path);
            match warning {
                Some(w) if w.lines().count() != 1 || w.chars().any(char::is_control) => {
                    Err(format!("{}: warning not one clean line: {w:?}", case.label))
                }
                _ => Ok(()),
            }
        }));
    }
    run_all(&checks);
}

/// A FIFO (or any file that is not a regular file) where a game or the settings are read is
/// refused at once: opening one to read would wait for a writer forever.
#[cfg(unix)]
#[test]
fn fifos_are_refused_without_waiting() {
    use std::sync::mpsc;
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("settings.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for args in [
        &["replay", "settings.json"][..],
        &["analyze", "--game", "settings.json", "--depth", "1"],
        &[
            "export",
            "--format",
            "otg",
            "settings.json",
            "--output",
            "out.otg",
        ],
        &["play", "--load", "settings.json"],
    ] {
        let run = Run::new(
            format!("{args:?} on a FIFO"),
            &args
                .iter()
                .map(|a| a as &dyn AsRef<std::ffi::OsStr>)
                .collect::<Vec<_>>(),
        );
        let outcome = checked(dir.path(), &run).unwrap_or_else(|why| panic!("{why}"));
        assert_eq!(outcome.code, Some(2), "{args:?}");
    }
    let (sender, receiver) = mpsc::channel();
    let path = fifo.clone();
    thread::spawn(move || {
        let (_, _, warning) = brandubh::tui::SettingsFile::load(path);
        let _ = sender.send(warning);
    });
    let warning = receiver.recv_timeout(Duration::from_secs(20));
    if warning.is_err() {
        // Release the reader blocked in its open, then fail.
        let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        panic!("the settings reader waits on a FIFO");
    }
    let warning = warning.ok().flatten();
    assert!(
        warning
            .as_deref()
            .is_some_and(|w| w.contains("settings.json")),
        "a warning naming the file: {warning:?}"
    );
}
