//! Whole-game analysis: classes on hand-built positions with a known right answer, exact
//! results at the end of a game, repetition history, progress and stopping, and saving an
//! analysis with its game.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use brandubh::ai::{AnalysisEvent, Analyzer, Budget, Limits, Progress, Stopped};
use brandubh::game::{Game, MoveClass, Player, PlyAnalysis, Score, Summary, storage};
use brandubh::rules::{Move, Position, Preset, Side};

/// A game under the standard rules from `position`, with `moves` played.
fn game(position: &str, moves: &str) -> Game {
    let start: Position = position.parse().expect("valid position");
    let mut game = Game::new(
        Preset::Standard.rules(),
        start,
        Player::Human,
        Player::Human,
    );
    for mv in moves.split_whitespace() {
        game.play_text(mv).expect("legal move");
    }
    game
}

fn asset(name: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/games")
        .join(name);
    storage::load(&path).expect("an example game")
}

/// Every ply of `game` analyzed to `depth` by a fresh analyzer.
fn analyze(game: &Game, depth: u32) -> Vec<PlyAnalysis> {
    let stop = AtomicBool::new(false);
    Analyzer::default()
        .analyze(
            game,
            Budget::Limits(Limits::depth(depth)),
            &stop,
            &mut |_| {},
        )
        .expect("not stopped")
}

fn mv(text: &str) -> Move {
    text.parse().expect("a move")
}

/// Attackers to move; the king on a3 is held by the attacker on a2 (a1 behind it) and the one
/// on b3; the defender on a4 shields him. Every attacker is on the board.
const HELD_KING: &str = "/3t3/t3t2/Kt5/T3T1t/2t4/5t1/3t3/ a";
/// The same with a2 empty: the king sees a1.
const OPEN_CORNER: &str = "/3t3/4t2/Kt5/T3T1t/2t4/5t1/3t3/ a";
/// The same with the defenders to move.
const OPEN_CORNER_DEFENDERS: &str = "/3t3/4t2/Kt5/T3T1t/2t4/5t1/3t3/ d";

#[test]
fn a_move_into_a_forced_loss_is_a_blunder() {
    // a2-b2 lets the king out through a1.
    let [ply] = analyze(&game(HELD_KING, "a2-b2"), 4).try_into().unwrap();
    assert!(!ply.score_before.is_loss(), "{}", ply.score_before);
    assert_eq!(ply.score_after, Score::Loss(1));
    assert_ne!(ply.best.mv, mv("a2-b2"));
    assert_eq!((ply.class, ply.mark()), (MoveClass::Blunder, "??"));
    assert!(!ply.only_move);
    assert!(ply.loss() >= 1000, "{}", ply.loss());
}

#[test]
fn a_quiet_move_that_keeps_the_score_is_not_a_mistake() {
    // (In the held king's position every quiet move is a blunder: g4-f4 takes e4 against
    // the empty throne and wins in 4.)
    let [ply] = analyze(&game(brandubh::rules::START, "b4-b3"), 4)
        .try_into()
        .unwrap();
    assert!(ply.class < MoveClass::Mistake, "{ply:?}");
    assert!(!ply.score_after.is_loss());
}

#[test]
fn a_missed_win_in_one_that_leaves_no_forced_win_is_a_blunder() {
    // The king could walk into a1; after e4-e3 the attackers block a2 in time.
    let [ply] = analyze(&game(OPEN_CORNER_DEFENDERS, "e4-e3"), 4)
        .try_into()
        .unwrap();
    assert_eq!(ply.score_before, Score::Win(1));
    assert_eq!(ply.best.to_string(), "a3-a1--");
    assert!(!ply.score_after.is_win(), "{}", ply.score_after);
    assert_eq!(ply.class, MoveClass::Blunder);
}

#[test]
fn the_only_move_that_does_not_lose_is_marked() {
    // Only e2-a2 stops the king; every other move lets him out.
    for depth in [1, 4] {
        let [ply] = analyze(&game(OPEN_CORNER, "e2-a2"), depth)
            .try_into()
            .unwrap();
        assert_eq!(ply.best.mv, mv("e2-a2"), "depth {depth}");
        assert!(!ply.score_before.is_loss());
        assert!(ply.only_move, "depth {depth}");
        assert_eq!((ply.class, ply.mark()), (MoveClass::Best, "!"));
    }
}

