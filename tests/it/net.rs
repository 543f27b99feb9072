//! Online play end to end: a real server on a loopback port, real clients, each wait bounded.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use brandubh::net::client::{Client, ClientConfig, ClientError, Event};
use brandubh::net::protocol::{
    self, ClientMessage, GameId, GameSetup, Offer, ServerMessage, SideChoice, Timing,
};
use brandubh::net::server::{self, Limits, RunningServer, ServerConfig};
use brandubh::rules::{GameState, Preset, Reason, Side};

/// The longest wait for any one event.
pub(crate) const WAIT: Duration = Duration::from_secs(20);

pub(crate) fn start_server(data: &Path, listen: &str, limits: Limits) -> RunningServer {
    server::start(ServerConfig {
        listen: listen.to_owned(),
        data: data.to_owned(),
        limits,
    })
    .unwrap()
}

/// A client and its events.
pub(crate) struct Player {
    client: Client,
    events: Receiver<Event>,
    config: Option<tempfile::TempDir>,
    saves: tempfile::TempDir,
}

impl Player {
    /// A player with a config folder of its own, trusting the server's `key`.
    pub(crate) fn connect(server: &str, key: &str, name: &str) -> Player {
        let config = tempfile::tempdir().unwrap();
        let mut player = Player::with_config(server, key, name, config.path(), |_| {});
        player.config = Some(config);
        player
    }

    /// A player with the config folder `config`, trusting the server's `key` if it is not
    /// pinned there yet.
    pub(crate) fn with_config(
        server: &str,
        key: &str,
        name: &str,
        config: &Path,
        adjust: impl FnOnce(&mut ClientConfig),
    ) -> Player {
        let saves = tempfile::tempdir().unwrap();
        let mut settings = ClientConfig::new(server, Some(name), config.to_owned());
        settings.trust = Some(key.to_owned());
        settings.save_dir = Some(saves.path().to_owned());
        adjust(&mut settings);
        let (sender, events) = channel();
        let client = Client::start(settings, sender);
        Player {
            client,
            events,
            config: None,
            saves,
        }
    }

    /// Waits for the first event `pick` takes, skipping others.
    pub(crate) fn expect<T>(&self, what: &str, mut pick: impl FnMut(&Event) -> Option<T>) -> T {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => {
                    if let Some(found) = pick(&event) {
                        return found;
                    }
                }
                Err(e) => panic!("no {what}: {e}"),
            }
        }
    }

    pub(crate) fn expect_message<T>(
        &self,
        what: &str,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> T {
        self.expect(what, |event| match event {
            Event::Message(message) => pick(message),
            _ => None,
        })
    }

    pub(crate) fn send(&self, message: ClientMessage) {
        self.client.send(message);
    }
}

/// Alice creates a casual game as the attackers, Bob joins it; both see its state.
pub(crate) fn new_game(alice: &Player, bob: &Player, timing: Timing) -> GameId {
    let setup = GameSetup {
        rules: Preset::Standard,
        side: SideChoice::Attackers,
        timing,
        private: false,
        engine_allowed: false,
        rated: false,
    };
    connected(alice);
    connected(bob);
    new_game_with(alice, bob, setup)
}

/// Alice creates a game of `setup` (as the attackers, if it says so), Bob joins it; both
/// see its state. Both are connected already.
pub(crate) fn new_game_with(alice: &Player, bob: &Player, setup: GameSetup) -> GameId {
    let game = create(alice, setup);
    bob.send(ClientMessage::Lobby { page: 0 });
    let listed = bob.expect_message("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.open.iter().any(|g| g.id == game)),
        _ => None,
    });
    assert!(listed, "the open game is in the lobby");
    bob.send(ClientMessage::Join {
        game: Some(game),
        code: None,
    });
    for (player, side) in [(alice, Side::Attackers), (bob, Side::Defenders)] {
        let you = player.expect_message("state", |m| match m {
            ServerMessage::State(view) if view.summary.id == game => Some(view.you),
            _ => None,
        });
        assert_eq!(you, Some(side));
    }
    game
}

/// `creator` creates a game; returns its number.
pub(crate) fn create(creator: &Player, setup: GameSetup) -> GameId {
    creator.send(ClientMessage::Create(setup));
    creator.expect_message("created", |m| match m {
        ServerMessage::Created { game, .. } => Some(game.id),
        _ => None,
    })
}

