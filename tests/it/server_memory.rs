//! What the server remembers for its players across drops and restarts: a game that ended
//! while a player was away reaches her save folder, a chat line sent while the server was
//! down reaches the opponent, a move queued while it was down is played once, and the time
//! the player to move used before a restart is charged.
#![cfg(unix)]

use std::time::{Duration, Instant};

use brandubh::game::Game;
use brandubh::net::client::Event;
use brandubh::net::protocol::{ClientMessage, ServerMessage, Timing};
use brandubh::net::server::Limits;
use brandubh::rules::{GameState, Preset, Reason, Side};

use crate::net::{
    KillOnDrop, Player, connected, new_game, next_move, play, result, serve, start_server,
};
use crate::server_ops::stop;

/// A server whose data folder holds an untimed game of alice (the attackers) and bob, its
/// address and key, the two players, and the game; killed (SIGKILL), alice's client has
/// seen the connection drop.
struct KilledWithAGame {
    data: tempfile::TempDir,
    address: String,
    key: String,
    alice: Player,
    bob: Player,
    game: brandubh::net::protocol::GameId,
}

impl KilledWithAGame {
    /// Bob's client uses the config folder `bob_config`.
    fn new(bob_config: &std::path::Path) -> KilledWithAGame {
        let data = tempfile::tempdir().unwrap();
        let (child, address, key) = serve(data.path(), "127.0.0.1:0");
        let mut first = KillOnDrop(child);
        let alice = Player::connect(&address, &key, "alice");
        let bob = Player::with_config(&address, &key, "bob", bob_config, |_| {});
        let game = new_game(&alice, &bob, Timing::Untimed);
        first.0.kill().unwrap(); // SIGKILL
        first.0.wait().unwrap();
        alice.expect("dropped", |e| {
            matches!(e, Event::Disconnected { .. }).then_some(())
        });
        KilledWithAGame {
            data,
            address,
            key,
            alice,
            bob,
            game,
        }
    }

    /// The server started again on its folder and address.
    fn restart(&self) -> KillOnDrop {
        KillOnDrop(serve(self.data.path(), &self.address).0)
    }
}

#[test]
fn a_game_that_ends_while_a_player_is_away_reaches_her_save_folder_when_she_returns() {
    let data = tempfile::tempdir().unwrap();
    let limits = Limits {
        return_window: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let (address, key) = (server.addr().to_string(), server.fingerprint().to_owned());
    let config = tempfile::tempdir().unwrap();
    let saves = tempfile::tempdir().unwrap();
    let alice_again = || {
        Player::with_config(&address, &key, "alice", config.path(), |c| {
            c.save_dir = Some(saves.path().to_owned());
        })
    };
    let alice = alice_again();
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    drop(alice);
    let outcome = result(&bob, game);
    assert_eq!(outcome.reason, Reason::Abandoned);
    // A connection that saves nothing (as the name check `brandubh online` makes first)
    // hears of it and leaves it for the next.
    let check = Player::with_config(&address, &key, "alice", config.path(), |c| {
        c.save_dir = None;
    });
    check.expect_message("told", |m| match m {
        ServerMessage::Finished { game: g } if g.id == game => Some(()),
        _ => None,
    });
    drop(check);
    let alice = alice_again();
    let file = alice.expect("the game saved", |e| match e {
        Event::Saved { game: g, path } if *g == game => Some(path.clone()),
        _ => None,
    });
    assert!(file.starts_with(saves.path()), "{file:?}");
    // Saved: the next connection hears nothing more of it.
    drop(alice);
    let alice = alice_again();
    connected(&alice);
    alice.send(ClientMessage::Ping { id: 9 });
    alice.expect_message("pong", |m| match m {
        ServerMessage::Pong { id: 9 } => Some(()),
        ServerMessage::Finished { game: g } => panic!("delivered again: {g:?}"),
        _ => None,
    });
}

#[test]
fn a_chat_line_sent_while_the_server_is_down_reaches_the_opponent() {
    let bob_config = tempfile::tempdir().unwrap();
    let KilledWithAGame {
        data,
        address,
        key,
        alice,
        bob,
        game,
    } = KilledWithAGame::new(bob_config.path());
    // Bob is still away when alice's queued line reaches the server.
    drop(bob);
    let text = "said while the server was down";
    alice.send(ClientMessage::Chat {
        game,
        text: text.into(),
    });
    let _server = KillOnDrop(serve(data.path(), &address).0);
    alice.expect_message("her line, relayed", |m| match m {
        ServerMessage::Chat { text: t, .. } if t == text => Some(()),
        _ => None,
    });
    let bob = Player::with_config(&address, &key, "bob", bob_config.path(), |_| {});
    let seen = bob.expect_message("the line, replayed", |m| match m {
        ServerMessage::ChatLog { game: g, lines } if *g == game => Some(lines.clone()),
        _ => None,
    });
    let texts: Vec<&str> = seen.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, [text]);
    // And it is kept in the save of the game.
    bob.send(ClientMessage::Resign { game });
    let file = alice.expect("the game saved", |e| match e {
        Event::Saved { game: g, path } if *g == game => Some(path.clone()),
        _ => None,
    });
    let saved = Game::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
    let chat: Vec<(&str, &str)> = saved
        .chat()
        .iter()
        .map(|l| (l.from.as_str(), l.text.as_str()))
        .collect();
    assert_eq!(chat, [("alice", text)]);
}

