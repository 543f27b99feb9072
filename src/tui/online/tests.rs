//! Online play driven by actions and the client's reports, without a terminal or a server.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::net::client::{ClientError, Event};
use crate::net::protocol::{
    Channel, ClockView, GameSummary, GameView, Lobby, Offer, Role, ServerMessage, Timing,
};
use crate::net::tls::KeyChanged;
use crate::rules::{Outcome, Preset, Reason, Side, Square};
use crate::tui::component::{Context, JobIds};
use crate::tui::input::Direction;

const SIZE: Rect = Rect {
    x: 0,
    y: 0,
    width: 80,
    height: 24,
};

/// Online play as the app drives it: what each call returns is kept until a test takes it.
struct Driven {
    online: Online,
    asked: Vec<crate::tui::Effect>,
    look: Look,
    settings: crate::tui::Settings,
    jobs: JobIds,
}

impl Driven {
    /// `online` started as the app starts it, with the help as the local game starts.
    fn new(mut online: Online) -> Driven {
        let jobs = JobIds::default();
        let asked = online.started(Assist::default(), &jobs);
        Driven {
            online,
            asked,
            look: Look::default(),
            settings: crate::tui::Settings::default(),
            jobs,
        }
    }

    /// Hands `call` a context of a screen of `size` at `now`, keeping what it returns.
    fn call(
        &mut self,
        size: Rect,
        now: Instant,
        call: impl FnOnce(&mut Online, &Context) -> Vec<crate::tui::Effect>,
    ) {
        let cx = Context {
            size,
            look: &self.look,
            now,
            settings: &self.settings,
            jobs: &self.jobs,
        };
        let effects = call(&mut self.online, &cx);
        self.asked.extend(effects);
    }

    fn update(&mut self, action: Action, size: Rect) {
        self.call(size, Instant::now(), |online, cx| online.update(action, cx));
    }

    fn on_net(&mut self, event: Event, now: Instant) {
        self.call(SIZE, now, |online, cx| online.on_net(event, cx));
    }

    fn tick(&mut self, now: Instant) {
        self.call(SIZE, now, Online::tick);
    }

    /// What was asked of the network and the storage thread since last taken.
    fn take_requests(&mut self) -> Vec<NetRequest> {
        self.asked
            .drain(..)
            .filter_map(|effect| match effect {
                crate::tui::Effect::Net(request) => Some(request),
                _ => None,
            })
            .collect()
    }
}

impl std::ops::Deref for Driven {
    type Target = Online;

    fn deref(&self) -> &Online {
        &self.online
    }
}

impl std::ops::DerefMut for Driven {
    fn deref_mut(&mut self) -> &mut Online {
        &mut self.online
    }
}

fn start(name: Option<&str>) -> OnlineStart {
    OnlineStart {
        server: "127.0.0.1:7343".to_owned(),
        name: name.map(str::to_owned),
        config_dir: std::env::temp_dir().join("brandubh-online-tests-unused"),
        save_dir: None,
        insecure: true,
        create: None,
        challenge: None,
        muted: std::collections::BTreeMap::new(),
    }
}

fn summary(
    id: GameId,
    attackers: Option<&str>,
    defenders: Option<&str>,
    plies: usize,
) -> GameSummary {
    GameSummary {
        id,
        setup: GameSetup {
            timing: Timing::Clock {
                control: "5m+3s".parse().unwrap(),
            },
            ..GameSetup::default()
        },
        attackers: attackers.map(str::to_owned),
        defenders: defenders.map(str::to_owned),
        creator: attackers.or(defenders).unwrap_or("?").to_owned(),
        plies,
        outcome: None,
        ratings: crate::net::protocol::SeatRatings::default(),
        spectators: 0,
        bots: Vec::new(),
        date: None,
    }
}

fn view(id: GameId, you: Option<Side>, moves: &[&str]) -> GameView {
    let mut state =
        crate::rules::GameState::new(Preset::Standard.rules(), crate::rules::Position::start());
    for mv in moves {
        state.play_text(mv).unwrap();
    }
    let clocks = crate::game::Clocks::new("5m+3s".parse().unwrap());
    GameView {
        summary: summary(id, Some("ann"), Some("bob"), moves.len()),
        start: crate::rules::position_record(&crate::rules::Position::start()),
        position: crate::rules::position_record(state.position()),
        to_move: state.position().side_to_move(),
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        clocks: Some(ClockView {
            clocks,
            running: Some(state.position().side_to_move()),
        }),
        you,
        pending: None,
    }
}

