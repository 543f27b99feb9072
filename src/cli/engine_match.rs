//! `brandubh match`: engine-vs-engine games with per-side results and an Elo estimate.
//!
//! The report is written as the match goes, a line (or, with `--json`, an object of the `games`
//! list) per game as it ends, and the totals at the end; nothing of a game is kept once it is
//! written, so memory does not grow with the number of games. The first failure (a save that
//! cannot be written, output whose reader is gone) stops the match; the totals of the games so
//! far are still written, unless the output itself failed.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::error::CliError;
use super::folder::make_folder;
use super::rules_args::RulesArgs;
use crate::ai::{
    EngineSpec, ExternalOptions, GameResult, MatchConfig, MatchSummary, SideRecord, elo_difference,
    engine_usage, play_match,
};
use crate::game::{check_start, parse_duration, storage};
use crate::quote::{MESSAGE_CHARS, escaped, quoted_path};
use crate::rules::Side;
use crate::signals::{Signals, StartIgnored};

/// The help of `--attackers` and `--defenders`: the engines, listed from the engine registry.
fn engine_help(side: &str) -> String {
    format!(
        "The engine playing the {side} in the first game (sides alternate): {} (any OpenTafl \
         Engine Protocol engine, run once per game)",
        engine_usage()
    )
}

/// Arguments of `brandubh match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The engine playing the attackers in the first game (see `engine_help`).
    #[arg(long, value_name = "ENGINE", help = engine_help("attackers"))]
    pub attackers: EngineSpec,
    /// The engine playing the defenders in the first game (see `engine_help`).
    #[arg(long, value_name = "ENGINE", help = engine_help("defenders"))]
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
    /// Time per move for search engines, e.g. 500ms, 1s, 1m (default: each level's own budget).
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
    /// Print one JSON object instead of lines (its games written as they end).
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

/// What `--json` prints before the games.
#[derive(Serialize)]
struct MatchHead {
    rules: String,
    first: String,
    second: String,
}

/// What `--json` prints after the games; results are the first engine's.
#[derive(Serialize)]
struct MatchTotals {
    as_attackers: RecordReport,
    as_defenders: RecordReport,
    total: RecordReport,
    score: f64,
    elo: Option<f64>,
    elo_margin: Option<f64>,
    elo_text: String,
}

