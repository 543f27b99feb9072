//! The client side of online play. A [`Client`] runs on its own thread: it connects (TLS,
//! the server's key pinned on first use), says hello, proves its identity, and then delivers
//! everything the server sends as [`Event`]s on a channel of the caller's choosing, taking
//! messages to send through [`Client::send`]. After a drop it reconnects by itself; the
//! server sends the state of the player's games again, and the client watches again what it
//! watched. A finished game of the player is downloaded into the save folder.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::ServerName;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

mod config;

use super::identity::{ChannelBinding, Identity};
use super::protocol::{BadMessage, ClientMessage, ErrorCode, GameId, ServerMessage};
use super::tls::{KNOWN_SERVERS_FILE, KeyChanged, KnownServers, PinningVerifier, client_config};
use super::wire::{Line, read_line, write_line};
use crate::game::storage;
pub use config::{ClientConfig, Resolver, check_server, with_port};

/// What a client that does not reconnect says when the server went down.
const GOING_DOWN: &str = "the server is going down (restarting, most likely): try again soon";

/// The most messages held while the connection is down, sent after the reconnect; more are
/// refused ([`Event::Unsent`]). Below the server's burst of messages, so that sending them
/// all at once is not taken for a flood.
pub const MAX_QUEUED: usize = 32;

/// What the client reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// Connected, hello said and (with a name) identified.
    Connected {
        /// The server's key's fingerprint.
        fingerprint: String,
    },
    /// A message from the server.
    Message(ServerMessage),
    /// The connection dropped; the client tries again (when it reconnects).
    Disconnected {
        /// Why, in words.
        reason: String,
    },
    /// The server said it is going down (a restart, most likely) and closed the connection;
    /// the client tries again as after a drop, reporting no failed attempt until it is
    /// connected again. Nothing was lost.
    ServerGoingDown,
    /// A finished game was saved.
    Saved {
        /// The game.
        game: GameId,
        /// Where.
        path: PathBuf,
    },
    /// The client gave up: the reason stands until the user acts. The thread has ended.
    Failed(ClientError),
    /// A message was not sent and will not be: the connection is down and the queue is
    /// full, or the client gave up.
    Unsent(ClientMessage),
}

/// Why a client gives up.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum ClientError {
    /// The server's key is not the pinned one.
    KeyChanged(KeyChanged),
    /// The server is not pinned yet and its key is not trusted (none was, or another).
    UnknownServer {
        /// `HOST:PORT`.
        server: String,
        /// The fingerprint it showed.
        shown: String,
        /// The fingerprint trusted, if one was ([`ClientConfig::trust`]).
        trusted: Option<String>,
    },
    /// The server speaks another protocol version.
    Version(String),
    /// The server refused the identity or the name.
    Refused(String),
    /// Pinning can be skipped on the loopback only.
    InsecureNotLoopback(String),
    /// The identity key or known-servers file cannot be read or written.
    Local(String),
    /// The server cannot be reached (without reconnecting).
    Unreachable(String),
    /// `server` is not an address (a port out of range): why, in words.
    BadAddress(String),
    /// The address answers, but not as a brandubh server does (a web or echo server): the
    /// address, and what was received, for the curious.
    NotBrandubh {
        /// `HOST:PORT`.
        server: String,
        /// What went wrong, as TLS or the protocol said it.
        detail: String,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::KeyChanged(e) => e.fmt(f),
            ClientError::UnknownServer {
                server,
                shown,
                trusted: None,
            } => write!(
                f,
                "{server} is not a known server yet; its key's fingerprint is {shown}: if it \
                 is the one `brandubh serve` printed there, trust it (--trust {shown})"
            ),
            ClientError::UnknownServer {
                server,
                shown,
                trusted: Some(trusted),
            } => write!(
                f,
                "{server} shows the key {shown}, not the one trusted ({trusted}): refusing to \
                 connect"
            ),
            ClientError::Version(m) => write!(f, "the server refused our protocol version: {m}"),
            ClientError::Refused(m) => write!(f, "the server refused: {m}"),
            ClientError::InsecureNotLoopback(s) => {
                write!(f, "--insecure is for the loopback only, not {s}")
            }
            ClientError::Local(m) | ClientError::Unreachable(m) | ClientError::BadAddress(m) => {
                f.write_str(m)
            }
            ClientError::NotBrandubh { server, detail } => write!(
                f,
                "{server} is not a brandubh server (wrong address or port? it answered: \
                 {detail})"
            ),
        }
    }
}

