//! Game records on top of the rules engine: who plays, the moves, undo/redo and saving.
//!
//! A [`Game`] is saved as JSON ([`Game::to_json`], format in README.md) and loaded by
//! replaying every move ([`Game::from_json`]); [`import`] reads the records of other programs
//! (OpenTafl's `.otg`, move records) and writes `.otg`; [`storage`] loads any of them, writes
//! files atomically and finds the save folder.

pub mod import;
mod player;
mod record;
mod save;
mod schema;
pub mod storage;
mod time;

pub use player::{EngineKind, Level, ParsePlayerError, Player};
pub use record::{AlreadyOver, Game, Players};
pub use save::{FORMAT, LoadError, LoadErrorKind, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
pub use schema::{SCHEMA_ID, save_schema};
pub use time::{ParseTimestampError, Timestamp};
