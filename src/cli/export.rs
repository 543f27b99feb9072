//! `brandubh export`: write a game file as an OpenTafl game record or in our save format.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::error::CliError;
use crate::game::{import, storage};

/// The formats `export` writes.
#[derive(Copy, Clone, Eq, PartialEq, Debug, ValueEnum)]
pub enum ExportFormat {
    /// OpenTafl's game record (`.otg`).
    Otg,
    /// Our save format.
    Json,
}

/// Arguments of `brandubh export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The game file (a saved game, an OpenTafl `.otg` record or a move record).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Write to this file (atomically; through a link to the file it names; in place for a
    /// device or a FIFO) instead of standard output; `-` is standard output.
    #[arg(long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

pub(super) fn run(args: &ExportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = storage::load(&args.file).map_err(|e| CliError::new(e.to_string()))?;
    let otg = match args.format {
        ExportFormat::Otg => Some(import::to_otg(&game).map_err(|e| CliError::new(e.to_string()))?),
        ExportFormat::Json => None,
    };
    // A save's own writer: a game beyond what a save holds would be refused, never written
    // (a game loaded is within the bounds).
    let write = |out: &mut dyn Write| match &otg {
        Some(text) => out.write_all(text.as_bytes()),
        None => game.write_json(out),
    };
    match args.output.as_deref() {
        Some(path) if path != Path::new("-") => {
            storage::write_file(path, write).map_err(|e| CliError::new(e.to_string()))
        }
        _ => Ok(write(out)?),
    }
}