impl std::error::Error for ClientError {}

/// What the caller tells the client thread.
enum Command {
    Send(ClientMessage),
    Cut,
}

/// A connection to a server on its own thread. Dropping it tells the thread to close the
/// connection and end, and returns at once.
pub struct Client {
    commands: mpsc::UnboundedSender<Command>,
    /// Dropped with the client to stop the thread wherever it is (connecting, waiting to
    /// reconnect), without waiting for it: dropping a client never blocks.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Client {
    /// Starts the client; its events go to `events` (as `T::from(event)`).
    pub fn start<T: From<Event> + Send + 'static>(
        config: ClientConfig,
        events: std::sync::mpsc::Sender<T>,
    ) -> Client {
        let (commands, inbox) = mpsc::unbounded_channel();
        let (stop, stopped) = tokio::sync::oneshot::channel();
        // Not joined: the thread ends by itself once told to stop, whatever it waits for.
        let _detached = std::thread::Builder::new()
            .name("brandubh-client".into())
            .spawn(move || {
                let report = move |event: Event| events.send(T::from(event)).is_ok();
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    report(Event::Failed(ClientError::Local("cannot start".into())));
                    return;
                };
                runtime.block_on(async {
                    tokio::select! {
                        () = run(config, inbox, &report) => {},
                        _ = stopped => {},
                    }
                });
                // A lookup or a file that hangs on the blocking pool is not waited for.
                runtime.shutdown_background();
            });
        Client {
            commands,
            _stop: stop,
        }
    }

    /// Sends a message. While the connection is down it waits in a queue (up to
    /// [`MAX_QUEUED`]) and goes after the reconnect; a message that cannot wait is reported
    /// as [`Event::Unsent`], never dropped silently.
    pub fn send(&self, message: ClientMessage) {
        let _ = self.commands.send(Command::Send(message));
    }

    /// Drops the connection as a network failure would; the client reconnects.
    pub fn cut(&self) {
        let _ = self.commands.send(Command::Cut);
    }
}

/// How a session ended.
enum Ended {
    /// The caller is gone.
    Closed,
    /// Dropped: try again.
    Dropped(String),
    /// The server went down, saying so: try again.
    GoingDown,
    /// Give up.
    Fatal(ClientError),
}

/// What a client keeps across connections.
struct Memory {
    watched: HashSet<GameId>,
    mine: HashSet<GameId>,
    /// Messages to send once connected again, the oldest first.
    unsent: VecDeque<ClientMessage>,
    /// The server said it was going down, and no connection has been made since: the
    /// attempts that fail meanwhile (it is restarting) are not reported.
    server_went_down: bool,
    /// A connection was made once: a name not found since is the network, tried again.
    connected_once: bool,
}

impl Memory {
    /// Keeps `message` to send after the reconnect, or reports it unsent if the queue is
    /// full.
    fn queue(&mut self, message: ClientMessage, report: &dyn Fn(Event) -> bool) {
        if self.unsent.len() < MAX_QUEUED {
            self.unsent.push_back(message);
        } else {
            report(Event::Unsent(message));
        }
    }

    /// Reports every message still to send as unsent (the client gives up).
    fn give_up(
        &mut self,
        inbox: &mut mpsc::UnboundedReceiver<Command>,
        report: &dyn Fn(Event) -> bool,
    ) {
        for message in self.unsent.drain(..) {
            report(Event::Unsent(message));
        }
        while let Ok(command) = inbox.try_recv() {
            if let Command::Send(message) = command {
                report(Event::Unsent(message));
            }
        }
    }
}

