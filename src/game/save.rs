//! The JSON save format, version 1, and its validation on load (docs/formats.md, "Save format").

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::SavedLesson;
use super::import::RecordError;
use super::ply_analysis::{AnalysisError, SavedPly};
use super::record::{Game, Players, has_winner, is_off_board};
use super::schema;
use super::tree::{SavedLine, SideLineError, restore_sides, saved_lines};
use super::{Clocks, MAX_LINE_DEPTH, ParseTimestampError, Tags, Timestamp};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::{
    GameState, MoveError, Outcome, Position, Preset, Reason, Rules, SetupError, Side,
};

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

/// A writer that refuses to pass on more than [`MAX_SAVE_BYTES`] in all.
struct Capped<'a> {
    out: &'a mut dyn Write,
    left: u64,
}

impl Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let len = u64::try_from(buf.len()).unwrap_or(u64::MAX);
        if len > self.left {
            return Err(TooLarge::Bytes.into());
        }
        let written = self.out.write(buf)?;
        self.left -= u64::try_from(written).unwrap_or(len);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes `save` as a save file: pretty-printed JSON ([`ShallowPretty`]) and a final newline.
fn write_save(out: &mut dyn Write, save: &SaveOut) -> io::Result<()> {
    let mut writer = serde_json::Serializer::with_formatter(&mut *out, ShallowPretty::default());
    save.serialize(&mut writer)?;
    out.write_all(b"\n")
}

/// The most levels a save is indented: what the main line needs (a move of an analysis's
/// line: the game, `analysis`, the move's analysis, its `pv`). Side lines nested deeper are
/// written at this indentation, so that 16 nested lines of long analyses still fit
/// [`MAX_SAVE_BYTES`] (indented in full, each level costing every line two bytes, they
/// would not).
const MAX_INDENT_LEVELS: usize = 4;

/// `serde_json`'s pretty printing (two spaces a level), the indentation stopping at
/// [`MAX_INDENT_LEVELS`].
#[derive(Default)]
struct ShallowPretty {
    /// How deep in arrays and objects the writer is.
    depth: usize,
    /// Whether the array or object being written has a value yet.
    has_value: bool,
}

impl ShallowPretty {
    /// Starts a new line at the current depth's indentation.
    fn new_line<W: ?Sized + Write>(&self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..self.depth.min(MAX_INDENT_LEVELS) {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.new_line(writer)?;
        }
        writer.write_all(bracket)
    }

    fn next_value<W: ?Sized + Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.new_line(writer)
    }
}

impl serde_json::ser::Formatter for ShallowPretty {
    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next_value(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
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
    #[schemars(schema_with = "schema::format_name")]
    _format: Value,
    /// The version of the save format; a newer version is refused with a message asking for
    /// a newer brandubh.
    #[serde(rename = "version")]
    #[schemars(schema_with = "schema::format_version")]
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
    #[schemars(schema_with = "schema::nullable::<ResultIn>")]
    result: Option<ResultIn>,
    /// When the game was created (RFC 3339; written in UTC).
    #[schemars(schema_with = "schema::timestamp")]
    created: String,
    /// When the game last changed (RFC 3339; written in UTC).
    #[schemars(schema_with = "schema::timestamp")]
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
}

/// How the game ended.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Result")]
struct ResultIn {
    /// The winning side, or `null` for a draw.
    #[serde(deserialize_with = "required")]
    #[schemars(schema_with = "schema::nullable::<Side>")]
    winner: Option<Side>,
    /// Why the game ended.
    reason: Reason,
}

/// Reads an `Option` whose field must be present (`null` allowed), unlike serde's default.
fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

impl Game {
    fn save_out(&self) -> SaveOut {
        SaveOut {
            format: FORMAT,
            version: VERSION,
            generator: Generator::ours(),
            rules: self
                .preset()
                .map_or(SavedRules::Custom(*self.rules()), SavedRules::Preset),
            start: self.state().start_position().to_string(),
            moves: self.moves().iter().map(ToString::to_string).collect(),
            start_comment: self.start_comment().map(str::to_owned),
            comments: self
                .comments()
                .iter()
                .any(Option::is_some)
                .then(|| self.comments().to_vec()),
            players: self.players(),
            tags: self.tags().clone(),
            result: self.outcome(),
            created: self.created().to_string(),
            updated: self.updated().to_string(),
            analysis: self.analysis().iter().any(Option::is_some).then(|| {
                self.analysis()
                    .iter()
                    .map(|ply| ply.as_ref().map(SavedPly::from))
                    .collect()
            }),
            clock: self.clocks().copied(),
            side_lines: saved_lines(self.side_lines().iter().map(Vec::as_slice)),
            lessons: self.saved_lessons(),
        }
    }

