//! The club's part of the protocol (version 4): the lobby's chat, kept on the server, and
//! the players one blocks. Pure, as the rest of the protocol.

use serde::{Deserialize, Serialize};

/// The most lines of the lobby's chat the server keeps (and sends after a welcome).
pub const LOBBY_CHAT_KEPT: usize = 100;

/// The most players one key may block.
pub const MAX_BLOCKS: usize = 200;

/// A line of the lobby's chat.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyLine {
    /// Who said it.
    pub from: String,
    /// The line (as a game's chat line: checked by [`super::check_chat`]).
    pub text: String,
}
