//! Input with control characters (ESC, BEL, NUL) in command-line errors: the message quotes it
//! escaped, and not one control byte reaches stderr (a terminal would obey it).

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs the binary with `args` (no terminal); checks it fails with exit code 2 and one line on
/// stderr free of control bytes, and that the line shows each of `shown`. Returns the line.
fn refused(args: &[&str], save_dir: &Path, shown: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(args)
        .env("BRANDUBH_SAVE_DIR", save_dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = out.stderr;
    let text = String::from_utf8_lossy(&stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {text:?}");
    let (last, line) = stderr.split_last().expect("a message");
    assert_eq!(*last, b'\n', "{text:?}");
    for (i, &byte) in line.iter().enumerate() {
        assert!(
            byte >= 0x20 && byte != 0x7f,
            "{args:?}: control byte {byte:#04x} at {i} in {text:?}"
        );
    }
    assert!(
        !text.trim_end().chars().any(char::is_control),
        "{args:?}: {text:?}"
    );
    for part in shown {
        assert!(text.contains(part), "{args:?}: {part} in {text:?}");
    }
    text
}

const ESC_CLEAR: &str = "\u{1b}[2J";
const SHOWN_CLEAR: &str = "\\u{1b}[2J";

#[test]
fn rules_input_is_quoted_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let position = format!("{ESC_CLEAR}/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a");
    refused(
        &["perft", "--depth", "1", "--position", &position],
        dir.path(),
        &["--position", SHOWN_CLEAR],
    );
    refused(
        &["replay", "--moves", &format!("d2-e2 d5\u{7}-d6{ESC_CLEAR}")],
        dir.path(),
        &["move 2", "\\u{7}", SHOWN_CLEAR],
    );
    refused(
        &["analyze", "--position", "/3t3/\u{7}/ a"],
        dir.path(),
        &["\\u{7}"],
    );
}

#[test]
fn arguments_clap_refuses_are_quoted_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let bad = format!("x{ESC_CLEAR}\u{7}");
    let shown = format!("x{SHOWN_CLEAR}\\u{{7}}");
    for args in [
        vec!["play", "--attackers", bad.as_str()],
        vec!["--defenders", bad.as_str()],
        vec!["play", "--rules", bad.as_str()],
        vec!["perft", "--depth", bad.as_str()],
        vec!["analyze", "--time", bad.as_str()],
        vec!["match", "--attackers", bad.as_str(), "--games", "1"],
        vec![bad.as_str()],
    ] {
        refused(&args, dir.path(), &[shown.as_str()]);
    }
    refused(&[&format!("--{bad}")], dir.path(), &[shown.as_str()]);
}

#[test]
fn save_files_and_their_paths_are_quoted_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join(format!("game{ESC_CLEAR}\u{7}.json"));
    let missing = missing.to_str().unwrap();
    for command in ["replay", "analyze"] {
        refused(&[command, missing], dir.path(), &[SHOWN_CLEAR, "\\u{7}"]);
    }
    refused(&["play", "--load", missing], dir.path(), &[SHOWN_CLEAR]);
    let save_dir = dir.path().join(format!("saves{ESC_CLEAR}"));
    refused(
        &["play", "--save-dir", save_dir.to_str().unwrap(), "--resume"],
        dir.path(),
        &[SHOWN_CLEAR],
    );

    // NUL cannot be in an argument, but it can be in a file: JSON escapes decode to control
    // characters in the move the loader quotes.
    let file = dir.path().join("control.json");
    std::fs::write(
        &file,
        r#"{"format":"brandubh-game","version":1,"rules":"standard",
            "start":"/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a",
            "moves":["d2-e2","d5\u0000\u0007-d6\u001b[2J"],
            "players":{"attackers":{"type":"human"},"defenders":{"type":"human"}},
            "result":null,"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z"}"#,
    )
    .unwrap();
    let file = file.to_str().unwrap();
    for args in [
        vec!["replay", file],
        vec!["analyze", file],
        vec!["play", "--load", file],
    ] {
        refused(&args, dir.path(), &["move 2", "\\0", "\\u{7}", SHOWN_CLEAR]);
    }
}

/// Runs `brandubh match ARGS`, which must succeed; checks that its output holds no control
/// byte but line ends, and returns it.
fn match_output(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {text:?}");
    for (i, &byte) in out.stdout.iter().enumerate() {
        assert!(
            byte >= 0x20 && byte != 0x7f || byte == b'\n',
            "{args:?}: control byte {byte:#04x} at {i} in {text:?}"
        );
    }
    text
}

#[test]
fn match_output_shows_commands_and_paths_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // An engine whose command would set the terminal's title: it cannot start, and loses.
    let engine = "otep:\u{1b}]0;X\u{7}";
    let shown_engine = "otep:\\u{1b}]0;X\\u{7}";
    let save_dir = dir.path().join(format!("saves{ESC_CLEAR}"));
    let save_dir = save_dir.to_str().unwrap();
    let shown_dir = format!("saves{SHOWN_CLEAR}");
    let mut args = vec![
        "--attackers",
        engine,
        "--defenders",
        "random",
        "--games",
        "2",
        "--opening-plies",
        "0",
        "--save-dir",
        save_dir,
    ];
    let text = match_output(&args);
    let lines: Vec<&str> = text.lines().collect();
    for (line, file) in lines[..2].iter().zip(["game-001.json", "game-002.json"]) {
        assert!(line.contains(shown_engine), "{line}");
        assert!(
            line.contains("cannot start \"\\u{1b}]0;X\\u{7}\""),
            "{line}"
        );
        assert!(line.contains(", saved to "), "{line}");
        assert!(line.ends_with(&format!("{shown_dir}/{file}")), "{line}");
    }
    assert!(lines[2].starts_with(&format!("{shown_engine} vs random: ")));
    args.push("--json");
    let v: Value = serde_json::from_str(&match_output(&args)).unwrap();
    assert_eq!(v["first"], shown_engine);
    assert_eq!(v["games"][0]["attackers"], shown_engine);
    let file = v["games"][0]["file"].as_str().unwrap();
    assert!(
        file.ends_with(&format!("{shown_dir}/game-003.json")),
        "{file}"
    );
}
