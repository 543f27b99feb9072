//! The club on a loopback server: the lobby's chat reaches every player and is kept across
//! a restart; a blocked player cannot join the blocker's game and is not heard by it; a
//! player's finished games come a page at a time, with their dates.

use brandubh::net::protocol::club::LobbyLine;
use brandubh::net::protocol::{
    ARCHIVE_PAGE, ClientMessage, ErrorCode, GameSetup, ServerMessage, SideChoice,
};
use brandubh::net::server::Limits;

use crate::net::{Player, connected, create, start_server};

/// The next lobby line `player` hears.
fn heard(player: &Player) -> LobbyLine {
    player.expect_message("a lobby line", |m| match m {
        ServerMessage::LobbyChat(line) => Some(line.clone()),
        _ => None,
    })
}

fn line(from: &str, text: &str) -> LobbyLine {
    LobbyLine {
        from: from.into(),
        text: text.into(),
    }
}

#[test]
fn the_lobby_chat_reaches_another_player_and_is_kept_across_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (address, key) = (server.addr().to_string(), server.fingerprint().to_owned());
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    connected(&alice);
    connected(&bob);
    alice.send(ClientMessage::LobbyChat {
        text: "anyone for walker?".into(),
    });
    assert_eq!(heard(&bob), line("alice", "anyone for walker?"));
    assert_eq!(heard(&alice), line("alice", "anyone for walker?"));
    drop((alice, bob));
    drop(server);
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let carol = Player::connect(&server.addr().to_string(), server.fingerprint(), "carol");
    assert_eq!(
        heard(&carol),
        line("alice", "anyone for walker?"),
        "not kept"
    );
}

#[test]
fn a_blocked_player_cannot_join_and_is_not_heard() {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
    let (address, key) = (server.addr().to_string(), server.fingerprint().to_owned());
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let carol = Player::connect(&address, &key, "carol");
    for player in [&alice, &bob, &carol] {
        connected(player);
    }
    alice.send(ClientMessage::Block {
        name: "bob".into(),
        block: true,
    });
    let blocked = alice.expect_message("blocks", |m| match m {
        ServerMessage::Blocks { names } if !names.is_empty() => Some(names.clone()),
        _ => None,
    });
    assert_eq!(blocked, ["bob"]);
    let setup = GameSetup {
        side: SideChoice::Attackers,
        ..GameSetup::default()
    };
    let game = create(&alice, setup);
    bob.send(ClientMessage::Join {
        game: Some(game),
        code: None,
    });
    let refused = bob.expect_message("refusal", |m| match m {
        ServerMessage::Error { code, message } => Some((*code, message.clone())),
        ServerMessage::State(_) => panic!("bob joined the game of alice, who blocks him"),
        _ => None,
    });
    assert_eq!(refused.0, ErrorCode::Refused);
    assert!(refused.1.contains("alice"), "{}", refused.1);
    bob.send(ClientMessage::LobbyChat {
        text: "let me in".into(),
    });
    assert_eq!(heard(&carol), line("bob", "let me in"));
    carol.send(ClientMessage::LobbyChat { text: "hi".into() });
    assert_eq!(heard(&alice), line("carol", "hi"), "bob was heard");
    carol.send(ClientMessage::Join {
        game: Some(game),
        code: None,
    });
    carol.expect_message("the game", |m| {
        matches!(m, ServerMessage::State(view) if view.summary.id == game).then_some(())
    });
    // Lifted: bob is heard again.
    alice.send(ClientMessage::Block {
        name: "bob".into(),
        block: false,
    });
    alice.expect_message("no blocks", |m| match m {
        ServerMessage::Blocks { names } => names.is_empty().then_some(()),
        _ => None,
    });
    bob.send(ClientMessage::LobbyChat {
        text: "thanks".into(),
    });
    assert_eq!(heard(&alice), line("bob", "thanks"));
}

#[test]
fn the_lobby_chat_is_paced_per_player() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        lobby_lines_per_minute: 2,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let alice = Player::connect(&server.addr().to_string(), server.fingerprint(), "alice");
    connected(&alice);
    for n in 0..3 {
        alice.send(ClientMessage::LobbyChat {
            text: format!("line {n}"),
        });
    }
    let code = alice.expect_message("refusal", |m| match m {
        ServerMessage::Error { code, .. } => Some(*code),
        _ => None,
    });
    assert_eq!(code, ErrorCode::RateLimited);
}

#[test]
fn a_player_s_finished_games_come_a_page_at_a_time_newest_first_with_their_dates() {
    let data = tempfile::tempdir().unwrap();
    // As many games as fill a page and one more, played as fast as the server answers.
    let limits = Limits {
        messages_per_second: 1000,
        burst: 1000,
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let (address, key) = (server.addr().to_string(), server.fingerprint().to_owned());
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    connected(&alice);
    connected(&bob);
    let games = ARCHIVE_PAGE + 1;
    for _ in 0..games {
        let game = create(&alice, GameSetup::default());
        bob.send(ClientMessage::Join {
            game: Some(game),
            code: None,
        });
        bob.expect_message("the game", |m| {
            matches!(m, ServerMessage::State(view) if view.summary.id == game).then_some(())
        });
        bob.send(ClientMessage::Resign { game });
        bob.expect_message("the end", |m| {
            matches!(m, ServerMessage::Result { game: g, .. } if *g == game).then_some(())
        });
    }
    let page = |page| {
        alice.send(ClientMessage::Archive {
            name: "alice".into(),
            page,
        });
        alice.expect_message("archive", |m| match m {
            ServerMessage::Archive { games, total, .. } => Some((games.clone(), *total)),
            _ => None,
        })
    };
    let (first, total) = page(0);
    let (second, _) = page(1);
    assert_eq!((first.len(), second.len(), total), (ARCHIVE_PAGE, 1, games));
    assert!(first[0].id > first[1].id, "newest first");
    assert!(second[0].id < first[ARCHIVE_PAGE - 1].id);
    let today = jiff::Timestamp::now().to_string()[..10].to_owned();
    assert_eq!(first[0].date.as_deref(), Some(today.as_str()));
}