#[test]
fn a_move_that_loses_is_never_an_only_move() {
    // Ply 13 of the example game, f6-f1: the engine's choice, the position before not yet
    // seen as lost at depth 5, every other move losing within the depth, and f6-f1 itself
    // losing in 7. Every move loses, so none is "the only move".
    let plies = analyze(&asset("king-capture.json"), 5);
    let ply = &plies[12];
    assert_eq!(ply.best.mv, mv("f6-f1"));
    assert_eq!(ply.class, MoveClass::Best);
    assert!(ply.score_after.is_loss(), "{}", ply.score_after);
    assert!(!ply.only_move);
    assert_eq!(ply.mark(), "");
    for (i, ply) in plies.iter().enumerate() {
        assert!(
            !(ply.only_move && ply.score_after.is_loss()),
            "ply {}",
            i + 1
        );
    }
}

#[test]
fn a_saved_only_move_that_loses_is_read_as_not_one() {
    // As an earlier build saved ply 13 of the example game: `!` on a move that loses in 7.
    let mut game = asset("king-capture.json");
    let ply = PlyAnalysis {
        score_before: Score::Eval(-869),
        score_after: Score::Loss(7),
        best: game.moves()[12],
        pv: vec![game.moves()[12]],
        class: MoveClass::Best,
        only_move: false,
        depth: 5,
    };
    game.set_analysis(12, &ply).unwrap();
    let text = game
        .to_json()
        .replace("\"only_move\": false", "\"only_move\": true");
    assert!(text.contains("\"only_move\": true"), "{text}");
    let loaded = Game::from_json(&text).unwrap();
    assert_eq!(loaded.analysis()[12].as_ref(), Some(&ply));
    // Where the scores allow it, the flag is kept.
    let held = PlyAnalysis {
        score_after: Score::Eval(-900),
        ..ply
    };
    game.set_analysis(12, &held).unwrap();
    let text = game
        .to_json()
        .replace("\"only_move\": false", "\"only_move\": true");
    let loaded = Game::from_json(&text).unwrap();
    assert!(loaded.analysis()[12].as_ref().unwrap().only_move);
}

#[test]
fn a_best_move_among_several_good_ones_is_not_an_only_move() {
    let position: Position = HELD_KING.parse().unwrap();
    let best = analyze(&game(HELD_KING, "d1-c1"), 4)[0].best;
    let plies = analyze(&game(HELD_KING, &best.to_string()), 4);
    assert_eq!(plies[0].class, MoveClass::Best);
    assert!(!plies[0].only_move && plies[0].mark().is_empty());
    assert!(position.legal_moves().len() > 2);
}

#[test]
fn a_move_that_keeps_a_forced_win_is_never_worse_than_good() {
    // The king sees a1 and the attackers cannot block it: a5-b5 wins later, not now.
    let plies = analyze(&game("/7/7/K1t4/7/T6/7/7/ d", "a5-b5 c3-c2"), 4);
    assert_eq!(plies[0].score_before, Score::Win(1));
    assert!(plies[0].score_after.is_win(), "{}", plies[0].score_after);
    assert_eq!(plies[0].class, MoveClass::Good);
    assert_eq!(plies[0].loss(), 0);
    // The attackers, lost either way, lose one ply sooner.
    assert!(plies[1].score_before.is_loss() && plies[1].class <= MoveClass::Good);
}

#[test]
fn a_game_ended_on_the_board_is_scored_from_its_outcome() {
    let game = asset("escape.json");
    let plies = analyze(&game, 2);
    assert_eq!(plies.len(), game.moves().len());
    let last = plies.last().unwrap();
    assert_eq!(last.score_after, Score::Win(0));
    assert_eq!(last.class, MoveClass::Best);
    // Consecutive searches: the score after a move is the next position's score, negated.
    for pair in plies.windows(2) {
        assert_eq!(pair[0].score_after, pair[1].score_before.negated());
    }
}