async fn run(
    config: ClientConfig,
    mut inbox: mpsc::UnboundedReceiver<Command>,
    report: &dyn Fn(Event) -> bool,
) {
    let dir = config.config_dir.clone();
    let loaded = blocking(move || Identity::load_or_create(&dir)).await;
    let identity = match loaded.and_then(|loaded| loaded) {
        Ok(identity) => identity,
        Err(e) => {
            report(Event::Failed(ClientError::Local(format!(
                "cannot read or make the identity key: {e}"
            ))));
            return;
        }
    };
    let mut memory = Memory {
        watched: HashSet::new(),
        mine: HashSet::new(),
        unsent: VecDeque::new(),
        server_went_down: false,
        connected_once: false,
    };
    let mut delay = Duration::from_millis(100);
    loop {
        match session(&config, &identity, &mut inbox, report, &mut memory).await {
            Ended::Closed => return,
            Ended::Fatal(e) => {
                memory.give_up(&mut inbox, report);
                report(Event::Failed(e));
                return;
            }
            Ended::GoingDown if config.reconnect => {
                memory.server_went_down = true;
                if !report(Event::ServerGoingDown) {
                    return;
                }
                if !wait_queueing(delay, &mut inbox, &mut memory, report).await {
                    return;
                }
            }
            Ended::Dropped(reason) if config.reconnect => {
                if !memory.server_went_down && !report(Event::Disconnected { reason }) {
                    return;
                }
                if !wait_queueing(delay, &mut inbox, &mut memory, report).await {
                    return;
                }
                delay = (delay * 2).min(Duration::from_secs(5));
            }
            Ended::GoingDown => {
                memory.give_up(&mut inbox, report);
                report(Event::Failed(ClientError::Unreachable(GOING_DOWN.into())));
                return;
            }
            Ended::Dropped(reason) => {
                memory.give_up(&mut inbox, report);
                report(Event::Failed(ClientError::Unreachable(reason)));
                return;
            }
        }
    }
}

/// Waits `delay` before the next attempt, queueing what the caller sends meanwhile; `false`
/// if the caller is gone.
async fn wait_queueing(
    delay: Duration,
    inbox: &mut mpsc::UnboundedReceiver<Command>,
    memory: &mut Memory,
    report: &dyn Fn(Event) -> bool,
) -> bool {
    let wait = tokio::time::sleep(delay);
    tokio::pin!(wait);
    loop {
        tokio::select! {
            () = &mut wait => return true,
            command = inbox.recv() => match command {
                None => return false,
                Some(Command::Send(message)) => memory.queue(message, report),
                // Already down.
                Some(Command::Cut) => {}
            },
        }
    }
}

/// A TLS stream to the server.
type Stream = tokio_rustls::client::TlsStream<TcpStream>;

/// The addresses of `address` (`HOST:PORT`), looked up off the client's runtime: a lookup
/// that hangs holds up nothing else, and the client still stops when dropped.
async fn resolve(resolver: &Resolver, address: &str) -> std::io::Result<Vec<SocketAddr>> {
    match resolver {
        Resolver::System => tokio::net::lookup_host(address)
            .await
            .map(Iterator::collect),
        #[cfg(test)]
        Resolver::Blocking(resolve) => {
            let resolve = Arc::clone(resolve);
            let address = address.to_owned();
            blocking(move || resolve(&address))
                .await
                .unwrap_or_else(Err)
        }
    }
}

/// Runs `work` (file I/O, a lookup) on the blocking pool, off the client's runtime; an error
/// if it panicked or the runtime is shutting down.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(std::io::Error::other)
}

/// Connects to the server and checks its key (pinned on first use); returns the stream
/// and the key's fingerprint. Before the first connection is made (`first`), a name that
/// cannot be found ends the client; later it may be the network, tried again.
async fn connect(config: &ClientConfig, first: bool) -> Result<(Stream, String), Ended> {
    let address =
        check_server(&config.server).map_err(|e| Ended::Fatal(ClientError::BadAddress(e)))?;
    let addrs = match resolve(&config.resolver, &address).await {
        Ok(addrs) => addrs,
        Err(e) => {
            let why = format!("cannot find {address}: {e}");
            return Err(if first {
                Ended::Fatal(ClientError::Unreachable(why))
            } else {
                Ended::Dropped(why)
            });
        }
    };
    if config.insecure && !addrs.iter().all(|a| a.ip().is_loopback()) {
        return Err(Ended::Fatal(ClientError::InsecureNotLoopback(address)));
    }
    let pinned = if config.insecure {
        None
    } else {
        pinned_key(config, &address).await
    };
    // An unknown server must show the key trusted, if one is.
    let expected = if config.insecure {
        None
    } else {
        pinned.clone().or_else(|| config.trust.clone())
    };
    let verifier = Arc::new(PinningVerifier::new(expected.clone()));
    let Ok(tls) = client_config(Arc::clone(&verifier)) else {
        return Err(Ended::Fatal(ClientError::Local("cannot set up TLS".into())));
    };
    let connect = tokio::time::timeout(Duration::from_secs(10), TcpStream::connect(&addrs[..]));
    let tcp = match connect.await {
        Ok(Ok(tcp)) => tcp,
        Ok(Err(e)) => return Err(Ended::Dropped(format!("cannot connect to {address}: {e}"))),
        Err(_) => return Err(Ended::Dropped(format!("{address} does not answer"))),
    };
    let _ = tcp.set_nodelay(true);
    let Ok(name) = ServerName::try_from("brandubh") else {
        return Err(Ended::Fatal(ClientError::Local(
            "cannot name the server".into(),
        )));
    };
    let stream = match tokio_rustls::TlsConnector::from(tls)
        .connect(name, tcp)
        .await
    {
        Ok(stream) => stream,
        Err(e) => {
            return Err(match (pinned, expected, verifier.shown()) {
                (Some(pinned), _, Some(shown)) if pinned != shown => {
                    Ended::Fatal(ClientError::KeyChanged(KeyChanged {
                        server: address,
                        pinned,
                        shown,
                        file: known_servers(config).path().to_owned(),
                    }))
                }
                (None, Some(trusted), Some(shown)) if trusted != shown => {
                    Ended::Fatal(ClientError::UnknownServer {
                        server: address,
                        shown,
                        trusted: Some(trusted),
                    })
                }
                _ if speaks_other_protocol(&e) => Ended::Fatal(ClientError::NotBrandubh {
                    server: address,
                    detail: e.to_string(),
                }),
                _ => Ended::Dropped(format!("TLS with {address}: {e}")),
            });
        }
    };
    let Some(fingerprint) = verifier.shown() else {
        return Err(Ended::Dropped("the server showed no key".into()));
    };
    if !config.insecure && pinned_key(config, &address).await.is_none() {
        // Pinned only once the user has trusted it (the verifier checked it is that one).
        if config.trust.is_none() {
            return Err(Ended::Fatal(ClientError::UnknownServer {
                server: address,
                shown: fingerprint,
                trusted: None,
            }));
        }
        pin(config, address, fingerprint.clone()).await?;
    }
    Ok((stream, fingerprint))
}

