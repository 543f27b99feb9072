//! `brandubh replay`: play a game through the engine, printing every move annotated.

use std::io::Write;
use std::path::PathBuf;

use clap::{ArgGroup, Args};
use serde::Serialize;

use super::{CliError, RulesArgs};
use crate::game::storage;
use crate::quote::excerpt;
use crate::rules::{AnnotatedMove, GameState, Rules};

/// Arguments of `brandubh replay`: the moves on the command line, or a saved game.
#[derive(Args, Debug)]
#[command(group = ArgGroup::new("game").required(true).args(["moves", "file"]))]
pub struct ReplayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The moves, separated by spaces: "d2-e2 c4-c5 ..." (annotations are checked).
    #[arg(long)]
    pub moves: Option<String>,
    /// A saved game (JSON) to replay instead; its rules, start and result are checked.
    #[arg(value_name = "FILE.json", conflicts_with_all = ["moves", "rules", "position"])]
    pub file: Option<PathBuf>,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// The replay as `--json` prints it.
#[derive(Serialize)]
struct ReplayReport {
    rules: String,
    start: String,
    moves: Vec<String>,
    result: String,
    winner: Option<String>,
    reason: Option<String>,
    end: String,
}

pub(super) fn run(args: &ReplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(path) = &args.file {
        let game = storage::load(path).map_err(|e| CliError::new(e.to_string()))?;
        return report(game.state(), game.moves(), args.json, out);
    }
    let (rules, position) = args.rules.resolve()?;
    let mut state = GameState::new(rules, position);
    let played = replay_moves(&mut state, args.moves.as_deref().unwrap_or_default())?;
    report(&state, &played, args.json, out)
}

/// The name of the rules in reports: the preset's, or `custom`.
fn rules_name(rules: &Rules) -> &'static str {
    rules.preset().map_or("custom", |p| p.name())
}

/// Prints the replayed game: one annotated move a line and the result, or one JSON object.
fn report(
    state: &GameState,
    played: &[AnnotatedMove],
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let result = state
        .outcome()
        .map_or_else(|| "ongoing".to_owned(), |o| o.to_string());
    if json {
        let report = ReplayReport {
            rules: rules_name(state.rules()).to_owned(),
            start: state.start_position().to_string(),
            moves: played.iter().map(ToString::to_string).collect(),
            result,
            winner: state
                .outcome()
                .and_then(|o| o.winner)
                .map(|s| s.name().to_owned()),
            reason: state.outcome().map(|o| o.reason.name().to_owned()),
            end: state.position().to_string(),
        };
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        for mv in played {
            writeln!(out, "{mv}")?;
        }
        writeln!(out, "result: {result}")?;
    }
    Ok(())
}

/// Plays the space-separated `moves` on `state`; the first bad one is reported with its
/// number and text.
fn replay_moves(state: &mut GameState, moves: &str) -> Result<Vec<AnnotatedMove>, CliError> {
    moves
        .split_whitespace()
        .enumerate()
        .map(|(i, text)| {
            state
                .play_text(text)
                .map_err(|e| CliError::new(format!("move {} \"{}\": {e}", i + 1, excerpt(text))))
        })
        .collect()
}
