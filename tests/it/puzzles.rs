//! Puzzles: the trainer's judgement, the record, and the shipped sets re-verified.

use std::time::Instant;

use brandubh::puzzle::{
    Goal, Puzzle, PuzzleError, PuzzleSet, Solver, Verdict, canonical_key, judge, shipped,
};
use brandubh::rules::{GameState, Move, Preset};

fn game(position: &str) -> GameState {
    GameState::new(Preset::Standard.rules(), position.parse().unwrap())
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// King c2, attackers b5 and g5, defenders to move: a win in two (see `puzzle_solve`).
const DOUBLE_THREAT: &str = "/7/2K4/7/7/1t4t/7/7/ d";

#[test]
fn a_move_that_keeps_the_win_gets_the_longest_resistance() {
    let state = game(DOUBLE_THREAT);
    let verdict = judge(&mut Solver::new(), &state, mv("c2-c1"), Goal::Win, 2);
    let Verdict::Good { reply } = verdict else {
        panic!("{verdict:?}")
    };
    // Every reply loses at once; the first listed is the one given.
    let mut after = state.clone();
    after.play(mv("c2-c1")).unwrap();
    assert!(after.legal_moves().contains(&reply));
}

#[test]
fn a_wrong_move_is_explained_by_its_refutation() {
    let state = game(DOUBLE_THREAT);
    let verdict = judge(&mut Solver::new(), &state, mv("c2-g2"), Goal::Win, 2);
    assert_eq!(
        verdict,
        Verdict::Wrong {
            why: "this lets the attackers take the king by g5-g3 in 1".to_owned(),
            refutation: vec![mv("g5-g3")],
        }
    );
}

#[test]
fn a_win_at_once_solves_and_a_quiet_last_move_does_not() {
    let state = game("/7/7/7/7/7/7/2K1t2/ d");
    let mut solver = Solver::new();
    assert_eq!(
        judge(&mut solver, &state, mv("c7-a7"), Goal::Win, 1),
        Verdict::Solved
    );
    let Verdict::Wrong { why, .. } = judge(&mut solver, &state, mv("c7-c6"), Goal::Win, 1) else {
        panic!("c7-c6 does not win")
    };
    assert_eq!(why, "this does not end the game");
}

#[test]
fn the_hold_is_solved_by_the_only_move_and_a_miss_shows_the_escape() {
    let state = game("/5t1/7/2t3t/7/7/7/3KT2/ a");
    let mut solver = Solver::new();
    assert_eq!(
        judge(&mut solver, &state, mv("c3-c7"), Goal::Hold, 1),
        Verdict::Solved
    );
    let verdict = judge(&mut solver, &state, mv("g3-g2"), Goal::Hold, 1);
    assert_eq!(
        verdict,
        Verdict::Wrong {
            why: "this lets the king reach a7 in 1".to_owned(),
            refutation: vec![mv("d7-a7")],
        }
    );
}

fn puzzle(position: &str, solution: &str, moves: u8) -> Puzzle {
    let (record, side) = position.split_once(' ').unwrap();
    Puzzle {
        id: "test-1".to_owned(),
        preset: Preset::Standard,
        position: record.to_owned(),
        side: if side == "d" {
            brandubh::rules::Side::Defenders
        } else {
            brandubh::rules::Side::Attackers
        },
        goal: Goal::Win,
        moves,
        solution: solution.to_owned(),
        grade: brandubh::puzzle::Grade::Medium,
        rating: 1100,
        tempting: 0,
        engine_depth: 1,
        source: "hand-made".to_owned(),
    }
}

#[test]
fn verification_refuses_a_puzzle_with_two_solutions_or_the_wrong_length() {
    let mut solver = Solver::new();
    let two = puzzle(DOUBLE_THREAT, "c2-c1", 2);
    assert!(matches!(
        two.verify(&mut solver),
        Err(PuzzleError::NotUnique(_))
    ));
    let long = puzzle(DOUBLE_THREAT, "c2-c1", 3);
    assert_eq!(long.verify(&mut solver), Err(PuzzleError::NotExact));
    let one = puzzle("/7/7/7/7/7/7/2K1t2/ d", "c7-a7", 1);
    assert_eq!(one.verify(&mut solver), Ok(()));
}

#[test]
fn a_set_round_trips_through_json_and_refuses_an_illegal_solution() {
    let set = PuzzleSet::new(Preset::Standard, vec![puzzle(DOUBLE_THREAT, "c2-c1", 2)]);
    assert_eq!(PuzzleSet::from_json(&set.to_json()).unwrap(), set);
    let bad = PuzzleSet::new(Preset::Standard, vec![puzzle(DOUBLE_THREAT, "c2-d3", 2)]);
    let error = PuzzleSet::from_json(&bad.to_json()).unwrap_err();
    assert!(
        error.to_string().starts_with("puzzle test-1: bad solution"),
        "{error}"
    );
}

/// At least this many puzzles ship for `standard`, and for every other preset.
const SHIPPED_STANDARD: usize = 300;
const SHIPPED_OTHER: usize = 100;
/// Puzzles of each preset re-verified on every run (spread over the set).
const SAMPLE_PER_PRESET: usize = 6;

fn verify_all(sample: Option<usize>) {
    for preset in Preset::ALL {
        let set = shipped(preset).unwrap();
        let least = if preset == Preset::Standard {
            SHIPPED_STANDARD
        } else {
            SHIPPED_OTHER
        };
        assert!(
            set.puzzles.len() >= least,
            "{preset}: {}",
            set.puzzles.len()
        );
        let mut keys = std::collections::HashSet::new();
        for p in &set.puzzles {
            let state = p.start().unwrap();
            assert!(
                keys.insert(canonical_key(state.position())),
                "{}: a symmetric twin",
                p.id
            );
        }
        let step = sample.map_or(1, |n| (set.puzzles.len() / n).max(1));
        for p in set.puzzles.iter().step_by(step) {
            assert_eq!(p.verify(&mut Solver::new()), Ok(()), "{}", p.id);
        }
    }
}

#[test]
fn a_sample_of_the_shipped_puzzles_verifies() {
    verify_all(Some(SAMPLE_PER_PRESET));
}

#[test]
#[ignore = "every shipped puzzle: minutes in a debug build"]
fn every_shipped_puzzle_verifies() {
    let began = Instant::now();
    verify_all(None);
    eprintln!("verified every shipped puzzle in {:?}", began.elapsed());
}

fn rated(id: &str, rating: u32) -> Puzzle {
    Puzzle {
        id: id.to_owned(),
        rating,
        ..puzzle(DOUBLE_THREAT, "c2-c1", 2)
    }
}

#[test]
fn progress_counts_streaks_and_moves_the_rating_by_elo() {
    use brandubh::puzzle::{Attempt, Progress, START_RATING};
    let mut progress = Progress::default();
    progress.record(&rated("a", 1400), Attempt::Solved);
    progress.record(&rated("b", 800), Attempt::Solved);
    assert_eq!((progress.solved(), progress.streak()), (2, 2));
    // A win over a harder puzzle gains more than one over an easier one.
    let mut easy = Progress::default();
    easy.record(&rated("b", 800), Attempt::Solved);
    let mut hard = Progress::default();
    hard.record(&rated("a", 1400), Attempt::Solved);
    assert!(hard.rating() > easy.rating() && f64::from(easy.rating()) > START_RATING);
    progress.record(&rated("c", 1000), Attempt::Failed);
    assert_eq!(
        (progress.failed(), progress.streak(), progress.best_streak()),
        (1, 0, 2)
    );
    // Only the first attempt at a puzzle moves the rating.
    let before = progress.rating();
    progress.record(&rated("c", 1000), Attempt::Solved);
    assert_eq!(progress.rating(), before);
}

#[test]
fn the_next_puzzle_is_untried_and_a_little_under_the_players_rating() {
    use brandubh::puzzle::{Attempt, Progress};
    let set = [rated("a", 800), rated("b", 950), rated("c", 1600)];
    let mut progress = Progress::default();
    assert_eq!(progress.next(&set), Some(1));
    progress.record(&set[1], Attempt::Solved);
    assert_eq!(progress.next(&set), Some(0));
    // A new player (1000) gets the easy 800 before the 1100 nearer his rating.
    let shipped_like = [rated("hard", 1100), rated("easy", 800)];
    assert_eq!(Progress::default().next(&shipped_like), Some(1));
}

#[test]
fn progress_is_written_atomically_and_read_back() {
    use brandubh::puzzle::{Attempt, Progress};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles").join("progress.json");
    let mut progress = Progress::default();
    progress.record(&rated("a", 1200), Attempt::Solved);
    brandubh::game::storage::write_json_atomic(&path, &progress).unwrap();
    assert_eq!(brandubh::tui::load_progress(&path), (progress, None));
    assert_eq!(
        brandubh::tui::load_progress(&dir.path().join("none")),
        (Progress::default(), None)
    );
}

#[test]
fn a_corrupt_progress_file_starts_fresh_with_a_one_line_warning() {
    use brandubh::puzzle::Progress;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("progress.json");
    for text in [
        "{\"solved\": 3,",
        "not json\nat all",
        "{\"solved\": \"many\"}",
        "",
    ] {
        std::fs::write(&path, text).unwrap();
        let (progress, warning) = brandubh::tui::load_progress(&path);
        assert_eq!(progress, Progress::default(), "{text:?}");
        let warning = warning.unwrap_or_else(|| panic!("no warning for {text:?}"));
        assert!(!warning.contains('\n'), "{warning:?}");
        assert!(warning.contains("progress.json"), "{warning:?}");
    }
    // A folder where the file should be cannot be read either.
    let (progress, warning) = brandubh::tui::load_progress(dir.path());
    assert_eq!(progress, Progress::default());
    assert!(warning.is_some());
}

#[test]
fn every_shipped_set_starts_below_a_new_players_rating_and_rates_as_measured() {
    use brandubh::puzzle::{Difficulty, START_RATING};
    for preset in Preset::ALL {
        let set = shipped(preset).unwrap();
        for p in &set.puzzles {
            let measured = Difficulty {
                moves: p.moves,
                tempting: p.tempting,
                engine_depth: p.engine_depth,
            };
            assert_eq!(p.rating, measured.rating(), "{}", p.id);
            assert_eq!(p.grade, measured.grade(), "{}", p.id);
        }
        let easiest = set.puzzles.iter().map(|p| p.rating).min().unwrap();
        assert!(
            f64::from(easiest) < START_RATING,
            "{preset}: the easiest puzzle is rated {easiest}"
        );
    }
}

fn otg_data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/otg")
        .join(name)
}

