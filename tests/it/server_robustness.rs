//! The server against a hostile client (issue 26): numbers from the wire checked, a game the
//! server cannot handle set aside while the rest goes on, a database it cannot write refused
//! at start, the connection caps told and not turned against honest clients, and requests
//! about other players' games refused plainly.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use brandubh::net::client::Event;
use brandubh::net::identity::{ChannelBinding, Identity};
use brandubh::net::protocol::{
    self, ClientMessage, ErrorCode, GameSetup, ServerMessage, SideChoice, Timing,
};
use brandubh::net::server::{self, Limits};
use brandubh::rules::Preset;

use crate::net::{
    KillOnDrop, Player, WAIT, connected, create, raw_tls, read_to_close, start_server,
};

/// A connection speaking the protocol line by line, without the client library.
struct Raw {
    stream: BufReader<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>,
}

impl Raw {
    /// Connected to `address`, hello said and `name` identified with a new key.
    fn identified(address: &str, name: &str) -> Raw {
        let mut raw = Raw {
            stream: BufReader::new(raw_tls(address)),
        };
        raw.send(&format!(
            r#"{{"type":"hello","version":{},"client":"raw"}}"#,
            protocol::VERSION
        ));
        let nonce = raw.expect("challenge", |m| match m {
            ServerMessage::Challenge { nonce } => Some(nonce.clone()),
            _ => None,
        });
        let identity = Identity::generate();
        let binding = ChannelBinding::of(&raw.stream.get_ref().conn).unwrap();
        let proof = ClientMessage::Identify {
            name: name.to_owned(),
            key: identity.public_hex(),
            signature: identity.sign(&nonce, &binding),
            bot: false,
        };
        raw.send(proof.to_line().trim_end());
        raw.expect("welcome", |m| {
            matches!(m, ServerMessage::Welcome { .. }).then_some(())
        });
        raw
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stream.get_mut(), "{line}").unwrap();
    }

    /// The first message `pick` takes, skipping others (each read bounded by [`WAIT`]).
    fn expect<T>(&mut self, what: &str, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let mut line = String::new();
            let read = self.stream.read_line(&mut line);
            assert!(matches!(read, Ok(1..)), "no {what}: {read:?}");
            if let Some(found) = ServerMessage::parse(&line)
                .ok()
                .as_ref()
                .and_then(&mut pick)
            {
                return found;
            }
        }
    }
}

/// The error code of a message, if it is an error.
fn error_code(message: &ServerMessage) -> Option<(ErrorCode, String)> {
    match message {
        ServerMessage::Error { code, message } => Some((*code, message.clone())),
        _ => None,
    }
}

