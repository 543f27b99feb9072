//! The server's one owner of all state: connections, games, clocks and the database. It runs
//! on its own thread and handles one event at a time, so a move is validated, stored and
//! relayed in order. Connections and timers send it [`Event`]s.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::conn_id::ConnId;
use super::event::Event;
use super::limits::Limits;
use super::names::NameClaims;
use super::outbox::Outbox;
use super::reader::{Ask, Read, Readers};
use super::store::{Seat, Stage, Store, StoredGame, Unreadable};
use super::timing::{control, millis};
use crate::game::{Clocks, Game};
use crate::net::identity::{self, ChannelBinding};
use crate::net::protocol::{
    Channel, ClientMessage, ClockView, ErrorCode, GameId, GameSetup, GameSummary, GameView,
    LOBBY_PAGE, LOBBY_PLAYERS, Lobby, Offer, ServerMessage, SideChoice, Timing, check_chat, pages,
};
use crate::rules::{Move, Side, position_record};

/// How long a game's end that could not be stored (a timer's: a flag, an absence) waits
/// before it is tried again.
const RETRY_STORE: Duration = Duration::from_secs(1);

struct Conn {
    out: Outbox,
    /// Signalled to cut the connection off: its task ends at once, socket and queue freed.
    hangup: Option<oneshot::Sender<()>>,
    /// The last request answered that may be asked again (a lobby or archive page), and
    /// whether its answer is still queued: asked again meanwhile, it is not answered twice.
    last_answer: Option<(ClientMessage, Arc<AtomicBool>)>,
    nonce: String,
    binding: ChannelBinding,
    ip: IpAddr,
    seat: Option<Seat>,
    lag: Duration,
    watching: HashSet<GameId>,
}

/// A game not over, in memory.
struct Live {
    stored: StoredGame,
    turn_start: Instant,
    turn: u64,
    pending: Option<(Offer, Side)>,
    spectators: HashSet<ConnId>,
    /// For each side (attackers first), when its player, gone, must be back by.
    return_by: [Option<Instant>; 2],
}

impl Live {
    /// `stored`, its turn starting now, with no offer pending and no one watching.
    fn new(stored: StoredGame) -> Live {
        Live {
            stored,
            turn_start: Instant::now(),
            turn: 0,
            pending: None,
            spectators: HashSet::new(),
            return_by: [None; 2],
        }
    }

    /// Whether a player who leaves this game has a deadline to come back: a game in
    /// progress on a clock (a correspondence game has none: it may be left for days).
    fn has_return_window(&self) -> bool {
        self.stored.stage == Stage::Playing
            && matches!(self.stored.setup.timing, Timing::Clock { .. })
    }

    /// When `side`'s player, gone, must be back by.
    fn return_by(&mut self, side: Side) -> &mut Option<Instant> {
        &mut self.return_by[match side {
            Side::Attackers => 0,
            Side::Defenders => 1,
        }]
    }
}

/// The hub's state.
pub(super) struct Hub {
    store: Store,
    limits: Limits,
    conns: HashMap<ConnId, Conn>,
    games: HashMap<GameId, Live>,
    runtime: tokio::runtime::Handle,
    timers: mpsc::WeakUnboundedSender<Event>,
    name_claims: NameClaims,
    /// The threads that read the archive and finished games, beside the hub.
    readers: Readers,
    /// The game the work under way concerns, once known: the one set aside if it panics.
    busy_with: Option<GameId>,
    /// A game whose next message panics, for tests of the setting aside.
    #[cfg(test)]
    panic_in: Option<GameId>,
}

/// A refused request: the error's code and words.
struct Refusal(ErrorCode, String);

type Reply = Result<(), Refusal>;

fn refuse(code: ErrorCode, message: impl Into<String>) -> Reply {
    Err(refusal(code, message))
}

fn refusal(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal(code, message.into())
}

impl Hub {
    /// The hub over `store`, every unfinished game resumed with its clocks as they stood
    /// (the time the server was down is not charged: each turn starts again now); a game
    /// that cannot be read back or resumed is set aside.
    pub fn new(
        store: Store,
        limits: Limits,
        runtime: tokio::runtime::Handle,
        timers: mpsc::WeakUnboundedSender<Event>,
    ) -> Result<Hub, Box<dyn std::error::Error + Send + Sync>> {
        let readers = Readers::start(store.file(), &timers)?;
        let mut hub = Hub {
            store,
            limits,
            conns: HashMap::new(),
            games: HashMap::new(),
            runtime,
            timers,
            name_claims: NameClaims::default(),
            readers,
            busy_with: None,
            #[cfg(test)]
            panic_in: None,
        };
        for stored in hub.store.unfinished()? {
            match stored {
                Ok(stored) => {
                    hub.busy_with = Some(stored.id);
                    hub.guarded(|hub| hub.resume(stored));
                }
                Err(Unreadable { id, why }) => hub.set_aside(id, &why),
            }
        }
        Ok(hub)
    }

    /// Puts a stored game back in play.
    fn resume(&mut self, stored: StoredGame) {
        let id = stored.id;
        let playing = stored.stage == Stage::Playing;
        self.games.insert(id, Live::new(stored));
        if playing {
            self.schedule_flag(id);
            // Nobody is connected yet: each player has the whole window again.
            for side in [Side::Attackers, Side::Defenders] {
                self.start_return_window(id, side);
            }
        }
    }

    /// Handles one event. A panic while handling it sets aside the game it concerns (the
    /// others go on).
    pub fn handle(&mut self, event: Event) {
        self.busy_with = event.game();
        self.guarded(|hub| hub.dispatch(event));
    }

    /// Does `work`; if it panics, the game it concerns ([`Hub::busy_with`]) is set aside.
    fn guarded(&mut self, work: impl FnOnce(&mut Hub)) {
        let done = catch_unwind(AssertUnwindSafe(|| work(self)));
        let game = self.busy_with.take();
        let Err(panic) = done else {
            return;
        };
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        if let Some(game) = game {
            self.set_aside(game, &format!("a fault: {what}"));
        } else {
            tracing::error!("a fault outside any game, which goes on: {what}");
        }
    }