    /// Writes the game in the save format (pretty-printed JSON and a final newline), as every
    /// save writes it: a game beyond the bounds of a save ([`MAX_PLIES`],
    /// [`MAX_COMMENT_CHARS`], [`MAX_SAVE_BYTES`]) is refused with an error of kind
    /// [`io::ErrorKind::FileTooLarge`] whose inner error is a [`TooLarge`], so that nothing is
    /// written that would not load. (Past the byte limit, part of the game has been written.)
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        self.check_bounds()?;
        self.write_unchecked(&mut Capped {
            out,
            left: MAX_SAVE_BYTES,
        })
    }

    /// The game in the save format, whatever its size (for comparisons and tests: a save goes
    /// through [`Game::write_json`], which refuses a game beyond the bounds).
    pub fn to_json(&self) -> String {
        let mut text = Vec::new();
        // Writing plain structs, strings and unit enums to memory cannot fail, and the
        // output of serde_json is UTF-8.
        match self.write_unchecked(&mut text) {
            Ok(()) => String::from_utf8(text).unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    fn write_unchecked(&self, out: &mut dyn Write) -> io::Result<()> {
        write_save(out, &self.save_out())
    }

    /// Whether the game is within the bounds of a save: its moves and its comments. (An
    /// analysis keeps its lines short itself; the bytes are counted as the save is written.)
    pub fn check_bounds(&self) -> Result<(), TooLarge> {
        let moves = self.moves().len() + self.side_moves();
        if moves > MAX_PLIES {
            return Err(TooLarge::Moves(moves));
        }
        if self.side_line_depth() > MAX_LINE_DEPTH {
            return Err(TooLarge::Depth(self.side_line_depth()));
        }
        let comments = self.comment_chars();
        if comments > MAX_COMMENT_CHARS {
            return Err(TooLarge::Comments(comments));
        }
        Ok(())
    }

    /// The characters of every comment, the one before the first move and the side lines'
    /// included.
    fn comment_chars(&self) -> usize {
        self.comments()
            .iter()
            .flatten()
            .map(String::as_str)
            .chain(self.start_comment())
            .chain(self.side_comments())
            .map(|c| c.chars().count())
            .sum()
    }

    /// Reads a saved game, replaying every move under its rules and checking the result.
    pub fn from_json(text: &str) -> Result<Game, LoadError> {
        Game::from_json_bytes(text.as_bytes())
    }

    /// Reads a saved game from bytes that should be UTF-8 JSON; see [`Game::from_json`].
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Game, LoadError> {
        parse(bytes).map_err(LoadError::from)
    }
}

/// Line and column (both from 1) of byte `offset` in `bytes`, counting characters.
pub(super) fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let mut lines = before.split(|&b| b == b'\n');
    let last = lines.next_back().unwrap_or_default();
    let line = lines.count() + 1;
    let column = String::from_utf8_lossy(last).chars().count() + 1;
    (line, column)
}

/// The message of a `serde_json` error without its " at line L column C" suffix.
fn message_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_owned()
}

fn syntax_error(e: &serde_json::Error) -> LoadErrorKind {
    let (line, column) = (e.line(), e.column());
    let message = message_of(e);
    if e.is_eof() {
        LoadErrorKind::Truncated { line, column }
    } else if message.starts_with("recursion limit exceeded") {
        LoadErrorKind::TooDeep { line, column }
    } else if e.is_syntax() {
        LoadErrorKind::Syntax {
            line,
            column,
            message,
        }
    } else {
        LoadErrorKind::Field {
            line,
            column,
            message,
        }
    }
}

