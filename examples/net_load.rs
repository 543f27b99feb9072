//! The online server under load, on the loopback: `--games` games between twice as many
//! clients, every move relayed, the server (`brandubh serve`, a child process) killed with
//! `kill -9` in the middle of the run and started again on the same data folder.
//!
//! Reports the time from a move sent to the opponent seeing it (p50, p99), the server's peak
//! memory (`VmHWM` of /proc/PID/status) and CPU time (utime + stime of /proc/PID/stat), and
//! proves that no game was lost: after the restart every client finds its game with every move
//! it had seen, the games are played to their end, and the database holds each of them over,
//! with the moves its players saw.
//!
//! ```text
//! cargo build --release && cargo build --release --example net_load
//! target/release/examples/net_load                 # 500 games, 1,000 clients
//! target/release/examples/net_load --games 20 --plies 10
//! ```
//!
//! Bounded: at most 2,000 games, and `--deadline` seconds for the whole run.
#![allow(clippy::expect_used)]

mod net_common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use brandubh::net::identity::Identity;
use brandubh::net::protocol::{ClientMessage, GameId, GameSetup, ServerMessage, SideChoice};
use brandubh::net::server::{DB_FILE, raise_open_files_limit};
use brandubh::net::tls::pinned_client_config;
use brandubh::rules::{GameState, Preset, Side};
use clap::Parser;
use net_common::{
    Server, Stream, Usage, default_server, load_average, percentile_ms, receive, send,
};
use tokio::io::AsyncBufReadExt;
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio_rustls::TlsConnector;

/// The load tool's settings.
#[derive(Parser, Debug)]
struct Args {
    /// Games played at once (two clients each).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=2000))]
    games: u32,
    /// Moves of each game; then the player to move resigns.
    #[arg(long, default_value_t = 80)]
    plies: usize,
    /// Milliseconds a client waits before it plays a move.
    #[arg(long, default_value_t = 250)]
    think_ms: u64,
    /// Milliseconds after every game has begun when the server is killed (`kill -9`).
    #[arg(long, default_value_t = 4000)]
    kill_after_ms: u64,
    /// The `brandubh` program (default: beside this example's folder, as cargo builds it).
    #[arg(long)]
    server: Option<PathBuf>,
    /// The most seconds the whole run may take.
    #[arg(long, default_value_t = 300)]
    deadline: u64,
    /// Connections being opened at once.
    #[arg(long, default_value_t = 64)]
    connecting: usize,
}

/// The run's phases, in order: clients connecting (games beginning), every game begun, and
/// after the server's restart. A move's time is counted in the phase it was sent in.
const PHASES: [&str; 3] = [
    "while clients connect",
    "every game begun",
    "after the restart",
];

/// The server's options: every client is on one address.
const WIDE_OPEN: &[&str] = &[
    "--per-address",
    "4096",
    "--new-names-per-minute",
    "4096",
    "--log-level",
    "warn",
    "--max-connections",
    "4096",
];

/// What every client counts.
#[derive(Default)]
struct Tally {
    /// The phase now (an index of [`PHASES`]).
    phase: AtomicUsize,
    /// Times from a move sent to the opponent seeing it, by phase.
    latencies: Mutex<[Vec<Duration>; 3]>,
    /// Moves seen by the opponent.
    relayed: AtomicU64,
    /// Clients that found their game, and every move they had seen, after a reconnection.
    resumed: AtomicU64,
    /// Clients whose game ended while the server was down (found over, in the archive).
    ended_while_down: AtomicU64,
    /// Clients that did not.
    lost: AtomicU64,
    /// Errors the server sent.
    errors: AtomicU64,
    /// Each game's moves at its end, as each of its clients saw them.
    ends: Mutex<Vec<(GameId, usize)>>,
}

/// A game's move in flight: its ply, when it was sent, and the phase then.
type InFlight = Arc<Mutex<Option<(usize, Instant, usize)>>>;

/// What one client needs.
struct Seat {
    name: String,
    identity: Identity,
    address: String,
    tls: TlsConnector,
    connecting: Arc<Semaphore>,
    tally: Arc<Tally>,
    in_flight: InFlight,
    plies: usize,
    think: Duration,
}

/// How a client takes part: it creates the game and tells the other, or joins it.
enum Role {
    Creator(oneshot::Sender<GameId>),
    Joiner(oneshot::Receiver<GameId>),
}

fn main() -> ExitCode {
    net_common::exit_code("net_load", run(&Args::parse()))
}

