//! Why a game file cannot be loaded ([`LoadError`]): what is wrong in a saved game
//! ([`LoadErrorKind`]) or in the record of another program ([`RecordError`]), and where.

use std::fmt;
use std::path::{Path, PathBuf};

use super::ply_analysis::AnalysisError;
use super::save_format::{FORMAT, MAX_COMMENT_CHARS, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
use super::time::ParseTimestampError;
use super::tree::SideLineError;
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::{MoveError, Outcome, Reason, RulesStringError, SetupError, Side};

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
    /// The chat is beyond its bounds (too many lines, a line too long or with a control
    /// character): why.
    Chat(String),
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
                    Reason::Aborted => "an aborted game has no winner",
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
            Self::Chat(why) => write!(f, "chat: {why}"),
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

/// A game record that cannot be read, and the line of the problem (from 1).
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct RecordError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for RecordError {}

impl From<RecordError> for LoadErrorKind {
    fn from(e: RecordError) -> Self {
        LoadErrorKind::Record(e)
    }
}

/// What is wrong with a game record.
#[derive(Clone, Eq, PartialEq, Debug)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// A move (or `---`, `timeout`) that cannot be played, or whose annotations are wrong.
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
    /// More moves than a game may hold.
    TooManyMoves,
    /// A header line that is not a tag `[name:value]`.
    Tag(String),
    /// There is no `rules` tag.
    NoRules,
    /// The rules string cannot be played exactly.
    Rules(RulesStringError),
    /// The `position` tag is not a position.
    Position(SetupError),
    /// The `result` tag is not `1`, `0`, `-1` or `?`.
    ResultTag(String),
    /// The `result` tag disagrees with the end the moves reach.
    ResultMismatch {
        /// The `result` tag.
        tag: String,
        /// The winner the tag names, or `None` for a draw.
        winner: Option<Side>,
        /// The end of the game after the moves.
        replayed: crate::rules::Outcome,
    },
    /// A turn of the main line is not numbered as the next one.
    TurnNumber {
        /// The number expected.
        expected: usize,
        /// The label found.
        found: String,
    },
    /// A turn with more than two moves, or with one move that is not the last turn.
    TurnLength {
        /// The turn's number.
        turn: usize,
        /// Its moves.
        moves: usize,
    },
    /// A comment line with no turn before it, or a second one after a turn.
    StrayComment,
    /// A line of the moves section that is none of a turn, a comment or a variation.
    Unexpected(String),
    /// A variation that cannot be read or put in the game's tree.
    Variation {
        /// Its label as written.
        label: String,
        /// What is wrong.
        why: &'static str,
    },
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Move {
                number,
                text,
                error,
            } => write!(f, "move {number} \"{}\": {error}", excerpt(text)),
            Self::TooManyMoves => write!(f, "more than {MAX_PLIES} moves"),
            Self::Tag(line) => write!(
                f,
                "\"{}\" is not a tag (expected [name:value])",
                excerpt(line)
            ),
            Self::NoRules => write!(f, "no [rules:...] tag before the moves"),
            Self::Rules(e) => write!(f, "{e}"),
            Self::Position(e) => write!(f, "position tag: {e}"),
            Self::ResultTag(value) => write!(
                f,
                "result tag \"{}\": expected 1 (attackers win), 0 (draw), -1 (defenders win) or ?",
                excerpt(value)
            ),
            Self::ResultMismatch {
                tag,
                winner,
                replayed,
            } => {
                let meaning =
                    winner.map_or_else(|| "a draw".to_owned(), |w| format!("the {w} win"));
                write!(
                    f,
                    "the result tag says {tag} ({meaning}), but the moves end the game with \"{replayed}\""
                )
            }
            Self::TurnNumber { expected, found } => write!(
                f,
                "turn \"{}\" where turn {expected}. was expected",
                excerpt(found)
            ),
            Self::TurnLength { turn, moves } => write!(
                f,
                "turn {turn} has {moves} move{}; a turn holds two, the last one may hold one",
                if *moves == 1 { "" } else { "s" }
            ),
            Self::StrayComment => write!(f, "a comment line that follows no turn"),
            Self::Unexpected(line) => write!(
                f,
                "\"{}\" is not a turn (expected a form like \"3. d2-d5 c4-c3\")",
                excerpt(line)
            ),
            Self::Variation { label, why } => {
                write!(f, "variation \"{}\": {why}", excerpt(label))
            }
        }
    }
}
