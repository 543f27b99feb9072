//! The save format's marks (the `format` name and version every save carries) and its bounds,
//! shared by the writer and the reader of saves, the loaders of other records and the errors of
//! a load.

/// The `format` field of every saved game.
pub const FORMAT: &str = "brandubh-game";
/// The save format version this program writes and the newest it reads.
pub const VERSION: u64 = 1;
/// The largest save file, in bytes (32 MiB): the largest game the bounds below allow, every
/// move analyzed, fits (a test writes one). Larger files are refused before reading them, and
/// a save is never written larger, so that every file saved loads.
pub const MAX_SAVE_BYTES: u64 = 32 << 20;
/// The most moves a saved game may hold.
pub const MAX_PLIES: usize = 20_000;
/// The most characters a game's comments hold in all, the comment before the first move
/// included: 1 Mi, so that every game saved under the older limit of 1 MiB still loads.
pub const MAX_COMMENT_CHARS: usize = 1 << 20;