/// `brandubh online ADDRESS ARGS` with a config folder of its own; returns what it printed.
pub(crate) fn online(address: &str, args: &[&str]) -> String {
    let config = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["online", address])
        .args(args)
        .env("BRANDUBH_CONFIG_DIR", config.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The next move of the local copy: the first legal one.
pub(crate) fn next_move(state: &GameState) -> String {
    state.legal_moves()[0].to_string()
}

/// Plays `plies` moves (or to the end), each seen by both players; returns the moves as
/// the server annotated them.
pub(crate) fn play(
    state: &mut GameState,
    game: GameId,
    alice: &Player,
    bob: &Player,
    plies: usize,
) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..plies {
        if state.outcome().is_some() {
            break;
        }
        let ply = state.ply();
        let mover = match state.position().side_to_move() {
            Side::Attackers => alice,
            Side::Defenders => bob,
        };
        let mv = next_move(state);
        mover.send(ClientMessage::Move {
            game,
            ply,
            mv: mv.clone(),
        });
        let mut seen = Vec::new();
        for player in [alice, bob] {
            seen.push(player.expect_message("move", |m| match m {
                ServerMessage::Moved { ply: p, mv, .. } if *p == ply => Some(mv.clone()),
                ServerMessage::Error { message, .. } => panic!("refused: {message}"),
                _ => None,
            }));
        }
        assert_eq!(seen[0], seen[1]);
        state.play_text(&seen[0]).unwrap();
        played.push(seen[0].clone());
    }
    played
}

/// `asker` offers `offer` in `game`; `answerer` sees it and accepts.
fn offer_accepted(asker: &Player, answerer: &Player, game: GameId, offer: Offer) {
    asker.send(ClientMessage::Offer { game, offer });
    answerer.expect_message("offer", |m| {
        matches!(m, ServerMessage::Offered { .. }).then_some(())
    });
    answerer.send(ClientMessage::Answer {
        game,
        offer,
        accept: true,
    });
}

pub(crate) fn result(player: &Player, game: GameId) -> brandubh::rules::Outcome {
    player.expect_message("result", |m| match m {
        ServerMessage::Result {
            game: g, outcome, ..
        } if *g == game => Some(*outcome),
        _ => None,
    })
}

#[test]
fn a_whole_game_between_two_clients_is_seen_by_a_spectator_and_saved() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let carol = Player::connect(&address, &key, "carol");
    let game = new_game(&alice, &bob, Timing::Untimed);
    connected(&carol);
    carol.send(ClientMessage::Watch { game });
    carol.expect_message("state", |m| {
        matches!(m, ServerMessage::State(_)).then_some(())
    });
    let mut state = GameState::start(Preset::Standard.rules());
    let played = play(&mut state, game, &alice, &bob, 400);
    if state.outcome().is_none() {
        alice.send(ClientMessage::Resign { game });
    }
    let outcome = result(&alice, game);
    assert_eq!(result(&bob, game), outcome);
    // The spectator saw every move, in order, then the result.
    let mut watched = Vec::new();
    let seen = carol.expect_message("the spectator's result", |m| match m {
        ServerMessage::Moved { mv, .. } => {
            watched.push(mv.clone());
            None
        }
        ServerMessage::Result { outcome, .. } => Some(*outcome),
        _ => None,
    });
    assert_eq!(watched, played);
    assert_eq!(seen, outcome);
    // Each player's save folder has the game, replayed whole.
    for player in [&alice, &bob] {
        let path = player.expect("saved", |e| match e {
            Event::Saved { path, .. } => Some(path.clone()),
            _ => None,
        });
        assert!(path.starts_with(player.saves.path()));
        let saved = brandubh::game::storage::load(&path).unwrap();
        assert_eq!(saved.moves().len(), played.len());
        assert_eq!(saved.outcome(), Some(outcome));
    }
    // The archive lists it, and `brandubh online --games` downloads it, named by the
    // game's own date (set here to a day long past), not the day it is downloaded.
    let db = rusqlite::Connection::open(data.path().join(server::DB_FILE)).unwrap();
    db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
    db.execute(
        "UPDATE games SET created = '2020-01-02T03:04:05Z' WHERE id = ?1",
        [i64::try_from(game).unwrap()],
    )
    .unwrap();
    drop(db);
    let downloads = tempfile::tempdir().unwrap();
    let out = downloads.path().to_str().unwrap();
    let stdout = online(
        &address,
        &[
            "--trust", &key, "--name", "dave", "--games", "bob", "--out", out,
        ],
    );
    assert!(stdout.contains("finished games of bob: 1"), "{stdout}");
    let names: Vec<String> = std::fs::read_dir(downloads.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1);
    assert!(
        names[0].starts_with("game-20200102-030405-127.0.0.1-"),
        "named by the game's date: {names:?}"
    );
    let saved = brandubh::game::storage::load(&downloads.path().join(&names[0])).unwrap();
    assert_eq!(saved.created().to_string(), "2020-01-02T03:04:05Z");
    // Run again (by another reader: a fresh config folder is a new key): the game is
    // recognised, not copied.
    let again = online(
        &address,
        &[
            "--trust", &key, "--name", "erin", "--games", "bob", "--out", out,
        ],
    );
    assert!(again.contains(" already saved as "), "{again}");
    assert_eq!(std::fs::read_dir(downloads.path()).unwrap().count(), 1);
}

