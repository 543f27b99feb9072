//! The online board as good as the local one: the same warnings, bell and move list, and the
//! engine's help on the runtime's one worker, driven through the app with the client's
//! events and the worker's reports, without a server or a worker.

use std::path::PathBuf;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::super::{App, Config};
use crate::ai::{Report, SearchInfo};
use crate::game::{Clocks, Score};
use crate::net::client::Event;
use crate::net::protocol::{ClockView, GameSetup, GameSummary, GameView, ServerMessage, Timing};
use crate::rules::{GameState, Outcome, Position, Preset, Reason, Side, Square, position_record};
use crate::tui::effect::Effect;
use crate::tui::events::Event as RuntimeEvent;
use crate::tui::input::Action;
use crate::tui::online::{Online, OnlineStart};
use crate::tui::runtime::Runtime;
use crate::tui::session::Storage;
use crate::tui::storage_jobs::Job;

/// The escape game's moves: after the 14th the king on c7 threatens a7.
pub(super) const ESCAPE: [&str; 14] = [
    "d7-f7", "d5-c5", "f4-f3", "d4-d5", "f7-f4xe4", "d5-d4", "d2-b2", "d4-e4", "d1-d2xd3", "c4-c3",
    "d6-d5", "e4-c4", "b4-b5xc5", "c4-c7",
];

/// Game 7 after `moves`, as the server shows it to `you` (`None`: a spectator).
pub(super) fn view(you: Option<Side>, moves: &[&str], engine_allowed: bool) -> GameView {
    let mut state = GameState::new(Preset::Standard.rules(), Position::start());
    for mv in moves {
        state.play_text(mv).unwrap();
    }
    GameView {
        summary: GameSummary {
            id: 7,
            setup: GameSetup {
                timing: Timing::Clock {
                    control: "5m+3s".parse().unwrap(),
                },
                engine_allowed,
                ..GameSetup::default()
            },
            attackers: Some("ann".into()),
            defenders: Some("bob".into()),
            creator: "ann".into(),
            plies: moves.len(),
            outcome: None,
            ratings: crate::net::protocol::SeatRatings::default(),
            spectators: 0,
            bots: Vec::new(),
            date: None,
        },
        start: position_record(&Position::start()),
        position: position_record(state.position()),
        to_move: state.position().side_to_move(),
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        clocks: Some(ClockView {
            clocks: Clocks::new("5m+3s".parse().unwrap()),
            running: Some(state.position().side_to_move()),
        }),
        you,
        pending: None,
    }
}

/// The start of online play as `name` on a loopback server, with these folders.
pub(super) fn start(name: &str, config_dir: PathBuf, save_dir: Option<PathBuf>) -> OnlineStart {
    OnlineStart {
        server: "127.0.0.1:7343".into(),
        name: Some(name.into()),
        config_dir,
        save_dir,
        insecure: true,
        create: None,
        challenge: None,
        muted: std::collections::BTreeMap::new(),
    }
}

/// A config folder the tests that never connect do not use.
pub(super) fn unused_config() -> PathBuf {
    std::env::temp_dir().join("brandubh-online-app-tests-unused")
}

/// The app online as `name`, connected, on game 7 as `view` has it.
fn on_board(name: &str, view: GameView) -> App {
    let mut app = App::new(Config::default());
    app.update(Action::Resize {
        width: 80,
        height: 24,
    });
    app.start_online(start(name, unused_config(), None));
    let now = Instant::now();
    app.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        now,
    );
    // Shown when its state comes, as after watching or joining it.
    if let Some(online) = app.online_mut() {
        online.show_next(7);
    }
    app.on_net(Event::Message(ServerMessage::State(Box::new(view))), now);
    app.take_effects();
    app
}

pub(super) fn online(app: &App) -> &Online {
    app.online().expect("not online")
}