fn connected(name: &str) -> Driven {
    let mut online = Driven::new(Online::new(start(Some(name)), Instant::now()));
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
    online.take_requests();
    online
}

fn message(online: &mut Driven, message: ServerMessage) {
    online.on_net(Event::Message(message), Instant::now());
}

fn sent(online: &mut Driven) -> Vec<ClientMessage> {
    online
        .take_requests()
        .into_iter()
        .filter_map(|r| match r {
            NetRequest::Send(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn typed(online: &mut Driven, text: &str) {
    for c in text.chars() {
        online.update(Action::Type(c), SIZE);
    }
}

fn screen(online: &Online, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| online.render(f.area(), f.buffer_mut(), &Look::default()))
        .unwrap();
    terminal
}

#[test]
fn the_first_time_a_name_is_asked_then_checked_then_the_client_connects() {
    let mut online = Driven::new(Online::new(start(None), Instant::now()));
    assert!(online.take_requests().is_empty(), "no name, no connection");
    assert_eq!(online.mode(), Mode::Text);
    typed(&mut online, " ann");
    online.update(Action::Confirm, SIZE);
    assert!(
        online
            .status()
            .unwrap()
            .text
            .contains("a name begins or ends with a space")
    );
    // The reason is on the screen beside the name being typed again, not hidden by it.
    let drawn = format!("{}", screen(&online, 100, 24).backend());
    assert!(
        drawn.contains("a name begins or ends with a space") && drawn.contains("name:  ann▏"),
        "{drawn}"
    );
    assert!(online.take_requests().is_empty());
    online.update(Action::Backspace, SIZE);
    for _ in 0..3 {
        online.update(Action::Backspace, SIZE);
    }
    typed(&mut online, "ann");
    online.update(Action::Confirm, SIZE);
    let requests = online.take_requests();
    let [NetRequest::Connect(config)] = &requests[..] else {
        panic!("{requests:?}");
    };
    assert_eq!(config.name.as_deref(), Some("ann"));
    assert!(config.insecure);
}

#[test]
fn connecting_remembers_the_server_and_asks_for_the_lobby() {
    let mut online = Driven::new(Online::new(start(Some("ann")), Instant::now()));
    online.take_requests();
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
    let requests = online.take_requests();
    // Nothing is read here: the storage thread reads, changes and writes the file.
    let remember = NetRequest::Remember {
        dir: start(None).config_dir,
        server: "127.0.0.1:7343".into(),
        name: "ann".into(),
    };
    assert!(requests.contains(&remember), "{requests:?}");
    assert!(requests.contains(&NetRequest::Send(ClientMessage::Lobby { page: 0 })));
}

#[test]
fn a_changed_key_is_one_line_on_screen() {
    let mut online = Driven::new(Online::new(start(Some("ann")), Instant::now()));
    online.on_net(
        Event::Failed(ClientError::KeyChanged(KeyChanged {
            server: "127.0.0.1:7343".into(),
            pinned: format!("SHA256:{}", "aa".repeat(32)),
            shown: format!("SHA256:{}", "bb".repeat(32)),
            file: "/home/ann/.config/brandubh/known_servers".into(),
        })),
        Instant::now(),
    );
    let text = &online.status().unwrap().text;
    assert!(!text.contains('\n'), "{text}");
    assert!(text.contains("SHA256:bb"), "{text}");
    let terminal = screen(&online, 80, 24);
    assert!(format!("{:?}", terminal.backend()).contains("not connected"));
    // The advice is whole on a terminal of 100 columns, the command to run in one piece.
    let drawn = format!("{}", screen(&online, 100, 24).backend()).replace('\n', "");
    assert!(
        drawn.contains("brandubh online --forget 127.0.0.1:7343"),
        "{drawn}"
    );
}

#[test]
fn a_lost_connection_says_reconnecting_first_on_a_terminal_of_100_columns() {
    let mut online = playing();
    let reason = "TLS with example.org:7343: received fatal alert: the peer closed the \
                  connection without sending a close notification and then some";
    online.on_net(
        Event::Disconnected {
            reason: reason.into(),
        },
        Instant::now(),
    );
    let drawn = format!("{}", screen(&online, 100, 32).backend());
    assert!(drawn.contains("reconnecting"), "{drawn}");
}

#[test]
fn the_lobby_lists_your_move_first_and_enter_joins_an_open_game() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            mine: vec![summary(3, Some("ann"), Some("bob"), 2)],
            mine_total: 1,
            open: vec![summary(7, None, Some("cat"), 0)],
            open_total: 1,
            playing: vec![summary(4, Some("dan"), Some("eve"), 5)],
            playing_total: 1,
            players: vec!["ann".into(), "bob".into(), "\u{1b}[31mred".into()],
            players_total: 3,
            ..Lobby::default()
        }),
    );
    assert_eq!(online.lobby.first_your_move(), Some(3));
    insta::assert_snapshot!("lobby_80x24", screen(&online, 80, 24).backend());
    insta::assert_snapshot!("lobby_30x12", screen(&online, 30, 12).backend());
    online.update(Action::Move(Direction::Down), SIZE);
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Join {
            game: Some(7),
            code: None
        }]
    );
    // The game begins when the server says so.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(7, Some(Side::Attackers), &[]))),
    );
    assert_eq!(online.game().unwrap().id(), 7);
    assert_eq!(online.mode(), Mode::Board);
}

