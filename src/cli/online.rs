//! `brandubh online HOST[:PORT]`: the terminal game's lobby on that server, or a player's
//! archived games listed and downloaded (`--games NAME`). Before the terminal is taken, the
//! server is reached once: a server that cannot be reached, a changed key, another protocol
//! version or a refused name end the command with one line and exit code 2.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;

use clap::Args;

use super::error::CliError;
use super::requests::{ANSWER_TIME, Requests, unexpected};
use crate::game::storage::default_save_dir;
use crate::game::storage::{Origin, downloaded_before, save_downloaded};
use crate::net::client::{Client, ClientConfig, ClientError, Event, check_server};
use crate::net::identity::config_dir;
use crate::net::protocol::{
    ARCHIVE_PAGE, ClientMessage, GameSetup, GameSummary, Role, ServerMessage, SideChoice, Timing,
    normalize_name, pages,
};
use crate::net::ratings::{Pool, Speed};
use crate::net::tls::{KNOWN_SERVERS_FILE, KnownServers};
use crate::quote::{excerpt, quoted_path};
use crate::rules::Preset;
use crate::tui::online_memory::OnlineMemory;
use crate::tui::settings::{self, Settings, SettingsFile};
use crate::tui::{self, Config, Ending, Look, OnlineStart, Storage};

/// Arguments of `brandubh online`.
#[derive(Args, Debug)]
pub struct OnlineArgs {
    /// The server, HOST or HOST:PORT (port 7343 when none is given).
    pub server: String,
    /// List this player's finished games on the server and download them (the server asks
    /// who reads: as --name, or the name remembered).
    #[arg(long, value_name = "NAME")]
    pub games: Option<String>,
    /// The name to play under (remembered; asked for the first time when not given).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The folder games are saved in (default: the save folder).
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// Where downloaded games go (default: the save folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Trust the server's key if it shows this fingerprint (`SHA256:...`, as `brandubh serve`
    /// prints it), and pin it: for a server not met before, without the question.
    #[arg(long, value_name = "FINGERPRINT")]
    pub trust: Option<String>,
    /// Forget the server's pinned key (after it really made a new one): its line is taken
    /// out of the known-servers file, and the next connection asks to trust the new key.
    #[arg(long)]
    pub forget: bool,
    /// Do not pin the server's key (loopback servers only, for tests).
    #[arg(long)]
    pub insecure: bool,
    /// The rules the create form (`c` in the lobby) starts with.
    #[arg(long, value_parser = super::parsers::preset_parser())]
    pub rules: Option<Preset>,
    /// The side the create form starts with: attackers, defenders or random.
    #[arg(long, value_name = "SIDE", value_parser = parse_side)]
    pub side: Option<SideChoice>,
    /// The clock the create form starts with, as `play --clock` writes it (5m+3s), or days
    /// per move for correspondence (3d/move).
    #[arg(long, value_name = "CONTROL")]
    pub clock: Option<Timing>,
    /// The create form starts rated (the default: the game changes both players' ratings).
    #[arg(long, conflicts_with = "casual")]
    pub rated: bool,
    /// The create form starts casual (the game changes no rating).
    #[arg(long)]
    pub casual: bool,
    /// Print the leaderboard of the rules given with --rules (standard unless given), one
    /// line per player: rank, name, rating (`?` marks a provisional one), rated games,
    /// separated by tabs; no terminal is taken.
    #[arg(long, conflicts_with = "games")]
    pub leaderboard: bool,
    /// With --leaderboard: the correspondence games' leaderboard (live games' otherwise).
    #[arg(long, requires = "leaderboard")]
    pub correspondence: bool,
    /// With --leaderboard: the bots' pool (the games with a bot in them, on a server that
    /// rates them apart from the people's).
    #[arg(long, requires = "leaderboard")]
    pub bots: bool,
    /// Challenges this player once connected, on the terms of --rules, --side and --clock.
    #[arg(long, value_name = "NAME")]
    pub challenge: Option<String>,
}

