//! Game records written by other programs, and export for them: OpenTafl game records
//! (`.otg`, summarised in docs/formats.md), and plain move records in our notation, OpenTafl's
//! (`Ke5-e1`, `+`, `-`, `---`) or the archive's (`e2-d2xc2xd3`, `timeout`).
//!
//! Which kind a file is, is decided by its content ([`detect`]), so every command that accepts
//! a game file accepts them all ([`read`], used by `storage::load`). Every move is replayed
//! and its annotations checked, as for our own saves.

mod export;
mod move_record;
mod otg;
mod variations;

use super::load_error::{LoadError, LoadErrorKind};
use super::record::Game;
use super::save::read::{check_comments, line_column};
use crate::quote::EXCERPT_CHARS;
use move_record::read_move_record;

pub use super::load_error::{RecordError, RecordErrorKind};
pub use export::{ExportError, to_otg};
pub use move_record::play_record;

/// The kinds of game file read.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Format {
    /// Our JSON save format.
    Json,
    /// An OpenTafl game record: tags in brackets, then numbered turns.
    Otg,
    /// Moves separated by white space (turn numbers such as `1.` allowed), played under the
    /// `standard` rules from the standard start.
    MoveRecord,
}

/// The kind of game file `text` is (after any UTF-8 byte order mark): an OpenTafl record if
/// it starts with a tag, even a malformed one (`[` and a name that begins with a letter and is
/// none of JSON's `true`, `false`, `null`: `[date:`, `[date 2016]`, `[rules]`), a move record
/// if it starts with a move, a turn number, `---` or `timeout`, and otherwise our JSON format
/// (whose reader then says what is wrong).
pub fn detect(bytes: &[u8]) -> Format {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let first: &[u8] = bytes[start..]
        .split(u8::is_ascii_whitespace)
        .next()
        .unwrap_or_default();
    if let Some(rest) = first.strip_prefix(b"[") {
        let name_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
            .count();
        let name = &rest[..name_len];
        // No save is a JSON array, so a bracket and a word is a tag, whatever follows: the
        // record's reader then says what is wrong with it.
        if name.first().is_some_and(u8::is_ascii_alphabetic)
            && !matches!(name, b"true" | b"false" | b"null")
        {
            return Format::Otg;
        }
    }
    let turn_number = first.len() > 1
        && first.ends_with(b".")
        && first[..first.len() - 1].iter().all(u8::is_ascii_digit);
    let a_move = first.first().is_some_and(u8::is_ascii_alphabetic) && first.contains(&b'-');
    if turn_number || a_move || first == b"---" || first == b"timeout" {
        Format::MoveRecord
    } else {
        Format::Json
    }
}

/// Reads a game file of any [`Format`], found by [`detect`]; bytes as read from the file.
pub fn read(bytes: &[u8]) -> Result<(Game, Format), LoadError> {
    let format = detect(bytes);
    let game = match format {
        Format::Json => Game::from_json_bytes(bytes).map_err(|e| unrecognised(bytes, e))?,
        Format::Otg => otg::read(&text_of(bytes)?).map_err(LoadErrorKind::from)?,
        Format::MoveRecord => read_move_record(&text_of(bytes)?).map_err(LoadErrorKind::from)?,
    };
    // A game holds no more than a save does, so that it can be saved.
    check_comments(&game)?;
    Ok((game, format))
}

/// The tags of an OpenTafl game record (`[name:value]`, in order, as written; those our
/// games keep and the others, such as the puzzle tags), or why the file is no such record.
pub fn otg_tags(bytes: &[u8]) -> Result<Vec<(String, String)>, LoadError> {
    if detect(bytes) != Format::Otg {
        return Err(LoadErrorKind::Record(RecordError {
            line: 1,
            kind: RecordErrorKind::Tag(
                String::from_utf8_lossy(bytes)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            ),
        })
        .into());
    }
    Ok(otg::tags(&text_of(bytes)?).map_err(LoadErrorKind::from)?)
}

