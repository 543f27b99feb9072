//! Benchmarks of the search engine: fixed-depth searches from the start position (nodes per
//! second) and the depth reached in one second.
#![allow(clippy::expect_used)]

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use brandubh::ai::{Ai, DEFAULT_TT_MB, Limits, SearchAi};
use brandubh::game::Level;
use brandubh::rules::{GameState, Preset};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Nodes searched to `depth` from the start (the same every run: the search is deterministic).
fn nodes_to_depth(state: &GameState, depth: u32) -> u64 {
    let mut engine = SearchAi::new(Level::Max, 1, DEFAULT_TT_MB);
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let _ = engine.choose(state, &Limits::depth(depth), &stop, &mut |i| {
        nodes = i.nodes;
    });
    nodes
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for preset in [Preset::Standard, Preset::OpenTafl] {
        let state = GameState::start(preset.rules());
        let depth = 8;
        // Throughput in nodes: criterion reports nodes per second.
        group.throughput(Throughput::Elements(nodes_to_depth(&state, depth)));
        group.bench_function(format!("{preset}/depth-{depth}"), |b| {
            b.iter(|| {
                let mut engine = SearchAi::new(Level::Max, 1, DEFAULT_TT_MB);
                let stop = AtomicBool::new(false);
                engine.choose(black_box(&state), &Limits::depth(depth), &stop, &mut |_| {})
            });
        });
    }
    group.finish();

    // Depth reached in one second from the start, printed once (criterion measures time, not depth).
    let state = GameState::start(Preset::Standard.rules());
    let mut engine = SearchAi::new(Level::Max, 1, DEFAULT_TT_MB);
    let stop = AtomicBool::new(false);
    let mut last = None;
    let _ = engine.choose(
        &state,
        &Limits::time(Duration::from_secs(1)),
        &stop,
        &mut |i| {
            last = Some(i.clone());
        },
    );
    let info = last.expect("a completed depth");
    println!(
        "search/1s from the start: depth {} nodes {} nps {}",
        info.depth, info.nodes, info.nps
    );
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
