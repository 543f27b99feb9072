//! `brandubh analyze FILE --game`, run as a user runs it: one line per ply and a summary per
//! side, or one JSON object, with the classes the library gives.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use brandubh::ai::{Analyzer, Budget, Limits};
use brandubh::game::storage;
use common::cli::{failure, success};
use serde_json::Value;

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/games")
        .join(name)
}

fn asset_text(name: &str) -> String {
    asset(name).to_str().unwrap().to_owned()
}

/// The game's moves as `replay` prints them.
fn moves(name: &str) -> Vec<String> {
    let text = success(&["replay", &asset_text(name)]);
    let lines: Vec<&str> = text.lines().collect();
    lines[..lines.len() - 1]
        .iter()
        .map(|l| (*l).to_owned())
        .collect()
}

#[test]
fn text_has_a_line_per_ply_then_a_summary_per_side() {
    let text = success(&[
        "analyze",
        &asset_text("escape.json"),
        "--game",
        "--depth",
        "2",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    let moves = moves("escape.json");
    assert_eq!(lines.len(), 1 + moves.len() + 2, "{text}");
    assert!(lines[0].split_whitespace().eq([
        "ply", "side", "move", "before", "after", "best", "best", "score", "class"
    ]));
    let mut counts = [[0; 3]; 2];
    for (i, line) in lines[1..=moves.len()].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], (i + 1).to_string(), "{line}");
        let side = ["attackers", "defenders"][i % 2];
        assert_eq!(words[1], side, "{line}");
        let played = words[2].trim_end_matches(['?', '!']);
        assert_eq!(played, moves[i], "{line}");
        let class = *words.last().unwrap();
        let mark = &words[2][played.len()..];
        let expected_mark = match class {
            "inaccuracy" => "?!",
            "mistake" => "?",
            "blunder" => "??",
            "best" => {
                assert!(mark.is_empty() || mark == "!", "{line}");
                mark
            }
            "good" => "",
            other => panic!("unknown class {other} in {line}"),
        };
        assert_eq!(mark, expected_mark, "{line}");
        if let Some(k) = ["inaccuracy", "mistake", "blunder"]
            .iter()
            .position(|c| *c == class)
        {
            counts[i % 2][k] += 1;
        }
    }
    // The last move escapes: the score after it is the won game.
    assert!(
        lines[moves.len()].contains(" won "),
        "{}",
        lines[moves.len()]
    );
    for (side, count) in ["attackers", "defenders"].iter().zip(counts) {
        let summary = lines.iter().find(|l| l.starts_with(side)).unwrap();
        let expected = format!(
            "{side}: 8 moves, {} {}, {} {}, {} {}, average loss ",
            count[0],
            if count[0] == 1 {
                "inaccuracy"
            } else {
                "inaccuracies"
            },
            count[1],
            if count[1] == 1 { "mistake" } else { "mistakes" },
            count[2],
            if count[2] == 1 { "blunder" } else { "blunders" },
        );
        assert!(summary.starts_with(&expected), "{summary} vs {expected}");
    }
}

#[test]
fn json_has_the_documented_keys_and_consecutive_scores() {
    let text = success(&[
        "analyze",
        &asset_text("king-capture.json"),
        "--game",
        "--depth",
        "2",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let plies = v["plies"].as_array().unwrap();
    let moves = moves("king-capture.json");
    assert_eq!(plies.len(), moves.len());
    for (i, ply) in plies.iter().enumerate() {
        for key in [
            "ply",
            "move",
            "side",
            "score_before",
            "score_after",
            "best",
            "best_score",
            "class",
            "pv",
        ] {
            assert!(!ply[key].is_null(), "ply {i} lacks {key}: {ply}");
        }
        assert_eq!(ply["ply"], i + 1);
        assert_eq!(ply["move"], moves[i]);
        assert_eq!(ply["side"], ["attackers", "defenders"][i % 2]);
        assert_eq!(ply["best_score"], ply["score_before"]);
        assert_eq!(ply["pv"][0], ply["best"]);
        if let Some(next) = plies.get(i + 1) {
            let after = ply["score_after"].as_i64().unwrap();
            assert_eq!(after, -next["score_before"].as_i64().unwrap());
        }
    }
    // The king is captured by the last move: a won game is worth 30000.
    assert_eq!(plies.last().unwrap()["score_after"], 30_000);
    for side in ["attackers", "defenders"] {
        let summary = &v["summary"][side];
        for key in ["moves", "inaccuracies", "mistakes", "blunders"] {
            assert!(summary[key].is_u64(), "{side} {key}: {summary}");
        }
        assert!(summary["average_loss"].is_f64(), "{summary}");
        let blunders = plies
            .iter()
            .filter(|p| p["side"] == side && p["class"] == "blunder")
            .count();
        assert_eq!(summary["blunders"], blunders);
    }
}

#[test]
fn the_command_line_gives_the_librarys_classes() {
    for name in ["encirclement.json", "repetition.json"] {
        let text = success(&[
            "analyze",
            &asset_text(name),
            "--game",
            "--depth",
            "3",
            "--json",
        ]);
        let v: Value = serde_json::from_str(&text).unwrap();
        let from_cli: Vec<&str> = v["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["class"].as_str().unwrap())
            .collect();
        let game = storage::load(&asset(name)).unwrap();
        let stop = AtomicBool::new(false);
        let plies = Analyzer::default()
            .analyze(&game, Budget::Limits(Limits::depth(3)), &stop, &mut |_| {})
            .unwrap();
        let from_library: Vec<&str> = plies.iter().map(|p| p.class.name()).collect();
        assert_eq!(from_cli, from_library, "{name}");
    }
}

#[test]
fn bad_input_is_refused_in_one_line() {
    assert!(failure(&["analyze", "--game"]).contains("<FILE>"));
    assert!(failure(&["analyze", "--game", "--depth", "2"]).contains("<FILE>"));
    let missing = failure(&["analyze", "nowhere.json", "--game"]);
    assert!(missing.contains("cannot read the file"), "{missing}");
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analysis-bad-line.json");
    let bad = failure(&["analyze", bad.to_str().unwrap(), "--game"]);
    assert!(bad.contains("analysis of move 1: pv move 2"), "{bad}");
    failure(&[
        "analyze",
        &asset_text("escape.json"),
        "--game",
        "--time",
        "1s",
        "--depth",
        "2",
    ]);
    failure(&[
        "analyze",
        &asset_text("escape.json"),
        "--game",
        "--time",
        "soon",
    ]);
}
