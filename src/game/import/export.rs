//! Writing a game as an OpenTafl game record (`.otg`): tags from our players (or their names),
//! the game's tags (event, site, date, annotator, and those of other names a record gave),
//! result and termination, the rules string of our rules, the moves in OpenTafl's notation
//! (the king's letter, captures, `++` and `--`, `---` for a resignation on the move), the
//! comments, and the side lines as variations (see [`super::variations`]) with theirs.

use std::fmt::{self, Write as _};

use super::variations::{ELLIPSIS, variation_prefix};
use crate::game::player::{EngineKind, Player};
use crate::game::record::Game;
use crate::game::side_line::SideLine;
use crate::game::tags::Tag;
use crate::rules::{
    AnnotatedMove, Position, Reason, Repetition, Rules, Side, parse_position_record,
    position_record, rules_string,
};

/// A game that OpenTafl's notation cannot describe.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ExportError {
    /// The name of the rules (a preset's, or `custom`).
    rules: &'static str,
    /// What in them has no OpenTafl entry.
    why: &'static str,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} rules cannot be written as an OpenTafl record: OpenTafl's rules strings have no {}",
            self.rules, self.why
        )
    }
}

impl std::error::Error for ExportError {}

/// Why `rules` have no rules string: the first parameter OpenTafl cannot express.
fn inexpressible(rules: &Rules) -> ExportError {
    let why = if rules.king_safe_on_edge {
        "king safe on the edge"
    } else if rules.repetition == Repetition::DefendersLose {
        "repetition rule against the defenders"
    } else {
        "such a mix of king strengths on and beside the throne"
    };
    ExportError {
        rules: rules.preset().map_or("custom", |p| p.name()),
        why,
    }
}

/// The game as an OpenTafl game record, or why OpenTafl cannot describe its rules.
pub fn to_otg(game: &Game) -> Result<String, ExportError> {
    let start = *game.state().start_position();
    let standard_board = position_record(&Position::start());
    // The rules string carries the variant's start with the side to move first; a game
    // from another position says so in a `position` tag. (The standard board always
    // parses; were it not to, the game's own start in the rules string would do as well.)
    let variant_start =
        parse_position_record(&standard_board, start.side_to_move()).unwrap_or(start);
    let rules =
        rules_string(game.rules(), &variant_start).ok_or_else(|| inexpressible(game.rules()))?;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name}:{}]", paragraphs(value));
    };
    let tags = game.tags();
    for kept in [Tag::Event, Tag::Site] {
        if let Some(value) = tags.get(kept) {
            tag(kept.name(), value);
        }
    }
    // The date is the one the game was given, never today's.
    if let Some(date) = tags.get(Tag::Date) {
        tag(Tag::Date.name(), date);
    }
    for side in [Side::Attackers, Side::Defenders] {
        // A name given to the side is written as given (to an AI's side too, in the tags
        // form); without one, the player is written as ours, for our import to read back.
        let player = game.players().side(side);
        tag(
            Tag::name_of(side).name(),
            &tags
                .name(side)
                .map_or_else(|| player_name(player), str::to_owned),
        );
    }
    if let Some(outcome) = game.outcome() {
        let result = match outcome.winner {
            Some(Side::Attackers) => "1",
            Some(Side::Defenders) => "-1",
            None => "0",
        };
        tag("result", result);
        // A termination the record wrote is written back as it was, with the other tags.
        if tags.other("termination").is_none() {
            tag("termination", &outcome.reason.name().replace('-', " "));
        }
    }
    if let Some(annotator) = tags.get(Tag::Annotator) {
        tag(Tag::Annotator.name(), annotator);
    }
    for (name, value) in tags.others() {
        tag(name, value);
    }
    if let Some(comment) = game.start_comment() {
        tag("start-comment", comment);
    }
    let record = position_record(&start);
    if record != standard_board {
        tag("position", &record);
    }
    tag("rules", &rules);
    out.push('\n');
    write_turns(&mut out, game);
    Ok(out)
}

/// One entry of a line as written: the move's text, its comment, the side lines played
/// instead of it and the position before it (where they start).
struct Entry<'a> {
    text: String,
    comment: Option<&'a str>,
    sides: &'a [SideLine],
    before: Position,
}

/// The main line, two moves to a numbered turn, each turn followed by its comments, if
/// any, and by the variations played instead of its moves.
fn write_turns(out: &mut String, game: &Game) {
    let history = game.state().history();
    let mut entries: Vec<Entry<'_>> = game
        .moves()
        .iter()
        .zip(history)
        .zip(game.comments())
        .zip(game.side_lines())
        .map(|(((done, before), comment), sides)| Entry {
            text: move_text(*done, before),
            comment: comment.as_deref(),
            sides,
            before: *before,
        })
        .collect();
    if let Some(outcome) = game.outcome()
        && outcome.reason == Reason::Resignation
        && outcome.winner == Some(game.state().position().side_to_move().opponent())
    {
        entries.push(Entry {
            text: "---".to_owned(),
            comment: None,
            sides: &[],
            before: *game.state().position(),
        });
    }
    write_line(out, game.rules(), "", &entries, 0);
}