#[test]
fn a_client_whose_connection_drops_reconnects_and_finishes() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let game = new_game(&alice, &bob, Timing::Untimed);
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 3);
    bob.client.cut();
    alice.expect_message("bob gone", |m| {
        matches!(
            m,
            ServerMessage::Presence {
                connected: false,
                side: Side::Defenders,
                ..
            }
        )
        .then_some(())
    });
    connected(&bob);
    let moves = bob.expect_message("state again", |m| match m {
        ServerMessage::State(view) => Some(view.moves.len()),
        _ => None,
    });
    assert_eq!(moves, 3);
    play(&mut state, game, &alice, &bob, 2);
    offer_accepted(&bob, &alice, game, Offer::Draw);
    assert_eq!(result(&bob, game).reason, Reason::Agreement);
}

#[test]
fn a_takeback_accepted_undoes_the_asker_s_move() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let game = new_game(&alice, &bob, Timing::Untimed);
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 1);
    offer_accepted(&alice, &bob, game, Offer::Takeback);
    let moves = alice.expect_message("state", |m| match m {
        ServerMessage::State(view) => Some(view.moves.len()),
        _ => None,
    });
    assert_eq!(moves, 0);
}

#[test]
fn a_flag_falls_on_the_server_s_clock() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_lag_credit: Duration::from_millis(50),
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "1s".parse().unwrap();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    // Nobody moves: the attackers' flag falls.
    let outcome = result(&bob, game);
    assert_eq!(outcome.reason, Reason::Time);
    assert_eq!(outcome.winner, Some(Side::Defenders));
}

/// The time `watcher` is told `side`'s player has left to return to each of `games`, as
/// the presence messages saying it is gone carry it (in any order).
fn times_to_return(watcher: &Player, games: &[GameId], side: Side) -> Vec<Option<u64>> {
    let mut told = vec![None; games.len()];
    while told.contains(&None) {
        let (at, left) = watcher.expect_message("absence", |m| match m {
            ServerMessage::Presence {
                game,
                side: s,
                connected: false,
                return_ms,
            } if *s == side => Some((games.iter().position(|g| g == game)?, *return_ms)),
            _ => None,
        });
        told[at] = Some(left);
    }
    told.into_iter().flatten().collect()
}

