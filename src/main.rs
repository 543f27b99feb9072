//! The `brandubh` binary: parse the command line and dispatch to the library.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use brandubh::cli::{self, Cli};
use clap::Parser;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.render().to_string();
            eprintln!(
                "brandubh: {}",
                first_line(&text).trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cli::run(cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("brandubh: {e}");
            ExitCode::from(2)
        }
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}