    /// Sets `game` aside: logged, stored as such, out of memory, its players and spectators
    /// told.
    fn set_aside(&mut self, game: GameId, why: &str) {
        tracing::error!("game {game} set aside: {why}");
        if let Err(e) = self.store.set_aside(game) {
            tracing::error!("cannot store that game {game} is set aside: {e}");
        }
        let told = self.watchers(game);
        self.forget(game);
        let notice = ServerMessage::error(
            ErrorCode::NoGame,
            format!("game {game} met a fault on the server and is set aside"),
        );
        for conn in told {
            self.send(conn, &notice);
        }
    }

    /// Drops a game from memory, and from its spectators' lists.
    fn forget(&mut self, game: GameId) {
        if let Some(live) = self.games.remove(&game) {
            for conn in live.spectators {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.watching.remove(&game);
                }
            }
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Connected {
                conn,
                out,
                hangup,
                binding,
                ip,
            } => {
                let nonce = hex::encode(rand::random::<[u8; 32]>());
                let challenge = ServerMessage::Challenge {
                    nonce: nonce.clone(),
                };
                self.conns.insert(
                    conn,
                    Conn {
                        out,
                        hangup: Some(hangup),
                        last_answer: None,
                        nonce,
                        binding,
                        ip,
                        seat: None,
                        lag: Duration::ZERO,
                        watching: HashSet::new(),
                    },
                );
                self.send(conn, &challenge);
            }
            Event::Message { conn, message } => {
                if let Err(Refusal(code, message)) = self.message(conn, message) {
                    super::log::refused(conn, "request refused", &(code, &message));
                    self.send(conn, &ServerMessage::error(code, message));
                }
            }
            Event::Lag { conn, round_trip } => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.lag = round_trip / 2;
                }
            }
            Event::Disconnected { conn } => self.disconnected(conn),
            Event::Cut { conn } => self.cut(conn),
            Event::FlagCheck { game, turn } => self.flag_check(game, turn),
            Event::ReturnCheck { game, side } => self.return_check(game, side),
            // The hub's loop ends on it, with `go_down`.
            Event::GoingDown => {}
        }
    }

    /// The server stops: every connection is told so and closed, and the database closed
    /// whole (every move is committed as it is played: nothing is left to write).
    pub fn go_down(self) {
        tracing::info!(
            connections = self.conns.len(),
            games = self.games.len(),
            "telling every connection the server is going down"
        );
        for c in self.conns.values() {
            let _ = c.out.send(&ServerMessage::GoingDown);
            c.out.close();
        }
        self.readers.stop();
        self.store.close();
    }

    fn message(&mut self, conn: ConnId, message: ClientMessage) -> Reply {
        match message {
            ClientMessage::Hello { .. } => refuse(ErrorCode::NotNow, "hello was already said"),
            ClientMessage::Identify {
                name,
                key,
                signature,
            } => self.identify(conn, &name, &key, &signature),
            ClientMessage::Ping { id } => {
                self.send(conn, &ServerMessage::Pong { id });
                Ok(())
            }
            ClientMessage::Pong { .. } => Ok(()),
            ClientMessage::Download { game } => self.read(conn, Ask::Download { game }, None),
            other => {
                let Some(seat) = self.conns.get(&conn).and_then(|c| c.seat.clone()) else {
                    return refuse(ErrorCode::NotNow, "identify first");
                };
                self.player_message(conn, &seat, other)
            }
        }
    }

    fn player_message(&mut self, conn: ConnId, seat: &Seat, message: ClientMessage) -> Reply {
        #[cfg(test)]
        assert!(
            self.panic_in.is_none() || self.panic_in != self.busy_with,
            "a panic for the test"
        );
        if self.still_queued(conn, &message) {
            return Ok(());
        }
        match message {
            ClientMessage::Lobby { page } => {
                let lobby = self.lobby(&seat.key, page);
                self.send_answer(conn, message, &ServerMessage::Lobby(lobby));
                Ok(())
            }
            ClientMessage::Archive { ref name, page } => {
                let ask = Ask::Archive {
                    name: name.clone(),
                    page,
                };
                self.read(conn, ask, Some(message))
            }
            ClientMessage::Create(setup) => self.create(conn, seat, setup),
            ClientMessage::Join { game, code } => self.join(seat, game, code.as_deref()),
            ClientMessage::Watch { game } => self.watch(conn, seat, game),
            ClientMessage::Leave { game } => self.leave(conn, seat, game),
            ClientMessage::Move { game, ply, mv } => self.play(seat, game, ply, &mv),
            ClientMessage::Offer { game, offer } => self.offer(seat, game, offer),
            ClientMessage::Answer {
                game,
                offer,
                accept,
            } => self.answer(seat, game, offer, accept),
            ClientMessage::Resign { game } => {
                let (live, side) = my_game(&mut self.games, seat, game)?;
                let mut record = live.stored.game.clone();
                let _ = record.resign(side);
                self.finish(game, record)
            }
            ClientMessage::Chat { game, text } => self.chat(conn, seat, game, &text),
            _ => refuse(ErrorCode::NotNow, "not now"),
        }
    }

    fn identify(&mut self, conn: ConnId, name: &str, key: &str, signature: &str) -> Reply {
        let Some(c) = self.conns.get(&conn) else {
            return Ok(());
        };
        if c.seat.is_some() {
            return refuse(ErrorCode::NotNow, "already identified");
        }
        if !identity::verify(key, &c.nonce, &c.binding, signature) {
            return refuse(
                ErrorCode::BadSignature,
                "the signature does not prove the key",
            );
        }
        let ip = c.ip;
        let name = self
            .name_claims
            .claim(&self.limits, (ip, key), name, |claim| {
                self.store.claim_name(claim)
            })
            .map_err(|e| store_error(&e))?
            .map_err(|why| refusal(ErrorCode::BadName, why))?;
        let seat = Seat {
            key: key.to_owned(),
            name: name.clone(),
        };
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(seat.clone());
        }
        super::log::identified(conn, &name);
        self.send(conn, &ServerMessage::Welcome { name });
        // Every game the player is in, and the news to the opponents.
        let mine: Vec<(GameId, Option<Side>)> = self
            .games
            .values()
            .filter(|live| {
                live.stored.creator.key == seat.key || live.stored.side_of(&seat.key).is_some()
            })
            .map(|live| (live.stored.id, live.stored.side_of(&seat.key)))
            .collect();
        for (game, side) in mine {
            self.busy_with = Some(game);
            self.send_state(conn, game);
            if let Some(side) = side {
                let presence = ServerMessage::Presence {
                    game,
                    side,
                    connected: true,
                    return_ms: None,
                };
                self.broadcast_except(game, conn, &presence);
                self.returned(conn, game, side);
            }
        }
        Ok(())
    }

    /// Page `page` of the lobby as `key`'s player sees it (the last page if there are
    /// fewer): its own games (its move first, then the others in progress, then the open
    /// ones it waits in), a page of the open games of others and one of their games in
    /// progress, each list counted.
    fn lobby(&self, key: &str, page: u32) -> Lobby {
        let mut mine = Vec::new();
        let mut open = Vec::new();
        let mut playing = Vec::new();
        for live in self.games.values() {
            let stored = &live.stored;
            match (stored.stage, stored.side_of(key)) {
                (Stage::Playing, Some(side)) => {
                    let to_move = stored.game.state().position().side_to_move();
                    mine.push((u8::from(side != to_move), stored));
                }
                (Stage::Playing, None) => playing.push(stored),
                (Stage::Open, _) if stored.creator.key == key => mine.push((2, stored)),
                (Stage::Open, _) if !stored.setup.private => open.push(stored),
                _ => {}
            }
        }
        mine.sort_by_key(|(rank, g)| (*rank, g.id));
        let mut players: Vec<&str> = self
            .conns
            .values()
            .filter_map(|c| c.seat.as_ref().map(|s| s.name.as_str()))
            .collect();
        players.sort_unstable();
        players.dedup();
        let page = page.min(pages(open.len().max(playing.len()), LOBBY_PAGE) - 1);
        Lobby {
            mine: mine
                .iter()
                .take(LOBBY_PAGE)
                .map(|(_, g)| g.summary())
                .collect(),
            mine_total: mine.len(),
            open_total: open.len(),
            open: page_of(open, page),
            playing_total: playing.len(),
            playing: page_of(playing, page),
            page,
            players_total: players.len(),
            players: players
                .into_iter()
                .take(LOBBY_PLAYERS)
                .map(str::to_owned)
                .collect(),
        }
    }

    fn create(&mut self, conn: ConnId, seat: &Seat, setup: GameSetup) -> Reply {
        if control(setup.timing).is_none() && setup.timing != Timing::default() {
            return refuse(
                ErrorCode::Refused,
                format!(
                    "a correspondence game has 1 to {} days per move",
                    crate::net::protocol::MAX_CORRESPONDENCE_DAYS
                ),
            );
        }
        let waiting = self
            .games
            .values()
            .filter(|l| l.stored.stage == Stage::Open && l.stored.creator.key == seat.key)
            .count();
        if waiting >= self.limits.open_games_per_player {
            return refuse(ErrorCode::Refused, "too many open games: leave one first");
        }
        let code = setup
            .private
            .then(|| hex::encode(rand::random::<[u8; 6]>()));
        let game = super::store::rebuild(&setup, &[], None, None)
            .map_err(|e| refusal(ErrorCode::Refused, e))?;
        let id = self
            .store
            .create(&setup, seat, code.as_deref())
            .map_err(|e| store_error(&e))?;
        let stored = StoredGame {
            id,
            game,
            setup,
            creator: seat.clone(),
            code: code.clone(),
            attackers: None,
            defenders: None,
            stage: Stage::Open,
        };
        let summary = stored.summary();
        super::log::game_created(id, &seat.name);
        self.games.insert(id, Live::new(stored));
        self.send(
            conn,
            &ServerMessage::Created {
                game: summary,
                code,
            },
        );
        Ok(())
    }

    fn join(&mut self, seat: &Seat, game: Option<GameId>, code: Option<&str>) -> Reply {
        let found = self.games.values_mut().find(|live| {
            live.stored.stage == Stage::Open
                && match (game, code) {
                    (_, Some(code)) => live.stored.code.as_deref() == Some(code),
                    (Some(id), None) => live.stored.id == id && !live.stored.setup.private,
                    (None, None) => false,
                }
        });
        let Some(live) = found else {
            return refuse(ErrorCode::NoGame, "no such open game");
        };
        if live.stored.creator.key == seat.key {
            return refuse(
                ErrorCode::Refused,
                "you created this game: wait for an opponent",
            );
        }
        let id = live.stored.id;
        self.busy_with = Some(id);
        let creator_side = match live.stored.setup.side {
            SideChoice::Random if rand::random::<bool>() => Side::Attackers,
            SideChoice::Attackers => Side::Attackers,
            SideChoice::Defenders | SideChoice::Random => Side::Defenders,
        };
        let creator = Some(live.stored.creator.clone());
        let joiner = Some(seat.clone());
        let mut started = live.stored.clone();
        (started.attackers, started.defenders) = match creator_side {
            Side::Attackers => (creator, joiner),
            Side::Defenders => (joiner, creator),
        };
        started.stage = Stage::Playing;
        self.store.start(&started).map_err(|e| store_error(&e))?;
        live.stored = started;
        live.turn_start = Instant::now();
        live.turn += 1;
        super::log::game_begun(&live.stored);
        self.schedule_flag(id);
        for conn in self.player_conns(id) {
            self.send_state(conn, id);
        }
        Ok(())
    }

    fn watch(&mut self, conn: ConnId, seat: &Seat, game: GameId) -> Reply {
        // A private game is known by its code until it begins: only its creator sees it.
        let hidden = |live: &&mut Live| {
            let stored = &live.stored;
            stored.stage == Stage::Open && stored.setup.private && stored.creator.key != seat.key
        };
        let Some(live) = self.games.get_mut(&game).filter(|live| !hidden(live)) else {
            return refuse(ErrorCode::NoGame, format!("no game {game} to watch"));
        };
        live.spectators.insert(conn);
        if let Some(c) = self.conns.get_mut(&conn) {
            c.watching.insert(game);
        }
        self.send_state(conn, game);
        Ok(())
    }

    fn leave(&mut self, conn: ConnId, seat: &Seat, game: GameId) -> Reply {
        let Some(live) = self.games.get_mut(&game) else {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        };
        if live.spectators.remove(&conn) {
            if let Some(c) = self.conns.get_mut(&conn) {
                c.watching.remove(&game);
            }
            return Ok(());
        }
        if live.stored.stage == Stage::Open && live.stored.creator.key == seat.key {
            self.store.withdraw(game).map_err(|e| store_error(&e))?;
            self.forget(game);
            return Ok(());
        }
        if live.stored.side_of(&seat.key).is_some() {
            return refuse(
                ErrorCode::Refused,
                "a game in progress is left by resigning",
            );
        }
        refuse(
            ErrorCode::NoGame,
            format!("you neither play in nor watch game {game}"),
        )
    }

    fn play(&mut self, seat: &Seat, game: GameId, ply: usize, text: &str) -> Reply {
        // The mover's clock runs for the turn, less its measured lag (up to a bound).
        let credit = self.lag_of(&seat.key).min(self.limits.max_lag_credit);
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let record = &live.stored.game;
        if record.state().position().side_to_move() != side {
            return refuse(ErrorCode::BadMove, "it is not your turn");
        }
        if ply != record.moves().len() {
            return refuse(
                ErrorCode::BadMove,
                format!("stale move: {} moves are played", record.moves().len()),
            );
        }
        let mv: Move = text.parse().map_err(|e| bad_move(&e))?;
        record.state().check_move(mv).map_err(|e| bad_move(&e))?;
        // Played on a copy, stored, then applied: a move not stored is not played.
        let mut next = record.clone();
        if next.spend_time(live.turn_start.elapsed().saturating_sub(credit)) {
            return self.finish(game, next);
        }
        let done = next.play(mv).map_err(|e| bad_move(&e))?;
        let clocks = next.clocks().copied();
        let mv = done.to_string();
        let outcome = next.outcome();
        self.store
            .add_move(game, ply, &mv, clocks.as_ref(), outcome)
            .map_err(|e| store_error(&e))?;
        live.stored.game = next;
        live.turn_start = Instant::now();
        live.turn += 1;
        live.pending = None;
        let moved = ServerMessage::Moved {
            game,
            ply,
            mv,
            clocks: clocks.map(|clocks| ClockView {
                clocks,
                running: Some(side.opponent()),
            }),
        };
        self.broadcast(game, &moved);
        match outcome {
            Some(outcome) => self.ended(game, outcome),
            None => self.schedule_flag(game),
        }
        Ok(())
    }

    fn offer(&mut self, seat: &Seat, game: GameId, offer: Offer) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        if live.pending.is_some() {
            return refuse(ErrorCode::Refused, "an offer is already waiting");
        }
        if offer == Offer::Takeback && takeback_plies(live, side) == 0 {
            return refuse(ErrorCode::Refused, "no move of yours to take back");
        }
        live.pending = Some((offer, side));
        self.broadcast(
            game,
            &ServerMessage::Offered {
                game,
                offer,
                by: side,
            },
        );
        Ok(())
    }

    fn answer(&mut self, seat: &Seat, game: GameId, offer: Offer, accept: bool) -> Reply {
        let (live, side) = my_game(&mut self.games, seat, game)?;
        let Some((pending, by)) = live.pending.filter(|&(o, by)| o == offer && by != side) else {
            return refuse(ErrorCode::Refused, "no such offer from your opponent");
        };
        if !accept {
            live.pending = None;
            self.broadcast(game, &ServerMessage::Declined { game, offer });
            return Ok(());
        }
        let mut record = live.stored.game.clone();
        match pending {
            Offer::Draw => {
                let _ = record.agree_draw();
                self.finish(game, record)?;
            }
            Offer::Takeback => {
                for _ in 0..takeback_plies(live, by) {
                    record.undo();
                }
                let clocks = record.clocks().copied();
                let ply = record.moves().len();
                self.store
                    .take_back(game, ply, clocks.as_ref())
                    .map_err(|e| store_error(&e))?;
                live.stored.game = record;
                live.pending = None;
                live.turn_start = Instant::now();
                live.turn += 1;
                self.schedule_flag(game);
                for conn in self.watchers(game) {
                    self.send_state(conn, game);
                }
            }
        }
        Ok(())
    }

    fn chat(&mut self, conn: ConnId, seat: &Seat, game: GameId, text: &str) -> Reply {
        check_chat(text)
            .map_err(|e| refusal(ErrorCode::BadMessage, format!("the chat line {e}")))?;
        let Some(live) = self.games.get(&game) else {
            return refuse(ErrorCode::NoGame, format!("no game {game}"));
        };
        let channel = if live.stored.side_of(&seat.key).is_some() {
            Channel::Players
        } else if live.spectators.contains(&conn) {
            Channel::Spectators
        } else {
            return refuse(ErrorCode::NoGame, "watch the game to chat in it");
        };
        let said = ServerMessage::Chat {
            game,
            from: seat.name.clone(),
            channel,
            text: text.to_owned(),
        };
        // The players' chat is seen by all; the spectators' by spectators only.
        let to: Vec<ConnId> = match channel {
            Channel::Players => self.watchers(game),
            Channel::Spectators => live.spectators.iter().copied().collect(),
        };
        for conn in to {
            self.send(conn, &said);
        }
        Ok(())
    }

    /// Ends a game with `record`, its record with the outcome: stored first, then in
    /// memory, told, and out of memory. A failed write leaves the game as it was.
    fn finish(&mut self, game: GameId, record: Game) -> Reply {
        let Some(outcome) = record.outcome() else {
            return Ok(());
        };
        self.store
            .finish(game, outcome, record.clocks())
            .map_err(|e| store_error(&e))?;
        super::log::game_ended(game, outcome);
        if let Some(live) = self.games.get_mut(&game) {
            live.stored.game = record;
        }
        self.ended(game, outcome);
        Ok(())
    }

    /// A game's end, stored: told, and the game out of memory.
    fn ended(&mut self, game: GameId, outcome: crate::rules::Outcome) {
        self.broadcast(game, &ServerMessage::Result { game, outcome });
        self.forget(game);
    }

    /// Asks to be told when the side to move's time could run out.
    fn schedule_flag(&self, game: GameId) {
        let Some(live) = self.games.get(&game) else {
            return;
        };
        let Some(clocks) = live.stored.game.clocks() else {
            return;
        };
        let side = live.stored.game.state().position().side_to_move();
        let mut running = *clocks;
        running.spend(side, live.turn_start.elapsed());
        let wait = left_in_all(&running, side).saturating_add(self.limits.max_lag_credit);
        let turn = live.turn;
        let Some(timers) = self.timers.upgrade() else {
            return;
        };
        self.runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = timers.send(Event::FlagCheck { game, turn });
        });
    }

    fn flag_check(&mut self, game: GameId, turn: u64) {
        if self.games.get(&game).is_some_and(|l| l.turn == turn) && !self.flag_fell(game) {
            self.schedule_flag(game);
        }
    }

    /// Ends `game` on time if the clock of the side to move has run out; returns whether it
    /// did (not if the end could not be stored: the next check tries again).
    fn flag_fell(&mut self, game: GameId) -> bool {
        let Some(live) = self.games.get(&game) else {
            return false;
        };
        let side = live.stored.game.state().position().side_to_move();
        let elapsed = self.turn_time(live);
        let Some(clocks) = live.stored.game.clocks() else {
            return false;
        };
        let mut running = *clocks;
        if !running.spend(side, elapsed) {
            return false;
        }
        let mut record = live.stored.game.clone();
        record.spend_time(elapsed);
        self.finish(game, record).is_ok()
    }

    fn disconnected(&mut self, conn: ConnId) {
        let Some(gone) = self.conns.remove(&conn) else {
            return;
        };
        for game in &gone.watching {
            if let Some(live) = self.games.get_mut(game) {
                live.spectators.remove(&conn);
            }
        }
        let Some(seat) = gone.seat else {
            return;
        };
        let still_here = self
            .conns
            .values()
            .any(|c| c.seat.as_ref().is_some_and(|s| s.key == seat.key));
        if still_here {
            return;
        }
        let games: Vec<(GameId, Side)> = self
            .games
            .values()
            .filter(|l| l.stored.stage == Stage::Playing)
            .filter_map(|l| l.stored.side_of(&seat.key).map(|side| (l.stored.id, side)))
            .collect();
        for (game, side) in games {
            self.busy_with = Some(game);
            self.start_return_window(game, side);
            let presence = self.absence(game, side);
            self.broadcast(game, &presence);
        }
    }

    /// `side`'s player is gone from `game`: on a clock, its window to come back starts.
    fn start_return_window(&mut self, game: GameId, side: Side) {
        let window = self.limits.return_window;
        let Some(live) = self.games.get_mut(&game).filter(|l| l.has_return_window()) else {
            return;
        };
        // A window past what the system's clock can count is none.
        let Some(by) = Instant::now().checked_add(window) else {
            return;
        };
        *live.return_by(side) = Some(by);
        self.schedule_return_check(game, side, window);
    }

    fn schedule_return_check(&self, game: GameId, side: Side, wait: Duration) {
        let Some(timers) = self.timers.upgrade() else {
            return;
        };
        self.runtime.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = timers.send(Event::ReturnCheck { game, side });
        });
    }

    /// The news that `side`'s player is gone from `game`, with the time left to come back.
    fn absence(&mut self, game: GameId, side: Side) -> ServerMessage {
        let return_ms = self
            .games
            .get_mut(&game)
            .and_then(|live| *live.return_by(side))
            .map(|by| millis(by.saturating_duration_since(Instant::now())));
        ServerMessage::Presence {
            game,
            side,
            connected: false,
            return_ms,
        }
    }

    /// `side`'s player came back to `game` on `conn`: its window closes, it hears of an
    /// opponent still gone, and an opponent whose window ran out meanwhile loses.
    fn returned(&mut self, conn: ConnId, game: GameId, side: Side) {
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        *live.return_by(side) = None;
        let opponent = side.opponent();
        let Some(by) = *live.return_by(opponent) else {
            return;
        };
        if by <= Instant::now() {
            self.abandoned(game, opponent);
        } else {
            let presence = self.absence(game, opponent);
            self.send(conn, &presence);
        }
    }

    /// The window of `side`'s player in `game` may have run out: the game is lost for it,
    /// unless its flag fell first, or its opponent is gone too (then it is lost when the
    /// opponent comes back).
    fn return_check(&mut self, game: GameId, side: Side) {
        let Some(live) = self.games.get_mut(&game) else {
            return;
        };
        let Some(by) = *live.return_by(side) else {
            return;
        };
        let now = Instant::now();
        if by > now {
            // Early, or a later absence: checked again when it runs out.
            self.schedule_return_check(game, side, by - now);
            return;
        }
        if live.return_by(side.opponent()).is_some() {
            return;
        }
        self.abandoned(game, side);
    }

    /// Ends `game` as lost by `side`, who left and did not return (or on time, had its flag
    /// fallen first). An end that cannot be stored is tried again a little later.
    fn abandoned(&mut self, game: GameId, side: Side) {
        if self.flag_fell(game) {
            return;
        }
        let Some(live) = self.games.get(&game) else {
            return;
        };
        // The clocks as they stand when the game ends, in the archive and the saves.
        let mut record = live.stored.game.clone();
        record.spend_time(self.turn_time(live));
        let _ = record.abandon(side);
        if self.finish(game, record).is_err() {
            self.schedule_return_check(game, side, RETRY_STORE);
        }
    }

    /// The time the side to move has used in this turn, less its measured lag (up to a
    /// bound).
    fn turn_time(&self, live: &Live) -> Duration {
        let side = live.stored.game.state().position().side_to_move();
        let credit = live
            .stored
            .seat(side)
            .map_or(Duration::ZERO, |seat| self.lag_of(&seat.key))
            .min(self.limits.max_lag_credit);
        live.turn_start.elapsed().saturating_sub(credit)
    }

    /// The measured one-way lag of `key`'s connection (the least of its connections').
    fn lag_of(&self, key: &str) -> Duration {
        self.conns
            .values()
            .filter(|c| c.seat.as_ref().is_some_and(|s| s.key == key))
            .map(|c| c.lag)
            .min()
            .unwrap_or_default()
    }

    /// The connections of a game's players (and of an open game's creator).
    fn player_conns(&self, game: GameId) -> Vec<ConnId> {
        let Some(live) = self.games.get(&game) else {
            return Vec::new();
        };
        let keys: Vec<&str> = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter_map(|side| live.stored.seat(side).map(|s| s.key.as_str()))
            .chain([live.stored.creator.key.as_str()])
            .collect();
        self.conns
            .iter()
            .filter(|(_, c)| {
                c.seat
                    .as_ref()
                    .is_some_and(|s| keys.contains(&s.key.as_str()))
            })
            .map(|(&id, _)| id)
            .collect()
    }

    /// The connections of a game's players and spectators.
    fn watchers(&self, game: GameId) -> Vec<ConnId> {
        let mut conns = self.player_conns(game);
        if let Some(live) = self.games.get(&game) {
            conns.extend(
                live.spectators
                    .iter()
                    .filter(|c| !conns.contains(c))
                    .collect::<Vec<_>>(),
            );
        }
        conns
    }

    fn broadcast(&mut self, game: GameId, message: &ServerMessage) {
        for conn in self.watchers(game) {
            self.send(conn, message);
        }
    }

    fn broadcast_except(&mut self, game: GameId, except: ConnId, message: &ServerMessage) {
        for conn in self.watchers(game) {
            if conn != except {
                self.send(conn, message);
            }
        }
    }

    /// Sends a game's whole state to a connection.
    fn send_state(&mut self, conn: ConnId, game: GameId) {
        let (Some(live), Some(c)) = (self.games.get(&game), self.conns.get(&conn)) else {
            return;
        };
        let you = c.seat.as_ref().and_then(|s| live.stored.side_of(&s.key));
        let record = &live.stored.game;
        let position = record.state().position();
        let to_move = position.side_to_move();
        let clocks = record.clocks().map(|clocks| {
            let mut running = *clocks;
            if live.stored.stage == Stage::Playing {
                running.spend(to_move, live.turn_start.elapsed());
            }
            ClockView {
                clocks: running,
                running: (live.stored.stage == Stage::Playing).then_some(to_move),
            }
        });
        let view = GameView {
            summary: live.stored.summary(),
            start: position_record(record.state().start_position()),
            position: position_record(position),
            to_move,
            moves: record.moves().iter().map(ToString::to_string).collect(),
            clocks,
            you,
            pending: live.pending,
        };
        self.send(conn, &ServerMessage::State(Box::new(view)));
    }

    /// Sends a message to a connection; one whose queue is full reads too slowly and is
    /// cut off.
    fn send(&mut self, conn: ConnId, message: &ServerMessage) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.out.send(message).is_err() {
            self.cut(conn);
        }
    }

    /// Cuts off a connection that reads too slowly: its task ends at once.
    fn cut(&mut self, conn: ConnId) {
        if let Some(hangup) = self.conns.get_mut(&conn).and_then(|c| c.hangup.take()) {
            let _ = hangup.send(());
        }
        self.disconnected(conn);
    }

    /// Whether the answer to `request`, asked again by `conn`, is still queued for it (then
    /// it is neither worked out nor queued again).
    fn still_queued(&self, conn: ConnId, request: &ClientMessage) -> bool {
        self.conns
            .get(&conn)
            .and_then(|c| c.last_answer.as_ref())
            .is_some_and(|(asked, queued)| asked == request && queued.load(Ordering::Acquire))
    }

    /// Sends `reply`, the answer to `request`, remembered until it leaves the queue; a
    /// connection whose queue is full is cut off.
    fn send_answer(&mut self, conn: ConnId, request: ClientMessage, reply: &ServerMessage) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        let queued = Arc::new(AtomicBool::new(true));
        match c.out.send_flagged(reply, &queued) {
            Ok(()) => c.last_answer = Some((request, queued)),
            Err(_) => self.cut(conn),
        }
    }

    /// Hands `ask` to the readers, which answer `conn` themselves; `request`, if given, is
    /// remembered as [`Hub::send_answer`] does, from now until its answer leaves the queue.
    /// Refused with `not_now` when as many reads as may be are in flight.
    fn read(&mut self, conn: ConnId, ask: Ask, request: Option<ClientMessage>) -> Reply {
        let Some(c) = self.conns.get_mut(&conn) else {
            return Ok(());
        };
        let queued = request.as_ref().map(|_| Arc::new(AtomicBool::new(true)));
        let read = Read {
            conn,
            ask,
            out: c.out.clone(),
            queued: queued.clone(),
        };
        if self.readers.read(read).is_err() {
            return refuse(
                ErrorCode::NotNow,
                "the server is busy: ask again in a moment",
            );
        }
        if let (Some(request), Some(queued)) = (request, queued) {
            c.last_answer = Some((request, queued));
        }
        Ok(())
    }
}

