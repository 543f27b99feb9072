//! The JSON save format, version 1 (docs/formats.md, "Save format"): a game beyond its bounds
//! (the bounds are in [`super::save_format`]), and the types a game is written from and read
//! into, whose doc comments the JSON Schema is generated from ([`super::save_schema`]). `write`
//! writes a game within the bounds, so that every save loads; `read` reads one back, replaying
//! every move and checking the rest against the game.

pub(super) mod read;
mod write;

use std::fmt;
use std::io;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::chat::{ChatLine, MAX_CHAT_LINES};
use super::clock::Clocks;
use super::ply_analysis::SavedPly;
use super::record::{Players, SavedLesson};
use super::save_format::{FORMAT, MAX_COMMENT_CHARS, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
use super::side_line::MAX_LINE_DEPTH;
use super::tags::Tags;
use super::time::RFC3339_PATTERN;
use super::tree::SavedLine;
use crate::rules::{Outcome, Preset, Reason, Rules, Side};

/// A game beyond what a save holds: saving it would write a file that does not load. Loading
/// and importing refuse such games, so only a game grown past the bounds in play meets this.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum TooLarge {
    /// More moves than [`MAX_PLIES`]; how many.
    Moves(usize),
    /// More comment characters than [`MAX_COMMENT_CHARS`]; how many.
    Comments(usize),
    /// More bytes than [`MAX_SAVE_BYTES`] (the writer stops there).
    Bytes,
    /// Side lines nested deeper than [`MAX_LINE_DEPTH`]; how deep.
    Depth(usize),
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the game is too large to save: ")?;
        match self {
            Self::Moves(n) => write!(f, "{n} moves; a saved game holds at most {MAX_PLIES}"),
            Self::Comments(n) => write!(
                f,
                "its comments hold {n} characters; a saved game holds at most {MAX_COMMENT_CHARS}"
            ),
            Self::Bytes => write!(f, "more than {MAX_SAVE_BYTES} bytes (32 MiB)"),
            Self::Depth(n) => write!(
                f,
                "side lines nest {n} deep; a saved game holds them at most {MAX_LINE_DEPTH} deep"
            ),
        }
    }
}

impl std::error::Error for TooLarge {}

impl From<TooLarge> for io::Error {
    /// The error of a write refused: [`io::ErrorKind::FileTooLarge`], saying why.
    fn from(e: TooLarge) -> io::Error {
        io::Error::new(io::ErrorKind::FileTooLarge, e)
    }
}

/// The rules as saved: a preset's name, or every parameter.
// Read by `rules_of`, which gives clearer messages than an untagged enum would.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum SavedRules {
    /// A preset's name.
    Preset(Preset),
    /// Every rule parameter (custom rules).
    Custom(Rules),
}

/// The program that wrote the file, by name and version.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Generator {
    /// The program's name, `brandubh` for this one.
    program: String,
    /// The program's version.
    version: String,
}

