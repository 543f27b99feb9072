//! Protocol version 4 end to end on a loopback server: challenging a named player,
//! rematches, aborting before one's first move, claiming a game the opponent left, giving
//! time. Each wait is bounded.

use std::time::Duration;

use brandubh::net::protocol::{
    ChallengeEnd, ClientMessage, ErrorCode, GIVEN_TIME, GameId, GameSetup, Offer, ServerMessage,
    SideChoice, Timing,
};
use brandubh::net::server::{Limits, RunningServer};
use brandubh::rules::{Preset, Reason, Side};

use crate::net::{Player, connected, new_game, result, start_server};

/// Two players on a server of their own (dropped in this order).
struct Club {
    alice: Player,
    bob: Player,
    server: RunningServer,
    _data: tempfile::TempDir,
}

/// A server on a loopback port with `limits`, and alice and bob on it, connected (that
/// news taken).
fn two_connected(limits: Limits) -> Club {
    let club = two_players(limits);
    connected(&club.alice);
    connected(&club.bob);
    club
}

/// A server on a loopback port with `limits`, and alice and bob connecting to it.
fn two_players(limits: Limits) -> Club {
    club(limits, None)
}

/// As [`two_players`], bob's key in `bob_config` if given.
fn club(limits: Limits, bob_config: Option<&std::path::Path>) -> Club {
    let data = tempfile::tempdir().unwrap();
    let server = start_server(data.path(), "127.0.0.1:0", limits);
    let (address, key) = (server.addr().to_string(), server.fingerprint().to_owned());
    let alice = Player::connect(&address, &key, "alice");
    let bob = match bob_config {
        Some(config) => Player::with_config(&address, &key, "bob", config, |_| {}),
        None => Player::connect(&address, &key, "bob"),
    };
    Club {
        alice,
        bob,
        server,
        _data: data,
    }
}

fn terms(side: SideChoice, timing: Timing) -> GameSetup {
    GameSetup {
        rules: Preset::Walker,
        side,
        timing,
        private: false,
        engine_allowed: false,
        rated: true,
    }
}

/// `from` challenges `to` by name; both see it; its number.
fn challenge(from: &Player, to: &Player, name: &str, setup: GameSetup) -> u64 {
    from.send(ClientMessage::ChallengePlayer {
        name: name.to_owned(),
        setup,
    });
    let views = [from, to].map(|player| {
        player.expect_message("the challenge", |m| match m {
            ServerMessage::Challenged(view) => Some(view.clone()),
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => None,
        })
    });
    assert_eq!((views[0].id, &views[0].to), (views[1].id, &views[1].to));
    assert!(views[0].expires_ms > 0);
    views[0].id
}

/// How challenge `id` ended, as `player` is told, and the game it began.
fn challenge_end(player: &Player, id: u64) -> (ChallengeEnd, Option<GameId>) {
    player.expect_message("the challenge's end", |m| match m {
        ServerMessage::ChallengeEnded {
            challenge,
            why,
            game,
        } if *challenge == id => Some((*why, *game)),
        _ => None,
    })
}

/// The error `player` is told next.
fn refusal(player: &Player) -> (ErrorCode, String) {
    player.expect_message("a refusal", |m| match m {
        ServerMessage::Error { code, message } => Some((*code, message.clone())),
        _ => None,
    })
}

/// The side `player` is given in the state of `game`.
fn side_in(player: &Player, game: GameId) -> Option<Side> {
    player.expect_message("the state", |m| match m {
        ServerMessage::State(view) if view.summary.id == game => Some(view.you),
        _ => None,
    })
}

/// The next game `player` is given the state of, other than `old`, and its side there.
fn new_state(player: &Player, old: GameId) -> (GameId, Option<Side>) {
    player.expect_message("a new game's state", |m| match m {
        ServerMessage::State(view) if view.summary.id != old => Some((view.summary.id, view.you)),
        _ => None,
    })
}

