//! `brandubh serve`: the game server. Tokio accepts connections, each on its own task (TLS,
//! line cap, rate limit, timeouts); one hub thread owns the games, the clocks and the `SQLite`
//! database, and validates every move with the rules engine before it is stored and relayed.

mod backup;
mod conn;
mod hub;
mod log;
mod names;
mod outbox;
mod store;

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore, mpsc, watch};

pub use backup::{BackupError, backup};
pub use store::DB_FILE;

use super::protocol::Timing;
use super::tls::ServerKey;
use crate::game::TimeControl;

/// The address a server listens on when none is given.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7343";

/// The limits that keep a hostile client from hurting others, in one place.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once, in all.
    pub connections: usize,
    /// Connections open at once from one address, counted once they said hello; as many
    /// more may be on their way there (a newer one pushes the oldest out), so that sockets
    /// that say nothing cannot lock their address out.
    pub per_address: usize,
    /// Time for the TLS handshake and the hello.
    pub handshake: Duration,
    /// A connection that sends nothing (not even a pong) for this long is closed.
    pub idle: Duration,
    /// How often the server pings each connection (to measure lag and keep it alive).
    pub ping_every: Duration,
    /// Messages a connection may send per second, on average.
    pub messages_per_second: u32,
    /// Messages a connection may send at once, above the average.
    pub burst: u32,
    /// Bad messages (unreadable, too long, too fast) after which a connection is closed.
    pub bad_messages: u32,
    /// The most measured lag credited back to a mover's clock.
    pub max_lag_credit: Duration,
    /// Bytes queued for a connection that reads too slowly before it is cut off.
    pub queue_bytes: usize,
    /// Open games one player may wait in at once.
    pub open_games_per_player: usize,
    /// How long a player who dropped out of a game on a clock (not a correspondence game)
    /// has to come back before the game is lost.
    pub return_window: Duration,
    /// Names one key may hold.
    pub names_per_key: usize,
    /// New names that may be claimed from one address in a minute.
    pub new_names_per_minute: usize,
    /// How long a server going down waits for its connections to be told and closed.
    pub going_down: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 4096,
            per_address: 16,
            handshake: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            ping_every: Duration::from_secs(15),
            messages_per_second: 20,
            burst: 40,
            bad_messages: 5,
            max_lag_credit: Duration::from_secs(1),
            queue_bytes: 1 << 20,
            open_games_per_player: 5,
            return_window: Duration::from_secs(60),
            names_per_key: 5,
            new_names_per_minute: 10,
            going_down: Duration::from_secs(5),
        }
    }
}

/// What a server is started with.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on.
    pub listen: String,
    /// The folder of its key, certificate and database.
    pub data: PathBuf,
    /// Its limits.
    pub limits: Limits,
}

/// The default data folder: `brandubh-server` in the user's data folder.
pub fn default_data_dir() -> Option<PathBuf> {
    crate::folders::SERVER_DATA.path()
}

/// The time control of a timing: a correspondence game's days per move are a clock of one
/// overtime period of that length, which each move fills again (and 1 ms of main time).
pub(crate) fn control(timing: Timing) -> Option<TimeControl> {
    match timing {
        Timing::Clock { control } => Some(control),
        Timing::Correspondence { days } => TimeControl::per_move(days),
        Timing::Untimed => None,
    }
}

/// Files a server keeps open besides its connections: the listener, the database and its
/// log, the standard streams, the runtime's own, with room to spare.
pub const FILES_BESIDE_CONNECTIONS: u64 = 64;

/// The open files a server needs for `connections` connections at once.
pub const fn files_needed(connections: usize) -> u64 {
    connections as u64 + FILES_BESIDE_CONNECTIONS
}

/// Raises the process's soft limit of open files to its hard limit (each connection is an
/// open file; the soft limit is often 1,024); returns the limit now (`u64::MAX`: none).
#[cfg(unix)]
pub fn raise_open_files_limit() -> std::io::Result<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    limit.current = limit.maximum;
    setrlimit(Resource::Nofile, limit)?;
    Ok(limit.current.unwrap_or(u64::MAX))
}

/// Raises the process's soft limit of open files (not on this system: no limit is known).
#[cfg(not(unix))]
pub fn raise_open_files_limit() -> std::io::Result<u64> {
    Ok(u64::MAX)
}

