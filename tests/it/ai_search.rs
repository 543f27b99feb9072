//! The search engine on positions with a known right answer: wins in one, blocks, faster wins,
//! repetition per preset, encirclement, the stop flag, node limits and determinism.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

use brandubh::ai::{Ai, Limits, NoMove, Score, SearchAi, SearchInfo, engine_for, limits_for};
use brandubh::game::{EngineKind, Level};
use brandubh::rules::{GameState, Move, Preset, Reason};

/// The longest a test waits for what should come at once: only a failure waits that long.
const WAIT: Duration = Duration::from_secs(20);

fn state(preset: Preset, position: &str) -> GameState {
    GameState::new(preset.rules(), position.parse().expect("valid position"))
}

fn after(preset: Preset, moves: &str) -> GameState {
    let mut state = GameState::start(preset.rules());
    for mv in moves.split_whitespace() {
        state.play_text(mv).expect("legal move");
    }
    state
}

fn mv(text: &str) -> Move {
    text.parse::<brandubh::rules::MoveText>()
        .expect("a move")
        .mv
}

/// The engine's move and its last report, searched to `depth`.
fn search(state: &GameState, depth: u32) -> (Move, SearchInfo) {
    let mut engine = SearchAi::new(Level::Max, 1, 4);
    let stop = AtomicBool::new(false);
    let mut last = None;
    let best = engine
        .choose(state, &Limits::depth(depth), &stop, &mut |info| {
            last = Some(info.clone());
        })
        .expect("a move");
    (best, last.expect("a report"))
}

#[test]
fn finds_a_one_move_king_escape() {
    let s = state(Preset::Standard, "/7/7/K1t4/7/2t4/7/7/ d");
    let (best, info) = search(&s, 4);
    assert!(best.to().is_corner(), "{best}");
    assert_eq!(info.score, Score::Win(1));
}

#[test]
fn finds_a_one_move_king_capture() {
    let s = state(Preset::Standard, "/7/7/7/7/7/1tK4/3t3/ a");
    let (best, info) = search(&s, 4);
    assert_eq!(best, mv("d7-d6"));
    assert_eq!(info.score, Score::Win(1));
    let mut s = s;
    s.play(best).unwrap();
    assert_eq!(s.outcome().map(|o| o.reason), Some(Reason::KingCaptured));
}

#[test]
fn blocks_a_one_move_escape() {
    // The king on a3 sees a1; only e2-a2 stops him.
    let s = state(Preset::Standard, "/7/4t2/K6/7/t6/7/7/ a");
    // The lone king wins in the end, but blocking loses latest.
    let (best, _) = search(&s, 4);
    assert_eq!(best, mv("e2-a2"));
}

#[test]
fn prefers_the_faster_win() {
    // The king escapes at once, though slower wins abound.
    let s = state(Preset::Standard, "/7/7/K1t4/7/T6/7/7/ d");
    let (best, info) = search(&s, 6);
    assert_eq!(best, mv("a3-a1"));
    assert_eq!(info.score, Score::Win(1));
}

/// Seven plies of shuffling; the defenders' c5-c4 would make the start position occur a
/// third time.
const DEFENDERS_CAN_REPEAT: &str = "a4-a5 c4-c5 a5-a4 c5-c4 a4-a5 c4-c5 a5-a4";
/// Eight plies; the attackers' a6-a5 would make the position after a4-a5 occur a third time.
const ATTACKERS_CAN_REPEAT: &str = "a4-a5 c4-c5 a5-a6 c5-c4 a6-a5 c4-c5 a5-a6 c5-c4";

#[test]
fn avoids_a_repetition_loss() {
    for preset in [Preset::Standard, Preset::Walker, Preset::Nielsen] {
        let (best, _) = search(&after(preset, DEFENDERS_CAN_REPEAT), 3);
        assert_ne!(best, mv("c5-c4"), "{preset}");
    }
    for preset in [Preset::Standard, Preset::Walker, Preset::Fellhuhn] {
        let s = after(preset, ATTACKERS_CAN_REPEAT);
        if preset == Preset::Fellhuhn {
            // There the repeating move wins for the attackers: checked below.
            continue;
        }
        let (best, _) = search(&s, 3);
        assert_ne!(best, mv("a6-a5"), "{preset}");
    }
}

/// The king on d7 threatens d7-g7; only the attacker's f6-f7 blocks it, and after this
/// history f6-f7 makes the third occurrence of the position it leads to.
fn only_the_repeating_move_blocks(preset: Preset) -> GameState {
    let mut s = state(preset, "/7/7/4T2/7/7/7/1t1K1t1/ d");
    for text in "e3-e2 f7-f6 e2-e3 f6-f7 e3-e2 f7-f6 e2-e3".split_whitespace() {
        s.play_text(text).unwrap();
    }
    s
}

