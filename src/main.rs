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
            eprintln!("brandubh: {}", summary(&text));
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

/// clap's first paragraph (the error and its details) on one line, without the usage.
fn summary(text: &str) -> String {
    let paragraph = text.split("\n\n").next().unwrap_or_default();
    let words: Vec<&str> = paragraph.split_whitespace().collect();
    words.join(" ").trim_start_matches("error: ").to_owned()
}
