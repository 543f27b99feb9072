//! Online play in the terminal game: a component over the app's one event channel. It asks
//! for a name the first time, shows the lobby, the create form and the online game, and
//! talks to the server only through [`NetRequest`]s (carried out by the runtime, which owns
//! the [`Client`](crate::net::client::Client)); what the server says comes back as events
//! ([`Online::on_net`]). The server is authoritative: a move changes the board only when the
//! server's `moved` comes.

pub mod assist;
mod create;
mod finished;
mod game;
mod helped;
mod lobby;
pub mod memory;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use self::assist::Assist;
use self::create::{CreateForm, CreateHandled, timing_text};
use self::game::OnlineGame;
use self::lobby::{Kind, LOBBY_KEYS, LobbyList};
use self::memory::OnlineMemory;
use super::board_screen::{BoardHandled, Choice, choice, selected_text};
use super::help::Help;
use super::input::{Action, Direction, Key, KeyTable, Mode, typed_move};
use super::net_request::NetRequest;
use super::text::{Status, Tone, fit_keys};
use super::theme::{Look, Themed};
use crate::net::client::{ClientConfig, ClientError, Event};
use crate::net::protocol::{
    ClientMessage, ErrorCode, GameId, GameSetup, Offer, ServerMessage, check_chat, normalize_name,
};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::rules::{Preset, Side, Square};

/// How often the lag is measured.
const PING_EVERY: Duration = Duration::from_secs(5);
/// How often the lobby is asked for again while it is on screen.
const LOBBY_EVERY: Duration = Duration::from_secs(5);

/// Every key of the online game, as its help lists them: (keys, what they do).
pub const ONLINE_GAME_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("arrows / h j k l", "move the cursor"),
        Key::new("Enter / Space / click", "select a piece, then move it"),
        Key::new(":", "type a move, e.g. d2-d5"),
        Key::new("w / b", "warnings (threats, repeats) / bell on or off"),
        Key::new("t", "hint (games made with engine help)"),
        Key::new("a", "engine's evaluation on / off (spectators: always)"),
        Key::new("PgUp / PgDn", "scroll the move list"),
        Key::new("c", "write a chat line"),
        Key::new("d", "offer a draw, or accept the one offered"),
        Key::new("u", "ask to take your last move back"),
        Key::new("x", "resign"),
        Key::new("Tab", "small terminal: the panel / the board"),
        Key::new("q / Esc", "back to the lobby (the game goes on)"),
    ],
    notes: &[],
};

/// How online play starts: the server, the name (if known), and the folders.
#[derive(Clone, Debug)]
pub struct OnlineStart {
    /// `HOST[:PORT]`.
    pub server: String,
    /// The name to play under; asked for when `None`.
    pub name: Option<String>,
    /// The folder of the identity key, the pinned keys and the remembered servers.
    pub config_dir: PathBuf,
    /// Where finished games are saved.
    pub save_dir: Option<PathBuf>,
    /// Skip pinning the server's key (loopback tests only).
    pub insecure: bool,
    /// The game the create form starts with (`--rules`, `--side`, `--clock`); `None`: the
    /// rules of the game selected, the rest as usual.
    pub create: Option<GameSetup>,
}

/// What is typed at the bottom line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Prompt {
    Server,
    Name,
    Code,
    Chat,
}

/// The screen online play shows.
#[derive(Clone, Debug)]
enum View {
    /// Asking for a server (from the new-game screen): those remembered, newest first.
    Server(Vec<String>),
    /// Asking for a name, the first time.
    Name,
    /// The lobby.
    Lobby,
    /// A game, by its number.
    Game(GameId),
}

/// A question to the player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ask {
    /// Resign this game?
    Resign(GameId),
    /// Accept this offer of the opponent?
    Accept(GameId, Offer),
    /// Trust the key of a server not met before (its fingerprint in [`Online::unknown_key`])?
    Trust,
}