#[test]
fn a_lobby_of_more_games_than_a_page_shows_the_counts_and_turns_its_pages() {
    use crate::net::protocol::LOBBY_PAGE;
    let mut online = connected("ann");
    let page = |first: GameId| -> Vec<GameSummary> {
        (first..)
            .take(LOBBY_PAGE)
            .map(|id| summary(id, Some("dan"), Some("eve"), 4))
            .collect()
    };
    let lobby = |page_no: u32| Lobby {
        mine: vec![summary(3, Some("ann"), Some("bob"), 2)],
        mine_total: 1,
        open: vec![summary(7, None, Some("cat"), 0)],
        open_total: 12,
        playing: page(100 + GameId::from(page_no) * 20),
        playing_total: 340,
        page: page_no,
        players: (0..3).map(|i| format!("p{i}")).collect(),
        players_total: 60,
        players_status: Vec::new(),
        bots: vec![1],
    };
    message(&mut online, ServerMessage::Lobby(lobby(1)));
    insta::assert_snapshot!("lobby_paged_80x24", screen(&online, 80, 24).backend());
    online.update(Action::PageDown, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Lobby { page: 2 }]);
    message(&mut online, ServerMessage::Lobby(lobby(2)));
    online.update(Action::Type('p'), SIZE);
    online.update(Action::Type('p'), SIZE);
    assert_eq!(
        sent(&mut online),
        [
            ClientMessage::Lobby { page: 1 },
            ClientMessage::Lobby { page: 0 }
        ]
    );
    message(&mut online, ServerMessage::Lobby(lobby(0)));
    online.update(Action::PageUp, SIZE);
    assert_eq!(sent(&mut online), []);
    assert!(online.status().unwrap().text.contains("first page"));
    // The refresh asks for the page shown.
    message(&mut online, ServerMessage::Lobby(lobby(16)));
    online.update(Action::Type('r'), SIZE);
    online.update(Action::Type('n'), SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Lobby { page: 16 }]);
    assert!(online.status().unwrap().text.contains("last page"));
}

#[test]
fn the_lobby_says_which_open_games_allow_engine_help() {
    let mut online = connected("ann");
    let mut helped = summary(8, None, Some("cat"), 0);
    helped.setup.engine_allowed = true;
    let alone = summary(9, Some("dan"), None, 0);
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            open: vec![helped, alone],
            open_total: 2,
            players: vec!["ann".into()],
            players_total: 1,
            ..Lobby::default()
        }),
    );
    let lines: Vec<String> = format!("{:?}", screen(&online, 80, 24).backend())
        .lines()
        .map(str::to_owned)
        .collect();
    let line_of = |who: &str| lines.iter().find(|l| l.contains(who)).unwrap().clone();
    assert!(line_of("cat").contains("engine ok"), "{lines:#?}");
    assert!(!line_of("dan").contains("engine ok"), "{lines:#?}");
}