/// Runs the load; returns whether every check passed.
fn run(args: &Args) -> Result<bool, String> {
    // The server, a child, inherits the limit raised.
    let files = raise_open_files_limit().map_err(|e| format!("open files: {e}"))?;
    let program = match &args.server {
        Some(path) => path.clone(),
        None => default_server()?,
    };
    let data = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
    let mut server = Server::start(&program, data.path(), "127.0.0.1:0", WIDE_OPEN)?;
    let address = server.address.clone();
    println!(
        "server {} on {address}, {} games, {} clients, {} plies, {} ms to think, {files} files",
        program.display(),
        args.games,
        args.games * 2,
        args.plies,
        args.think_ms
    );
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let tls = TlsConnector::from(
        pinned_client_config(Some(server.fingerprint.clone())).map_err(|e| e.to_string())?,
    );
    let tally = Arc::new(Tally::default());
    let connecting = Arc::new(Semaphore::new(args.connecting));
    let (begun, mut begun_rx) = mpsc::unbounded_channel();
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.deadline);
    let mut clients = Vec::new();
    for game in 0..args.games {
        let (tell, told) = oneshot::channel();
        let in_flight = InFlight::default();
        for (index, role) in [(0, Role::Creator(tell)), (1, Role::Joiner(told))] {
            let seat = Seat {
                name: format!("load{}", game * 2 + index),
                identity: Identity::generate(),
                address: address.clone(),
                tls: tls.clone(),
                connecting: Arc::clone(&connecting),
                tally: Arc::clone(&tally),
                in_flight: Arc::clone(&in_flight),
                plies: args.plies,
                think: Duration::from_millis(args.think_ms),
            };
            let begun = begun.clone();
            clients.push(runtime.spawn(async move { seat.play(role, begun).await }));
        }
    }
    drop(begun);
    let expected = clients.len();
    let all_begun = runtime.block_on(async {
        let mut count = 0;
        while count < expected {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, begun_rx.recv()).await {
                Ok(Some(())) => count += 1,
                _ => return false,
            }
        }
        true
    });
    if !all_begun {
        return Err("not every game began before the deadline".into());
    }
    let begun_at = Instant::now();
    tally.phase.store(1, Ordering::Relaxed);
    println!(
        "every game begun in {:.1} s; load average {}",
        (begun_at - start).as_secs_f64(),
        load_average()
    );
    std::thread::sleep(Duration::from_millis(args.kill_after_ms));
    let before = server.kill()?;
    let killed_at = Instant::now();
    tally.phase.store(2, Ordering::Relaxed);
    let mut again = Server::start(&program, data.path(), &address, WIDE_OPEN)?;
    println!(
        "server killed (kill -9) {:.1} s after every game began, started again in {} ms",
        (killed_at - begun_at).as_secs_f64(),
        killed_at.elapsed().as_millis()
    );
    let outcomes = runtime.block_on(async {
        let mut outcomes = Vec::new();
        for client in clients {
            let left = deadline.saturating_duration_since(Instant::now());
            outcomes.push(match tokio::time::timeout(left, client).await {
                Ok(Ok(outcome)) => outcome,
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("the deadline passed".into()),
            });
        }
        outcomes
    });
    let wall = start.elapsed();
    let after = again.kill()?;
    println!("load average {}", load_average());
    let failed: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    Ok(report(&tally, args, &[before, after], wall, &failed) & check_store(&tally, data.path())?)
}

/// Prints the figures; returns whether every client finished its game with nothing lost.
fn report(
    tally: &Tally,
    args: &Args,
    servers: &[Usage],
    wall: Duration,
    failed: &[&String],
) -> bool {
    let phases = tally
        .latencies
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    println!("moves relayed {}", tally.relayed.load(Ordering::Relaxed));
    for (name, mut latencies) in PHASES.into_iter().zip(phases) {
        latencies.sort_unstable();
        let at = |per_mille| percentile_ms(&latencies, per_mille);
        println!(
            "  sent {name}: {} moves, latency ms p50 {:.2} p99 {:.2} max {:.2}",
            latencies.len(),
            at(500),
            at(990),
            at(1000)
        );
    }
    let cpu: Duration = servers.iter().map(|u| u.cpu).sum();
    let peak = servers.iter().map(|u| u.peak_rss_kib).max().unwrap_or(0);
    println!(
        "server peak RSS {:.1} MB, CPU {:.1} s in {:.1} s of run ({:.0} % of one core)",
        f64::from(u32::try_from(peak).unwrap_or(u32::MAX)) / 1024.0,
        cpu.as_secs_f64(),
        wall.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64()
    );
    let resumed = tally.resumed.load(Ordering::Relaxed);
    let ended = tally.ended_while_down.load(Ordering::Relaxed);
    let lost = tally.lost.load(Ordering::Relaxed);
    println!(
        "after the kill: {resumed} clients found their game in progress with every move they \
         had seen, {ended} found it over (ended while the server was down), {lost} did not \
         find it; {} errors from the server; {} of {} clients failed",
        tally.errors.load(Ordering::Relaxed),
        failed.len(),
        args.games * 2
    );
    for reason in failed.iter().take(5) {
        println!("  a client failed: {reason}");
    }
    failed.is_empty() && lost == 0
}

