//! Startup: from starting the game in an 80×24 pseudo-terminal to its first whole frame (the
//! new-game screen's key line) arriving. Run with `cargo bench --bench startup`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Text on the last line the new-game screen draws.
const FIRST_FRAME: &[u8] = b"Esc back";

/// Starts the game once, returns the time until its first frame has arrived, and quits it.
fn first_frame(save_dir: &std::path::Path) -> Duration {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_brandubh"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("BRANDUBH_SAVE_DIR", save_dir);
    let start = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 8192];
        let mut sent = false;
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if !sent && seen.windows(FIRST_FRAME.len()).any(|w| w == FIRST_FRAME) {
                let _ = tx.send(start.elapsed());
                sent = true;
            }
        }
    });
    let elapsed = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("a first frame");
    writer.write_all(b"\x03").unwrap();
    writer.flush().unwrap();
    child.wait().unwrap();
    elapsed
}

fn bench_startup(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("brandubh-startup-{}", std::process::id()));
    let mut group = c.benchmark_group("startup");
    group.sample_size(20);
    group.bench_function("first-frame-80x24", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_frame(&dir)).sum());
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_startup);
criterion_main!(benches);