#[test]
fn bots_are_marked_in_the_lobby_s_games_and_players() {
    let mut online = connected("ann");
    let mut bots_game = summary(8, None, Some("robo"), 0);
    bots_game.creator = "robo".into();
    bots_game.bots = vec![Role::Creator, Role::Defenders];
    let people = summary(9, Some("dan"), None, 0);
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            open: vec![bots_game, people],
            open_total: 2,
            players: vec!["ann".into(), "robo".into()],
            players_total: 2,
            bots: vec![1],
            ..Lobby::default()
        }),
    );
    let drawn = format!("{:?}", screen(&online, 80, 24).backend());
    assert!(drawn.contains("#8 robo [bot] waits"), "{drawn}");
    assert!(drawn.contains("#9 dan waits"), "{drawn}");
    assert!(drawn.contains("ann, robo [bot]"), "{drawn}");
}

#[test]
fn the_create_form_sends_the_game_and_the_invite_code_is_shown() {
    let mut online = connected("ann");
    online.update(Action::Type('c'), SIZE);
    assert_eq!(online.mode(), Mode::Menu);
    insta::assert_snapshot!("create_80x24", screen(&online, 80, 24).backend());
    online.update(Action::Confirm, SIZE);
    let [ClientMessage::Create(setup)] = &sent(&mut online)[..] else {
        panic!("a create");
    };
    assert_eq!(setup.rules, Preset::Standard);
    let mut game = summary(9, Some("ann"), None, 0);
    game.setup.private = true;
    message(
        &mut online,
        ServerMessage::Created {
            game,
            code: Some("XK3F9Q".into()),
        },
    );
    assert!(online.status().unwrap().text.contains("invite code XK3F9Q"));
    // The opponent came: the game is shown.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(9, Some(Side::Attackers), &[]))),
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(9));
}

#[test]
fn an_invite_code_is_typed_and_joined() {
    let mut online = connected("bob");
    online.update(Action::Type('i'), SIZE);
    typed(&mut online, "XK3F9Q");
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Join {
            game: None,
            code: Some("XK3F9Q".into())
        }]
    );
    message(
        &mut online,
        ServerMessage::State(Box::new(view(9, Some(Side::Defenders), &[]))),
    );
    assert_eq!(online.game().map(OnlineGame::id), Some(9));
}

/// Ann's game 5 against bob on screen, ann (the attackers) to move.
fn playing() -> Driven {
    let mut online = connected("ann");
    online.awaited = Some(5);
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    online.take_requests();
    online
}

#[test]
fn a_move_goes_to_the_server_and_the_board_changes_only_on_moved() {
    let mut online = playing();
    let d2 = "d2".parse::<Square>().unwrap();
    let c2 = "c2".parse::<Square>().unwrap();
    online.games.get_mut(&5).unwrap().board.cursor = d2;
    online.update(Action::Confirm, SIZE);
    online.games.get_mut(&5).unwrap().board.cursor = c2;
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Move {
            game: 5,
            ply: 0,
            mv: "d2-c2".into()
        }]
    );
    let game = online.game().unwrap();
    assert!(
        game.record().moves().is_empty(),
        "not before the server says"
    );
    assert_eq!(game.sending(), Some("d2-c2"));
    insta::assert_snapshot!("game_sending_80x24", screen(&online, 80, 24).backend());
    // A second move meanwhile is refused visibly.
    online.update(Action::Confirm, SIZE);
    assert!(sent(&mut online).is_empty());
    message(
        &mut online,
        ServerMessage::Moved {
            game: 5,
            ply: 0,
            mv: "d2-c2".into(),
            clocks: None,
        },
    );
    let game = online.game().unwrap();
    assert_eq!(game.record().moves().len(), 1);
    assert_eq!(game.sending(), None);
    assert!(!game.my_turn());
}

#[test]
fn a_piece_is_chosen_as_on_the_local_board() {
    let mut online = playing();
    let d2 = "d2".parse::<Square>().unwrap();
    online.games.get_mut(&5).unwrap().board.cursor = d2;
    online.update(Action::Confirm, SIZE);
    let status = online.status().unwrap().text.clone();
    assert!(status.starts_with("attacker on d2 selected"), "{status}");
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        online.game().unwrap().board.selected,
        None,
        "chosen again: dropped"
    );
    assert!(sent(&mut online).is_empty());
}

#[test]
fn a_typed_illegal_move_is_not_sent() {
    let mut online = playing();
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-d9");
    online.update(Action::Confirm, SIZE);
    assert!(sent(&mut online).is_empty());
    assert_eq!(online.status().unwrap().tone, Tone::Error);
}

