//! A protocol fuzzer: several simulated clients send random and mutated messages into an
//! in-process hub (a real [`Store`] in a temporary folder), and after every step the hub is
//! checked: it did not panic, every game's record replays legally from the start with clocks
//! a game can have, every connection's queue is within its bound, a line it sends fits the
//! protocol's line, a forged identity is never welcomed, and its bookkeeping (connections,
//! spectators, open games per player) holds. At the end of a case the database must hold
//! what the hub holds, and a hub started again on it must resume it.
//!
//! Steps are small numbers read against the hub's state when they run (the player to move
//! in the game picked plays legal move number `n`), so a failing case shrinks well. Time is
//! a step too: every turn's start and every deadline is moved back, as if that much had
//! passed, and the timers' events are steps of their own.
//!
//! `cargo test --lib fuzz` runs a short run; `BRANDUBH_FUZZ_CASES` sets the cases of the
//! short run, `BRANDUBH_FUZZ_MINUTES` the length of the long one (an ignored test), and
//! `BRANDUBH_FUZZ_SEED` the seed of either.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use tokio::sync::{mpsc, oneshot};

use super::{ConnId, Event, Hub};
use crate::game::{Clocks, Game};
use crate::net::identity::{ChannelBinding, Identity};
use crate::net::protocol::{ClientMessage, GameId, MAX_LINE_BYTES, ServerMessage};
use crate::net::ratings::Speed;
use crate::net::server::limits::Limits;
use crate::net::server::outbox::{self, Inbox};
use crate::net::server::store::{Stage, Store};
use crate::net::server::timing::control;
use crate::rules::{GameState, Position, Preset, Side};

/// Simulated players (each an identity key, with up to [`MAX_CONNS`] connections in all).
const CLIENTS: u8 = 4;

/// Connections open at once, at most.
const MAX_CONNS: usize = 8;

/// Steps in a case, at most.
const MAX_STEPS: usize = 80;

/// The numbers a fuzzer tries first: the edges of every integer type the wire carries.
const EDGES: [u64; 14] = [
    0,
    1,
    2,
    999,
    60_000,
    86_400_000,
    u32::MAX as u64 - 1,
    u32::MAX as u64,
    u32::MAX as u64 + 1,
    i64::MAX as u64,
    i64::MAX as u64 + 1,
    u64::MAX / 1000,
    u64::MAX - 1,
    u64::MAX,
];

/// A number: an edge, or any.
fn number() -> impl Strategy<Value = u64> {
    prop_oneof![3 => proptest::sample::select(&EDGES[..]), 1 => any::<u64>()]
}

/// A count of overtime periods: mostly one a `u32` holds.
fn periods() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => proptest::sample::select(vec![0, 1, 2, 1000, u64::from(u32::MAX)]),
        2 => any::<u32>().prop_map(u64::from),
        1 => number(),
    ]
}

/// How an identify is forged, if it is.
#[derive(Copy, Clone, Debug)]
enum Forgery {
    /// Not forged: the client's key, its signature of the nonce.
    None,
    /// The client's key, its signature of another nonce.
    StaleNonce,
    /// The client's key, its signature made in another TLS session (a relay's).
    OtherSession,
    /// Another client's key with this client's signature.
    OtherKey,
    /// The small-order key `01`+`00`×31 with the signature `01`+`00`×63.
    SmallOrder,
    /// Not hex.
    Garbage,
}

/// What a game-bound step is sent by: a player of the game, its creator, or any connection.
#[derive(Copy, Clone, Debug)]
enum Sender {
    /// The connection of the player of this side.
    Player(Side),
    /// The connection of the game's creator.
    Creator,
    /// Connection number `n` (of those open).
    Any(u8),
}

/// A time control's numbers, sent as they are (a bad one is refused by the parser).
#[derive(Clone, Debug)]
enum TimingPick {
    Untimed,
    Correspondence(u64),
    Clock {
        main_ms: u64,
        increment_ms: u64,
        periods: u64,
        period_ms: u64,
    },
}

/// One step of a case.
#[derive(Clone, Debug)]
enum Step {
    /// Client `client` opens a connection (says hello; the hub challenges it), and
    /// identifies at once under its own name if `identify`.
    Connect { client: u8, identify: bool },
    /// A connection identifies, under name `name` (a low number: the client's own name).
    Identify {
        conn: u8,
        name: u8,
        forgery: Forgery,
    },
    /// A connection ends.
    Disconnect(u8),
    /// A connection stops or starts reading what the hub sends.
    Reading { conn: u8, on: bool },
    /// Asks for the lobby.
    Lobby(u8),
    /// Creates a game.
    Create {
        conn: u8,
        rules: u8,
        side: u8,
        timing: TimingPick,
        private: bool,
    },
    /// Joins game `game`, by its number or its invite code.
    Join { conn: u8, game: u8, by_code: bool },
    /// Watches a game.
    Watch { by: Sender, game: u8 },
    /// Leaves a game.
    Leave { by: Sender, game: u8 },
    /// The player to move in game `game` plays its legal move number `pick`.
    Play { game: u8, pick: u16 },
    /// A move that is wrong: stale, out of turn, or not a move.
    BadMove {
        by: Sender,
        game: u8,
        ply: u64,
        text: String,
    },
    /// Offers a draw (or a takeback).
    Offer {
        by: Sender,
        game: u8,
        takeback: bool,
    },
    /// Answers an offer.
    Answer {
        by: Sender,
        game: u8,
        takeback: bool,
        accept: bool,
    },
    /// Resigns.
    Resign { by: Sender, game: u8 },
    /// Chats.
    Chat { by: Sender, game: u8, text: String },
    /// A ping, or a pong (unsolicited or not) the connection turns into a measured lag.
    Ping { conn: u8, id: u64, pong: bool },
    /// Asks for a player's archive.
    Archive { conn: u8, name: String },
    /// Downloads a game (by number, any).
    Download { conn: u8, game: u64 },
    /// Asks for a page of a leaderboard (rules by number, any page).
    Leaderboard { conn: u8, rules: u8, page: u32 },
    /// Asks for a player's profile.
    Profile { conn: u8, name: String },
    /// Says a line in the lobby's chat.
    LobbyChat { conn: u8, text: String },
    /// Blocks (or stops blocking) the player named as [`name_pick`] picks for `client`.
    Block {
        conn: u8,
        name: u8,
        client: u8,
        block: bool,
    },
    /// Asks for a game's details (its players' keys, its code).
    Details { conn: u8, game: u8 },
    /// A message of template `template`, mutated, through the parser.
    Mutated {
        conn: u8,
        template: u8,
        mutations: Vec<Mutation>,
    },
    /// Time passes.
    Warp(u64),
    /// A flag check of game `game`'s current turn (or a stale one).
    FlagCheck { game: u8, stale: bool },
    /// A return check of a side of game `game`.
    ReturnCheck { game: u8, side: Side },
    /// Challenges the player of client `to` (or an odd name) on these terms.
    Challenge {
        conn: u8,
        to: u8,
        timing: TimingPick,
    },
    /// Answers challenge pick `pick` (accepts, declines, withdraws).
    AnswerChallenge { conn: u8, pick: u8, accept: bool },
    /// Challenge pick `pick` may have expired.
    ChallengeExpiry(u8),
    /// Aborts (0), claims (1) or gives time (2) in game `game`.
    Courtesy { by: Sender, game: u8, what: u8 },
    /// Offers a rematch of game over pick `pick`, or answers one.
    Rematch {
        conn: u8,
        pick: u8,
        offer: bool,
        accept: bool,
    },
}

