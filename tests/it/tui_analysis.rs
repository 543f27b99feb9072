//! The terminal game's analysis against the command line's: every example game analyzed by
//! the terminal game (through its AI worker, as the player's `a` runs it) and by `brandubh
//! analyze FILE --game --json` at the same depth gives the same classes, marks, scores and
//! best moves.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use brandubh::ai::{Budget, Limits};
use brandubh::tui::{Action, Config, Mode, Runtime, Session};
use serde_json::Value;

/// The depth both analyze every position to.
const DEPTH: u32 = 3;

/// One move's analysis as both show it: class, only move, scores before and after (for the
/// mover), best move.
type Judgement = (String, bool, i32, i32, String);

/// Starts `brandubh analyze FILE --game --depth DEPTH --json` on `path`.
fn start_command_line(path: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["analyze", path.to_str().unwrap(), "--game", "--depth"])
        .arg(DEPTH.to_string())
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// What the command line said of each move.
fn command_line(child: Child) -> Vec<Judgement> {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    json["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let score = |field: &str| i32::try_from(p[field].as_i64().unwrap()).unwrap();
            (
                p["class"].as_str().unwrap().to_owned(),
                p["only_move"].as_bool().unwrap(),
                score("score_before"),
                score("score_after"),
                p["best"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// What the terminal game says of each move after `a` and Enter in the review of `path`.
fn terminal_game(path: &Path) -> Vec<Judgement> {
    let mut app = Runtime::new(Config {
        resume: Some(Session::load(path).unwrap()),
        analysis_budgets: vec![Budget::Limits(Limits::depth(DEPTH))],
        ..Config::default()
    })
    .unwrap();
    assert_eq!(
        app.app().mode(),
        Mode::Review,
        "a finished game opens in review"
    );
    app.update(Action::Analyze);
    app.update(Action::Confirm);
    let deadline = Instant::now() + Duration::from_secs(120);
    let analysis = loop {
        let analysis = app.app().session().game().analysis();
        if analysis.iter().all(Option::is_some) {
            break analysis.iter().flatten();
        }
        assert!(Instant::now() < deadline, "{}: no analysis", path.display());
        app.tick(Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(5));
    };
    analysis
        .map(|a| {
            (
                a.class.name().to_owned(),
                a.only_move,
                a.score_before.value(),
                a.score_after.value(),
                a.best.to_string(),
            )
        })
        .collect()
}

#[test]
fn the_terminal_game_and_the_command_line_judge_the_example_games_alike() {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/games"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let mut classes = std::collections::BTreeSet::new();
    for path in files {
        // Both at once: the command line in its process, the terminal game on its worker.
        let child = start_command_line(&path);
        let tui = terminal_game(&path);
        let cli = command_line(child);
        assert_eq!(tui, cli, "{}", path.display());
        classes.extend(cli.into_iter().map(|(class, ..)| class));
    }
    // The comparison covers more than one class.
    assert!(classes.len() >= 4, "{classes:?}");
}
