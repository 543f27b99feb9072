//! Reading a save: `format` and `version` first, then the fields, then every move replayed
//! under the rules, and the result, comments, analysis, lessons and side lines checked against
//! the game replayed.

use serde_json::Value;

use super::{SaveIn, TooLarge};
use crate::game::load_error::{LoadError, LoadErrorKind};
use crate::game::record::{Game, fits_result, is_off_board};
use crate::game::save_format::{FORMAT, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
use crate::game::time::Timestamp;
use crate::game::tree::{SavedLine, SideLineError, restore_sides};
use crate::rules::{GameState, Outcome, Position, Preset, Rules};

impl Game {
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
pub(in crate::game) fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
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
            if fits_result(said.reason, said.winner.is_some()) {
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

pub(in crate::game) fn check_comments(game: &Game) -> Result<(), LoadErrorKind> {
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
    let value = crate::game::unique_keys::from_str(text).map_err(|e| syntax_error(&e))?;
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
    game.set_chat(save.chat).map_err(LoadErrorKind::Chat)?;
    game.set_timestamps(created, updated);
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use crate::game::side_line::MAX_LINE_DEPTH;
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
}
