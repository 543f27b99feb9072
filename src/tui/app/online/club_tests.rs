//! The club in the terminal client, driven through the app with the client's events: the
//! player's finished games opened in the local game's review over online play, the lobby's
//! chat, mute and block, the alert of a move elsewhere, a spectator's save.

use std::collections::BTreeSet;
use std::time::Instant;

use super::OnlineReview;
use super::tests::{ESCAPE, online, screen, start, status, unused_config, view};
use crate::game::Game;
use crate::net::client::Event;
use crate::net::protocol::club::LobbyLine;
use crate::net::protocol::{ClientMessage, GameSetup, GameSummary, Lobby, ServerMessage};
use crate::rules::{Outcome, Reason, Side};
use crate::tui::app::{App, Config};
use crate::tui::effect::Effect;
use crate::tui::input::{Action, Mode, actions};
use crate::tui::net_request::NetRequest;

/// A finished game, as a server sends it.
const ESCAPE_SAVE: &str = include_str!("../../../../assets/games/escape.json");

/// The app online as `name`, connected, in the lobby (the bell on).
fn in_lobby(name: &str, save_dir: Option<std::path::PathBuf>) -> App {
    let mut config = Config::default();
    config.settings.bell = true;
    let mut app = App::new(config);
    app.update(Action::Resize {
        width: 100,
        height: 30,
    });
    app.start_online(start(name, unused_config(), save_dir));
    let now = Instant::now();
    app.on_net(
        Event::Message(ServerMessage::Welcome { name: name.into() }),
        now,
    );
    app.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        now,
    );
    app.take_effects();
    app
}

fn message(app: &mut App, message: ServerMessage) -> Vec<Effect> {
    app.on_net(Event::Message(message), Instant::now())
}

/// What `effects` send to the server.
fn sent(effects: &[Effect]) -> Vec<ClientMessage> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Net(NetRequest::Send(message)) => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// Types `text` as keys (each one read in the mode of the moment).
fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| app.update(Action::Type(c)))
        .collect()
}

/// The review over online play, if one is open.
fn review(app: &App) -> Option<&OnlineReview> {
    app.layers
        .iter()
        .rev()
        .find_map(|l| l.as_any()?.downcast_ref())
}

/// Game `id`, finished, of `ann` (the attackers) against `bob`.
fn finished(id: u64) -> GameSummary {
    GameSummary {
        id,
        setup: GameSetup::default(),
        attackers: Some("ann".into()),
        defenders: Some("bob".into()),
        creator: "ann".into(),
        plies: 9,
        outcome: Some(Outcome {
            winner: Some(Side::Defenders),
            reason: Reason::KingEscaped,
        }),
        ratings: crate::net::protocol::SeatRatings::default(),
        spectators: 0,
        date: Some("2026-12-07".into()),
        bots: Vec::new(),
    }
}

#[test]
fn a_finished_game_of_yours_opens_in_the_local_review_and_q_comes_back_connected() {
    let mut app = in_lobby("ann", None);
    let asked = sent(&app.update(Action::Type('g')));
    assert_eq!(
        asked,
        [ClientMessage::Archive {
            name: "ann".into(),
            page: 0
        }]
    );
    message(
        &mut app,
        ServerMessage::Archive {
            name: "ann".into(),
            games: vec![finished(12), finished(5)],
            page: 0,
            total: 2,
        },
    );
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(shown.contains("#12 2026-12-07 · vs bob"), "{shown}");
    app.update(Action::Move(crate::tui::input::Direction::Down));
    let asked = sent(&app.update(Action::Confirm));
    assert_eq!(asked, [ClientMessage::Download { game: 5 }]);
    let effects = message(
        &mut app,
        ServerMessage::Save {
            game: 5,
            json: ESCAPE_SAVE.into(),
        },
    );
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Net(NetRequest::SaveFinished { .. }))),
        "saved again: {effects:?}"
    );
    let expected = Game::from_json(ESCAPE_SAVE).unwrap();
    let opened = review(&app).expect("no review opened");
    assert_eq!(opened.game().session().moves(), expected.moves());
    assert_eq!(app.mode(), Mode::Review);
    // The review's own keys: a step back is the local review's.
    app.update(Action::Move(crate::tui::input::Direction::Left));
    assert!(review(&app).is_some());
    app.update(Action::Quit);
    assert!(review(&app).is_none(), "q did not close the review");
    assert!(app.online().is_some(), "online play closed");
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(shown.contains("Your games · 2 finished"), "{shown}");
    // The connection is the same: nothing asked to connect again.
    assert!(
        !app.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Net(NetRequest::Connect(_))))
    );
}