#[test]
fn chat_lines_are_sent_checked_and_shown_escaped() {
    let mut online = playing();
    online.update(Action::Chat, SIZE);
    assert_eq!(online.mode(), Mode::Text);
    typed(&mut online, "good luck");
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Chat {
            game: 5,
            text: "good luck".into()
        }]
    );
    online.update(Action::Chat, SIZE);
    typed(&mut online, "bell\u{7}");
    online.update(Action::Confirm, SIZE);
    assert!(
        sent(&mut online).is_empty(),
        "a control character is refused"
    );
    message(
        &mut online,
        ServerMessage::Chat {
            game: 5,
            from: "bob".into(),
            channel: Channel::Players,
            text: "\u{1b}[2Jhi".into(),
        },
    );
    let line = &online.game().unwrap().chat()[0].text;
    assert!(!line.contains('\u{1b}'), "{line}");
    assert!(line.contains("\\u{1b}[2Jhi"), "{line}");
}

#[test]
fn the_opponents_draw_offer_is_a_question_and_yes_accepts() {
    let mut online = playing();
    message(
        &mut online,
        ServerMessage::Offered {
            game: 5,
            offer: Offer::Draw,
            by: Side::Defenders,
        },
    );
    assert_eq!(online.mode(), Mode::BoardAsked);
    online.update(Action::Yes, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Answer {
            game: 5,
            offer: Offer::Draw,
            accept: true
        }]
    );
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome: Outcome::draw(Reason::Agreement),
            clocks: None,
        },
    );
    assert!(online.game().unwrap().outcome().is_some());
}

#[test]
fn resigning_asks_first_and_takebacks_are_requests() {
    let mut online = playing();
    online.update(Action::Resign, SIZE);
    assert!(sent(&mut online).is_empty());
    online.update(Action::Yes, SIZE);
    assert_eq!(sent(&mut online), [ClientMessage::Resign { game: 5 }]);
    online.update(Action::Undo, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Offer {
            game: 5,
            offer: Offer::Takeback
        }]
    );
}

#[test]
fn engine_help_is_off_unless_the_game_allows_it() {
    let mut online = playing();
    online.update(Action::Hint, SIZE);
    assert!(online.status().unwrap().text.contains("engine help is off"));
}

#[test]
fn the_game_shows_names_clocks_lag_and_a_lost_connection() {
    let mut online = playing();
    let now = Instant::now();
    online.on_net(
        Event::Message(ServerMessage::Presence {
            game: 5,
            side: Side::Defenders,
            connected: false,
            return_ms: None,
        }),
        now,
    );
    online.on_net(
        Event::Message(ServerMessage::Chat {
            game: 5,
            from: "bob".into(),
            channel: Channel::Players,
            text: "brb".into(),
        }),
        now,
    );
    online.ping.1 = Some((1, now));
    online.on_net(
        Event::Message(ServerMessage::Pong { id: 1 }),
        now + std::time::Duration::from_millis(42),
    );
    let text = format!("{:?}", screen(&online, 80, 24).backend());
    assert!(text.contains("lag 42 ms"), "{text}");
    assert!(text.contains("disconnected"), "{text}");
    assert!(text.contains("bob: brb"), "{text}");
    insta::assert_snapshot!("game_30x12", screen(&online, 30, 12).backend());
}

#[test]
fn a_player_gone_from_a_game_on_a_clock_is_shown_counting_down_to_the_deadline() {
    let mut online = playing();
    let now = Instant::now();
    online.on_net(
        Event::Message(ServerMessage::Presence {
            game: 5,
            side: Side::Defenders,
            connected: false,
            return_ms: Some(41_000),
        }),
        now,
    );
    let text = format!("{:?}", screen(&online, 80, 24).backend());
    assert!(text.contains("disconnected, 0:41 to return"), "{text}");
    online.tick(now + std::time::Duration::from_secs(30));
    let text = format!("{:?}", screen(&online, 80, 24).backend());
    assert!(text.contains("disconnected, 0:11 to return"), "{text}");
}

/// Online play from the new-game screen, `server` typed, as `name` remembered.
fn chosen(server: &str, name: &str) -> Driven {
    let memory = OnlineMemory {
        name: Some(name.to_owned()),
        ..OnlineMemory::default()
    };
    let mut online = Driven::new(Online::choose_server(
        std::env::temp_dir().join("brandubh-online-tests-unused"),
        None,
        memory,
        Instant::now(),
    ));
    for c in server.chars() {
        online.update(Action::Type(c), SIZE);
    }
    online.update(Action::Confirm, SIZE);
    online
}

