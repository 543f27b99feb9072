//! The command-line interface: argument definitions and the commands behind them.
//! `main.rs` only parses and dispatches; each command's logic lives here.

mod analyze;
mod analyze_game;
mod completions;
mod engine_match;
mod export;
mod help;
mod manpage;
mod online;
mod otep;
mod perft;
mod play;
mod puzzles;
mod replay;
mod serve;

use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, Styles, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::game::Level;
use crate::game::storage::create_folders;
use crate::quote::{MESSAGE_CHARS, escaped, excerpt, quoted_path};
use crate::rules::{Position, Preset, Rules};

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
    /// Train on puzzles, or make and check puzzle sets.
    Puzzles(puzzles::PuzzlesArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff).
    Manpage(manpage::ManpageArgs),
    /// Print this message or the help of the given command.
    Help(help::HelpArgs),
}

/// The rule preset and start position shared by several commands.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule preset.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
    /// Start position string, rank 1 first, e.g. "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
}

impl RulesArgs {
    /// The rules and the parsed start position (the standard one if none was given).
    pub fn resolve(&self) -> Result<(Rules, Position), CliError> {
        let position = match &self.position {
            None => Position::start(),
            Some(text) => text
                .parse()
                .map_err(|e| CliError::new(format!("--position \"{}\": {e}", excerpt(text))))?,
        };
        Ok((self.rules.rules(), position))
    }
}

/// The parser of `--rules`: a preset by its name, each listed in the help with what sets it
/// apart. The rules engine knows nothing of the command line; this is its view of [`Preset`].
pub fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    choice_parser(Preset::ALL, Preset::name, preset_help)
}

/// The parser of an engine's level (`otep --level`): a level by its name, each listed in the
/// help with what it is for. The game layer knows nothing of the command line; this is its
/// view of [`Level`].
pub fn level_parser() -> impl TypedValueParser<Value = Level> {
    choice_parser(Level::ALL, Level::name, level_help)
}

/// The parser of one of `all`, each given by its `name` and listed in the help with its line
/// of `help`; another name is refused with the list of names (as clap's `ValueEnum` does).
fn choice_parser<T, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Default + Send + Sync + 'static,
{
    let values = all.map(|choice| PossibleValue::new(name(choice)).help(help(choice)));
    // The names were checked against the possible values: every one is found.
    PossibleValuesParser::new(values).map(move |given| {
        all.into_iter()
            .find(|choice| name(*choice) == given)
            .unwrap_or_default()
    })
}

/// A level's line in the help of `--level`.
const fn level_help(level: Level) -> &'static str {
    match level {
        Level::Easy => "For beginners: shallow and a little random",
        Level::Medium => "For casual players",
        Level::Hard => "For strong players",
        Level::Max => "Everything the engine has, using the full time given",
    }
}

/// A preset's line in the help of `--rules`.
const fn preset_help(preset: Preset) -> &'static str {
    match preset {
        Preset::Standard => "The weak-king rules of the common English rules page (the default)",
        Preset::Walker => {
            "Damian Walker's 2011 rules, based on Fetlar: the king taken by two anywhere"
        }
        Preset::Nielsen => "Aage Nielsen's reconstruction: the king safe on the edge",
        Preset::Fellhuhn => "The Fellhuhn Brandubh app: the king taken by two, surrounding wins",
        Preset::OpenTafl => "OpenTafl's built-in Brandub rules: repetition draws",
    }
}

/// A failed command: one line saying what and where. The process exits with code 2.
#[derive(Debug)]
pub struct CliError {
    message: String,
    broken_pipe: bool,
}

impl CliError {
    /// An error with this message; control characters in it (from the input it quotes) are
    /// escaped, so that printing it cannot drive the terminal.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: escaped(&message.into(), MESSAGE_CHARS),
            broken_pipe: false,
        }
    }

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

    /// Whether the error is only that the reader of our output went away (`| head`):
    /// nothing to report then.
    pub const fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError {
            broken_pipe: e.kind() == io::ErrorKind::BrokenPipe,
            message: format!("cannot write output: {e}"),
        }
    }
}

/// Makes the folder `dir` a command writes into (given as `named`, such as `--save-dir `),
/// and those on the way; a file where one should be is named in one clear line.
fn make_folder(dir: &Path, named: &str) -> Result<(), CliError> {
    create_folders(dir).map_err(|e| CliError::new(format!("{named}{}: {e}", quoted_path(dir))))
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
        Some(Command::Perft(args)) => perft::run(&args, out),
        Some(Command::Replay(args)) => replay::run(&args, out),
        Some(Command::Analyze(args)) => analyze::run(&args, out),
        Some(Command::Export(args)) => export::run(&args, out),
        Some(Command::Otep(args)) => otep::run(&args, out),
        Some(Command::Help(args)) => help::run(&args, out),
        Some(Command::Completions(args)) => completions::run(&args, out),
        Some(Command::Manpage(args)) => manpage::run(&args, out),
        Some(Command::Serve(args)) => serve::run(&args, out),
        // The trainer is the terminal game's; the tools print.
        Some(Command::Puzzles(args)) => return puzzles::run(&args, out),
    }?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
