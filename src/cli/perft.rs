//! `brandubh perft`: count move sequences, optionally per first move and on several threads.

use std::io::Write;
use std::sync::Mutex;
use std::thread;

use clap::Args;

use super::error::CliError;
use super::rules_args::RulesArgs;
use crate::rules::{GameState, Move, divide, perft};

/// Arguments of `brandubh perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Number of plies to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print the count below each first move before the total.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads; first moves are shared out among them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

pub(super) fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, position) = args.rules.resolve()?;
    let state = GameState::new(rules, position);
    if !args.divide && (args.threads == 1 || args.depth < 3) {
        writeln!(out, "{}", perft(&state, args.depth))?;
        return Ok(());
    }
    let counts = divide_on_threads(&state, args.depth, usize::from(args.threads));
    if args.divide {
        for (mv, n) in &counts {
            writeln!(out, "{mv}: {n}")?;
        }
    }
    let total: u64 = if args.depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    writeln!(out, "{total}")?;
    Ok(())
}

/// [`divide`], with the first moves shared among `threads` workers; results in move order.
fn divide_on_threads(state: &GameState, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if threads <= 1 || depth < 2 {
        return divide(state, depth);
    }
    let moves = state.legal_moves();
    let queue = Mutex::new(moves.iter().copied().enumerate());
    let results = Mutex::new(vec![0; moves.len()]);
    thread::scope(|scope| {
        for _ in 0..threads.min(moves.len()) {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().map(|mut q| q.next()).ok().flatten();
                    let Some((i, mv)) = next else { break };
                    let mut child = state.clone();
                    child.play_unchecked(mv);
                    let n = perft(&child, depth - 1);
                    if let Ok(mut r) = results.lock() {
                        r[i] = n;
                    }
                }
            });
        }
    });
    let counts = results.into_inner().unwrap_or_default();
    moves.iter().copied().zip(counts).collect()
}