#[test]
fn a_time_control_beyond_the_bounds_is_refused_and_the_server_keeps_serving() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let address = server.addr().to_string();
    let mut alice = Raw::identified(&address, "alice");
    alice.send(
        r#"{"type":"create","rules":"standard","side":"attackers","timing":{"kind":"clock","control":{"main_ms":60000,"periods":4294967295,"period_ms":18446744073709551615}}}"#,
    );
    let answer = alice.expect("an answer to create", |m| match m {
        ServerMessage::Created { game, .. } => Some(Ok(game.id)),
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    });
    // Had it been created, a join would have started its clock.
    let mut bob = Raw::identified(&address, "bob");
    if let Ok(game) = answer {
        bob.send(&format!(r#"{{"type":"join","game":{game}}}"#));
    }
    bob.send(r#"{"type":"ping","id":7}"#);
    bob.expect("pong", |m| {
        matches!(m, ServerMessage::Pong { id: 7 }).then_some(())
    });
    assert_eq!(answer, Err(ErrorCode::BadMessage));
}

/// Inserts a game in progress between two new keys with `setup` (JSON) into the database of
/// `data`, made by a server started and stopped there; returns its number.
fn store_game_in_progress(data: &Path, setup: &str) -> i64 {
    drop(start_server(data, "127.0.0.1:0", Limits::default()));
    let db = rusqlite::Connection::open(data.join(server::DB_FILE)).unwrap();
    let (a, d) = (Identity::generate(), Identity::generate());
    db.execute(
        "INSERT INTO games (setup, creator_key, creator_name, attackers_key, attackers_name,
         defenders_key, defenders_name, stage, created)
         VALUES (?1, ?2, 'alice', ?2, 'alice', ?3, 'bob', 'playing', '2026-12-07T00:00:00Z')",
        [setup, &a.public_hex(), &d.public_hex()],
    )
    .unwrap();
    db.last_insert_rowid()
}

#[test]
fn a_stored_game_the_server_cannot_restore_is_set_aside_at_start() {
    let data = tempfile::tempdir().unwrap();
    let bad = store_game_in_progress(
        data.path(),
        r#"{"rules":"standard","timing":{"kind":"clock","control":{"main_ms":60000,"periods":4294967295,"period_ms":18446744073709551615}}}"#,
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let server = KillOnDrop(child);
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("brandubh server listening"), "{first:?}");
    let address = first.trim().rsplit(' ').next().unwrap().to_owned();
    // It serves.
    let mut carol = Raw::identified(&address, "carol");
    carol.send(r#"{"type":"lobby"}"#);
    let playing = carol.expect("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.playing.len()),
        _ => None,
    });
    assert_eq!(playing, 0, "the bad game is not in play");
    drop(server);
    let db = rusqlite::Connection::open(data.path().join(server::DB_FILE)).unwrap();
    let stage: String = db
        .query_row("SELECT stage FROM games WHERE id = ?1", [bad], |r| r.get(0))
        .unwrap();
    assert_eq!(stage, "aside");
}

#[test]
fn a_database_that_cannot_be_written_stops_the_start_with_one_line() {
    let data = tempfile::tempdir().unwrap();
    drop(start_server(data.path(), "127.0.0.1:0", Limits::default()));
    let file = data.path().join(server::DB_FILE);
    let mut read_only = std::fs::metadata(&file).unwrap().permissions();
    read_only.set_readonly(true);
    std::fs::set_permissions(&file, read_only).unwrap();
    // Root writes to a read-only file all the same: then the file is made immutable.
    let immutable = std::fs::OpenOptions::new().write(true).open(&file).is_ok();
    if immutable {
        let status = Command::new("chattr").arg("+i").arg(&file).status();
        if !status.is_ok_and(|s| s.success()) {
            eprintln!("skipped: running as root, and chattr +i is not available");
            return;
        }
    }
    let child = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = KillOnDrop(child);
    let deadline = Instant::now() + WAIT;
    while server.0.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = server.0.try_wait().unwrap();
    let mut stderr = String::new();
    if status.is_some() {
        server
            .0
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
    }
    drop(server);
    if immutable {
        let _ = Command::new("chattr").arg("-i").arg(&file).status();
    }
    let status = status.unwrap_or_else(|| panic!("still serving after {WAIT:?}"));
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_connection_over_the_cap_is_told_the_server_is_full() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        connections: 1,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let address = server.addr().to_string();
    let _alice = Raw::identified(&address, "alice");
    let mut over = raw_tls(&address);
    writeln!(
        over,
        r#"{{"type":"hello","version":{},"client":"x"}}"#,
        protocol::VERSION
    )
    .unwrap();
    let lines = read_to_close(over);
    assert!(
        lines.iter().any(|l| l.contains(r#""code":"full""#)),
        "{lines:?}"
    );
    // The client shows why, and tries again later.
    let bob = Player::connect(&address, server.fingerprint(), "bob");
    let reason = bob.expect("a reason", |e| match e {
        Event::Disconnected { reason } => Some(reason.clone()),
        Event::Failed(e) => Some(e.to_string()),
        _ => None,
    });
    assert!(reason.contains("full"), "{reason}");
}

#[test]
fn silent_sockets_do_not_lock_their_address_out() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        per_address: 2,
        // Longer than any wait here: the silent sockets stay for the whole test.
        handshake: WAIT * 3,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let address = server.addr().to_string();
    let _silent: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(&address).unwrap())
        .collect();
    let _alice = Raw::identified(&address, "alice");
}

/// `alice` creates a private game and `bob` joins the server: both connected.
fn private_game_and_a_stranger(address: &str, key: &str) -> (Player, Player, u64) {
    let alice = Player::connect(address, key, "alice");
    let bob = Player::connect(address, key, "bob");
    connected(&alice);
    connected(&bob);
    let game = create(
        &alice,
        GameSetup {
            rules: Preset::Standard,
            side: SideChoice::Attackers,
            timing: Timing::Untimed,
            private: true,
            engine_allowed: false,
            rated: false,
        },
    );
    (alice, bob, game)
}

#[test]
fn a_private_open_game_cannot_be_watched_by_a_stranger() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (_alice, bob, game) =
        private_game_and_a_stranger(&server.addr().to_string(), server.fingerprint());
    bob.send(ClientMessage::Watch { game });
    let answer = bob.expect_message("an answer to watch", |m| match m {
        ServerMessage::State(view) => Some(Ok(view.summary.id)),
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    });
    assert_eq!(answer, Err(ErrorCode::NoGame));
}

#[test]
fn leaving_another_player_s_open_game_is_refused_as_not_one_s_own() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (_alice, bob, game) =
        private_game_and_a_stranger(&server.addr().to_string(), server.fingerprint());
    bob.send(ClientMessage::Leave { game });
    let (code, message) = bob.expect_message("an answer to leave", error_code);
    assert_eq!(code, ErrorCode::NoGame, "{message}");
    assert!(!message.contains("resign"), "{message}");
}