#[test]
fn a_move_queued_while_the_server_is_down_and_sent_again_is_played_once_without_an_error() {
    let bob_config = tempfile::tempdir().unwrap();
    let killed = KilledWithAGame::new(bob_config.path());
    let (alice, game) = (&killed.alice, killed.game);
    let mv = next_move(&GameState::start(Preset::Standard.rules()));
    let queued = ClientMessage::Move {
        game,
        ply: 0,
        mv: mv.clone(),
    };
    alice.send(queued.clone());
    let _server = killed.restart();
    // The state after the reconnect may not hold the move yet: a client sends it again then.
    let moves = alice.expect_message("state", |m| match m {
        ServerMessage::State(view) if view.summary.id == game => Some(view.moves.len()),
        _ => None,
    });
    if moves == 0 {
        alice.send(queued);
    }
    alice.send(ClientMessage::Ping { id: 7 });
    let mut played = 0;
    alice.expect_message("pong", |m| match m {
        ServerMessage::Moved { game: g, .. } if *g == game => {
            played += 1;
            None
        }
        ServerMessage::Error { message, .. } => panic!("the server says: {message}"),
        ServerMessage::Pong { id: 7 } => Some(()),
        _ => None,
    });
    assert!(played <= 1, "played {played} times");
}

#[test]
fn after_a_restart_the_player_to_move_is_charged_the_time_used_before_it() {
    let data = tempfile::tempdir().unwrap();
    let (child, address, key) = serve(data.path(), "127.0.0.1:0");
    let alice = Player::connect(&address, &key, "alice");
    let bob = Player::connect(&address, &key, "bob");
    let control = "10m".parse().unwrap();
    let game = new_game(&alice, &bob, Timing::Clock { control });
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, &alice, &bob, 1);
    // Bob thinks for a while: time used, to be charged after the restart.
    let thought = Duration::from_millis(1500);
    let moved = Instant::now();
    while moved.elapsed() < thought {
        std::thread::sleep(thought.saturating_sub(moved.elapsed()));
    }
    assert!(stop(KillOnDrop(child), rustix::process::Signal::TERM).success());
    let _again = KillOnDrop(serve(data.path(), &address).0);
    let clocks = bob.expect_message("state after the restart", |m| match m {
        ServerMessage::State(view) if view.summary.id == game => view.clocks,
        _ => None,
    });
    let left = clocks.clocks.side(Side::Defenders).left();
    assert!(
        left + thought <= Duration::from_secs(600),
        "{left:?} left: the time used before the restart was given back"
    );
}