#[test]
fn shipped_puzzles_survive_an_opentafl_record_round_trip() {
    // A few of each preset OpenTafl's rules strings can express, wins and holds.
    for preset in Preset::ALL.into_iter().filter(|&p| p != Preset::Nielsen) {
        let set = shipped(preset).unwrap();
        let holds = set.puzzles.iter().filter(|p| p.goal == Goal::Hold).take(1);
        let wins = set.puzzles.iter().filter(|p| p.goal == Goal::Win).take(2);
        for puzzle in holds.chain(wins) {
            let text = brandubh::puzzle::puzzle_to_otg(puzzle).unwrap();
            for tag in ["[puzzle-mode:strict]\n", "[puzzle-start:0a]\n"] {
                assert!(text.contains(tag), "{tag}\n{text}");
            }
            let back = brandubh::puzzle::puzzle_from_otg(text.as_bytes(), "ignored")
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", puzzle.id));
            assert_eq!(&back, puzzle, "{text}");
        }
    }
    let nielsen = &shipped(Preset::Nielsen).unwrap().puzzles[0];
    let refused = brandubh::puzzle::puzzle_to_otg(nielsen).unwrap_err();
    assert!(
        refused.to_string().contains("king safe on the edge"),
        "{refused}"
    );
}

#[test]
fn opentafl_puzzle_records_import_as_verified_puzzles_and_export_back() {
    let dir = tempfile::tempdir().unwrap();
    let set_path = dir.path().join("set.json");
    let set_arg = set_path.to_str().unwrap();
    let (hand, cooked, plain) = (
        otg_data("puzzle.otg"),
        otg_data("puzzle-cooked.otg"),
        otg_data("commented.otg"),
    );
    let out = crate::common::cli::success(&[
        "puzzles",
        "import",
        hand.to_str().unwrap(),
        cooked.to_str().unwrap(),
        plain.to_str().unwrap(),
        "--rules",
        "opentafl",
        "--out",
        set_arg,
    ]);
    assert!(
        out.contains(&format!(
            "{}: skipped: the solution does not verify: the goal is not reached in exactly its moves",
            cooked.display()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{}: skipped: no puzzle-mode tag (or puzzle-mode:none)",
            plain.display()
        )),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "1 puzzle for opentafl written to {set_arg}; 2 skipped\n"
        )),
        "{out}"
    );
    let set = PuzzleSet::from_json(&std::fs::read_to_string(&set_path).unwrap()).unwrap();
    let [puzzle] = &set.puzzles[..] else {
        panic!("{set:?}")
    };
    // The position after the lead-in move `1a` (e7-e6), the defenders to find the run to the
    // corner: the main line's next move.
    assert_eq!(puzzle.id, "puzzle");
    assert_eq!(puzzle.position, "/7/2Tt1t1/7/3Kt1t/1T1t3/4t2/7/");
    assert_eq!(puzzle.side, brandubh::rules::Side::Defenders);
    assert_eq!((puzzle.goal, puzzle.moves), (Goal::Win, 2));
    assert_eq!(puzzle.solution, "d4-a4");
    assert!(puzzle.verify(&mut Solver::new()).is_ok());
    // Exported to a folder and imported again, the set is the same.
    let records = dir.path().join("records");
    let said =
        crate::common::cli::success(&["puzzles", "export", set_arg, records.to_str().unwrap()]);
    assert!(said.starts_with("1 puzzle written to "), "{said}");
    // Every record skipped: nothing is written, and the exit code says so.
    let none = dir.path().join("none.json");
    let failed = crate::common::cli::failure(&[
        "puzzles",
        "import",
        plain.to_str().unwrap(),
        "--out",
        none.to_str().unwrap(),
    ]);
    assert!(failed.contains("no puzzle read (1 skipped)"), "{failed}");
    assert!(!none.exists());
    let record = records.join("puzzle.otg");
    let again = dir.path().join("again.json");
    crate::common::cli::success(&[
        "puzzles",
        "import",
        record.to_str().unwrap(),
        "--rules",
        "opentafl",
        "--out",
        again.to_str().unwrap(),
    ]);
    let again = PuzzleSet::from_json(&std::fs::read_to_string(&again).unwrap()).unwrap();
    assert_eq!(again, set);
}

#[test]
fn a_generated_set_holds_one_puzzle_per_game_and_answer() {
    use brandubh::puzzle::{GenerateConfig, generate};
    // Seed 2026's third game gave two puzzles two plies apart with the same answer.
    let config = GenerateConfig {
        preset: Preset::Standard,
        count: 7,
        seed: 2026,
        max_games: 10,
    };
    let made = generate(config, &mut |_| {});
    let mut seen = std::collections::HashSet::new();
    for puzzle in &made.puzzles {
        let game = puzzle.source.rsplit_once(", ply").unwrap().0;
        assert!(
            seen.insert((game.to_owned(), puzzle.solution.clone())),
            "{} repeats an answer of its game: {:?}",
            puzzle.id,
            made.puzzles
        );
    }
}