/// Page `page` of `games`, in the order they were made.
fn page_of(mut games: Vec<&StoredGame>, page: u32) -> Vec<GameSummary> {
    games.sort_unstable_by_key(|g| g.id);
    let skip = usize::try_from(page)
        .unwrap_or(usize::MAX)
        .saturating_mul(LOBBY_PAGE);
    games
        .into_iter()
        .skip(skip)
        .take(LOBBY_PAGE)
        .map(StoredGame::summary)
        .collect()
}

/// The game in progress `seat` plays in, and its side.
fn my_game<'a>(
    games: &'a mut HashMap<GameId, Live>,
    seat: &Seat,
    game: GameId,
) -> Result<(&'a mut Live, Side), Refusal> {
    let live = games
        .get_mut(&game)
        .filter(|l| l.stored.stage == Stage::Playing)
        .ok_or_else(|| refusal(ErrorCode::NoGame, format!("no game {game} in progress")))?;
    let side = live
        .stored
        .side_of(&seat.key)
        .ok_or_else(|| refusal(ErrorCode::NoGame, "you do not play in this game"))?;
    Ok((live, side))
}

/// How many plies a takeback asked by `by` undoes: its last move, and the opponent's reply
/// if one was made since.
fn takeback_plies(live: &Live, by: Side) -> usize {
    let record = &live.stored.game;
    let played = record.moves().len();
    let to_move = record.state().position().side_to_move();
    let plies = if to_move == by { 2 } else { 1 };
    if played >= plies { plies } else { 0 }
}

