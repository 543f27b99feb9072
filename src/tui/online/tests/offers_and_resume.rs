//! An offer that does not block the board, status lines that do not go stale, and landing
//! on one's game after a restart.

use super::*;

/// Online play with game 5 on screen, the defenders (bob) offering `offer` to ann.
fn offered(offer: Offer) -> Driven {
    let mut online = playing();
    message(
        &mut online,
        ServerMessage::Offered {
            game: 5,
            offer,
            by: Side::Defenders,
        },
    );
    online
}

#[test]
fn an_offer_leaves_the_board_chat_and_typed_moves_working_and_a_move_declines_it() {
    let mut online = offered(Offer::Draw);
    assert_eq!(online.mode(), Mode::BoardAsked);
    let drawn = format!("{}", screen(&online, 100, 32).backend());
    assert!(drawn.contains("accept? y/n"), "{drawn}");
    online.update(Action::Chat, SIZE);
    assert_eq!(online.mode(), Mode::Text, "c opens the chat line");
    typed(&mut online, "hm");
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Chat {
            game: 5,
            text: "hm".into()
        }]
    );
    assert_eq!(online.mode(), Mode::BoardAsked, "the offer still stands");
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-c2");
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [
            ClientMessage::Answer {
                game: 5,
                offer: Offer::Draw,
                accept: false
            },
            ClientMessage::Move {
                game: 5,
                ply: 0,
                mv: "d2-c2".into()
            }
        ],
        "moving declines the offer"
    );
    assert_eq!(online.mode(), Mode::Board);
    let drawn = format!("{}", screen(&online, 100, 32).backend());
    assert!(!drawn.contains("accept? y/n"), "{drawn}");
    // A click on the board works too, and n declines.
    let mut online = offered(Offer::Draw);
    let cursor = online.game().unwrap().board.cursor;
    online.update(Action::Move(Direction::Left), SIZE);
    assert_ne!(
        online.game().unwrap().board.cursor,
        cursor,
        "the cursor moves"
    );
    online.update(Action::No, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Answer {
            game: 5,
            offer: Offer::Draw,
            accept: false
        }]
    );
}

#[test]
fn a_takeback_accepted_no_longer_says_it_is_offered() {
    let mut online = playing();
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-c2");
    online.update(Action::Confirm, SIZE);
    message(
        &mut online,
        ServerMessage::Moved {
            game: 5,
            ply: 0,
            mv: "d2-c2".into(),
            clocks: None,
        },
    );
    online.update(Action::Undo, SIZE);
    message(
        &mut online,
        ServerMessage::Offered {
            game: 5,
            offer: Offer::Takeback,
            by: Side::Attackers,
        },
    );
    // Accepted: the server sends the state without the move.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    let text = &online.status().unwrap().text;
    assert!(!text.contains("offer"), "{text}");
    assert!(text.contains("takeback accepted: your move"), "{text}");
}

#[test]
fn after_a_server_restart_the_board_says_whose_move_it_is_not_the_lobby_s_keys() {
    let mut online = playing();
    online.on_net(Event::ServerGoingDown, Instant::now());
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
    let text = &online.status().unwrap().text;
    assert!(!text.contains("c create"), "{text}");
    assert!(text.contains("your move"), "{text}");
}

#[test]
fn a_player_with_games_in_progress_lands_on_the_one_where_it_is_to_move() {
    let mut online = connected("ann");
    // Their move in game 6, then ann's in game 7: the board of 7, saying so.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(6, Some(Side::Defenders), &[]))),
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(6));
    message(
        &mut online,
        ServerMessage::State(Box::new(view(7, Some(Side::Attackers), &[]))),
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(7));
    assert!(online.status().unwrap().text.contains("your move"));
    // Another state later (a reconnect) does not take the player away from where it is.
    online.update(Action::Quit, SIZE);
    message(
        &mut online,
        ServerMessage::State(Box::new(view(8, Some(Side::Attackers), &[]))),
    );
    assert!(online.game().is_none(), "still in the lobby");
}