/// Whether the TLS handshake failed on what the other end sent (an answer that is not TLS,
/// or TLS out of order: a web server, an echo server), not on the network (refused, reset,
/// cut: worth trying again).
fn speaks_other_protocol(e: &std::io::Error) -> bool {
    use rustls::Error as Tls;
    let tls = e.get_ref().and_then(|inner| inner.downcast_ref::<Tls>());
    matches!(
        tls,
        Some(
            Tls::InvalidMessage(_)
                | Tls::InappropriateMessage { .. }
                | Tls::InappropriateHandshakeMessage { .. }
                | Tls::PeerMisbehaved(_)
                | Tls::PeerIncompatible(_)
        )
    )
}

/// The known-servers file in the config folder.
fn known_servers(config: &ClientConfig) -> KnownServers {
    KnownServers::new(config.config_dir.join(KNOWN_SERVERS_FILE))
}

/// The fingerprint pinned for `address`, if any (the file read off the client's runtime).
async fn pinned_key(config: &ClientConfig, address: &str) -> Option<String> {
    let known = known_servers(config);
    let address = address.to_owned();
    blocking(move || known.get(&address)).await.ok().flatten()
}

/// Pins `fingerprint` for `address` (the file written off the client's runtime).
async fn pin(config: &ClientConfig, address: String, fingerprint: String) -> Result<(), Ended> {
    let known = known_servers(config);
    let added = blocking(move || known.add(&address, &fingerprint)).await;
    added.and_then(|added| added).map_err(|e| {
        Ended::Fatal(ClientError::Local(format!(
            "cannot pin the server's key: {e}"
        )))
    })
}

