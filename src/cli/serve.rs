//! `brandubh serve`: run a game server, its log on stderr; `brandubh serve backup`: copy a
//! running server's database.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use tracing_subscriber::filter::LevelFilter;

use super::error::CliError;
use crate::game::parse_duration;
use crate::net::server::{self, DEFAULT_LISTEN, Limits, ServerConfig};

/// Arguments of `brandubh serve`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeArgs {
    /// Something else than running the server.
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
    /// The address to listen on (0.0.0.0:7343 for every network).
    #[arg(long, value_name = "ADDR", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// The folder of the server's key and database (default: brandubh-server in the data
    /// folder).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The most connections from one address.
    #[arg(long, value_name = "N", default_value_t = Limits::default().per_address)]
    pub per_address: usize,
    /// The most connections in all.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections)]
    pub max_connections: usize,
    /// How long a player who dropped out of a game on a clock has to come back before the
    /// opponent may claim the win (the server ends it after 10 of these; correspondence
    /// games have no such limit).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub return_window: Duration,
    /// The most new names claimed from one address in a minute (a load test from one
    /// machine needs more).
    #[arg(long, value_name = "N", default_value_t = Limits::default().new_names_per_minute)]
    pub new_names_per_minute: usize,
    /// Rate the games with a bot in them in the people's pools (by default bots are rated
    /// in pools of their own, one per rules and speed).
    #[arg(long)]
    pub bots_rated_with_humans: bool,
    /// The least important log lines written (on stderr, one line each with its time).
    #[arg(long, value_name = "LEVEL", value_enum, default_value_t = LogLevel::Info)]
    pub log_level: LogLevel,
}

/// What `brandubh serve` does besides running the server.
#[derive(Subcommand, Debug)]
pub enum ServeCommand {
    /// Copy the database of a server, running or not, into FILE: consistent (as it stood at
    /// one moment), one file, checked, written atomically.
    Backup(BackupArgs),
}

/// Arguments of `brandubh serve backup`.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The copy to write (an existing file is kept unless --force is given).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The server's data folder (default: brandubh-server in the data folder).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// How much the server logs.
#[derive(Copy, Clone, Eq, PartialEq, Debug, ValueEnum)]
pub enum LogLevel {
    /// Nothing.
    Off,
    /// Errors: the database failing.
    Error,
    /// And warnings: connections refused over the caps, a second signal.
    Warn,
    /// And connections, identities, games begun and ended, requests refused, start and stop.
    Info,
    /// And what helps find a bug.
    Debug,
    /// Everything.
    Trace,
}

impl From<LogLevel> for LevelFilter {
    fn from(level: LogLevel) -> LevelFilter {
        match level {
            LogLevel::Off => LevelFilter::OFF,
            LogLevel::Error => LevelFilter::ERROR,
            LogLevel::Warn => LevelFilter::WARN,
            LogLevel::Info => LevelFilter::INFO,
            LogLevel::Debug => LevelFilter::DEBUG,
            LogLevel::Trace => LevelFilter::TRACE,
        }
    }
}

/// Sends the server's log to stderr: one line per event, with its time (UTC) and level,
/// coloured on a terminal only.
pub(super) fn start_log(level: LogLevel) -> Result<(), CliError> {
    let stderr = std::io::stderr();
    tracing_subscriber::fmt()
        .with_max_level(LevelFilter::from(level))
        .with_writer(std::io::stderr)
        .with_ansi(stderr.is_terminal())
        .with_target(false)
        .try_init()
        .map_err(|e| CliError::new(format!("cannot start the log: {e}")))
}

/// The data folder given, or the default one.
fn data_dir(given: Option<&PathBuf>) -> Result<PathBuf, CliError> {
    match given {
        Some(dir) => Ok(dir.clone()),
        None => server::default_data_dir()
            .ok_or_else(|| CliError::new("no data folder: give one with --data DIR")),
    }
}

/// The start-up line about open files: the limit, and whether it is below what the
/// connections cap needs.
fn open_files_line(limit: std::io::Result<u64>, connections: usize) -> String {
    let needed = server::files_needed(connections);
    match limit {
        Ok(u64::MAX) => "open files: no limit".to_owned(),
        Ok(limit) if limit >= needed => format!("open files: up to {limit}"),
        Ok(limit) => format!(
            "open files: up to {limit}, below the {needed} that --max-connections {connections} \
             needs: raise the hard limit (ulimit -Hn, LimitNOFILE=) or lower --max-connections"
        ),
        Err(e) => format!("open files: the limit could not be raised ({e})"),
    }
}

pub(super) fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(ServeCommand::Backup(backup)) = &args.command {
        let data = data_dir(backup.data.as_ref())?;
        return server::backup(&data, &backup.file, backup.force)
            .map_err(|e| CliError::new(e.to_string()));
    }
    start_log(args.log_level)?;
    let data = data_dir(args.data.as_ref())?;
    let config = ServerConfig {
        listen: args.listen.clone(),
        data,
        limits: Limits {
            per_address: args.per_address,
            connections: args.max_connections,
            return_window: args.return_window,
            new_names_per_minute: args.new_names_per_minute,
            bots_rated_with_humans: args.bots_rated_with_humans,
            ..Limits::default()
        },
    };
    let files = server::raise_open_files_limit();
    let running = server::start(config).map_err(|e| CliError::new(e.to_string()))?;
    running
        .stop_on_signals()
        .map_err(|e| CliError::new(format!("cannot catch the stopping signals: {e}")))?;
    // One write: a reader that stops after the first lines still gets them all at once,
    // and the server never writes into a pipe already closed.
    let lines = format!(
        "brandubh server listening on {}\nkey fingerprint {}\n{}\n",
        running.addr(),
        running.fingerprint(),
        open_files_line(files, args.max_connections)
    );
    out.write_all(lines.as_bytes())?;
    out.flush()?;
    running.wait().map_err(|e| CliError::new(e.to_string()))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Cli, Command};
    use super::*;

    /// `brandubh serve ARGS…` parsed.
    fn parsed(args: &[&str]) -> ServeArgs {
        let cli = Cli::try_parse_from(["brandubh", "serve"].iter().chain(args)).unwrap();
        match cli.command {
            Some(Command::Serve(args)) => args,
            _ => panic!("not the serve command"),
        }
    }

    #[test]
    fn bots_are_rated_apart_unless_the_host_says_with_humans() {
        assert!(!parsed(&[]).bots_rated_with_humans);
        assert!(parsed(&["--bots-rated-with-humans"]).bots_rated_with_humans);
    }
}
