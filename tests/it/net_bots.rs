//! Bots on a loopback server: `brandubh bot` (the binary) plays a whole game against a
//! scripted client, opens its next game, is marked as a bot, and on SIGTERM withdraws its
//! open game and exits 0; a bot never holds more games than it may.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

use brandubh::net::bot::key_folder;
use brandubh::net::identity::IDENTITY_FILE;
use brandubh::net::protocol::{ClientMessage, GameId, Lobby, Role, ServerMessage};
use brandubh::net::server::{Limits, RunningServer};
use brandubh::rules::{GameState, Outcome, Preset, Side};

use crate::net::{KillOnDrop, Player, WAIT, connected, next_move, start_server};

/// The most plies the scripted client plays before it resigns (a bot at `easy` against the
/// first legal move each turn ends the game long before).
const MOST_PLIES: usize = 600;

/// `brandubh bot ADDRESS --trust KEY ARGS` with the config folder `config`; the child and
/// its log lines (stderr) as they come, the channel closed when the bot has exited.
fn spawn_bot(
    address: &str,
    key: &str,
    config: &Path,
    args: &[&str],
) -> (KillOnDrop, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["bot", address, "--trust", key])
        .args(args)
        .env("BRANDUBH_CONFIG_DIR", config)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (lines, log) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (KillOnDrop(child), log)
}

/// A loopback server, a bot on it at `easy` with untimed games, and a player, Ann.
struct Scene {
    bot: KillOnDrop,
    /// The bot's log lines.
    log: Receiver<String>,
    ann: Player,
    /// The bot's config folder.
    config: tempfile::TempDir,
    _server: RunningServer,
    _data: tempfile::TempDir,
}

impl Scene {
    /// The bot named `name` holding at most `games`.
    fn new(name: &str, games: u8) -> Scene {
        let data = tempfile::tempdir().unwrap();
        let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
        let address = server.addr().to_string();
        let key = server.fingerprint().to_owned();
        let config = tempfile::tempdir().unwrap();
        let games = games.to_string();
        let args = [
            "--name", name, "--level", "easy", "--clock", "none", "--games", &games,
        ];
        let (bot, log) = spawn_bot(&address, &key, config.path(), &args);
        let ann = Player::connect(&address, &key, "ann");
        connected(&ann);
        Scene {
            bot,
            log,
            ann,
            config,
            _server: server,
            _data: data,
        }
    }
}

/// The first log line `pick` takes (skipping the others), within [`WAIT`].
fn logged<T>(log: &Receiver<String>, what: &str, mut pick: impl FnMut(&str) -> Option<T>) -> T {
    let mut seen = Vec::new();
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match log.recv_timeout(left) {
            Ok(line) => {
                if let Some(found) = pick(&line) {
                    return found;
                }
                seen.push(line);
            }
            Err(e) => panic!("no {what} logged: {e} (after {seen:?})"),
        }
    }
}

/// The game number of a log line `… game open game=N`.
fn opened(line: &str) -> Option<GameId> {
    let (_, after) = line.split_once("game open game=")?;
    after.split_whitespace().next()?.parse().ok()
}

/// A page of the lobby as `player` sees it.
fn lobby(player: &Player) -> Lobby {
    player.send(ClientMessage::Lobby { page: 0 });
    player.expect_message("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.clone()),
        _ => None,
    })
}

/// `player` joins `game`; the side it plays.
fn join(player: &Player, game: GameId) -> Side {
    player.send(ClientMessage::Join {
        game: Some(game),
        code: None,
    });
    player.expect_message("state", |m| match m {
        ServerMessage::State(view) if view.summary.id == game => view.you,
        ServerMessage::Error { message, .. } => panic!("refused: {message}"),
        _ => None,
    })
}