/// Milliseconds, saturating.
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A server could not start, or stopped on a failure.
#[derive(Debug)]
pub struct StartError(String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StartError {}

/// A server running on its own threads; dropping it stops it at once (as a crash would:
/// nothing stored is lost), [`Stopper::stop`] gracefully.
pub struct RunningServer {
    addr: SocketAddr,
    fingerprint: String,
    runtime: Option<tokio::runtime::Runtime>,
    /// The hub's thread, which ends with whether the server went down as asked.
    hub: Option<std::thread::JoinHandle<HubEnd>>,
    stopper: Stopper,
    /// Closed when every connection's task has ended (each holds a sender).
    connections_ended: mpsc::Receiver<()>,
    going_down: Duration,
}

/// How the hub's thread ended, when it did not fail.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum HubEnd {
    /// The server went down as asked ([`Stopper::stop`]).
    WentDown,
    /// Its inbox closed (nothing was left to send it events).
    Closed,
}

/// Stops a running server gracefully, from any thread.
#[derive(Clone)]
pub struct Stopper {
    accepting: watch::Sender<bool>,
    hub: mpsc::UnboundedSender<hub::Event>,
}

impl Stopper {
    /// Stops the server gracefully: no connection is accepted any more, and those still in
    /// their handshake are closed; the hub finishes the event it is handling, tells every
    /// connection the server is going down, and closes the database (its log copied in);
    /// then [`RunningServer::wait`] waits (a bounded time) for every connection to be
    /// written out and closed, and returns.
    pub fn stop(&self) {
        let _ = self.accepting.send(false);
        let _ = self.hub.send(hub::Event::GoingDown);
    }
}

impl RunningServer {
    /// The address it listens on.
    pub const fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its certificate's fingerprint.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// A handle that stops the server gracefully.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Stops the server gracefully (see [`Stopper::stop`]) on SIGTERM or SIGINT; a second
    /// one ends the process at once.
    pub fn stop_on_signals(&self) -> std::io::Result<()> {
        let Some(runtime) = &self.runtime else {
            return Ok(());
        };
        let stopper = self.stopper();
        let mut signals = {
            let _inside = runtime.enter();
            EndingSignals::catch()?
        };
        runtime.spawn(async move {
            let (first, _) = signals.next().await;
            tracing::info!(signal = first, "going down");
            stopper.stop();
            let (second, number) = signals.next().await;
            tracing::warn!(signal = second, "a second signal: stopping at once");
            std::process::exit(128 + number);
        });
        Ok(())
    }

    /// Runs until the server stops. Stopped gracefully ([`Stopper::stop`]), it waits until
    /// every connection is closed or [`Limits::going_down`] has passed, and returns `Ok`;
    /// an error if the server stopped serving otherwise (its hub, which sets aside a game it
    /// fails on, failed itself).
    pub fn wait(mut self) -> Result<(), StartError> {
        let stopped = self.hub.take().map(std::thread::JoinHandle::join);
        if let Some(runtime) = self.runtime.take() {
            let (ended, going_down) = (&mut self.connections_ended, self.going_down);
            let all_closed =
                runtime.block_on(async { tokio::time::timeout(going_down, ended.recv()).await });
            if all_closed.is_err() {
                tracing::warn!("connections still open after {:?}: closed", self.going_down);
            }
            runtime.shutdown_background();
        }
        match stopped {
            Some(Ok(HubEnd::WentDown)) => {
                tracing::info!("stopped");
                Ok(())
            }
            Some(Err(_)) => Err(StartError("the server stopped on a fault".into())),
            _ => Err(StartError("the server stopped".into())),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            // Waits for the runtime's threads, so the listener is closed when this returns
            // and a server started next may take the same address at once.
            runtime.shutdown_timeout(DROP_WAIT);
        }
        // The connections are gone: the hub closes the database and ends.
        let _ = self.stopper.hub.send(hub::Event::GoingDown);
        if let Some(hub) = self.hub.take() {
            let _ = hub.join();
        }
    }
}

/// The longest a dropped server waits for its runtime's threads to end (each task is
/// dropped at its next await; none blocks for long).
const DROP_WAIT: Duration = Duration::from_secs(5);

