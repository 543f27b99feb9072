//! The lobby and the archive among many games, and readers that fall behind: every line the
//! server sends fits the protocol's line limit, lists come in pages, and a connection that
//! asks and never reads is cut off while others are still answered.

use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use brandubh::net::identity::{ChannelBinding, Identity};
use brandubh::net::protocol::{self, ARCHIVE_PAGE, ClientMessage, LOBBY_PAGE, ServerMessage};
use brandubh::net::server::{self, Limits, RunningServer};
use brandubh::rules::{Outcome, Reason, Side};

use crate::net::{Player, WAIT, connected, online, raw_tls, start_server};

/// How many games the servers of these tests hold.
const MANY: usize = 10_000;

/// A server whose database holds what `seed` writes into it before it starts.
fn seeded(data: &Path, limits: Limits, seed: impl FnOnce(&rusqlite::Transaction)) -> RunningServer {
    // A first start makes the database and its tables.
    drop(start_server(data, "127.0.0.1:0", Limits::default()));
    let mut db = rusqlite::Connection::open(data.join(server::DB_FILE)).unwrap();
    let tx = db.transaction().unwrap();
    seed(&tx);
    tx.commit().unwrap();
    drop(db);
    start_server(data, "127.0.0.1:0", limits)
}

/// Writes `n` games at `stage` between the players `attackers` and `defenders` (`None`: a
/// player of its own for each game), created by the attackers' player.
fn insert_games(
    tx: &rusqlite::Transaction,
    n: usize,
    stage: &str,
    attackers: Option<&str>,
    defenders: Option<&str>,
) {
    let outcome = Outcome {
        winner: Some(Side::Attackers),
        reason: Reason::Resignation,
    };
    let outcome = (stage == "over").then(|| serde_json::to_string(&outcome).unwrap());
    let mut insert = tx
        .prepare(
            "INSERT INTO games (setup, creator_key, creator_name, attackers_key, attackers_name,
             defenders_key, defenders_name, stage, outcome, created)
             VALUES ('{\"rules\":\"standard\"}', ?1, ?1, ?1, ?1, ?2, ?2, ?3, ?4,
             '2026-12-01T00:00:00Z')",
        )
        .unwrap();
    for i in 0..n {
        let a = attackers.map_or_else(|| format!("attacker {i}"), str::to_owned);
        let d = defenders.map(str::to_owned);
        let d = if stage == "open" {
            None
        } else {
            Some(d.unwrap_or_else(|| format!("defender {i}")))
        };
        insert
            .execute(rusqlite::params![a, d, stage, outcome])
            .unwrap();
    }
}

#[test]
fn a_lobby_among_ten_thousand_games_arrives() {
    let data = tempfile::tempdir().unwrap();
    let server = seeded(data.path(), Limits::default(), |tx| {
        insert_games(tx, MANY / 2, "open", None, None);
        insert_games(tx, MANY / 2, "playing", None, None);
    });
    let address = server.addr().to_string();
    let bob = Player::connect(&address, server.fingerprint(), "bob");
    connected(&bob);
    let lobby = |page| {
        bob.send(ClientMessage::Lobby { page });
        bob.expect_message("lobby", |m| match m {
            ServerMessage::Lobby(lobby) => Some(lobby.clone()),
            _ => None,
        })
    };
    let first = lobby(0);
    assert_eq!(
        (first.open_total, first.playing_total),
        (MANY / 2, MANY / 2)
    );
    assert_eq!(
        (first.open.len(), first.playing.len()),
        (LOBBY_PAGE, LOBBY_PAGE)
    );
    assert_eq!(first.players_total, 1);
    let pages = first.pages();
    assert_eq!(pages as usize, MANY / 2 / LOBBY_PAGE);
    // The last page, and any page past it, is the last page.
    let last = lobby(pages - 1);
    assert_eq!(lobby(u32::MAX), last);
    assert_eq!(last.page, pages - 1);
    let ids = |games: &[protocol::GameSummary]| games.iter().map(|g| g.id).collect::<Vec<_>>();
    assert!(
        ids(&first.open).iter().max() < ids(&last.open).iter().min(),
        "oldest first"
    );
}

#[test]
fn an_archive_of_ten_thousand_games_arrives() {
    let data = tempfile::tempdir().unwrap();
    let server = seeded(data.path(), Limits::default(), |tx| {
        insert_games(tx, MANY, "over", Some("alice"), None);
    });
    let address = server.addr().to_string();
    let alice = Player::connect(&address, server.fingerprint(), "alice");
    connected(&alice);
    let archive = |page| {
        alice.send(ClientMessage::Archive {
            name: "alice".into(),
            page,
        });
        alice.expect_message("archive", |m| match m {
            ServerMessage::Archive {
                games, page, total, ..
            } => Some((games.clone(), *page, *total)),
            _ => None,
        })
    };
    let (first, page, total) = archive(0);
    assert_eq!((first.len(), page, total), (ARCHIVE_PAGE, 0, MANY));
    let newest = u64::try_from(MANY).unwrap();
    assert_eq!(first[0].id, newest, "newest first");
    let pages = u32::try_from(MANY / ARCHIVE_PAGE).unwrap();
    let (last, page, _) = archive(u32::MAX);
    assert_eq!(page, pages - 1, "past the end: the last page");
    assert_eq!(last.last().map(|g| g.id), Some(1));
    assert!(
        last.iter()
            .all(|g| g.attackers.as_deref() == Some("alice") && g.outcome.is_some())
    );
}