#[test]
fn the_repetition_rule_alone_changes_the_choice() {
    let repeating = mv("f6-f7");
    let with_history = only_the_repeating_move_blocks(Preset::Standard);
    let fresh = GameState::new(Preset::Standard.rules(), *with_history.position());
    let (best, info) = search(&fresh, 4);
    assert_eq!(
        best, repeating,
        "without the history the block is the best move"
    );
    assert!(
        info.score.value() > Score::Loss(2).value(),
        "{}",
        info.score
    );
    // With the history the block repeats a third time: the attackers would lose at once,
    // so they let the king escape a move later instead.
    let (best, info) = search(&with_history, 4);
    assert_ne!(best, repeating);
    assert_eq!(info.score, Score::Loss(2));
    let mut repeated = with_history.clone();
    repeated.play(repeating).unwrap();
    assert_eq!(
        repeated.outcome().map(|o| o.reason),
        Some(Reason::Repetition)
    );
    // Where the repetition wins or draws for the attackers, they take it.
    for (preset, score) in [
        (Preset::Nielsen, Score::Win(1)),
        (Preset::Fellhuhn, Score::Win(1)),
        (Preset::OpenTafl, Score::Eval(0)),
    ] {
        let (best, info) = search(&only_the_repeating_move_blocks(preset), 4);
        assert_eq!((best, info.score), (repeating, score), "{preset}");
    }
}

#[test]
fn takes_a_repetition_win() {
    let (best, info) = search(&after(Preset::Fellhuhn, DEFENDERS_CAN_REPEAT), 3);
    assert_eq!((best, info.score), (mv("c5-c4"), Score::Win(1)));
    let (best, info) = search(&after(Preset::Fellhuhn, ATTACKERS_CAN_REPEAT), 3);
    assert_eq!((best, info.score), (mv("a6-a5"), Score::Win(1)));
    let (best, info) = search(&after(Preset::Nielsen, ATTACKERS_CAN_REPEAT), 3);
    assert_eq!((best, info.score), (mv("a6-a5"), Score::Win(1)));
}

#[test]
fn repetition_draws_score_zero_in_opentafl() {
    let s = after(Preset::OpenTafl, DEFENDERS_CAN_REPEAT);
    let mut repeated = s.clone();
    repeated.play(mv("c5-c4")).unwrap();
    assert_eq!(repeated.outcome().map(|o| o.winner), Some(None));
    let (_, info) = search(&s, 1);
    assert!(
        matches!(info.score, Score::Eval(v) if v >= 0),
        "{}",
        info.score
    );
}

#[test]
fn sees_an_encirclement_win() {
    let s = state(Preset::Standard, "/7/7/t6/2tKt2/2t1t2/3t3/7/ a");
    let (best, info) = search(&s, 3);
    assert_eq!(best, mv("a3-d3"));
    assert_eq!(info.score, Score::Win(1));
    let mut s = s;
    s.play(best).unwrap();
    assert_eq!(s.outcome().map(|o| o.reason), Some(Reason::Encircled));
}

#[test]
fn no_encirclement_where_the_preset_has_none() {
    let s = state(Preset::Walker, "/7/7/t6/2tKt2/2t1t2/3t3/7/ a");
    let (_, info) = search(&s, 1);
    assert!(matches!(info.score, Score::Eval(_)), "{}", info.score);
}

#[test]
fn honours_the_stop_flag() {
    let s = GameState::start(Preset::Standard.rules());
    let stop = Arc::new(AtomicBool::new(false));
    let (reported, reports) = mpsc::channel();
    let (answered, answer) = mpsc::channel();
    let (state, flag) = (s.clone(), Arc::clone(&stop));
    // Without the flag the search would run on to its maximum depth (far beyond minutes).
    thread::spawn(move || {
        let mut engine = SearchAi::new(Level::Max, 1, 4);
        let best = engine.choose(&state, &Limits::INFINITE, &flag, &mut |_| {
            let _ = reported.send(());
        });
        let _ = answered.send(best);
    });
    // Raised once the search has begun, while it goes deeper.
    reports.recv_timeout(WAIT).expect("a first report");
    stop.store(true, Ordering::Relaxed);
    let best = answer
        .recv_timeout(WAIT)
        .expect("the search stops when asked");
    assert!(s.check_move(best.expect("a move")).is_ok());
}

#[test]
fn honours_node_and_depth_limits() {
    let s = GameState::start(Preset::Standard.rules());
    let mut engine = SearchAi::new(Level::Max, 1, 4);
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let _ = engine.choose(&s, &Limits::nodes(20_000), &stop, &mut |i| {
        reports.push(i.clone());
    });
    let last = reports.last().expect("a report");
    assert!(last.nodes <= 20_000, "{}", last.nodes);
    let mut depths = Vec::new();
    let _ = engine.choose(&s, &Limits::depth(3), &stop, &mut |i| depths.push(i.depth));
    assert_eq!(depths, [1, 2, 3]);
}

