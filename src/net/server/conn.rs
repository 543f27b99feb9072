//! One connection on the server: the TLS handshake and the hello within a time limit, then
//! lines read with a cap, a rate limit and an idle timeout, each parsed and handed to the
//! hub; what the hub sends is written by a writer beside the reader, with pings.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::io::{AsyncWriteExt, BufReader, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_rustls::server::TlsStream;

use super::admission::Admitted;
use super::conn_id::ConnId;
use super::event::Event;
use super::limits::Limits;
use super::outbox::{self, Outbox};
use crate::net::identity::ChannelBinding;
use crate::net::protocol::{ClientMessage, ErrorCode, ServerMessage, VERSION};
use crate::net::wire::{Line, read_line, write_line};
use crate::quote::excerpt;

/// A connection's task.
pub(super) struct Connection {
    pub id: ConnId,
    pub events: mpsc::UnboundedSender<Event>,
    pub limits: Limits,
    /// Its place within the connection caps; `None` over them: it is then told `full`
    /// after its hello, and closed.
    pub place: Option<Admitted>,
    /// False once the server goes down: a connection still in its handshake ends then.
    pub accepting: watch::Receiver<bool>,
}

/// The two halves of a connection's TLS stream.
type Reader = BufReader<ReadHalf<TlsStream<TcpStream>>>;
type Writer = WriteHalf<TlsStream<TcpStream>>;

/// A connection that said hello: its halves, its TLS session's binding and its address.
struct Greeted {
    reader: Reader,
    writer: Writer,
    binding: ChannelBinding,
    ip: std::net::IpAddr,
}

/// A token bucket: `burst` messages at once, refilled at `per_second`.
struct RateLimit {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl RateLimit {
    fn new(limits: &Limits) -> RateLimit {
        RateLimit {
            tokens: f64::from(limits.burst),
            burst: f64::from(limits.burst),
            per_second: f64::from(limits.messages_per_second),
            last: Instant::now(),
        }
    }

