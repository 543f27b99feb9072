//! `brandubh puzzles`: the puzzle trainer, and the tools that make and check puzzle sets.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::error::CliError;
use super::folder::make_folder;
use super::parsers::preset_parser;
use super::play::PlayArgs;
use crate::game::MAX_SAVE_BYTES;
use crate::game::format_duration;
use crate::game::storage::{read_regular_file, same_file, write_file};
use crate::puzzle::{
    GenerateConfig, MAX_SET_BYTES, Puzzle, PuzzleSet, Solver, generate, puzzle_from_otg,
    puzzle_to_otg, shipped,
};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt, quoted_path};
use crate::rules::Preset;

/// Arguments of `brandubh puzzles`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct PuzzlesArgs {
    /// Make or check puzzle sets instead of training.
    #[command(subcommand)]
    pub tool: Option<PuzzleTool>,
    /// The rules whose puzzles to train on.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
}

/// The puzzle tools.
#[derive(Subcommand, Debug)]
pub enum PuzzleTool {
    /// Generate a puzzle set from engine self-play (reproducible for a seed).
    Generate(GenerateArgs),
    /// Re-verify every puzzle of a set by exact search and time it.
    Verify(VerifyArgs),
    /// Read OpenTafl puzzle records (`.otg` with `puzzle-mode`) into a puzzle set; those
    /// whose solution does not verify are reported and skipped.
    Import(ImportArgs),
    /// Write each puzzle of a set as an OpenTafl puzzle record (`ID.otg`) in a folder.
    Export(ExportArgs),
}

/// Arguments of `brandubh puzzles import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The records.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The preset of the set: records under other rules are skipped.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
    /// Where to write the set (JSON).
    #[arg(long)]
    pub out: PathBuf,
}

/// Arguments of `brandubh puzzles export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The puzzle set (JSON).
    pub set: PathBuf,
    /// The folder to write the records in (made if missing).
    pub dir: PathBuf,
}

/// Arguments of `brandubh puzzles generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Rule preset.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
    /// How many puzzles to keep.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub count: u32,
    /// The seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most self-play games to play.
    #[arg(long, default_value_t = 5000)]
    pub max_games: u32,
    /// Where to write the set (JSON).
    #[arg(long)]
    pub out: PathBuf,
}

/// Arguments of `brandubh puzzles verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A puzzle set; without it, the set shipped for `--rules`.
    pub file: Option<PathBuf>,
    /// The preset whose shipped set to verify.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
}

pub(super) fn run(args: &PuzzlesArgs, out: &mut dyn Write) -> Result<ExitCode, CliError> {
    match &args.tool {
        Some(PuzzleTool::Generate(args)) => run_generate(args, out)?,
        Some(PuzzleTool::Verify(args)) => run_verify(args, out)?,
        Some(PuzzleTool::Import(args)) => run_import(args, out)?,
        Some(PuzzleTool::Export(args)) => run_export(args, out)?,
        None => return super::play::run_with(&PlayArgs::default(), Some(args.rules)),
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn run_generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let config = GenerateConfig {
        preset: args.rules,
        count: args.count as usize,
        seed: args.seed,
        max_games: args.max_games as usize,
    };
    let began = Instant::now();
    let generated = generate(config, &mut |done| {
        if done.games % 25 == 0 {
            let _ = writeln!(
                std::io::stderr(),
                "{} games, {}, {}",
                done.games,
                puzzles_in_words(done.puzzles.len()),
                format_duration(began.elapsed())
            );
        }
    });
    let elapsed = began.elapsed();
    let set = PuzzleSet::new(args.rules, generated.puzzles);
    write_file(&args.out, |file| file.write_all(set.to_json().as_bytes()))
        .map_err(|e| CliError::new(e.to_string()))?;
    let r = generated.rejected;
    writeln!(
        out,
        "{} for {} from {} games in {}; {} candidates, rejected: {} not unique, {} too easy, {} symmetric duplicates",
        puzzles_in_words(set.puzzles.len()),
        args.rules,
        generated.games,
        format_duration(elapsed),
        generated.candidates,
        r.not_unique,
        r.too_easy,
        r.duplicate
    )?;
    Ok(())
}

/// The puzzle set in the file at `path`.
fn read_set(path: &Path) -> Result<PuzzleSet, CliError> {
    let in_file = |why: String| CliError::new(format!("{}: {why}", quoted_path(path)));
    let (bytes, _) = read_regular_file(path, MAX_SET_BYTES).map_err(|e| in_file(e.to_string()))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| in_file(format!("not UTF-8: {e}")))?;
    PuzzleSet::from_json(text).map_err(|e| in_file(e.to_string()))
}

