//! Fits the evaluation's weights to self-play results by Texel's method.
//!
//! ```sh
//! cargo run --release --example tune -- --rules standard --games 2000 --seed 1
//! ```
//!
//! 1. Plays `--games` seeded games of the library's search engine against itself at a fixed
//!    `--depth`, each opening with `--opening-plies` random moves, and keeps every quiet
//!    position after the opening (the game not decided, the king not seeing a corner) with the
//!    game's result for the defenders: 1 for a win, ½ for a draw (by the rules, or at
//!    `--max-plies`), 0 for a loss. Every tenth game is held out to check the fit.
//! 2. Fits K, the scale of the logistic model, for the hand-set weights
//!    ([`Weights::HAND_SET`]): the K that minimises the mean squared error E of
//!    `sigmoid(K * eval / 400)` against the results, with `sigmoid(x) = 1 / (1 + 10^-x)` and
//!    `eval` the defenders' score.
//! 3. Fits every weight but the attackers' (the unit, -100) and K together to minimise E:
//!    gradient descent (Adam) from the hand-set weights and that K (at least 1), then rounding
//!    and integer coordinate descent, then K once more for the integer weights.
//! 4. Prints the figures and the weights as Rust source for `src/ai/eval.rs`.
//!
//! Deterministic for given arguments: the engine searches by depth, never by time. Its search
//! parameters are [`SearchParams::DEFAULT`] but for those set with `--search NAME=VALUE`
//! (repeatable; the names are the fields of `SearchParams`), so that the weights can be fitted
//! to, or compared under, a search tuned otherwise.

// Counts become floats for the statistics, and the fit's formulas read best in their letters.
#![allow(clippy::cast_precision_loss, clippy::many_single_char_names)]

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::thread;

use brandubh::ai::{Ai, Features, Limits, SearchAi, SearchParams, Weights, features};
use brandubh::game::Level;
use brandubh::rules::{GameState, Preset, Rules, Side};
use clap::Parser;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

const N: usize = Features::COUNT;
/// No weight goes beyond this (in hundredths of a soldier): a feature that always comes with
/// one result would otherwise be driven without bound.
const LIMIT: f64 = 400.0;
/// Where K is looked for.
const K_RANGE: (f64, f64) = (0.01, 10.0);
/// The most passes of the integer coordinate descent over every weight.
const POLISH_PASSES: usize = 50;

/// Fits the evaluation's weights to self-play results (Texel's method).
#[derive(Parser)]
struct Args {
    /// The rules the games are played under.
    #[arg(long, value_parser = brandubh::cli::preset_parser(), default_value_t = Preset::Standard)]
    rules: Preset,
    /// Self-play games.
    #[arg(long, default_value_t = 2000)]
    games: u32,
    /// The seed of the openings and the engines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The engine's search depth in plies.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Games still running after this many plies are draws.
    #[arg(long, default_value_t = 200)]
    max_plies: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    jobs: u32,
    /// A search parameter of the engine, as NAME=VALUE (repeatable), e.g. `late_moves=10`.
    #[arg(long = "search", value_name = "NAME=VALUE", value_parser = parse_param)]
    search: Vec<(String, i64)>,
}

/// `NAME=VALUE`, the value an integer (the name is checked against the parameters later).
fn parse_param(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| "expected NAME=VALUE".to_owned())?;
    let value = value.parse().map_err(|e| format!("{value:?}: {e}"))?;
    Ok((name.to_owned(), value))
}

/// A quiet position's features and its game's result for the defenders.
struct Sample {
    features: [f64; N],
    result: f64,
}