#[test]
fn esc_in_the_review_comes_back_too() {
    let mut app = in_lobby("ann", None);
    app.update(Action::Type('g'));
    message(
        &mut app,
        ServerMessage::Archive {
            name: "ann".into(),
            games: vec![finished(5)],
            page: 0,
            total: 1,
        },
    );
    app.update(Action::Confirm);
    message(
        &mut app,
        ServerMessage::Save {
            game: 5,
            json: ESCAPE_SAVE.into(),
        },
    );
    assert!(review(&app).is_some());
    app.update(Action::Cancel);
    assert!(review(&app).is_none(), "Esc did not close the review");
}

#[test]
fn the_lobby_chat_is_drawn_escaped_and_tab_writes_a_line() {
    let mut app = in_lobby("ann", None);
    message(
        &mut app,
        ServerMessage::LobbyChat(LobbyLine {
            from: "bob".into(),
            text: "hi \u{1b}[2J all".into(),
        }),
    );
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(shown.contains("bob: hi \\u{1b}[2J all"), "{shown}");
    let tab = ratatui::crossterm::event::Event::Key(ratatui::crossterm::event::KeyCode::Tab.into());
    for action in actions(&tab, app.mode()) {
        app.update(action);
    }
    typed(&mut app, "gg all");
    let asked = sent(&app.update(Action::Confirm));
    assert_eq!(
        asked,
        [ClientMessage::LobbyChat {
            text: "gg all".into()
        }]
    );
}

#[test]
fn a_muted_player_s_lines_are_hidden_and_the_mute_is_remembered_for_the_server() {
    let mut app = in_lobby("ann", None);
    let line = |text: &str| {
        ServerMessage::LobbyChat(LobbyLine {
            from: "bob".into(),
            text: text.into(),
        })
    };
    message(&mut app, line("first"));
    app.update(Action::Type('m'));
    // The last one who spoke is offered.
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(shown.contains("mute or hear again: bob"), "{shown}");
    let effects = app.update(Action::Confirm);
    let remembered = effects.iter().find_map(|e| match e {
        Effect::Net(NetRequest::RememberMuted { server, names, .. }) => {
            Some((server.clone(), names.clone()))
        }
        _ => None,
    });
    assert_eq!(
        remembered,
        Some((
            "127.0.0.1:7343".to_owned(),
            BTreeSet::from(["bob".to_owned()])
        ))
    );
    message(&mut app, line("second"));
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(
        !shown.contains("first") && !shown.contains("second"),
        "{shown}"
    );
}

#[test]
fn b_blocks_the_player_of_the_game_selected_and_again_lifts_it() {
    let mut app = in_lobby("ann", None);
    let open = GameSummary {
        attackers: None,
        defenders: None,
        creator: "bob".into(),
        outcome: None,
        plies: 0,
        ..finished(3)
    };
    message(
        &mut app,
        ServerMessage::Lobby(Lobby {
            open: vec![open],
            open_total: 1,
            ..Lobby::default()
        }),
    );
    app.update(Action::Type('b'));
    let asked = sent(&app.update(Action::Confirm));
    assert_eq!(
        asked,
        [ClientMessage::Block {
            name: "bob".into(),
            block: true
        }]
    );
    message(
        &mut app,
        ServerMessage::Blocks {
            names: vec!["bob".into()],
        },
    );
    app.update(Action::Type('b'));
    let asked = sent(&app.update(Action::Confirm));
    assert_eq!(
        asked,
        [ClientMessage::Block {
            name: "bob".into(),
            block: false
        }]
    );
    // The name offered goes at the first key typed.
    app.update(Action::Type('b'));
    typed(&mut app, "cat");
    let asked = sent(&app.update(Action::Confirm));
    assert_eq!(
        asked,
        [ClientMessage::Block {
            name: "cat".into(),
            block: true
        }]
    );
}

