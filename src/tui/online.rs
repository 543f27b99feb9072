//! Online play in the terminal game: a component over the app's one event channel. It asks
//! for a name the first time, shows the lobby, the create form and the online game (its
//! inner parts, in the files below), and talks to the server only through `NetRequest`s
//! (carried out by the runtime, which owns the [`Client`](crate::net::client::Client)):
//! every call ([`Online::update`], [`Online::on_net`], [`Online::tick`],
//! [`Online::on_report`]) returns what it asks of the world as effects, doing no I/O. What
//! the server says comes back as events ([`Online::on_net`]). The server is authoritative: a
//! move changes the board only when the server's `moved` comes.

pub mod assist;
mod board;
mod challenges;
mod club;
mod courtesy;
mod create;
mod details;
mod finished;
mod game;
mod helped;
mod lag;
mod lobby;
mod lobby_screen;
mod prompt;
mod server;
mod standings;
#[cfg(test)]
mod tests;
mod watched;
mod your_games;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Widget};

use self::assist::Assist;
use self::challenges::ChallengeList;
use self::club::Club;
use self::create::{CreateForm, CreateHandled};
use self::game::OnlineGame;
use self::lag::Lag;
use self::lobby::LobbyList;
use self::standings::{Standings, StandingsHandled};
use self::your_games::YourGames;
use super::component::{Context, JobIds};
use super::effect::Effect;
use super::help::Help;
use super::input::{Action, Mode};
use super::net_request::NetRequest;
use super::online_memory::OnlineMemory;
use super::text::{Status, Tone};
use super::theme::{Look, Themed};
use crate::ai::Report;
use crate::net::client::{ClientConfig, Event};
use crate::net::protocol::{ClientMessage, GameId, GameSetup, Offer};
use crate::quote::{MESSAGE_CHARS, escaped};

/// How often the lag is measured.
const PING_EVERY: Duration = Duration::from_secs(5);
/// How often the lobby is asked for again while it is on screen.
const LOBBY_EVERY: Duration = Duration::from_secs(5);

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
    /// A player to challenge once connected (`--challenge`), on the terms of `create`.
    pub challenge: Option<String>,
    /// The names muted on each server (`HOST:PORT`), as online play remembers them.
    pub muted: BTreeMap<String, BTreeSet<String>>,
}

/// What is typed at the bottom line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Prompt {
    Server,
    Name,
    Code,
    Chat,
    /// Whose profile to show.
    Profile,
    /// The name of a player to challenge.
    Challenge,
    /// A line of the lobby's chat.
    LobbyChat,
    /// A name to mute or hear again.
    Mute,
    /// A name to block or stop blocking.
    Block,
}

/// A question to the player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ask {
    /// Resign this game?
    Resign(GameId),
    /// Trust the key of a server not met before (its fingerprint in [`Online::unknown_key`])?
    Trust,
    /// Abort this game (no move of the player's yet)?
    Abort(GameId),
    /// Claim this game, the opponent gone past the return window (no: keep waiting)?
    Claim(GameId),
}

/// The screen online play shows.
#[derive(Clone, Debug)]
enum View {
    /// Asking for a server (from the new-game screen): those remembered, newest first, with
    /// the name on each.
    Server(OnlineMemory),
    /// Asking for a name, the first time.
    Name,
    /// The lobby.
    Lobby,
    /// The player's finished games (`g` in the lobby).
    YourGames,
    /// A game, by its number.
    Game(GameId),
}

