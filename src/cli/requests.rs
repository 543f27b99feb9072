//! Requests to a server from a command that takes no terminal (`brandubh online --games`,
//! `--leaderboard`): one at a time, each answer waited for, spaced out under the server's
//! rate limit.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::error::CliError;
use crate::net::client::{Client, ClientConfig, Event};
use crate::net::identity::config_dir;
use crate::net::protocol::{ClientMessage, ServerMessage};

/// How long the command waits for each answer.
pub(super) const ANSWER_TIME: Duration = Duration::from_secs(20);

/// Requests a client may send at once before [`Pacer`] spaces them out: below the server's
/// burst.
const UNPACED_REQUESTS: u32 = 30;

/// The time between requests past [`UNPACED_REQUESTS`]: slower than the server's average
/// rate, so that a long archive is never taken for a flood.
const REQUEST_EVERY: Duration = Duration::from_millis(60);

/// Spaces out requests to the server's rate limit.
struct Pacer {
    sent: u32,
    last: Option<Instant>,
}

impl Pacer {
    /// Waits, if need be, until the next request may go.
    fn wait(&mut self) {
        self.sent = self.sent.saturating_add(1);
        if let Some(last) = self.last.filter(|_| self.sent > UNPACED_REQUESTS) {
            std::thread::sleep((last + REQUEST_EVERY).saturating_duration_since(Instant::now()));
        }
        self.last = Some(Instant::now());
    }
}

/// A connection for requests one at a time (no terminal), spaced out by a [`Pacer`].
pub(super) struct Requests {
    client: Client,
    inbox: mpsc::Receiver<Event>,
    pacer: Pacer,
}

impl Requests {
    /// Connects to `server` (`insecure`: its key not pinned, for tests), identified as
    /// `name` if given (its key pinned already).
    pub(super) fn start(
        server: &str,
        insecure: bool,
        name: Option<&str>,
    ) -> Result<Requests, CliError> {
        let dir = config_dir().ok_or_else(|| CliError::new("no config folder"))?;
        let mut config = ClientConfig::new(server, name, dir);
        config.insecure = insecure;
        config.reconnect = false;
        let (events, inbox) = mpsc::channel();
        Ok(Requests {
            client: Client::start(config, events),
            inbox,
            pacer: Pacer {
                sent: 0,
                last: None,
            },
        })
    }

    /// Sends `message` and waits for its answer, the first message `is_answer` takes; an
    /// error from the server, a failed client or no answer in time end it.
    pub(super) fn ask(
        &mut self,
        message: ClientMessage,
        is_answer: fn(&ServerMessage) -> bool,
    ) -> Result<ServerMessage, CliError> {
        self.pacer.wait();
        self.client.send(message);
        loop {
            match self.inbox.recv_timeout(ANSWER_TIME) {
                Ok(Event::Message(ServerMessage::Error { message, .. })) => {
                    return Err(CliError::new(format!("the server says: {message}")));
                }
                Ok(Event::Message(answer)) if is_answer(&answer) => return Ok(answer),
                Ok(Event::Failed(e)) => return Err(CliError::new(e.to_string())),
                Ok(_) => {}
                Err(_) => return Err(CliError::new("the server does not answer")),
            }
        }
    }
}

/// The server answered a request with another one's answer.
pub(super) fn unexpected() -> CliError {
    CliError::new("the server answered with something else")
}
