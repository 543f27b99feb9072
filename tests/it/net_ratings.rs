//! Ratings end to end: rated games played on a loopback server change both players'
//! ratings, told to both, listed by the leaderboard (and by `brandubh online
//! --leaderboard`); casual games and games ended before each side moved change nothing.

use brandubh::net::protocol::{ClientMessage, GameId, GameSetup, ServerMessage, SideChoice};
use brandubh::net::ratings::{Change, Speed};
use brandubh::net::server::Limits;
use brandubh::rules::{GameState, Preset};

use crate::net::{Player, connected, new_game_with, online, play, result, start_server};

/// A server on a loopback port of its own, and alice and bob connected to it.
struct Club {
    alice: Player,
    bob: Player,
    address: String,
    key: String,
    _server: brandubh::net::server::RunningServer,
    _data: tempfile::TempDir,
}

impl Club {
    fn open() -> Club {
        let data = tempfile::tempdir().unwrap();
        let server = start_server(data.path(), "127.0.0.1:0", Limits::default());
        let address = server.addr().to_string();
        let key = server.fingerprint().to_owned();
        let alice = Player::connect(&address, &key, "alice");
        let bob = Player::connect(&address, &key, "bob");
        connected(&alice);
        connected(&bob);
        Club {
            alice,
            bob,
            address,
            key,
            _server: server,
            _data: data,
        }
    }
}

/// A standard game with no clock, alice the attackers, rated or not.
fn setup(rated: bool) -> GameSetup {
    GameSetup {
        rules: Preset::Standard,
        side: SideChoice::Attackers,
        rated,
        ..GameSetup::default()
    }
}

/// Alice and bob play `plies` moves of a game of `setup`, then bob resigns; every message
/// each of them got after the result, up to the answer of a ping sent after it (the
/// server tells the rating changes with the result, in the same turn).
fn resigned_after(
    alice: &Player,
    bob: &Player,
    setup: GameSetup,
    plies: usize,
) -> (GameId, [Vec<ServerMessage>; 2]) {
    let game = new_game_with(alice, bob, setup);
    let mut state = GameState::start(Preset::Standard.rules());
    play(&mut state, game, alice, bob, plies);
    bob.send(ClientMessage::Resign { game });
    let after = |player: &Player| {
        result(player, game);
        player.send(ClientMessage::Ping { id: 9 });
        let mut seen = Vec::new();
        player.expect_message("pong", |m| {
            seen.push(m.clone());
            matches!(m, ServerMessage::Pong { id: 9 }).then_some(())
        });
        seen
    };
    (game, [after(alice), after(bob)])
}

/// The rating changes told in `seen` for `game`, attackers first.
fn rated(seen: &[ServerMessage], game: GameId) -> Option<[Change; 2]> {
    seen.iter().find_map(|m| match m {
        ServerMessage::Rated(brandubh::net::protocol::RatedGame {
            game: g,
            attackers,
            defenders,
        }) if *g == game => Some([*attackers, *defenders]),
        _ => None,
    })
}

/// The live standard leaderboard's first page as `player` gets it: (name, rating, games).
fn leaderboard(player: &Player) -> (usize, Vec<(String, String, u32)>) {
    player.send(ClientMessage::Leaderboard(
        brandubh::net::protocol::LeaderboardAsk {
            rules: Preset::Standard,
            speed: Speed::Live,
            page: 0,
            bots: false,
        },
    ));
    player.expect_message("leaderboard", |m| match m {
        ServerMessage::Leaderboard(board) => Some((
            board.total,
            board
                .players
                .iter()
                .map(|p| (p.name.clone(), p.rating.to_string(), p.games))
                .collect(),
        )),
        _ => None,
    })
}

