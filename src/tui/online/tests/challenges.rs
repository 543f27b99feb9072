//! Challenges, rematches, aborting, giving time and claiming, in the terminal client:
//! driven by actions and the server's messages, without a terminal or a server.

use std::time::{Duration, Instant};

use super::*;
use crate::net::protocol::{ChallengeEnd, ChallengeView, GIVEN_TIME, SideChoice};

/// The text of the screen, rows joined.
fn shown(online: &Online) -> String {
    let terminal = screen(online, 100, 30);
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn challenge_view(id: u64, from: &str, to: &str) -> ChallengeView {
    ChallengeView {
        id,
        from: from.to_owned(),
        to: to.to_owned(),
        setup: GameSetup {
            rules: Preset::Walker,
            side: SideChoice::Defenders,
            ..GameSetup::default()
        },
        expires_ms: 300_000,
    }
}

#[test]
fn the_name_offered_to_challenge_is_replaced_by_what_is_typed() {
    let mut online = connected("ann");
    let lobby = Lobby {
        players: vec!["ann".into(), "bob".into(), "cid".into()],
        players_total: 3,
        ..Lobby::default()
    };
    message(&mut online, ServerMessage::Lobby(lobby));
    online.update(Action::Type('C'), SIZE);
    online.update(Action::Move(Direction::Down), SIZE);
    for c in "dan".chars() {
        online.update(Action::Type(c), SIZE);
    }
    assert!(
        matches!(&online.prompt, Some((Prompt::Challenge, name)) if name == "dan"),
        "{:?}",
        online.prompt
    );
    online.update(Action::Move(Direction::Up), SIZE);
    online.update(Action::Backspace, SIZE);
    assert!(
        matches!(&online.prompt, Some((Prompt::Challenge, name)) if name.is_empty()),
        "a name cycled to is offered again: {:?}",
        online.prompt
    );
}

#[test]
fn c_names_a_player_online_then_the_terms_go_to_the_server_as_a_challenge() {
    let mut online = connected("ann");
    let lobby = Lobby {
        players: vec!["ann".into(), "bob".into(), "cid".into()],
        players_total: 3,
        ..Lobby::default()
    };
    message(&mut online, ServerMessage::Lobby(lobby));
    online.update(Action::Type('C'), SIZE);
    assert!(online.status_text().contains("challenge whom"));
    assert!(
        online.status_text().contains("bob"),
        "the first other player"
    );
    online.update(Action::Move(Direction::Down), SIZE);
    assert!(
        online.status_text().contains("cid"),
        "{}",
        online.status_text()
    );
    online.update(Action::Confirm, SIZE);
    assert!(online.create.is_some(), "the terms are asked");
    assert!(
        shown(&online).contains("Challenge cid"),
        "{}",
        shown(&online)
    );
    online.update(Action::Confirm, SIZE);
    let sent = sent(&mut online);
    assert!(
        matches!(&sent[..], [ClientMessage::ChallengePlayer { name, setup }] if name == "cid" && setup.rated),
        "{sent:?}"
    );
}

#[test]
fn a_challenge_received_shows_in_the_lobby_and_a_accepts_it_and_opens_the_game() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::Challenged(challenge_view(3, "bob", "ann")),
    );
    assert!(online.status_text().contains("bob challenges you"));
    assert!(
        shown(&online).contains("bob challenges you: walker"),
        "{}",
        shown(&online)
    );
    online.update(Action::Type('a'), SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::AnswerChallenge {
            challenge: 3,
            accept: true
        }]
    );
    // The server sends the game's state, then the challenge's end naming it.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(8, Some(Side::Attackers), &[]))),
    );
    message(
        &mut online,
        ServerMessage::ChallengeEnded {
            challenge: 3,
            why: ChallengeEnd::Accepted,
            game: Some(8),
        },
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(8));
    assert!(!shown(&online).contains("challenges you"));
}

#[test]
fn d_declines_a_challenge_received_or_withdraws_one_made_and_the_challenger_is_told() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::Challenged(challenge_view(4, "ann", "bob")),
    );
    assert!(online.status_text().contains("challenge sent to bob"));
    online.update(Action::Type('d'), SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::AnswerChallenge {
            challenge: 4,
            accept: false
        }]
    );
    let ended = ServerMessage::ChallengeEnded {
        challenge: 4,
        why: ChallengeEnd::Declined,
        game: None,
    };
    message(&mut online, ended);
    assert_eq!(online.status_text(), "bob declined your challenge");
}

