//! `brandubh analyze FILE --game`: analyze every move of a saved game and print one line per
//! ply and a summary per side, or one JSON object.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::error::CliError;
use crate::ai::{Analyzer, Budget};
use crate::game::{Game, PlyAnalysis, SideSummary, Summary};
use crate::rules::{AnnotatedMove, Side};

/// One ply as `--json` prints it. Scores are for the mover (a win in n plies is 30000 - n).
#[derive(Serialize)]
struct PlyReport {
    ply: usize,
    side: &'static str,
    #[serde(rename = "move")]
    played: String,
    score_before: i32,
    score_after: i32,
    best: String,
    best_score: i32,
    class: &'static str,
    only_move: bool,
    mark: &'static str,
    depth: u32,
    pv: Vec<String>,
}

/// One side's summary as `--json` prints it.
#[derive(Serialize)]
struct SideReport {
    moves: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    /// `null` when no move of the side was analyzed.
    average_loss: Option<f64>,
}

impl From<&SideSummary> for SideReport {
    fn from(s: &SideSummary) -> SideReport {
        SideReport {
            moves: s.moves,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            average_loss: s.average_loss().map(|a| (a * 10.0).round() / 10.0),
        }
    }
}

/// The whole report as `--json` prints it.
#[derive(Serialize)]
struct GameReport {
    plies: Vec<PlyReport>,
    summary: SummaryReport,
}

#[derive(Serialize)]
struct SummaryReport {
    attackers: SideReport,
    defenders: SideReport,
}

/// Analyses every move of `game` within `budget` per position and prints the result.
pub(super) fn run(
    game: &Game,
    budget: Budget,
    tt_megabytes: usize,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let stop = AtomicBool::new(false);
    let plies = Analyzer::new(tt_megabytes)
        .analyze(game, budget, &stop, &mut |_| {})
        .map_err(|e| CliError::new(e.to_string()))?;
    let first = game.state().start_position().side_to_move();
    let summary = Summary::new(first, plies.iter().map(Some));
    let rows = game
        .moves()
        .iter()
        .zip(&plies)
        .enumerate()
        .map(|(i, (played, ply))| {
            let side = if i % 2 == 0 { first } else { first.opponent() };
            (i + 1, side, *played, ply)
        });
    if json {
        let report = GameReport {
            plies: rows
                .map(|(n, side, played, ply)| ply_report(n, side, played, ply))
                .collect(),
            summary: SummaryReport {
                attackers: (&summary.attackers).into(),
                defenders: (&summary.defenders).into(),
            },
        };
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{:>3}  {:<9}  {:<14} {:>19} {:>19}  {:<14} {:>19}  class",
        "ply", "side", "move", "before", "after", "best", "best score"
    )?;
    for (n, side, played, ply) in rows {
        writeln!(
            out,
            "{n:>3}  {:<9}  {:<14} {:>19} {:>19}  {:<14} {:>19}  {}",
            side.name(),
            format!("{played}{}", ply.mark()),
            ply.score_before.text(side),
            ply.score_after.text(side),
            ply.best.to_string(),
            ply.best_score().text(side),
            ply.class
        )?;
    }
    for side in [Side::Attackers, Side::Defenders] {
        writeln!(out, "{}", summary_line(side, summary.side(side)))?;
    }
    Ok(())
}

fn ply_report(n: usize, side: Side, played: AnnotatedMove, ply: &PlyAnalysis) -> PlyReport {
    PlyReport {
        ply: n,
        side: side.name(),
        played: played.to_string(),
        score_before: ply.score_before.value(),
        score_after: ply.score_after.value(),
        best: ply.best.to_string(),
        best_score: ply.best_score().value(),
        class: ply.class.name(),
        only_move: ply.only_move,
        mark: ply.mark(),
        depth: ply.depth,
        pv: ply.pv.iter().map(ToString::to_string).collect(),
    }
}

/// `attackers: 8 moves, 1 inaccuracy, 0 mistakes, 2 blunders, average loss 41.3`.
fn summary_line(side: Side, s: &SideSummary) -> String {
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let average = s
        .average_loss()
        .map_or_else(|| "-".to_owned(), |a| format!("{a:.1}"));
    format!(
        "{}: {}, {}, {}, {}, average loss {average}",
        side.name(),
        count(s.moves, "move", "moves"),
        count(s.inaccuracies, "inaccuracy", "inaccuracies"),
        count(s.mistakes, "mistake", "mistakes"),
        count(s.blunders, "blunder", "blunders"),
    )
}