#[test]
fn a_rated_game_changes_both_ratings_seen_by_both_and_listed_in_order() {
    let club = Club::open();
    let (alice, bob, address, key) = (&club.alice, &club.bob, &club.address, &club.key);
    let (game, [to_alice, to_bob]) = resigned_after(alice, bob, setup(true), 2);
    let changes = rated(&to_alice, game).expect("alice was not told the ratings");
    assert_eq!(
        rated(&to_bob, game),
        Some(changes),
        "bob was told otherwise"
    );
    let [winner, loser] = changes;
    assert_eq!(winner.to_string(), "1500? → 1662? (+162)");
    assert_eq!(loser.to_string(), "1500? → 1338? (-162)");
    let expected = vec![
        ("alice".to_owned(), "1662?".to_owned(), 1),
        ("bob".to_owned(), "1338?".to_owned(), 1),
    ];
    assert_eq!(leaderboard(bob), (2, expected));
    let printed = online(address, &["--trust", key, "--leaderboard"]);
    assert_eq!(printed, "1\talice\t1662?\t1\n2\tbob\t1338?\t1\n");
    let printed = online(
        address,
        &["--trust", key, "--leaderboard", "--correspondence"],
    );
    assert_eq!(printed, "", "a pool nobody is rated in");
    // Bob's profile: his rating, his loss, the game.
    alice.send(ClientMessage::Profile { name: "bob".into() });
    let profile = alice.expect_message("profile", |m| match m {
        ServerMessage::Profile(p) => Some(p.clone()),
        _ => None,
    });
    assert!(profile.online && !profile.playing, "{profile:?}");
    let pool = &profile.pools[0];
    assert_eq!((pool.wins, pool.draws, pool.losses), (0, 0, 1));
    assert_eq!(pool.rating.rating, 1338);
    let history: Vec<(GameId, i32)> = profile.history.iter().map(|p| (p.game, p.rating)).collect();
    assert_eq!(history, [(game, 1338)]);
    let recent: Vec<GameId> = profile.recent.iter().map(|g| g.id).collect();
    assert_eq!(recent, [game]);
}

#[test]
fn a_casual_game_and_a_game_of_one_move_leave_the_ratings_alone() {
    let club = Club::open();
    let (alice, bob) = (&club.alice, &club.bob);
    let (casual, [to_alice, to_bob]) = resigned_after(alice, bob, setup(false), 4);
    assert_eq!(rated(&to_alice, casual), None, "{to_alice:?}");
    assert_eq!(rated(&to_bob, casual), None, "{to_bob:?}");
    let (short, [to_alice, to_bob]) = resigned_after(alice, bob, setup(true), 1);
    assert_eq!(rated(&to_alice, short), None, "one move: {to_alice:?}");
    assert_eq!(rated(&to_bob, short), None, "one move: {to_bob:?}");
    assert_eq!(leaderboard(alice), (0, Vec::new()));
}

#[test]
fn the_lobby_says_who_plays_and_counts_the_spectators_told_to_the_players() {
    let club = Club::open();
    let (alice, bob) = (&club.alice, &club.bob);
    let carol = Player::connect(&club.address, &club.key, "carol");
    connected(&carol);
    let game = new_game_with(alice, bob, setup(true));
    carol.send(ClientMessage::Watch { game });
    let count = alice.expect_message("spectators", |m| match m {
        ServerMessage::Spectators { game: g, count } if *g == game => Some(*count),
        _ => None,
    });
    assert_eq!(count, 1);
    carol.send(ClientMessage::Lobby { page: 0 });
    let lobby = carol.expect_message("lobby", |m| match m {
        ServerMessage::Lobby(lobby) => Some(lobby.clone()),
        _ => None,
    });
    let watched = &lobby.playing[0];
    assert_eq!((watched.id, watched.spectators), (game, 1));
    let newcomer = Some("1500?".to_owned());
    let shown = |r: Option<brandubh::net::ratings::Shown>| r.map(|r| r.to_string());
    assert_eq!(shown(watched.ratings.attackers), newcomer);
    assert_eq!(shown(watched.ratings.defenders), newcomer);
    let playing: Vec<(&str, bool)> = lobby
        .players
        .iter()
        .zip(&lobby.players_status)
        .map(|(name, status)| (name.as_str(), status.playing))
        .collect();
    assert_eq!(playing, [("alice", true), ("bob", true), ("carol", false)]);
    carol.send(ClientMessage::Leave { game });
    let count = bob.expect_message("spectators", |m| match m {
        ServerMessage::Spectators { game: g, count } if *g == game && *count == 0 => Some(*count),
        _ => None,
    });
    assert_eq!(count, 0);
}