#[test]
fn a_move_in_a_game_of_yours_while_in_the_lobby_is_an_alert_with_a_mark_and_the_bell() {
    let mut app = in_lobby("ann", None);
    // Ann's correspondence game with Bob, left for the lobby after her move.
    let game = view(Some(Side::Attackers), &ESCAPE[..3], false);
    message(&mut app, ServerMessage::State(Box::new(game.clone())));
    // Started anew she lands on its board; she leaves it for the lobby.
    app.update(Action::Quit);
    let mut summary = game.summary;
    summary.plies = 4;
    message(
        &mut app,
        ServerMessage::Lobby(Lobby {
            mine: vec![summary],
            mine_total: 1,
            ..Lobby::default()
        }),
    );
    let effects = message(
        &mut app,
        ServerMessage::Moved {
            game: 7,
            ply: 3,
            mv: ESCAPE[3].into(),
            clocks: None,
        },
    );
    assert!(effects.contains(&Effect::Bell), "{effects:?}");
    let said = status(&app);
    assert!(said.contains("your move in #7 against bob"), "{said}");
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(shown.contains("● your move"), "{shown}");
    // Opened, the mark goes.
    app.update(Action::Confirm);
    app.update(Action::Quit);
    let shown = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(!shown.contains('●'), "{shown}");
}

#[test]
fn a_spectator_saves_the_game_watched_as_a_save_that_loads() {
    let saves = tempfile::tempdir().unwrap();
    let mut app = in_lobby("cat", Some(saves.path().to_owned()));
    if let Some(online) = app.online_mut() {
        online.show_next(7);
    }
    message(
        &mut app,
        ServerMessage::State(Box::new(view(None, &ESCAPE[..6], false))),
    );
    let effects = app.update(Action::Save);
    let Some((dir, json)) = effects.iter().find_map(|e| match e {
        Effect::Net(NetRequest::SaveFinished { dir, json, .. }) => {
            Some((dir.clone(), json.clone()))
        }
        _ => None,
    }) else {
        panic!("not saved: {effects:?} {}", status(&app));
    };
    // What the storage thread does with it.
    let path = crate::game::storage::save_downloaded(&dir, None, &json).unwrap();
    let loaded = crate::game::storage::load(&path).unwrap();
    let texts: Vec<String> = loaded.moves().iter().map(ToString::to_string).collect();
    assert_eq!(texts, ESCAPE[..6]);
    assert_eq!(loaded.tags().name(Side::Defenders), Some("bob"));
    assert!(online(&app).status().is_some());
}

#[test]
fn the_review_takes_the_reports_of_its_own_analysis() {
    let mut app = in_lobby("ann", None);
    app.update(Action::Type('g'));
    message(
        &mut app,
        ServerMessage::Archive {
            name: "ann".into(),
            games: vec![finished(5)],
            page: 0,
            total: 1,
        },
    );
    app.update(Action::Confirm);
    message(
        &mut app,
        ServerMessage::Save {
            game: 5,
            json: ESCAPE_SAVE.into(),
        },
    );
    let mut effects = app.update(Action::Analyze);
    effects.extend(app.update(Action::Confirm));
    let id = effects
        .iter()
        .find_map(|e| match e {
            Effect::Analyze { id, .. } => Some(*id),
            _ => None,
        })
        .expect("no analysis asked");
    assert!(review(&app).unwrap().game().analyzing());
    // Another job's end changes nothing there.
    let now = Instant::now();
    app.on_report(crate::ai::Report::Analyzed(id + 100, Ok(())), now);
    assert!(
        review(&app).unwrap().game().analyzing(),
        "taken by the review"
    );
    app.on_report(crate::ai::Report::Analyzed(id, Ok(())), now);
    assert!(
        !review(&app).unwrap().game().analyzing(),
        "its own not taken"
    );
}
