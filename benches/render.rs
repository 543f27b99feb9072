//! Benchmark of the terminal game's drawing: one full frame into a `TestBackend`, of a game in
//! progress, and of the review of an analyzed game (graph, marks, the ply's analysis) while
//! another analysis runs on the AI's thread.
#![allow(clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use brandubh::ai::{Budget, Limits};
use brandubh::tui::{Action, Config, Direction, Runtime, Session};
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

criterion_group!(benches, bench_frame, bench_review_frame);
criterion_main!(benches);