/// Online play's state.
#[derive(Clone, Debug)]
pub struct Online {
    start: OnlineStart,
    view: View,
    lobby: LobbyList,
    /// Every game this client plays or watches.
    games: BTreeMap<GameId, OnlineGame>,
    /// A game the player waits to begin (created, or joined): shown when its state comes.
    awaited: Option<GameId>,
    /// A game whose state to show when it comes (watched).
    to_show: Option<GameId>,
    /// Joined by an invite code: the next game of the player's that begins is shown.
    join_by_code: bool,
    prompt: Option<(Prompt, String)>,
    create: Option<CreateForm>,
    help: Option<Help>,
    ask: Option<Ask>,
    /// The fingerprint shown by a server not pinned yet, while the player is asked to trust
    /// it; then trusted (pinned when the connection is made with it).
    unknown_key: Option<String>,
    status: Option<Status>,
    connected: bool,
    /// The client gave up (a changed key, a refused name): nothing more happens.
    failed: bool,
    /// Pings: the next number, and the one waiting for its pong with when it was sent.
    ping: (u64, Option<(u64, Instant)>),
    last_ping: Option<Instant>,
    last_lobby: Option<Instant>,
    lag: Option<Duration>,
    now: Instant,
    closed: bool,
    requests: Vec<NetRequest>,
    /// The warnings, the bell and the engine's help.
    assist: Assist,
}

impl Online {
    /// Online play as `start` says, at `now`: connecting if the name is known, else asking
    /// for it.
    pub fn new(start: OnlineStart, now: Instant) -> Online {
        let mut online = Online {
            view: View::Name,
            lobby: LobbyList::default(),
            games: BTreeMap::new(),
            awaited: None,
            to_show: None,
            join_by_code: false,
            prompt: None,
            create: None,
            help: None,
            ask: None,
            unknown_key: None,
            status: None,
            connected: false,
            failed: false,
            ping: (1, None),
            last_ping: None,
            last_lobby: None,
            lag: None,
            now,
            closed: false,
            requests: Vec::new(),
            assist: Assist::default(),
            start,
        };
        if let Some(name) = online.start.name.clone() {
            online.connect(&name);
        } else {
            online.prompt = Some((Prompt::Name, String::new()));
            online.info("your name on this server (1 to 24 characters), then Enter");
        }
        online
    }

    /// Online play from the new-game screen: asks for a server, offering those `memory`
    /// remembers (newest first, the newest filled in), then goes on as [`Online::new`] with
    /// the name remembered.
    pub fn choose_server(
        config_dir: PathBuf,
        save_dir: Option<PathBuf>,
        memory: OnlineMemory,
        now: Instant,
    ) -> Online {
        let start = OnlineStart {
            server: String::new(),
            name: None,
            config_dir,
            save_dir,
            insecure: false,
            create: None,
        };
        let mut online = Online::new(start, now);
        online.start.name = memory.name;
        let first = memory.servers.first().cloned().unwrap_or_default();
        online.view = View::Server(memory.servers);
        online.prompt = Some((Prompt::Server, first));
        online.info("the server, HOST or HOST:PORT (↑↓ those played on), then Enter; Esc back");
        online
    }

    /// Whether the player left online play.
    pub const fn is_closed(&self) -> bool {
        self.closed
    }

    /// What the runtime is to do since last asked.
    pub fn take_requests(&mut self) -> Vec<NetRequest> {
        std::mem::take(&mut self.requests)
    }

    /// The status line.
    pub const fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// The game on screen, if one is.
    pub fn game(&self) -> Option<&OnlineGame> {
        match self.view {
            View::Game(id) => self.games.get(&id),
            _ => None,
        }
    }

    /// How keys are read now.
    pub fn mode(&self) -> Mode {
        if self.prompt.is_some() {
            Mode::Text
        } else if self.ask.is_some() {
            Mode::Question
        } else if self.create.as_ref().is_some_and(CreateForm::typing) {
            Mode::Text
        } else if self.help.is_some() || self.create.is_some() {
            Mode::Menu
        } else {
            match self.game() {
                Some(game) if game.board.typing.is_some() => Mode::Text,
                Some(_) => Mode::Board,
                // The lobby's keys are letters of its own, read as typed.
                None => Mode::Text,
            }
        }
    }

    fn connect(&mut self, name: &str) {
        let start = &self.start;
        let mut config = ClientConfig::new(&start.server, Some(name), start.config_dir.clone());
        config.insecure = start.insecure;
        config.trust.clone_from(&self.unknown_key);
        // The finished games are saved by the storage thread, as every write
        // (`NetRequest::SaveFinished`), not by the client.
        self.lobby = LobbyList::new(name);
        self.view = View::Lobby;
        self.requests.push(NetRequest::Connect(Box::new(config)));
        let server = escaped(&start.server, MESSAGE_CHARS);
        self.info(&format!("connecting to {server}…"));
    }