/// One change to a message's text.
#[derive(Clone, Debug)]
enum Mutation {
    /// Number `nth` (of those in the text) becomes `text`.
    Number { nth: u8, text: String },
    /// String `nth` (of those in the text) gets `text` as its contents.
    Text { nth: u8, text: String },
    /// The character at `at` (of every `len` characters) goes.
    Delete { at: u16 },
    /// `text` goes in before the character at `at`.
    Insert { at: u16, text: String },
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Attackers), Just(Side::Defenders)]
}

fn sender() -> impl Strategy<Value = Sender> {
    prop_oneof![
        3 => side().prop_map(Sender::Player),
        1 => Just(Sender::Creator),
        2 => any::<u8>().prop_map(Sender::Any),
    ]
}

fn timing() -> impl Strategy<Value = TimingPick> {
    prop_oneof![
        Just(TimingPick::Untimed),
        number().prop_map(TimingPick::Correspondence),
        (number(), number(), periods(), number()).prop_map(
            |(main_ms, increment_ms, periods, period_ms)| TimingPick::Clock {
                main_ms,
                increment_ms,
                periods,
                period_ms,
            }
        ),
        // Short clocks, so that flags fall.
        (1..5000_u64, 0..3_u64, 0..3_u64, 1..2000_u64).prop_map(
            |(main_ms, increment_ms, periods, period_ms)| TimingPick::Clock {
                main_ms,
                increment_ms,
                periods,
                period_ms,
            }
        ),
    ]
}

