//! `brandubh analyze`: search a position and print the best move, score, depth, nodes and line;
//! with `--game`, analyze every move of a saved game (see [`super::analyze_game`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::analyze_game;
use super::error::CliError;
use super::rules_args::RulesArgs;
use crate::ai::{Ai, Budget, DEFAULT_TT_MB, Limits, SearchAi, SearchInfo};
use crate::game::{Level, format_duration, parse_duration, storage};
use crate::rules::{GameState, Move};

/// Arguments of `brandubh analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// A game file (a saved game, an OpenTafl `.otg` record or a move record) to analyze at
    /// its current position, with its repetition history.
    #[arg(value_name = "FILE", conflicts_with_all = ["rules", "position"])]
    pub file: Option<PathBuf>,
    /// Analyze every move of the game in FILE, not only its current position.
    #[arg(long, requires = "file")]
    pub game: bool,
    /// Time to think, e.g. 500ms, 2.5s, 1m (1s when neither --depth nor --nodes is given;
    /// with --game, per position, 0.5s by default).
    #[arg(long, value_parser = parse_duration, conflicts_with = "depth")]
    pub time: Option<Duration>,
    /// Search to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=90))]
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition-table size in MB.
    #[arg(long, default_value_t = DEFAULT_TT_MB as u64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

impl AnalyzeArgs {
    /// The limits given on the command line, if any.
    fn given_limits(&self) -> Option<Limits> {
        let limits = Limits {
            time: self.time,
            depth: self.depth,
            nodes: self.nodes,
        };
        (limits != Limits::INFINITE).then_some(limits)
    }

    fn limits(&self) -> Limits {
        self.given_limits()
            .unwrap_or(Limits::time(Duration::from_secs(1)))
    }

    /// The transposition-table size in MB.
    fn hash_megabytes(&self) -> usize {
        usize::try_from(self.hash).unwrap_or(DEFAULT_TT_MB)
    }
}

/// The analysis as `--json` prints it.
#[derive(Serialize)]
struct AnalyzeReport {
    position: String,
    side: String,
    best: String,
    score: i32,
    score_text: String,
    depth: u32,
    nodes: u64,
    nps: u64,
    time_ms: u128,
    pv: Vec<String>,
}

pub(super) fn run(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(path) = &args.file {
        let game = storage::load(path).map_err(|e| CliError::new(e.to_string()))?;
        if args.game {
            let budget = args.given_limits().map_or(Budget::Normal, Budget::Limits);
            return analyze_game::run(&game, budget, args.hash_megabytes(), args.json, out);
        }
        return analyze(game.state(), args, out);
    }
    let (rules, position) = args.rules.resolve()?;
    let state = GameState::new(rules, position);
    analyze(&state, args, out)
}

/// Searches the current position of `state` and prints the result.
fn analyze(state: &GameState, args: &AnalyzeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let (Some(outcome), Some(why)) = (state.outcome(), state.outcome_why()) {
        return Err(CliError::new(format!(
            "nothing to analyze: the game is over ({outcome}: {why})"
        )));
    }
    let mut engine = SearchAi::new(Level::Max, 0, args.hash_megabytes());
    let stop = AtomicBool::new(false);
    let mut last: Option<SearchInfo> = None;
    let mut write_error = None;
    let best = engine.choose(state, &args.limits(), &stop, &mut |info| {
        if !args.json && write_error.is_none() {
            let line = info_line(state, info);
            write_error = writeln!(out, "{line}").and_then(|()| out.flush()).err();
        }
        last = Some(info.clone());
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let (Ok(best), Some(info)) = (best, last) else {
        return Err(CliError::new("nothing to analyze: no legal move"));
    };
    let pv = annotated(state, &info.pv);
    if args.json {
        let report = AnalyzeReport {
            position: state.position().to_string(),
            side: state.position().side_to_move().name().to_owned(),
            best: annotated(state, &[best]).join(""),
            score: info.score.value(),
            score_text: info.score.to_string(),
            depth: info.depth,
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.elapsed.as_millis(),
            pv,
        };
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        writeln!(out, "best: {}", annotated(state, &[best]).join(""))?;
    }
    Ok(())
}

/// One progress line: depth, score, nodes, speed, time and the best line.
fn info_line(state: &GameState, info: &SearchInfo) -> String {
    format!(
        "depth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.score.text(state.position().side_to_move()),
        info.nodes,
        info.nps,
        format_duration(info.elapsed),
        annotated(state, &info.pv).join(" ")
    )
}

/// The moves of a line from `state`, annotated with captures and end marks.
fn annotated(state: &GameState, line: &[Move]) -> Vec<String> {
    state
        .annotate(line)
        .iter()
        .map(ToString::to_string)
        .collect()
}