/// One connection, from connecting to its end.
async fn session(
    config: &ClientConfig,
    identity: &Identity,
    inbox: &mut mpsc::UnboundedReceiver<Command>,
    report: &dyn Fn(Event) -> bool,
    memory: &mut Memory,
) -> Ended {
    let (stream, fingerprint) = match connect(config, !memory.connected_once).await {
        Ok(connected) => connected,
        Err(ended) => return ended,
    };
    let Some(binding) = ChannelBinding::of(stream.get_ref().1) else {
        return Ended::Dropped("TLS gave no channel binding".into());
    };
    let (reader, mut writer) = tokio::io::split(stream);
    let (lines, mut incoming) = mpsc::unbounded_channel();
    let reading = tokio::spawn(async move {
        let mut reader = BufReader::new(reader);
        let mut bytes = Vec::new();
        loop {
            let parsed = match read_line(&mut reader, &mut bytes).await {
                Ok(Line::Text(text)) => ServerMessage::parse(&text),
                // A line too long for any message is skipped.
                Ok(Line::TooLong) => continue,
                // Refused as any line that is not a message (never read with its bad bytes
                // replaced).
                Ok(Line::NotUtf8) => Err(BadMessage::new("a line that is not UTF-8")),
                Ok(Line::End) | Err(_) => break,
            };
            if lines.send(parsed).is_err() {
                break;
            }
        }
    });
    let _abort = AbortOnDrop(reading);
    let send = |message: ClientMessage| message.to_line();
    let hello = ClientMessage::Hello {
        version: config.version,
        client: format!("brandubh {}", env!("CARGO_PKG_VERSION")),
    };
    if write_line(&mut writer, &send(hello)).await.is_err() {
        return Ended::Dropped("the server closed the connection".into());
    }
    let proof = Proof { identity, binding };
    if let Err(ended) = handshake(config, &proof, &mut writer, &mut incoming, report).await {
        return ended;
    }
    memory.server_went_down = false;
    memory.connected_once = true;
    if !report(Event::Connected { fingerprint }) {
        return Ended::Closed;
    }
    if let Err(ended) = resume(&mut writer, memory).await {
        return ended;
    }
    loop {
        let to_send = tokio::select! {
            command = inbox.recv() => match command {
                None => {
                    let _ = writer.shutdown().await;
                    return Ended::Closed;
                }
                Some(Command::Cut) => return Ended::Dropped("cut".into()),
                Some(Command::Send(message)) => {
                    match &message {
                        ClientMessage::Watch { game } => { memory.watched.insert(*game); }
                        ClientMessage::Leave { game } => { memory.watched.remove(game); }
                        _ => {}
                    }
                    Some(message)
                }
            },
            message = incoming.recv() => match message {
                None => return Ended::Dropped("the server closed the connection".into()),
                Some(Err(e)) => return Ended::Dropped(e.to_string()),
                Some(Ok(ServerMessage::GoingDown)) => return Ended::GoingDown,
                Some(Ok(message)) => {
                    let reply = answer(&message, config, memory, report).await;
                    if !report(Event::Message(message)) {
                        return Ended::Closed;
                    }
                    reply
                }
            },
        };
        if let Some(message) = to_send
            && write_line(&mut writer, &send(message.clone()))
                .await
                .is_err()
        {
            // Not written: it goes again after the reconnect (an answer to a ping does not).
            if !matches!(message, ClientMessage::Pong { .. }) {
                memory.unsent.push_front(message);
            }
            return Ended::Dropped("the server closed the connection".into());
        }
    }
}

/// Watches again what was watched, then sends what waited for the connection, in order.
async fn resume(
    writer: &mut tokio::io::WriteHalf<Stream>,
    memory: &mut Memory,
) -> Result<(), Ended> {
    let closed = || Ended::Dropped("the server closed the connection".into());
    for &game in &memory.watched {
        let watch = ClientMessage::Watch { game }.to_line();
        if write_line(writer, &watch).await.is_err() {
            return Err(closed());
        }
    }
    while let Some(message) = memory.unsent.pop_front() {
        if write_line(writer, &message.to_line()).await.is_err() {
            memory.unsent.push_front(message);
            return Err(closed());
        }
    }
    Ok(())
}

/// What proves the identity in one session: the key, and the session's channel binding.
struct Proof<'a> {
    identity: &'a Identity,
    binding: ChannelBinding,
}

