//! `brandubh match`: engine-vs-engine games with per-side results and an Elo estimate.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::{CliError, RulesArgs};
use crate::ai::{
    EngineSpec, GameResult, MatchConfig, MatchSummary, SideRecord, elo_difference, parse_duration,
    play_match,
};
use crate::game::{check_start, storage};
use crate::rules::Side;

/// Arguments of `brandubh match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The engine playing the attackers in the first game (sides alternate): search:LEVEL,
    /// random, or otep:COMMAND (any OpenTafl Engine Protocol engine, run once per game).
    #[arg(long, value_name = "ENGINE")]
    pub attackers: EngineSpec,
    /// The engine playing the defenders in the first game.
    #[arg(long, value_name = "ENGINE")]
    pub defenders: EngineSpec,
    /// Number of games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Seed for the openings and the engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Time per move for search engines, e.g. 50ms, 1s (default: each level's own budget).
    #[arg(long, value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// A game still running after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_plies: u32,
    /// Random plies that open each pair of games.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub opening_plies: u32,
    /// Save every game as a JSON save in this folder (`game-001.json`, ...), created if missing.
    /// Numbering continues after the files there; no file is ever replaced.
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// The name of saved games before their number: `game-001.json`.
const SAVE_PREFIX: &str = "game-";