fn run_import(args: &ImportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(record) = args.files.iter().find(|f| same_file(f, &args.out)) {
        return Err(CliError::new(format!(
            "--out {} is the record {}: the set would be written over it",
            quoted_path(&args.out),
            quoted_path(record)
        )));
    }
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut skipped = 0;
    for path in &args.files {
        match read_puzzle(path, args.rules, &puzzles) {
            Ok(puzzle) => puzzles.push(puzzle),
            Err(why) => {
                skipped += 1;
                writeln!(
                    out,
                    "{}: skipped: {}",
                    quoted_path(path),
                    escaped(&why, MESSAGE_CHARS)
                )?;
            }
        }
    }
    if puzzles.is_empty() {
        return Err(CliError::new(format!(
            "no puzzle read ({skipped} skipped): nothing written to {}",
            quoted_path(&args.out)
        )));
    }
    let set = PuzzleSet::new(args.rules, puzzles);
    write_file(&args.out, |file| file.write_all(set.to_json().as_bytes()))
        .map_err(|e| CliError::new(e.to_string()))?;
    writeln!(
        out,
        "{} for {} written to {}; {skipped} skipped",
        puzzles_in_words(set.puzzles.len()),
        args.rules,
        quoted_path(&args.out)
    )?;
    Ok(())
}

/// The puzzle of the record at `path`, if it is one under `rules` named unlike those of
/// `read`; else why not.
fn read_puzzle(path: &Path, rules: Preset, read: &[Puzzle]) -> Result<Puzzle, String> {
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let (bytes, _) = read_regular_file(path, MAX_SAVE_BYTES).map_err(|e| e.to_string())?;
    let puzzle = puzzle_from_otg(&bytes, &name).map_err(|e| e.to_string())?;
    if puzzle.preset != rules {
        Err(format!("its rules are {}, not {rules}", puzzle.preset))
    } else if read.iter().any(|p| p.id == puzzle.id) {
        Err(format!("a puzzle named {} was read before", puzzle.id))
    } else {
        Ok(puzzle)
    }
}

fn run_export(args: &ExportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let set = read_set(&args.set)?;
    // Every record made, and named apart, before the first is written.
    let mut records: BTreeMap<String, (&str, String)> = BTreeMap::new();
    for puzzle in &set.puzzles {
        let text = puzzle_to_otg(puzzle)
            .map_err(|e| CliError::new(format!("puzzle {}: {e}", puzzle.id)))?;
        let name = format!("{}.otg", file_name(&puzzle.id));
        if let Some((other, _)) = records.get(&name) {
            return Err(CliError::new(format!(
                "puzzles with the ids \"{}\" and \"{}\" would both be written to {name}",
                excerpt(other),
                excerpt(&puzzle.id)
            )));
        }
        records.insert(name, (&puzzle.id, text));
    }
    make_folder(&args.dir, "")?;
    for (name, (_, text)) in &records {
        write_file(&args.dir.join(name), |file| file.write_all(text.as_bytes()))
            .map_err(|e| CliError::new(e.to_string()))?;
    }
    writeln!(
        out,
        "{} written to {}",
        puzzles_in_words(records.len()),
        quoted_path(&args.dir)
    )?;
    Ok(())
}

/// A puzzle id as a file name: characters other than letters, digits, `-` and `_` become `_`.
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn run_verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let set = match &args.file {
        Some(path) => read_set(path)?,
        None => shipped(args.rules).map_err(|e| CliError::new(e.to_string()))?,
    };
    let began = Instant::now();
    let mut times: Vec<Duration> = Vec::with_capacity(set.puzzles.len());
    for puzzle in &set.puzzles {
        let one = Instant::now();
        puzzle
            .verify(&mut Solver::new())
            .map_err(|e| CliError::new(format!("puzzle {}: {e}", puzzle.id)))?;
        times.push(one.elapsed());
    }
    times.sort_unstable();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let slowest = times.last().copied().unwrap_or_default();
    writeln!(
        out,
        "{} for {} verified in {}; median {:.1} ms, slowest {:.1} ms",
        puzzles_in_words(set.puzzles.len()),
        set.preset,
        format_duration(began.elapsed()),
        median.as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0
    )?;
    Ok(())
}

/// `n` puzzles in words: `1 puzzle`, `3 puzzles`.
fn puzzles_in_words(n: usize) -> String {
    if n == 1 {
        "1 puzzle".to_owned()
    } else {
        format!("{n} puzzles")
    }
}
