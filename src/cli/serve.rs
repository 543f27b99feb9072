//! `brandubh serve`: run a game server.

use std::io::Write;
use std::path::PathBuf;

use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::game::parse_duration;
use crate::net::server::{self, DEFAULT_LISTEN, Limits, ServerConfig};

/// Arguments of `brandubh serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
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
    /// game is lost (correspondence games have no such limit).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub return_window: Duration,
    /// The most new names claimed from one address in a minute (a load test from one
    /// machine needs more).
    #[arg(long, value_name = "N", default_value_t = Limits::default().new_names_per_minute)]
    pub new_names_per_minute: usize,
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
    let data = match &args.data {
        Some(dir) => dir.clone(),
        None => server::default_data_dir()
            .ok_or_else(|| CliError::new("no data folder: give one with --data DIR"))?,
    };
    let config = ServerConfig {
        listen: args.listen.clone(),
        data,
        limits: Limits {
            per_address: args.per_address,
            connections: args.max_connections,
            return_window: args.return_window,
            new_names_per_minute: args.new_names_per_minute,
            ..Limits::default()
        },
    };
    let files = server::raise_open_files_limit();
    let running = server::start(config).map_err(|e| CliError::new(e.to_string()))?;
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