/// The configuration online play last asked to connect with.
fn last_connect(online: &mut Driven) -> Option<ClientConfig> {
    online
        .take_requests()
        .into_iter()
        .rev()
        .find_map(|r| match r {
            NetRequest::Connect(config) => Some(*config),
            _ => None,
        })
}

#[test]
fn a_server_not_met_before_shows_its_key_and_is_trusted_only_on_yes() {
    let key = format!("SHA256:{}", "ab".repeat(32));
    let unknown = || {
        Event::Failed(ClientError::UnknownServer {
            server: "example.org:7343".into(),
            shown: key.clone(),
            trusted: None,
        })
    };
    for (answer, trusted) in [(Action::Yes, true), (Action::No, false)] {
        let mut online = chosen("example.org", "ann");
        let first = last_connect(&mut online).unwrap();
        assert_eq!(
            first.trust, None,
            "nothing trusted before the player says so"
        );
        online.on_net(unknown(), Instant::now());
        assert_eq!(online.mode(), Mode::Question);
        let text = format!("{:?}", screen(&online, 80, 24).backend());
        assert!(text.contains(&key), "{text}");
        assert!(text.contains("trust this new server's key? y/n"), "{text}");
        online.update(answer, SIZE);
        let again = last_connect(&mut online);
        if trusted {
            assert_eq!(again.unwrap().trust.as_deref(), Some(key.as_str()));
        } else {
            assert_eq!(again, None, "connected to a server not trusted");
            assert!(online.status().unwrap().text.contains("not trusted"));
        }
    }
}

#[test]
fn a_spectator_cannot_move_and_chats_with_spectators() {
    let mut online = connected("cat");
    online.update(Action::Type('r'), SIZE);
    online.to_show = Some(5);
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, None, &["d2-c2"]))),
    );
    online.take_requests();
    online.update(Action::Confirm, SIZE);
    assert!(sent(&mut online).is_empty());
    assert!(online.status().unwrap().text.contains("watching"));
    online.update(Action::Quit, SIZE);
    assert_eq!(sent(&mut online)[0], ClientMessage::Leave { game: 5 });
}

#[test]
fn a_server_going_down_is_told_calmly_and_the_game_resumes_on_the_reconnect() {
    let mut online = playing();
    online.on_net(Event::ServerGoingDown, Instant::now());
    let status = online.status().unwrap();
    assert_eq!(status.tone, Tone::Info, "{}", status.text);
    assert!(status.text.contains("restarting"), "{}", status.text);
    assert!(online.game().is_some(), "the game stays on screen");
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
    assert_eq!(online.status().unwrap().tone, Tone::Info);
}

#[test]
fn a_move_the_server_did_not_get_before_a_drop_is_sent_again_after_the_resume() {
    let mut online = playing();
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-c2");
    online.update(Action::Confirm, SIZE);
    assert_eq!(sent(&mut online).len(), 1);
    online.on_net(
        Event::Disconnected {
            reason: "reset".into(),
        },
        Instant::now(),
    );
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
    online.take_requests();
    // The resumed state has no move: it never reached the server.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Move {
            game: 5,
            ply: 0,
            mv: "d2-c2".into()
        }],
        "sent again"
    );
    assert_eq!(online.game().unwrap().sending(), Some("d2-c2"));
    // Had it reached the server, the state would show it, and nothing is sent again.
    let mut online = playing();
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-c2");
    online.update(Action::Confirm, SIZE);
    sent(&mut online);
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &["d2-c2"]))),
    );
    assert!(sent(&mut online).is_empty());
    assert_eq!(online.game().unwrap().sending(), None);
}

