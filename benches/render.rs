//! Benchmark of the terminal game's drawing: one full frame into a `TestBackend`, of a game in
//! progress, and of the review of an analyzed game (graph, marks, the ply's analysis) while
//! another analysis runs on the AI's thread; and records at the bounds of a save: a step of
//! the review (and a frame) on a move with a comment of the most characters, the comment
//! editor opened on it, and a step at the end of a side line of 19,000 moves.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use brandubh::ai::{Budget, Limits};
use brandubh::game::{Game, MAX_COMMENT_CHARS, Player};
use brandubh::rules::{GameState, Position, Preset};
use brandubh::tui::{Action, Config, Direction, Runtime, Session, Storage};
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A game in progress with a piece selected, so that every kind of mark is drawn.
fn game_in_progress() -> Runtime {
    let mut app = Runtime::new(Config {
        skip_setup: true,
        ..Config::default()
    })
    .expect("the runtime");
    for text in ["d2-b2", "c4-c2", "d1-d2", "e4-e6", "a4-a3", "d4-e4"] {
        app.update(Action::StartTyping);
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::Confirm);
    }
    app.update(Action::Move(Direction::Down));
    app.update(Action::Move(Direction::Down));
    app.update(Action::Confirm);
    app
}

fn bench_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    for (width, height) in [(80, 24), (200, 60)] {
        let app = game_in_progress();
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
        group.bench_function(format!("{width}x{height}"), |b| {
            b.iter(|| {
                terminal
                    .draw(|frame| app.draw(frame))
                    .expect("draw into memory");
            });
        });
    }
    group.finish();
}

/// The analyzed game of the tests in review at its 9th ply, with an analysis of an hour a
/// position under way on the worker thread (its progress bar drawn too).
fn review_while_analyzing() -> Runtime {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analyzed/ai-game.json");
    let mut app = Runtime::new(Config {
        resume: Some(Session::load(&path).expect("the analyzed fixture")),
        analysis_budgets: vec![Budget::Limits(Limits::time(Duration::from_secs(3600)))],
        ..Config::default()
    })
    .expect("the runtime");
    app.update(Action::ToStart);
    for _ in 0..9 {
        app.update(Action::Move(Direction::Right));
    }
    app.update(Action::Analyze);
    app.update(Action::Confirm);
    app
}

fn bench_review_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("review-while-analyzing");
    for (width, height) in [(80, 24), (200, 60)] {
        let app = review_while_analyzing();
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
        group.bench_function(format!("{width}x{height}"), |b| {
            b.iter(|| {
                terminal
                    .draw(|frame| app.draw(frame))
                    .expect("draw into memory");
            });
        });
    }
    group.finish();
}

/// The terminal game on `game`, in review at its start, saving in a folder of its own.
fn reviewing(game: Game, name: &str) -> Runtime {
    let dir = std::env::temp_dir().join(format!("brandubh-bench-{name}-{}", std::process::id()));
    let mut app = Runtime::new(Config {
        resume: Some(Session::from_game(game)),
        storage: Storage::in_dir(dir),
        ..Config::default()
    })
    .expect("the runtime");
    app.update(Action::Review);
    app.update(Action::ToStart);
    app
}

/// A game of four moves whose first move has a comment of [`MAX_COMMENT_CHARS`], words of
/// `word` each followed by a space.
fn commented(word: &str) -> Game {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    for text in ["d2-b2", "c4-c2", "d1-d2", "e4-e6"] {
        game.play_text(text).expect("a legal move");
    }
    let words = MAX_COMMENT_CHARS / (word.chars().count() + 1);
    let comment = format!("{word} ").repeat(words);
    assert!(game.set_comment(0, Some(comment)), "the first move");
    game
}

/// Steps back and forth over the commented move, drawing each step; opens the comment editor
/// there and draws it.
fn bench_largest_comment(c: &mut Criterion) {
    let mut group = c.benchmark_group("largest-comment");
    group.sample_size(10);
    for (name, word) in [
        ("ascii", "word"),
        ("cjk", "漢字漢字"),
        ("rtl-override", "\u{202e}ab"),
    ] {
        let mut app = reviewing(commented(word), name);
        let mut terminal = Terminal::new(TestBackend::new(100, 32)).expect("test backend");
        group.bench_function(format!("review-step-{name}"), |b| {
            b.iter(|| {
                for step in [Direction::Right, Direction::Left] {
                    app.update(Action::Move(step));
                    terminal.draw(|frame| app.draw(frame)).expect("draw");
                }
            });
        });
        app.update(Action::Move(Direction::Right));
        group.bench_function(format!("editor-open-{name}"), |b| {
            b.iter(|| {
                app.update(Action::Comment);
                terminal.draw(|frame| app.draw(frame)).expect("draw");
                app.update(Action::Cancel);
            });
        });
    }
    group.finish();
}

/// A game of one move with a side line of `plies` moves played instead of it: the first
/// legal move each time that neither ends the game nor repeats a position (a walk of a
/// simple generator, the same every run).
fn long_side_line(plies: usize) -> Game {
    let mut state = GameState::new(Preset::Standard.rules(), Position::start());
    let first = state.legal_moves()[0];
    let mut moves = Vec::with_capacity(plies);
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    while moves.len() < plies {
        let legal = state.legal_moves();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let start = usize::try_from(seed % 1024).expect("small");
        let candidates = (0..legal.len())
            .map(|i| legal[(start + i) % legal.len()])
            .filter(|&mv| !(moves.is_empty() && mv == first));
        let mut played = None;
        for mv in candidates {
            if state.play(mv).is_ok() {
                if !state.is_over() {
                    played = Some(mv);
                    break;
                }
                state.undo();
            }
        }
        let Some(mv) = played else { break };
        moves.push(mv.to_string());
    }
    let mut main = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    main.play(first).expect("a legal first move");
    let mut save: serde_json::Value = serde_json::from_str(&main.to_json()).expect("json");
    save["side_lines"] = serde_json::json!([{"at": 0, "moves": moves}]);
    Game::from_json(&save.to_string()).expect("the side line loads")
}

/// One step back and forth at the end of a long side line, drawing each step.
fn bench_long_side_line(c: &mut Criterion) {
    let mut group = c.benchmark_group("long-side-line");
    group.sample_size(10);
    let game = long_side_line(19_000);
    let plies = game.side_moves();
    let mut app = reviewing(game, "side-line");
    app.update(Action::IntoLine);
    app.update(Action::ToEnd);
    let mut terminal = Terminal::new(TestBackend::new(100, 32)).expect("test backend");
    group.bench_function(format!("review-step-at-{plies}"), |b| {
        b.iter(|| {
            for step in [Direction::Left, Direction::Right] {
                app.update(Action::Move(step));
                terminal.draw(|frame| app.draw(frame)).expect("draw");
            }
        });
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_frame,
    bench_review_frame,
    bench_largest_comment,
    bench_long_side_line
);
criterion_main!(benches);
