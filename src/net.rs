//! Online play: the protocol ([`protocol`], pure), the server ([`server`], `brandubh serve`),
//! the client ([`client`]) and the bot that plays through it ([`bot`], `brandubh bot`), with the TLS keys and pinned fingerprints ([`tls`]) and the
//! players' identity keys ([`identity`]). A layer beside [`crate::game`]: it uses the rules
//! to validate moves and the game records to keep them; nothing below it knows of it.
//!
//! The protocol is described in docs/protocol.md; how to run a server in docs/online.md.

pub mod bot;
pub mod client;
pub mod identity;
pub mod protocol;
pub mod ratings;
pub mod server;
pub mod tls;
mod wire;
