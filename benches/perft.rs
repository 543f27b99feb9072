//! Benchmarks of the rules engine: move generation, move counting and perft.
#![allow(clippy::expect_used)]

use std::hint::black_box;

use brandubh::rules::{GameState, Position, Preset, perft};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench_movegen(c: &mut Criterion) {
    let start = Position::start();
    let after = {
        let mut s = GameState::start(Preset::Standard.rules());
        for mv in ["d2-c2", "d3-e3", "b4-b6", "c4-c3"] {
            s.play_text(mv).expect("legal opening");
        }
        *s.position()
    };
    c.bench_function("legal_moves/start", |b| {
        b.iter(|| black_box(&start).legal_moves().len());
    });
    c.bench_function("legal_moves/middlegame", |b| {
        b.iter(|| black_box(&after).legal_moves().len());
    });
    c.bench_function("count_moves/middlegame", |b| {
        b.iter(|| black_box(&after).count_moves());
    });
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for preset in [Preset::Standard, Preset::OpenTafl] {
        let state = GameState::start(preset.rules());
        group.bench_function(format!("{preset}/5"), |b| {
            b.iter(|| perft(black_box(&state), 5));
        });
    }
    group.finish();
    let mut deep = c.benchmark_group("perft-deep");
    deep.sample_size(10);
    let state = GameState::start(Preset::Standard.rules());
    deep.bench_function("standard/6", |b| b.iter(|| perft(black_box(&state), 6)));
    deep.finish();
}

criterion_group!(benches, bench_movegen, bench_perft);
criterion_main!(benches);
