//! `brandubh online HOST[:PORT]`: the lobby as text, or a player's archived games downloaded
//! (`--games NAME`). The interactive lobby belongs to the terminal game.

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;

use super::CliError;
use crate::game::storage::default_save_dir;
use crate::net::client::{Client, ClientConfig, Event, save};
use crate::net::identity::config_dir;
use crate::net::protocol::{ClientMessage, GameSummary, ServerMessage};
use crate::quote::excerpt;

/// Arguments of `brandubh online`.
#[derive(Args, Debug)]
pub struct OnlineArgs {
    /// The server, HOST or HOST:PORT (port 7343 when none is given).
    pub server: String,
    /// List this player's finished games on the server and download them.
    #[arg(long, value_name = "NAME")]
    pub games: Option<String>,
    /// The name to show the lobby under (needed without --games).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Where downloaded games go (default: the save folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Do not pin the server's key (loopback servers only, for tests).
    #[arg(long)]
    pub insecure: bool,
}

/// How long the command waits for each answer.
const ANSWER_TIME: Duration = Duration::from_secs(20);

pub(super) fn run(args: &OnlineArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = config_dir().ok_or_else(|| CliError::new("no config folder"))?;
    let name = match (&args.games, &args.name) {
        (Some(_), _) => None,
        (None, Some(name)) => Some(name.as_str()),
        (None, None) => {
            return Err(CliError::new(
                "give --games NAME, or --name NAME for the lobby",
            ));
        }
    };
    let mut config = ClientConfig::new(&args.server, name, dir);
    config.insecure = args.insecure;
    config.reconnect = false;
    let (events, inbox) = mpsc::channel();
    let client = Client::start(config, events);
    let next = || -> Result<ServerMessage, CliError> {
        loop {
            match inbox.recv_timeout(ANSWER_TIME) {
                Ok(Event::Message(ServerMessage::Error { message, .. })) => {
                    return Err(CliError::new(format!("the server says: {message}")));
                }
                Ok(Event::Message(message)) => return Ok(message),
                Ok(Event::Failed(e)) => return Err(CliError::new(e.to_string())),
                Ok(_) => {}
                Err(_) => return Err(CliError::new("the server does not answer")),
            }
        }
    };
    let Some(player) = &args.games else {
        client.send(ClientMessage::Lobby);
        loop {
            if let ServerMessage::Lobby(lobby) = next()? {
                print_games(out, "open games", &lobby.open)?;
                print_games(out, "games in progress", &lobby.playing)?;
                writeln!(
                    out,
                    "players online: {}",
                    lobby
                        .players
                        .iter()
                        .map(|n| excerpt(n))
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                return Ok(());
            }
        }
    };
    client.send(ClientMessage::Archive {
        name: player.clone(),
    });
    let games = loop {
        if let ServerMessage::Archive { games, .. } = next()? {
            break games;
        }
    };
    print_games(
        out,
        &format!("finished games of {}", excerpt(player)),
        &games,
    )?;
    let target = match &args.out {
        Some(dir) => dir.clone(),
        None => default_save_dir().map_err(|e| CliError::new(e.to_string()))?,
    };
    for game in &games {
        client.send(ClientMessage::Download { game: game.id });
        let json = loop {
            if let ServerMessage::Save { json, .. } = next()? {
                break json;
            }
        };
        let path = save(&target, &json).map_err(CliError::new)?;
        writeln!(out, "saved game {} as {}", game.id, path.display())?;
    }
    Ok(())
}

/// A heading and one line per game.
fn print_games(out: &mut dyn Write, heading: &str, games: &[GameSummary]) -> Result<(), CliError> {
    writeln!(out, "{heading}: {}", games.len())?;
    for game in games {
        let name = |n: &Option<String>| n.as_deref().map_or_else(|| "?".to_owned(), excerpt);
        let result = game
            .outcome
            .map_or_else(|| "ongoing".to_owned(), |o| o.to_string());
        // Whether the players may use hints and the engine, as they agreed at its creation.
        let engine = if game.setup.engine_allowed {
            "engine allowed"
        } else {
            "no engine"
        };
        writeln!(
            out,
            "  {}  {} vs {}  {}  {engine}  {} plies  {}",
            game.id,
            name(&game.attackers),
            name(&game.defenders),
            game.setup.rules,
            game.plies,
            result
        )?;
    }
    Ok(())
}
