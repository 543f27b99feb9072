//! `brandubh otep`: speak the OpenTafl Engine Protocol on stdin and stdout.

use std::fs::OpenOptions;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::error::CliError;
use super::parsers::level_parser;
use crate::ai::RealTime;
use crate::game::{Level, parse_duration};
use crate::otep::{Options, serve};

/// Arguments of `brandubh otep`.
#[derive(Args, Debug)]
pub struct OtepArgs {
    /// Append every protocol line, in and out, to this file (never to stdout).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Engine level.
    #[arg(long, value_parser = level_parser(), default_value_t = Level::Max)]
    pub level: Level,
    /// Thinking time per move when OpenTafl runs no clock, e.g. 2s or 500ms.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub time: Duration,
    /// Seed of the engine's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub(super) fn run(args: &OtepArgs, _out: &mut dyn Write) -> Result<(), CliError> {
    let log: Option<Box<dyn Write + Send>> = match &args.log {
        None => None,
        Some(path) => Some(Box::new(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| CliError::new(format!("--log {}: {e}", path.display())))?,
        )),
    };
    let options = Options {
        level: args.level,
        default_time: args.time,
        seed: args.seed,
        time: Arc::new(RealTime),
    };
    serve(BufReader::new(io::stdin()), io::stdout(), log, options)?;
    Ok(())
}
