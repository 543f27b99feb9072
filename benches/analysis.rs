//! Benchmark of whole-game analysis: a 40-ply game analyzed at the quick budget (0.1 s a
//! position, so at most about 4.1 s by construction), the same game at depth 6, the depths
//! the quick searches reach (printed once), and the only-move search alone.
#![allow(clippy::expect_used)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use brandubh::ai::{Analyzer, Budget, Limits, SearchAi, engine_for, limits_for};
use brandubh::game::{EngineKind, Game, Level, Player};
use brandubh::rules::{GameState, Move, Position, Preset};
use criterion::{Criterion, criterion_group, criterion_main};

/// The game's length in plies.
const PLIES: usize = 40;

/// A 40-ply game of `search:medium` against itself (depth-bounded, so the same every run):
/// the first seed whose game is still going after 40 plies.
fn forty_ply_game() -> Game {
    let stop = AtomicBool::new(false);
    (0..)
        .find_map(|seed| {
            let mut game = Game::new(
                Preset::Standard.rules(),
                Position::start(),
                Player::Human,
                Player::Human,
            );
            let mut engines = [
                engine_for(EngineKind::Search, Level::Medium, seed),
                engine_for(EngineKind::Search, Level::Medium, seed + 1000),
            ];
            for ply in 0..PLIES {
                let mv = engines[ply % 2]
                    .choose(game.state(), &limits_for(Level::Medium), &stop, &mut |_| {})
                    .ok()?;
                game.play(mv).ok()?;
            }
            (!game.state().is_over()).then_some(game)
        })
        .expect("a seed gives a long game")
}

fn bench_analysis(c: &mut Criterion) {
    let game = forty_ply_game();
    let stop = AtomicBool::new(false);
    let plies = Analyzer::default()
        .analyze(&game, Budget::Quick, &stop, &mut |_| {})
        .expect("not stopped");
    let mut depths: Vec<u32> = plies.iter().map(|p| p.depth).collect();
    depths.sort_unstable();
    let only_moves = plies.iter().filter(|p| p.only_move).count();
    println!(
        "analysis/quick: {} plies, depths {}..={} (median {}), {only_moves} only moves; moves {}",
        plies.len(),
        depths[0],
        depths[depths.len() - 1],
        depths[depths.len() / 2],
        game.moves()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(50));
    group.bench_function("40-plies/quick", |b| {
        b.iter(|| {
            Analyzer::default()
                .analyze(&game, Budget::Quick, &stop, &mut |_| {})
                .expect("not stopped")
        });
    });
    group.bench_function("40-plies/depth-6", |b| {
        b.iter(|| {
            Analyzer::default()
                .analyze(&game, Budget::Limits(Limits::depth(6)), &stop, &mut |_| {})
                .expect("not stopped")
        });
    });
    group.finish();

    // The only-move search alone, at depth 6: where another move holds (the common case, one
    // refutation ends it) and where every other move loses (each must be refuted in full).
    // A fresh engine each time, with a 1 MB table so that clearing it costs little.
    let mut group = c.benchmark_group("only-move");
    for (name, position, best) in [
        ("start", "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a", "d2-c2"),
        (
            "all-others-lose",
            "/3t3/4t2/Kt5/T3T1t/2t4/5t1/3t3/ a",
            "e2-a2",
        ),
    ] {
        let state = GameState::new(
            Preset::Standard.rules(),
            position.parse().expect("a position"),
        );
        let best: Move = best.parse().expect("a move");
        group.bench_function(name, |b| {
            b.iter(|| {
                SearchAi::new(Level::Max, 0, 1).every_other_move_loses(
                    &state,
                    best,
                    &Limits::depth(6),
                    &stop,
                )
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_analysis);
criterion_main!(benches);
