//! What online play asks of the runtime ([`NetRequest`]): connect, send, and the two writes
//! it hands to the storage thread. A leaf below the effects and online play, which both name
//! it: it knows the client's configuration and the protocol's messages, nothing of the
//! screens.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::net::client::ClientConfig;
use crate::net::protocol::{ClientMessage, GameId};

/// What online play asks of the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetRequest {
    /// Connect with this configuration (dropping any connection there is).
    Connect(Box<ClientConfig>),
    /// Send a message to the server.
    Send(ClientMessage),
    /// Remember in the config folder that `name` played on `server` (read, changed and
    /// written on the storage thread).
    Remember {
        /// The config folder.
        dir: PathBuf,
        /// `HOST:PORT` of the server.
        server: String,
        /// The name played under.
        name: String,
    },
    /// Remember in the config folder that `names` are muted on `server` (on the storage
    /// thread, as [`NetRequest::Remember`]).
    RememberMuted {
        /// The config folder.
        dir: PathBuf,
        /// `HOST:PORT` of the server.
        server: String,
        /// The names muted there.
        names: BTreeSet<String>,
    },
    /// Save a game record as a new save in the folder (on the storage thread): a finished
    /// game of the player's as the server sent it, or a game watched.
    SaveFinished {
        /// The game.
        game: GameId,
        /// `HOST:PORT` of the server of a finished game, saved once (`None`: a game saved as
        /// it stands, a new save each time).
        server: Option<String>,
        /// The save folder.
        dir: PathBuf,
        /// The game record, as the server sent it.
        json: String,
    },
}