#[test]
fn a_player_gone_past_the_return_window_loses_a_game_on_a_clock_claimed_not_one_by_correspondence()
{
    let data = tempfile::tempdir().unwrap();
    let window = Duration::from_millis(800);
    let limits = Limits {
        return_window: window,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let clocked = new_game(&alice, &bob, Timing::Clock { control });
    let by_post = create(
        &alice,
        GameSetup {
            rules: Preset::Standard,
            side: SideChoice::Attackers,
            timing: Timing::Correspondence { days: 3 },
            private: false,
            engine_allowed: false,
            rated: false,
        },
    );
    bob.send(ClientMessage::Join {
        game: Some(by_post),
        code: None,
    });
    alice.expect_message("the second game begun", |m| match m {
        ServerMessage::State(view) if view.summary.id == by_post => Some(()),
        _ => None,
    });
    drop(bob);
    let told = times_to_return(&alice, &[clocked, by_post], Side::Defenders);
    let left = told[0].expect("a deadline");
    assert!(
        left > 0 && u128::from(left) <= window.as_millis(),
        "{left} ms"
    );
    assert_eq!(told[1], None, "a correspondence game has no deadline");
    claimed(&alice, clocked, Side::Defenders);
    let outcome = result(&alice, clocked);
    assert_eq!(outcome.reason, Reason::Abandoned);
    assert_eq!(outcome.winner, Some(Side::Attackers));
    // Saved with the clocks as they stood: the turn of the side to move (alice's, no move
    // was played) was charged.
    let saved = alice.expect("saved", |e| match e {
        Event::Saved { path, .. } => Some(path.clone()),
        _ => None,
    });
    let game = brandubh::game::Game::from_json(&std::fs::read_to_string(saved).unwrap()).unwrap();
    let clocks = game.clocks().unwrap();
    assert!(clocks.side(Side::Attackers).left() < Duration::from_secs(600));
    alice.send(ClientMessage::Lobby { page: 0 });
    let playing = alice.expect_message("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.mine.iter().map(|g| g.id).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(playing, vec![by_post], "the correspondence game goes on");
}

/// `player` is told it may claim `game`, `gone`'s player being away past the window, and
/// claims it.
pub(crate) fn claimed(player: &Player, game: GameId, gone: Side) {
    player.expect_message("the win to claim", |m| match m {
        ServerMessage::Claimable { game: g, side, .. } if *g == game => {
            assert_eq!(*side, gone);
            Some(())
        }
        ServerMessage::Result { game: g, .. } if *g == game => panic!("ended unclaimed"),
        _ => None,
    });
    player.send(ClientMessage::Claim { game });
}

#[test]
fn a_changed_server_key_is_refused() {
    let first = tempfile::tempdir().unwrap();
    let server = start_server(first.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let config = tempfile::tempdir().unwrap();
    let alice = Player::with_config(&address, &key, "alice", config.path(), |_| {});
    connected(&alice);
    drop(alice);
    drop(server);
    // Another server, another key, on the same address.
    let second = tempfile::tempdir().unwrap();
    let _server = start_server(second.path(), &address, Limits::default());
    let again = Player::with_config(&address, &key, "alice", config.path(), |_| {});
    let error = again.expect("refusal", |e| match e {
        Event::Failed(e) => Some(e.clone()),
        _ => None,
    });
    assert!(matches!(error, ClientError::KeyChanged(_)), "{error}");
    assert!(error.to_string().contains("has changed"), "{error}");
}

/// `brandubh online ARGS` with the config folder `config`, no terminal: how it ended.
pub(crate) fn online_run(config: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .arg("online")
        .args(args)
        .env("BRANDUBH_CONFIG_DIR", config)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `brandubh online ADDRESS ARGS` with the config folder `config`, no terminal; returns
/// whether it succeeded and what it wrote on stderr.
fn online_in(config: &Path, address: &str, args: &[&str]) -> (bool, String) {
    let output = online_run(config, &[&[address], args].concat());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), stderr)
}

#[test]
fn an_unknown_server_s_key_is_pinned_only_when_trusted() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let config = tempfile::tempdir().unwrap();
    let known = config.path().join("known_servers");
    let archive = ["--name", "reader", "--games", "nobody", "--out"];
    let out = config.path().join("out");
    let out = out.to_str().unwrap();
    // No terminal to ask on, no --trust: one line saying how, and nothing pinned.
    let (ok, stderr) = online_in(config.path(), &address, &[&archive[..], &[out]].concat());
    assert!(!ok);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("--trust {key}")), "{stderr}");
    assert!(!known.exists(), "pinned without being trusted");
    // Another fingerprint trusted: refused, nothing pinned.
    let other = format!("SHA256:{}", "0".repeat(64));
    let (ok, stderr) = online_in(
        config.path(),
        &address,
        &[&["--trust", other.as_str()][..], &archive, &[out]].concat(),
    );
    assert!(!ok);
    assert!(stderr.contains("not the one trusted"), "{stderr}");
    assert!(!known.exists(), "pinned a key not trusted");
    // The key trusted: pinned, and the next time no trust is needed.
    let (ok, stderr) = online_in(
        config.path(),
        &address,
        &[&["--trust", key.as_str()][..], &archive, &[out]].concat(),
    );
    assert!(ok, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&known).unwrap(),
        format!("{address} {key}\n")
    );
    let (ok, stderr) = online_in(config.path(), &address, &[&archive[..], &[out]].concat());
    assert!(ok, "{stderr}");
}