#[test]
fn from_the_new_game_screen_a_remembered_server_is_chosen_and_esc_comes_back() {
    let memory = OnlineMemory::default()
        .played("old:7343", "ann")
        .played("new:7343", "ann");
    let config = crate::tui::Config {
        online_home: Some((std::env::temp_dir(), memory)),
        ..crate::tui::Config::default()
    };
    let mut app = crate::tui::App::new(config);
    assert_eq!(app.mode(), Mode::Menu, "the new-game screen");
    app.take_effects();
    assert!(
        app.update(Action::Online).is_empty(),
        "nothing before a server"
    );
    assert_eq!(app.mode(), Mode::Text);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    let text = format!("{:?}", terminal.backend());
    assert!(
        text.contains("server: new:7343"),
        "the newest filled in: {text}"
    );
    app.update(Action::Move(Direction::Down));
    let effects = app.update(Action::Confirm);
    let [crate::tui::Effect::Net(NetRequest::Connect(config))] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert_eq!(config.server, "old:7343");
    assert_eq!(config.name.as_deref(), Some("ann"), "the name remembered");
    app.update(Action::Type('q'));
    assert_eq!(app.mode(), Mode::Menu, "back on the new-game screen");
    assert!(!app.should_quit());
}

#[test]
fn a_name_refused_by_the_server_is_asked_again() {
    let mut online = Driven::new(Online::new(start(Some("ann")), Instant::now()));
    online.take_requests();
    online.on_net(
        Event::Failed(ClientError::Refused("the name ann is taken".into())),
        Instant::now(),
    );
    assert!(
        online
            .status()
            .unwrap()
            .text
            .contains("the name ann is taken")
    );
    assert_eq!(online.mode(), Mode::Text);
    // The name refused stays typed, to be edited, beside the reason.
    let drawn = format!("{}", screen(&online, 100, 24).backend());
    assert!(
        drawn.contains("the name ann is taken") && drawn.contains("name: ann▏"),
        "{drawn}"
    );
    typed(&mut online, "2");
    online.update(Action::Confirm, SIZE);
    let requests = online.take_requests();
    assert!(
        matches!(&requests[..], [NetRequest::Connect(c)] if c.name.as_deref() == Some("ann2")),
        "{requests:?}"
    );
}

mod challenges;
/// The client reports the connection lost.
fn dropped(online: &mut Driven) {
    online.on_net(
        Event::Disconnected {
            reason: "reset".into(),
        },
        Instant::now(),
    );
}

/// The client reports the connection made again.
fn reconnected(online: &mut Driven) {
    online.on_net(
        Event::Connected {
            fingerprint: "SHA256:00".into(),
        },
        Instant::now(),
    );
}

#[test]
fn a_move_typed_while_the_server_is_down_is_sent_once() {
    let mut online = playing();
    dropped(&mut online);
    // Typed while down: the client holds it and sends it after the reconnect.
    online.update(Action::StartTyping, SIZE);
    typed(&mut online, "d2-c2");
    online.update(Action::Confirm, SIZE);
    assert_eq!(sent(&mut online).len(), 1);
    reconnected(&mut online);
    online.take_requests();
    // The state comes before the server has played the queued move.
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    assert_eq!(sent(&mut online), [], "sent twice");
    assert_eq!(online.game().unwrap().sending(), Some("d2-c2"));
}

/// The header line of `side`'s player on the board of 100 columns.
fn player_line(online: &Online, who: &str) -> String {
    let drawn = format!("{}", screen(online, 100, 30).backend());
    drawn
        .lines()
        .find(|l| l.contains(who))
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_flag_fallen_shows_the_clocks_the_server_ended_the_game_with() {
    let mut online = playing();
    let mut clocks = crate::game::Clocks::new("5m+3s".parse().unwrap());
    assert!(clocks.spend(Side::Attackers, std::time::Duration::from_secs(301)));
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome: Outcome::win(Side::Defenders, Reason::Time),
            clocks: Some(clocks),
        },
    );
    let line = player_line(&online, "ann (you)");
    assert!(line.contains("0:00"), "{line}");
}

#[test]
fn after_an_abandonment_no_deadline_to_return_stays_on_screen() {
    let mut online = playing();
    let now = Instant::now();
    online.on_net(
        Event::Message(ServerMessage::Presence {
            game: 5,
            side: Side::Defenders,
            connected: false,
            return_ms: Some(1_000),
        }),
        now,
    );
    online.on_net(
        Event::Message(ServerMessage::Result {
            game: 5,
            outcome: Outcome::win(Side::Attackers, Reason::Abandoned),
            clocks: None,
        }),
        now + std::time::Duration::from_secs(2),
    );
    let drawn = format!("{}", screen(&online, 100, 30).backend());
    assert!(!drawn.contains("to return"), "{drawn}");
}