/// The signals that stop a server: SIGTERM (a service manager stopping it) and SIGINT
/// (Ctrl-C), both caught from the start (neither ends the process by itself any more).
struct EndingSignals {
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl EndingSignals {
    /// Catches them from now on (inside the runtime).
    fn catch() -> std::io::Result<EndingSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(EndingSignals {
                terminate: signal(SignalKind::terminate())?,
                interrupt: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(EndingSignals {})
    }

    /// The name and number of the next one to come.
    async fn next(&mut self) -> (&'static str, i32) {
        use signal_hook::consts::{SIGINT, SIGTERM};
        #[cfg(unix)]
        tokio::select! {
            _ = self.terminate.recv() => ("SIGTERM", SIGTERM),
            _ = self.interrupt.recv() => ("SIGINT", SIGINT),
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            ("SIGINT", SIGINT)
        }
    }
}

/// Starts a server: its key (made on first start), its database (every unfinished game
/// resumed), its listener.
pub fn start(config: ServerConfig) -> Result<RunningServer, StartError> {
    let data = &config.data;
    let fail = |what: &str, e: &dyn std::fmt::Display| StartError(format!("{what}: {e}"));
    std::fs::create_dir_all(data)
        .map_err(|e| fail(&format!("cannot make {}", data.display()), &e))?;
    let key = ServerKey::load_or_create(data)
        .map_err(|e| fail("cannot read or make the server key", &e))?;
    let tls = key
        .server_config()
        .map_err(|e| fail("the server key", &e))?;
    let store = store::Store::open(data).map_err(|e| fail("cannot open the database", &e))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| fail("cannot start", &e))?;
    let listener = runtime
        .block_on(TcpListener::bind(&config.listen))
        .map_err(|e| fail(&format!("cannot listen on {}", config.listen), &e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| fail("cannot listen", &e))?;
    let (events, mut inbox) = mpsc::unbounded_channel();
    let mut hub = hub::Hub::new(
        store,
        config.limits.clone(),
        runtime.handle().clone(),
        events.downgrade(),
    )
    .map_err(|e| fail("cannot read the database", &e))?;
    let hub = std::thread::Builder::new()
        .name("brandubh-hub".into())
        .spawn(move || {
            while let Some(event) = inbox.blocking_recv() {
                if matches!(event, hub::Event::GoingDown) {
                    hub.go_down();
                    return HubEnd::WentDown;
                }
                hub.handle(event);
            }
            HubEnd::Closed
        })
        .map_err(|e| fail("cannot start", &e))?;
    let (accepting, still_accepting) = watch::channel(true);
    let (connection_alive, connections_ended) = mpsc::channel(1);
    let stopper = Stopper {
        accepting,
        hub: events.clone(),
    };
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let going_down = config.limits.going_down;
    let tasks = Tasks {
        events,
        limits: config.limits,
        alive: connection_alive,
    };
    runtime.spawn(accept(listener, acceptor, tasks, still_accepting));
    tracing::info!(%addr, "listening");
    Ok(RunningServer {
        addr,
        fingerprint: key.fingerprint(),
        runtime: Some(runtime),
        hub: Some(hub),
        stopper,
        connections_ended,
        going_down,
    })
}

/// What every connection's task is given.
struct Tasks {
    events: mpsc::UnboundedSender<hub::Event>,
    limits: Limits,
    /// Held by each task until it ends.
    alive: mpsc::Sender<()>,
}

/// Connections open: in all, and per address those that said hello and those on their
/// way (oldest first, each with the signal that pushes it out).
#[derive(Default)]
struct Counts {
    all: usize,
    per_address: HashMap<IpAddr, usize>,
    arriving: HashMap<IpAddr, VecDeque<(u64, Arc<Notify>)>>,
    next: u64,
}

impl Counts {
    /// Takes connection `id` from `ip` off the arriving list; whether it was on it.
    fn arrived(&mut self, ip: IpAddr, id: u64) -> bool {
        let Some(arriving) = self.arriving.get_mut(&ip) else {
            return false;
        };
        let before = arriving.len();
        arriving.retain(|(other, _)| *other != id);
        let found = arriving.len() < before;
        if arriving.is_empty() {
            self.arriving.remove(&ip);
        }
        found
    }
}

/// Holds a connection's place in [`Counts`] until dropped.
pub(super) struct Admitted {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
    id: u64,
    evicted: Arc<Notify>,
    per_address: usize,
    settled: bool,
}

impl Admitted {
    /// Signalled when a newer connection from the same address pushes this one out before
    /// its hello.
    pub fn evicted(&self) -> Arc<Notify> {
        Arc::clone(&self.evicted)
    }

    /// The connection said hello: counted against its address's cap, if there is room
    /// (whether there was).
    pub fn settle(&mut self) -> bool {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.arrived(self.ip, self.id);
        let here = counts.per_address.entry(self.ip).or_insert(0);
        if *here >= self.per_address {
            return false;
        }
        *here += 1;
        self.settled = true;
        true
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.all = counts.all.saturating_sub(1);
        if !self.settled {
            counts.arrived(self.ip, self.id);
            return;
        }
        if let Some(n) = counts.per_address.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.per_address.remove(&self.ip);
            }
        }
    }
}

