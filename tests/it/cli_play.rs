//! `brandubh play` and `brandubh` alone, where they end before the terminal game starts: bad
//! options and files give one line on stderr and exit code 2.

use std::process::{Command, Stdio};

/// Runs the binary with no terminal attached; returns the exit code and stderr.
fn run(args: &[&str], save_dir: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(args)
        .env("BRANDUBH_SAVE_DIR", save_dir)
        .env("BRANDUBH_CONFIG_DIR", save_dir.join("config"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.stdout.is_empty());
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

fn one_line_failure(args: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = run(args, dir.path());
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("brandubh: "), "{stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

#[test]
fn the_game_needs_a_terminal() {
    one_line_failure(&[], "needs a terminal");
    one_line_failure(&["play"], "needs a terminal");
    // Issue 18: minutes, fractions and milliseconds wherever a duration is read.
    one_line_failure(&["--clock", "1m30.5s+500ms"], "needs a terminal");
    one_line_failure(&["--defenders", "ai:max:3000ms"], "needs a terminal");
    one_line_failure(
        &["--rules", "walker", "--defenders", "ai:hard"],
        "needs a terminal",
    );
    one_line_failure(
        &[
            "play",
            "--attackers",
            "ai:max:3s",
            "--defenders",
            "ai:max:10s",
        ],
        "needs a terminal",
    );
}

#[test]
fn bad_players_and_conflicting_options_are_refused() {
    one_line_failure(&["--attackers", "robot"], "\"robot\" is not a player");
    one_line_failure(&["play", "--defenders", "ai:godlike"], "is not a player");
    one_line_failure(
        &["play", "--attackers", "ai:hard:3s"],
        "\"ai:hard:3s\" is not a player: a move time is only for the search engine at level max",
    );
    one_line_failure(
        &["--defenders", "random:max:3s"],
        "a move time is only for the search engine at level max",
    );
    one_line_failure(
        &["play", "--defenders", "ai:max:5s"],
        "the move time of ai:max is 1s, 3s or 10s",
    );
    one_line_failure(
        &["play", "--load", "x.json", "--rules", "walker"],
        "cannot be used with",
    );
    one_line_failure(&["--load", "x.json", "--resume"], "cannot be used with");
    one_line_failure(&["--clock", "5x"], "\"5x\" is not a time control");
    // Issue 18: the clock's durations are those of `--time`, and a bad one is named.
    one_line_failure(
        &["--clock", "5m+3q"],
        "\"5m+3q\" is not a time control: \"3q\" is not a duration",
    );
    one_line_failure(
        &["--defenders", "ai:max:3q"],
        "\"ai:max:3q\" is not a player: \"3q\" is not a duration",
    );
    one_line_failure(
        &["--clock", "0s"],
        "\"0s\" is not a time control: the main time must be more than zero",
    );
    one_line_failure(
        &["--load", "x.json", "--clock", "5m"],
        "cannot be used with",
    );
}

#[test]
fn games_to_continue_must_exist_and_be_valid() {
    one_line_failure(
        &["play", "--load", "/no/such/game.json"],
        "/no/such/game.json",
    );
    one_line_failure(&["--resume"], "--resume: no unfinished game in ");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"something else\"}").unwrap();
    let (code, stderr) = run(&["play", "--load", bad.to_str().unwrap()], dir.path());
    assert_eq!(code, Some(2));
    assert!(stderr.contains("bad.json"), "{stderr}");
}

#[test]
fn a_file_of_no_kind_read_is_named_for_what_it_is_not() {
    // Saves, OpenTafl records and move records are all read: garbage is none of them, not
    // merely "not valid JSON".
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("notes.txt");
    std::fs::write(&garbage, "\n  hello d1-c1\n").unwrap();
    let file = garbage.to_str().unwrap();
    let expected = format!(
        "brandubh: {file}: not a saved game, an OpenTafl record or a move record: \
         line 2 column 3: \"hello\" starts none of them\n"
    );
    let (code, stderr) = run(&["play", "--load", file], dir.path());
    assert_eq!((code, stderr.as_str()), (Some(2), expected.as_str()));
    for args in [
        vec!["replay", file],
        vec!["analyze", file],
        vec!["analyze", file, "--game"],
        vec!["export", file, "--format", "otg"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_brandubh"))
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            (out.status.code(), stderr.as_str()),
            (Some(2), expected.as_str()),
            "{args:?}"
        );
    }
}

#[test]
fn the_save_folder_flag_overrides_the_environment() {
    let env_dir = tempfile::tempdir().unwrap();
    let flag_dir = tempfile::tempdir().unwrap();
    let flag = flag_dir.path().to_str().unwrap();
    let (code, stderr) = run(&["play", "--save-dir", flag, "--resume"], env_dir.path());
    assert_eq!(code, Some(2));
    let expected = format!(
        "--resume: no unfinished game in {}",
        flag_dir.path().display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
}

#[test]
fn start_positions_are_checked() {
    one_line_failure(
        &["play", "--position", "/3t3/3t3/"],
        "--position \"/3t3/3t3/\": the board has 2 ranks, expected 7",
    );
    one_line_failure(
        &["--position", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ x"],
        "side to move \"x\" is not a or d",
    );
    one_line_failure(
        &["play", "--position", "/7/7/7/7/7/7/7/ a"],
        "the game is already over in this position",
    );
    // Encircled defenders to move: over under standard rules, playable under walker's.
    let encircled = "/7/1ttttt1/1tTKTt1/1t3t1/1ttttt1/7/7/ d";
    one_line_failure(&["play", "--position", encircled], "already over");
    one_line_failure(
        &["play", "--rules", "walker", "--position", encircled],
        "needs a terminal",
    );
    one_line_failure(
        &["play", "--position", encircled, "--load", "x.json"],
        "cannot be used with",
    );
}