#[test]
fn the_create_form_remembers_the_last_choices() {
    let mut online = connected("ann");
    online.update(Action::Type('c'), SIZE);
    for _ in 0..6 {
        online.update(Action::Move(Direction::Up), SIZE);
    }
    online.update(Action::Move(Direction::Right), SIZE);
    online.update(Action::Confirm, SIZE);
    let [ClientMessage::Create(made)] = &sent(&mut online)[..] else {
        panic!("not created");
    };
    assert_eq!(made.rules, Preset::Walker);
    online.update(Action::Type('c'), SIZE);
    let form = online.create.as_ref().unwrap();
    assert_eq!(form.setup(), made, "the last choices");
}

#[test]
fn a_correspondence_game_shows_days_and_hours_and_the_deadline_and_no_flag() {
    let mut online = connected("ann");
    let mut game = view(5, Some(Side::Attackers), &[]);
    let control = crate::game::TimeControl::per_move(3).unwrap();
    game.summary.setup.timing = Timing::Correspondence { days: 3 };
    game.clocks = Some(ClockView {
        clocks: crate::game::Clocks::new(control),
        running: Some(Side::Attackers),
    });
    online.awaited = Some(5);
    message(&mut online, ServerMessage::State(Box::new(game)));
    let drawn = format!("{}", screen(&online, 100, 32).backend());
    assert!(!drawn.contains("0:00.0") && !drawn.contains('×'), "{drawn}");
    assert!(drawn.contains("Defenders bob 3d 0h"), "{drawn}");
    assert!(
        drawn.contains("(you) 2d 23h · by ") || drawn.contains("(you) 3d 0h · by "),
        "{drawn}"
    );
}

#[test]
fn a_deadline_is_a_day_date_and_time() {
    let now: jiff::Timestamp = "2026-12-07T10:00:00Z".parse().unwrap();
    let three_days = std::time::Duration::from_secs(3 * 86_400);
    assert_eq!(
        super::super::game::deadline_text(now, three_days, &jiff::tz::TimeZone::UTC),
        "Thu 10 Dec 10:00"
    );
}

#[test]
fn a_private_game_is_marked_and_enter_shows_its_code_again_and_f_the_players_keys() {
    let mut online = connected("ann");
    let mut waiting = summary(3, None, None, 0);
    waiting.creator = "ann".into();
    waiting.setup.private = true;
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            mine: vec![waiting],
            mine_total: 1,
            open: vec![summary(7, None, Some("аlice"), 0)],
            open_total: 1,
            ..Lobby::default()
        }),
    );
    let drawn = format!("{}", screen(&online, 100, 32).backend());
    assert!(drawn.contains("#3 you wait (random) · private"), "{drawn}");
    online.update(Action::Confirm, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Details { game: 3 }]);
    let ann = crate::net::protocol::PlayerKey {
        name: "ann".into(),
        fingerprint: format!("SHA256:{}", "a1".repeat(32)),
    };
    message(
        &mut online,
        ServerMessage::Details {
            game: 3,
            players: vec![ann],
            code: Some("k3y-c0de".into()),
        },
    );
    let text = &online.status().unwrap().text;
    assert!(
        text.contains("#3") && text.contains("invite code k3y-c0de"),
        "{text}"
    );
    // f on another game: its players' keys, to tell look-alike names apart.
    online.update(Action::Move(Direction::Down), SIZE);
    online.update(Action::Type('f'), SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Details { game: 7 }]);
    let alice = crate::net::protocol::PlayerKey {
        name: "аlice".into(),
        fingerprint: format!("SHA256:{}", "0c".repeat(32)),
    };
    message(
        &mut online,
        ServerMessage::Details {
            game: 7,
            players: vec![alice],
            code: None,
        },
    );
    let text = &online.status().unwrap().text;
    assert!(text.contains("аlice SHA256:0c0c0c0c0c0c0c0c"), "{text}");
}