/// A side choice as written on the command line.
fn parse_side(text: &str) -> Result<SideChoice, String> {
    match text {
        "attackers" => Ok(SideChoice::Attackers),
        "defenders" => Ok(SideChoice::Defenders),
        "random" => Ok(SideChoice::Random),
        _ => Err(format!(
            "\"{}\" is not a side: attackers, defenders or random",
            excerpt(text)
        )),
    }
}

impl OnlineArgs {
    /// The game the create form starts with: `--rules`, `--side`, `--clock`, `--rated` or
    /// `--casual`, or as usual.
    fn create_setup(&self) -> Option<GameSetup> {
        let given = self.rules.is_some()
            || self.side.is_some()
            || self.clock.is_some()
            || self.rated
            || self.casual;
        given.then(|| GameSetup {
            rules: self.rules.unwrap_or_default(),
            side: self.side.unwrap_or_default(),
            timing: self.clock.unwrap_or_default(),
            rated: !self.casual,
            ..GameSetup::default()
        })
    }
}

/// Runs `brandubh online`: the lobby in the terminal game, or with `--games` the archive.
/// A server not met before shows its key's fingerprint first, to be trusted (as SSH does).
pub(super) fn run(args: &OnlineArgs, out: &mut dyn Write) -> Result<ExitCode, CliError> {
    let address = check_server(&args.server).map_err(CliError::new)?;
    let dir = config_dir().ok_or_else(|| CliError::new("no config folder"))?;
    if args.forget {
        forget(&dir, &address, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    // In the form the server keeps it (NFC), once it is a valid name.
    let memory = OnlineMemory::load(&dir);
    let name = args
        .name
        .clone()
        .or_else(|| memory.name_for(&address))
        .map(|name| {
            normalize_name(&name)
                .map_err(|e| CliError::new(format!("--name \"{}\": {e}", excerpt(&name))))
        })
        .transpose()?;
    if args.leaderboard {
        trusted(args, None)?;
        let speed = if args.correspondence {
            Speed::Correspondence
        } else {
            Speed::Live
        };
        let pool = Pool {
            rules: args.rules.unwrap_or_default(),
            speed,
            bots: args.bots,
        };
        super::leaderboard::print(&args.server, args.insecure, pool, out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let challenge = args
        .challenge
        .as_deref()
        .map(|them| {
            normalize_name(them)
                .map_err(|e| CliError::new(format!("--challenge \"{}\": {e}", excerpt(them))))
        })
        .transpose()?;
    if let Some(player) = &args.games {
        let name = name.ok_or_else(|| {
            CliError::new("--games: the server lists games to a player: give --name NAME")
        })?;
        trusted(args, Some(&name))?;
        archive(args, &name, player, out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    trusted(args, name.as_deref())?;
    let mut storage = Storage::default_places();
    if let Some(dir) = &args.save_dir {
        storage.save_dir = Some(dir.clone());
    }
    let start = OnlineStart {
        server: args.server.clone(),
        name,
        config_dir: dir,
        save_dir: storage.save_dir.clone(),
        insecure: args.insecure,
        create: args.create_setup(),
        challenge,
        muted: memory.muted,
    };
    let (settings_file, settings, _) = match settings::default_path() {
        Some(path) => SettingsFile::load(path),
        None => (SettingsFile::none(), Settings::default(), None),
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let config = Config {
        storage,
        look: Look::new(settings.theme, !no_color, settings.ascii),
        settings,
        settings_file,
        online: Some(start),
        ..Config::default()
    };
    tui::run(config)
        .map(Ending::exit_code)
        .map_err(|e| CliError::new(e.to_string()))
}

/// `--forget`: takes the key pinned for `address` out of the known-servers file in `dir`;
/// an error if none was pinned.
fn forget(dir: &Path, address: &str, out: &mut dyn Write) -> Result<(), CliError> {
    let known = KnownServers::new(dir.join(KNOWN_SERVERS_FILE));
    let file = quoted_path(known.path());
    match known.remove(address) {
        Ok(Some(key)) => {
            writeln!(out, "forgot the key of {address} ({key}) pinned in {file}")?;
            out.flush()?;
            Ok(())
        }
        Ok(None) => Err(CliError::new(format!(
            "no key is pinned for {address} in {file}: nothing to forget"
        ))),
        Err(e) => Err(CliError::new(format!("cannot change {file}: {e}"))),
    }
}

/// Reaches the server once, as `name` if given, its key pinned (asked for on the terminal
/// if the server is not known yet and `--trust` does not vouch for it): an error if it
/// cannot be reached, shows another key than the one pinned or trusted, speaks another
/// version, or refuses the name.
fn trusted(args: &OnlineArgs, name: Option<&str>) -> Result<(), CliError> {
    let dir = config_dir().ok_or_else(|| CliError::new("no config folder"))?;
    let mut trust = args.trust.clone();
    loop {
        match reach(args, name, &dir, trust.clone()) {
            Ok(()) => return Ok(()),
            Err(ClientError::UnknownServer {
                server,
                shown,
                trusted: None,
            }) => trust = Some(ask_trust(&server, &shown)?),
            Err(e) => return Err(CliError::new(e.to_string())),
        }
    }
}

/// Reaches the server once with `trust` (see [`trusted`]).
fn reach(
    args: &OnlineArgs,
    name: Option<&str>,
    dir: &std::path::Path,
    trust: Option<String>,
) -> Result<(), ClientError> {
    let mut config = ClientConfig::new(&args.server, name, dir.to_owned());
    config.insecure = args.insecure;
    config.trust = trust;
    config.reconnect = false;
    let (events, inbox) = mpsc::channel();
    let _client = Client::start(config, events);
    loop {
        match inbox.recv_timeout(ANSWER_TIME) {
            Ok(Event::Connected { .. }) => return Ok(()),
            Ok(Event::Failed(e)) => return Err(e),
            Ok(_) => {}
            Err(_) => {
                return Err(ClientError::Unreachable(
                    "the server does not answer".to_owned(),
                ));
            }
        }
    }
}

/// Asks on the terminal whether to trust the key `shown` by `server`, not met before;
/// returns it if so. Without a terminal, says how to trust it (`--trust`).
fn ask_trust(server: &str, shown: &str) -> Result<String, CliError> {
    let unknown = ClientError::UnknownServer {
        server: server.to_owned(),
        shown: shown.to_owned(),
        trusted: None,
    };
    let stdin = std::io::stdin();
    if !(stdin.is_terminal() && std::io::stderr().is_terminal()) {
        return Err(CliError::new(unknown.to_string()));
    }
    let mut err = std::io::stderr();
    write!(
        err,
        "{server} is not a known server yet.\nIts key's fingerprint is {shown}\n\
         (`brandubh serve` printed it where it runs: compare them.)\n\
         Trust this key and remember it for {server}? [y/N] "
    )?;
    err.flush()?;
    let mut answer = String::new();
    stdin.read_line(&mut answer)?;
    if matches!(answer.trim().to_lowercase().as_str(), "y" | "yes") {
        Ok(shown.to_owned())
    } else {
        Err(CliError::new(format!(
            "not trusted: nothing was remembered for {server}"
        )))
    }
}

/// `--games PLAYER`: lists that player's finished games, a page at a time, and downloads
/// them, as `name`.
fn archive(
    args: &OnlineArgs,
    name: &str,
    player: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut requests = Requests::start(&args.server, args.insecure, Some(name))?;
    let mut ask = |message: ClientMessage| {
        requests.ask(message, |answer| {
            matches!(
                answer,
                ServerMessage::Archive { .. } | ServerMessage::Save { .. }
            )
        })
    };
    let mut games = Vec::new();
    let mut page = 0;
    loop {
        let ServerMessage::Archive {
            games: listed,
            total,
            ..
        } = ask(ClientMessage::Archive {
            name: player.to_owned(),
            page,
        })?
        else {
            return Err(unexpected());
        };
        if page == 0 {
            writeln!(out, "finished games of {}: {total}", excerpt(player))?;
        }
        print_games(out, &listed)?;
        games.extend(listed);
        page += 1;
        if page >= pages(total, ARCHIVE_PAGE) {
            break;
        }
    }
    let target = match &args.out {
        Some(dir) => dir.clone(),
        None => default_save_dir().map_err(|e| CliError::new(e.to_string()))?,
    };
    let server = check_server(&args.server).map_err(CliError::new)?;
    for game in &games {
        let origin = Origin {
            server: &server,
            game: game.id,
        };
        if let Some(path) = downloaded_before(&target, origin) {
            writeln!(
                out,
                "game {} already saved as {}",
                game.id,
                quoted_path(&path)
            )?;
            continue;
        }
        let ServerMessage::Save { json, .. } = ask(ClientMessage::Download { game: game.id })?
        else {
            return Err(unexpected());
        };
        let path = save_downloaded(&target, Some(origin), &json).map_err(CliError::new)?;
        writeln!(out, "saved game {} as {}", game.id, quoted_path(&path))?;
    }
    Ok(())
}

/// One line per game.
fn print_games(out: &mut dyn Write, games: &[GameSummary]) -> Result<(), CliError> {
    for game in games {
        let result = game
            .outcome
            .map_or_else(|| "ongoing".to_owned(), |o| o.to_string());
        // Whether the players may use hints and the engine, as they agreed at its creation.
        let engine = if game.setup.engine_allowed {
            "engine allowed"
        } else {
            "no engine"
        };
        let plies = if game.plies == 1 { "ply" } else { "plies" };
        writeln!(
            out,
            "  {}  {} vs {}  {}  {engine}  {} {plies}  {}",
            game.id,
            game.shown(Role::Attackers),
            game.shown(Role::Defenders),
            game.setup.rules,
            game.plies,
            result
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    fn parsed(args: &[&str]) -> Result<OnlineArgs, clap::Error> {
        let cli = Cli::try_parse_from(["brandubh", "online", "host"].iter().chain(args))?;
        match cli.command {
            Some(Command::Online(args)) => Ok(args),
            _ => panic!("not the online command"),
        }
    }

    #[test]
    fn a_game_of_one_ply_is_listed_as_one_ply() {
        let game = |plies| GameSummary {
            id: 4,
            setup: GameSetup::default(),
            attackers: Some("ann".into()),
            defenders: Some("bob".into()),
            creator: "ann".into(),
            plies,
            outcome: None,
            ratings: crate::net::protocol::SeatRatings::default(),
            spectators: 0,
            date: None,
            bots: Vec::new(),
        };
        let mut out = Vec::new();
        print_games(&mut out, &[game(1), game(2)]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(" 1 ply ") && text.contains(" 2 plies "),
            "{text}"
        );
    }

    #[test]
    fn rules_side_and_clock_fill_in_the_create_form() {
        let args = parsed(&[
            "--clock",
            "3d/move",
            "--side",
            "defenders",
            "--rules",
            "walker",
        ]);
        let setup = args.unwrap().create_setup().unwrap();
        assert_eq!(setup.timing, Timing::Correspondence { days: 3 });
        assert_eq!(setup.side, SideChoice::Defenders);
        assert_eq!(setup.rules, Preset::Walker);
        assert!(setup.rated, "rated unless --casual");
        assert_eq!(parsed(&[]).unwrap().create_setup(), None);
        let casual = parsed(&["--casual"]).unwrap().create_setup().unwrap();
        assert!(!casual.rated);
        assert!(parsed(&["--rated", "--casual"]).is_err());
        assert!(
            parsed(&["--correspondence"]).is_err(),
            "only with --leaderboard"
        );
        assert!(parsed(&["--bots"]).is_err(), "only with --leaderboard");
        assert!(parsed(&["--leaderboard", "--bots"]).unwrap().bots);
        for bad in [&["--clock", "40d/move"][..], &["--side", "both"]] {
            let e = parsed(bad).unwrap_err().to_string();
            assert!(e.lines().next().unwrap().contains(bad[1]), "{e}");
        }
    }
}