/// One game as `--json` prints it.
#[derive(Serialize)]
struct GameReport {
    game: u32,
    attackers: String,
    defenders: String,
    result: String,
    winner: Option<String>,
    reason: String,
    plies: usize,
    opening_plies: usize,
    moves: Vec<String>,
    /// Why the loser gave no move, when an engine failed (crashed, too slow, illegal move).
    #[serde(skip_serializing_if = "Option::is_none")]
    forfeit: Option<String>,
    /// The file the game was saved to, with `--save-dir`.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

/// Wins, draws and losses as `--json` prints them.
#[derive(Serialize)]
struct RecordReport {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl From<SideRecord> for RecordReport {
    fn from(r: SideRecord) -> Self {
        RecordReport {
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
        }
    }
}

/// The match as `--json` prints it; results are the first engine's.
#[derive(Serialize)]
struct MatchReport {
    rules: String,
    first: String,
    second: String,
    games: Vec<GameReport>,
    as_attackers: RecordReport,
    as_defenders: RecordReport,
    total: RecordReport,
    score: f64,
    elo: Option<f64>,
    elo_margin: Option<f64>,
    elo_text: String,
}

pub(super) fn run(args: &MatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (rules, start) = args.rules.resolve()?;
    let start =
        check_start(&rules, start).map_err(|e| CliError::new(format!("--position: {e}")))?;
    let config = MatchConfig {
        rules,
        start,
        first: args.attackers.clone(),
        second: args.defenders.clone(),
        games: args.games,
        seed: args.seed,
        jobs: usize::from(args.jobs),
        time: args.time,
        max_plies: args.max_plies as usize,
        opening_plies: args.opening_plies as usize,
    };
    let saver = args.save_dir.as_deref().map(Saver::new).transpose()?;
    let mut files = vec![None; args.games as usize];
    let mut error = None;
    let games = play_match(&config, &mut |game| {
        if error.is_some() {
            return;
        }
        error = on_game(game, saver.as_ref(), &mut files, args.json, out).err();
    });
    if let Some(e) = error {
        return Err(e);
    }
    let summary = MatchSummary::of(&games);
    let total = summary.total();
    let elo = elo_difference(total);
    let elo_text = elo_text(elo);
    let score = total.score().unwrap_or(0.0);
    if args.json {
        let report = MatchReport {
            rules: args.rules.rules.name().to_owned(),
            first: config.first.to_string(),
            second: config.second.to_string(),
            games: games
                .iter()
                .map(|g| game_report(g, files[g.index as usize].take()))
                .collect(),
            as_attackers: summary.as_attackers.into(),
            as_defenders: summary.as_defenders.into(),
            total: total.into(),
            score,
            elo: elo.map(|(d, _)| d).filter(|d| d.is_finite()),
            elo_margin: elo.and_then(|(_, m)| m),
            elo_text,
        };
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        let first = &config.first;
        writeln!(
            out,
            "{first} vs {}: {} games, rules {}",
            config.second,
            games.len(),
            args.rules.rules
        )?;
        writeln!(
            out,
            "{first} as attackers: {}",
            record_text(summary.as_attackers)
        )?;
        writeln!(
            out,
            "{first} as defenders: {}",
            record_text(summary.as_defenders)
        )?;
        writeln!(
            out,
            "{first} score: {:.1}/{} ({:.1}%)",
            score * f64::from(total.games()),
            total.games(),
            100.0 * score
        )?;
        writeln!(out, "elo difference: {elo_text}")?;
    }
    Ok(())
}

/// Saves a finished game if asked, and prints its line unless the report is JSON.
fn on_game(
    game: &GameResult,
    saver: Option<&Saver>,
    files: &mut [Option<String>],
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut line = game_line(game);
    if let Some(saver) = saver {
        let file = saver.save(game)?;
        line = format!("{line}, saved to {file}");
        files[game.index as usize] = Some(file);
    }
    if !json {
        writeln!(out, "{line}")?;
        out.flush()?;
    }
    Ok(())
}

/// Saves the games of a match in a folder: numbered from after the saves already there, and
/// never replacing a file (one taken meanwhile, by another run into the same folder, is
/// skipped).
struct Saver<'a> {
    dir: &'a Path,
    first: u32,
}

impl<'a> Saver<'a> {
    fn new(dir: &'a Path) -> Result<Saver<'a>, CliError> {
        let first = storage::next_number(dir, SAVE_PREFIX).map_err(|e| {
            CliError::new(format!("--save-dir: cannot read {}: {e}", dir.display()))
        })?;
        Ok(Saver { dir, first })
    }

    /// Saves `game`; returns the file.
    fn save(&self, game: &GameResult) -> Result<String, CliError> {
        let name = |n: u32| format!("{SAVE_PREFIX}{n:03}.json");
        let number = self.first.saturating_add(game.index);
        storage::save_first_free(self.dir, name, number, &game.game)
            .map(|path| path.display().to_string())
            .map_err(|e| CliError::new(e.to_string()))
    }
}

fn record_text(r: SideRecord) -> String {
    format!("{} wins, {} draws, {} losses", r.wins, r.draws, r.losses)
}

fn elo_text(elo: Option<(f64, Option<f64>)>) -> String {
    match elo {
        None => "none (no games)".to_owned(),
        Some((d, _)) if d.is_infinite() => {
            format!(
                "{}inf (no error bar: every game went one way)",
                if d > 0.0 { "+" } else { "-" }
            )
        }
        Some((d, Some(margin))) => format!("{} ± {margin:.0} (95%)", signed(d)),
        Some((d, None)) => format!("{} (error bar unbounded)", signed(d)),
    }
}

/// A difference rounded to a whole number with its sign: `+12`, `-3`, and `0` for anything
/// that rounds to zero (never `-0`).
fn signed(d: f64) -> String {
    let d = d.round();
    if d == 0.0 {
        "0".to_owned()
    } else {
        format!("{d:+.0}")
    }
}

fn game_line(game: &GameResult) -> String {
    let side = |s: Side| match s {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    };
    let line = format!(
        "game {}: {} ({}) vs {} ({}): {} in {} plies",
        game.index + 1,
        game.attackers,
        side(Side::Attackers),
        game.defenders,
        side(Side::Defenders),
        game.outcome,
        game.game.moves().len()
    );
    match &game.forfeit {
        Some(failure) => format!("{line} ({failure})"),
        None => line,
    }
}

fn game_report(game: &GameResult, file: Option<String>) -> GameReport {
    GameReport {
        game: game.index + 1,
        attackers: game.attackers.to_string(),
        defenders: game.defenders.to_string(),
        result: game.outcome.to_string(),
        winner: game.outcome.winner.map(|s| s.name().to_owned()),
        reason: game.outcome.reason.name().to_owned(),
        plies: game.game.moves().len(),
        opening_plies: game.opening_plies,
        moves: game.game.moves().iter().map(ToString::to_string).collect(),
        forfeit: game.forfeit.as_ref().map(ToString::to_string),
        file,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_differences_round_to_a_signed_whole_number() {
        assert_eq!(elo_text(Some((-0.3, Some(40.2)))), "0 ± 40 (95%)");
        assert_eq!(elo_text(Some((0.4, None))), "0 (error bar unbounded)");
        assert_eq!(elo_text(Some((12.6, Some(30.0)))), "+13 ± 30 (95%)");
        assert_eq!(elo_text(Some((-7.5, Some(30.0)))), "-8 ± 30 (95%)");
        assert_eq!(
            elo_text(Some((f64::NEG_INFINITY, None))),
            "-inf (no error bar: every game went one way)"
        );
    }
}
