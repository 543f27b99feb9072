//! `brandubh export`: write a game file as an OpenTafl game record or in our save format.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::CliError;
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
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

pub(super) fn run(args: &ExportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = storage::load(&args.file).map_err(|e| CliError::new(e.to_string()))?;
    let text = match args.format {
        ExportFormat::Otg => import::to_otg(&game).map_err(|e| CliError::new(e.to_string()))?,
        ExportFormat::Json => game.to_json(),
    };
    match &args.output {
        Some(path) => {
            storage::write_text_atomic(path, &text).map_err(|e| CliError::new(e.to_string()))
        }
        None => Ok(out.write_all(text.as_bytes())?),
    }
}