/// `player` plays `you` in `game` of the standard rules from the start, the first legal move
/// each turn, until the game ends (resigning after [`MOST_PLIES`]); the outcome and the
/// plies played.
fn play_to_the_end(player: &Player, game: GameId, you: Side) -> (Outcome, usize) {
    let mut state = GameState::start(Preset::Standard.rules());
    loop {
        let ply = state.ply();
        if state.outcome().is_none() && state.position().side_to_move() == you {
            let mv = if ply < MOST_PLIES {
                ClientMessage::Move {
                    game,
                    ply,
                    mv: next_move(&state),
                }
            } else {
                ClientMessage::Resign { game }
            };
            player.send(mv);
        }
        let next = player.expect_message("a move or the result", |m| match m {
            ServerMessage::Moved { game: g, mv, .. } if *g == game => Some(Ok(mv.clone())),
            ServerMessage::Result {
                game: g, outcome, ..
            } if *g == game => Some(Err(*outcome)),
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        });
        match next {
            Ok(mv) => {
                state.play_text(&mv).unwrap();
            }
            Err(outcome) => return (outcome, state.ply()),
        }
    }
}

#[test]
fn a_bot_plays_a_whole_game_opens_the_next_and_stops_on_sigterm_withdrawing_it() {
    let mut scene = Scene::new("easybot", 2);
    let (log, ann) = (&scene.log, &scene.ann);
    let first = logged(log, "an open game", opened);
    let you = join(ann, first);
    // The game begun, the bot opens its next one (it may hold two).
    let second = logged(log, "the next open game", opened);
    let (outcome, plies) = play_to_the_end(ann, first, you);
    assert!(
        plies < MOST_PLIES,
        "the game did not end by itself: {outcome:?}"
    );
    logged(log, "the game's end", |l| {
        l.contains("game ended game=").then_some(())
    });
    let listed = lobby(ann);
    let open = listed.open.iter().find(|g| g.id == second);
    let open = open.unwrap_or_else(|| panic!("the bot's game is not open: {listed:?}"));
    assert_eq!(open.bots, [Role::Creator], "the creator is marked as a bot");
    assert_eq!(open.shown(Role::Creator), "easybot [bot]");
    let bot_at = listed.players.iter().position(|n| n == "easybot");
    assert!(
        bot_at.is_some_and(|i| listed.bots.contains(&i)),
        "{listed:?}"
    );
    let own_key = key_folder(scene.config.path(), "easybot").join(IDENTITY_FILE);
    assert!(own_key.is_file(), "no key in the bot's own folder");

    let pid = scene.bot.0.id().to_string();
    let signalled = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(signalled.success());
    // The log closes when the bot has exited.
    let deadline = Instant::now() + WAIT;
    while log
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .is_ok()
    {}
    let status = scene.bot.0.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let listed = lobby(ann);
    assert!(
        listed.open.iter().all(|g| g.id != second),
        "the bot's open game stayed: {listed:?}"
    );
}

#[test]
fn a_bot_never_holds_more_games_than_it_may() {
    let scene = Scene::new("solo", 1);
    let (log, ann) = (&scene.log, &scene.ann);
    let game = logged(log, "an open game", opened);
    let you = join(ann, game);
    // The bot's first move is sent after whatever it did when the game began.
    let bots_ply = usize::from(you == Side::Attackers);
    if you == Side::Attackers {
        let state = GameState::start(Preset::Standard.rules());
        ann.send(ClientMessage::Move {
            game,
            ply: 0,
            mv: next_move(&state),
        });
    }
    ann.expect_message("the bot's move", |m| match m {
        ServerMessage::Moved { game: g, ply, .. } if *g == game && *ply == bots_ply => Some(()),
        _ => None,
    });
    let listed = lobby(ann);
    assert!(
        listed.open.iter().all(|g| g.creator != "solo"),
        "a second game for a bot of one: {listed:?}"
    );
    assert_eq!(listed.playing_total, 0, "{listed:?}");
    assert_eq!(listed.mine_total, 1, "{listed:?}");
}