/// Admits a connection from `ip` within the cap in all, on its way to its address's cap:
/// with as many on their way from there already, the oldest of them is pushed out.
fn admit(counts: &Arc<Mutex<Counts>>, ip: IpAddr, limits: &Limits) -> Option<Admitted> {
    let mut c = counts.lock().unwrap_or_else(PoisonError::into_inner);
    if c.all >= limits.connections {
        return None;
    }
    c.all += 1;
    c.next += 1;
    let id = c.next;
    let evicted = Arc::new(Notify::new());
    let arriving = c.arriving.entry(ip).or_default();
    if arriving.len() >= limits.per_address.max(1)
        && let Some((_, oldest)) = arriving.pop_front()
    {
        oldest.notify_one();
    }
    arriving.push_back((id, Arc::clone(&evicted)));
    Some(Admitted {
        counts: Arc::clone(counts),
        ip,
        id,
        evicted,
        per_address: limits.per_address,
        settled: false,
    })
}

/// Connections over the caps being told `full` at once, at most (more are closed unread).
const REFUSING_AT_ONCE: usize = 16;

/// Accepts connections, each on a task of its own, until the server stops accepting.
async fn accept(
    listener: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    tasks: Tasks,
    mut accepting: watch::Receiver<bool>,
) {
    let limits = &tasks.limits;
    let counts = Arc::new(Mutex::new(Counts::default()));
    let refusing = Arc::new(Semaphore::new(REFUSING_AT_ONCE));
    let mut next_id = 0;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = accepting.wait_for(|accepting| !accepting) => return,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait a little, go on.
                tracing::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Over the cap: told `full` after its hello, or closed at once when too many are.
        let place = admit(&counts, peer.ip(), limits);
        let refusal = if place.is_some() {
            None
        } else {
            log::over_caps(peer);
            let Ok(permit) = Arc::clone(&refusing).try_acquire_owned() else {
                continue;
            };
            Some(permit)
        };
        let _ = stream.set_nodelay(true);
        next_id += 1;
        let id = next_id;
        log::connection(id, peer);
        let task = conn::Connection {
            id,
            events: tasks.events.clone(),
            limits: limits.clone(),
            place,
            accepting: accepting.clone(),
        };
        let acceptor = acceptor.clone();
        let alive = tasks.alive.clone();
        let running = tokio::spawn(async move {
            task.run(stream, acceptor).await;
            log::closed(id);
            drop(refusal);
            drop(alive);
        });
        tokio::spawn(async move {
            if let Err(e) = running.await {
                tracing::error!("connection {id} ended on a fault: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_capped_per_address_and_in_all() {
        let limits = Limits {
            connections: 3,
            per_address: 2,
            ..Limits::default()
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let settled = |ip| {
            let mut place = admit(&counts, ip, &limits).unwrap();
            assert!(place.settle());
            place
        };
        let first = settled(a);
        let _second = settled(a);
        let mut third = admit(&counts, a, &limits).unwrap();
        assert!(!third.settle(), "a third from one address");
        drop(third);
        let _fourth = settled(b);
        assert!(admit(&counts, b, &limits).is_none(), "a fourth in all");
        drop(first);
        assert!(admit(&counts, a, &limits).is_some(), "a place freed");
    }

    #[test]
    fn a_connection_on_its_way_is_pushed_out_by_a_newer_one_from_its_address() {
        let limits = Limits {
            per_address: 2,
            ..Limits::default()
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let silent: Vec<Admitted> = (0..2)
            .map(|_| admit(&counts, a, &limits).unwrap())
            .collect();
        let mut honest = admit(&counts, a, &limits).unwrap();
        assert!(honest.settle(), "locked out by silent sockets");
        let pushed_out = silent[0].evicted();
        assert!(
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    tokio::time::timeout(Duration::ZERO, pushed_out.notified()).await
                })
                .is_ok(),
            "the oldest silent one stays"
        );
    }

    #[test]
    fn correspondence_days_are_a_clock_refilled_by_each_move() {
        let control = control(Timing::Correspondence { days: 3 }).unwrap();
        assert_eq!(control.period(), Duration::from_secs(3 * 86_400));
        assert_eq!(control.periods(), 1);
        assert!(super::control(Timing::Correspondence { days: 0 }).is_none());
        assert!(super::control(Timing::Untimed).is_none());
    }
}
