//! `brandubh serve`: the game server. Tokio accepts connections, each on its own task (TLS,
//! line cap, rate limit, timeouts); one hub thread owns the games, the clocks and the `SQLite`
//! database, and validates every move with the rules engine before it is stored and relayed.

mod admission;
mod backup;
mod conn;
mod conn_id;
mod event;
mod hub;
mod limits;
mod log;
mod names;
mod outbox;
mod reader;
mod store;
mod timing;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{Semaphore, mpsc, watch};

pub use backup::{BackupError, backup};
pub use limits::Limits;
pub use store::DB_FILE;

use super::tls::ServerKey;
use admission::{Counts, admit};

/// The address a server listens on when none is given.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7343";

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
    hub: mpsc::UnboundedSender<event::Event>,
}

impl Stopper {
    /// Stops the server gracefully: no connection is accepted any more, and those still in
    /// their handshake are closed; the hub finishes the event it is handling, tells every
    /// connection the server is going down, and closes the database (its log copied in);
    /// then [`RunningServer::wait`] waits (a bounded time) for every connection to be
    /// written out and closed, and returns.
    pub fn stop(&self) {
        let _ = self.accepting.send(false);
        let _ = self.hub.send(event::Event::GoingDown);
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
        let _ = self.stopper.hub.send(event::Event::GoingDown);
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
                if matches!(event, event::Event::GoingDown) {
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
    events: mpsc::UnboundedSender<event::Event>,
    limits: Limits,
    /// Held by each task until it ends.
    alive: mpsc::Sender<()>,
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
