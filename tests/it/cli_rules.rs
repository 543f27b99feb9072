//! The `perft` and `replay` commands, run as a user runs them, on games checked by hand; the
//! presets and the help as the command line lists them.

use crate::common;

use common::cli::{failure, success};

/// Runs a command that must succeed and returns its output lines.
fn lines(args: &[&str]) -> Vec<String> {
    success(args).lines().map(str::to_owned).collect()
}

#[test]
fn perft_prints_the_count_on_its_last_line() {
    assert_eq!(lines(&["perft", "--depth", "3"]), ["39512"]);
    assert_eq!(
        lines(&[
            "perft",
            "--depth",
            "3",
            "--rules",
            "opentafl",
            "--threads",
            "2"
        ]),
        ["39512"]
    );
    let divided = lines(&["perft", "--depth", "2", "--divide"]);
    assert_eq!(divided.len(), 41);
    assert_eq!(divided[0], "d1-b1: 24");
    assert_eq!(divided.last().map(String::as_str), Some("960"));
    let sum: u64 = divided[..40]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 960);
    assert_eq!(
        lines(&[
            "perft",
            "--depth",
            "1",
            "--position",
            "/3t3/7/1tT1Tt1/7/7/K6/7/ d"
        ]),
        ["26"]
    );
}

#[test]
fn perft_rejects_bad_input_in_one_line() {
    assert_eq!(
        failure(&["perft", "--depth", "2", "--position", "/3t3/3t3/"]),
        "brandubh: --position \"/3t3/3t3/\": the board has 2 ranks, expected 7 separated by /"
    );
    assert!(failure(&["perft", "--depth", "x"]).contains("invalid value 'x'"));
    let huge = "x".repeat(100_000);
    let message = failure(&["perft", "--depth", "1", "--position", &huge]);
    assert!(message.len() < 200, "{message}");
    let message = failure(&["replay", "--moves", &huge]);
    assert!(message.len() < 200, "{message}");
    assert_eq!(
        failure(&["perft", "--depth", "2", "--rules", "chess"]),
        "brandubh: invalid value 'chess' for '--rules <RULES>' [possible values: standard, \
         walker, nielsen, fellhuhn, opentafl]"
    );
    assert!(failure(&["perft"]).contains("--depth"));
}

/// The king walks out through c4 and c7 to a7 (standard rules).
const ESCAPE: &str = "a4-a3 c4-c2 d7-e7 d4-c4 e7-e6 c4-c7 a3-a2 c7-a7";

#[test]
fn replay_of_an_escape() {
    assert_eq!(
        lines(&["replay", "--moves", ESCAPE]),
        [
            "a4-a3",
            "c4-c2",
            "d7-e7",
            "d4-c4",
            "e7-e6",
            "c4-c7",
            "a3-a2",
            "c7-a7--",
            "result: defenders king-escaped"
        ]
    );
}

#[test]
fn replay_of_a_king_capture() {
    let moves = "a4-a5 c4-c2 b4-b5 d4-b4 a5-a4 e4-e6 f4-c4";
    assert_eq!(
        lines(&["replay", "--moves", moves]),
        [
            "a4-a5",
            "c4-c2",
            "b4-b5",
            "d4-b4",
            "a5-a4",
            "e4-e6",
            "f4-c4++",
            "result: attackers king-captured"
        ]
    );
    for annotated in ["f4-c4++", "f4-c4xb4++", "f4-c4"] {
        let moves = format!("a4-a5 c4-c2 b4-b5 d4-b4 a5-a4 e4-e6 {annotated}");
        assert_eq!(
            lines(&["replay", "--moves", &moves]).len(),
            8,
            "{annotated}"
        );
    }
    let wrong = "a4-a5 c4-c2 b4-b5 d4-b4 a5-a4 e4-e6 f4-c4xa4++";
    assert_eq!(
        failure(&["replay", "--moves", wrong]),
        "brandubh: move 7 \"f4-c4xa4++\": captures a4 listed, but the move captures nothing"
    );
}