/// What one game gave.
struct GameRecord {
    samples: Vec<Sample>,
    result: f64,
    plies: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rules = args.rules.rules();
    let params = args
        .search
        .iter()
        .try_fold(SearchParams::DEFAULT, |params, (name, value)| {
            params.with(name, *value).ok_or((name, value))
        });
    let params = match params {
        Ok(params) => params,
        Err((name, value)) => {
            eprintln!(
                "tune: --search {name:?}={value}: no such parameter, or out of its range \
                 (the parameters: {})",
                SearchParams::NAMES.join(", ")
            );
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "tune: {} games under {} at depth {}, {} random opening plies, seed {}",
        args.games, args.rules, args.depth, args.opening_plies, args.seed
    );
    if params != SearchParams::DEFAULT {
        eprintln!("tune: search parameters {params:?}");
    }
    let records = play_games(&args, rules, params);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let (mut wins, mut draws, mut plies) = (0, 0, 0);
    for (i, record) in records.into_iter().enumerate() {
        match record.result {
            r if r > 0.75 => wins += 1,
            r if r > 0.25 => draws += 1,
            _ => {}
        }
        plies += record.plies;
        if i % 10 == 9 {
            test.extend(record.samples);
        } else {
            train.extend(record.samples);
        }
    }
    println!(
        "// games: {}: defenders won {wins}, drew {draws}, lost {}; {:.1} plies a game",
        args.games,
        args.games as usize - wins - draws,
        plies as f64 / f64::from(args.games.max(1))
    );
    println!(
        "// quiet positions: {} to fit, {} held out (every tenth game)",
        train.len(),
        test.len()
    );
    if train.is_empty() {
        eprintln!("tune: no positions");
        return ExitCode::FAILURE;
    }
    let start = to_f64(Weights::HAND_SET.to_array());
    let k = fit_k(&train, &start);
    let before = (error(&train, &start, k), error(&test, &start, k));
    let current = to_f64(brandubh::ai::weights(&rules).to_array());
    let current_k = fit_k(&train, &current);
    // The hand-set weights' own K is a poor start when they predict little: start at 1 then.
    let (fitted, fitted_k) = fit(&train, &start, k.max(1.0));
    let after = (
        error(&train, &fitted, fitted_k),
        error(&test, &fitted, fitted_k),
    );
    let mean = train.iter().map(|s| s.result).sum::<f64>() / train.len() as f64;
    let constant =
        train.iter().map(|s| (s.result - mean).powi(2)).sum::<f64>() / train.len() as f64;
    println!("// mean squared error, fitted positions / held out (each weight set at its best K):");
    println!("//   predicting the mean result {mean:.3} everywhere: {constant:.5}");
    println!(
        "//   hand-set weights, K = {k:.4}: {:.5} / {:.5}",
        before.0, before.1
    );
    println!(
        "//   weights in the source now, K = {current_k:.4}: {:.5} / {:.5}",
        error(&train, &current, current_k),
        error(&test, &current, current_k)
    );
    println!(
        "//   fitted weights, K = {fitted_k:.4}: {:.5} / {:.5}",
        after.0, after.1
    );
    print_weights(args.rules, &fitted);
    ExitCode::SUCCESS
}

/// Plays the games on `args.jobs` threads, the engine searching with `params`; the records
/// in game order.
fn play_games(args: &Args, rules: Rules, params: SearchParams) -> Vec<GameRecord> {
    let jobs = args.jobs.max(1);
    let mut records: Vec<(u32, GameRecord)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|job| {
                scope.spawn(move || {
                    (job..args.games)
                        .step_by(jobs as usize)
                        .map(|game| (game, play_game(args, rules, params, game)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    records.sort_by_key(|(game, _)| *game);
    records.into_iter().map(|(_, record)| record).collect()
}

/// One self-play game, seeded by the run's seed and its number.
fn play_game(args: &Args, rules: Rules, params: SearchParams, game: u32) -> GameRecord {
    let seed = args.seed ^ u64::from(game).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = GameState::start(rules);
    let mut engine = SearchAi::new(Level::Hard, rng.random(), 1).with_params(params);
    let limits = Limits::depth(args.depth);
    let stop = AtomicBool::new(false);
    let mut positions = Vec::new();
    while !state.is_over() && state.ply() < args.max_plies {
        let mv = if state.ply() < args.opening_plies {
            state.legal_moves().choose(&mut rng).copied()
        } else {
            let pos = state.position();
            if pos.king_open_corners().is_empty() {
                positions.push(features(pos, &rules).to_array());
            }
            engine.choose(&state, &limits, &stop, &mut |_| {}).ok()
        };
        let Some(mv) = mv else { break };
        state.play_unchecked(mv);
    }
    let result = match state.outcome().and_then(|o| o.winner) {
        Some(Side::Defenders) => 1.0,
        Some(Side::Attackers) => 0.0,
        None => 0.5,
    };
    GameRecord {
        samples: positions
            .into_iter()
            .map(|f| Sample {
                features: to_f64(f),
                result,
            })
            .collect(),
        result,
        plies: state.ply(),
    }
}

fn to_f64(array: [i32; N]) -> [f64; N] {
    array.map(f64::from)
}

fn dot(w: &[f64; N], f: &[f64; N]) -> f64 {
    w.iter().zip(f).map(|(w, f)| w * f).sum()
}

/// The predicted result for the defenders of a defenders' score.
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The mean squared error of the predictions with weights `w` and scale `k`.
fn error(samples: &[Sample], w: &[f64; N], k: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, dot(w, &s.features))).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The K minimising the error for `w`: golden-section search in [`K_RANGE`].
fn fit_k(samples: &[Sample], w: &[f64; N]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = K_RANGE;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi)
}

/// The weights and the scale K minimising the error, from `start` and `k`: 2000 steps of Adam
/// on the real-valued weights and K together, then rounding and integer coordinate descent
/// (steps of 1, at most [`POLISH_PASSES`] passes) at that K, then K again for the integer
/// weights. The attackers' weight stays where it is: it is the unit of the scores (and K
/// and a common factor of the weights could otherwise trade places). Every weight stays
/// within ±[`LIMIT`].
fn fit(samples: &[Sample], start: &[f64; N], k: f64) -> ([f64; N], f64) {
    let fixed = Features::NAMES
        .iter()
        .position(|name| *name == "attackers")
        .unwrap_or(0);
    let mut w = *start;
    let mut k = k;
    let (mut m, mut v) = ([0.0; N + 1], [0.0; N + 1]);
    let (beta1, beta2) = (0.9, 0.999);
    let mut rates = [0.5; N + 1];
    rates[fixed] = 0.0;
    rates[N] = 0.005;
    let count = samples.len() as f64;
    for step in 1..=2000 {
        let scale = std::f64::consts::LN_10 / 400.0;
        let mut grad = [0.0; N + 1];
        for s in samples {
            let eval = dot(&w, &s.features);
            let p = sigmoid(k, eval);
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * scale;
            for (grad, f) in grad.iter_mut().zip(&s.features) {
                *grad += g * k * f;
            }
            grad[N] += g * eval;
        }
        for i in 0..=N {
            let g = grad[i] / count;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step));
            let v_hat = v[i] / (1.0 - beta2.powi(step));
            let change = rates[i] * m_hat / (v_hat.sqrt() + 1e-12);
            if i == N {
                k = (k - change).clamp(K_RANGE.0, K_RANGE.1);
            } else {
                w[i] = (w[i] - change).clamp(-LIMIT, LIMIT);
            }
        }
        if step % 500 == 0 {
            eprintln!(
                "tune: step {step}: K {k:.4}, error {:.6}",
                error(samples, &w, k)
            );
        }
    }
    let mut w = w.map(f64::round);
    let mut best = error(samples, &w, k);
    for _ in 0..POLISH_PASSES {
        let mut improved = false;
        for i in (0..N).filter(|i| *i != fixed) {
            for delta in [1.0, -1.0] {
                let mut trial = w;
                trial[i] = (trial[i] + delta).clamp(-LIMIT, LIMIT);
                let e = error(samples, &trial, k);
                if e < best {
                    (w, best, improved) = (trial, e, true);
                }
            }
        }
        if !improved {
            break;
        }
    }
    let k = fit_k(samples, &w);
    (w, k)
}

/// Prints the weights as the `static` for `preset` in `src/ai/eval.rs`.
fn print_weights(preset: Preset, w: &[f64; N]) {
    let name = match preset {
        Preset::OpenTafl => "OPENTAFL",
        _ => "STANDARD",
    };
    println!("static {name}: Weights = Weights {{");
    for (feature, weight) in Features::NAMES.iter().zip(w) {
        println!("    {feature}: {weight},");
    }
    println!("}};");
}
