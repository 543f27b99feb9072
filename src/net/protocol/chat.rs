//! A game's chat as the server keeps it and sends it again ([`ServerMessage::ChatLog`]): its
//! lines and their bounds.

use serde::{Deserialize, Serialize};

use super::Channel;
#[cfg(doc)]
use super::ServerMessage;

/// The most chat lines of a game a [`ServerMessage::ChatLog`] carries.
pub const CHAT_LOG_LINES: usize = 200;

/// The most bytes of chat text (authors' names and lines) a [`ServerMessage::ChatLog`]
/// carries: the newest lines within it, so that the message stays within a line.
pub const CHAT_LOG_BYTES: usize = 32 * 1024;

/// A chat line of a game as the server keeps it.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatEntry {
    /// Who wrote it.
    pub from: String,
    /// Players' or spectators' chat.
    pub channel: Channel,
    /// The line.
    pub text: String,
}
