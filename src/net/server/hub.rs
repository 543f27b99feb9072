//! The server's one owner of all state: connections, games, clocks and the database. It runs
//! on its own thread and handles one event at a time, so a move is validated, stored and
//! relayed in order. Connections, timers and readers send it [`Event`]s.
//!
//! Here: its state, the routing of each event, a game set aside on a fault. By concern:
//! `connections` (identities, what is sent, reads handed to the readers), `lobby`, `games`
//! (each change stored, then applied and told) and `clocks` (flags, return windows).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::conn_id::ConnId;
use super::event::Event;
use super::limits::Limits;
use super::names::NameClaims;
use super::outbox::Outbox;
use super::reader::{Ask, Readers};
use super::store::{Seat, Stage, Store, StoredGame, Unreadable};
use crate::net::identity::ChannelBinding;
use crate::net::protocol::{ClientMessage, ErrorCode, GameId, Offer, ServerMessage, Timing};
use crate::rules::Side;

/// A connection the hub knows: its queue, its session, who it is and what it watches.
struct Conn {
    out: Outbox,
    /// Signalled to cut the connection off: its task ends at once, socket and queue freed.
    hangup: Option<oneshot::Sender<()>>,
    /// The last request answered that may be asked again (a lobby or archive page), and
    /// whether its answer is still being read or queued: asked again meanwhile, it is not
    /// answered twice.
    last_answer: Option<(ClientMessage, Arc<AtomicBool>)>,
    nonce: String,
    binding: ChannelBinding,
    ip: IpAddr,
    seat: Option<Seat>,
    lag: Duration,
    watching: HashSet<GameId>,
    /// The player's rating in the pool of the most rated games, read on identifying and
    /// after each rated game.
    rating: Option<crate::net::ratings::Shown>,
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
    /// The players' ratings in the game's pool, read when it was made, began or resumed.
    ratings: crate::net::protocol::SeatRatings,
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
            ratings: crate::net::protocol::SeatRatings::default(),
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
    /// The names claimed by bots (`brandubh bot`), marked as such wherever shown.
    bots: HashSet<String>,
    /// The threads that read the archive and finished games, beside the hub.
    readers: Readers,
    /// The challenges waiting for an answer.
    challenges: challenges::Challenges,
    /// The games just over that their players may play again.
    rematches: rematch::Rematches,
    /// The game the work under way concerns, once known: the one set aside if it panics.
    busy_with: Option<GameId>,
    /// The games over that still take chat lines for a while.
    after_end: chat::AfterEnds,
    /// The lobby's chat and the blocks.
    club: club::Club,
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
    /// when the server was last alive (the time the server was down is not charged: each
    /// turn starts again now); a game that cannot be read back or resumed is set aside.
    pub fn new(
        mut store: Store,
        limits: Limits,
        runtime: tokio::runtime::Handle,
        timers: mpsc::WeakUnboundedSender<Event>,
    ) -> Result<Hub, Box<dyn std::error::Error + Send + Sync>> {
        store.rate_bots_with_humans(limits.bots_rated_with_humans);
        let readers = Readers::start(store.file(), &timers)?;
        let bots = store.bot_names()?.into_iter().collect();
        let club = club::Club::load(&store)?;
        let mut hub = Hub {
            store,
            limits,
            conns: HashMap::new(),
            games: HashMap::new(),
            runtime,
            timers,
            name_claims: NameClaims::default(),
            bots,
            readers,
            challenges: challenges::Challenges::default(),
            rematches: rematch::Rematches::default(),
            busy_with: None,
            after_end: chat::AfterEnds::new(),
            club,
            #[cfg(test)]
            panic_in: None,
        };
        let alive = hub.store.last_alive()?;
        for stored in hub.store.unfinished()? {
            match stored {
                Ok(stored) => {
                    hub.busy_with = Some(stored.id);
                    hub.guarded(|hub| hub.resume(stored, alive));
                }
                Err(Unreadable { id, why }) => hub.set_aside(id, &why),
            }
        }
        hub.start_noting_alive();
        Ok(hub)
    }

