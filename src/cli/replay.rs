//! `brandubh replay`: play a game through the engine, printing every move annotated.

use std::io::Write;
use std::path::PathBuf;

use clap::{ArgGroup, Args};
use serde::Serialize;

use super::error::CliError;
use super::rules_args::RulesArgs;
use crate::game::{Game, Player, import, storage};
use crate::rules::{AnnotatedMove, GameState, Rules};

/// Arguments of `brandubh replay`: the moves on the command line, or a saved game.
#[derive(Args, Debug)]
#[command(group = ArgGroup::new("game").required(true).args(["moves", "file"]))]
pub struct ReplayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The moves, separated by spaces: "d2-e2 c4-c5 ..." (annotations are checked; OpenTafl's
    /// notation, `---` for a resignation and `timeout` for a loss on time are read too).
    #[arg(long)]
    pub moves: Option<String>,
    /// A game file to replay instead (a saved game, an OpenTafl `.otg` record or a move
    /// record); its rules, start and result are checked.
    #[arg(value_name = "FILE", conflicts_with_all = ["moves", "rules", "position"])]
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
    why: Option<String>,
    end: String,
}

pub(super) fn run(args: &ReplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(path) = &args.file {
        let game = storage::load(path).map_err(|e| CliError::new(e.to_string()))?;
        return report(game.state(), game.moves(), args.json, out);
    }
    let (rules, position) = args.rules.resolve()?;
    let mut game = Game::new(rules, position, Player::Human, Player::Human);
    import::play_record(&mut game, args.moves.as_deref().unwrap_or_default())
        .map_err(|e| CliError::new(e.to_string()))?;
    report(game.state(), game.moves(), args.json, out)
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
            why: state.outcome_why(),
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