/// Waits until `player` is connected and identified.
pub(crate) fn connected(player: &Player) {
    player.expect("connected", |e| {
        matches!(e, Event::Connected { .. }).then_some(())
    });
}

#[test]
fn a_name_stays_with_the_key_that_first_claimed_it() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let config = tempfile::tempdir().unwrap();
    // Connects under `name` with the one key kept in `config`.
    let owner = |name| {
        connected(&Player::with_config(
            &address,
            &key,
            name,
            config.path(),
            |_| {},
        ));
    };
    owner("alice");
    // The same key takes a second name: its first one is still its own.
    owner("alicia");
    let thief = Player::connect(&address, &key, "alice");
    let error = thief.expect("refusal", |e| match e {
        Event::Failed(e) => Some(e.clone()),
        _ => None,
    });
    assert!(matches!(error, ClientError::Refused(_)), "{error}");
    assert!(error.to_string().contains("taken"), "{error}");
    owner("alice");
    owner("alicia");
}

#[test]
fn whether_the_engine_is_allowed_is_in_the_lobby_and_the_state() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    connected(&alice);
    let setup = |engine_allowed| GameSetup {
        rules: Preset::Standard,
        engine_allowed,
        ..GameSetup::default()
    };
    let allowed = create(&alice, setup(true));
    let refused = create(&alice, setup(false));
    // The lobby's and the state's summaries carry it.
    let bob = Player::connect(&address, &key, "bob");
    connected(&bob);
    bob.send(ClientMessage::Lobby { page: 0 });
    let open = bob.expect_message("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.open.clone()),
        _ => None,
    });
    let shown = |game| {
        open.iter()
            .find(|g| g.id == game)
            .map(|g| g.setup.engine_allowed)
    };
    assert_eq!((shown(allowed), shown(refused)), (Some(true), Some(false)));
    bob.send(ClientMessage::Join {
        game: Some(allowed),
        code: None,
    });
    for player in [&alice, &bob] {
        let engine = player.expect_message("state", |m| match m {
            ServerMessage::State(view) => Some(view.summary.setup.engine_allowed),
            _ => None,
        });
        assert!(engine);
    }
}

#[test]
fn a_client_of_another_protocol_version_is_told_clearly() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let config = tempfile::tempdir().unwrap();
    // A client of the first version (before deadlines to return to a game).
    let key = server.fingerprint();
    let old = Player::with_config(&server.addr().to_string(), key, "old", config.path(), |c| {
        c.version = 1;
    });
    let error = old.expect("refusal", |e| match e {
        Event::Failed(e) => Some(e.clone()),
        _ => None,
    });
    assert!(matches!(error, ClientError::Version(_)), "{error}");
    assert!(
        error.to_string().contains(&format!(
            "speaks protocol version {} and the client 1",
            protocol::VERSION
        )),
        "{error}"
    );
}

/// A raw TLS connection that accepts the server's key.
pub(crate) fn raw_tls(address: &str) -> rustls::StreamOwned<rustls::ClientConnection, TcpStream> {
    let config = brandubh::net::tls::pinned_client_config(None).unwrap();
    let name = rustls::pki_types::ServerName::try_from("brandubh").unwrap();
    let connection = rustls::ClientConnection::new(config, name).unwrap();
    let tcp = TcpStream::connect(address).unwrap();
    tcp.set_read_timeout(Some(WAIT)).unwrap();
    rustls::StreamOwned::new(connection, tcp)
}

/// Reads lines until the server closes the connection; returns them.
pub(crate) fn read_to_close(stream: impl Read) -> Vec<String> {
    let mut lines = Vec::new();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    while matches!(reader.read_line(&mut line), Ok(1..)) {
        lines.push(std::mem::take(&mut line));
    }
    lines
}