#[test]
fn a_challenge_received_on_the_board_shows_on_the_status_line() {
    let mut online = playing();
    message(
        &mut online,
        ServerMessage::Challenged(challenge_view(5, "cid", "ann")),
    );
    assert!(online.game().is_some(), "the board stays");
    assert!(
        online.status_text().starts_with("cid challenges you"),
        "{}",
        online.status_text()
    );
}

#[test]
fn r_after_the_end_offers_a_rematch_and_its_game_is_shown_when_accepted() {
    let mut online = playing();
    let outcome = Outcome::win(Side::Attackers, Reason::Resignation);
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome,
            clocks: None,
        },
    );
    assert!(shown(&online).contains("r rematch"));
    online.take_requests();
    online.update(Action::Redo, SIZE);
    let offer = ClientMessage::Offer {
        game: 5,
        offer: Offer::Rematch,
    };
    assert_eq!(sent(&mut online), [offer]);
    message(
        &mut online,
        ServerMessage::Offered {
            game: 5,
            offer: Offer::Rematch,
            by: Side::Attackers,
        },
    );
    message(
        &mut online,
        ServerMessage::State(Box::new(view(6, Some(Side::Defenders), &[]))),
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(6));
}

#[test]
fn a_rematch_offered_by_the_opponent_is_asked_and_y_accepts_it() {
    let mut online = playing();
    let outcome = Outcome::win(Side::Defenders, Reason::Resignation);
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome,
            clocks: None,
        },
    );
    message(
        &mut online,
        ServerMessage::Offered {
            game: 5,
            offer: Offer::Rematch,
            by: Side::Defenders,
        },
    );
    assert!(
        online
            .status_text()
            .contains("offers a rematch: accept? y/n")
    );
    online.take_requests();
    online.update(Action::Yes, SIZE);
    let accept = ClientMessage::Answer {
        game: 5,
        offer: Offer::Rematch,
        accept: true,
    };
    assert_eq!(sent(&mut online), [accept]);
}

#[test]
fn capital_a_asks_then_aborts_and_plus_gives_time_shown_when_the_server_says() {
    let mut online = playing();
    online.update(Action::Abort, SIZE);
    assert_eq!(online.status_text(), "abort this game (no result)? y/n");
    online.update(Action::Yes, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Abort { game: 5 }]);
    online.update(Action::Faster, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::GiveTime { game: 5 }]);
    let mut clocks = crate::game::Clocks::new("5m+3s".parse().unwrap());
    assert!(clocks.give(Side::Defenders, GIVEN_TIME));
    let clocks = ClockView {
        clocks,
        running: Some(Side::Attackers),
    };
    let given = ServerMessage::TimeGiven {
        game: 5,
        to: Side::Defenders,
        clocks,
    };
    message(&mut online, given);
    assert_eq!(online.status_text(), "the defenders were given 15 s");
    assert!(shown(&online).contains("bob 5:15"), "{}", shown(&online));
}

#[test]
fn the_claim_is_asked_n_keeps_waiting_and_y_on_the_board_claims_later() {
    let mut online = playing();
    let now = Instant::now();
    online.on_net(
        Event::Message(ServerMessage::Claimable {
            game: 5,
            side: Side::Defenders,
            ends_ms: 540_000,
        }),
        now,
    );
    assert!(
        online
            .status_text()
            .contains("claim the win? y, or n to keep waiting")
    );
    online.update(Action::No, SIZE);
    assert_eq!(sent(&mut online), []);
    assert!(
        shown(&online).contains("gone too long: y claims the win"),
        "{}",
        shown(&online)
    );
    online.update(Action::Yes, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Claim { game: 5 }]);
    assert!(online.game().unwrap().claimable().is_some());
    // Back: nothing to claim any more.
    let back = ServerMessage::Presence {
        game: 5,
        side: Side::Defenders,
        connected: true,
        return_ms: None,
    };
    online.on_net(Event::Message(back), now + Duration::from_secs(1));
    online.update(Action::Yes, SIZE);
    assert_eq!(sent(&mut online), []);
    assert!(!shown(&online).contains("gone too long"));
}

#[test]
fn the_claim_is_gone_from_the_panel_once_the_game_is_over() {
    let mut online = playing();
    let claimable = ServerMessage::Claimable {
        game: 5,
        side: Side::Defenders,
        ends_ms: 540_000,
    };
    message(&mut online, claimable);
    online.update(Action::No, SIZE);
    let outcome = Outcome::win(Side::Attackers, Reason::Abandoned);
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome,
            clocks: None,
        },
    );
    assert!(
        !shown(&online).contains("gone too long"),
        "{}",
        shown(&online)
    );
}