fn play_out(kind: EngineKind, level: Level, seed: u64, plies: usize) -> (Vec<Move>, Vec<u64>) {
    let mut engine = engine_for(kind, level, seed);
    let mut s = GameState::start(Preset::Standard.rules());
    let stop = AtomicBool::new(false);
    let (mut moves, mut nodes) = (Vec::new(), Vec::new());
    while moves.len() < plies {
        let mut last = 0;
        let limits = limits_for(Level::Easy);
        let Ok(m) = engine.choose(&s, &limits, &stop, &mut |i| last = i.nodes) else {
            break;
        };
        s.play(m).unwrap();
        moves.push(m);
        nodes.push(last);
    }
    (moves, nodes)
}

#[test]
fn deterministic_for_a_seed() {
    for (kind, level) in [
        (EngineKind::Search, Level::Easy),
        (EngineKind::Search, Level::Max),
        (EngineKind::Random, Level::Easy),
    ] {
        assert_eq!(play_out(kind, level, 9, 8), play_out(kind, level, 9, 8));
    }
    let seeds: Vec<_> = (0..6)
        .map(|seed| play_out(EngineKind::Search, Level::Easy, seed, 8).0)
        .collect();
    assert!(seeds.iter().any(|m| *m != seeds[0]), "easy varies by seed");
}

#[test]
fn levels_have_budgets_and_names() {
    for level in Level::ALL {
        let limits = limits_for(level);
        assert!(limits.depth.is_some() || limits.time.is_some(), "{level}");
        assert_eq!(
            engine_for(EngineKind::Search, level, 0).name(),
            format!("search:{level}")
        );
    }
    assert_eq!(
        engine_for(EngineKind::Random, Level::Max, 0).name(),
        "random"
    );
    let game_over = state(Preset::Standard, "/7/7/7/7/7/7/7/ a");
    let stop = AtomicBool::new(false);
    let mut engine = engine_for(EngineKind::Search, Level::Easy, 0);
    assert_eq!(
        engine.choose(&game_over, &Limits::depth(2), &stop, &mut |_| {}),
        Err(NoMove::GameOver)
    );
}

#[test]
fn the_principal_variation_ends_with_the_escape() {
    // c3-c1 opens a1 and g1 at once; the one attacker blocks one, the king takes the other.
    let s = state(Preset::Standard, "/7/7/2K4/7/7/7/3t3/ d");
    let (_, info) = search(&s, 5);
    assert_eq!(info.score, Score::Win(3));
    assert_eq!(info.pv.len(), 3, "{:?}", info.pv);
    let mut line = s.clone();
    for &mv in &info.pv {
        line.play(mv).unwrap();
    }
    assert_eq!(
        line.outcome().map(|o| o.reason),
        Some(Reason::KingEscaped),
        "{:?}",
        info.pv
    );
}

/// Every report of one search to `depth` by `engine`.
fn reports(engine: &mut SearchAi, state: &GameState, depth: u32) -> Vec<SearchInfo> {
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let _ = engine.choose(state, &Limits::depth(depth), &stop, &mut |info| {
        reports.push(info.clone());
    });
    reports
        .into_iter()
        .map(|info| SearchInfo {
            elapsed: Duration::ZERO,
            nps: 0,
            ..info
        })
        .collect()
}

#[test]
fn an_engine_forgets_what_it_learned_under_other_rules() {
    let position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a";
    let standard = state(Preset::Standard, position);
    let walker = state(Preset::Walker, position);
    let mut fresh = SearchAi::new(Level::Max, 1, 4);
    let expected = reports(&mut fresh, &walker, 6);
    let mut reused = SearchAi::new(Level::Max, 1, 4);
    reports(&mut reused, &standard, 6);
    assert_eq!(
        reports(&mut reused, &walker, 6),
        expected,
        "a search under walker after one under standard is a fresh walker search"
    );
    // Under the same rules, what it learned is kept: the search goes otherwise.
    assert_ne!(reports(&mut reused, &walker, 6), expected);
}

#[test]
fn lines_are_distinct_legal_moves_best_first() {
    let s = GameState::start(Preset::Standard.rules());
    let mut engine = SearchAi::new(Level::Max, 1, 4);
    let stop = AtomicBool::new(false);
    let lines = engine.lines(&s, 3, &Limits::depth(4), &stop);
    assert_eq!(lines.len(), 3);
    let firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    assert!(
        lines
            .windows(2)
            .all(|w| w[0].score.value() >= w[1].score.value())
    );
    // The engine's choice is one of them, though a later search, knowing more from the
    // table, may score its line higher (pruning makes the scores inexact).
    let (best, _) = search(&s, 4);
    assert!(
        firsts.contains(&best),
        "the engine's choice {best} is one of {firsts:?}"
    );
    assert!(engine.lines(&s, 0, &Limits::depth(4), &stop).is_empty());
}