/// The JSON type of a value, for messages.
const fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks `format` and `version` before anything else, so that a file from a newer
/// program or of another kind gets a message saying so rather than about its fields.
fn check_header(value: &Value) -> Result<(), LoadErrorKind> {
    let Value::Object(fields) = value else {
        return Err(LoadErrorKind::NotAnObject(json_type(value)));
    };
    match fields.get("format") {
        Some(Value::String(name)) if name == FORMAT => {}
        other => return Err(LoadErrorKind::Format(other.map(Value::to_string))),
    }
    match fields.get("version") {
        Some(v) => match v.as_u64() {
            Some(VERSION) => Ok(()),
            Some(n) if n > VERSION => Err(LoadErrorKind::NewerVersion(n)),
            _ => Err(LoadErrorKind::BadVersion(Some(v.to_string()))),
        },
        None => Err(LoadErrorKind::BadVersion(None)),
    }
}

fn rules_of(value: Value) -> Result<Rules, LoadErrorKind> {
    match value {
        Value::String(name) => Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .map(Preset::rules)
            .ok_or(LoadErrorKind::UnknownPreset(name)),
        Value::Object(_) => {
            serde_json::from_value(value).map_err(|e| LoadErrorKind::BadRules(message_of(&e)))
        }
        other => Err(LoadErrorKind::BadRules(format!(
            "expected a preset name or an object of parameters, found {}",
            json_type(&other)
        ))),
    }
}

fn timestamp(field: &'static str, text: &str) -> Result<Timestamp, LoadErrorKind> {
    text.parse()
        .map_err(|error| LoadErrorKind::Timestamp { field, error })
}

/// Checks the recorded result against the replayed game and returns the ending to record
/// on top of the board, if the game ended off the board.
fn check_result(
    replayed: Option<Outcome>,
    recorded: Option<Outcome>,
) -> Result<Option<Outcome>, LoadErrorKind> {
    match (replayed, recorded) {
        (Some(board), Some(said)) if board == said => Ok(None),
        (None, None) => Ok(None),
        (None, Some(said)) if is_off_board(said.reason) => {
            if has_winner(said.reason) == said.winner.is_some() {
                Ok(Some(said))
            } else {
                Err(LoadErrorKind::ImpossibleResult(said))
            }
        }
        _ => Err(LoadErrorKind::ResultMismatch { recorded, replayed }),
    }
}

/// Refuses a game whose comments are longer than a save holds ([`MAX_COMMENT_CHARS`]).
/// Puts the side lines `saved` on the game's moves, played from `state` (the start), their
/// repeats merged, and checks the comments again.
fn restore_tree(
    game: &mut Game,
    mut state: GameState,
    saved: Vec<SavedLine>,
) -> Result<(), LoadErrorKind> {
    let line: Vec<_> = game.moves().iter().map(|m| m.mv).collect();
    let sides = restore_sides(&mut state, &line, saved, 0, 0)
        .map_err(|(number, error)| LoadErrorKind::SideLine { number, error })?;
    game.set_side_lines(sides)
        .map_err(|number| LoadErrorKind::SideLine {
            number,
            error: SideLineError::RepeatsPastTheEnd,
        })?;
    check_comments(game)
}

pub(super) fn check_comments(game: &Game) -> Result<(), LoadErrorKind> {
    match game.check_bounds() {
        Err(TooLarge::Comments(n)) => Err(LoadErrorKind::TooMuchComment(n)),
        _ => Ok(()),
    }
}

