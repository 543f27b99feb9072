//! Game records on top of the rules engine: who plays, the moves, undo/redo and saving.

mod player;

pub use player::{EngineKind, Level, ParsePlayerError, Player};