/// Text, odd or not.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("hello".to_owned()),
        Just(String::new()),
        Just("\u{1b}[2J".to_owned()),
        Just("a\u{2028}b\u{202e}".to_owned()),
        Just("x".repeat(501)),
        "\\PC{0,12}",
        ".{0,40}",
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let number_text = prop_oneof![
        number().prop_map(|n| n.to_string()),
        Just("-1".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("1e400".to_owned()),
        Just("0.5".to_owned()),
        Just("null".to_owned()),
        Just("\"7\"".to_owned()),
    ];
    prop_oneof![
        (any::<u8>(), number_text).prop_map(|(nth, text)| Mutation::Number { nth, text }),
        (any::<u8>(), text()).prop_map(|(nth, text)| Mutation::Text { nth, text }),
        any::<u16>().prop_map(|at| Mutation::Delete { at }),
        (
            any::<u16>(),
            prop_oneof![
                Just("{".to_owned()),
                Just("}".to_owned()),
                Just("\"".to_owned()),
                Just(",".to_owned()),
                Just("null".to_owned()),
                Just("[]".to_owned()),
                Just("\\u0000".to_owned()),
                Just("\\ud800".to_owned()),
                Just("\"x\":1,".to_owned()),
            ]
        )
            .prop_map(|(at, text)| Mutation::Insert { at, text }),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let conn = any::<u8>;
    let game = any::<u8>;
    let forgery = prop_oneof![
        6 => Just(Forgery::None),
        1 => Just(Forgery::StaleNonce),
        1 => Just(Forgery::OtherSession),
        1 => Just(Forgery::OtherKey),
        1 => Just(Forgery::SmallOrder),
        1 => Just(Forgery::Garbage),
    ];
    prop_oneof![
        4 => (0..CLIENTS, prop::bool::weighted(0.75))
            .prop_map(|(client, identify)| Step::Connect { client, identify }),
        4 => (conn(), any::<u8>(), forgery)
            .prop_map(|(conn, name, forgery)| Step::Identify { conn, name, forgery }),
        1 => conn().prop_map(Step::Disconnect),
        1 => (conn(), any::<bool>()).prop_map(|(conn, on)| Step::Reading { conn, on }),
        1 => conn().prop_map(Step::Lobby),
        4 => (conn(), any::<u8>(), any::<u8>(), timing(), any::<bool>()).prop_map(
            |(conn, rules, side, timing, private)| Step::Create {
                conn,
                rules,
                side,
                timing,
                private,
            }
        ),
        4 => (conn(), game(), any::<bool>())
            .prop_map(|(conn, game, by_code)| Step::Join { conn, game, by_code }),
        1 => (sender(), game()).prop_map(|(by, game)| Step::Watch { by, game }),
        1 => (sender(), game()).prop_map(|(by, game)| Step::Leave { by, game }),
        12 => (game(), any::<u16>()).prop_map(|(game, pick)| Step::Play { game, pick }),
        1 => (sender(), game(), number(), prop_oneof![Just("d4-d5".to_owned()), text()])
            .prop_map(|(by, game, ply, text)| Step::BadMove { by, game, ply, text }),
        2 => (sender(), game(), any::<bool>())
            .prop_map(|(by, game, takeback)| Step::Offer { by, game, takeback }),
        2 => (sender(), game(), any::<bool>(), any::<bool>()).prop_map(
            |(by, game, takeback, accept)| Step::Answer {
                by,
                game,
                takeback,
                accept,
            }
        ),
        1 => (sender(), game()).prop_map(|(by, game)| Step::Resign { by, game }),
        1 => (sender(), game(), text())
            .prop_map(|(by, game, text)| Step::Chat { by, game, text }),
        1 => (conn(), number(), any::<bool>())
            .prop_map(|(conn, id, pong)| Step::Ping { conn, id, pong }),
        1 => (conn(), text()).prop_map(|(conn, name)| Step::Archive { conn, name }),
        1 => (conn(), number()).prop_map(|(conn, game)| Step::Download { conn, game }),
        1 => (conn(), any::<u8>(), any::<u32>())
            .prop_map(|(conn, rules, page)| Step::Leaderboard { conn, rules, page }),
        1 => (conn(), text()).prop_map(|(conn, name)| Step::Profile { conn, name }),
        1 => (conn(), text()).prop_map(|(conn, text)| Step::LobbyChat { conn, text }),
        1 => (conn(), any::<u8>(), 0..CLIENTS, any::<bool>()).prop_map(
            |(conn, name, client, block)| Step::Block {
                conn,
                name,
                client,
                block,
            }
        ),
        1 => (conn(), game()).prop_map(|(conn, game)| Step::Details { conn, game }),
        4 => (
            conn(),
            any::<u8>(),
            proptest::collection::vec(mutation(), 0..4)
        )
            .prop_map(|(conn, template, mutations)| Step::Mutated {
                conn,
                template,
                mutations,
            }),
        3 => prop_oneof![
            0..5000_u64,
            Just(60_000_u64),
            Just(86_400_000_u64),
            Just(40 * 86_400_000_u64)
        ]
        .prop_map(Step::Warp),
        2 => (game(), any::<bool>()).prop_map(|(game, stale)| Step::FlagCheck { game, stale }),
        1 => (game(), side()).prop_map(|(game, side)| Step::ReturnCheck { game, side }),
        2 => (conn(), any::<u8>(), timing())
            .prop_map(|(conn, to, timing)| Step::Challenge { conn, to, timing }),
        2 => (conn(), any::<u8>(), any::<bool>())
            .prop_map(|(conn, pick, accept)| Step::AnswerChallenge { conn, pick, accept }),
        1 => any::<u8>().prop_map(Step::ChallengeExpiry),
        2 => (sender(), game(), 0..3_u8)
            .prop_map(|(by, game, what)| Step::Courtesy { by, game, what }),
        2 => (conn(), any::<u8>(), any::<bool>(), any::<bool>()).prop_map(
            |(conn, pick, offer, accept)| Step::Rematch {
                conn,
                pick,
                offer,
                accept,
            }
        ),
    ]
}

/// A simulated connection.
struct FakeConn {
    id: ConnId,
    client: usize,
    binding: ChannelBinding,
    inbox: Inbox,
    /// Signalled when the hub cuts the connection off.
    hangup: oneshot::Receiver<()>,
    opened: Instant,
    nonce: Option<String>,
    reading: bool,
}

/// A hub, its database and its clients.
struct Harness {
    hub: Hub,
    limits: Limits,
    clients: Vec<Identity>,
    conns: Vec<FakeConn>,
    next_id: ConnId,
    codes: HashMap<GameId, String>,
    runtime: tokio::runtime::Runtime,
    /// Dropped last: the database (and its checkpoint thread) goes before its folder.
    dir: tempfile::TempDir,
}

/// A case's failure, in words.
type Failure = String;

impl Harness {
    fn new() -> Result<Harness, Failure> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .map_err(|e| e.to_string())?;
        let limits = Limits {
            queue_bytes: 16 * 1024,
            ..Limits::default()
        };
        let hub = hub_on(dir.path(), &limits, &runtime)?;
        Ok(Harness {
            dir,
            runtime,
            hub,
            limits,
            clients: (0..CLIENTS).map(|_| Identity::generate()).collect(),
            conns: Vec::new(),
            next_id: 0,
            codes: HashMap::new(),
        })
    }

    /// Hands the hub an event; a panic is a failure.
    fn handle(&mut self, event: Event) -> Result<(), Failure> {
        let hub = &mut self.hub;
        catch_quietly(|| hub.handle(event))
    }

    /// Sends a message from connection `conn` (an index of those open), as its connection
    /// does: a pong becomes a measured lag.
    fn send(&mut self, conn: usize, message: ClientMessage) -> Result<(), Failure> {
        let Some(c) = self.conns.get(conn) else {
            return Ok(());
        };
        let event = match message {
            ClientMessage::Pong { id } => Event::Lag {
                conn: c.id,
                round_trip: c.opened.elapsed().saturating_sub(Duration::from_millis(id)),
            },
            message => Event::Message {
                conn: c.id,
                message,
            },
        };
        self.handle(event)
    }

    /// Sends a line through the parser (as a connection reads it); an unreadable one goes
    /// no further.
    fn send_line(&mut self, conn: usize, line: &str) -> Result<(), Failure> {
        match ClientMessage::parse(line) {
            Ok(message) => self.send(conn, message),
            Err(_) => Ok(()),
        }
    }

    /// The index of connection pick `n`, if any is open.
    fn conn(&self, n: u8) -> Option<usize> {
        (!self.conns.is_empty()).then(|| usize::from(n) % self.conns.len())
    }

    /// Game pick `n`: one of the hub's games (by number), or now and then one it has not.
    /// Connection `conn` asks for the details of game `n` (as [`Harness::game`] picks it).
    fn details(&mut self, conn: u8, n: u8) -> Result<(), Failure> {
        let game = self.game(n);
        self.by(conn, ClientMessage::Details { game })
    }

    fn game(&self, n: u8) -> GameId {
        let mut ids: Vec<GameId> = self.hub.games.keys().copied().collect();
        ids.sort_unstable();
        match ids.len() {
            0 => GameId::from(n),
            len if n == u8::MAX => ids[len - 1] + 1,
            len => ids[usize::from(n) % len],
        }
    }

    /// The open connection of the player of `side` in `game`.
    fn player_conn(&self, game: GameId, side: Side) -> Option<usize> {
        self.conn_of(&self.hub.games.get(&game)?.stored.seat(side)?.key)
    }

    /// An open connection identified with `key`.
    fn conn_of(&self, key: &str) -> Option<usize> {
        self.conns.iter().position(|c| {
            self.hub
                .conns
                .get(&c.id)
                .and_then(|hc| hc.seat.as_ref())
                .is_some_and(|seat| seat.key == key)
        })
    }

    fn sender(&self, by: Sender, game: GameId) -> Option<usize> {
        match by {
            Sender::Player(side) => self.player_conn(game, side),
            Sender::Creator => self.conn_of(&self.hub.games.get(&game)?.stored.creator.key),
            Sender::Any(n) => self.conn(n),
        }
    }

    fn run(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::Connect { client, identify } => {
                self.connect(usize::from(*client))?;
                if *identify {
                    self.identify(self.conns.len() - 1, 0, Forgery::None)?;
                }
                Ok(())
            }
            Step::Identify {
                conn,
                name,
                forgery,
            } => match self.conn(*conn) {
                Some(conn) => self.identify(conn, *name, *forgery),
                None => Ok(()),
            },
            Step::Disconnect(conn) => match self.conn(*conn) {
                Some(conn) => self.disconnect(conn),
                None => Ok(()),
            },
            Step::Reading { conn, on } => {
                if let Some(conn) = self.conn(*conn) {
                    self.conns[conn].reading = *on;
                }
                Ok(())
            }
            Step::Lobby(conn) => self.by(*conn, ClientMessage::Lobby { page: 0 }),
            Step::Create {
                conn,
                rules,
                side,
                timing,
                private,
            } => {
                let line = create_line(*rules, *side, timing, *private);
                match self.conn(*conn) {
                    Some(conn) => self.send_line(conn, &line),
                    None => Ok(()),
                }
            }
            Step::Join {
                conn,
                game,
                by_code,
            } => {
                let game = self.game(*game);
                let code = self.codes.get(&game).filter(|_| *by_code).cloned();
                let game = code.is_none().then_some(game);
                self.by(*conn, ClientMessage::Join { game, code })
            }
            Step::Play { game, pick } => self.play(self.game(*game), usize::from(*pick)),
            Step::Ping { conn, id, pong } => {
                let id = *id;
                let message = if *pong {
                    ClientMessage::Pong { id }
                } else {
                    ClientMessage::Ping { id }
                };
                self.by(*conn, message)
            }
            Step::Archive { conn, name } => {
                let name = name.clone();
                self.by(*conn, ClientMessage::Archive { name, page: 0 })
            }
            Step::Download { conn, game } => {
                let game = *game;
                self.by(*conn, ClientMessage::Download { game })
            }
            Step::Leaderboard { .. } | Step::Profile { .. } => self.standings_request(step),
            Step::LobbyChat { .. } | Step::Block { .. } => self.club_step(step),
            Step::Details { conn, game } => self.details(*conn, *game),
            Step::Mutated {
                conn,
                template,
                mutations,
            } => self.mutated(*conn, *template, mutations),
            Step::Warp(ms) => {
                self.warp(Duration::from_millis(*ms));
                Ok(())
            }
            Step::FlagCheck { game, stale } => {
                // Scheduled for games in progress only, at each turn's start.
                let game = self.game(*game);
                let Some(turn) = self
                    .hub
                    .games
                    .get(&game)
                    .filter(|live| live.stored.stage == Stage::Playing)
                    .map(|live| live.turn)
                else {
                    return Ok(());
                };
                let turn = if *stale { turn.wrapping_sub(1) } else { turn };
                self.handle(Event::FlagCheck { game, turn })
            }
            Step::ReturnCheck { game, side } => {
                let game = self.game(*game);
                self.handle(Event::ReturnCheck { game, side: *side })
            }
            _ => self.game_message(step),
        }
    }

    /// A step of a game's messages: watch, leave, moves that are wrong, offers, answers,
    /// resigning, chat.
    fn game_message(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::Watch { by, game } => {
                let game = self.game(*game);
                self.from(*by, game, ClientMessage::Watch { game })
            }
            Step::Leave { by, game } => {
                let game = self.game(*game);
                self.from(*by, game, ClientMessage::Leave { game })
            }
            Step::BadMove {
                by,
                game,
                ply,
                text,
            } => {
                let game = self.game(*game);
                let ply = usize::try_from(*ply).unwrap_or(usize::MAX);
                let mv = text.clone();
                self.from(*by, game, ClientMessage::Move { game, ply, mv })
            }
            Step::Offer { by, game, takeback } => {
                let game = self.game(*game);
                let offer = offer(*takeback);
                self.from(*by, game, ClientMessage::Offer { game, offer })
            }
            Step::Answer {
                by,
                game,
                takeback,
                accept,
            } => {
                let game = self.game(*game);
                let (offer, accept) = (offer(*takeback), *accept);
                let answer = ClientMessage::Answer {
                    game,
                    offer,
                    accept,
                };
                self.from(*by, game, answer)
            }
            Step::Resign { by, game } => {
                let game = self.game(*game);
                self.from(*by, game, ClientMessage::Resign { game })
            }
            Step::Chat { by, game, text } => {
                let game = self.game(*game);
                let text = text.clone();
                self.from(*by, game, ClientMessage::Chat { game, text })
            }
            _ => self.challenge_message(step),
        }
    }

    /// A step of version 4: challenges, rematches, aborting, claiming, giving time.
    fn challenge_message(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::Challenge { conn, to, timing } => {
                let name = name_pick(*to, usize::from(*to) % self.clients.len());
                let line = serde_json::json!({
                    "type": "challenge_player",
                    "name": name,
                    "setup": setup_value(0, *to, timing, false),
                })
                .to_string();
                match self.conn(*conn) {
                    Some(conn) => self.send_line(conn, &line),
                    None => Ok(()),
                }
            }
            Step::ChallengeExpiry(pick) => {
                let challenge = pick_of(&self.hub.challenges.ids(), *pick);
                self.handle(Event::ChallengeExpiry { challenge })
            }
            Step::AnswerChallenge { conn, pick, accept } => {
                let challenge = pick_of(&self.hub.challenges.ids(), *pick);
                let accept = *accept;
                self.by(*conn, ClientMessage::AnswerChallenge { challenge, accept })
            }
            Step::Courtesy { by, game, what } => {
                let game = self.game(*game);
                let message = match what {
                    0 => ClientMessage::Abort { game },
                    1 => ClientMessage::Claim { game },
                    _ => ClientMessage::GiveTime { game },
                };
                self.from(*by, game, message)
            }
            Step::Rematch {
                conn,
                pick,
                offer,
                accept,
            } => {
                let game = pick_of(&self.hub.rematches.ids(), *pick);
                let offer_rematch = crate::net::protocol::Offer::Rematch;
                let message = if *offer {
                    ClientMessage::Offer {
                        game,
                        offer: offer_rematch,
                    }
                } else {
                    ClientMessage::Answer {
                        game,
                        offer: offer_rematch,
                        accept: *accept,
                    }
                };
                self.by(*conn, message)
            }
            _ => Ok(()),
        }
    }

    /// A leaderboard's page (the pool's rules and speed picked by `rules`) or a profile,
    /// asked for.
    fn standings_request(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::Leaderboard { conn, rules, page } => {
                let request = ClientMessage::Leaderboard(crate::net::protocol::LeaderboardAsk {
                    rules: Preset::ALL[usize::from(*rules) % Preset::ALL.len()],
                    speed: Speed::ALL[usize::from(*rules >> 7)],
                    page: *page,
                    bots: *rules & 64 != 0,
                });
                self.by(*conn, request)
            }
            Step::Profile { conn, name } => {
                let name = name.clone();
                self.by(*conn, ClientMessage::Profile { name })
            }
            _ => Ok(()),
        }
    }

    /// A step of the club: a lobby chat line, a block.
    fn club_step(&mut self, step: &Step) -> Result<(), Failure> {
        match step {
            Step::LobbyChat { conn, text } => {
                let text = text.clone();
                self.by(*conn, ClientMessage::LobbyChat { text })
            }
            Step::Block {
                conn,
                name,
                client,
                block,
            } => {
                let name = name_pick(*name, usize::from(*client));
                let block = *block;
                self.by(*conn, ClientMessage::Block { name, block })
            }
            _ => Ok(()),
        }
    }

    /// A message of template `template`, mutated, through the parser.
    fn mutated(&mut self, conn: u8, template: u8, mutations: &[Mutation]) -> Result<(), Failure> {
        let game = self.game(template);
        let ply = self
            .hub
            .games
            .get(&game)
            .map_or(0, |live| live.stored.game.moves().len());
        let line = mutate(&template_line(template, game, ply), mutations);
        match self.conn(conn) {
            Some(conn) => self.send_line(conn, &line),
            None => Ok(()),
        }
    }

    /// Sends a message from connection pick `conn`, if one is open.
    fn by(&mut self, conn: u8, message: ClientMessage) -> Result<(), Failure> {
        match self.conn(conn) {
            Some(conn) => self.send(conn, message),
            None => Ok(()),
        }
    }

    /// Sends a game's message from `by`, if it has a connection open.
    fn from(&mut self, by: Sender, game: GameId, message: ClientMessage) -> Result<(), Failure> {
        match self.sender(by, game) {
            Some(conn) => self.send(conn, message),
            None => Ok(()),
        }
    }

    fn connect(&mut self, client: usize) -> Result<(), Failure> {
        if self.conns.len() >= MAX_CONNS {
            return Ok(());
        }
        self.next_id += 1;
        let (out, inbox) = outbox::queue(self.limits.queue_bytes);
        let (cut_off, hangup) = oneshot::channel();
        let client = client % self.clients.len();
        let binding = session(self.next_id);
        self.conns.push(FakeConn {
            id: self.next_id,
            client,
            binding,
            inbox,
            hangup,
            opened: Instant::now(),
            nonce: None,
            reading: true,
        });
        self.handle(Event::Connected {
            conn: self.next_id,
            out,
            hangup: cut_off,
            binding,
            ip: IpAddr::V4(Ipv4Addr::new(
                127,
                0,
                0,
                u8::try_from(client + 1).unwrap_or(1),
            )),
        })?;
        // The challenge is read, whatever the connection does next.
        let last = self.conns.len() - 1;
        self.read(last, true)
    }

    fn identify(&mut self, conn: usize, name: u8, forgery: Forgery) -> Result<(), Failure> {
        let c = &self.conns[conn];
        let me = &self.clients[c.client];
        let nonce = c.nonce.clone().unwrap_or_default();
        let binding = c.binding;
        let (key, signature) = match forgery {
            Forgery::None => (me.public_hex(), me.sign(&nonce, &binding)),
            Forgery::StaleNonce => (me.public_hex(), me.sign(&format!("{nonce}0"), &binding)),
            Forgery::OtherSession => (me.public_hex(), me.sign(&nonce, &session(u64::MAX))),
            Forgery::OtherKey => {
                let other = &self.clients[(c.client + 1) % self.clients.len()];
                (other.public_hex(), me.sign(&nonce, &binding))
            }
            Forgery::SmallOrder => (
                format!("01{}", "00".repeat(31)),
                format!("01{}", "00".repeat(63)),
            ),
            Forgery::Garbage => ("zz".to_owned(), "\u{0}".to_owned()),
        };
        let name_bits = name;
        let name = name_pick(name, c.client);
        let id = c.id;
        let before = self.seated(id);
        self.send(
            conn,
            ClientMessage::Identify {
                name,
                key,
                signature,
                // Now and then as a bot: a name claimed by one kind is refused to the other.
                bot: name_bits.is_multiple_of(5),
            },
        )?;
        if !matches!(forgery, Forgery::None) && !before && self.seated(id) {
            return Err(format!(
                "a forged identify ({forgery:?}) was welcomed on connection {id}"
            ));
        }
        Ok(())
    }

    /// Whether the hub has connection `id` identified.
    fn seated(&self, id: ConnId) -> bool {
        self.hub.conns.get(&id).is_some_and(|c| c.seat.is_some())
    }

    fn disconnect(&mut self, conn: usize) -> Result<(), Failure> {
        let gone = self.conns.remove(conn);
        self.handle(Event::Disconnected { conn: gone.id })
    }

    /// The player to move in `game` plays its legal move number `pick`.
    fn play(&mut self, game: GameId, pick: usize) -> Result<(), Failure> {
        let Some(live) = self.hub.games.get(&game) else {
            return Ok(());
        };
        let record = &live.stored.game;
        let moves = record.state().legal_moves();
        if moves.is_empty() {
            return Ok(());
        }
        let mv = moves[pick % moves.len()].to_string();
        let ply = record.moves().len();
        let to_move = record.state().position().side_to_move();
        match self.player_conn(game, to_move) {
            Some(conn) => self.send(conn, ClientMessage::Move { game, ply, mv }),
            None => Ok(()),
        }
    }

    /// Time passes: every turn began `by` earlier, every deadline to return is `by` nearer.
    fn warp(&mut self, by: Duration) {
        for live in self.hub.games.values_mut() {
            if let Some(earlier) = live.turn_start.checked_sub(by) {
                live.turn_start = earlier;
            }
            for deadline in live.return_by.iter_mut().flatten() {
                if let Some(earlier) = deadline.checked_sub(by) {
                    *deadline = earlier;
                }
            }
        }
        self.hub.challenges.warp(by);
    }

    /// Reads what every reading connection was sent; a connection told to close ends.
    fn read_all(&mut self) -> Result<(), Failure> {
        let mut conn = 0;
        while conn < self.conns.len() {
            if self.conns[conn].reading {
                let before = self.conns.len();
                self.read(conn, false)?;
                if self.conns.len() < before {
                    continue;
                }
            }
            conn += 1;
        }
        Ok(())
    }

    /// Reads what connection `conn` was sent (the first message alone, with `first`); a
    /// connection the hub cut off ends.
    fn read(&mut self, conn: usize, first: bool) -> Result<(), Failure> {
        if self.conns[conn].hangup.try_recv().is_ok() {
            return self.disconnect(conn);
        }
        while let Some(line) = self.conns[conn].inbox.try_next() {
            if line.len() > MAX_LINE_BYTES {
                return Err(format!(
                    "a line of {} bytes (over {MAX_LINE_BYTES}) for connection {}: {}",
                    line.len(),
                    self.conns[conn].id,
                    crate::quote::excerpt(&line)
                ));
            }
            let message = ServerMessage::parse(&line).map_err(|e| {
                format!("the hub sent a line its clients cannot read ({e}): {line}")
            })?;
            match message {
                ServerMessage::Challenge { nonce } => self.conns[conn].nonce = Some(nonce),
                ServerMessage::Created {
                    game,
                    code: Some(code),
                } => {
                    self.codes.insert(game.id, code);
                }
                _ => {}
            }
            if first {
                break;
            }
        }
        Ok(())
    }

    /// What must hold after every step.
    fn check(&self) -> Result<(), Failure> {
        for c in &self.conns {
            if queued(&c.inbox) > queue_bound(&self.limits) {
                return Err(format!(
                    "connection {} has {} queued, over its bound {}",
                    c.id,
                    queued(&c.inbox),
                    queue_bound(&self.limits)
                ));
            }
        }
        for (id, live) in &self.hub.games {
            check_game(&live.stored.game, &live.stored.setup.timing)
                .map_err(|e| format!("game {id}: {e}"))?;
        }
        self.check_bookkeeping()
    }

    /// The hub keeps nothing for a connection gone, spectators and the games they watch
    /// agree, and no player waits in more open games than allowed.
    fn check_bookkeeping(&self) -> Result<(), Failure> {
        let hub = &self.hub;
        if let Some(gone) = hub
            .conns
            .keys()
            .find(|id| !self.conns.iter().any(|c| c.id == **id))
        {
            return Err(format!("the hub keeps connection {gone}, which is gone"));
        }
        for (game, live) in &hub.games {
            for conn in &live.spectators {
                if !hub
                    .conns
                    .get(conn)
                    .is_some_and(|c| c.watching.contains(game))
                {
                    return Err(format!(
                        "game {game} has spectator {conn}, who is not watching"
                    ));
                }
            }
        }
        for (id, conn) in &hub.conns {
            for game in &conn.watching {
                if !hub
                    .games
                    .get(game)
                    .is_some_and(|l| l.spectators.contains(id))
                {
                    return Err(format!(
                        "connection {id} watches game {game}, unknown to it"
                    ));
                }
            }
        }
        let online = |key: &str| {
            hub.conns
                .values()
                .any(|c| c.seat.as_ref().is_some_and(|s| s.key == key))
        };
        let pairs = hub.challenges.pairs();
        if let Some((from, to)) = pairs.iter().find(|(f, t)| !online(f) || !online(t)) {
            return Err(format!("a challenge from {from} to {to} outlived a player"));
        }
        for (key, _) in &pairs {
            let out = pairs.iter().filter(|(f, _)| f == key).count();
            if out > self.limits.challenges_out {
                return Err(format!("{key} has {out} challenges out"));
            }
        }
        let mut open: HashMap<&str, usize> = HashMap::new();
        for live in hub.games.values().filter(|l| l.stored.stage == Stage::Open) {
            *open.entry(live.stored.creator.key.as_str()).or_default() += 1;
        }
        match open.values().max() {
            Some(&most) if most > self.limits.open_games_per_player => Err(format!(
                "a player waits in {most} open games, over {}",
                self.limits.open_games_per_player
            )),
            _ => Ok(()),
        }
    }

    /// What must hold at the end: the database holds what the hub holds, and a hub started
    /// again on it resumes those games.
    fn check_store(&mut self) -> Result<(), Failure> {
        let stored = self
            .hub
            .store
            .unfinished()
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|read| read.map_err(|bad| format!("game {} is unreadable: {}", bad.id, bad.why)))
            .collect::<Result<Vec<_>, Failure>>()?;
        let mut ids: Vec<GameId> = self.hub.games.keys().copied().collect();
        ids.sort_unstable();
        let stored_ids: Vec<GameId> = stored.iter().map(|g| g.id).collect();
        if ids != stored_ids {
            return Err(format!(
                "the hub has games {ids:?}, the database unfinished {stored_ids:?}"
            ));
        }
        for again in &stored {
            let live = &self.hub.games[&again.id].stored;
            let texts = |g: &Game| {
                g.moves()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
            };
            if again.stage != live.stage
                || texts(&again.game) != texts(&live.game)
                || again.game.clocks() != live.game.clocks()
            {
                return Err(format!(
                    "game {}: the database has {:?} {:?} {:?}, the hub {:?} {:?} {:?}",
                    again.id,
                    again.stage,
                    texts(&again.game),
                    again.game.clocks(),
                    live.stage,
                    texts(&live.game),
                    live.game.clocks()
                ));
            }
        }
        let runtime = &self.runtime;
        let dir = self.dir.path();
        let limits = &self.limits;
        let again = catch_quietly(|| hub_on(dir, limits, runtime))
            .map_err(|e| format!("a hub started again on the database: {e}"))??;
        let mut resumed: Vec<GameId> = again.games.keys().copied().collect();
        resumed.sort_unstable();
        if resumed != ids {
            return Err(format!(
                "a hub started again resumed {resumed:?}, not {ids:?}"
            ));
        }
        if !again.club.keeps_as(&self.hub.club) {
            return Err(format!(
                "a hub started again has the club {:?}, not {:?}",
                again.club, self.hub.club
            ));
        }
        Ok(())
    }
}