/// The entries of a line in turns labelled under `prefix` (none for the main line's `1.`,
/// `2.`, ...; `3b.1.` gives `3b.1.1a.`, `3b.1.2a.`, ...), the first turn beginning with
/// `offset` (0 or 1) `.....` for the parent line's move; after each turn, the variations
/// played instead of its moves.
fn write_line(out: &mut String, rules: &Rules, prefix: &str, entries: &[Entry<'_>], offset: usize) {
    // `None` is the parent line's move, written `.....`.
    let all: Vec<Option<&Entry<'_>>> = std::iter::repeat_n(None, offset)
        .chain(entries.iter().map(Some))
        .collect();
    for (turn, pair) in all.chunks(2).enumerate() {
        let moves: Vec<&str> = pair
            .iter()
            .map(|entry| entry.map_or(ELLIPSIS, |e| e.text.as_str()))
            .collect();
        let label = if prefix.is_empty() {
            format!("{}.", turn + 1)
        } else {
            format!("{prefix}{}a.", turn + 1)
        };
        let _ = writeln!(out, "{label} {}", moves.join(" "));
        let comments: Vec<Option<&str>> = pair
            .iter()
            .map(|entry| entry.and_then(|e| e.comment))
            .collect();
        if comments.iter().any(Option::is_some) {
            // The first comment's bars are written `\|`: the first bare one parts the two.
            let first = comments[0].map_or_else(String::new, first_comment);
            let line = match comments.get(1) {
                Some(second) => format!("{first}|{}", second.map(paragraphs).unwrap_or_default()),
                None => first,
            };
            let _ = writeln!(out, "[{line}]");
        }
        for (i, entry) in pair.iter().enumerate() {
            let Some(entry) = entry else { continue };
            let index = 2 * turn + i;
            for (number, side) in entry.sides.iter().enumerate() {
                let nested = side_entries(rules, entry.before, side);
                let nested_prefix = variation_prefix(prefix, index, number);
                write_line(out, rules, &nested_prefix, &nested, index % 2);
            }
        }
    }
}

/// The entries of a side line that starts from `start`.
fn side_entries<'a>(rules: &Rules, start: Position, side: &'a SideLine) -> Vec<Entry<'a>> {
    let mut position = start;
    side.nodes()
        .iter()
        .map(|node| {
            let before = position;
            position.play_unchecked(node.played().mv, rules);
            Entry {
                text: move_text(node.played(), &before),
                comment: node.comment(),
                sides: node.sides(),
                before,
            }
        })
        .collect()
}

/// A move in OpenTafl's notation: our notation with the king's letter when he moves.
fn move_text(done: AnnotatedMove, before: &Position) -> String {
    if before.king() == Some(done.mv.from()) {
        format!("K{done}")
    } else {
        done.to_string()
    }
}

/// A player as a tag value our import reads back (`human`, `ai:hard`, `ai:max:3s`,
/// `random:easy`).
fn player_name(player: Player) -> String {
    match player {
        Player::Human | Player::Program | Player::Ai { time: Some(_), .. } => player.to_string(),
        Player::Ai {
            engine: EngineKind::Search,
            level,
            time: None,
        } => format!("ai:{level}"),
        Player::Ai {
            engine: EngineKind::Random,
            level,
            time: None,
        } => format!("random:{level}"),
    }
}

/// A comment or tag value as written: its lines as they are where the import reads them
/// back so (no line after the first reads as a tag, a turn or a variation, none before the
/// last closes the bracket with `]`), else on one line. Other control characters become
/// spaces.
fn paragraphs(text: &str) -> String {
    let lines: Vec<String> = text.split('\n').map(one_line).collect();
    let last = lines.len().saturating_sub(1);
    let readable = lines.iter().enumerate().all(|(i, line)| {
        let content = line.trim();
        let first_word = content.split_whitespace().next().unwrap_or_default();
        let opens = i > 0
            && (content.starts_with('[')
                || super::move_record::is_turn_number(first_word)
                || super::otg::is_variation_label(first_word));
        !opens && (i == last || !content.ends_with(']'))
    });
    if readable {
        lines.join("\n")
    } else {
        one_line(text)
    }
}

/// The comment on a turn's first move as written: its paragraphs (see [`paragraphs`]), each
/// `|` as `\|` so that the first bare one parts it from the second move's, and a space after
/// a last `\` (which would escape that bar; the import trims it).
fn first_comment(text: &str) -> String {
    let written = paragraphs(text).replace('|', "\\|");
    if written.ends_with('\\') {
        written + " "
    } else {
        written
    }
}

/// `text` on one line: control characters (line breaks among them) become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
