//! A bot: the engine playing on a server by itself (`brandubh bot`). It is an ordinary
//! client ([`Client`]: the same connection, reconnecting after a drop, the same identity
//! storage) that identifies as a bot, and an engine thread ([`Worker`]) for each game. It
//! keeps one open game of its settings and plays whoever joins at its level's strength
//! within the game's clock, holding at most a few games at once ([`seats`]); it declines
//! every offer and chats nothing. Stopped ([`Stopper::stop`]), it opens nothing more,
//! withdraws its open game, and leaves its games in progress to the server's rules for a
//! player who leaves. It logs one line per game opened, begun and ended.

mod seats;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use super::client::{Client, ClientConfig, ClientError, Event};
use super::protocol::{GameId, GameSetup};
use crate::ai::{JobId, MoveLimits, Report, Worker, engine_for, limits_for};
use crate::game::{EngineKind, Level};
use seats::{Do, Seats};

/// The most games a bot may be told to hold at once (`--games`).
pub const MOST_GAMES: usize = 8;

/// The games a bot holds at once unless told otherwise.
pub const DEFAULT_GAMES: usize = 2;

/// How long a stopping bot waits for the server to withdraw its open game.
pub const STOP_WAIT: Duration = Duration::from_secs(5);

/// How a bot plays.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The connection: server, name, key folder, trust. Marked as a bot's by [`Bot::new`].
    pub client: ClientConfig,
    /// Its strength.
    pub level: Level,
    /// The games it opens (rules, side, clock).
    pub setup: GameSetup,
    /// The most games it holds at once, open and playing (1 to [`MOST_GAMES`]).
    pub games: usize,
}

/// The folder of the key (and pinned servers) of the bot named `name`, under the config
/// folder `config`: one per name, so that two bots on one machine never share an identity.
/// `name` is a valid name ([`normalize_name`](super::protocol::normalize_name)): it has no
/// path separator and never is `.` or `..`.
pub fn key_folder(config: &Path, name: &str) -> PathBuf {
    config.join("bots").join(name)
}

/// Why a bot stopped other than when told.
#[derive(Debug)]
pub enum BotError {
    /// The client gave up (an unknown or changed server key, a refused name...).
    Client(ClientError),
    /// An engine thread could not start or failed.
    Engine(String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Client(e) => e.fmt(f),
            BotError::Engine(why) => write!(f, "the engine failed: {why}"),
        }
    }
}

impl std::error::Error for BotError {}

/// What the bot's loop hears of.
#[derive(Debug)]
pub enum Input {
    /// From the connection.
    Net(Event),
    /// From an engine.
    Engine(Report),
    /// Told to stop.
    Stop,
}

impl From<Event> for Input {
    fn from(event: Event) -> Input {
        Input::Net(event)
    }
}

impl From<Report> for Input {
    fn from(report: Report) -> Input {
        Input::Engine(report)
    }
}

/// Tells a running bot to stop (from a signal handler's thread, or a test).
#[derive(Clone, Debug)]
pub struct Stopper(Sender<Input>);

impl Stopper {
    /// Stops the bot: it withdraws its open game and returns (within [`STOP_WAIT`]).
    pub fn stop(&self) {
        let _ = self.0.send(Input::Stop);
    }
}

/// A bot, ready to run.
pub struct Bot {
    config: BotConfig,
    inputs: Sender<Input>,
    inbox: Receiver<Input>,
}

impl Bot {
    /// A bot of `config` (its client marked as a bot's, its games capped at
    /// [`MOST_GAMES`]).
    pub fn new(mut config: BotConfig) -> Bot {
        config.client.bot = true;
        config.games = config.games.clamp(1, MOST_GAMES);
        let (inputs, inbox) = channel();
        Bot {
            config,
            inputs,
            inbox,
        }
    }