#[test]
fn replay_of_a_repetition_under_three_presets() {
    let moves = "d1-c1 e4-e5 c1-d1 e5-e4 d1-c1 e4-e5 c1-d1 e5-e4";
    let results = [
        ("standard", "result: attackers repetition"),
        ("fellhuhn", "result: defenders repetition"),
        ("opentafl", "result: draw repetition"),
    ];
    for (preset, result) in results {
        let out = lines(&["replay", "--rules", preset, "--moves", moves]);
        assert_eq!(out.len(), 9);
        assert_eq!(out[8], result, "{preset}");
    }
    // In words: the defenders' e5-e4 made the start position occur a third time.
    let whys = [
        ("standard", "threefold repetition by the defenders"),
        (
            "fellhuhn",
            "threefold repetition by the defenders; the attackers began the cycle",
        ),
        ("opentafl", "threefold repetition by the defenders"),
        (
            "nielsen",
            "threefold repetition by the defenders, which loses for the defenders",
        ),
    ];
    for (preset, why) in whys {
        let out = success(&["replay", "--rules", preset, "--moves", moves, "--json"]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["why"], why, "{preset}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&success(&["replay", "--moves", "d1-c1", "--json"])).unwrap();
    assert_eq!(json["why"], serde_json::Value::Null);
}

#[test]
fn replay_of_a_double_capture_from_a_position() {
    let out = lines(&[
        "replay",
        "--position",
        "/3t3/7/1tT1Tt1/7/7/K6/7/ a",
        "--moves",
        "d1-d3 a6-a7",
    ]);
    assert_eq!(
        out,
        ["d1-d3xc3/e3", "a6-a7--", "result: defenders king-escaped"]
    );
}

#[test]
fn replay_of_an_unfinished_game_and_as_json() {
    assert_eq!(
        lines(&["replay", "--moves", "d1-c1 e4-e5"]),
        ["d1-c1", "e4-e5", "result: ongoing"]
    );
    let out = success(&["replay", "--moves", ESCAPE, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["moves"].as_array().map(Vec::len), Some(8));
    assert_eq!(json["moves"][7], "c7-a7--");
    assert_eq!(json["result"], "defenders king-escaped");
    assert_eq!(json["winner"], "defenders");
    assert_eq!(json["reason"], "king-escaped");
    assert_eq!(json["rules"], "standard");
}

#[test]
fn replay_reports_the_first_bad_move_with_its_number() {
    let cases = [
        (
            "d1-c1 e4-e5 d2-d9",
            "brandubh: move 3 \"d2-d9\": d9 is not on the board (a1 to g7)",
        ),
        (
            "d1-d3",
            "brandubh: move 1 \"d1-d3\": illegal move: d1-d3 is blocked by the piece on d2",
        ),
        (
            "d1-c1xc2",
            "brandubh: move 1 \"d1-c1xc2\": captures c2 listed, but the move captures nothing",
        ),
        (
            "d1-c1 e4-e5 c1",
            "brandubh: move 3 \"c1\": \"c1\" is not a move (expected a form like d2-d5 or d2-d5xd6)",
        ),
        (
            "d1-c1--",
            "brandubh: move 1 \"d1-c1--\": end mark given, but the move d1-c1 does not end the game",
        ),
    ];
    for (moves, message) in cases {
        assert_eq!(failure(&["replay", "--moves", moves]), message, "{moves}");
    }
    let after_end = format!("{ESCAPE} a2-a3");
    assert_eq!(
        failure(&["replay", "--moves", &after_end]),
        "brandubh: move 9 \"a2-a3\": illegal move: the game is over"
    );
}

#[test]
fn rules_are_named_presets_each_with_a_line_of_help() {
    for preset in ["standard", "walker", "nielsen", "fellhuhn", "opentafl"] {
        let out = success(&["replay", "--rules", preset, "--moves", "d1-c1", "--json"]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["rules"], preset);
    }
    let help = success(&["perft", "--help"]);
    assert!(help.contains("[default: standard]"), "{help}");
    for line in [
        "- standard: The weak-king rules of the common English rules page (the default)",
        "- nielsen:  Aage Nielsen's reconstruction: the king safe on the edge",
        "- opentafl: OpenTafl's built-in Brandub rules: repetition draws",
    ] {
        assert!(help.contains(line), "{line}\n{help}");
    }
}

#[test]
fn help_is_given_by_command_and_by_flag_alike() {
    // Help on `help` itself, as `git help --help` gives it.
    let help = success(&["help", "--help"]);
    assert!(help.contains("Usage: brandubh help [COMMAND]"), "{help}");
    assert!(success(&["help", "-h"]).contains("Usage: brandubh help [COMMAND]"));
    assert_eq!(success(&["help", "help"]), help);
    for command in [
        "play", "perft", "replay", "analyze", "export", "match", "otep", "help",
    ] {
        assert_eq!(
            success(&["help", command]),
            success(&[command, "--help"]),
            "{command}"
        );
    }
    assert_eq!(success(&["help"]), success(&["--help"]));
    let listed = success(&["--help"]);
    assert!(listed.contains("  help  "), "{listed}");
    let refused = failure(&["help", "nope"]);
    assert!(refused.contains("\"nope\" is not a command"), "{refused}");
}