pub(super) fn run(args: &MatchArgs, out: &mut dyn Write) -> Result<ExitCode, CliError> {
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
        external: ExternalOptions::default(),
    };
    let unplayable = |e| CliError::new(format!("--rules {}: {e}", args.rules.rules));
    config.check().map_err(unplayable)?;
    let saver = args.save_dir.as_deref().map(Saver::new).transpose()?;
    let signals = Signals::catch(StartIgnored::Kept)
        .map_err(|e| CliError::new(format!("cannot catch signals: {e}")))?;
    let report = Report {
        args,
        config: &config,
        saver: saver.as_ref(),
    };
    report.begin(out)?;
    let mut failure = None;
    let mut written = 0;
    let summary = play_match(&config, signals.raised(), &mut |game| {
        let reported = report.game(&game, written, out);
        match reported {
            Ok(()) => {
                written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(unplayable)?;
    match failure {
        Some(e) if e.is_broken_pipe() => return Err(e),
        _ => report.end(summary, out)?,
    }
    out.flush()?;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(signals
        .received()
        .and_then(|signal| u8::try_from(128 + signal).ok())
        .map_or(ExitCode::SUCCESS, ExitCode::from))
}

/// The report of a match, written as it goes.
struct Report<'a> {
    args: &'a MatchArgs,
    config: &'a MatchConfig,
    saver: Option<&'a Saver<'a>>,
}

impl Report<'_> {
    /// Before the first game: with `--json`, the object's opening and the games list's.
    fn begin(&self, out: &mut dyn Write) -> Result<(), CliError> {
        if self.args.json {
            let head = MatchHead {
                rules: self.args.rules.rules.name().to_owned(),
                first: self.config.first.to_string(),
                second: self.config.second.to_string(),
            };
            write!(out, "{{\n{},\n  \"games\": [", json_fields(&head)?)?;
        }
        Ok(())
    }

    /// Saves a finished game if asked, and writes it, after `written` games. A game whose
    /// save failed is written without its file, and the failure returned.
    fn game(&self, game: &GameResult, written: usize, out: &mut dyn Write) -> Result<(), CliError> {
        let saved = self.saver.map(|saver| saver.save(game)).transpose();
        let file = saved.as_ref().ok().and_then(Option::as_deref);
        if self.args.json {
            let text = serde_json::to_string(&game_report(game, file))
                .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
            let separator = if written == 0 { "" } else { "," };
            write!(out, "{separator}\n    {text}")?;
        } else {
            match file {
                Some(file) => writeln!(out, "{}, saved to {file}", game_line(game))?,
                None => writeln!(out, "{}", game_line(game))?,
            }
        }
        out.flush()?;
        saved.map(drop)
    }

    /// After the last game: the totals of the games written.
    fn end(&self, summary: MatchSummary, out: &mut dyn Write) -> Result<(), CliError> {
        let total = summary.total();
        let elo = elo_difference(total);
        let elo_text = elo_text(elo);
        let score = total.score().unwrap_or(0.0);
        if self.args.json {
            let totals = MatchTotals {
                as_attackers: summary.as_attackers.into(),
                as_defenders: summary.as_defenders.into(),
                total: total.into(),
                score,
                elo: elo.map(|(d, _)| d).filter(|d| d.is_finite()),
                elo_margin: elo.and_then(|(_, m)| m),
                elo_text,
            };
            writeln!(out, "\n  ],\n{}\n}}", json_fields(&totals)?)?;
            return Ok(());
        }
        let first = &self.config.first;
        writeln!(
            out,
            "{first} vs {}: {} games, rules {}",
            self.config.second,
            total.games(),
            self.args.rules.rules
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
        Ok(())
    }
}

/// The fields of `value` (a struct) as lines of a pretty-printed JSON object, without its
/// braces: `  "key": value,` lines, to write an object in parts.
fn json_fields(value: &impl Serialize) -> Result<String, CliError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
    let inner = text.strip_prefix("{\n").and_then(|t| t.strip_suffix("\n}"));
    Ok(inner.unwrap_or_default().to_owned())
}

/// Saves the games of a match in a folder: numbered from after the saves already there, and
/// never replacing a file (one taken meanwhile, by another run into the same folder, is
/// skipped).
struct Saver<'a> {
    dir: &'a Path,
    first: u32,
}

impl<'a> Saver<'a> {
    /// The saver into `dir`, made if missing, once a file could be written there: a folder
    /// that cannot take the saves is refused before the first game.
    fn new(dir: &'a Path) -> Result<Saver<'a>, CliError> {
        let fail = |what: &str, e: io::Error| {
            CliError::new(format!("--save-dir {}: {what}: {e}", quoted_path(dir)))
        };
        make_folder(dir, "--save-dir ")?;
        check_writable(dir).map_err(|e| fail("cannot write there", e))?;
        let first =
            storage::next_number(dir, SAVE_PREFIX).map_err(|e| fail("cannot read it", e))?;
        Ok(Saver { dir, first })
    }

    /// Saves `game`; returns the file, as it may be printed.
    fn save(&self, game: &GameResult) -> Result<String, CliError> {
        let name = |n: u32| format!("{SAVE_PREFIX}{n:03}.json");
        let number = self.first.saturating_add(game.index);
        storage::save_first_free(self.dir, name, number, &game.game)
            .map(|path| escaped(&path.display().to_string(), MESSAGE_CHARS))
            .map_err(|e| CliError::new(e.to_string()))
    }
}

/// Makes and removes a file in `dir`: whether files can be written there.
fn check_writable(dir: &Path) -> io::Result<()> {
    let probe = dir.join(format!(".brandubh-write-check-{}", std::process::id()));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    fs::remove_file(&probe)
}

/// A side's record in words, each count with its noun in the right number (`1 win, 0 draws,
/// 2 losses`).
fn record_text(r: SideRecord) -> String {
    let counted =
        |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        counted(r.wins, "win", "wins"),
        counted(r.draws, "draw", "draws"),
        counted(r.losses, "loss", "losses")
    )
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

fn game_report(game: &GameResult, file: Option<&str>) -> GameReport {
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
        file: file.map(str::to_owned),
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