    /// Puts a stored game back in play, its player to move charged the time used before the
    /// server was last `alive`.
    fn resume(&mut self, stored: StoredGame, alive: Option<i64>) {
        let id = stored.id;
        let playing = stored.stage == Stage::Playing;
        self.games.insert(id, Live::new(stored));
        self.charge_before_restart(id, alive);
        self.note_ratings(id);
        if playing && self.games.contains_key(&id) {
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
                        rating: None,
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
            Event::ChallengeExpiry { challenge } => self.challenge_expiry(challenge),
            Event::Alive => self.note_alive(),
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
        self.note_alive();
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
                bot,
            } => self.identify(conn, (&name, bot), &key, &signature),
            ClientMessage::Ping { id } => {
                self.send(conn, &ServerMessage::Pong { id });
                Ok(())
            }
            ClientMessage::Pong { .. } => Ok(()),
            ClientMessage::Download { game } => {
                self.delivered(conn, game);
                self.read(conn, Ask::Download { game }, None)
            }
            request @ ClientMessage::Leaderboard(..) => self.leaderboard(conn, request),
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
            ClientMessage::Offer {
                game,
                offer: Offer::Rematch,
            } => self.rematch(seat, game, true),
            ClientMessage::Answer {
                game,
                offer: Offer::Rematch,
                accept,
            } => self.rematch(seat, game, accept),
            ClientMessage::Offer { game, offer } => self.offer(seat, game, offer),
            ClientMessage::Answer {
                game,
                offer,
                accept,
            } => self.answer(seat, game, offer, accept),
            ClientMessage::ChallengePlayer { name, setup } => self.challenge(seat, &name, setup),
            ClientMessage::AnswerChallenge { challenge, accept } => {
                self.answer_challenge(seat, challenge, accept)
            }
            ClientMessage::Abort { game } => self.abort(seat, game),
            ClientMessage::Claim { game } => self.claim(seat, game),
            ClientMessage::GiveTime { game } => self.give_time(seat, game),
            ClientMessage::Resign { game } => self.resign(seat, game),
            ClientMessage::Chat { game, text } => self.chat(conn, seat, game, &text),
            request @ ClientMessage::Profile { .. } => self.profile(conn, request),
            ClientMessage::LobbyChat { text } => self.lobby_chat(seat, &text),
            ClientMessage::Block { name, block } => self.block(seat, &name, block),
            ClientMessage::Details { game } => self.details(conn, seat, game),
            _ => refuse(ErrorCode::NotNow, "not now"),
        }
    }
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
    use crate::net::protocol::{Channel, GameSetup, SideChoice, Timing};
    use crate::net::server::outbox;
    use crate::net::server::reader::READS_WAITING;

    /// The longest a test waits for what another thread does (only when broken).
    const CEILING: Duration = Duration::from_secs(20);

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
                    bot: false,
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

        /// The next message queued for `conn`, waited for (at most [`CEILING`]).
        fn wait_next(&mut self, conn: ConnId) -> ServerMessage {
            let queue = self.queues.get_mut(&conn).unwrap();
            let next = async { tokio::time::timeout(CEILING, queue.next()).await };
            let line = self.runtime.block_on(next).ok().flatten();
            let line = line.unwrap_or_else(|| panic!("nothing came for connection {conn}"));
            ServerMessage::parse(&line).unwrap()
        }

        /// Holds every read up from now on: each reader tells the first channel when it
        /// begins one, then waits for a word on the second (at most [`CEILING`]).
        fn hold_reads(&self) -> (std::sync::mpsc::Receiver<()>, std::sync::mpsc::Sender<()>) {
            let (began, reading) = std::sync::mpsc::channel();
            let (release, released) = std::sync::mpsc::channel::<()>();
            let released = std::sync::Mutex::new(released);
            self.hub.readers.before_each_read(move || {
                let _ = began.send(());
                let _ = released.lock().unwrap().recv_timeout(CEILING);
            });
            (reading, release)
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
        let (reading, release) = bench.hold_reads();
        let archive = ClientMessage::Archive {
            name: "alice".into(),
            page: 0,
        };
        bench.say(3, archive.clone());
        reading.recv_timeout(CEILING).expect("the read never began");
        bench.say(3, archive.clone());
        assert!(
            bench.hub.still_queued(3, &archive),
            "asked again while it is read: read twice"
        );
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
        assert!(!bench.hub.still_queued(3, &archive), "answered: asked anew");
    }

    #[test]
    fn a_read_beyond_the_cap_is_refused_at_once() {
        let mut bench = Bench::new();
        bench.identified(1, "ann");
        let (reading, release) = bench.hold_reads();
        let archive = |page| ClientMessage::Archive {
            name: "ann".into(),
            page,
        };
        let in_flight = u32::try_from(READS_WAITING).unwrap() + 2;
        for page in 0..in_flight {
            bench.say(1, archive(page));
            if page < 2 {
                reading.recv_timeout(CEILING).expect("a reader never began");
            }
        }
        assert_eq!(bench.drain(1), [], "refused within the cap");
        bench.say(1, archive(in_flight));
        assert_eq!(error_code(&bench.next(1)), Some(ErrorCode::NotNow));
        for _ in 0..in_flight {
            release.send(()).unwrap();
        }
        for _ in 0..in_flight {
            assert!(matches!(bench.wait_next(1), ServerMessage::Archive { .. }));
        }
    }

    #[test]
    fn a_finished_game_that_cannot_be_read_back_is_left_out_and_the_rest_goes_on() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        let mut ended = || {
            let game = bench.in_progress(1, 2);
            bench.say(2, ClientMessage::Resign { game });
            bench.drain(1);
            game
        };
        let (broken, sound) = (ended(), ended());
        rusqlite::Connection::open(bench.hub.store.file())
            .unwrap()
            .execute(
                "UPDATE games SET setup = 'not a setup' WHERE id = ?1",
                [i64::try_from(broken).unwrap()],
            )
            .unwrap();
        bench.say(
            1,
            ClientMessage::Archive {
                name: "alice".into(),
                page: 0,
            },
        );
        let ServerMessage::Archive { games, total, .. } = bench.wait_next(1) else {
            panic!("no archive");
        };
        let listed: Vec<GameId> = games.iter().map(|g| g.id).collect();
        assert_eq!((listed, total), (vec![sound], 2));
        bench.say(1, ClientMessage::Download { game: broken });
        assert_eq!(error_code(&bench.wait_next(1)), Some(ErrorCode::NoGame));
        bench.say(1, ClientMessage::Download { game: sound });
        assert!(matches!(bench.wait_next(1), ServerMessage::Save { .. }));
        bench.say(1, ClientMessage::Lobby { page: 0 });
        assert!(matches!(bench.next(1), ServerMessage::Lobby(_)));
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

    #[test]
    fn a_move_sent_again_once_played_is_not_answered_with_an_error() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        let game = bench.in_progress(1, 2);
        bench.say(1, first_move(game));
        assert!(matches!(bench.next(1), ServerMessage::Moved { ply: 0, .. }));
        // Queued while the connection was down, and sent again by the board: one move.
        bench.say(1, first_move(game));
        assert_eq!(bench.drain(1), [], "the move sent again was answered");
        assert_eq!(bench.drain(2).len(), 1, "bob saw more than the one move");
    }

    #[test]
    fn a_restart_charges_the_player_to_move_up_to_when_the_server_was_last_alive() {
        let mut bench = Bench::new();
        bench.identified(1, "alice");
        bench.identified(2, "bob");
        let setup = GameSetup {
            side: SideChoice::Attackers,
            timing: Timing::Clock {
                control: "10m".parse().unwrap(),
            },
            ..GameSetup::default()
        };
        bench.say(1, ClientMessage::Create(setup));
        let ServerMessage::Created { game, .. } = bench.next(1) else {
            panic!("not created");
        };
        let game = game.id;
        let join = ClientMessage::Join {
            game: Some(game),
            code: None,
        };
        bench.say(2, join);
        bench.say(1, first_move(game));
        // Bob's turn began at 1000 s; the server was last alive 30 s later, then went down
        // (for however long: not charged).
        let db = rusqlite::Connection::open(bench.hub.store.file()).unwrap();
        db.execute_batch(
            "UPDATE games SET turn_began = 1000000;
             INSERT INTO alive (id, at) VALUES (0, 1030000)
                 ON CONFLICT (id) DO UPDATE SET at = 1030000;",
        )
        .unwrap();
        let left = |hub: &Hub| {
            let stored = hub.store.unfinished().unwrap().pop().unwrap().unwrap();
            stored.game.clocks().unwrap().side(Side::Defenders).left()
        };
        let dir = bench.hub.store.file().parent().unwrap().to_owned();
        let restart = || {
            let store = Store::open(&dir).unwrap();
            let (events, _) = mpsc::unbounded_channel();
            let handle = bench.runtime.handle().clone();
            Hub::new(store, Limits::default(), handle, events.downgrade()).unwrap()
        };
        let again = restart();
        assert_eq!(left(&again), Duration::from_secs(570), "stored charged");
        drop(again);
        // Its turn begins again at the restart: a second restart charges only what follows.
        let third = restart();
        assert!(
            left(&third) > Duration::from_secs(569),
            "{:?}",
            left(&third)
        );
    }

    #[test]
    fn gg_after_the_end_reaches_the_players_and_the_spectators() {
        let mut bench = Bench::new();
        for (conn, name) in [(1, "alice"), (2, "bob"), (3, "carol")] {
            bench.identified(conn, name);
        }
        let game = bench.in_progress(1, 2);
        bench.say(3, ClientMessage::Watch { game });
        bench.say(2, ClientMessage::Resign { game });
        for conn in [1, 2, 3] {
            bench.drain(conn);
        }
        bench.say(
            1,
            ClientMessage::Chat {
                game,
                text: "gg".into(),
            },
        );
        for conn in [1, 2, 3] {
            let told = bench.drain(conn);
            assert!(
                matches!(&told[..], [ServerMessage::Chat { text, .. }] if text == "gg"),
                "connection {conn}: {told:?}"
            );
        }
    }

    #[test]
    fn leaving_a_game_just_over_is_no_error_and_ends_its_chat_for_a_spectator() {
        let mut bench = Bench::new();
        for (conn, name) in [(1, "alice"), (2, "bob"), (3, "carol")] {
            bench.identified(conn, name);
        }
        let game = bench.in_progress(1, 2);
        bench.say(3, ClientMessage::Watch { game });
        bench.say(2, ClientMessage::Resign { game });
        for conn in [1, 2, 3] {
            bench.drain(conn);
            bench.say(conn, ClientMessage::Leave { game });
            assert_eq!(bench.drain(conn), [], "connection {conn} was answered");
        }
        bench.say(
            3,
            ClientMessage::Chat {
                game,
                text: "still here?".into(),
            },
        );
        assert_eq!(error_code(&bench.next(3)), Some(ErrorCode::NoGame));
    }

    #[test]
    fn a_late_spectator_gets_the_chat_so_far_after_the_state() {
        let mut bench = Bench::new();
        for (conn, name) in [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")] {
            bench.identified(conn, name);
        }
        let game = bench.in_progress(1, 2);
        bench.say(3, ClientMessage::Watch { game });
        let chat = |text: &str| ClientMessage::Chat {
            game,
            text: text.into(),
        };
        bench.say(1, chat("good luck"));
        bench.say(3, chat("a spectator's aside"));
        bench.say(4, ClientMessage::Watch { game });
        let told = bench.drain(4);
        let [
            ServerMessage::State(_),
            ServerMessage::ChatLog { lines, .. },
        ] = &told[..]
        else {
            panic!("{told:?}");
        };
        let lines: Vec<(&str, Channel)> =
            lines.iter().map(|l| (l.text.as_str(), l.channel)).collect();
        assert_eq!(
            lines,
            [
                ("good luck", Channel::Players),
                ("a spectator's aside", Channel::Spectators)
            ]
        );
    }

    #[test]
    fn details_give_each_player_s_key_and_the_invite_code_to_its_creator_only() {
        let mut bench = Bench::new();
        bench.identified(1, "Alice");
        bench.identified(2, "bob");
        let setup = GameSetup {
            private: true,
            ..GameSetup::default()
        };
        bench.say(1, ClientMessage::Create(setup));
        let ServerMessage::Created { game, code } = bench.next(1) else {
            panic!("not created");
        };
        let details = |bench: &mut Bench, conn| {
            bench.say(conn, ClientMessage::Details { game: game.id });
            match bench.next(conn) {
                ServerMessage::Details { players, code, .. } => (players, code),
                other => panic!("{other:?}"),
            }
        };
        let (players, given) = details(&mut bench, 1);
        assert_eq!(given, code, "the creator gets its code again");
        assert!(given.is_some());
        assert_eq!(players.len(), 1);
        assert_eq!(players[0].name, "Alice");
        assert!(players[0].fingerprint.starts_with("SHA256:"));
        let (seen, none) = details(&mut bench, 2);
        assert_eq!(none, None, "nobody else gets it");
        assert_eq!(seen, players);
        bench.say(2, ClientMessage::Details { game: 999 });
        assert!(matches!(bench.next(2), ServerMessage::Error { .. }));
    }
}

mod away;
mod bots;
mod challenges;
mod chat;
mod clocks;
mod club;
mod connections;
mod courtesy;
mod details;
#[cfg(test)]
mod fuzz;
mod games;
mod lobby;
mod rematch;
mod standings;