thread_local! {
    /// The last panic on this thread, where and what, while the fuzzer catches them.
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`; a panic is a failure that says where in the crate and what, and is not printed
/// (shrinking a case panics hundreds of times). So is a panic the hub caught itself (a game
/// set aside is a game lost to its players).
fn catch_quietly<T>(f: impl FnOnce() -> T) -> Result<T, Failure> {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let loud = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let caught = LAST_PANIC.with(|last| {
                let mut last = last.borrow_mut();
                last.as_ref()?;
                *last = Some(format!(
                    "{} at {}",
                    payload_text(info.payload()),
                    our_frame()
                ));
                Some(())
            });
            if caught.is_none() {
                loud(info);
            }
        }));
    });
    LAST_PANIC.with(|last| *last.borrow_mut() = Some(String::new()));
    let result = catch_unwind(AssertUnwindSafe(f));
    let panic = LAST_PANIC
        .with(|last| last.borrow_mut().take())
        .unwrap_or_default();
    match result {
        Err(_) => Err(format!("the hub panicked: {panic}")),
        Ok(_) if !panic.is_empty() => Err(format!("the hub caught a panic: {panic}")),
        Ok(done) => Ok(done),
    }
}

/// A panic's message.
fn payload_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("")
}

/// The innermost frame of this crate's server in the current backtrace.
fn our_frame() -> String {
    std::backtrace::Backtrace::force_capture()
        .to_string()
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("at ./src/") && !line.contains("fuzz.rs"))
        .unwrap_or("an unknown place")
        .trim_start_matches("at ./")
        .to_owned()
}

/// A hub on the database in `dir`, its timers not running (time is a step of the fuzzer).
fn hub_on(
    dir: &std::path::Path,
    limits: &Limits,
    runtime: &tokio::runtime::Runtime,
) -> Result<Hub, Failure> {
    let store = Store::open(dir).map_err(|e| e.to_string())?;
    let (timers, _) = mpsc::unbounded_channel();
    Hub::new(
        store,
        limits.clone(),
        runtime.handle().clone(),
        timers.downgrade(),
    )
    .map_err(|e| e.to_string())
}

/// The channel binding of connection `id`'s (simulated) TLS session.
fn session(id: ConnId) -> ChannelBinding {
    let mut bytes = [0; 32];
    bytes[..8].copy_from_slice(&id.to_le_bytes());
    ChannelBinding::from_bytes(bytes)
}

/// What a connection has queued, in bytes.
fn queued(inbox: &Inbox) -> usize {
    inbox.queued_bytes()
}

/// The most a connection may have queued.
fn queue_bound(limits: &Limits) -> usize {
    limits.queue_bytes
}

/// A game's record replays legally from the start, it is not over (a game over leaves the
/// hub), and its clocks are clocks its time control can have.
fn check_game(game: &Game, timing: &crate::net::protocol::Timing) -> Result<(), String> {
    if *game.state().start_position() != Position::start() {
        return Err("does not begin at the start position".into());
    }
    let mut state = GameState::new(*game.rules(), Position::start());
    for (ply, done) in game.moves().iter().enumerate() {
        let again = state
            .play(done.mv)
            .map_err(|e| format!("move {ply} {done} is illegal: {e}"))?;
        if again != *done {
            return Err(format!("move {ply} is {done}, replayed {again}"));
        }
    }
    if state.position() != game.state().position() {
        return Err("its position is not that of its moves".into());
    }
    if let Some(outcome) = game.outcome() {
        return Err(format!("it is over ({outcome:?}) but still in the hub"));
    }
    let control = control(*timing);
    match (game.clocks(), control) {
        (None, None) => Ok(()),
        (Some(clocks), Some(control)) if clocks.control() == control => Clocks::restore(
            control,
            clocks.side(Side::Attackers),
            clocks.side(Side::Defenders),
        )
        .map(|_| ())
        .map_err(|e| format!("clocks {clocks:?}: {e}")),
        (clocks, _) => Err(format!("clocks {clocks:?} under {timing:?}")),
    }
}

fn offer(takeback: bool) -> crate::net::protocol::Offer {
    if takeback {
        crate::net::protocol::Offer::Takeback
    } else {
        crate::net::protocol::Offer::Draw
    }
}

/// Name pick `n` for `client`: mostly its own, else one of a set of odd ones.
fn name_pick(n: u8, client: usize) -> String {
    const ODD: [&str; 8] = [
        "ana",
        "Ana",
        "аna",
        " ana",
        "",
        "x\u{0}",
        "abcdefghijklmnopqrstuvwxy",
        "a\u{200b}na",
    ];
    match usize::from(n).checked_sub(200) {
        Some(odd) => ODD[odd % ODD.len()].to_owned(),
        None => format!("p{client}"),
    }
}

/// A create message's line, its numbers as they are.
fn create_line(rules: u8, side: u8, timing: &TimingPick, private: bool) -> String {
    let mut line = setup_value(rules, side, timing, private);
    line["type"] = "create".into();
    line.to_string()
}

/// Item `n` of `ids` (in their order), or a number none has when there are none.
fn pick_of(ids: &[u64], n: u8) -> u64 {
    match ids.len() {
        0 => u64::from(n),
        len => ids[usize::from(n) % len],
    }
}

/// A game's setup as JSON, its numbers as they are.
fn setup_value(rules: u8, side: u8, timing: &TimingPick, private: bool) -> serde_json::Value {
    let presets = [
        "standard", "walker", "nielsen", "fellhuhn", "opentafl", "nope",
    ];
    let sides = ["random", "attackers", "defenders"];
    let timing = match timing {
        TimingPick::Untimed => serde_json::json!({"kind": "untimed"}),
        TimingPick::Correspondence(days) => {
            serde_json::json!({"kind": "correspondence", "days": days})
        }
        TimingPick::Clock {
            main_ms,
            increment_ms,
            periods,
            period_ms,
        } => serde_json::json!({"kind": "clock", "control": {
            "main_ms": main_ms, "increment_ms": increment_ms,
            "periods": periods, "period_ms": period_ms}}),
    };
    serde_json::json!({
        "rules": presets[usize::from(rules) % presets.len()],
        "side": sides[usize::from(side) % sides.len()],
        "timing": timing,
        "private": private,
        "rated": rules.is_multiple_of(2),
    })
}

/// Template `n`, for game `game` at ply `ply`.
fn template_line(n: u8, game: GameId, ply: usize) -> String {
    let templates = [
        format!(r#"{{"type":"move","game":{game},"ply":{ply},"mv":"d2-c2"}}"#),
        format!(r#"{{"type":"join","game":{game},"code":null}}"#),
        r#"{"type":"join","game":null,"code":"0123456789ab"}"#.to_owned(),
        format!(r#"{{"type":"watch","game":{game}}}"#),
        format!(r#"{{"type":"leave","game":{game}}}"#),
        format!(r#"{{"type":"resign","game":{game}}}"#),
        format!(r#"{{"type":"offer","game":{game},"offer":"draw"}}"#),
        format!(r#"{{"type":"answer","game":{game},"offer":"takeback","accept":true}}"#),
        format!(r#"{{"type":"chat","game":{game},"text":"hi"}}"#),
        format!(r#"{{"type":"download","game":{game}}}"#),
        concat!(
            r#"{"type":"create","rules":"standard","side":"random","timing":{"kind":"clock","#,
            r#""control":{"main_ms":60000,"increment_ms":0,"periods":1,"period_ms":1000}},"#,
            r#""private":false,"engine_allowed":false}"#
        )
        .to_owned(),
        r#"{"type":"create","rules":"walker","timing":{"kind":"correspondence","days":3}}"#
            .to_owned(),
        r#"{"type":"identify","name":"p0","key":"00","signature":"00"}"#.to_owned(),
        r#"{"type":"lobby"}"#.to_owned(),
        r#"{"type":"ping","id":1}"#.to_owned(),
        r#"{"type":"pong","id":0}"#.to_owned(),
        r#"{"type":"archive","name":"p0"}"#.to_owned(),
        r#"{"type":"leaderboard","rules":"walker","speed":"correspondence","page":3}"#.to_owned(),
        r#"{"type":"profile","name":"p1"}"#.to_owned(),
        r#"{"type":"hello","version":2,"client":"x"}"#.to_owned(),
        r#"{"type":"challenge_player","name":"p1","setup":{"rules":"standard"}}"#.to_owned(),
        r#"{"type":"answer_challenge","challenge":1,"accept":true}"#.to_owned(),
        format!(r#"{{"type":"abort","game":{game}}}"#),
        format!(r#"{{"type":"claim","game":{game}}}"#),
        format!(r#"{{"type":"give_time","game":{game}}}"#),
        format!(r#"{{"type":"offer","game":{game},"offer":"rematch"}}"#),
        r#"{"type":"lobby_chat","text":"hi all"}"#.to_owned(),
        r#"{"type":"block","name":"p1","block":true}"#.to_owned(),
    ];
    templates[usize::from(n) % templates.len()].clone()
}

/// `line` with `mutations` made.
fn mutate(line: &str, mutations: &[Mutation]) -> String {
    let mut line = line.to_owned();
    for mutation in mutations {
        line = match mutation {
            Mutation::Number { nth, text } => replace_nth(&line, *nth, text, &numbers(&line)),
            Mutation::Text { nth, text } => {
                let escaped = serde_json::to_string(text).unwrap_or_default();
                let inner = escaped.trim_matches('"');
                replace_nth(&line, *nth, inner, &strings(&line))
            }
            Mutation::Delete { at } => {
                let mut chars: Vec<char> = line.chars().collect();
                if !chars.is_empty() {
                    chars.remove(usize::from(*at) % chars.len());
                }
                chars.into_iter().collect()
            }
            Mutation::Insert { at, text } => {
                let chars: Vec<char> = line.chars().collect();
                let at = usize::from(*at) % (chars.len() + 1);
                let mut out: String = chars[..at].iter().collect();
                out.push_str(text);
                out.extend(&chars[at..]);
                out
            }
        };
    }
    line
}

/// Replaces span number `nth` (of `spans`, byte ranges) of `line` by `text`.
fn replace_nth(line: &str, nth: u8, text: &str, spans: &[(usize, usize)]) -> String {
    if spans.is_empty() {
        return line.to_owned();
    }
    let (start, end) = spans[usize::from(nth) % spans.len()];
    format!("{}{text}{}", &line[..start], &line[end..])
}

/// The byte ranges of the runs of digits in `line`.
fn numbers(line: &str) -> Vec<(usize, usize)> {
    runs(line, |c| c.is_ascii_digit())
}

/// The byte ranges of the contents of the quoted strings in `line` (escapes not minded).
fn strings(line: &str) -> Vec<(usize, usize)> {
    let quotes: Vec<usize> = line.match_indices('"').map(|(i, _)| i).collect();
    quotes
        .chunks_exact(2)
        .map(|pair| (pair[0] + 1, pair[1]))
        .collect()
}

fn runs(line: &str, wanted: impl Fn(char) -> bool) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (wanted(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// Runs one case: each step, then the checks; at the end, the database's.
fn run_case(steps: &[Step]) -> Result<(), Failure> {
    let mut harness = Harness::new()?;
    for (n, step) in steps.iter().enumerate() {
        harness
            .run(step)
            .and_then(|()| harness.read_all())
            .and_then(|()| harness.check())
            .map_err(|e| format!("step {n} ({step:?}): {e}"))?;
    }
    harness.check_store()
}

/// Runs `cases` cases from `seed`; returns the minimal failing case, if one fails.
fn fuzz(cases: u32, seed: u64) -> Result<(), String> {
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let steps = proptest::collection::vec(step(), 1..MAX_STEPS);
    runner
        .run(&steps, |steps| {
            run_case(&steps).map_err(TestCaseError::fail)
        })
        .map_err(|e| match e {
            TestError::Fail(why, steps) => {
                format!("seed {seed}: {why}\nminimal case: {steps:#?}")
            }
            TestError::Abort(why) => format!("seed {seed}: aborted: {why}"),
        })
}

/// A number from the environment variable `name`, or `default`.
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn the_hub_survives_random_clients() {
    let cases = u32::try_from(env_number("BRANDUBH_FUZZ_CASES", 48)).unwrap_or(u32::MAX);
    // A fixed seed unless one is given: the same cases in every run of the suite.
    let seed = env_number("BRANDUBH_FUZZ_SEED", 0);
    if let Err(failure) = fuzz(cases, seed) {
        panic!("{failure}");
    }
}

/// The long run: `BRANDUBH_FUZZ_MINUTES` minutes (30 by default) of runs of 256 cases.
#[test]
#[ignore = "a long run: BRANDUBH_FUZZ_MINUTES=30 cargo test --lib fuzz -- --ignored"]
fn the_hub_survives_random_clients_for_long() {
    let until = Instant::now() + Duration::from_secs(60 * env_number("BRANDUBH_FUZZ_MINUTES", 30));
    let mut seed = env_number("BRANDUBH_FUZZ_SEED", rand::random());
    let mut cases = 0_u64;
    let mut failures = Vec::new();
    while Instant::now() < until {
        if let Err(failure) = fuzz(256, seed) {
            eprintln!("{failure}");
            failures.push(seed);
        }
        cases += 256;
        seed = seed.wrapping_add(1);
    }
    eprintln!("fuzz: {cases} cases, {} failing runs", failures.len());
    assert!(failures.is_empty(), "failing seeds: {failures:?}");
}

#[test]
fn a_spectator_of_a_game_withdrawn_watches_it_no_more() {
    let steps = [
        Step::Connect {
            client: 0,
            identify: true,
        },
        Step::Create {
            conn: 0,
            rules: 0,
            side: 0,
            timing: TimingPick::Untimed,
            private: false,
        },
        Step::Connect {
            client: 1,
            identify: true,
        },
        Step::Watch {
            by: Sender::Any(1),
            game: 0,
        },
        Step::Leave {
            by: Sender::Creator,
            game: 0,
        },
    ];
    assert_eq!(run_case(&steps), Ok(()));
}