pub(super) fn status(app: &App) -> String {
    online(app)
        .status()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn moved(app: &mut App, ply: usize, mv: &str) -> Vec<Effect> {
    app.on_net(
        Event::Message(ServerMessage::Moved {
            game: 7,
            ply,
            mv: mv.into(),
            clocks: None,
        }),
        Instant::now(),
    )
}

pub(super) fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    terminal
}

fn searches(effects: &[Effect]) -> Vec<u64> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Search { id, .. } => Some(*id),
            _ => None,
        })
        .collect()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn the_opponents_move_brings_the_local_warnings_and_the_bell() {
    let mut app = on_board("ann", view(Some(Side::Attackers), &ESCAPE[..13], false));
    // `b` turns the bell on online as at home, and it is remembered.
    let effects = app.update(Action::ToggleBell);
    assert!(app.bell_on());
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Job::Remember(s)) if s.bell)),
        "{effects:?}"
    );
    let effects = moved(&mut app, 13, "c4-c7");
    assert!(effects.contains(&Effect::Bell), "{effects:?}");
    let text = status(&app);
    assert!(
        text.starts_with("the king threatens a7 and g7 · "),
        "{text}"
    );
    // `w` turns them off online as at home, and it is remembered.
    let effects = app.update(Action::ToggleWarnings);
    assert!(!app.warnings_on());
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Job::Remember(s)) if !s.warnings)),
        "{effects:?}"
    );
    assert!(status(&app).starts_with("warnings off"));
}

#[test]
fn a_destination_that_repeats_a_position_is_marked_and_said_on_selection() {
    let moves = ["d7-e7", "d5-e5", "e7-d7", "e5-d5"];
    let mut app = on_board("ann", view(Some(Side::Attackers), &moves, false));
    if let Some(online) = app.online_mut() {
        online.set_cursor(sq("d7"));
    }
    app.update(Action::Confirm);
    let text = status(&app);
    assert!(text.contains("! repeats a position"), "{text}");
    let shown = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(shown.contains('!'), "{shown}");
}

#[test]
fn the_panel_lists_every_move_as_the_local_one_and_scrolls() {
    let mut app = on_board("ann", view(Some(Side::Attackers), &ESCAPE, false));
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(text.contains("1 d7-f7"), "{text}");
    assert!(text.contains("7 b4-b5xc5"), "{text}");
    insta::assert_snapshot!("online_moves_80x24", screen(&app, 80, 24).backend());
    app.update(Action::Resize {
        width: 30,
        height: 12,
    });
    app.update(Action::TogglePanel);
    insta::assert_snapshot!("online_moves_30x12", screen(&app, 30, 12).backend());
    app.update(Action::PageUp);
    let text = format!("{:?}", screen(&app, 30, 12).backend());
    assert!(text.contains("1 d7-f7"), "{text}");
}

#[test]
fn a_hint_runs_on_the_worker_when_the_game_allows_it_and_a_stale_one_is_dropped() {
    let mut app = on_board("ann", view(Some(Side::Attackers), &[], true));
    let effects = app.update(Action::Hint);
    let ids = searches(&effects);
    assert_eq!(ids.len(), 1, "{effects:?}");
    let mv = "d2-c2".parse().unwrap();
    app.on_report(Report::Done(ids[0], Ok(mv)), Instant::now());
    let text = status(&app);
    assert!(text.starts_with("hint: d2-c2"), "{text}");
    // Asked again, then the position moves on before the answer: it is dropped.
    let ids = searches(&app.update(Action::Hint));
    moved(&mut app, 0, "d7-e7");
    app.on_report(Report::Done(ids[0], Ok(mv)), Instant::now());
    assert!(!status(&app).starts_with("hint"), "{}", status(&app));
}

#[test]
fn without_engine_help_a_player_gets_no_search() {
    let mut app = on_board("ann", view(Some(Side::Attackers), &[], false));
    for action in [Action::Hint, Action::Analyze] {
        let effects = app.update(action);
        assert!(searches(&effects).is_empty(), "{effects:?}");
        assert!(status(&app).contains("engine help is off"));
    }
}