fn parse(bytes: &[u8]) -> Result<Game, LoadErrorKind> {
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > MAX_SAVE_BYTES {
        return Err(LoadErrorKind::TooLarge(len));
    }
    // Some editors start UTF-8 files with a byte order mark; JSON has no use for it.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(LoadErrorKind::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_column(bytes, e.valid_up_to());
        LoadErrorKind::NotUtf8 { line, column }
    })?;
    let value = super::unique_keys::from_str(text).map_err(|e| syntax_error(&e))?;
    check_header(&value)?;
    drop(value);
    let save: SaveIn = serde_json::from_str(text).map_err(|e| syntax_error(&e))?;
    let rules = rules_of(save.rules)?;
    let start: Position = save.start.parse().map_err(|error| LoadErrorKind::Start {
        text: save.start.clone(),
        error,
    })?;
    let created = timestamp("created", &save.created)?;
    let updated = timestamp("updated", &save.updated)?;
    let all_moves = save.moves.len()
        + save
            .side_lines
            .iter()
            .map(SavedLine::move_count)
            .sum::<usize>();
    if all_moves > MAX_PLIES {
        return Err(LoadErrorKind::TooManyMoves(all_moves));
    }
    let mut game = Game::from_parts(GameState::new(rules, start), save.players);
    game.set_tags(save.tags);
    for (i, text) in save.moves.into_iter().enumerate() {
        if let Err(error) = game.play_text(&text) {
            return Err(LoadErrorKind::Move {
                number: i + 1,
                text,
                error,
            });
        }
    }
    let recorded = save.result.map(|r| Outcome {
        winner: r.winner,
        reason: r.reason,
    });
    if let Some(comments) = save.comments {
        if comments.len() != game.moves().len() {
            return Err(LoadErrorKind::Comments {
                comments: comments.len(),
                moves: game.moves().len(),
            });
        }
        for (i, comment) in comments.into_iter().enumerate() {
            game.set_comment(i, comment);
        }
    }
    game.set_start_comment(save.start_comment);
    check_comments(&game)?;
    if let Some(ending) = check_result(game.outcome(), recorded)? {
        game.conclude(ending)
            .map_err(|_| LoadErrorKind::ImpossibleResult(ending))?;
    }
    if let Some(analysis) = save.analysis {
        if analysis.len() != game.moves().len() {
            return Err(LoadErrorKind::AnalysisLength {
                entries: analysis.len(),
                moves: game.moves().len(),
            });
        }
        game.restore_analysis(analysis)
            .map_err(|(i, error)| LoadErrorKind::Analysis {
                number: i + 1,
                error,
            })?;
    }
    let moves = game.moves().len();
    game.restore_lessons(save.lessons).map_err(|at| {
        if at < moves {
            LoadErrorKind::Lesson { number: at + 1 }
        } else {
            LoadErrorKind::LessonPastEnd { at, moves }
        }
    })?;
    if !save.side_lines.is_empty() {
        restore_tree(&mut game, GameState::new(rules, start), save.side_lines)?;
    }
    if let Some(clocks) = save.clock {
        game.set_clocks(clocks);
    }
    game.set_timestamps(created, updated);
    Ok(game)
}

/// Why a saved game cannot be loaded: the problem, and the file if there is one.
#[derive(Debug)]
pub struct LoadError {
    path: Option<PathBuf>,
    kind: LoadErrorKind,
}

impl LoadError {
    /// What is wrong.
    pub const fn kind(&self) -> &LoadErrorKind {
        &self.kind
    }

    /// The file, when the game was read from one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The same problem, in the file at `path`.
    #[must_use]
    pub fn in_file(self, path: &Path) -> LoadError {
        LoadError {
            path: Some(path.to_owned()),
            kind: self.kind,
        }
    }
}

impl From<LoadErrorKind> for LoadError {
    fn from(kind: LoadErrorKind) -> Self {
        LoadError { path: None, kind }
    }
}

impl fmt::Display for LoadError {
    /// One line, `FILE: problem` or the problem alone, with control characters escaped (a
    /// hostile file must not drive the terminal) and at most a few hundred characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match &self.path {
            Some(path) => format!("{}: {}", path.display(), self.kind),
            None => self.kind.to_string(),
        };
        f.write_str(&escaped(&text, MESSAGE_CHARS))
    }
}

impl std::error::Error for LoadError {}