/// Online play's state.
#[derive(Clone, Debug)]
pub struct Online {
    start: OnlineStart,
    view: View,
    lobby: LobbyList,
    /// Every game this client plays or watches.
    games: BTreeMap<GameId, OnlineGame>,
    /// The games that ended while the player was away, being saved, with what is said of
    /// each.
    away: BTreeMap<GameId, String>,
    /// A game the player waits to begin (created, or joined): shown when its state comes.
    awaited: Option<GameId>,
    /// A game whose state to show when it comes (watched).
    to_show: Option<GameId>,
    /// Joined by an invite code: the next game of the player's that begins is shown.
    join_by_code: bool,
    /// The game whose details were asked for, and whether for its invite code (else its
    /// players' keys).
    details_asked: Option<(GameId, bool)>,
    /// Just started, the player not having acted in the lobby or a game yet: a game of the
    /// player's in progress is shown as its state comes, the one where it is to move first.
    landing: bool,
    prompt: Option<(Prompt, String)>,
    /// Whether the prompt's text is a name offered, not typed yet: the first key typed
    /// replaces it, Backspace erases it whole ([`Online::offer_name`]).
    prompt_offered: bool,
    create: Option<CreateForm>,
    /// The leaderboard or a profile, over the lobby.
    standings: Option<Standings>,
    /// The game last created in this run: the create form starts from it.
    last_create: Option<GameSetup>,
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
    /// What the call being taken asks of the runtime: handed back as its effects when it
    /// returns ([`Online::effects`]), never left for another call.
    requests: Vec<NetRequest>,
    /// The warnings, the bell and the engine's help.
    assist: Assist,
    /// The challenges waiting, made and received.
    challenges: ChallengeList,
    /// The player the create form's terms are for (a challenge), while it is open.
    challenging: Option<String>,
    /// The lobby's chat, the players muted and blocked.
    club: Club,
    /// The player's finished games, and the one being opened in review.
    your_games: YourGames,
}

impl Online {
    /// Online play as `start` says, at `now`: connecting if the name is known, else asking
    /// for it.
    pub fn new(start: OnlineStart, now: Instant) -> Online {
        let mut online = Online {
            view: View::Name,
            lobby: LobbyList::default(),
            games: BTreeMap::new(),
            away: BTreeMap::new(),
            awaited: None,
            to_show: None,
            join_by_code: false,
            details_asked: None,
            landing: true,
            prompt: None,
            prompt_offered: false,
            create: None,
            standings: None,
            last_create: None,
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
            challenges: ChallengeList::default(),
            challenging: None,
            club: Club::default(),
            your_games: YourGames::default(),
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
    /// the name remembered for that server.
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
            challenge: None,
            muted: memory.muted.clone(),
        };
        let mut online = Online::new(start, now);
        let first = memory.servers.first().cloned().unwrap_or_default();
        online.view = View::Server(memory);
        online.prompt = Some((Prompt::Server, first));
        online.info("the server, HOST or HOST:PORT (↑↓ those played on), then Enter; Esc back");
        online
    }

    /// The save folder, if there is one.
    pub fn save_dir(&self) -> Option<PathBuf> {
        self.start.save_dir.clone()
    }

    /// Whether the player left online play.
    pub const fn is_closed(&self) -> bool {
        self.closed
    }

    /// Starts with these warnings, bell and engine help (the app's settings); returns what
    /// the start asks of the world (connecting, if the name is known).
    pub fn started(&mut self, assist: Assist, jobs: &JobIds) -> Vec<Effect> {
        self.assist = assist;
        self.effects(jobs)
    }

