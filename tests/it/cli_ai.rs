//! The `analyze` and `match` commands, run as a user runs them.

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;

use common::cli::{failure, success};
use serde_json::Value;

#[test]
fn analyze_prints_depths_then_the_best_move() {
    let text = success(&["analyze", "--depth", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(
            line.starts_with(&format!("depth {} score ", i + 1)),
            "{line}"
        );
        assert!(line.contains(" nodes ") && line.contains(" pv "), "{line}");
    }
    assert!(lines[3].starts_with("best: "), "{}", lines[3]);
}

#[test]
fn analyze_json_has_the_documented_keys() {
    let text = success(&[
        "analyze",
        "--json",
        "--depth",
        "4",
        "--position",
        "/7/7/7/7/7/1tK4/3t3/ a",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["best"], "d7-d6++");
    assert_eq!(v["depth"], 1, "a win in one is proven at depth 1");
    assert_eq!(v["score"], 29_999);
    assert_eq!(v["score_text"], "win in 1");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["pv"][0], "d7-d6++");
}

#[test]
fn analyze_refuses_bad_input() {
    assert!(failure(&["analyze", "--time", "5x"]).contains("\"5x\" is not a duration"));
    assert!(failure(&["analyze", "--position", "/7/7/7/7/7/7/7/ a"]).contains("game is over"));
    failure(&["analyze", "--time", "1s", "--depth", "3"]);
    // A finished game says how it ended, in words: who repeated.
    let repeated = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/games/repetition.json");
    assert_eq!(
        failure(&["analyze", repeated]),
        "brandubh: nothing to analyze: the game is over (defenders repetition: threefold \
         repetition by the attackers)"
    );
}

/// Issue 18: `--time`, `--clock` and `ai:max:TIME` read durations one way (`--time 1m` was
/// refused though `--clock 1m` was read), and a bad one is named the same way everywhere.
#[test]
fn every_time_option_reads_the_one_duration_format() {
    let text = success(&[
        "match",
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--games",
        "1",
        "--max-plies",
        "2",
        "--time",
        "1m",
    ]);
    assert!(text.contains("draw adjudicated in 2 plies"), "{text}");
    // A win in one is proven at once, whatever time it was given.
    let text = success(&[
        "analyze",
        "--time",
        "1m30s",
        "--position",
        "/7/7/7/7/7/1tK4/3t3/ a",
    ]);
    assert!(text.contains("best: d7-d6++"), "{text}");
    let mut otep = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["otep", "--time", "1.5m"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(otep.wait().unwrap().success());
    for args in [
        &["analyze", "--time", "5q"][..],
        &[
            "match",
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--time",
            "5q",
        ],
        &["otep", "--time", "5q"],
        &[
            "match",
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--time=-5s",
        ],
    ] {
        let line = failure(args);
        let bad = args.last().unwrap().trim_start_matches("--time=");
        assert!(
            line.contains(&format!("\"{bad}\" is not a duration (")),
            "{args:?}: {line}"
        );
    }
}

#[test]
fn match_reports_per_side_results_and_elo() {
    let text = success(&[
        "match",
        "--attackers",
        "search:easy",
        "--defenders",
        "random",
        "--games",
        "2",
        "--seed",
        "5",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    assert_eq!(v["games"][0]["attackers"], "search:easy");
    assert_eq!(v["games"][1]["attackers"], "random");
    let total = &v["total"];
    let sum = ["wins", "draws", "losses"]
        .iter()
        .map(|k| total[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(sum, 2);
    assert!(v["elo_text"].is_string());
}

#[test]
fn match_adjudicates_a_draw_at_the_ply_cap() {
    let text = success(&[
        "match",
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--games",
        "2",
        "--max-plies",
        "3",
    ]);
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    for line in games {
        assert!(line.ends_with("draw adjudicated in 3 plies"), "{line}");
    }
    assert!(
        text.contains("random as attackers: 0 wins, 1 draw, 0 losses"),
        "{text}"
    );
}

#[test]
fn match_refuses_bad_engines() {
    assert!(
        failure(&[
            "match",
            "--attackers",
            "human",
            "--defenders",
            "random",
            "--games",
            "1"
        ])
        .contains("not an engine")
    );
    failure(&[
        "match",
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--games",
        "0",
    ]);
}

#[test]
fn match_saves_every_game_and_analyze_loads_a_save() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("games");
    let dir_text = dir.to_str().unwrap();
    success(&[
        "match",
        "--attackers",
        "random",
        "--defenders",
        "search:easy",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--save-dir",
        dir_text,
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["game-001.json", "game-002.json"]);
    let first = dir.join("game-001.json");
    let first = first.to_str().unwrap();
    let replay = success(&["replay", first]);
    assert_eq!(replay.lines().count(), 7, "{replay}");
    assert!(replay.ends_with("result: draw adjudicated\n"), "{replay}");
    // Adjudicated games are over: nothing to analyze. A save of an unfinished game is analyzed.
    assert!(failure(&["analyze", first]).contains("game is over"));
    let unfinished = dir.join("unfinished.json");
    let saved = std::fs::read_to_string(dir.join("game-002.json")).unwrap();
    let mut value: Value = serde_json::from_str(&saved).unwrap();
    let object = value.as_object_mut().unwrap();
    object["result"] = Value::Null;
    object["moves"].as_array_mut().unwrap().truncate(3);
    std::fs::write(&unfinished, value.to_string()).unwrap();
    let text = success(&[
        "analyze",
        "--depth",
        "2",
        "--json",
        unfinished.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["side"], "defenders");
    assert_eq!(v["depth"], 2);
}

#[test]
fn match_runs_into_one_folder_never_replace_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let dir_text = dir.path().to_str().unwrap();
    let foreign = dir.path().join("game-002.json");
    std::fs::write(&foreign, "not a game of this run").unwrap();
    let run = |seed: &str| {
        success(&[
            "match",
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--seed",
            seed,
            "--save-dir",
            dir_text,
        ])
    };
    // Numbering continues after the files there.
    let first = run("1");
    assert!(
        first.contains("game-003.json") && first.contains("game-004.json"),
        "{first}"
    );
    // Two runs at once into the same folder: every game gets a file of its own.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| run("2"));
        let b = s.spawn(|| run("3"));
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (2..=8).map(|n| format!("game-{n:03}.json")).collect();
    assert_eq!(names, expected, "{a}\n{b}");
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "not a game of this run"
    );
    // Each run says where its games went: four different files.
    let mut saved: Vec<&str> = a
        .lines()
        .chain(b.lines())
        .filter_map(|l| l.split(", saved to ").nth(1))
        .collect();
    saved.sort_unstable();
    saved.dedup();
    assert_eq!(saved.len(), 4, "{a}\n{b}");
    let json = success(&[
        "match",
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--games",
        "1",
        "--max-plies",
        "2",
        "--json",
        "--save-dir",
        dir_text,
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let file = v["games"][0]["file"].as_str().unwrap();
    assert!(file.ends_with("game-009.json"), "{file}");
}

/// `brandubh match ARGS` started with its output piped.
#[cfg(unix)]
fn start_match(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `brandubh match ARGS` to its end, reading its output as it comes; returns its exit
/// status, its standard output and its peak resident set in KiB.
#[cfg(target_os = "linux")]
fn match_with_peak(args: &[&str]) -> (ExitStatus, String, u64) {
    let mut child = start_match(args);
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let (status, peak) = common::rss::wait_with_peak(&mut child);
    (status, reader.join().unwrap(), peak)
}

/// An engine that moves a4-a2 when asked, then writes `status` lines, many of them.
#[cfg(target_os = "linux")]
const FLOODING_ENGINE: &str = "echo hello
while read line; do
  case \"$line\" in
    play*) echo 'move a4-a2'; yes 'status flooding' | head -n 3000000;;
    goodbye) exit 0;;
  esac
done";

#[cfg(target_os = "linux")]
#[test]
fn an_engine_flooding_its_output_keeps_the_match_memory_flat() {
    /// The peak resident set allowed, in KiB.
    const BOUND_KIB: u64 = 40 * 1024;
    let (_dir, engine) = common::engine::script(FLOODING_ENGINE);
    let engine = format!("otep:{}", engine.display());
    // It floods while the search thinks, and after the game as it is told goodbye.
    let (status, text, peak) = match_with_peak(&[
        "--attackers",
        &engine,
        "--defenders",
        "search:max",
        "--time",
        "500ms",
        "--games",
        "1",
        "--max-plies",
        "2",
        "--opening-plies",
        "0",
    ]);
    assert!(status.success(), "{text}");
    assert!(text.contains("draw adjudicated in 2 plies"), "{text}");
    assert!(peak < BOUND_KIB, "peak resident set {peak} KiB");
}

#[cfg(target_os = "linux")]
#[test]
fn a_long_match_keeps_its_memory_flat() {
    /// The peak resident set allowed, in KiB.
    const BOUND_KIB: u64 = 40 * 1024;
    const GAMES: usize = 4000;
    let games = GAMES.to_string();
    for json in [false, true] {
        let mut args = vec![
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--games",
            &games,
        ];
        if json {
            args.push("--json");
        }
        let (status, text, peak) = match_with_peak(&args);
        assert!(status.success());
        if json {
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["games"].as_array().unwrap().len(), GAMES);
            let total = &v["total"];
            let sum: u64 = ["wins", "draws", "losses"]
                .iter()
                .map(|k| total[k].as_u64().unwrap())
                .sum();
            assert_eq!(sum, GAMES as u64);
        } else {
            let played = text.lines().filter(|l| l.starts_with("game ")).count();
            assert_eq!(played, GAMES);
            assert!(text.contains(&format!(": {GAMES} games, ")), "{text}");
        }
        assert!(
            peak < BOUND_KIB,
            "--json {json}: peak resident set {peak} KiB"
        );
    }
}

/// An engine that notes each start in a file `starts` beside it, and moves a4-a2.
#[cfg(unix)]
const NOTED_ENGINE: &str = "echo start >> \"$(dirname \"$0\")/starts\"
echo hello
while read line; do
  case \"$line\" in
    play*) echo 'move a4-a2';;
    goodbye) exit 0;;
  esac
done";

#[cfg(target_os = "linux")]
#[test]
fn a_save_folder_that_cannot_be_written_is_refused_before_the_first_game() {
    let (dir, engine) = common::engine::script(NOTED_ENGINE);
    let engine = format!("otep:{}", engine.display());
    // A folder where no one may write, and one that cannot be made.
    for save_dir in ["/proc", "/proc/brandubh-games"] {
        let line = failure(&[
            "match",
            "--attackers",
            &engine,
            "--defenders",
            "random",
            "--games",
            "3",
            "--max-plies",
            "1",
            "--opening-plies",
            "0",
            "--save-dir",
            save_dir,
        ]);
        assert!(line.contains(&format!("--save-dir {save_dir}")), "{line}");
        assert!(!dir.path().join("starts").exists(), "a game began");
    }
}

/// Replaces the symbolic link `link` with one to `target`, at once.
#[cfg(unix)]
fn repoint(link: &Path, target: &Path) {
    let next = link.with_extension("next");
    std::os::unix::fs::symlink(target, &next).unwrap();
    std::fs::rename(&next, link).unwrap();
}

#[cfg(unix)]
#[test]
fn a_match_stops_at_the_first_failed_save_with_the_results_so_far() {
    let temp = tempfile::tempdir().unwrap();
    let [folder, file, link] = ["folder", "file", "games"].map(|n| temp.path().join(n));
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(&file, "not a folder").unwrap();
    repoint(&link, &folder);
    let mut child = start_match(&[
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--games",
        "100000",
        "--max-plies",
        "2",
        "--save-dir",
        link.to_str().unwrap(),
    ]);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.starts_with("game 1: "), "{first}");
    // The save folder becomes a file: the next save fails.
    repoint(&link, &file);
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot save"), "{err}");
    let played = 1 + rest.iter().filter(|l| l.starts_with("game ")).count();
    assert!(
        rest.iter()
            .any(|l| l.ends_with(&format!(": {played} games, rules standard"))),
        "{rest:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_match_whose_output_is_closed_stops_at_once() {
    const GAMES: usize = 300;
    let (dir, engine) = common::engine::script(NOTED_ENGINE);
    let engine = format!("otep:{}", engine.display());
    let games = GAMES.to_string();
    // Each game starts the engine once: as the attackers it moves, as the defenders it loses
    // by an illegal move.
    let mut child = start_match(&[
        "--attackers",
        &engine,
        "--defenders",
        "random",
        "--games",
        &games,
        "--max-plies",
        "2",
        "--opening-plies",
        "0",
    ]);
    // As `| head -1` does: one line, and the reader is gone.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("game 1: "), "{first}");
    drop(stdout);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success() && err.is_empty(), "{status}: {err}");
    let started = std::fs::read_to_string(dir.path().join("starts"))
        .unwrap()
        .lines()
        .count();
    assert!(started < GAMES / 10, "{started} games of {GAMES} begun");
}

#[test]
fn rules_without_an_opentafl_rules_string_are_refused_for_other_programs() {
    let line = failure(&[
        "match",
        "--attackers",
        "otep:/bin/true",
        "--defenders",
        "random",
        "--games",
        "1",
        "--rules",
        "nielsen",
    ]);
    assert!(
        line.contains("nielsen") && line.contains("OpenTafl rules string"),
        "{line}"
    );
}

/// Whether process `pid` ends within 20 s (a zombie has ended: it only waits to be reaped).
/// A signal sent to it is delivered after `kill` returns: on a loaded machine the process
/// may still be running for a moment after the match that killed it has exited.
#[cfg(target_os = "linux")]
fn ends(pid: &str) -> bool {
    let ended = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit(") ").next().unwrap().starts_with('Z')
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !ended() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        thread::sleep(std::time::Duration::from_millis(10));
    }
    true
}

#[cfg(target_os = "linux")]
#[test]
fn what_an_engine_starts_ends_with_the_match() {
    // Each engine leaves a process behind and says where; the first exits when told goodbye,
    // the second does not and is killed.
    let engine = |reply: &str, goodbye: &str| {
        common::engine::script(&format!(
            "sleep 1234 >/dev/null 2>&1 &
echo $! > \"$(dirname \"$0\")/left\"
echo hello
while read line; do
  case \"$line\" in
    play*) echo 'move {reply}';;
    goodbye) {goodbye};;
  esac
done"
        ))
    };
    let (first_dir, first) = engine("a4-a2", "exit 0");
    let (second_dir, second) = engine("d3-c3", ":");
    let text = success(&[
        "match",
        "--attackers",
        &format!("otep:{}", first.display()),
        "--defenders",
        &format!("otep:{}", second.display()),
        "--games",
        "1",
        "--max-plies",
        "2",
        "--opening-plies",
        "0",
        // They answer at once: a minute a move only turns a hang into a loss on time.
        "--time",
        "1m",
    ]);
    assert!(text.contains("draw adjudicated in 2 plies"), "{text}");
    let left: Vec<String> = [first_dir, second_dir]
        .iter()
        .map(|dir| std::fs::read_to_string(dir.path().join("left")).unwrap())
        .map(|pid| pid.trim().to_owned())
        .collect();
    let running: Vec<&String> = left.iter().filter(|pid| !ends(pid)).collect();
    for pid in &running {
        let _ = Command::new("kill").arg(pid).status();
    }
    assert!(running.is_empty(), "still running: {running:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_match_ended_by_a_signal_ends_its_engines_first() {
    // An engine that leaves a process behind and says where, then never moves.
    let (dir, engine) = common::engine::script(
        "sleep 1234 >/dev/null 2>&1 &
echo $! > \"$(dirname \"$0\")/left.new\"
mv \"$(dirname \"$0\")/left.new\" \"$(dirname \"$0\")/left\"
echo hello
while read line; do :; done",
    );
    let mut child = start_match(&[
        "--attackers",
        &format!("otep:{}", engine.display()),
        "--defenders",
        "random",
        "--games",
        "2",
        "--time",
        "20s",
    ]);
    let left = dir.path().join("left");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !left.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine never began"
        );
        thread::sleep(std::time::Duration::from_millis(10));
    }
    // As `kill` does: the signal reaches the match alone, not its engines. SIGTERM, not
    // SIGINT: a test run started in the background inherits SIGINT ignored, and a signal
    // ignored from the start stays ignored.
    let signalled = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(signalled.success());
    let status = child.wait().unwrap();
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let pid = std::fs::read_to_string(&left).unwrap().trim().to_owned();
    let gone = ends(&pid);
    if !gone {
        let _ = Command::new("kill").arg(&pid).status();
    }
    assert_eq!(status.code(), Some(143), "{text}");
    assert!(text.contains(": 0 games, "), "the results so far: {text}");
    assert!(gone, "what the engine started is still running");
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_the_match_was_started_ignoring_stays_ignored() {
    // As `nohup` starts it: SIGHUP ignored.
    let mut child = Command::new("sh")
        .args(["-c", "trap '' HUP; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_brandubh"))
        .args([
            "match",
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--games",
            "1000000",
            "--max-plies",
            "4",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next().unwrap().unwrap().starts_with("game 1: "));
    let signal = |name: &str| {
        let sent = Command::new("kill")
            .args([name, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    signal("-HUP");
    // It plays on: a thousand more games (the few lines written before it took the signal
    // cannot be that many).
    for _ in 0..1000 {
        let line = lines.next().unwrap().unwrap();
        assert!(line.starts_with("game "), "stopped by SIGHUP: {line}");
    }
    signal("-TERM");
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15), "{rest:?}");
}
