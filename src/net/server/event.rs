//! What the hub is told, by the connections' tasks, its timers and the readers: the one
//! kind of message into the hub's thread.

use std::net::IpAddr;
use std::time::Duration;

use tokio::sync::oneshot;

use super::conn_id::ConnId;
use super::outbox::Outbox;
use crate::net::identity::ChannelBinding;
use crate::net::protocol::{ChallengeId, ClientMessage, GameId};
use crate::rules::Side;

/// What the hub is told.
pub(super) enum Event {
    /// A connection said hello; the hub challenges it.
    Connected {
        conn: ConnId,
        out: Outbox,
        /// Signalled by the hub to cut the connection off.
        hangup: oneshot::Sender<()>,
        /// Its TLS session's channel binding, which its proof of identity must sign.
        binding: ChannelBinding,
        /// The address it comes from.
        ip: IpAddr,
    },
    /// A message from a connection.
    Message {
        conn: ConnId,
        message: ClientMessage,
    },
    /// A connection's measured round trip.
    Lag { conn: ConnId, round_trip: Duration },
    /// A connection ended.
    Disconnected { conn: ConnId },
    /// A game's clock may have run out (scheduled at a turn's start).
    FlagCheck { game: GameId, turn: u64 },
    /// A player gone from a game may have stayed away too long.
    ReturnCheck { game: GameId, side: Side },
    /// A challenge may have waited too long for its answer.
    ChallengeExpiry { challenge: ChallengeId },
    /// Time to note that the server is alive (every `Limits::alive_every`).
    Alive,
    /// A connection whose queue is full (it reads too slowly) is to be cut off.
    Cut { conn: ConnId },
    /// The server stops: the hub's last event.
    GoingDown,
}

impl Event {
    /// The game the event is about, when it names one.
    pub(super) fn game(&self) -> Option<GameId> {
        match self {
            Event::Message { message, .. } => match message {
                ClientMessage::Join { game, .. } => *game,
                ClientMessage::Watch { game }
                | ClientMessage::Leave { game }
                | ClientMessage::Move { game, .. }
                | ClientMessage::Offer { game, .. }
                | ClientMessage::Answer { game, .. }
                | ClientMessage::Resign { game }
                | ClientMessage::Chat { game, .. }
                | ClientMessage::Abort { game }
                | ClientMessage::Claim { game }
                | ClientMessage::GiveTime { game } => Some(*game),
                _ => None,
            },
            Event::FlagCheck { game, .. } | Event::ReturnCheck { game, .. } => Some(*game),
            Event::Connected { .. }
            | Event::Alive
            | Event::Cut { .. }
            | Event::Lag { .. }
            | Event::Disconnected { .. }
            | Event::ChallengeExpiry { .. }
            | Event::GoingDown => None,
        }
    }
}
