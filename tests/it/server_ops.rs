//! Running a server as a host does: stopped by a signal, its log, its backup.
#![cfg(unix)]

use std::io::Read;
use std::path::Path;
use std::process::{ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};

use brandubh::net::client::Event;
use brandubh::net::identity::Identity;
use brandubh::net::protocol::{ClientMessage, GameSetup, ServerMessage, SideChoice, Timing};
use brandubh::net::server::DB_FILE;
use brandubh::rules::{GameState, Preset};

use crate::net::{
    KillOnDrop, Player, WAIT, connected, new_game, play, result, serve, serve_command, started,
};

/// Sends `signal` to `child` and waits (bounded) for it to exit; returns how it did.
pub(crate) fn stop(mut child: KillOnDrop, signal: rustix::process::Signal) -> ExitStatus {
    let pid = rustix::process::Pid::from_raw(i32::try_from(child.0.id()).unwrap()).unwrap();
    rustix::process::kill_process(pid, signal).unwrap();
    let (done, exited) = channel();
    std::thread::spawn(move || {
        let status = child.0.wait();
        let _ = done.send(status);
    });
    exited
        .recv_timeout(WAIT)
        .expect("the server did not exit")
        .unwrap()
}

/// `brandubh ARGS`, run to its end.
fn brandubh(args: &[&str], data: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .unwrap()
}

#[test]
fn sigterm_tells_clients_the_server_goes_down_exits_0_and_the_game_resumes() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key) = serve(data.path(), "127.0.0.1:0");
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 3);
    let status = stop(KillOnDrop(child), rustix::process::Signal::TERM);
    assert!(status.success(), "{status}");
    for player in [&alice, &bob] {
        player.expect("the notice", |e| {
            matches!(e, Event::ServerGoingDown).then_some(())
        });
    }
    // Every move is in the database file itself: the log was copied in and emptied.
    let wal = data.path().join(format!("{DB_FILE}-wal"));
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "the log still holds pages"
    );
    let (child, again, _) = serve(data.path(), &address);
    let _server = KillOnDrop(child);
    assert_eq!(again, address);
    // Back without a word of alarm: no failed attempt was reported while it was down.
    for player in [&alice, &bob] {
        let moves = player.expect("state after the restart", |e| match e {
            Event::Message(ServerMessage::State(view)) if view.summary.id == game => {
                Some(view.moves.len())
            }
            Event::Disconnected { reason } => panic!("reported: {reason}"),
            _ => None,
        });
        assert_eq!(moves, 3);
    }
    play(&mut state, game, &alice, &bob, 1);
}

/// `brandubh serve` at its default log level; returns it, its address, its key's
/// fingerprint and, once it has ended, its whole log.
fn serve_logged(data: &Path) -> (KillOnDrop, String, String, Receiver<String>) {
    let mut command = serve_command(data, "127.0.0.1:0", &[]);
    let (child, address, key) = started(command.stderr(Stdio::piped()).spawn().unwrap());
    let mut child = KillOnDrop(child);
    let mut stderr = child.0.stderr.take().unwrap();
    let (log, logged) = channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        let _ = log.send(text);
    });
    (child, address, key, logged)
}

#[test]
fn the_log_has_a_line_for_each_connection_identity_and_game_and_no_secret() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key, logged) = serve_logged(data.path());
    let alice_dir = tempfile::tempdir().unwrap();
    let alice_key = Identity::load_or_create(alice_dir.path())
        .unwrap()
        .public_hex();
    let alice = Player::with_config(&address, &key, "alice", alice_dir.path(), |_| {});
    let bob = Player::connect(&address, &key, "bob");
    connected(&alice);
    connected(&bob);
    alice.send(ClientMessage::Create(GameSetup {
        rules: Preset::Standard,
        side: SideChoice::Attackers,
        timing: Timing::Untimed,
        private: true,
        engine_allowed: false,
        rated: false,
    }));
    let (game, code) = alice.expect_message("created", |m| match m {
        ServerMessage::Created { game, code } => Some((game.id, code.clone().unwrap())),
        _ => None,
    });
    bob.send(ClientMessage::Join {
        game: None,
        code: Some(code.clone()),
    });
    alice.expect_message("begun", |m| match m {
        ServerMessage::State(view) if view.summary.id == game => Some(()),
        _ => None,
    });
    bob.send(ClientMessage::Resign { game });
    result(&alice, game);
    alice.send(ClientMessage::Watch { game: 999 });
    alice.expect_message("refusal", |m| {
        matches!(m, ServerMessage::Error { .. }).then_some(())
    });
    let status = stop(child, rustix::process::Signal::INT);
    let log = logged.recv_timeout(WAIT).unwrap();
    assert!(status.success(), "{status}\n{log}");
    let lines: Vec<&str> = log.lines().collect();
    let has = |words: &[&str]| lines.iter().any(|l| words.iter().all(|w| l.contains(w)));
    assert!(has(&["connection", "127.0.0.1"]), "{log}");
    assert!(has(&["identified", "alice"]), "{log}");
    assert!(has(&["game begun", &format!("game={game}")]), "{log}");
    assert!(
        has(&["game ended", &format!("game={game}"), "resignation"]),
        "{log}"
    );
    assert!(has(&["request refused", "NoGame", "999"]), "{log}");
    assert!(has(&["going down"]), "{log}");
    // Each line begins with its time (2026-12-07T18:30:00.123456Z).
    assert!(
        lines
            .iter()
            .all(|l| l.get(..4).is_some_and(|y| y.parse::<u16>().is_ok())
                && l.get(10..11) == Some("T")),
        "{log}"
    );
    // No key, signature or nonce (runs of hex digits), no invite code.
    assert!(!log.contains(&alice_key), "{log}");
    assert!(!log.contains(&code), "{log}");
    let longest_hex = log
        .split(|c: char| !c.is_ascii_hexdigit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(longest_hex < 32, "{log}");
}