/// Time left on `side`'s clock, overtime periods to come included.
fn left_in_all(clocks: &Clocks, side: Side) -> Duration {
    let clock = clocks.side(side);
    let control = clocks.control();
    let periods = if clock.in_overtime() {
        clock.periods().saturating_sub(1)
    } else {
        control.periods()
    };
    clock
        .left()
        .saturating_add(control.period().saturating_mul(periods))
}

fn bad_move(e: &impl std::fmt::Display) -> Refusal {
    refusal(ErrorCode::BadMove, e.to_string())
}

/// A write that failed: logged, and refused with `not_now` (nothing was changed).
fn store_error(e: &rusqlite::Error) -> Refusal {
    tracing::error!("database: {e}");
    refusal(
        ErrorCode::NotNow,
        "the server cannot store this now: try again later",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::identity::Identity;
    use crate::net::server::outbox;

    /// A hub over a store in a folder of its own, and the queues of its connections.
    struct Bench {
        hub: Hub,
        queues: HashMap<ConnId, outbox::Inbox>,
        _events: mpsc::UnboundedSender<Event>,
        runtime: tokio::runtime::Runtime,
        _dir: tempfile::TempDir,
    }

    impl Bench {
        fn new() -> Bench {
            let dir = tempfile::tempdir().unwrap();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let (events, _) = mpsc::unbounded_channel();
            let store = Store::open(dir.path()).unwrap();
            let handle = runtime.handle().clone();
            let hub = Hub::new(store, Limits::default(), handle, events.downgrade()).unwrap();
            Bench {
                hub,
                queues: HashMap::new(),
                _events: events,
                runtime,
                _dir: dir,
            }
        }

        /// Connection `conn`, identified as `name` with a new key.
        fn identified(&mut self, conn: ConnId, name: &str) {
            let (out, queue) = outbox::queue(1 << 20);
            self.queues.insert(conn, queue);
            let binding = || ChannelBinding::from_bytes([7; 32]);
            let ip = IpAddr::from([127, 0, 0, 1]);
            let (hangup, _) = oneshot::channel();
            self.hub.handle(Event::Connected {
                conn,
                out,
                hangup,
                binding: binding(),
                ip,
            });
            let ServerMessage::Challenge { nonce } = self.next(conn) else {
                panic!("no challenge");
            };
            let identity = Identity::generate();
            self.say(
                conn,
                ClientMessage::Identify {
                    name: name.to_owned(),
                    key: identity.public_hex(),
                    signature: identity.sign(&nonce, &binding()),
                },
            );
            assert!(matches!(self.next(conn), ServerMessage::Welcome { .. }));
        }

        fn say(&mut self, conn: ConnId, message: ClientMessage) {
            self.hub.handle(Event::Message { conn, message });
        }

        /// The next message queued for `conn` (the hub has sent it when `handle` returns).
        fn next(&mut self, conn: ConnId) -> ServerMessage {
            let line = self.queues.get_mut(&conn).unwrap().try_next();
            let line = line.unwrap_or_else(|| panic!("nothing for connection {conn}"));
            ServerMessage::parse(&line).unwrap()
        }

        /// The next message queued for `conn`, waited for (at most 20 s: only when broken).
        fn wait_next(&mut self, conn: ConnId) -> ServerMessage {
            let queue = self.queues.get_mut(&conn).unwrap();
            let next = async { tokio::time::timeout(Duration::from_secs(20), queue.next()).await };
            let line = self.runtime.block_on(next).ok().flatten();
            let line = line.unwrap_or_else(|| panic!("nothing came for connection {conn}"));
            ServerMessage::parse(&line).unwrap()
        }

        /// Every message queued for `conn`.
        fn drain(&mut self, conn: ConnId) -> Vec<ServerMessage> {
            std::iter::from_fn(|| self.queues.get_mut(&conn).unwrap().try_next())
                .map(|line| ServerMessage::parse(&line).unwrap())
                .collect()
        }

        /// An untimed game created by `creator` (the attackers); its number.
        fn created(&mut self, creator: ConnId) -> GameId {
            self.say(
                creator,
                ClientMessage::Create(GameSetup {
                    side: SideChoice::Attackers,
                    ..GameSetup::default()
                }),
            );
            let ServerMessage::Created { game, .. } = self.next(creator) else {
                panic!("not created");
            };
            game.id
        }

        /// A game `attackers` created and `defenders` joined; its number.
        fn in_progress(&mut self, attackers: ConnId, defenders: ConnId) -> GameId {
            let game = self.created(attackers);
            self.say(
                defenders,
                ClientMessage::Join {
                    game: Some(game),
                    code: None,
                },
            );
            for conn in [attackers, defenders] {
                let messages = self.drain(conn);
                assert!(
                    messages
                        .iter()
                        .any(|m| matches!(m, ServerMessage::State(_))),
                    "{messages:?}"
                );
            }
            game
        }

        fn playing_ids(&self) -> Vec<GameId> {
            let mut ids: Vec<GameId> = self
                .hub
                .store
                .unfinished()
                .unwrap()
                .into_iter()
                .map(|game| game.unwrap())
                .filter(|game| game.stage == Stage::Playing)
                .map(|game| game.id)
                .collect();
            ids.sort_unstable();
            ids
        }
    }

    fn first_move(game: GameId) -> ClientMessage {
        ClientMessage::Move {
            game,
            ply: 0,
            mv: "d2-c2".to_owned(),
        }
    }

    fn error_code(message: &ServerMessage) -> Option<ErrorCode> {
        match message {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        }
    }

    #[test]
    fn a_resignation_not_stored_is_told_to_nobody_and_the_game_goes_on() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        let game = bench.in_progress(1, 2);
        bench.hub.store.fail_writes(true);
        bench.say(2, ClientMessage::Resign { game });
        assert_eq!(error_code(&bench.next(2)), Some(ErrorCode::NotNow));
        assert_eq!(bench.drain(1), [], "alice was told of a result not stored");
        bench.hub.store.fail_writes(false);
        assert_eq!(bench.playing_ids(), [game], "not in play after a restart");
        bench.say(1, first_move(game));
        assert!(matches!(bench.next(1), ServerMessage::Moved { .. }));
    }

    #[test]
    fn a_join_not_stored_seats_nobody() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        bench.identified(3, "carol");
        let game = bench.created(1);
        bench.hub.store.fail_writes(true);
        let join = ClientMessage::Join {
            game: Some(game),
            code: None,
        };
        bench.say(2, join.clone());
        let refused = error_code(&bench.next(2));
        bench.hub.store.fail_writes(false);
        bench.say(3, join);
        let ServerMessage::State(view) = bench.next(3) else {
            panic!("carol cannot join the game bob failed to join");
        };
        assert_eq!(view.summary.defenders.as_deref(), Some("carol"));
        assert_eq!(refused, Some(ErrorCode::NotNow));
    }

    #[test]
    fn a_move_not_stored_is_not_played() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        let game = bench.in_progress(1, 2);
        bench.hub.store.fail_writes(true);
        bench.say(1, first_move(game));
        assert_eq!(error_code(&bench.next(1)), Some(ErrorCode::NotNow));
        assert_eq!(bench.drain(2), []);
        bench.hub.store.fail_writes(false);
        bench.say(1, first_move(game));
        assert!(matches!(bench.next(1), ServerMessage::Moved { ply: 0, .. }));
    }

    #[test]
    fn a_panic_in_one_game_sets_it_aside_and_the_others_go_on() {
        let mut bench = Bench::new();
        for (conn, name) in [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")] {
            bench.identified(conn, name);
        }
        let broken = bench.in_progress(1, 2);
        let sound = bench.in_progress(3, 4);
        bench.hub.panic_in = Some(broken);
        bench.say(1, first_move(broken));
        for conn in [1, 2] {
            let told = bench.drain(conn);
            assert!(
                told.iter()
                    .any(|m| error_code(m) == Some(ErrorCode::NoGame)),
                "{told:?}"
            );
        }
        assert_eq!(bench.playing_ids(), [sound]);
        bench.say(3, first_move(sound));
        assert!(matches!(bench.next(3), ServerMessage::Moved { .. }));
        bench.say(1, ClientMessage::Lobby { page: 0 });
        let ServerMessage::Lobby(lobby) = bench.next(1) else {
            panic!("no lobby");
        };
        let playing: Vec<GameId> = lobby.playing.iter().map(|g| g.id).collect();
        assert_eq!(playing, [sound]);
    }

    #[test]
    fn a_move_is_relayed_while_an_archive_read_is_held_up() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        bench.identified(3, "carol");
        let game = bench.in_progress(1, 2);
        let (began, reading) = std::sync::mpsc::channel();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let released = std::sync::Mutex::new(released);
        let ceiling = Duration::from_secs(20);
        bench.hub.readers.before_each_read(move || {
            let _ = began.send(());
            let _ = released.lock().unwrap().recv_timeout(ceiling);
        });
        let archive = ClientMessage::Archive {
            name: "alice".into(),
            page: 0,
        };
        bench.say(3, archive.clone());
        reading.recv_timeout(ceiling).expect("the read never began");
        bench.say(3, archive);
        bench.say(1, first_move(game));
        assert!(
            matches!(bench.next(2), ServerMessage::Moved { ply: 0, .. }),
            "the move waited for the read"
        );
        assert_eq!(bench.drain(3), [], "answered before the read ended");
        release.send(()).unwrap();
        let ServerMessage::Archive { name, total, .. } = bench.wait_next(3) else {
            panic!("no archive");
        };
        assert_eq!((name.as_str(), total), ("alice", 0));
        // Asked again while it was read: answered once (the second read, had there been
        // one, would have been held up for the ceiling and failed the test below).
        bench.say(3, ClientMessage::Ping { id: 9 });
        assert_eq!(bench.drain(3), [ServerMessage::Pong { id: 9 }]);
    }

    #[test]
    fn a_request_asked_again_while_its_answer_is_queued_is_answered_once() {
        let mut bench = Bench::new();
        bench.identified(1, "ann");
        let lobby = |page| ClientMessage::Lobby { page };
        for page in [0, 0, 0, 1] {
            bench.say(1, lobby(page));
        }
        let pages = |sent: Vec<ServerMessage>| -> Vec<u32> {
            sent.into_iter()
                .map(|m| match m {
                    ServerMessage::Lobby(lobby) => lobby.page,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        // Another request is answered; the same one again once its answer has left.
        assert_eq!(pages(bench.drain(1)), [0, 0]);
        bench.say(1, lobby(0));
        bench.say(1, lobby(0));
        assert_eq!(pages(bench.drain(1)), [0], "one answer each time");
    }
}

#[cfg(test)]
mod fuzz;
