//! The OpenTafl Engine Protocol: lets OpenTafl use our search engine as an external AI.
//!
//! [`serve`] speaks the protocol over any reader and writer (stdin/stdout for
//! `brandubh otep`); [`rules_string`] converts OpenTafl rules strings and position records.

mod clock;
pub mod rules_string;
mod session;

pub use clock::Clock;
pub use session::{MAX_LINE_BYTES, Options, serve};