    /// What the call now ending asks of the world: its requests to the network and the
    /// storage thread, then its help's (searches numbered by `jobs`, a stop, the bell).
    fn effects(&mut self, jobs: &JobIds) -> Vec<Effect> {
        let mut effects: Vec<Effect> = self.requests.drain(..).map(Effect::Net).collect();
        effects.extend(self.assist.take_effects(|| jobs.next()));
        effects
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
        } else if self.create.as_ref().is_some_and(CreateForm::typing) || self.standings.is_some() {
            // The ratings screens read their keys as typed, as the lobby does.
            Mode::Text
        } else if self.help.is_some() || self.create.is_some() {
            Mode::Menu
        } else {
            match self.game() {
                Some(game) if game.board.typing.is_some() => Mode::Text,
                // The offer is answered with y or n; the board's keys work meanwhile.
                Some(_) if self.offer_to_answer().is_some() => Mode::BoardAsked,
                Some(_) => Mode::Board,
                // The lobby's keys are letters of its own, read as typed.
                None => Mode::Text,
            }
        }
    }

    /// The opponent's offer waiting for the player's answer in the game on screen.
    fn offer_to_answer(&self) -> Option<(GameId, Offer)> {
        let game = self.game()?;
        let (offer, by) = game.pending()?;
        let player = game.you()?;
        // A rematch is offered once the game is over.
        let open = game.outcome().is_none() || offer == Offer::Rematch;
        (by != player && open).then_some((game.id(), offer))
    }

    fn connect(&mut self, name: &str) {
        let start = &self.start;
        let mut config = ClientConfig::new(&start.server, Some(name), start.config_dir.clone());
        config.insecure = start.insecure;
        config.trust.clone_from(&self.unknown_key);
        // The finished games are saved by the storage thread, as every write
        // (`NetRequest::SaveFinished`), not by the client.
        self.lobby = LobbyList::new(name);
        let server = crate::net::client::with_port(&start.server);
        self.club = Club::muting(start.muted.get(&server).cloned().unwrap_or_default());
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

    /// Lets time pass until `cx.now`; returns what it asks of the world.
    pub fn tick(&mut self, cx: &Context) -> Vec<Effect> {
        self.pass_time(cx.now);
        self.effects(cx.jobs)
    }

    /// Lets time pass until `now`: measures the lag and refreshes the lobby now and then.
    fn pass_time(&mut self, now: Instant) {
        self.now = now;
        if !self.connected {
            return;
        }
        let due = |last: Option<Instant>, every| last.is_none_or(|at| now >= at + every);
        // One ping at a time: while one waits, the lag shown is how long it has waited.
        if self.ping.1.is_none() && due(self.last_ping, PING_EVERY) {
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
        // A ping waiting: the lag shown grows every second.
        let waiting = self.ping.1.map(|_| self.now + Duration::from_secs(1));
        let lobby = matches!(self.view, View::Lobby)
            .then(|| self.last_lobby.map(|at| at + LOBBY_EVERY))
            .flatten();
        [clock, ping, waiting, lobby].into_iter().flatten().min()
    }

    /// The lag shown: the last measured, or how long the ping sent since has waited.
    fn lag(&self) -> Option<Lag> {
        let waited = self
            .ping
            .1
            .map(|(_, sent)| self.now.saturating_duration_since(sent));
        Lag::of(self.lag, waited, PING_EVERY)
    }

    fn refresh(&mut self, now: Instant) {
        self.last_lobby = Some(now);
        let page = self.lobby.page();
        self.send(ClientMessage::Lobby { page });
    }

    /// Takes one action of the player; returns what it asks of the world.
    pub fn update(&mut self, action: Action, cx: &Context) -> Vec<Effect> {
        self.act(action, cx.size);
        self.effects(cx.jobs)
    }

    /// What the client reports, at `cx.now`; returns what it asks of the world.
    pub fn on_net(&mut self, event: Event, cx: &Context) -> Vec<Effect> {
        self.take_net(event, cx.now);
        self.effects(cx.jobs)
    }

    /// Takes a report of the engine worker at `cx.now`, if it is about one of online play's
    /// searches (else `None`); returns what it asks of the world.
    pub fn on_report(&mut self, report: &Report, cx: &Context) -> Option<Vec<Effect>> {
        self.take_report(report, cx.now)
            .then(|| self.effects(cx.jobs))
    }

    /// Takes one action of the player on a screen of `size`.
    fn act(&mut self, action: Action, size: Rect) {
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
        if let Some(mut screen) = self.standings.take() {
            match screen.update(action) {
                StandingsHandled::Stay => self.standings = Some(screen),
                StandingsHandled::Ask(ask) => {
                    self.standings = Some(screen);
                    self.send(ask);
                }
                StandingsHandled::Close => {}
            }
            return;
        }
        if let Some(mut form) = self.create.take() {
            match form.update(action) {
                CreateHandled::Stay => self.create = Some(form),
                CreateHandled::BadClock(why) => {
                    self.create = Some(form);
                    self.error(&why);
                }
                CreateHandled::Cancel => {
                    self.challenging = None;
                    self.status = None;
                }
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
            View::YourGames => self.update_your_games(action),
            View::Game(id) => self.update_game(id, action, size),
        }
    }

    /// Draws online play over `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        Clear.render(area, buf);
        let status = self.status_text();
        match self.view {
            View::Game(id) if self.games.contains_key(&id) => {
                let game = &self.games[&id];
                game.render(area, buf, look, self.now, self.lag(), &status, &self.assist);
            }
            _ => self.render_lobby(area, buf, look, &status),
        }
        if let Some(form) = &self.create {
            Themed { of: form, look }.render(area, buf);
        }
        if let Some(screen) = &self.standings {
            screen.render(area, buf, look);
        }
        if let Some(help) = &self.help {
            help.view(look).render(area, buf);
        }
    }
}