/// The handshake: hello, then (with a name) the challenge signed and the welcome.
async fn handshake(
    config: &ClientConfig,
    proof: &Proof<'_>,
    writer: &mut tokio::io::WriteHalf<Stream>,
    incoming: &mut mpsc::UnboundedReceiver<Result<ServerMessage, BadMessage>>,
    report: &dyn Fn(Event) -> bool,
) -> Result<(), Ended> {
    let send = |message: ClientMessage| message.to_line();
    // The handshake: hello, challenge, welcome.
    let mut welcomed = config.name.is_none();
    let mut greeted = false;
    while !(greeted && welcomed) {
        let next = tokio::time::timeout(Duration::from_secs(15), incoming.recv()).await;
        let message = match next {
            Ok(Some(Ok(message))) => message,
            // Not a message before the greeting: another program speaks TLS there.
            Ok(Some(Err(e))) if !greeted => {
                return Err(Ended::Fatal(ClientError::NotBrandubh {
                    server: config.address(),
                    detail: e.to_string(),
                }));
            }
            Ok(Some(Err(e))) => return Err(Ended::Dropped(e.to_string())),
            Ok(None) => return Err(Ended::Dropped("the server closed the connection".into())),
            Err(_) => return Err(Ended::Dropped("the server does not answer".into())),
        };
        match message {
            ServerMessage::Hello { .. } => greeted = true,
            ServerMessage::GoingDown => return Err(Ended::GoingDown),
            ServerMessage::Error {
                code: ErrorCode::Version,
                message,
            } => return Err(Ended::Fatal(ClientError::Version(message))),
            ServerMessage::Error {
                code: ErrorCode::BadName | ErrorCode::BadSignature,
                message,
            } => return Err(Ended::Fatal(ClientError::Refused(message))),
            // A full server: the reason shown, and tried again later.
            ServerMessage::Error {
                code: ErrorCode::Full,
                message,
            } => return Err(Ended::Dropped(message)),
            ServerMessage::Challenge { nonce } => {
                if let Some(name) = &config.name {
                    let identify = ClientMessage::Identify {
                        name: name.clone(),
                        key: proof.identity.public_hex(),
                        signature: proof.identity.sign(&nonce, &proof.binding),
                        bot: config.bot,
                    };
                    if write_line(writer, &send(identify)).await.is_err() {
                        return Err(Ended::Dropped("the server closed the connection".into()));
                    }
                }
            }
            ServerMessage::Welcome { .. } => {
                welcomed = true;
                report(Event::Message(message));
            }
            other => {
                report(Event::Message(other));
            }
        }
    }
    Ok(())
}

/// What the client answers by itself: pongs, and downloads of its finished games (those
/// that end while it is connected, and those the server says ended while it was away), which
/// it saves when they arrive, off its runtime.
async fn answer(
    message: &ServerMessage,
    config: &ClientConfig,
    memory: &mut Memory,
    report: &dyn Fn(Event) -> bool,
) -> Option<ClientMessage> {
    match message {
        ServerMessage::Ping { id } => Some(ClientMessage::Pong { id: *id }),
        ServerMessage::State(view) if view.you.is_some() => {
            memory.mine.insert(view.summary.id);
            None
        }
        ServerMessage::Result { game, .. } if config.save_dir.is_some() => memory
            .mine
            .contains(game)
            .then_some(ClientMessage::Download { game: *game }),
        // A game of the player's that ended while it was away: saved as one seen ending.
        ServerMessage::Finished { game } if config.save_dir.is_some() => {
            memory.mine.insert(game.id);
            Some(ClientMessage::Download { game: game.id })
        }
        ServerMessage::Save { game, json } if memory.mine.remove(game) => {
            if let Some(dir) = config.save_dir.clone() {
                let (json, server, id) = (json.clone(), config.address(), *game);
                let saved = blocking(move || {
                    let origin = storage::Origin {
                        server: &server,
                        game: id,
                    };
                    storage::save_downloaded(&dir, Some(origin), &json)
                })
                .await;
                match saved.map_err(|e| e.to_string()).and_then(|saved| saved) {
                    Ok(path) => report(Event::Saved { game: *game, path }),
                    Err(e) => report(Event::Message(ServerMessage::error(ErrorCode::Refused, e))),
                };
            }
            None
        }
        _ => None,
    }
}

/// Ends a task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::*;

    /// The most a test waits for what should come at once: only reached when broken.
    const CEILING: Duration = Duration::from_secs(20);

    #[test]
    fn a_server_that_cannot_be_found_ends_the_client_at_its_first_connection() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = ClientConfig::new("nowhere.invalid", Some("ann"), dir.path().to_owned());
        config.resolver = Resolver::Blocking(Arc::new(|_: &str| {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such host",
            ))
        }));
        let (events, inbox) = channel::<Event>();
        let _client = Client::start(config, events);
        match inbox.recv_timeout(CEILING) {
            Ok(Event::Failed(ClientError::Unreachable(why))) => {
                assert!(why.contains("cannot find nowhere.invalid:7343"), "{why}");
            }
            other => panic!("not given up: {other:?}"),
        }
    }

    #[test]
    fn a_client_dropped_while_its_lookup_hangs_returns_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = ClientConfig::new("stuck.invalid", Some("ann"), dir.path().to_owned());
        let (resolver, reached) = Resolver::stuck();
        config.resolver = resolver;
        let (events, _inbox) = channel::<Event>();
        let client = Client::start(config, events);
        reached.recv_timeout(CEILING).expect("the lookup was asked");
        let (dropped, returned) = channel();
        std::thread::spawn(move || {
            drop(client);
            let _ = dropped.send(());
        });
        assert!(
            returned.recv_timeout(CEILING).is_ok(),
            "dropping the client waited for its lookup"
        );
    }
}