/// The error of a file taken for JSON (it starts like no record), or, when the JSON reader
/// refused its very first character, that the file starts like none of the kinds read: such a
/// file is not a save that went wrong, and "not valid JSON" would say it is.
fn unrecognised(bytes: &[u8], error: LoadError) -> LoadError {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let (line, column) = line_column(bytes, start);
    match error.kind() {
        LoadErrorKind::Syntax {
            line: at_line,
            column: at_column,
            ..
        } if (*at_line, *at_column) == (line, column) => {
            let word = bytes[start..]
                .split(u8::is_ascii_whitespace)
                .next()
                .unwrap_or_default();
            // Enough of it for a message: quotes are cut after EXCERPT_CHARS characters.
            let word = &word[..word.len().min(4 * (EXCERPT_CHARS + 1))];
            let word = String::from_utf8_lossy(word).into_owned();
            LoadErrorKind::Unrecognised { line, column, word }.into()
        }
        _ => error,
    }
}

/// The text of a record file: UTF-8 without a byte order mark, within the size limit.
fn text_of(bytes: &[u8]) -> Result<String, LoadErrorKind> {
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > super::save_format::MAX_SAVE_BYTES {
        return Err(LoadErrorKind::TooLarge(len));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map(str::to_owned).map_err(|e| {
        let (line, column) = line_column(bytes, e.valid_up_to());
        LoadErrorKind::NotUtf8 { line, column }
    })
}

#[cfg(test)]
mod tests {
    use super::move_record::{is_turn_number, lines};
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn files_are_told_apart_by_content() {
        let cases: [(&[u8], Format); 18] = [
            (b"{\"format\": \"brandubh-game\"}", Format::Json),
            (b"\xEF\xBB\xBF  {}", Format::Json),
            (b"[1, 2]", Format::Json),
            (b"[null]", Format::Json),
            (b"null", Format::Json),
            (b"brandubh game: d2-e2", Format::Json),
            (b"", Format::Json),
            (b"\n[date:2016.08.27]\n[rules:dim:7]", Format::Otg),
            (b"[start-comment:hello]", Format::Otg),
            (b"[date 2016.08.27]", Format::Otg),
            (b"[rules]", Format::Otg),
            (b"[Date:x]\r[rules:x]", Format::Otg),
            (b"[true, false]", Format::Json),
            (b"[null ]", Format::Json),
            (b"[\"a\"]", Format::Json),
            (b"d2-e2 c4-c5", Format::MoveRecord),
            (b"1. d2-e2 c4-c5", Format::MoveRecord),
            (b"Kd4-d5 ---", Format::MoveRecord),
        ];
        for (bytes, format) in cases {
            assert_eq!(detect(bytes), format, "{}", String::from_utf8_lossy(bytes));
        }
        assert_eq!(detect(b"timeout"), Format::MoveRecord);
        assert_eq!(detect(b"---"), Format::MoveRecord);
    }

    #[test]
    fn lines_end_at_any_ending() {
        let split = |text| lines(text).collect::<Vec<_>>();
        for text in [
            "a\nb\n\nc",
            "a\r\nb\r\n\r\nc\r\n",
            "a\rb\r\rc\r",
            "a\nb\r\n\rc",
        ] {
            assert_eq!(split(text), ["a", "b", "", "c"], "{text:?}");
            assert_eq!(
                split(text),
                text.replace("\r\n", "\n")
                    .replace('\r', "\n")
                    .lines()
                    .collect::<Vec<_>>()
            );
        }
        assert!(split("").is_empty());
        assert_eq!(split("\n"), [""]);
        assert_eq!(split("x"), ["x"]);
    }

    #[test]
    fn move_records_skip_turn_numbers_and_count_lines() {
        let (game, format) = read(b"1. d2-e2 c4-c5\n2. e2-e3").unwrap();
        assert_eq!(format, Format::MoveRecord);
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.preset(), Some(Preset::Standard));
        let err = read(b"1. d2-e2 c4-c5\n\n2. e2-e3 c5-c4x").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: move 4 \"c5-c4x\": \"c5-c4x\" is not a move (expected a form like d2-d5 or d2-d5xd6)"
        );
        assert!(is_turn_number("12.") && !is_turn_number(".") && !is_turn_number("1b."));
    }

    #[test]
    fn records_are_utf8_within_the_size_limit() {
        let err = read(b"d2-e2 c4-c5\n\xFF").unwrap_err();
        assert!(matches!(
            err.kind(),
            LoadErrorKind::NotUtf8 { line: 2, column: 1 }
        ));
        let limit = usize::try_from(super::super::save_format::MAX_SAVE_BYTES).unwrap();
        let mut big = b"d2-e2 ".repeat(limit / 6 + 1);
        big.truncate(limit + 1);
        assert!(matches!(
            read(&big).unwrap_err().kind(),
            LoadErrorKind::TooLarge(_)
        ));
    }
}