#[test]
fn a_spectator_switches_the_evaluation_on_and_it_follows_the_moves() {
    let mut app = on_board("cat", view(None, &ESCAPE[..2], false));
    let ids = searches(&app.update(Action::Analyze));
    assert_eq!(ids.len(), 1);
    let info = SearchInfo {
        depth: 6,
        score: Score::Eval(35),
        nodes: 1000,
        nps: 1000,
        elapsed: std::time::Duration::from_millis(500),
        pv: vec!["d2-c2".parse().unwrap()],
        partial: false,
    };
    app.on_report(Report::Progress(ids[0], info), Instant::now());
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(text.contains("attackers +0.35"), "{text}");
    insta::assert_snapshot!("online_eval_80x24", screen(&app, 80, 24).backend());
    app.update(Action::Resize {
        width: 30,
        height: 12,
    });
    app.update(Action::TogglePanel);
    insta::assert_snapshot!("online_eval_30x12", screen(&app, 30, 12).backend());
    app.update(Action::TogglePanel);
    // A move arrives: the new position is searched.
    let again = searches(&moved(&mut app, 2, ESCAPE[2]));
    assert_eq!(again.len(), 1);
    assert_ne!(again, ids);
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    assert!(!text.contains("+0.35"), "the old score is gone: {text}");
    // Off again: the search stops.
    let effects = app.update(Action::Analyze);
    assert!(effects.contains(&Effect::Stop(again[0])), "{effects:?}");
}

/// Sends the client's `event` to the runtime, and waits for the storage thread's answers.
fn net_event(rt: &mut Runtime, event: Event) {
    rt.sender().send(RuntimeEvent::Net(event)).unwrap();
    rt.tick(Instant::now()).unwrap();
    rt.settle();
}

fn runtime_status(rt: &Runtime) -> String {
    status(&rt.app)
}

#[test]
fn online_writes_go_through_the_storage_thread_and_a_failure_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    let mut rt = Runtime::new(Config {
        storage: Storage::in_dir(saves.clone()),
        ..Config::default()
    })
    .unwrap();
    rt.app
        .start_online(start("ann", dir.path().join("config"), Some(saves.clone())));
    // No server here: the connection is not asked for.
    rt.app.take_effects();
    rt.fail_writes(Some(std::io::ErrorKind::StorageFull));
    let connected = Event::Connected {
        fingerprint: "SHA256:00".into(),
    };
    net_event(&mut rt, connected.clone());
    let text = runtime_status(&rt);
    assert!(text.contains("not remembered"), "{text}");
    assert!(!text.contains('\n'));

    if let Some(online) = rt.app.online_mut() {
        online.show_next(7);
    }
    let state = ServerMessage::State(Box::new(view(Some(Side::Attackers), &[], false)));
    net_event(&mut rt, Event::Message(state));
    let ended = ServerMessage::Result {
        game: 7,
        outcome: Outcome::win(Side::Attackers, Reason::Resignation),
        clocks: None,
    };
    rt.sender()
        .send(RuntimeEvent::Net(Event::Message(ended)))
        .unwrap();
    rt.tick(Instant::now()).unwrap();
    let record = include_str!("../../../../assets/games/escape.json").to_owned();
    let save = || {
        Event::Message(ServerMessage::Save {
            game: 7,
            json: record.clone(),
        })
    };
    net_event(&mut rt, save());
    let text = runtime_status(&rt);
    assert!(text.starts_with("game #7 NOT saved: "), "{text}");

    rt.fail_writes(None);
    net_event(&mut rt, save());
    let text = runtime_status(&rt);
    assert!(text.starts_with("game #7 saved as "), "{text}");
    let files: Vec<_> = std::fs::read_dir(&saves)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    net_event(&mut rt, connected);
    assert!(dir.path().join("config").join("online.json").is_file());
}

