//! `brandubh bot HOST[:PORT] --name NAME --level LEVEL`: the engine playing on a server by
//! itself, as an account marked as a bot ([`crate::net::bot`]), taking challenges and
//! rematches while it has room under `--games`. A service: it asks nothing
//! on the terminal (a server not pinned yet needs `--trust`), logs on stderr (one line per
//! game opened, begun and ended), and on SIGTERM or SIGINT withdraws its open game and exits
//! with 0 (as `brandubh serve` does); a second signal ends it at once, with 128 + its number.

use std::process::ExitCode;

use clap::Args;
use clap::builder::TypedValueParser as _;
use signal_hook::consts::signal::{SIGINT, SIGTERM};

use super::error::CliError;
use super::serve::{LogLevel, start_log};
use crate::game::Level;
use crate::net::bot::{Bot, BotConfig, DEFAULT_GAMES, Stopper, key_folder};
use crate::net::client::ClientConfig;
use crate::net::identity::config_dir;
use crate::net::protocol::{GameSetup, SideChoice, Timing, normalize_name};
use crate::quote::excerpt;
use crate::rules::Preset;

/// Arguments of `brandubh bot`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The server, HOST or HOST:PORT (port 7343 when none is given).
    pub server: String,
    /// The bot's name on the server (its key is kept under bots/NAME in the config folder).
    #[arg(long, value_name = "NAME")]
    pub name: String,
    /// How strong it plays.
    #[arg(long, value_parser = super::parsers::level_parser())]
    pub level: Level,
    /// The rules of the games it opens.
    #[arg(long, value_parser = super::parsers::preset_parser(), default_value = "standard")]
    pub rules: Preset,
    /// The clock of the games it opens, as `play --clock` writes it (5m+3s), `none`, or days
    /// per move for correspondence (3d/move).
    #[arg(long, value_name = "CONTROL", default_value = "5m+3s")]
    pub clock: Timing,
    /// The games it opens are casual (rated unless given: in the bots' pools, or with people
    /// where the server says so).
    #[arg(long)]
    pub casual: bool,
    /// The most games it holds at once, open and playing (1 to 8).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES,
          value_parser = clap::value_parser!(u8).range(1..=8).map(usize::from))]
    pub games: usize,
    /// Trust the server's key if it shows this fingerprint (`SHA256:...`, as `brandubh serve`
    /// prints it), and pin it: needed the first time, since a bot asks no question.
    #[arg(long, value_name = "FINGERPRINT")]
    pub trust: Option<String>,
    /// Do not pin the server's key (loopback servers only, for tests).
    #[arg(long)]
    pub insecure: bool,
    /// The least important log lines written (on stderr, one line each with its time).
    #[arg(long, value_name = "LEVEL", value_enum, default_value_t = LogLevel::Info)]
    pub log_level: LogLevel,
}

/// Runs the bot until a signal stops it (exit code 0) or it cannot go on (an error).
pub(super) fn run(args: &BotArgs) -> Result<ExitCode, CliError> {
    let name = normalize_name(&args.name)
        .map_err(|e| CliError::new(format!("--name \"{}\": {e}", excerpt(&args.name))))?;
    let config = config_dir().ok_or_else(|| CliError::new("no config folder"))?;
    let mut client = ClientConfig::new(&args.server, Some(&name), key_folder(&config, &name));
    client.trust.clone_from(&args.trust);
    client.insecure = args.insecure;
    start_log(args.log_level)?;
    let bot = Bot::new(BotConfig {
        client,
        level: args.level,
        setup: GameSetup {
            rules: args.rules,
            side: SideChoice::Random,
            timing: args.clock,
            private: false,
            engine_allowed: false,
            rated: !args.casual,
        },
        games: args.games,
    });
    stop_on_signals(bot.stopper())?;
    tracing::info!(
        name,
        level = args.level.name(),
        games = args.games,
        "bot started"
    );
    bot.run().map_err(|e| CliError::new(e.to_string()))?;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// Stops the bot on the first SIGTERM or SIGINT; exits at once on a second one, with 128 +
/// its number.
fn stop_on_signals(stopper: Stopper) -> Result<(), CliError> {
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT])
        .map_err(|e| CliError::new(format!("cannot catch the stopping signals: {e}")))?;
    // Not joined: it waits for signals as long as the program runs.
    let _detached = std::thread::Builder::new()
        .name("brandubh-signals".into())
        .spawn(move || {
            let mut coming = signals.forever();
            if let Some(first) = coming.next() {
                tracing::info!(signal = first, "signal received");
                stopper.stop();
            }
            if let Some(second) = coming.next() {
                tracing::warn!(signal = second, "a second signal: stopping at once");
                std::process::exit(128 + second);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::cli::{Cli, Command};
    use crate::net::bot::MOST_GAMES;

    fn parsed(extra: &[&str]) -> Result<super::BotArgs, String> {
        let args = ["brandubh", "bot", "h", "--name", "b", "--level", "easy"];
        match Cli::try_parse_from(args.iter().chain(extra))
            .map_err(|e| e.to_string())?
            .command
        {
            Some(Command::Bot(args)) => Ok(args),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn a_bot_s_games_are_rated_unless_casual_is_given() {
        assert_eq!(parsed(&[]).map(|a| a.casual), Ok(false));
        assert_eq!(parsed(&["--casual"]).map(|a| a.casual), Ok(true));
    }

    fn games(given: &str) -> Result<usize, String> {
        parsed(&["--games", given]).map(|a| a.games)
    }

    #[test]
    fn games_are_one_to_the_most_a_bot_holds() {
        assert_eq!(games("1"), Ok(1));
        assert_eq!(games(&MOST_GAMES.to_string()), Ok(MOST_GAMES));
        assert!(games(&(MOST_GAMES + 1).to_string()).is_err());
        assert!(games("0").is_err());
    }
}