#[test]
fn games_lists_every_page_of_an_archive_and_downloads_each_game() {
    let data = tempfile::tempdir().unwrap();
    let games = 2 * ARCHIVE_PAGE + 3;
    let server = seeded(data.path(), Limits::default(), |tx| {
        insert_games(tx, games, "over", None, Some("bob"));
    });
    let address = server.addr().to_string();
    let downloads = tempfile::tempdir().unwrap();
    let out = downloads.path().to_str().unwrap();
    let key = server.fingerprint();
    let args = [
        "--trust", key, "--name", "carol", "--games", "bob", "--out", out,
    ];
    let stdout = online(&address, &args);
    assert!(
        stdout.starts_with(&format!("finished games of bob: {games}\n")),
        "{stdout}"
    );
    let listed = stdout.lines().filter(|l| l.contains(" vs bob ")).count();
    assert_eq!(listed, games, "{stdout}");
    assert_eq!(std::fs::read_dir(downloads.path()).unwrap().count(), games);
}

/// Reads one line of a raw connection, byte by byte (nothing is read past it).
fn read_line(stream: &mut impl Read) -> String {
    let mut line = Vec::new();
    let mut byte = [0];
    while stream.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    String::from_utf8(line).unwrap()
}

/// Says hello on a raw connection and reads the server's hello; returns the challenge.
fn hello(stream: &mut (impl Read + Write)) -> String {
    let hello = ClientMessage::Hello {
        version: protocol::VERSION,
        client: "test".into(),
    };
    writeln!(stream, "{}", hello.to_line()).unwrap();
    assert!(read_line(stream).contains("hello"));
    match ServerMessage::parse(&read_line(stream)).unwrap() {
        ServerMessage::Challenge { nonce } => nonce,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_archive_is_not_read_for_a_client_not_identified() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let mut raw = raw_tls(&server.addr().to_string());
    hello(&mut raw);
    let ask = ClientMessage::Archive {
        name: "alice".into(),
        page: 0,
    };
    writeln!(raw, "{}", ask.to_line()).unwrap();
    let answer = ServerMessage::parse(&read_line(&mut raw)).unwrap();
    assert!(
        matches!(
            answer,
            ServerMessage::Error {
                code: protocol::ErrorCode::NotNow,
                ..
            }
        ),
        "{answer:?}"
    );
}

/// Whether the server ends the connection (an end or a reset) within [`WAIT`], reading and
/// dropping whatever comes first.
fn ended_by_server(stream: &mut impl Read) -> bool {
    let deadline = Instant::now() + WAIT;
    let mut buffer = vec![0; 64 * 1024];
    while Instant::now() < deadline {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                );
            }
        }
    }
    false
}

#[test]
fn readers_that_ask_and_never_read_are_cut_off_and_others_still_answered() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        messages_per_second: 10_000,
        burst: 10_000,
        // Only the cut ends these connections.
        idle: Duration::from_secs(600),
        ping_every: Duration::from_secs(600),
        ..Limits::default()
    };
    let server = seeded(data.path(), limits, |tx| {
        insert_games(tx, 100, "open", None, None);
        insert_games(tx, 100, "playing", None, None);
    });
    let address = server.addr().to_string();
    let mut floods = Vec::new();
    for i in 0..4 {
        let config = tempfile::tempdir().unwrap();
        let identity = Identity::load_or_create(config.path()).unwrap();
        let mut raw = raw_tls(&address);
        let nonce = hello(&mut raw);
        let proof = ClientMessage::Identify {
            name: format!("flood {i}"),
            key: identity.public_hex(),
            signature: identity.sign(&nonce, &ChannelBinding::of(&*raw.conn).unwrap()),
            bot: false,
        };
        writeln!(raw, "{}", proof.to_line()).unwrap();
        assert!(read_line(&mut raw).contains("welcome"));
        // Asks again and again (for pages in turn, so that no answer is the last one
        // asked again), and never reads.
        let mut asks = Vec::new();
        for page in 0..2000 {
            let ask = ClientMessage::Lobby { page: page % 10 };
            writeln!(asks, "{}", ask.to_line()).unwrap();
        }
        raw.write_all(&asks).unwrap();
        floods.push(raw);
    }
    let bob = Player::connect(&address, server.fingerprint(), "bob");
    connected(&bob);
    bob.send(ClientMessage::Lobby { page: 0 });
    bob.expect_message("lobby", |m| {
        matches!(m, ServerMessage::Lobby(_)).then_some(())
    });
    for mut flood in floods {
        assert!(
            ended_by_server(&mut flood),
            "a reader that fell behind kept"
        );
    }
}