/// Game `id` by correspondence (3 days a move) after `moves`, as the server shows it to ann,
/// who plays the attackers.
fn by_correspondence(id: u64, moves: &[&str]) -> GameView {
    let mut view = view(Some(Side::Attackers), moves, false);
    view.summary.id = id;
    view.summary.setup.timing = Timing::Correspondence { days: 3 };
    view.clocks = None;
    view
}

#[test]
fn a_correspondence_game_resumes_after_quitting_on_its_board_and_your_move_first_in_the_lobby() {
    // Ann quit; she comes back: a new app, the server sends her games as she is welcomed.
    let mut app = App::new(Config::default());
    app.update(Action::Resize {
        width: 80,
        height: 24,
    });
    app.start_online(start("ann", unused_config(), None));
    let now = Instant::now();
    app.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        now,
    );
    let waiting = by_correspondence(8, &ESCAPE[..1]);
    let hers = by_correspondence(9, &ESCAPE[..2]);
    for view in [waiting.clone(), hers.clone()] {
        app.on_net(Event::Message(ServerMessage::State(Box::new(view))), now);
    }
    // She lands on the board where it is her move, told so.
    let landed = online(&app).game().expect("on a board");
    assert_eq!(landed.id(), 9);
    assert!(status(&app).contains("your move"), "{}", status(&app));
    app.update(Action::Type('q'));
    assert!(online(&app).game().is_none(), "q: the lobby");
    let lobby = crate::net::protocol::Lobby {
        mine: vec![waiting.summary, hers.summary],
        mine_total: 2,
        players: vec!["ann".into()],
        players_total: 1,
        ..crate::net::protocol::Lobby::default()
    };
    app.on_net(Event::Message(ServerMessage::Lobby(lobby)), now);
    app.take_effects();
    let text = format!("{:?}", screen(&app, 80, 24).backend());
    let (yours, theirs) = (text.find("#9 ").unwrap(), text.find("#8 ").unwrap());
    assert!(yours < theirs, "your move first: {text}");
    // Enter on the first: her board, as she left it, with her move to make.
    let effects = app.update(Action::Confirm);
    assert!(effects.is_empty(), "the state is here already: {effects:?}");
    let game = online(&app).game().expect("the board");
    assert_eq!(game.id(), 9);
    assert_eq!(game.record().moves().len(), 2);
    assert!(game.my_turn());
    assert!(status(&app).contains("your move"), "{}", status(&app));
    app.update(Action::StartTyping);
    for c in "f4-f3".chars() {
        app.update(Action::Type(c));
    }
    let effects = app.update(Action::Confirm);
    let sent = crate::net::protocol::ClientMessage::Move {
        game: 9,
        ply: 2,
        mv: "f4-f3".into(),
    };
    assert!(
        effects.contains(&Effect::Net(crate::tui::net_request::NetRequest::Send(
            sent
        ))),
        "{effects:?}"
    );
}

#[test]
fn a_move_that_would_repeat_a_third_time_is_sent_only_when_chosen_twice() {
    let moves = [
        "d7-e7", "d5-e5", "e7-d7", "e5-d5", "d7-e7", "d5-e5", "e7-d7",
    ];
    let mut app = on_board("bob", view(Some(Side::Defenders), &moves, false));
    let choose = |app: &mut App, at: &str| {
        if let Some(online) = app.online_mut() {
            online.set_cursor(sq(at));
        }
        app.update(Action::Confirm)
    };
    choose(&mut app, "e5");
    assert!(status(&app).contains("a 3rd time"), "{}", status(&app));
    let effects = choose(&mut app, "d5");
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Net(_))),
        "{effects:?}"
    );
    let text = status(&app);
    assert!(text.contains("Choose d5 again"), "{text}");
    let effects = choose(&mut app, "d5");
    let sent = crate::net::protocol::ClientMessage::Move {
        game: 7,
        ply: 7,
        mv: "e5-d5".into(),
    };
    assert!(
        effects.contains(&Effect::Net(crate::tui::net_request::NetRequest::Send(
            sent
        ))),
        "{effects:?}"
    );
}