#[test]
fn repetitions_count_the_history_before_each_position() {
    // The attackers' last move repeats the position a third time, which loses them the game;
    // the search before it knows the two earlier occurrences and plays something else.
    let game = asset("repetition.json");
    let plies = analyze(&game, 2);
    let last = plies.last().unwrap();
    assert_eq!(last.score_after, Score::Loss(0));
    assert_ne!(last.best.mv, game.moves().last().unwrap().mv);
    assert_eq!(last.class, MoveClass::Blunder);
    assert!(!last.score_before.is_loss(), "{}", last.score_before);
}

#[test]
fn a_game_ended_on_the_board_has_no_last_position_to_search() {
    let escape = asset("escape.json");
    assert_eq!(Analyzer::positions(&escape), escape.moves().len());
    // Resigned: its last position is searched like any other.
    let resigned = asset("custom-rules-resignation.json");
    assert_eq!(Analyzer::positions(&resigned), resigned.moves().len() + 1);
    let empty = game(HELD_KING, "");
    assert_eq!(Analyzer::positions(&empty), 0);
}

#[test]
fn progress_and_plies_are_reported_as_they_come() {
    let game = game(HELD_KING, "d1-c1 a4-a5 c1-d1");
    let stop = AtomicBool::new(false);
    let mut events = Vec::new();
    let plies = Analyzer::default()
        .analyze(&game, Budget::Limits(Limits::depth(2)), &stop, &mut |e| {
            events.push(e);
        })
        .unwrap();
    let progress: Vec<Progress> = events
        .iter()
        .filter_map(|e| match e {
            AnalysisEvent::Progress(p) => Some(*p),
            AnalysisEvent::Ply { .. } => None,
        })
        .collect();
    let done: Vec<usize> = progress.iter().map(|p| p.done).collect();
    assert_eq!(
        done,
        [1, 2, 3, 4],
        "the last position and each one before it"
    );
    assert!(progress.iter().all(|p| p.total == 4));
    assert_eq!(Analyzer::positions(&game), 4);
    let reported: Vec<(usize, &PlyAnalysis)> = events
        .iter()
        .filter_map(|e| match e {
            AnalysisEvent::Ply { ply, analysis } => Some((*ply, analysis)),
            AnalysisEvent::Progress(_) => None,
        })
        .collect();
    assert_eq!(
        reported.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        [2, 1, 0]
    );
    for (ply, analysis) in reported {
        assert_eq!(&plies[ply], analysis);
    }
}

