//! Writing a game in the save format: the bounds checked first and the bytes counted as they
//! are written, so that nothing is saved that would not load; pretty-printed JSON, indented at
//! most a few levels deep.

use std::io::{self, Write};

use serde::Serialize;

use super::{Generator, SaveOut, SavedRules, TooLarge};
use crate::game::ply_analysis::SavedPly;
use crate::game::record::Game;
use crate::game::save_format::{FORMAT, MAX_COMMENT_CHARS, MAX_PLIES, MAX_SAVE_BYTES, VERSION};
use crate::game::side_line::MAX_LINE_DEPTH;
use crate::game::tree::saved_lines;

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
            chat: self.chat().to_vec(),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::Clocks;
    use crate::game::player::{EngineKind, Level, MoveTime, Player};
    use crate::game::ply_analysis::MAX_LINE_PLIES;
    use crate::game::record::{Players, SavedLesson};
    use crate::game::save::SavedLine;
    use crate::game::tags::Tags;
    use crate::rules::{Outcome, Preset, Reason};

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

    /// Every tag at its longest, and as many other tags as a game keeps, each character four
    /// bytes of UTF-8 (no control character is allowed, so none is escaped).
    fn largest_tags() -> Tags {
        let mut tags = Tags::default();
        let longest = "\u{1f600}".repeat(crate::game::tags::MAX_TAG_CHARS);
        for tag in crate::game::tags::Tag::ALL {
            tags.set(tag, &longest).unwrap();
        }
        for i in 0..crate::game::tags::MAX_OTHER_TAGS {
            let name = format!(
                "{i:-<width$}",
                width = crate::game::tags::MAX_TAG_NAME_CHARS
            );
            assert!(tags.keep_other(&name, &longest));
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
        let longest = crate::game::duration::MAX_DURATION.as_millis();
        let periods = crate::game::clock::MAX_PERIODS;
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
            // The longest chat: four bytes for each character.
            chat: vec![
                crate::game::ChatLine {
                    from: "\u{1f600}".repeat(crate::game::MAX_CHAT_NAME_CHARS),
                    text: "\u{1f600}".repeat(crate::game::MAX_CHAT_LINE_CHARS),
                    spectators: true,
                };
                crate::game::MAX_CHAT_LINES
            ],
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