/// Checks the server's database: every game over, with the moves its players saw.
fn check_store(tally: &Tally, data: &Path) -> Result<bool, String> {
    let db = rusqlite::Connection::open(data.join(DB_FILE)).map_err(|e| e.to_string())?;
    let ends = tally.ends.lock().unwrap_or_else(PoisonError::into_inner);
    let mut seen: HashMap<GameId, Vec<usize>> = HashMap::new();
    for &(game, plies) in ends.iter() {
        seen.entry(game).or_default().push(plies);
    }
    let mut good = 0;
    for (&game, plies) in &seen {
        let stored: (String, i64) = db
            .query_row(
                "SELECT stage, (SELECT count(*) FROM moves WHERE game = ?1) FROM games
                 WHERE id = ?1",
                [i64::try_from(game).map_err(|e| e.to_string())?],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| format!("game {game}: {e}"))?;
        let same = plies
            .iter()
            .all(|&p| i64::try_from(p).is_ok_and(|p| p == stored.1));
        if stored.0 == "over" && same && plies.len() == 2 {
            good += 1;
        } else {
            println!("  game {game}: stored {stored:?}, its players saw {plies:?}");
        }
    }
    let games: i64 = db
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    println!("database: {games} games, {good} over with the moves both players saw");
    Ok(usize::try_from(games).is_ok_and(|g| g == good))
}

impl Seat {
    /// Plays one game to its end, through a server restart; says when the game has begun.
    async fn play(self, role: Role, begun: mpsc::UnboundedSender<()>) -> Result<(), String> {
        let mut stream = self.connect().await?;
        let game = match role {
            Role::Creator(tell) => {
                let setup = GameSetup {
                    rules: Preset::Standard,
                    side: SideChoice::Attackers,
                    ..GameSetup::default()
                };
                send(&mut stream, &ClientMessage::Create(setup)).await?;
                let id = loop {
                    if let ServerMessage::Created { game, .. } = receive(&mut stream).await? {
                        break game.id;
                    }
                };
                let _ = tell.send(id);
                id
            }
            Role::Joiner(told) => {
                let id = told.await.map_err(|_| "the creator failed")?;
                let join = ClientMessage::Join {
                    game: Some(id),
                    code: None,
                };
                send(&mut stream, &join).await?;
                id
            }
        };
        let mut table = Table {
            game,
            board: GameState::start(Preset::Standard.rules()),
            seen: Vec::new(),
            side: None,
            waiting: false,
            turn_began: tokio::time::Instant::now(),
            resuming: false,
            asked: false,
        };
        let mut buffer = Vec::new();
        let mut begun = Some(begun);
        loop {
            let my_turn = table.side == Some(table.board.position().side_to_move())
                && table.board.outcome().is_none()
                && !table.waiting
                && !table.resuming;
            let line = tokio::select! {
                line = stream.read_until(b'\n', &mut buffer) => line,
                () = tokio::time::sleep_until(table.turn_began + self.think), if my_turn => {
                    let message = self.next(&table);
                    table.waiting = true;
                    if send(&mut stream, &message).await.is_err() {
                        stream = self.reconnect(game).await?;
                        table.resume();
                    }
                    continue;
                }
            };
            if !matches!(line, Ok(1..)) || buffer.last() != Some(&b'\n') {
                stream = self.reconnect(game).await?;
                table.resume();
                buffer.clear();
                continue;
            }
            let text = String::from_utf8_lossy(&buffer).into_owned();
            buffer.clear();
            let message = ServerMessage::parse(text.trim_end()).map_err(|e| e.to_string())?;
            match self.handle(&mut table, message) {
                Step::Go => {}
                Step::Reply(reply) => {
                    if send(&mut stream, &reply).await.is_err() {
                        stream = self.reconnect(game).await?;
                        table.resume();
                    }
                }
                Step::Done => {
                    self.tally
                        .ends
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((game, table.seen.len()));
                    return Ok(());
                }
                Step::Lost(why) => return Err(why),
            }
            if table.side.is_some()
                && let Some(begun) = begun.take()
            {
                let _ = begun.send(());
            }
        }
    }