    /// What stops it.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.inputs.clone())
    }

    /// Runs until stopped (then `Ok`, once its open game is withdrawn or [`STOP_WAIT`] has
    /// passed), or until the client gives up or an engine fails.
    pub fn run(self) -> Result<(), BotError> {
        let Bot {
            config,
            inputs,
            inbox,
        } = self;
        let client = Client::start(config.client.clone(), inputs.clone());
        let mut running = Running {
            seats: Seats::new(config.setup.clone(), config.games),
            level: config.level,
            client,
            inputs,
            engines: HashMap::new(),
            jobs: HashMap::new(),
            next_job: 0,
        };
        let mut deadline: Option<Instant> = None;
        loop {
            let input = match deadline {
                None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(at) => inbox.recv_timeout(at.saturating_duration_since(Instant::now())),
            };
            let todo = match input {
                Ok(Input::Net(event)) => running.net(event)?,
                Ok(Input::Engine(report)) => running.engine(report)?,
                Ok(Input::Stop) if deadline.is_none() => {
                    tracing::info!(playing = running.seats.playing(), "stopping");
                    deadline = Some(Instant::now() + STOP_WAIT);
                    running.seats.stop()
                }
                Ok(Input::Stop) => Vec::new(),
                Err(RecvTimeoutError::Timeout) => {
                    tracing::warn!("the server did not answer in time: stopping anyway");
                    return Ok(());
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            };
            if running.carry_out(todo)? {
                return Ok(());
            }
        }
    }
}

/// A running bot's connection and engines.
struct Running {
    seats: Seats,
    level: Level,
    client: Client,
    inputs: Sender<Input>,
    /// Each game's engine thread.
    engines: HashMap<GameId, Worker>,
    /// The game and ply of each search asked.
    jobs: HashMap<JobId, (GameId, usize)>,
    next_job: JobId,
}

impl Running {
    /// What the bot does on the client's `event`.
    fn net(&mut self, event: Event) -> Result<Vec<Do>, BotError> {
        Ok(match event {
            Event::Connected { .. } => {
                tracing::info!("connected");
                self.seats.connected()
            }
            Event::Message(message) => self.seats.message(&message),
            Event::Disconnected { reason } => {
                tracing::warn!("connection lost ({reason}): reconnecting");
                Vec::new()
            }
            Event::ServerGoingDown => {
                tracing::info!("the server is restarting: reconnecting");
                Vec::new()
            }
            Event::Failed(e) => return Err(BotError::Client(e)),
            Event::Unsent(message) => {
                tracing::warn!("not sent, the connection down too long: {message:?}");
                Vec::new()
            }
            Event::Saved { .. } => Vec::new(),
        })
    }

    /// What the bot does on an engine's `report`.
    fn engine(&mut self, report: Report) -> Result<Vec<Do>, BotError> {
        match report {
            Report::Done(job, found) => {
                let Some((game, ply)) = self.jobs.remove(&job) else {
                    return Ok(Vec::new());
                };
                match found {
                    Ok(mv) => Ok(self.seats.thought(game, ply, mv.to_string())),
                    Err(why) => {
                        tracing::warn!(game, "no move found: {why}");
                        Ok(Vec::new())
                    }
                }
            }
            Report::Gone => Err(BotError::Engine("an engine thread ended".into())),
            _ => Ok(Vec::new()),
        }
    }

    /// Does `todo`, in order; `true` when the bot may exit.
    fn carry_out(&mut self, todo: Vec<Do>) -> Result<bool, BotError> {
        for step in todo {
            match step {
                Do::Send(message) => self.client.send(message),
                Do::Think {
                    game,
                    state,
                    clocks,
                } => {
                    let side = state.position().side_to_move();
                    let limits = limits_for(self.level);
                    let limits =
                        MoveLimits::on_clocks(limits, clocks.as_ref(), side, state.position());
                    let job = self.next_job;
                    self.next_job += 1;
                    self.jobs.insert(job, (game, state.ply()));
                    self.engine_of(game)?.play(job, &state, limits);
                }
                Do::Forget(game) => {
                    self.engines.remove(&game);
                    self.jobs.retain(|_, (g, _)| *g != game);
                }
                Do::Resync => self.client.cut(),
                Do::Exit => return Ok(true),
            }
        }
        Ok(false)
    }

    /// The engine thread of `game`, started if it has none.
    fn engine_of(&mut self, game: GameId) -> Result<&mut Worker, BotError> {
        if !self.engines.contains_key(&game) {
            let engine = engine_for(EngineKind::Search, self.level, rand::random());
            let worker = Worker::with_engine(engine, self.inputs.clone())
                .map_err(|e| BotError::Engine(e.to_string()))?;
            self.engines.insert(game, worker);
        }
        self.engines
            .get_mut(&game)
            .ok_or_else(|| BotError::Engine("no engine".into()))
    }
}
