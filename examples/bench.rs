//! Prints the search's signature (see `brandubh::ai::bench`): each case's nodes, best move and
//! score, the total and the speed.
//!
//! ```sh
//! cargo run --release --example bench
//! ```
//!
//! The total must match `SIGNATURE` in `tests/it/ai_bench.rs` unless the search was meant to
//! change; the speed is the machine's and varies.

use std::process::ExitCode;
use std::time::Instant;

use brandubh::ai::{BenchCase, bench, signature};

fn main() -> ExitCode {
    let start = Instant::now();
    let results = match bench() {
        Ok(results) => results,
        Err(e) => {
            eprintln!("bench: a case is not a legal game: {e}");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = start.elapsed();
    for result in &results {
        let BenchCase {
            name,
            preset,
            depth,
            ..
        } = result.case;
        let preset = preset.name();
        let best = result.best.map_or("-".to_owned(), |mv| mv.to_string());
        let score = result.score.map_or("-".to_owned(), |s| s.to_string());
        println!(
            "{name:<28} {preset:<9} depth {depth:>2} nodes {:>9} best {best:<6} score {score}",
            result.nodes
        );
    }
    let nodes = signature(&results);
    #[allow(clippy::cast_precision_loss)]
    let nps = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    println!("signature {nodes} nodes");
    println!("time {:.3} s, {:.0} nodes/s", elapsed.as_secs_f64(), nps);
    ExitCode::SUCCESS
}