    /// The client's next message on its turn: a move, or its resignation after `plies`.
    fn next(&self, table: &Table) -> ClientMessage {
        let ply = table.board.ply();
        if ply >= self.plies {
            return ClientMessage::Resign { game: table.game };
        }
        let moves = table.board.legal_moves();
        let mv = moves[rand::random_range(0..moves.len())].to_string();
        *self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some((
            ply,
            Instant::now(),
            self.tally.phase.load(Ordering::Relaxed),
        ));
        ClientMessage::Move {
            game: table.game,
            ply,
            mv,
        }
    }

    /// What a message from the server changes.
    fn handle(&self, table: &mut Table, message: ServerMessage) -> Step {
        match message {
            ServerMessage::Ping { id } => return Step::Reply(ClientMessage::Pong { id }),
            ServerMessage::State(view) if view.summary.id == table.game => {
                if table.resuming {
                    let kept = view.moves.len() >= table.seen.len()
                        && view.moves[..table.seen.len()] == table.seen[..];
                    let counter = if kept {
                        &self.tally.resumed
                    } else {
                        &self.tally.lost
                    };
                    counter.fetch_add(1, Ordering::Relaxed);
                    if !kept {
                        return Step::Lost(format!("game {} lost moves", table.game));
                    }
                    // A move sent while this client was away is not timed: only moves sent
                    // while both players are connected are.
                    self.in_flight
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .take();
                }
                let mut board = GameState::start(Preset::Standard.rules());
                for mv in &view.moves {
                    if board.play_text(mv).is_err() {
                        return Step::Lost(format!("a stored move is illegal: {mv}"));
                    }
                }
                table.board = board;
                table.seen.clone_from(&view.moves);
                table.side = view.you;
                table.waiting = false;
                table.resuming = false;
                table.turn_began = tokio::time::Instant::now();
            }
            ServerMessage::Moved { game, ply, mv, .. }
                if game == table.game && ply == table.board.ply() =>
            {
                let mover = table.board.position().side_to_move();
                if table.board.play_text(&mv).is_err() {
                    return Step::Lost(format!("the server relayed an illegal move: {mv}"));
                }
                table.seen.push(mv);
                table.turn_began = tokio::time::Instant::now();
                if Some(mover) == table.side {
                    table.waiting = false;
                } else {
                    self.relayed(ply);
                }
            }
            ServerMessage::Result { game, .. } if game == table.game => return Step::Done,
            // The game ended while the server was down: it is stored as finished.
            ServerMessage::Save { game, .. } if game == table.game && table.resuming => {
                self.tally.ended_while_down.fetch_add(1, Ordering::Relaxed);
                return Step::Done;
            }
            ServerMessage::Error { message, .. } if table.resuming => {
                self.tally.lost.fetch_add(1, Ordering::Relaxed);
                return Step::Lost(format!("game {} is gone: {message}", table.game));
            }
            // The answer to the download asked on reconnecting, the game being still on.
            ServerMessage::Error { .. } if table.asked => table.asked = false,
            ServerMessage::Error { message, .. } => {
                if self.tally.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                    eprintln!("net_load: {}: the server says: {message}", self.name);
                }
                table.waiting = false;
            }
            _ => {}
        }
        Step::Go
    }

    /// Counts a move of the opponent seen, and the time since it was sent.
    fn relayed(&self, ply: usize) {
        self.tally.relayed.fetch_add(1, Ordering::Relaxed);
        let sent = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some((sent_ply, at, phase)) = sent
            && sent_ply == ply
        {
            self.tally
                .latencies
                .lock()
                .unwrap_or_else(PoisonError::into_inner)[phase]
                .push(at.elapsed());
        }
    }

    /// Connects, says hello and identifies.
    async fn connect(&self) -> Result<Stream, String> {
        let _turn = self.connecting.acquire().await.map_err(|e| e.to_string())?;
        net_common::connect(&self.address, None, &self.tls, &self.identity, &self.name).await
    }

    /// Connects again until the server answers, then asks for the game: its state comes
    /// first if it is not over, then its save if it is.
    async fn reconnect(&self, game: GameId) -> Result<Stream, String> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        loop {
            if let Ok(mut stream) = self.connect().await {
                send(&mut stream, &ClientMessage::Download { game }).await?;
                return Ok(stream);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A client's view of its game.
struct Table {
    game: GameId,
    board: GameState,
    /// The moves as the server annotated them.
    seen: Vec<String>,
    side: Option<Side>,
    /// A move sent and not yet seen back.
    waiting: bool,
    turn_began: tokio::time::Instant,
    /// Connected again, the game's state not yet received.
    resuming: bool,
    /// The game's save asked for on reconnecting, not yet answered.
    asked: bool,
}

impl Table {
    fn resume(&mut self) {
        self.resuming = true;
        self.asked = true;
        self.waiting = false;
    }
}

/// What a client does after a message.
enum Step {
    Go,
    Reply(ClientMessage),
    Done,
    Lost(String),
}