#[test]
fn a_stop_ends_the_analysis_with_the_plies_done_so_far() {
    let game = asset("escape.json");
    let stop = AtomicBool::new(false);
    let mut reported = 0;
    let result =
        Analyzer::default().analyze(&game, Budget::Limits(Limits::depth(3)), &stop, &mut |e| {
            if let AnalysisEvent::Ply { .. } = e {
                reported += 1;
                if reported == 2 {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
    assert_eq!(result, Err(Stopped));
    assert_eq!(reported, 2);
    stop.store(true, Ordering::Relaxed);
    let mut events = 0;
    let result = Analyzer::default().analyze(&game, Budget::Quick, &stop, &mut |_| events += 1);
    assert_eq!((result, events), (Err(Stopped), 0));
}

#[test]
fn a_game_without_moves_has_nothing_to_analyze() {
    assert!(analyze(&game(HELD_KING, ""), 3).is_empty());
}

#[test]
fn budgets_are_per_position() {
    let times = Budget::PRESETS.map(|b| b.limits().time.unwrap().as_millis());
    assert_eq!(times, [100, 500, 2000]);
    let custom = Limits::depth(3);
    assert_eq!(Budget::Limits(custom).limits(), custom);
    assert_eq!(
        Budget::PRESETS.map(Budget::name),
        ["quick", "normal", "deep"]
    );
}

#[test]
fn an_analysis_is_saved_with_its_game_and_read_back() {
    let mut game = asset("king-capture.json");
    let plies = analyze(&game, 2);
    assert!(!game.to_json().contains("\"analysis\""));
    for (i, ply) in plies.iter().enumerate().step_by(2) {
        game.set_analysis(i, ply).unwrap();
    }
    let text = game.to_json();
    assert!(text.contains("\"analysis\": ["), "{text}");
    assert!(text.contains("\"class\": \"blunder\""), "{text}");
    let loaded = Game::from_json(&text).unwrap();
    assert_eq!(loaded, game);
    assert_eq!(loaded.analysis().len(), game.moves().len());
    assert_eq!(loaded.analysis()[0].as_ref(), Some(&plies[0]));
    assert_eq!(loaded.analysis()[1], None);
    // The summary counts the analyzed moves: here only the attackers' (odd plies are theirs).
    let summary = loaded.analysis_summary();
    assert_eq!(
        summary,
        Summary::new(
            Side::Attackers,
            loaded.analysis().iter().map(Option::as_ref)
        )
    );
    assert_eq!(summary.attackers.moves, plies.len().div_ceil(2));
    assert_eq!(summary.defenders.moves, 0);
    assert_eq!(summary.defenders.average_loss(), None);
    let blunders = plies
        .iter()
        .step_by(2)
        .filter(|p| p.class == MoveClass::Blunder)
        .count();
    assert_eq!(summary.attackers.blunders, blunders);
}

#[test]
fn set_analysis_checks_the_ply_and_its_moves() {
    let mut game = asset("escape.json");
    let plies = analyze(&game, 2);
    let err = game.set_analysis(16, &plies[0]).unwrap_err();
    assert_eq!(err.to_string(), "there is no ply 16 in a game of 16 plies");
    // The first move's analysis does not fit the second position (the other side moves).
    let err = game.set_analysis(1, &plies[0]).unwrap_err();
    assert!(err.to_string().starts_with("best move \""), "{err}");
    assert!(game.analysis().iter().all(Option::is_none));
    game.set_analysis(1, &plies[1]).unwrap();
    assert_eq!(game.analysis()[1].as_ref(), Some(&plies[1]));
}

#[test]
fn undo_keeps_an_analysis_for_redo_and_a_new_move_drops_it() {
    let mut game = asset("escape.json");
    let plies = analyze(&game, 2);
    game.undo();
    let n = game.moves().len();
    game.set_analysis(n - 1, &plies[n - 1]).unwrap();
    assert!(game.undo());
    assert_eq!(game.analysis().len(), n - 1);
    assert!(game.redo());
    assert_eq!(game.analysis()[n - 1].as_ref(), Some(&plies[n - 1]));
    let undone = game.moves()[n - 1].mv;
    assert!(game.undo());
    let other = *game
        .state()
        .legal_moves()
        .iter()
        .find(|&&m| m != undone)
        .unwrap();
    game.play(other).unwrap();
    assert_eq!(game.analysis().len(), n);
    assert_eq!(game.analysis()[n - 1], None);
    assert!(!game.redo());
}

#[test]
fn a_side_line_is_analyzed_as_a_game_of_its_own_and_its_analysis_kept_on_its_moves() {
    let mut game = game("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a", "d2-c2 d3-e3 c2-c3");
    let side = game
        .play_at(&brandubh::game::Place::main(1), mv("c4-c3"))
        .unwrap();
    let end = game.play_at(&side, mv("d1-d2")).unwrap();
    let line = game.line_game(side.forks()).unwrap();
    assert_eq!(line.moves().len(), 3);
    assert!(!line.has_side_lines());
    let plies = analyze(&line, 2);
    game.set_line_analysis(side.forks(), &plies).unwrap();
    // The shared first move is the main line's; the others the side line's.
    assert_eq!(game.analysis()[0].as_ref(), Some(&plies[0]));
    assert_eq!(
        game.analysis()[1],
        None,
        "the game's own reply is not analyzed"
    );
    assert_eq!(game.analysis_at(&side), Some(&plies[1]));
    assert_eq!(game.analysis_at(&end), Some(&plies[2]));
    // One analysis too many is refused.
    let mut more = plies.clone();
    more.push(plies[0].clone());
    assert!(game.set_line_analysis(side.forks(), &more).is_err());
}
