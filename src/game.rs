//! Game records on top of the rules engine: who plays, the moves, undo/redo and saving.
//!
//! A [`Game`] is saved as JSON ([`Game::to_json`], format in docs/formats.md) and loaded by
//! replaying every move ([`Game::from_json`]); [`import`] reads the records of other programs
//! (OpenTafl's `.otg`, move records) and writes `.otg`; [`storage`] loads any of them, writes
//! files atomically and finds the save folder.

mod budget;
mod chat;
mod clock;
mod duration;
pub mod import;
mod lesson;
mod load_error;
mod player;
mod ply_analysis;
mod record;
mod save;
mod save_format;
mod schema;
mod score;
mod side_line;
mod start;
pub mod storage;
mod tags;
mod time;
mod tree;
pub(crate) mod unique_keys;

pub use budget::{ClockReading, MoveBudget, move_budget};
pub use chat::{ChatLine, MAX_CHAT_LINE_CHARS, MAX_CHAT_LINES, MAX_CHAT_NAME_CHARS};
pub use clock::{
    BadTimeControl, ClockError, Clocks, MAX_DAYS_PER_MOVE, MAX_PERIODS, SideClock, SideClockError,
    TimeControl,
};
pub use duration::{MAX_DURATION, ParseDurationError, format_duration, parse_duration};
pub use lesson::Lesson;
pub use load_error::{LoadError, LoadErrorKind};
pub use player::{
    EngineKind, Level, MoveTime, ParseLevelError, ParsePlayerError, Player, TimeNotForLevel,
    level_names, or_list, player_usage,
};
pub use ply_analysis::{
    AnalysisError, MAX_LINE_PLIES, MoveClass, PlyAnalysis, SideSummary, Summary, THRESHOLDS,
    Thresholds, classify, may_be_only_move,
};
pub use record::{AlreadyOver, Game, Players, Ply, SavedLesson};
pub use save::TooLarge;
pub use save_format::{FORMAT, MAX_COMMENT_CHARS, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
pub use schema::{SCHEMA_ID, save_schema};
pub use score::Score;
pub use side_line::{MAX_LINE_DEPTH, Node, SideLine};
pub use start::{StartError, check_start, parse_start};
pub use tags::{
    BadDate, MAX_OTHER_TAGS, MAX_TAG_CHARS, MAX_TAG_NAME_CHARS, Tag, TagError, Tags, TagsError,
    check_date,
};
pub use time::{ParseTimestampError, Timestamp};
pub use tree::{Fork, Place, PlayAtError, SideLineError};
