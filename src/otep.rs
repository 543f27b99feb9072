//! The OpenTafl Engine Protocol: lets OpenTafl use our search engine as an external AI.
//!
//! [`serve`] speaks the protocol over any reader and writer (stdin/stdout for
//! `brandubh otep`); OpenTafl rules strings and position records are converted by the rules
//! engine ([`crate::rules::parse_rules_string`]).

mod clock;
mod conversation;

pub use crate::capped_lines::MAX_LINE_BYTES;
pub use clock::Clock;
pub use conversation::{Options, serve};
