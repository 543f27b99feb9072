//! The command-line interface: argument definitions and the commands behind them.
//! `main.rs` only parses and dispatches; each command's logic lives here.

mod analyze;
mod analyze_game;
mod bot;
mod completions;
mod engine_match;
mod error;
mod export;
mod folder;
mod help;
mod leaderboard;
mod manpage;
mod online;
mod otep;
mod parsers;
mod perft;
mod play;
mod puzzles;
mod replay;
mod requests;
mod rules_args;
mod serve;

use std::io::Write;
use std::process::ExitCode;

use clap::builder::Styles;
use clap::{CommandFactory, Parser, Subcommand};

pub use error::CliError;
pub use parsers::{level_parser, preset_parser};
pub use rules_args::RulesArgs;

/// Brandubh, the Irish 7×7 tafl game.
#[derive(Parser, Debug)]
#[command(name = "brandubh", version = env!("BRANDUBH_VERSION"), about, long_about = None)]
#[command(args_conflicts_with_subcommands = true, disable_help_subcommand = true)]
pub struct Cli {
    /// What to do; without a command, the terminal game starts (as `brandubh play`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The terminal game's options, when no command is given.
    #[command(flatten)]
    pub play: play::PlayArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play in the terminal (the default).
    Play(play::PlayArgs),
    /// Count move sequences from a position (a rules-engine check and benchmark).
    Perft(perft::PerftArgs),
    /// Replay a game move by move, printing each move annotated and the result.
    Replay(replay::ReplayArgs),
    /// Search a position: best move, score, depth, nodes and best line.
    Analyze(analyze::AnalyzeArgs),
    /// Write a game file as an OpenTafl game record (`.otg`) or in our save format (JSON).
    Export(export::ExportArgs),
    /// Play engines against each other and report the score and the Elo difference.
    Match(engine_match::MatchArgs),
    /// Speak the OpenTafl Engine Protocol on stdin/stdout (register with OpenTafl as an engine).
    Otep(otep::OtepArgs),
    /// Run a game server for online play (TLS; games kept in `SQLite`).
    Serve(serve::ServeArgs),
    /// Play on a game server: its lobby in the terminal, or a player's games downloaded.
    Online(online::OnlineArgs),
    /// Run the engine on a game server as a bot: it keeps a game open and plays whoever joins.
    Bot(bot::BotArgs),
    /// Train on puzzles, or make and check puzzle sets.
    Puzzles(puzzles::PuzzlesArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff).
    Manpage(manpage::ManpageArgs),
    /// Print this message or the help of the given command.
    Help(help::HelpArgs),
}

impl CliError {
    /// A command line clap refused, in one line: clap's first paragraph (the error and its
    /// details) without the usage, with the arguments it quotes escaped rather than dropped.
    pub fn from_clap(error: clap::Error) -> CliError {
        // Rendered without styles, so that the text holds no escape sequences but the input's.
        let error = error.format(&mut Cli::command().styles(Styles::plain()));
        let text = error.render().ansi().to_string();
        let paragraph = text.split("\n\n").next().unwrap_or_default();
        let words: Vec<&str> = paragraph.split_whitespace().collect();
        CliError::new(words.join(" ").trim_start_matches("error: "))
    }
}

/// Runs a parsed command, writing its output to `out`; the exit code to end with: success, or
/// for the terminal game ended by a signal, 128 + the signal's number.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<ExitCode, CliError> {
    crate::game::storage::survive_file_size_limit();
    match cli.command {
        // The terminal game writes to the terminal, not to `out`.
        None => return play::run(&cli.play),
        Some(Command::Play(args)) => return play::run(&args),
        // A match stopped by a signal ends as if killed by it.
        Some(Command::Match(args)) => return engine_match::run(&args, out),
        // Online play is the terminal game's, or prints an archive.
        Some(Command::Online(args)) => return online::run(&args, out),
        // A service: it runs until a signal stops it.
        Some(Command::Bot(args)) => return bot::run(&args),
        Some(Command::Perft(args)) => perft::run(&args, out),
        Some(Command::Replay(args)) => replay::run(&args, out),
        Some(Command::Analyze(args)) => analyze::run(&args, out),
        Some(Command::Export(args)) => export::run(&args, out),
        Some(Command::Otep(args)) => otep::run(&args, out),
        Some(Command::Help(args)) => help::run(&args, Cli::command(), out),
        Some(Command::Completions(args)) => completions::run(&args, Cli::command(), out),
        Some(Command::Manpage(args)) => manpage::run(&args, Cli::command(), out),
        Some(Command::Serve(args)) => serve::run(&args, out),
        // The trainer is the terminal game's; the tools print.
        Some(Command::Puzzles(args)) => return puzzles::run(&args, out),
    }?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