#[test]
fn hostile_clients_are_cut_off_while_a_game_goes_on() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        handshake: Duration::from_millis(500),
        bad_messages: 3,
        burst: 10,
        messages_per_second: 10,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let game = new_game(&alice, &bob, Timing::Untimed);
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 1);

    // Half-open: a TCP connection that never says anything is closed after the handshake time.
    let mut silent = TcpStream::connect(&address).unwrap();
    silent.set_read_timeout(Some(WAIT)).unwrap();
    assert_eq!(silent.read(&mut [0; 16]).unwrap_or(0), 0, "closed");

    // Garbage after hello: errors, then the door.
    let mut garbage = raw_tls(&address);
    writeln!(
        garbage,
        r#"{{"type":"hello","version":{},"client":"x"}}"#,
        protocol::VERSION
    )
    .unwrap();
    for line in [
        "not json",
        "\u{1b}[2J",
        r#"{"type":"fly"}"#,
        r#"{"type":"lobby"}"#,
    ] {
        writeln!(garbage, "{line}").unwrap();
    }
    let lines = read_to_close(garbage);
    let errors = lines
        .iter()
        .filter(|l| l.contains(r#""code":"bad_message""#))
        .count();
    assert_eq!(errors, 3, "{lines:?}");

    // A huge line is skipped, counted, and does not stop the next line being read.
    let mut huge = raw_tls(&address);
    writeln!(
        huge,
        r#"{{"type":"hello","version":{},"client":"x"}}"#,
        protocol::VERSION
    )
    .unwrap();
    let big = "x".repeat(200 * 1024);
    for _ in 0..3 {
        writeln!(huge, "{big}").unwrap();
    }
    let lines = read_to_close(huge);
    assert!(
        lines.iter().filter(|l| l.contains("longer than")).count() == 3,
        "{lines:?}"
    );

    // A flood is refused past the burst, and the flooder cut off.
    let mut flood = raw_tls(&address);
    writeln!(
        flood,
        r#"{{"type":"hello","version":{},"client":"x"}}"#,
        protocol::VERSION
    )
    .unwrap();
    // In one write, before the server can answer: once it cuts the flooder off, a later write
    // could fail with a broken pipe.
    let mut pings = Vec::new();
    for id in 0..100 {
        writeln!(pings, r#"{{"type":"ping","id":{id}}}"#).unwrap();
    }
    flood.write_all(&pings).unwrap();
    let lines = read_to_close(flood);
    let limited = lines
        .iter()
        .filter(|l| l.contains(&format!("{:?}", "rate_limited")))
        .count();
    assert_eq!(limited, 3, "{lines:?}");
    assert!(
        lines.iter().filter(|l| l.contains("pong")).count() <= 11,
        "{lines:?}"
    );

    // The game beside them goes on.
    play(&mut state, game, &alice, &bob, 2);
}

/// `brandubh serve` as a child process; returns it, its address and its key's fingerprint.
pub(crate) fn serve(data: &Path, listen: &str) -> (Child, String, String) {
    serve_with(data, listen, &[])
}

/// `brandubh serve` with more arguments, as [`serve`] (its log only warnings, on stderr).
pub(crate) fn serve_with(data: &Path, listen: &str, args: &[&str]) -> (Child, String, String) {
    let args = [args, &["--log-level", "warn"]].concat();
    started(serve_command(data, listen, &args).spawn().unwrap())
}

/// The command `brandubh serve --listen LISTEN --data DATA ARGS`, its output piped.
pub(crate) fn serve_command(data: &Path, listen: &str, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_brandubh"));
    command
        .args(["serve", "--listen", listen, "--data"])
        .arg(data)
        .args(args)
        .stdout(Stdio::piped());
    command
}

/// A server just spawned, its address and its key's fingerprint read from its first lines.
pub(crate) fn started(mut child: Child) -> (Child, String, String) {
    let (mut first, mut second) = (String::new(), String::new());
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let last_word = |line: &str| line.trim().rsplit(' ').next().unwrap().to_owned();
    let address = last_word(&first);
    assert!(address.starts_with("127.0.0.1:"), "{first}");
    let key = last_word(&second);
    assert!(key.starts_with("SHA256:"), "{second}");
    (child, address, key)
}

/// `brandubh serve ARGS` started by a shell that first runs `ulimit`; returns it and its
/// first three lines.
fn serve_limited(ulimit: &str, data: &Path, args: &[&str]) -> (Child, Vec<String>) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit {ulimit} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_brandubh"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--log-level",
            "warn",
            "--data",
        ])
        .arg(data)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let lines = (0..3)
        .map(|_| {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            line
        })
        .collect();
    (child, lines)
}