    /// Whether a message arriving at `now` is within the limit.
    fn allow(&mut self, now: Instant) -> bool {
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The server's last ping to a connection, until its pong comes: only the answer to a ping
/// sent, once, measures the lag (an unasked pong would buy clock time).
#[derive(Default)]
struct Pings {
    sent: u64,
    waiting: Option<(u64, Instant)>,
}

impl Pings {
    /// A ping goes out at `now`: its id (the one before is no longer answered).
    fn send(&mut self, now: Instant) -> u64 {
        self.sent += 1;
        self.waiting = Some((self.sent, now));
        self.sent
    }

    /// A pong with `id` came at `now`: the round trip, if it answers the ping waiting.
    fn answer(&mut self, id: u64, now: Instant) -> Option<Duration> {
        let (_, sent) = self.waiting.take_if(|(waiting, _)| *waiting == id)?;
        Some(now.saturating_duration_since(sent))
    }
}

/// The pings of one connection, shared by its writer and its reader.
type SharedPings = Mutex<Pings>;

impl Connection {
    /// Serves the connection to its end.
    pub async fn run(mut self, stream: TcpStream, acceptor: tokio_rustls::TlsAcceptor) {
        // Until its hello, a connection may be pushed out by a newer one from its address,
        // and ends if the server goes down.
        let evicted = self.place.as_ref().map(Admitted::evicted);
        let pushed_out = async {
            match evicted {
                Some(evicted) => evicted.notified().await,
                None => std::future::pending().await,
            }
        };
        let mut accepting = self.accepting.clone();
        let greeted = tokio::select! {
            greeted = self.greet(stream, acceptor) => greeted,
            () = pushed_out => None,
            _ = accepting.wait_for(|accepting| !accepting) => None,
        };
        let Some(Greeted {
            reader,
            mut writer,
            binding,
            ip,
        }) = greeted
        else {
            return;
        };
        let (out, mut queue) = outbox::queue(self.limits.queue_bytes);
        // The hub signals it to cut the connection off.
        let (hangup, hung_up) = oneshot::channel();
        let hello = ServerMessage::Hello {
            version: VERSION,
            server: format!("brandubh {}", env!("CARGO_PKG_VERSION")),
        };
        if write_line(&mut writer, &hello.to_line()).await.is_err() {
            return;
        }
        if self
            .events
            .send(Event::Connected {
                conn: self.id,
                out: out.clone(),
                hangup,
                binding,
                ip,
            })
            .is_err()
        {
            return;
        }
        let ping_every = self.limits.ping_every;
        let pings = SharedPings::default();
        let sent = &pings;
        let write = async move {
            let mut ping =
                tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
            loop {
                let line = tokio::select! {
                    next = queue.next() => match next {
                        Some(line) => line,
                        None => break,
                    },
                    _ = ping.tick() => {
                        let mut pings = sent.lock().unwrap_or_else(PoisonError::into_inner);
                        ServerMessage::Ping { id: pings.send(Instant::now()) }.to_line()
                    }
                };
                if write_line(&mut writer, &line).await.is_err() {
                    break;
                }
            }
            let _ = writer.shutdown().await;
        };
        let read = self.read(reader, &out, &pings);
        tokio::pin!(write);
        let session = async {
            tokio::select! {
                () = &mut write => {},
                () = read => {
                    // What is queued (a last refusal) is written, for a second at most.
                    out.close();
                    let _ = tokio::time::timeout(Duration::from_secs(1), &mut write).await;
                },
            }
        };
        // Cut off by the hub: the socket and the queue go at once (a hub gone, its end
        // dropped, cuts nothing).
        tokio::select! {
            () = session => {},
            Ok(()) = hung_up => {},
        }
        let _ = self.events.send(Event::Disconnected { conn: self.id });
    }

    /// The TLS handshake and the hello, each within the handshake time: the connection, or
    /// `None` when it ended or was refused (another version, no hello, the server or its
    /// address full), the refusal written.
    async fn greet(
        &mut self,
        stream: TcpStream,
        acceptor: tokio_rustls::TlsAcceptor,
    ) -> Option<Greeted> {
        let ip = stream.peer_addr().ok()?.ip();
        let handshake = tokio::time::timeout(self.limits.handshake, acceptor.accept(stream));
        let tls = handshake.await.ok()?.ok()?;
        let binding = ChannelBinding::of(tls.get_ref().1)?;
        let (reader, mut writer) = tokio::io::split(tls);
        let mut reader = BufReader::new(reader);
        let mut bytes = Vec::new();
        let hello =
            tokio::time::timeout(self.limits.handshake, read_line(&mut reader, &mut bytes)).await;
        let Ok(Ok(Line::Text(line))) = hello else {
            return None;
        };
        let refusal = match ClientMessage::parse(&line) {
            Ok(ClientMessage::Hello { version, .. }) if version != VERSION => ServerMessage::error(
                ErrorCode::Version,
                format!(
                    "this server speaks protocol version {VERSION} and the client {version}: \
                         use a brandubh of the same protocol version"
                ),
            ),
            Ok(ClientMessage::Hello { .. })
                if self.place.as_mut().is_some_and(Admitted::settle) =>
            {
                return Some(Greeted {
                    reader,
                    writer,
                    binding,
                    ip,
                });
            }
            Ok(ClientMessage::Hello { .. }) => {
                ServerMessage::error(ErrorCode::Full, "the server is full: try again later")
            }
            _ => ServerMessage::error(ErrorCode::NotNow, "say hello first"),
        };
        super::log::refused(self.id, "hello refused", &refusal);
        let _ = write_line(&mut writer, &refusal.to_line()).await;
        let _ = writer.shutdown().await;
        None
    }

    /// Reads messages until the connection ends or misbehaves too often.
    async fn read<R: tokio::io::AsyncBufRead + Unpin>(
        &self,
        mut reader: R,
        out: &Outbox,
        pings: &SharedPings,
    ) {
        let mut bytes = Vec::new();
        let mut rate = RateLimit::new(&self.limits);
        let mut bad = 0;
        loop {
            let line =
                tokio::time::timeout(self.limits.idle, read_line(&mut reader, &mut bytes)).await;
            let refusal = match line {
                Ok(Ok(Line::Text(_))) if !rate.allow(Instant::now()) => {
                    ServerMessage::error(ErrorCode::RateLimited, "too many messages: slow down")
                }
                Ok(Ok(Line::Text(line))) => match ClientMessage::parse(&line) {
                    Ok(ClientMessage::Pong { id }) => {
                        let mut pings = pings.lock().unwrap_or_else(PoisonError::into_inner);
                        if let Some(round_trip) = pings.answer(id, Instant::now()) {
                            let _ = self.events.send(Event::Lag {
                                conn: self.id,
                                round_trip,
                            });
                        }
                        continue;
                    }
                    Ok(message) => {
                        if self
                            .events
                            .send(Event::Message {
                                conn: self.id,
                                message,
                            })
                            .is_err()
                        {
                            return;
                        }
                        continue;
                    }
                    Err(e) => ServerMessage::error(ErrorCode::BadMessage, excerpt(&e.to_string())),
                },
                Ok(Ok(Line::TooLong)) => ServerMessage::error(
                    ErrorCode::BadMessage,
                    format!(
                        "a line longer than {} bytes",
                        crate::capped_lines::MAX_LINE_BYTES
                    ),
                ),
                Ok(Ok(Line::NotUtf8)) => {
                    ServerMessage::error(ErrorCode::BadMessage, "a line that is not UTF-8")
                }
                // The end, an error, or idle too long.
                _ => return,
            };
            bad += 1;
            if bad >= self.limits.bad_messages {
                super::log::refused(self.id, "cut off: too many bad messages", &refusal);
                let _ = out.send(&refusal);
                return;
            }
            if out.send(&refusal).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_limit_allows_a_burst_then_the_average() {
        let limits = Limits {
            messages_per_second: 10,
            burst: 3,
            ..Limits::default()
        };
        let mut rate = RateLimit::new(&limits);
        let t = rate.last;
        assert!((0..3).all(|_| rate.allow(t)));
        assert!(!rate.allow(t));
        assert!(rate.allow(t + Duration::from_millis(100)));
        assert!(!rate.allow(t + Duration::from_millis(100)));
    }

    /// The lag events a connection's reader sends for `input`, after `pings`.
    fn lags_for(input: &[u8], pings: Pings) -> usize {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (events, mut inbox) = mpsc::unbounded_channel();
        let conn = Connection {
            id: 1,
            events,
            limits: Limits::default(),
            place: None,
            accepting: watch::channel(true).1,
        };
        let (out, _queue) = outbox::queue(1 << 20);
        runtime.block_on(conn.read(input, &out, &Mutex::new(pings)));
        std::iter::from_fn(|| inbox.try_recv().ok())
            .filter(|e| matches!(e, Event::Lag { .. }))
            .count()
    }

    #[test]
    fn a_pong_without_a_ping_is_not_a_lag() {
        assert_eq!(
            lags_for(b"{\"type\":\"pong\",\"id\":0}\n", Pings::default()),
            0
        );
    }

    #[test]
    fn the_pong_of_the_ping_waiting_counts_once() {
        let mut pings = Pings::default();
        let old = pings.send(Instant::now());
        let id = pings.send(Instant::now());
        let pong = |id| format!("{{\"type\":\"pong\",\"id\":{id}}}\n");
        let input = [pong(old), pong(id), pong(id)].concat();
        assert_eq!(lags_for(input.as_bytes(), pings), 1);
    }
}
