//! The `analyze` and `match` commands, run as a user runs them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

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
        text.contains("random as attackers: 0 wins, 1 draws, 0 losses"),
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
