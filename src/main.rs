//! The `brandubh` binary: parse the command line and dispatch to the library.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use brandubh::cli::{self, Cli, CliError};
use clap::Parser;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&CliError::from_clap(e)),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cli::run(cli, &mut out) {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// Reports `error` on stderr (if stderr is gone, there is no one to tell) and exits with 2.
fn fail(error: &CliError) -> ExitCode {
    let _ = writeln!(io::stderr(), "brandubh: {error}");
    ExitCode::from(2)
}