/// A process's soft and hard limits of open files, from /proc.
fn open_files_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    let numbers: Vec<&str> = line.split_whitespace().skip(3).take(2).collect();
    (numbers[0].to_owned(), numbers[1].to_owned())
}

#[test]
fn the_server_raises_its_open_files_limit_and_says_when_it_is_too_low() {
    let data = tempfile::tempdir().unwrap();
    // A soft limit below the hard one: raised to it.
    let (child, lines) = serve_limited("-Sn 100", data.path(), &["--max-connections", "10"]);
    let child = KillOnDrop(child);
    let (soft, hard) = open_files_limits(child.0.id());
    drop(child);
    assert_eq!(soft, hard, "{lines:?}");
    assert!(lines[2].starts_with("open files: "), "{lines:?}");
    assert!(!lines[2].contains("below"), "{lines:?}");
    // A hard limit below what the connections cap needs: said at the start.
    let (child, lines) = serve_limited("-n 200", data.path(), &["--max-connections", "4096"]);
    drop(KillOnDrop(child));
    assert!(
        lines[2].contains("up to 200, below") && lines[2].contains("--max-connections 4096"),
        "{lines:?}"
    );
}

/// The database of the first servers: a `players` table of one name per key.
const FIRST_SCHEMA: &str = "
    CREATE TABLE players (key TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE games (
        id INTEGER PRIMARY KEY, setup TEXT NOT NULL,
        creator_key TEXT NOT NULL, creator_name TEXT NOT NULL, code TEXT UNIQUE,
        attackers_key TEXT, attackers_name TEXT,
        defenders_key TEXT, defenders_name TEXT,
        stage TEXT NOT NULL, clocks TEXT, outcome TEXT, created TEXT NOT NULL);
    CREATE TABLE moves (
        game INTEGER NOT NULL, ply INTEGER NOT NULL, mv TEXT NOT NULL,
        PRIMARY KEY (game, ply));";

#[test]
fn a_database_of_the_first_schema_keeps_its_names_and_games() {
    let data = tempfile::tempdir().unwrap();
    let (alice_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let identity = |dir: &Path| {
        brandubh::net::identity::Identity::load_or_create(dir)
            .unwrap()
            .public_hex()
    };
    let (alice_key, bob_key) = (identity(alice_dir.path()), identity(bob_dir.path()));
    {
        let db = rusqlite::Connection::open(data.path().join(server::DB_FILE)).unwrap();
        db.execute_batch(FIRST_SCHEMA).unwrap();
        for (key, name) in [(&alice_key, "alice"), (&bob_key, "bob")] {
            db.execute(
                "INSERT INTO players (key, name) VALUES (?1, ?2)",
                [key.as_str(), name],
            )
            .unwrap();
        }
        db.execute(
            "INSERT INTO games (id, setup, creator_key, creator_name, attackers_key,
             attackers_name, defenders_key, defenders_name, stage, created)
             VALUES (1, '{\"rules\":\"standard\"}', ?1, 'alice', ?1, 'alice', ?2, 'bob',
             'playing', '2026-12-01T00:00:00Z')",
            [alice_key.as_str(), bob_key.as_str()],
        )
        .unwrap();
        db.execute(
            "INSERT INTO moves (game, ply, mv) VALUES (1, 0, 'd2-c2')",
            [],
        )
        .unwrap();
    }
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let key = server.fingerprint().to_owned();
    // Bob's name is still his: another key cannot take it.
    let thief = Player::connect(&address, &key, "bob");
    let error = thief.expect("refusal", |e| match e {
        Event::Failed(e) => Some(e.clone()),
        _ => None,
    });
    assert!(error.to_string().contains("taken"), "{error}");
    // Alice is still alice, and her game goes on where it stood.
    let alice = Player::with_config(&address, &key, "alice", alice_dir.path(), |_| {});
    let moves = alice.expect_message("her game", |m| match m {
        ServerMessage::State(view) if view.summary.id == 1 => Some(view.moves.clone()),
        ServerMessage::Error { message, .. } => panic!("{message}"),
        _ => None,
    });
    assert_eq!(moves, ["d2-c2"]);
}

#[test]
fn after_a_restart_a_player_still_gone_has_the_return_window_again_then_loses() {
    let data = tempfile::tempdir().unwrap();
    let window = ["--return-window", "1s"];
    let (child, address, key) = serve_with(data.path(), "127.0.0.1:0", &window);
    let mut first = KillOnDrop(child);
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    first.0.kill().unwrap(); // SIGKILL
    first.0.wait().unwrap();
    drop(bob);
    alice.expect("dropped", |e| {
        matches!(e, Event::Disconnected { .. }).then_some(())
    });
    let _again = KillOnDrop(serve_with(data.path(), &address, &window).0);
    // Alice comes back and hears bob is gone, with a deadline; it runs out.
    let told = times_to_return(&alice, &[game], Side::Defenders);
    assert!(told[0].is_some(), "no deadline after the restart");
    claimed(&alice, game, Side::Defenders);
    let outcome = result(&alice, game);
    assert_eq!(outcome.reason, Reason::Abandoned);
    assert_eq!(outcome.winner, Some(Side::Attackers));
}

#[test]
fn a_server_killed_and_started_again_resumes_the_game_and_its_clocks() {
    let data = tempfile::tempdir().unwrap();
    let (mut child, address, key) = serve(data.path(), "127.0.0.1:0");
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let began = Instant::now();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 4);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    alice.expect("dropped", |e| {
        matches!(e, Event::Disconnected { .. }).then_some(())
    });
    let (mut child, again, _) = serve(data.path(), &address);
    assert_eq!(again, address);
    for player in [&alice, &bob] {
        let (moves, clocks) = player.expect_message("state after restart", |m| match m {
            ServerMessage::State(view) if view.summary.id == game => {
                Some((view.moves.len(), view.clocks))
            }
            _ => None,
        });
        assert_eq!(moves, 4);
        let clocks = clocks.unwrap().clocks;
        // Charged, but never more than the time that passed (however long that was), so
        // neither full again nor lost; a millisecond a ply for rounding.
        let left = clocks.side(Side::Attackers).left();
        let passed = began.elapsed() + Duration::from_millis(4);
        assert!(left < Duration::from_secs(600), "{left:?}");
        assert!(
            left + passed >= Duration::from_secs(600),
            "{left:?} left after {passed:?}"
        );
    }
    play(&mut state, game, &alice, &bob, 2);
    bob.send(ClientMessage::Resign { game });
    assert_eq!(result(&alice, game).winner, Some(Side::Attackers));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn messages_sent_while_the_server_is_down_are_queued_and_sent_after_the_reconnect() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key) = serve(data.path(), "127.0.0.1:0");
    let mut first = KillOnDrop(child);
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let game = new_game(&alice, &bob, Timing::Untimed);
    first.0.kill().unwrap(); // SIGKILL
    first.0.wait().unwrap();
    alice.expect("dropped", |e| {
        matches!(e, Event::Disconnected { .. }).then_some(())
    });
    // While it is down: a move, then more chat lines than the queue holds.
    let mv = next_move(&GameState::start(Preset::Standard.rules()));
    alice.send(ClientMessage::Move {
        game,
        ply: 0,
        mv: mv.clone(),
    });
    let lines = brandubh::net::client::MAX_QUEUED + 5;
    for i in 0..lines {
        alice.send(ClientMessage::Chat {
            game,
            text: format!("line {i}"),
        });
    }
    // The ones beyond the queue are refused visibly, the last ones first to go.
    let mut refused = 0;
    while refused < 6 {
        alice.expect("refused", |e| matches!(e, Event::Unsent(_)).then_some(()));
        refused += 1;
    }
    let (child, again, _) = serve(data.path(), &address);
    let _server = KillOnDrop(child);
    assert_eq!(again, address);
    // Bob sees it played: as a move, or in the state he gets if he reconnects after it.
    let played = bob.expect_message("the queued move", |m| match m {
        ServerMessage::Moved { game: g, mv, .. } if *g == game => Some(mv.clone()),
        ServerMessage::State(view) if view.summary.id == game => view.moves.first().cloned(),
        _ => None,
    });
    assert!(played.starts_with(&mv), "{played}");
}

/// A server process, killed when the test ends (also when it fails).
pub(crate) struct KillOnDrop(pub(crate) Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
