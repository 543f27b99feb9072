//! One connection on the server: the TLS handshake and the hello within a time limit, then
//! lines read with a cap, a rate limit and an idle timeout, each parsed and handed to the
//! hub; what the hub sends is written by a writer beside the reader, with pings.

use std::time::{Duration, Instant};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};

use super::hub::{ConnId, Event};
use super::{Limits, Outgoing, millis};
use crate::net::identity::ChannelBinding;
use crate::net::protocol::{ClientMessage, ErrorCode, ServerMessage, VERSION};
use crate::net::wire::{Line, read_line, write_line};
use crate::quote::excerpt;

/// A connection's task.
pub(super) struct Connection {
    pub id: ConnId,
    pub events: mpsc::UnboundedSender<Event>,
    pub limits: Limits,
    /// False once the server goes down: a connection still in its handshake ends then.
    pub accepting: watch::Receiver<bool>,
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

impl Connection {
    /// Serves the connection to its end.
    pub async fn run(self, stream: TcpStream, acceptor: tokio_rustls::TlsAcceptor) {
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        let handshake = tokio::time::timeout(self.limits.handshake, acceptor.accept(stream));
        let Some(Ok(Ok(tls))) = self.unless_going_down(handshake).await else {
            return;
        };
        let Some(binding) = ChannelBinding::of(tls.get_ref().1) else {
            return;
        };
        let (reader, mut writer) = tokio::io::split(tls);
        let mut reader = BufReader::new(reader);
        let (out, mut queue) = mpsc::channel(self.limits.queue);
        let start = Instant::now();
        // The hello, within the handshake's time.
        let mut bytes = Vec::new();
        let hello = tokio::time::timeout(self.limits.handshake, read_line(&mut reader, &mut bytes));
        let reply = match self.unless_going_down(hello).await {
            Some(Ok(Ok(Line::Text(line)))) => match ClientMessage::parse(&line) {
                Ok(ClientMessage::Hello { version, .. }) if version == VERSION => None,
                Ok(ClientMessage::Hello { version, .. }) => Some(ServerMessage::error(
                    ErrorCode::Version,
                    format!(
                        "this server speaks protocol version {VERSION} and the client {version}: \
                         use a brandubh of the same protocol version"
                    ),
                )),
                _ => Some(ServerMessage::error(ErrorCode::NotNow, "say hello first")),
            },
            _ => return,
        };
        if let Some(refusal) = reply {
            super::log::refused(self.id, "hello refused", &refusal);
            let _ = write_line(&mut writer, &refusal.to_line()).await;
            let _ = writer.shutdown().await;
            return;
        }
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
                binding,
                ip: peer.ip(),
            })
            .is_err()
        {
            return;
        }
        let ping_every = self.limits.ping_every;
        let write = async move {
            let mut ping =
                tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
            loop {
                let message = tokio::select! {
                    next = queue.recv() => match next {
                        Some(Outgoing::Message(message)) => message,
                        Some(Outgoing::Close) | None => break,
                    },
                    _ = ping.tick() => ServerMessage::Ping { id: millis(start.elapsed()) },
                };
                if write_line(&mut writer, &message.to_line()).await.is_err() {
                    break;
                }
            }
            let _ = writer.shutdown().await;
        };
        let read = self.read(reader, &out, start);
        tokio::pin!(write);
        tokio::select! {
            () = &mut write => {},
            () = read => {
                // What is queued (a last refusal) is written, for a second at most.
                let _ = out.try_send(Outgoing::Close);
                let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
            },
        }
        let _ = self.events.send(Event::Disconnected { conn: self.id });
    }

    /// What `step` gives, unless the server goes down first (`None`).
    async fn unless_going_down<T>(&self, step: impl Future<Output = T>) -> Option<T> {
        let mut accepting = self.accepting.clone();
        tokio::select! {
            out = step => Some(out),
            _ = accepting.wait_for(|accepting| !accepting) => None,
        }
    }

    /// Reads messages until the connection ends or misbehaves too often.
    async fn read<R: tokio::io::AsyncBufRead + Unpin>(
        &self,
        mut reader: R,
        out: &mpsc::Sender<Outgoing>,
        start: Instant,
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
                        let sent = Duration::from_millis(id);
                        let round_trip = start.elapsed().saturating_sub(sent);
                        let _ = self.events.send(Event::Lag {
                            conn: self.id,
                            round_trip,
                        });
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
                    format!("a line longer than {} bytes", crate::lines::MAX_LINE_BYTES),
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
                let _ = out.try_send(Outgoing::Message(refusal));
                return;
            }
            if out.try_send(Outgoing::Message(refusal)).is_err() {
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
}
