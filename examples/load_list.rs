//! How long the game takes to start (to the first frame, which does not wait for the saves),
//! and how long the list of saves takes to open: from `o` on the new-game screen to the list
//! drawn (80×24, into memory), pressed the moment the game starts (it waits for the reading
//! the start began), pressed once that reading is done (a player's first `o`), and again.
//!
//! ```text
//! target/release/brandubh match --games 1000 --save-dir /tmp/saves   # some saves
//! cargo run --release --example load_list -- /tmp/saves /tmp/cache/summaries.json
//! ```
//! The second argument is the index of summaries (as the game keeps in its cache folder); a
//! first run makes it, later runs read it. Without it the summaries are kept in memory only.
#![allow(clippy::expect_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use brandubh::tui::{Action, Config, Runtime, Storage};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Presses `o` and returns the time until the list is drawn.
fn open_list(runtime: &mut Runtime, terminal: &mut Terminal<TestBackend>) -> Duration {
    let start = Instant::now();
    runtime.update(Action::Load);
    terminal
        .draw(|frame| runtime.draw(frame))
        .expect("draw into memory");
    let elapsed = start.elapsed();
    let screen = format!("{:?}", terminal.backend().buffer());
    assert!(screen.contains("Load a game"), "the list is drawn");
    elapsed
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(save_dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: load_list SAVE_DIR [INDEX_FILE]");
        std::process::exit(2);
    };
    let storage = Storage {
        save_dir: Some(save_dir),
        summaries_index: args.next().map(PathBuf::from),
        puzzle_progress: None,
    };
    let config = || Config {
        storage: storage.clone(),
        ..Config::default()
    };
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
    // `o` pressed the moment the game starts: it waits for the reading the start began.
    let started = Instant::now();
    let mut runtime = Runtime::new(config()).expect("the runtime");
    terminal
        .draw(|frame| runtime.draw(frame))
        .expect("draw into memory");
    let start = started.elapsed();
    let at_once = open_list(&mut runtime, &mut terminal);
    drop(runtime);
    // `o` pressed once the start's reading is done, as a player's first `o` comes; then again.
    let mut runtime = Runtime::new(config()).expect("the runtime");
    runtime.settle();
    let first = open_list(&mut runtime, &mut terminal);
    runtime.update(Action::Cancel);
    let warm = open_list(&mut runtime, &mut terminal);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "start to the first frame: {:.1} ms; o at once: {:.1} ms; first o: {:.1} ms; again: {:.1} ms",
        ms(start),
        ms(at_once),
        ms(first),
        ms(warm)
    );
}