impl Generator {
    /// This program: `{"program": "brandubh", "version": "<version in Cargo.toml>"}`.
    fn ours() -> Generator {
        Generator {
            program: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// A game as written. Field order is the order in the file.
#[derive(Serialize)]
struct SaveOut {
    format: &'static str,
    version: u64,
    generator: Generator,
    rules: SavedRules,
    start: String,
    moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_comment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<Option<String>>>,
    players: Players,
    /// Written only when the game has a tag.
    #[serde(skip_serializing_if = "Tags::is_empty")]
    tags: Tags,
    result: Option<Outcome>,
    created: String,
    updated: String,
    /// Written only when a move is analyzed.
    #[serde(skip_serializing_if = "Option::is_none")]
    analysis: Option<Vec<Option<SavedPly>>>,
    /// Written only for a game on a time control.
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<Clocks>,
    /// Written only when the game has side lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    side_lines: Vec<SavedLine>,
    /// Written only when the game has personal puzzles.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lessons: Vec<SavedLesson>,
    /// Written only for an online game with chat.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    chat: Vec<ChatLine>,
}

/// A game as read, before validation. `format` and `version` are checked beforehand.
///
/// The JSON Schema of the format is generated from this type ([`super::save_schema`]): the
/// doc comments of its fields are the schema's descriptions.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SaveIn {
    /// What the file holds: always `brandubh-game`.
    #[serde(rename = "format")]
    #[schemars(schema_with = "format_name")]
    _format: Value,
    /// The version of the save format; a newer version is refused with a message asking for
    /// a newer brandubh.
    #[serde(rename = "version")]
    #[schemars(schema_with = "format_version")]
    _version: Value,
    /// The program that wrote the file (optional: older files lack it). brandubh writes its
    /// own in every save, also when it saves again a game another program wrote.
    // Checked, then dropped.
    #[serde(rename = "generator", default)]
    _generator: Option<Generator>,
    /// The rules: a preset's name, or every parameter.
    #[schemars(with = "SavedRules")]
    rules: Value,
    /// The start position: an OpenTafl position record, rank 1 first (`t` attacker, `T`
    /// defender, `K` king, digits for empty runs), then the side to move, `a` or `d`.
    start: String,
    /// Every move in order, in the annotated notation (`e2-d2xd3`, `d5-a7--`) or plain
    /// (`e2-d2`). Loading replays them and checks each one and its annotations.
    #[schemars(length(max = MAX_PLIES))]
    moves: Vec<String>,
    /// An optional comment before the first move (an OpenTafl record's `start-comment`).
    #[serde(default)]
    start_comment: Option<String>,
    /// Optional comments on the moves, aligned with `moves`: a string, or `null` where a move
    /// has none. All comments, `start_comment` included, hold at most 1048576 characters.
    #[serde(default)]
    comments: Option<Vec<Option<String>>>,
    /// Who plays each side.
    players: Players,
    /// Optional: what a record (another program's, such as an OpenTafl `.otg`) said about the
    /// game besides its moves: `event`, `site`, `date` (as the record wrote it), the names of
    /// the players (`attackers`, `defenders`: a person a record named, playing as a human) and
    /// `annotator`. Each is one line of at most 200 characters.
    #[serde(default)]
    tags: Tags,
    /// The result: `null` while the game goes on. It must be the one the moves lead to; a
    /// resignation (with a winner), an agreed draw or an adjudicated draw only where the
    /// moves have not ended the game.
    #[serde(deserialize_with = "required")]
    #[schemars(schema_with = "nullable::<ResultIn>")]
    result: Option<ResultIn>,
    /// When the game was created (RFC 3339; written in UTC).
    #[schemars(schema_with = "timestamp")]
    created: String,
    /// When the game last changed (RFC 3339; written in UTC).
    #[schemars(schema_with = "timestamp")]
    updated: String,
    /// Optional analysis of the moves, aligned with `moves`: an object, or `null` where a
    /// move is not analyzed. Scores are from the mover's point of view, in hundredths of an
    /// attacking soldier; a win in n plies is 30000 - n, a loss in n plies n - 30000.
    #[serde(default)]
    analysis: Option<Vec<Option<SavedPly>>>,
    /// Optional: the time control of a game played on one and each side's time left when it
    /// was saved (the clocks go on from there).
    #[serde(default)]
    clock: Option<Clocks>,
    /// Optional side lines: moves tried instead of the game's, each line played instead of
    /// the move at index `at` (from 0) of `moves`, with comments, analysis and side lines of
    /// its own. All moves, the side lines' included, count towards the 20000 a game holds.
    #[serde(default)]
    side_lines: Vec<SavedLine>,
    /// Optional personal puzzles ("learn from your mistakes"): each names a move of `moves`
    /// that `analysis` classes as a mistake or a blunder, whose position is to be played
    /// again for a better move, and whether the player has found one.
    #[serde(default)]
    lessons: Vec<SavedLesson>,
    /// Optional: the chat of an online game, oldest first (at most 200 lines): its players'
    /// lines, and its spectators' among themselves (`spectators: true`).
    #[serde(default)]
    #[schemars(length(max = MAX_CHAT_LINES))]
    chat: Vec<ChatLine>,
}

/// How the game ended.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Result")]
struct ResultIn {
    /// The winning side, or `null` for a draw.
    #[serde(deserialize_with = "required")]
    #[schemars(schema_with = "nullable::<Side>")]
    winner: Option<Side>,
    /// Why the game ended.
    reason: Reason,
}

/// Reads an `Option` whose field must be present (`null` allowed), unlike serde's default.
fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

/// `format`: the constant name of the format.
fn format_name(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "const": FORMAT })
}

/// `version`: this version of the format.
fn format_version(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "const": VERSION })
}

/// `created` and `updated`: RFC 3339 date-times.
fn timestamp(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "format": "date-time",
        "pattern": RFC3339_PATTERN,
    })
}

/// A value of `T` or `null`, for fields that must be present but may be `null` (the loader
/// reads them with [`required`]; schemars would make an `Option` field optional).
fn nullable<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<Option<T>>()
}

/// A result as the game's `result` is written (an [`Outcome`]), for other fields that hold
/// one.
pub(in crate::game) fn result_schema(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<ResultIn>()
}