#[test]
fn a_challenge_accepted_begins_one_game_for_both_on_its_terms() {
    let club = two_connected(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let setup = terms(SideChoice::Defenders, Timing::Untimed);
    let id = challenge(alice, bob, "bob", setup);
    bob.send(ClientMessage::AnswerChallenge {
        challenge: id,
        accept: true,
    });
    // Each is sent the game's state, then the challenge's end naming it.
    let (game, alice_side) = new_state(alice, 0);
    assert_eq!(new_state(bob, 0), (game, Some(Side::Attackers)));
    assert_eq!(alice_side, Some(Side::Defenders));
    for player in [alice, bob] {
        assert_eq!(
            challenge_end(player, id),
            (ChallengeEnd::Accepted, Some(game))
        );
    }
}

#[test]
fn a_challenge_declined_or_withdrawn_is_told_to_both() {
    let club = two_connected(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let id = challenge(alice, bob, "bob", GameSetup::default());
    bob.send(ClientMessage::AnswerChallenge {
        challenge: id,
        accept: false,
    });
    assert_eq!(challenge_end(alice, id), (ChallengeEnd::Declined, None));
    let again = challenge(alice, bob, "bob", GameSetup::default());
    alice.send(ClientMessage::AnswerChallenge {
        challenge: again,
        accept: false,
    });
    assert_eq!(challenge_end(bob, again), (ChallengeEnd::Withdrawn, None));
}

#[test]
fn a_challenge_to_oneself_an_absent_player_or_beyond_the_cap_is_refused_with_a_reason() {
    let limits = Limits {
        challenges_out: 1,
        ..Limits::default()
    };
    let club = two_connected(limits);
    let (alice, bob) = (&club.alice, &club.bob);
    let ask = |name: &str| {
        alice.send(ClientMessage::ChallengePlayer {
            name: name.to_owned(),
            setup: GameSetup::default(),
        });
    };
    ask("alice");
    assert_eq!(
        refusal(alice),
        (
            ErrorCode::Refused,
            "you cannot challenge yourself".to_owned()
        )
    );
    ask("carol");
    assert_eq!(
        refusal(alice),
        (ErrorCode::Refused, "carol is not online".to_owned())
    );
    ask("no\u{1b}name");
    assert!(refusal(alice).1.starts_with("no such player"));
    challenge(alice, bob, "bob", GameSetup::default());
    ask("bob");
    assert!(refusal(alice).1.contains("already"), "twice the same");
    ask("bob");
    let _ = refusal(alice);
}

#[test]
fn a_player_who_blocks_another_is_not_challenged_by_it() {
    let club = two_connected(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    bob.send(ClientMessage::Block {
        name: "alice".to_owned(),
        block: true,
    });
    bob.expect_message("the block stored", |m| {
        matches!(m, ServerMessage::Blocks { .. }).then_some(())
    });
    alice.send(ClientMessage::ChallengePlayer {
        name: "bob".to_owned(),
        setup: GameSetup::default(),
    });
    assert_eq!(
        refusal(alice),
        (
            ErrorCode::Refused,
            "bob does not accept your challenges".to_owned()
        )
    );
}

#[test]
fn a_challenge_ends_when_its_challenger_leaves_the_server() {
    let club = two_connected(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let id = challenge(alice, bob, "bob", GameSetup::default());
    drop(club.alice);
    assert_eq!(challenge_end(bob, id), (ChallengeEnd::Gone, None));
}

#[test]
fn a_challenge_not_answered_in_time_expires() {
    let limits = Limits {
        challenge_expiry: Duration::from_millis(300),
        ..Limits::default()
    };
    let club = two_connected(limits);
    let (alice, bob) = (&club.alice, &club.bob);
    let id = challenge(alice, bob, "bob", GameSetup::default());
    assert_eq!(challenge_end(alice, id), (ChallengeEnd::Expired, None));
    assert_eq!(challenge_end(bob, id), (ChallengeEnd::Expired, None));
}

/// Alice (the attackers) and Bob play `game` to bob's resignation; both see the result.
fn resigned(alice: &Player, bob: &Player, game: GameId) {
    bob.send(ClientMessage::Resign { game });
    result(alice, game);
    result(bob, game);
}

#[test]
fn a_rematch_accepted_begins_a_game_on_the_same_terms_with_the_sides_swapped() {
    let club = two_players(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let game = new_game(alice, bob, Timing::Untimed);
    resigned(alice, bob, game);
    alice.send(ClientMessage::Offer {
        game,
        offer: Offer::Rematch,
    });
    let by = bob.expect_message("the offer", |m| match m {
        ServerMessage::Offered {
            game: g,
            offer: Offer::Rematch,
            by,
        } if *g == game => Some(*by),
        _ => None,
    });
    assert_eq!(by, Side::Attackers);
    bob.send(ClientMessage::Answer {
        game,
        offer: Offer::Rematch,
        accept: true,
    });
    let (next, alice_side) = new_state(alice, game);
    assert_eq!(alice_side, Some(Side::Defenders));
    assert_eq!(new_state(bob, game), (next, Some(Side::Attackers)));
}

#[test]
fn leaving_the_board_withdraws_a_rematch_offer() {
    let club = two_players(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let game = new_game(alice, bob, Timing::Untimed);
    resigned(alice, bob, game);
    bob.send(ClientMessage::Offer {
        game,
        offer: Offer::Rematch,
    });
    bob.send(ClientMessage::Leave { game });
    alice.expect_message("the offer withdrawn", |m| {
        matches!(
            m,
            ServerMessage::Declined {
                offer: Offer::Rematch,
                ..
            }
        )
        .then_some(())
    });
    alice.send(ClientMessage::Answer {
        game,
        offer: Offer::Rematch,
        accept: true,
    });
    assert_eq!(refusal(alice).0, ErrorCode::NoGame);
}

#[test]
fn a_game_is_aborted_only_by_a_player_who_has_not_moved_and_ends_with_no_winner() {
    let club = two_players(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let game = new_game(alice, bob, Timing::Untimed);
    alice.send(ClientMessage::Move {
        game,
        ply: 0,
        mv: "d2-c2".to_owned(),
    });
    alice.send(ClientMessage::Abort { game });
    assert!(refusal(alice).1.contains("no longer be aborted"));
    bob.send(ClientMessage::Abort { game });
    let outcome = result(alice, game);
    assert_eq!((outcome.winner, outcome.reason), (None, Reason::Aborted));
}

#[test]
fn giving_time_adds_it_to_the_opponent_s_clock_on_both_screens() {
    let club = two_players(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let control = "10m".parse().unwrap();
    let game = new_game(alice, bob, Timing::Clock { control });
    alice.send(ClientMessage::GiveTime { game });
    for player in [alice, bob] {
        let (to, left) = player.expect_message("the time given", |m| match m {
            ServerMessage::TimeGiven {
                game: g,
                to,
                clocks,
            } if *g == game => Some((*to, clocks.clocks.side(*to).left())),
            _ => None,
        });
        assert_eq!(to, Side::Defenders);
        assert_eq!(left, Duration::from_secs(600) + GIVEN_TIME);
    }
    let correspondence = terms(SideChoice::Attackers, Timing::Correspondence { days: 3 });
    let by_post = crate::net::create(alice, correspondence);
    bob.send(ClientMessage::Join {
        game: Some(by_post),
        code: None,
    });
    side_in(alice, by_post);
    alice.send(ClientMessage::GiveTime { game: by_post });
    assert!(refusal(alice).1.contains("on a clock only"));
}

/// A server whose return window is `window`, alice and bob in a game on a clock, and bob's
/// config folder (his key) to come back with.
fn bob_gone(window: Duration) -> (Club, GameId, tempfile::TempDir) {
    let limits = Limits {
        return_window: window,
        ..Limits::default()
    };
    let config = tempfile::tempdir().unwrap();
    let mut club = club(limits, Some(config.path()));
    let (address, key) = (
        club.server.addr().to_string(),
        club.server.fingerprint().to_owned(),
    );
    let control = "10m".parse().unwrap();
    let game = new_game(&club.alice, &club.bob, Timing::Clock { control });
    // Bob leaves (his place taken by a player in no game).
    club.bob = Player::connect(&address, &key, "carol");
    (club, game, config)
}

/// The next `claimable` `player` is told of `game`: the side gone and when the server ends
/// the game itself.
fn claimable(player: &Player, game: GameId) -> (Side, u64) {
    player.expect_message("the win to claim", |m| match m {
        ServerMessage::Claimable {
            game: g,
            side,
            ends_ms,
        } if *g == game => Some((*side, *ends_ms)),
        ServerMessage::Result { game: g, .. } if *g == game => panic!("ended unclaimed"),
        _ => None,
    })
}

#[test]
fn a_claim_before_the_window_ends_is_refused_and_after_it_wins() {
    let window = Duration::from_millis(500);
    let (club, game, _bob_key) = bob_gone(window);
    club.alice.send(ClientMessage::Claim { game });
    assert!(refusal(&club.alice).1.contains("still has time"));
    let (side, ends_ms) = claimable(&club.alice, game);
    assert_eq!(side, Side::Defenders);
    assert!(
        u128::from(ends_ms) <= window.as_millis() * 9,
        "{ends_ms} ms"
    );
    club.alice.send(ClientMessage::Claim { game });
    let outcome = result(&club.alice, game);
    assert_eq!(
        outcome,
        brandubh::rules::Outcome::win(Side::Attackers, Reason::Abandoned)
    );
}

#[test]
fn keeping_waiting_keeps_the_game_and_the_opponent_s_return_resumes_it() {
    let (club, game, bob_key) = bob_gone(Duration::from_millis(300));
    claimable(&club.alice, game);
    let (address, key) = (
        club.server.addr().to_string(),
        club.server.fingerprint().to_owned(),
    );
    let bob = Player::with_config(&address, &key, "bob", bob_key.path(), |_| {});
    assert_eq!(side_in(&bob, game), Some(Side::Defenders));
    club.alice.expect_message("bob back", |m| {
        matches!(
            m,
            ServerMessage::Presence {
                side: Side::Defenders,
                connected: true,
                ..
            }
        )
        .then_some(())
    });
    club.alice.send(ClientMessage::Move {
        game,
        ply: 0,
        mv: "d2-c2".to_owned(),
    });
    bob.expect_message("the move", |m| {
        matches!(m, ServerMessage::Moved { ply: 0, .. }).then_some(())
    });
    club.alice.send(ClientMessage::Claim { game });
    assert!(refusal(&club.alice).1.contains("your opponent is here"));
}

#[test]
fn a_game_never_claimed_ends_by_itself_after_ten_windows() {
    let (club, game, _bob_key) = bob_gone(Duration::from_millis(100));
    claimable(&club.alice, game);
    let outcome = result(&club.alice, game);
    assert_eq!(
        outcome,
        brandubh::rules::Outcome::win(Side::Attackers, Reason::Abandoned)
    );
}

#[test]
fn a_challenge_to_a_name_that_cannot_be_one_ends_the_command_with_one_line() {
    let config = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args([
            "online",
            "127.0.0.1:9",
            "--name",
            "ann",
            "--challenge",
            "bob ",
        ])
        .env("BRANDUBH_CONFIG_DIR", config.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--challenge \"bob \": begins or ends with a space"),
        "{stderr}"
    );
}

/// The game `player` is given the state of, other than `old`, and whether it is rated.
fn new_rated_state(player: &Player, old: GameId) -> (GameId, bool) {
    player.expect_message("a new game's state", |m| match m {
        ServerMessage::State(view) if view.summary.id != old => {
            Some((view.summary.id, view.summary.setup.rated))
        }
        _ => None,
    })
}

#[test]
fn a_challenge_s_rated_terms_carry_into_its_game_and_rematch_and_an_abort_rates_nothing() {
    let club = two_connected(Limits::default());
    let (alice, bob) = (&club.alice, &club.bob);
    let id = challenge(
        alice,
        bob,
        "bob",
        terms(SideChoice::Attackers, Timing::Untimed),
    );
    bob.send(ClientMessage::AnswerChallenge {
        challenge: id,
        accept: true,
    });
    let (game, rated) = new_rated_state(alice, 0);
    assert!(rated);
    assert_eq!(new_rated_state(bob, 0), (game, true));
    alice.send(ClientMessage::Abort { game });
    assert_eq!(result(bob, game).reason, Reason::Aborted);
    result(alice, game);
    alice.send(ClientMessage::Ping { id: 7 });
    alice.expect_message("pong", |m| match m {
        ServerMessage::Rated(rated) => panic!("an aborted game rated: {rated:?}"),
        ServerMessage::Pong { id: 7 } => Some(()),
        _ => None,
    });
    alice.send(ClientMessage::Offer {
        game,
        offer: Offer::Rematch,
    });
    bob.expect_message("the offer", |m| {
        matches!(m, ServerMessage::Offered { game: g, offer: Offer::Rematch, .. } if *g == game)
            .then_some(())
    });
    bob.send(ClientMessage::Answer {
        game,
        offer: Offer::Rematch,
        accept: true,
    });
    let (next, rated) = new_rated_state(alice, game);
    assert!(rated);
    assert_eq!(new_rated_state(bob, game), (next, true));
}