#[test]
fn a_server_that_stops_answering_pings_shows_the_lag_growing_then_not_answering() {
    let mut online = playing();
    let start = Instant::now();
    let at = |secs: u64| start + std::time::Duration::from_secs(secs);
    online.tick(at(0));
    let ping = |online: &mut Driven| {
        sent(online)
            .into_iter()
            .find_map(|m| match m {
                ClientMessage::Ping { id } => Some(id),
                _ => None,
            })
            .expect("a ping")
    };
    let first = ping(&mut online);
    online.on_net(Event::Message(ServerMessage::Pong { id: first }), at(0));
    // Frozen from now on: the next ping is never answered.
    online.tick(at(5));
    ping(&mut online);
    online.tick(at(11));
    let line = player_line(&online, "lag");
    assert!(line.contains("lag ≥ 6 s"), "{line}");
    online.tick(at(25));
    let line = player_line(&online, "answer");
    assert!(line.contains("not answering"), "{line}");
    // In the lobby's header too.
    online.update(Action::Quit, SIZE);
    let drawn = format!("{}", screen(&online, 100, 30).backend());
    assert!(
        drawn.lines().next().unwrap().contains("not answering"),
        "{drawn}"
    );
}

#[test]
fn x_in_the_lobby_says_what_it_does_and_withdrawing_is_confirmed() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            mine: vec![
                summary(3, Some("ann"), Some("bob"), 2),
                summary(8, None, None, 0),
            ],
            mine_total: 2,
            ..Lobby::default()
        }),
    );
    online.update(Action::Type('x'), SIZE);
    let said = online.status().unwrap().text.clone();
    assert!(said.contains("resign this one from its board"), "{said}");
    assert_eq!(sent(&mut online), []);
    online.update(Action::Move(Direction::Down), SIZE);
    online.update(Action::Type('x'), SIZE);
    assert!(sent(&mut online).contains(&ClientMessage::Leave { game: 8 }));
    let said = online.status().unwrap().text.clone();
    assert!(said.contains("game #8 withdrawn"), "{said}");
}

#[test]
fn the_chat_so_far_replaces_the_lines_held_so_a_reconnection_shows_each_once() {
    let mut online = playing();
    let entry = |from: &str, text: &str| crate::net::protocol::ChatEntry {
        from: from.into(),
        channel: Channel::Players,
        text: text.into(),
    };
    message(
        &mut online,
        ServerMessage::Chat {
            game: 5,
            from: "bob".into(),
            channel: Channel::Players,
            text: "hi".into(),
        },
    );
    dropped(&mut online);
    reconnected(&mut online);
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    assert_eq!(
        online.game().unwrap().chat().len(),
        1,
        "the panel was cleared"
    );
    message(
        &mut online,
        ServerMessage::ChatLog {
            game: 5,
            lines: vec![entry("bob", "hi"), entry("bob", "said while you were away")],
        },
    );
    let chat: Vec<&str> = online
        .game()
        .unwrap()
        .chat()
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(chat, ["bob: hi", "bob: said while you were away"]);
}

#[test]
fn a_game_ended_while_away_is_told_and_saved() {
    let saves = tempfile::tempdir().unwrap();
    let mut online = Driven::new(Online::new(
        OnlineStart {
            save_dir: Some(saves.path().to_owned()),
            ..start(Some("ann"))
        },
        Instant::now(),
    ));
    reconnected(&mut online);
    online.take_requests();
    let mut game = summary(12, Some("ann"), Some("bob"), 7);
    game.outcome = Some(Outcome::win(Side::Defenders, Reason::Time));
    message(&mut online, ServerMessage::Finished { game });
    assert_eq!(sent(&mut online), [ClientMessage::Download { game: 12 }]);
    message(
        &mut online,
        ServerMessage::Save {
            game: 12,
            json: "{}".into(),
        },
    );
    let requests = online.take_requests();
    assert!(
        matches!(&requests[..], [NetRequest::SaveFinished { game: 12, .. }]),
        "{requests:?}"
    );
    online.saved(12, &Ok::<_, String>(saves.path().join("game-12.json")));
    let said = online.status().unwrap().text.clone();
    assert!(
        said.starts_with(
            "while you were away: game #12 vs bob ended, bob won: the attackers ran out of time; \
             saved as "
        ),
        "{said}"
    );
}

mod offers_and_resume;
mod ratings;