    fn send(&mut self, message: ClientMessage) {
        self.requests.push(NetRequest::Send(message));
    }

    fn info(&mut self, text: &str) {
        self.status = Some(Status {
            text: text.to_owned(),
            tone: Tone::Info,
        });
    }

    fn error(&mut self, text: &str) {
        self.status = Some(Status {
            text: text.to_owned(),
            tone: Tone::Error,
        });
    }

    /// Lets time pass until `now`: measures the lag and refreshes the lobby now and then.
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        if !self.connected {
            return;
        }
        let due = |last: Option<Instant>, every| last.is_none_or(|at| now >= at + every);
        if due(self.last_ping, PING_EVERY) {
            self.last_ping = Some(now);
            let id = self.ping.0;
            self.ping = (id + 1, Some((id, now)));
            self.send(ClientMessage::Ping { id });
        }
        if matches!(self.view, View::Lobby) && due(self.last_lobby, LOBBY_EVERY) {
            self.refresh(now);
        }
    }

    /// When the screen changes next by itself: a running clock, the next ping or lobby.
    pub fn next_tick(&self) -> Option<Instant> {
        if !self.connected {
            return None;
        }
        let clock = self
            .game()
            .filter(|g| g.clock_runs())
            .map(|_| self.now + Duration::from_millis(100));
        let ping = self.last_ping.map(|at| at + PING_EVERY);
        let lobby = matches!(self.view, View::Lobby)
            .then(|| self.last_lobby.map(|at| at + LOBBY_EVERY))
            .flatten();
        [clock, ping, lobby].into_iter().flatten().min()
    }

    fn refresh(&mut self, now: Instant) {
        self.last_lobby = Some(now);
        let page = self.lobby.page();
        self.send(ClientMessage::Lobby { page });
    }

    /// Takes what the client reports, at `now`.
    pub fn on_net(&mut self, event: Event, now: Instant) {
        self.now = now;
        match event {
            Event::Connected { .. } => {
                self.connected = true;
                self.info("connected: c create, Enter join or watch, ? keys");
                if let Some(name) = self.lobby_name() {
                    self.requests.push(NetRequest::Remember {
                        dir: self.start.config_dir.clone(),
                        server: crate::net::client::with_port(&self.start.server),
                        name,
                    });
                }
                self.refresh(now);
            }
            Event::Disconnected { reason } => {
                self.connected = false;
                self.lag = None;
                self.error(&format!(
                    "connection lost ({}): reconnecting…",
                    escaped(&reason, MESSAGE_CHARS)
                ));
            }
            // A restart: said calmly, the client reconnects by itself.
            Event::ServerGoingDown => {
                self.connected = false;
                self.lag = None;
                self.info("the server is restarting: reconnecting…");
            }
            Event::Failed(ClientError::UnknownServer {
                shown,
                trusted: None,
                ..
            }) => self.ask_trust(shown),
            Event::Failed(e) => {
                self.connected = false;
                self.failed = true;
                // A name refused (taken by another key): another may be tried.
                if matches!(e, ClientError::Refused(_)) {
                    self.view = View::Name;
                    self.prompt = Some((Prompt::Name, String::new()));
                    self.error(&format!("{}: type another name", failure_text(&e)));
                } else {
                    self.error(&failure_text(&e));
                }
            }
            Event::Unsent(message) => {
                if let ClientMessage::Move { game, .. } = message
                    && let Some(g) = self.games.get_mut(&game)
                {
                    g.refused();
                }
                self.error("not sent: the connection is down and too much waits to be sent");
            }
            Event::Saved { game, path } => {
                self.info(&format!(
                    "game #{game} saved as {}",
                    escaped(&path.display().to_string(), MESSAGE_CHARS)
                ));
            }
            Event::Message(message) => self.on_message(message, now),
        }
    }

    fn lobby_name(&self) -> Option<String> {
        self.start.name.clone()
    }

    fn on_message(&mut self, message: ServerMessage, now: Instant) {
        match message {
            ServerMessage::Lobby(lobby) => self.lobby.set(lobby),
            ServerMessage::Created { game, code } => {
                self.awaited = Some(game.id);
                let code = code.map_or_else(String::new, |c| {
                    format!(" · invite code {}", escaped(&c, MESSAGE_CHARS))
                });
                self.info(&format!(
                    "game #{} created ({}): waiting for an opponent{code}",
                    game.id,
                    timing_text(game.setup.timing)
                ));
                self.refresh(now);
            }
            ServerMessage::State(view) => {
                let id = view.summary.id;
                let made = match self.games.get_mut(&id) {
                    Some(game) => game.refresh(&view, now),
                    None => OnlineGame::from_view(&view, now).map(|game| {
                        self.games.insert(id, game);
                        None
                    }),
                };
                match made {
                    Err(e) => {
                        self.error(&e);
                        return;
                    }
                    // Never lost silently: a move the server did not get goes again.
                    Ok(Some(mv)) => {
                        let ply = view.moves.len();
                        self.send(ClientMessage::Move { game: id, ply, mv });
                    }
                    Ok(None) => {}
                }
                self.assist_changed(id);
                let begun = (self.awaited == Some(id) || self.join_by_code) && view.you.is_some();
                if begun || self.to_show == Some(id) {
                    self.awaited = None;
                    self.join_by_code = false;
                    self.to_show = None;
                    self.show_game(id);
                }
            }
            ServerMessage::Hello { .. }
            | ServerMessage::Challenge { .. }
            | ServerMessage::Welcome { .. }
            | ServerMessage::Archive { .. }
            | ServerMessage::Ping { .. } => {}
            ServerMessage::Save { game, json } => self.save_finished(game, json),
            other => self.on_game_message(other, now),
        }
    }

    /// A message about one game: a move, an offer, a chat line, a presence, a result.
    fn on_game_message(&mut self, message: ServerMessage, now: Instant) {
        match message {
            ServerMessage::Moved {
                game,
                ply,
                mv,
                clocks,
            } => self.on_moved(game, ply, &mv, clocks, now),
            ServerMessage::Offered { game, offer, by } => {
                let Some(g) = self.games.get_mut(&game) else {
                    return;
                };
                g.offered(Some((offer, by)));
                let mine = g.you() == Some(by);
                if !mine && g.you().is_some() && self.on_screen(game) {
                    self.ask = Some(Ask::Accept(game, offer));
                }
                let what = offer_text(offer);
                self.info(&format!("the {by} offer {what}"));
            }
            ServerMessage::Declined { game, offer } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.offered(None);
                }
                if self.ask == Some(Ask::Accept(game, offer)) {
                    self.ask = None;
                }
                self.info(&format!("{} declined", offer_text(offer)));
            }
            ServerMessage::Chat {
                game,
                from,
                channel,
                text,
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.chat_line(channel, &from, &text);
                }
            }
            ServerMessage::Presence {
                game,
                side,
                connected,
                return_ms,
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.presence(side, connected, return_ms.map(Duration::from_millis), now);
                }
            }
            ServerMessage::Result { game, outcome } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.ended(outcome);
                    let you = g.you();
                    let text = super::panels::outcome_text(outcome, you);
                    if you.is_some() {
                        self.assist.ring();
                        self.download_finished(game);
                    }
                    self.ask = None;
                    self.info(&format!("{text} · q to the lobby"));
                }
            }
            ServerMessage::Pong { id } => {
                if let Some((waiting, sent)) = self.ping.1
                    && waiting == id
                {
                    self.lag = Some(now.saturating_duration_since(sent));
                    self.ping.1 = None;
                }
            }
            ServerMessage::Error { code, message } => {
                if code == ErrorCode::BadMove
                    && let View::Game(id) = self.view
                    && let Some(g) = self.games.get_mut(&id)
                {
                    g.refused();
                }
                self.error(&format!(
                    "the server says: {}",
                    escaped(&message, MESSAGE_CHARS)
                ));
            }
            _ => {}
        }
    }

    /// The server's `moved` in game `game`: move `mv` after `ply` moves, and the clocks.
    fn on_moved(
        &mut self,
        game: GameId,
        ply: usize,
        mv: &str,
        clocks: Option<crate::net::protocol::ClockView>,
        now: Instant,
    ) {
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        if g.moved(ply, mv, clocks, now).is_err() {
            // Out of step: the whole state again.
            self.send(ClientMessage::Watch { game });
            return;
        }
        if g.my_turn() {
            self.assist.ring();
        }
        self.assist_changed(game);
        if self.on_screen(game) {
            let g = &self.games[&game];
            let text = if g.my_turn() {
                format!(
                    "{} played {mv}: your move",
                    g.name(g.you().unwrap_or(Side::Attackers).opponent())
                )
            } else {
                format!("played {mv}")
            };
            self.info_warned(game, &text);
        }
    }

    fn on_screen(&self, game: GameId) -> bool {
        matches!(self.view, View::Game(id) if id == game)
    }

    fn show_game(&mut self, id: GameId) {
        self.view = View::Game(id);
        let Some(g) = self.games.get(&id) else {
            return;
        };
        let text = match g.you() {
            Some(_) if g.my_turn() => "your move: ? for the keys".to_owned(),
            Some(_) => format!(
                "waiting for {}: ? for the keys",
                g.name(g.record().state().position().side_to_move())
            ),
            None => "watching: a evaluation · c chat with the spectators · q lobby".to_owned(),
        };
        self.info_warned(id, &text);
    }

    /// Takes one action of the player.
    pub fn update(&mut self, action: Action, size: Rect) {
        if let Some(help) = self.help.take() {
            match action {
                Action::Cancel
                | Action::Confirm
                | Action::Help
                | Action::Quit
                | Action::Type('?' | 'q') => {}
                other => {
                    let mut help = help;
                    help.scroll(other, size);
                    self.help = Some(help);
                }
            }
            return;
        }
        if let Some((prompt, text)) = self.prompt.take() {
            self.type_prompt(prompt, text, action);
            return;
        }
        if let Some(ask) = self.ask.take() {
            self.answer(ask, action);
            return;
        }
        if let Some(mut form) = self.create.take() {
            match form.update(action) {
                CreateHandled::Stay => self.create = Some(form),
                CreateHandled::BadClock(why) => {
                    self.create = Some(form);
                    self.error(&why);
                }
                CreateHandled::Cancel => self.status = None,
                CreateHandled::Create(setup) => self.create_game(setup),
            }
            return;
        }
        match self.view {
            View::Name | View::Server(_) => {
                if matches!(action, Action::Cancel | Action::Quit) {
                    self.closed = true;
                }
            }
            View::Lobby => self.update_lobby(action),
            View::Game(id) => self.update_game(id, action, size),
        }
    }

    fn type_prompt(&mut self, prompt: Prompt, mut text: String, action: Action) {
        match action {
            Action::Type(c) => text.push(c),
            Action::Backspace => {
                text.pop();
            }
            Action::Cancel => {
                if matches!(prompt, Prompt::Name | Prompt::Server) {
                    self.closed = true;
                }
                self.status = None;
                return;
            }
            Action::Move(dir) if prompt == Prompt::Server => {
                if let View::Server(servers) = &self.view
                    && !servers.is_empty()
                {
                    let at = servers.iter().position(|s| *s == text);
                    let next = match (at, dir) {
                        (Some(i), Direction::Down | Direction::Right) => (i + 1) % servers.len(),
                        (Some(i), _) => (i + servers.len() - 1) % servers.len(),
                        (None, _) => 0,
                    };
                    text.clone_from(&servers[next]);
                }
            }
            Action::Confirm => {
                self.prompted(prompt, text);
                return;
            }
            _ => {}
        }
        self.prompt = Some((prompt, text));
    }

    fn prompted(&mut self, prompt: Prompt, text: String) {
        match prompt {
            Prompt::Server => {
                let server = text.trim().to_owned();
                if server.is_empty() {
                    self.prompt = Some((Prompt::Server, text));
                    return;
                }
                self.start.server = server;
                if let Some(name) = self.start.name.clone() {
                    self.connect(&name);
                } else {
                    self.view = View::Name;
                    self.prompt = Some((Prompt::Name, String::new()));
                    self.info("your name on this server (1 to 24 characters), then Enter");
                }
            }
            Prompt::Name => match normalize_name(&text) {
                Ok(name) => {
                    self.start.name = Some(name.clone());
                    self.failed = false;
                    self.connect(&name);
                }
                Err(e) => {
                    self.error(&format!("a name {e}: type another"));
                    self.prompt = Some((Prompt::Name, text));
                }
            },
            Prompt::Code => {
                let code = text.trim().to_owned();
                if code.is_empty() {
                    self.status = None;
                } else {
                    self.send(ClientMessage::Join {
                        game: None,
                        code: Some(code),
                    });
                    self.join_by_code = true;
                    self.info("joining…");
                }
            }
            Prompt::Chat => {
                let View::Game(game) = self.view else {
                    return;
                };
                match check_chat(&text) {
                    Ok(()) => {
                        self.send(ClientMessage::Chat { game, text });
                        self.status = None;
                    }
                    Err(e) => self.error(&format!("a chat line {e}")),
                }
            }
        }
    }

    /// The server is not known yet: shows its key's fingerprint and asks whether to trust
    /// it, as SSH does.
    fn ask_trust(&mut self, shown: String) {
        self.connected = false;
        self.failed = true;
        self.unknown_key = Some(shown);
        self.ask = Some(Ask::Trust);
    }

    fn answer(&mut self, ask: Ask, action: Action) {
        let yes = match action {
            Action::Yes => true,
            Action::No | Action::Cancel => false,
            _ => {
                self.ask = Some(ask);
                return;
            }
        };
        match ask {
            Ask::Resign(game) if yes => self.send(ClientMessage::Resign { game }),
            Ask::Resign(_) => self.status = None,
            Ask::Accept(game, offer) => self.send(ClientMessage::Answer {
                game,
                offer,
                accept: yes,
            }),
            Ask::Trust => match self.start.name.clone() {
                Some(name) if yes => {
                    self.failed = false;
                    self.connect(&name);
                }
                _ => {
                    self.unknown_key = None;
                    self.error("not trusted: nothing was remembered; q to leave");
                }
            },
        }
    }

    fn create_game(&mut self, setup: GameSetup) {
        self.send(ClientMessage::Create(setup));
        self.info("creating…");
    }

    fn update_lobby(&mut self, action: Action) {
        match action {
            Action::Move(dir) => self.lobby.move_selection(dir),
            Action::Confirm => self.open_selected(),
            Action::Cancel | Action::Quit | Action::Type('q') => self.closed = true,
            Action::Help | Action::Type('?') => {
                self.help = Some(Help::new("Lobby keys".to_owned(), &LOBBY_KEYS));
            }
            Action::Type('c') if self.connected => {
                let setup = self.start.create.clone().unwrap_or_else(|| GameSetup {
                    rules: self
                        .lobby
                        .selected()
                        .map_or(Preset::Standard, |(g, _)| g.setup.rules),
                    ..GameSetup::default()
                });
                self.create = Some(CreateForm::new(setup));
            }
            Action::Type('i') if self.connected => {
                self.prompt = Some((Prompt::Code, String::new()));
                self.info("the invite code, then Enter");
            }
            Action::Type('w') => {
                if let Some((game, _)) = self.lobby.selected() {
                    let game = game.id;
                    self.watch(game);
                }
            }
            Action::Type('x') => self.leave_selected(),
            Action::Type('r') => self.refresh(self.now),
            Action::PageDown | Action::Type('n') => self.turn_page(true),
            Action::PageUp | Action::Type('p') => self.turn_page(false),
            Action::Type(_) if !self.connected => self.error("not connected"),
            _ => {}
        }
    }

    /// Asks for the next page of the lobby (`forward`) or the previous one, if there is one.
    fn turn_page(&mut self, forward: bool) {
        if self.lobby.turn_page(forward) {
            self.refresh(self.now);
        } else {
            self.info(if forward {
                "the last page"
            } else {
                "the first page"
            });
        }
    }

    fn watch(&mut self, game: GameId) {
        self.to_show = Some(game);
        self.send(ClientMessage::Watch { game });
    }

    fn open_selected(&mut self) {
        let Some((game, kind)) = self.lobby.selected() else {
            self.info("no game selected: c creates one");
            return;
        };
        let id = game.id;
        match kind {
            Kind::Open => {
                self.awaited = Some(id);
                self.send(ClientMessage::Join {
                    game: Some(id),
                    code: None,
                });
                self.info(&format!("joining #{id}…"));
            }
            Kind::Waiting => self.info("your game waits for an opponent (x withdraws it)"),
            Kind::Mine if self.games.contains_key(&id) => self.show_game(id),
            Kind::Mine | Kind::Watch => self.watch(id),
        }
    }

    fn leave_selected(&mut self) {
        let Some((game, kind)) = self.lobby.selected() else {
            return;
        };
        let id = game.id;
        match kind {
            Kind::Waiting | Kind::Watch => {
                self.send(ClientMessage::Leave { game: id });
                self.games.remove(&id);
                self.info(&format!("left #{id}"));
                self.refresh(self.now);
            }
            Kind::Mine => self.info("a game in progress is resigned from its board (x there)"),
            Kind::Open => {}
        }
    }

    fn update_game(&mut self, id: GameId, action: Action, size: Rect) {
        let Some(game) = self.games.get_mut(&id) else {
            self.view = View::Lobby;
            return;
        };
        let moves = game.record().moves().len();
        match game.board.update(action, size, moves) {
            BoardHandled::Stay => {}
            BoardHandled::Choose(sq) => self.choose(id, sq),
            BoardHandled::Cancelled | BoardHandled::StoppedTyping => self.status = None,
            BoardHandled::Typed(text) => {
                let text = typed_move(&text);
                if !text.is_empty() && !self.holds_typed(id, &text) {
                    self.play(id, &text);
                }
            }
            BoardHandled::Game(Action::TogglePanel) => {
                if !game.board.toggle_panel(size) {
                    self.info(
                        "the panel is beside the board: Tab only switches on a small terminal",
                    );
                }
            }
            BoardHandled::Game(action) => self.game_key(id, action),
        }
    }

    fn game_key(&mut self, id: GameId, action: Action) {
        if self.assist_key(id, action) {
            return;
        }
        let Some(game) = self.games.get(&id) else {
            return;
        };
        let over = game.outcome().is_some();
        let player = game.you().is_some();
        match action {
            Action::Chat => {
                self.prompt = Some((Prompt::Chat, String::new()));
                self.info("a chat line, then Enter (Esc: none)");
            }
            Action::Quit | Action::Type('q') => {
                self.assist_left();
                self.view = View::Lobby;
                if over || !player {
                    self.send(ClientMessage::Leave { game: id });
                    self.games.remove(&id);
                }
                self.refresh(self.now);
                self.info("the lobby: ? for the keys");
            }
            Action::Help => {
                self.help = Some(Help::new("Online game keys".to_owned(), &ONLINE_GAME_KEYS));
            }
            _ if !player => self.info("watching: only the players play"),
            _ if over => self.info("the game is over: q to the lobby"),
            Action::OfferDraw => match game.pending() {
                Some((Offer::Draw, by)) if Some(by) != game.you() => {
                    self.send(ClientMessage::Answer {
                        game: id,
                        offer: Offer::Draw,
                        accept: true,
                    });
                }
                _ => {
                    self.send(ClientMessage::Offer {
                        game: id,
                        offer: Offer::Draw,
                    });
                    self.info("draw offered");
                }
            },
            Action::Undo => {
                self.send(ClientMessage::Offer {
                    game: id,
                    offer: Offer::Takeback,
                });
                self.info("takeback asked");
            }
            Action::Resign => {
                self.ask = Some(Ask::Resign(id));
                self.info("resign this game? y/n");
            }
            _ => {}
        }
    }

    /// Enter, Space or a click on `sq`: select one of the player's pieces or move it, as on
    /// every board ([`choice`]); the move goes to the server.
    fn choose(&mut self, id: GameId, sq: Square) {
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        if !game.my_turn() || game.sending().is_some() {
            let text = if game.sending().is_some() {
                "sending the move…"
            } else if game.outcome().is_some() {
                "the game is over: q to the lobby"
            } else if game.you().is_none() {
                "watching: only the players play"
            } else {
                "not your move: wait for the opponent's"
            };
            self.info(text);
            return;
        }
        match choice(game.record().state(), game.board.selected, sq) {
            Choice::Deselect => {
                game.board.selected = None;
                self.status = None;
            }
            Choice::Play(mv) => {
                if !self.holds_move(id, mv) {
                    self.play(id, &mv.to_string());
                }
            }
            Choice::Select(sq, piece) => {
                game.board.selected = Some(sq);
                self.info(&selected_text(sq, piece));
                self.warn_selection(id);
            }
            Choice::Refused { why, deselect } => {
                if deselect {
                    game.board.selected = None;
                }
                self.error(&why);
            }
        }
    }

    /// Sends the move `text` if it is legal here; the board changes when the server says.
    fn play(&mut self, id: GameId, text: &str) {
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        if !game.my_turn() || game.sending().is_some() {
            self.error("not your move");
            return;
        }
        let mut trial = game.record().state().clone();
        match trial.play_text(text) {
            Ok(done) => {
                let mv = done.mv.to_string();
                let ply = game.record().moves().len();
                game.sent(mv.clone());
                self.send(ClientMessage::Move {
                    game: id,
                    ply,
                    mv: mv.clone(),
                });
                self.info(&format!("sending {mv}…"));
            }
            Err(e) => self.error(&format!("{}: {e}", escaped(text, MESSAGE_CHARS))),
        }
    }

    /// Draws online play over `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        Clear.render(area, buf);
        let status = self.status_text();
        match self.view {
            View::Game(id) if self.games.contains_key(&id) => {
                let game = &self.games[&id];
                game.render(area, buf, look, self.now, self.lag, &status, &self.assist);
            }
            _ => self.render_lobby(area, buf, look, &status),
        }
        if let Some(form) = &self.create {
            Themed { of: form, look }.render(area, buf);
        }
        if let Some(help) = &self.help {
            help.view(look).render(area, buf);
        }
    }

    fn status_text(&self) -> String {
        match (&self.prompt, self.ask, &self.status) {
            (Some((Prompt::Server, text)), _, _) => {
                format!("server: {}▏", escaped(text, MESSAGE_CHARS))
            }
            // A refused name is typed again beside the reason it was refused.
            (Some((Prompt::Name, text)), _, Some(refused)) if refused.tone == Tone::Error => {
                format!("{} · name: {}▏", refused.text, escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Name, text)), _, _) => {
                format!("name: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Code, text)), _, _) => format!("invite code: {text}▏"),
            (Some((Prompt::Chat, text)), _, _) => {
                format!("chat: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (None, Some(Ask::Resign(_)), _) => "resign this game? y/n".to_owned(),
            (None, Some(Ask::Accept(_, offer)), _) => {
                format!("the opponent offers {}: accept? y/n", offer_text(offer))
            }
            (None, Some(Ask::Trust), _) => trust_question(self.unknown_key.as_deref()),
            (None, None, Some(status)) => status.text.clone(),
            (None, None, None) => String::new(),
        }
    }

    fn render_lobby(&self, area: Rect, buf: &mut Buffer, look: &Look, status: &str) {
        let server = escaped(&self.start.server, MESSAGE_CHARS);
        let who = self.start.name.as_deref().map_or_else(String::new, |n| {
            format!(" as {}", escaped(n, MESSAGE_CHARS))
        });
        let state = if self.failed {
            "not connected"
        } else if self.connected {
            "connected"
        } else {
            "connecting"
        };
        let lag = self
            .lag
            .map_or_else(String::new, |l| format!(" · lag {} ms", l.as_millis()));
        let title = format!("Online · {server}{who} · {state}{lag}");
        let status_rows = if area.height > 14 { 2 } else { 1 };
        let keys_rows = 1;
        let body_height = area.height.saturating_sub(1 + status_rows + keys_rows);
        Paragraph::new(Line::styled(title, look.theme.heading))
            .render(Rect { height: 1, ..area }, buf);
        if matches!(self.view, View::Lobby) {
            let body = Rect::new(area.x, area.y + 1, area.width, body_height);
            Themed {
                of: &self.lobby,
                look,
            }
            .render(body, buf);
        }
        let keys = Rect::new(area.x, area.y + 1 + body_height, area.width, keys_rows);
        let line = "Enter join/watch · c create · i code · x leave · r refresh · n/p pages · q quit \
                    · ? keys";
        Paragraph::new(fit_keys(line, usize::from(area.width), 1).join(" "))
            .style(look.theme.label)
            .render(keys, buf);
        let status_area = Rect::new(area.x, keys.bottom(), area.width, status_rows);
        let style = match self.status.as_ref().map(|s| s.tone) {
            Some(Tone::Error) => look.theme.error,
            _ => ratatui::style::Style::new(),
        };
        Paragraph::new(status.to_owned())
            .style(style)
            .wrap(Wrap { trim: true })
            .render(status_area, buf);
    }
}

/// The question whether to trust a server's key not met before, with its fingerprint.
fn trust_question(shown: Option<&str>) -> String {
    format!(
        "trust this new server's key? y/n (the one `brandubh serve` printed?) {}",
        escaped(shown.unwrap_or("?"), MESSAGE_CHARS)
    )
}

/// An offer in words.
const fn offer_text(offer: Offer) -> &'static str {
    match offer {
        Offer::Draw => "a draw",
        Offer::Takeback => "a takeback",
    }
}

/// Why the client gave up, in one line.
pub fn failure_text(e: &ClientError) -> String {
    escaped(&e.to_string(), MESSAGE_CHARS)
}