/// What is wrong with a saved game, and where in it.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file cannot be opened or read.
    Unreadable(std::io::Error),
    /// The path is a directory or another kind of non-regular file.
    NotAFile,
    /// The file is larger than [`MAX_SAVE_BYTES`].
    TooLarge(u64),
    /// The file is empty or only white space.
    Empty,
    /// The bytes are not UTF-8 text.
    NotUtf8 {
        /// Line of the first bad byte, from 1.
        line: usize,
        /// Column (in characters) of the first bad byte, from 1.
        column: usize,
    },
    /// The file starts like none of the kinds of game file read (a save, an OpenTafl record,
    /// a move record; see [`super::import::read`]).
    Unrecognised {
        /// Line of its first word, from 1.
        line: usize,
        /// Column of its first word, from 1.
        column: usize,
        /// Its first word.
        word: String,
    },
    /// The text is not JSON.
    Syntax {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What the JSON reader expected.
        message: String,
    },
    /// The JSON stops in the middle.
    Truncated {
        /// Line of the end, from 1.
        line: usize,
        /// Column of the end.
        column: usize,
    },
    /// Arrays or objects nested too deeply.
    TooDeep {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
    },
    /// The JSON is not an object; the kind of value found.
    NotAnObject(&'static str),
    /// `format` is missing or not `brandubh-game`; the value found, as JSON.
    Format(Option<String>),
    /// `version` is missing or not a positive whole number; the value found, as JSON.
    BadVersion(Option<String>),
    /// The file is from a newer version of the format.
    NewerVersion(u64),
    /// A field is missing, unknown, or of the wrong type.
    Field {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// `rules` names no preset.
    UnknownPreset(String),
    /// `rules` is neither a preset name nor a complete parameter object.
    BadRules(String),
    /// `start` is not a position.
    Start {
        /// The text.
        text: String,
        /// Why it is not a position.
        error: SetupError,
    },
    /// A timestamp is not an RFC 3339 time.
    Timestamp {
        /// `created` or `updated`.
        field: &'static str,
        /// The problem.
        error: ParseTimestampError,
    },
    /// More moves than [`MAX_PLIES`].
    TooManyMoves(usize),
    /// Comments of more characters in all than [`MAX_COMMENT_CHARS`]; how many.
    TooMuchComment(usize),
    /// A move cannot be played (or its annotation is wrong).
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
    /// `comments` does not have one entry per move.
    Comments {
        /// Entries in `comments`.
        comments: usize,
        /// Moves in `moves`.
        moves: usize,
    },
    /// The recorded result is not what the moves lead to.
    ResultMismatch {
        /// The result in the file.
        recorded: Option<Outcome>,
        /// The result of replaying the moves.
        replayed: Option<Outcome>,
    },
    /// A game record of another program (OpenTafl's `.otg`, a move record) cannot be read.
    Record(RecordError),
    /// An ending off the board with a winner it cannot have (a drawn resignation, an agreed
    /// draw with a winner).
    ImpossibleResult(Outcome),
    /// `analysis` does not have one entry per move.
    AnalysisLength {
        /// Entries in `analysis`.
        entries: usize,
        /// Moves in `moves`.
        moves: usize,
    },
    /// A personal puzzle names a move the analysis does not class as a mistake or a
    /// blunder.
    Lesson {
        /// The move's number, from 1.
        number: usize,
    },
    /// A personal puzzle's index is past the last move.
    LessonPastEnd {
        /// The index, as written.
        at: usize,
        /// Moves in `moves`.
        moves: usize,
    },
    /// The analysis of a move is wrong.
    Analysis {
        /// The move's number, from 1.
        number: usize,
        /// What is wrong with its analysis.
        error: AnalysisError,
    },
    /// A side line is wrong.
    SideLine {
        /// The number (from 1, counted from the start along the line) of the move concerned.
        number: usize,
        /// What is wrong.
        error: SideLineError,
    },
}

fn outcome_text(outcome: Option<Outcome>) -> String {
    outcome.map_or_else(|| "null (ongoing)".to_owned(), |o| format!("\"{o}\""))
}

impl fmt::Display for LoadErrorKind {
    #[allow(clippy::too_many_lines)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable(e) => write!(f, "cannot read the file: {e}"),
            Self::NotAFile => write!(f, "not a file (a folder, a device or a FIFO?)"),
            Self::TooLarge(size) => write!(
                f,
                "the file has {size} bytes; a saved game has at most {MAX_SAVE_BYTES} (32 MiB)"
            ),
            Self::Empty => write!(f, "the file is empty"),
            Self::NotUtf8 { line, column } => {
                write!(f, "line {line} column {column}: not UTF-8 text")
            }
            Self::Unrecognised { line, column, word } => write!(
                f,
                "not a saved game, an OpenTafl record or a move record: line {line} column \
                 {column}: \"{}\" starts none of them",
                excerpt(word)
            ),
            Self::Syntax {
                line,
                column,
                message,
            } => write!(f, "line {line} column {column}: not valid JSON: {message}"),
            Self::Truncated { line, column } => write!(
                f,
                "line {line} column {column}: the JSON ends too early (is the file truncated?)"
            ),
            Self::TooDeep { line, column } => write!(
                f,
                "line {line} column {column}: arrays or objects are nested too deeply"
            ),
            Self::NotAnObject(found) => {
                write!(f, "not a saved game: expected a JSON object, found {found}")
            }
            Self::Format(None) => write!(f, "not a saved game: \"format\" is missing"),
            Self::Format(Some(found)) => write!(
                f,
                "not a saved game: \"format\" is {found}, expected \"{FORMAT}\""
            ),
            Self::BadVersion(None) => write!(f, "\"version\" is missing"),
            Self::BadVersion(Some(found)) => {
                write!(f, "\"version\" is {found}, expected the number {VERSION}")
            }
            Self::NewerVersion(v) => write!(
                f,
                "save format version {v} is newer than this program reads (version {VERSION}); update brandubh to open it"
            ),
            Self::Field {
                line,
                column,
                message,
            } => write!(f, "line {line} column {column}: {message}"),
            Self::UnknownPreset(name) => write!(
                f,
                "rules: unknown preset \"{}\" (expected standard, walker, nielsen, fellhuhn, opentafl or an object of parameters)",
                excerpt(name)
            ),
            Self::BadRules(message) => write!(f, "rules: {message}"),
            Self::Start { text, error } => {
                write!(f, "start \"{}\": {error}", excerpt(text))
            }
            Self::Timestamp { field, error } => write!(f, "{field}: {error}"),
            Self::TooManyMoves(n) => {
                write!(f, "{n} moves; a saved game holds at most {MAX_PLIES}")
            }
            Self::TooMuchComment(n) => write!(
                f,
                "the comments hold {n} characters; a game holds at most {MAX_COMMENT_CHARS} in all"
            ),
            Self::Move {
                number,
                text,
                error,
            } => write!(f, "move {number} \"{}\": {error}", excerpt(text)),
            Self::Record(e) => write!(f, "{e}"),
            Self::Comments { comments, moves } => write!(
                f,
                "comments: {comments} entries for {moves} moves (one per move, null where none)"
            ),
            Self::ResultMismatch {
                recorded,
                replayed: None,
            } => write!(
                f,
                "result: the file says {}, but after the moves the game is not over",
                outcome_text(*recorded)
            ),
            Self::ResultMismatch {
                recorded,
                replayed: Some(replayed),
            } => write!(
                f,
                "result: the file says {}, but the moves end the game with \"{replayed}\"",
                outcome_text(*recorded)
            ),
            Self::ImpossibleResult(outcome) => {
                let why = match outcome.reason {
                    Reason::Resignation => "a resignation has a winner",
                    Reason::Time => "a loss on time has a winner",
                    Reason::Abandoned => "an abandoned game has a winner",
                    _ => "it is a draw, with no winner",
                };
                write!(f, "result \"{outcome}\" is impossible: {why}")
            }
            Self::AnalysisLength { entries, moves } => write!(
                f,
                "analysis: {entries} entries for {moves} moves (one per move, null where a move is not analyzed)"
            ),
            Self::Analysis { number, error } => write!(f, "analysis of move {number}: {error}"),
            Self::Lesson { number } => write!(
                f,
                "lessons: move {number} is not analyzed as a mistake or a blunder"
            ),
            Self::LessonPastEnd { at, moves } => write!(
                f,
                "lessons: \"at\" {at} is past the last move ({moves} moves)"
            ),
            Self::SideLine { number, error } => {
                write!(f, "side line at move {number}: {error}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ply_analysis::MAX_LINE_PLIES;
    use crate::game::{EngineKind, Level, MoveTime, Player};

    /// The longest move in our notation: three captures (every side but the one the piece
    /// came from) and a two-character mark.
    const LONGEST_MOVE: &str = "a1-a7xa6/b7/c7++";

    /// The largest analysis of a move: the longest class and numbers, a line of the most moves.
    fn largest_analysis() -> SavedPly {
        let entry = serde_json::json!({
            "class": "inaccuracy",
            "only_move": false,
            "score_before": -30_000,
            "score_after": -30_000,
            "best": LONGEST_MOVE,
            "pv": vec![LONGEST_MOVE; MAX_LINE_PLIES],
            "depth": u32::MAX,
        });
        serde_json::from_value(entry).unwrap()
    }

    /// Every tag at its longest, each character four bytes of UTF-8 (no control character is
    /// allowed, so none is escaped).
    fn largest_tags() -> Tags {
        let mut tags = Tags::default();
        let longest = "\u{1f600}".repeat(crate::game::MAX_TAG_CHARS);
        for tag in crate::game::Tag::ALL {
            tags.set(tag, &longest).unwrap();
        }
        tags
    }

    /// The largest game the bounds allow with `main` moves on the main line (the others in
    /// `side_lines`, which the caller adds): every move at its longest, analyzed, commented
    /// and a lesson.
    fn largest_save(main: usize) -> SaveOut {
        // Control characters are written as \u00XX, six bytes for one character: the
        // comments' characters are all such, one on every move and the rest before the first
        // (every comment adds its quotes).
        let escaped = "\u{1}";
        let rest = MAX_COMMENT_CHARS - MAX_PLIES;
        let player = Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time: Some(MoveTime::TenSeconds),
        };
        // The longest clock the checks admit: every number at its largest, in overtime.
        let longest = crate::game::MAX_DURATION.as_millis();
        let periods = crate::game::MAX_PERIODS;
        let side = serde_json::json!({"left_ms": longest, "periods": periods, "overtime": true});
        let clock: Clocks = serde_json::from_value(serde_json::json!({
            "control": {
                "main_ms": longest,
                "increment_ms": longest,
                "periods": periods,
                "period_ms": longest,
            },
            "attackers": side,
            "defenders": side,
        }))
        .unwrap();
        SaveOut {
            format: FORMAT,
            version: VERSION,
            generator: Generator::ours(),
            rules: SavedRules::Custom(Preset::Standard.rules()),
            // Seven ranks of seven pieces and the side to move.
            start: format!("/{}/ a", ["ttttttt"; 7].join("/")),
            moves: vec![LONGEST_MOVE.to_owned(); main],
            start_comment: Some(escaped.repeat(rest)),
            comments: Some(vec![Some(escaped.to_owned()); main]),
            players: Players {
                attackers: player,
                defenders: player,
            },
            tags: largest_tags(),
            result: Some(Outcome::draw(Reason::Adjudicated)),
            created: "-009999-12-31T23:59:59.999999999+00:00".to_owned(),
            updated: "-009999-12-31T23:59:59.999999999+00:00".to_owned(),
            analysis: Some((0..main).map(|_| Some(largest_analysis())).collect()),
            clock: Some(clock),
            side_lines: Vec::new(),
            // A lesson on every move (each must be a mistake or a blunder).
            lessons: (0..main)
                .map(|at| SavedLesson { at, solved: false })
                .collect(),
        }
    }

    /// The bytes of `save` as a save writes it.
    fn written_bytes(save: &SaveOut) -> u64 {
        let mut text = Vec::new();
        write_save(&mut text, save).unwrap();
        u64::try_from(text.len()).unwrap()
    }

    #[test]
    fn the_largest_game_the_bounds_allow_fits_the_size_limit() {
        let bytes = written_bytes(&largest_save(MAX_PLIES));
        println!("the largest game: {bytes} bytes of {MAX_SAVE_BYTES}");
        assert!(bytes <= MAX_SAVE_BYTES, "{bytes} bytes");
    }

    /// A one-move side line at its largest, with `nested` one-move lines nested under it.
    fn largest_chain(nested: usize) -> serde_json::Value {
        let analysis = serde_json::to_value(largest_analysis()).unwrap();
        let mut line = serde_json::Value::Null;
        for _ in 0..=nested {
            let mut next = serde_json::json!({
                "at": 0,
                "moves": [LONGEST_MOVE],
                "comments": ["\u{1}"],
                "analysis": [analysis],
            });
            if !line.is_null() {
                next["side_lines"] = serde_json::json!([line]);
            }
            line = next;
        }
        line
    }

    #[test]
    fn the_largest_tree_the_bounds_allow_fits_the_size_limit() {
        // Every move in a one-move side line, the lines nested as deep as allowed: the most
        // lines, the most indented.
        let chain = MAX_LINE_DEPTH;
        let main = MAX_PLIES / (chain + 1);
        let mut largest = largest_save(MAX_PLIES - main * chain);
        let line: SavedLine = serde_json::from_value(largest_chain(chain - 1)).unwrap();
        assert_eq!(line.move_count(), chain);
        largest.side_lines = (0..main)
            .map(|at| {
                let mut chain = largest_chain(chain - 1);
                chain["at"] = at.into();
                serde_json::from_value(chain).unwrap()
            })
            .collect();
        let moves: usize = largest.moves.len()
            + largest
                .side_lines
                .iter()
                .map(SavedLine::move_count)
                .sum::<usize>();
        assert_eq!(moves, MAX_PLIES);
        let bytes = written_bytes(&largest);
        println!("the largest tree: {bytes} bytes of {MAX_SAVE_BYTES}");
        assert!(bytes <= MAX_SAVE_BYTES, "{bytes} bytes");
    }

    /// A one-move game whose first move has `nested` one-move side lines nested in one
    /// another under it, each a different first move; the deepest one's `at` as given.
    fn nested_lines(nested: usize, deepest_at: usize) -> String {
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        let firsts = game.state().legal_moves();
        game.play(firsts[0]).unwrap();
        let mut line = serde_json::Value::Null;
        for depth in (1..=nested).rev() {
            let at = if depth == nested { deepest_at } else { 0 };
            let mut next = serde_json::json!({"at": at, "moves": [firsts[depth].to_string()]});
            if !line.is_null() {
                next["side_lines"] = serde_json::json!([line]);
            }
            line = next;
        }
        let mut save: Value = serde_json::from_str(&game.to_json()).unwrap();
        save["side_lines"] = serde_json::json!([line]);
        save.to_string()
    }

    #[test]
    fn side_lines_too_deep_are_refused_whatever_their_at() {
        let at_the_limit = Game::from_json(&nested_lines(MAX_LINE_DEPTH, 0)).unwrap();
        assert_eq!(at_the_limit.side_line_depth(), MAX_LINE_DEPTH);
        let err = Game::from_json(&nested_lines(MAX_LINE_DEPTH + 1, 0)).unwrap_err();
        assert!(err.to_string().contains("nest at most 16 deep"), "{err}");
        let err = Game::from_json(&nested_lines(MAX_LINE_DEPTH + 1, usize::MAX)).unwrap_err();
        assert!(
            err.to_string().contains("its parent line has 1 moves"),
            "{err}"
        );
    }

    #[test]
    fn a_writer_stops_at_the_size_limit() {
        let mut out = Vec::new();
        let mut capped = Capped {
            out: &mut out,
            left: 10,
        };
        capped.write_all(b"0123456789").unwrap();
        let err = capped.write_all(b"x").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::FileTooLarge);
        assert!(err.to_string().contains("too large to save"), "{err}");
        assert_eq!(out, b"0123456789");
    }
}