#[test]
fn a_backup_of_a_running_server_holds_its_games_and_never_overwrites_by_surprise() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key) = serve(data.path(), "127.0.0.1:0");
    let server = KillOnDrop(child);
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let game = new_game(&alice, &bob, Timing::Untimed);
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 3);
    let out = tempfile::tempdir().unwrap();
    let copy = out.path().join("copy.sqlite3");
    let copy_arg = copy.to_str().unwrap();
    let backup = brandubh(&["serve", "backup", copy_arg], data.path());
    assert!(
        backup.status.success(),
        "{}",
        String::from_utf8_lossy(&backup.stderr)
    );
    let db = rusqlite::Connection::open(&copy).unwrap();
    let moves: i64 = db
        .query_row(
            "SELECT count(*) FROM moves WHERE game = ?1",
            [i64::try_from(game).unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(moves, 3);
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete", "the copy is one file");
    drop(db);
    // An existing file is kept, unless replacing it is asked for.
    let again = brandubh(&["serve", "backup", copy_arg], data.path());
    assert_eq!(again.status.code(), Some(2));
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains("already exists") && said.contains("--force"),
        "{said}"
    );
    let forced = brandubh(&["serve", "backup", copy_arg, "--force"], data.path());
    assert!(forced.status.success());
    // Never over the database itself or its log, even forced, even through a link.
    let link = out.path().join("link");
    std::os::unix::fs::symlink(data.path().join(DB_FILE), &link).unwrap();
    let wal = data.path().join(format!("{DB_FILE}-wal"));
    for own in [data.path().join(DB_FILE), wal, link.clone()] {
        let over = brandubh(
            &["serve", "backup", own.to_str().unwrap(), "--force"],
            data.path(),
        );
        assert_eq!(over.status.code(), Some(2), "{}", own.display());
    }
    // A server stopped: its folder is left as it was, one database file without a log.
    assert!(stop(server, rustix::process::Signal::TERM).success());
    let stopped = brandubh(&["serve", "backup", copy_arg, "--force"], data.path());
    assert!(stopped.status.success());
    let mut files: Vec<String> = std::fs::read_dir(data.path())
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(DB_FILE))
        .collect();
    files.sort();
    assert_eq!(files, [DB_FILE]);
    // No database: one line, nothing written.
    let empty = tempfile::tempdir().unwrap();
    let elsewhere = out.path().join("none.sqlite3");
    let none = brandubh(
        &["serve", "backup", elsewhere.to_str().unwrap()],
        empty.path(),
    );
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&none.stderr).lines().count(), 1);
    assert!(!elsewhere.exists());
    std::fs::remove_file(link).unwrap();
    assert_eq!(
        std::fs::read_dir(out.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn a_signal_as_soon_as_the_server_has_started_stops_it_gracefully() {
    let data = tempfile::tempdir().unwrap();
    for signal in [rustix::process::Signal::INT, rustix::process::Signal::TERM] {
        let (child, _, _) = serve(data.path(), "127.0.0.1:0");
        let status = stop(KillOnDrop(child), signal);
        assert!(status.success(), "{status}");
    }
}

#[test]
fn a_connection_still_in_its_handshake_does_not_hold_up_the_stop() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key, logged) = serve_logged(data.path());
    // A connection that never begins its TLS handshake (accepted before the player's, which
    // comes after it).
    let silent = std::net::TcpStream::connect(&address).unwrap();
    let player = Player::connect(&address, &key, "alice");
    connected(&player);
    let status = stop(child, rustix::process::Signal::TERM);
    let log = logged.recv_timeout(WAIT).unwrap();
    assert!(status.success(), "{status}\n{log}");
    player.expect("the notice", |e| {
        matches!(e, Event::ServerGoingDown).then_some(())
    });
    assert!(!log.contains("still open"), "{log}");
    drop(silent);
}
