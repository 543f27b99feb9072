//! Reading OpenTafl game records (`.otg`): a header of tags `[name:value]` (the `rules` tag
//! holds an OpenTafl rules string), then numbered turns of the main line, each optionally
//! followed by a comment line `[comment on the first move|comment on the second]`, and
//! variations (turns labelled with the address of their first move, `3b.1.1a.`, see
//! [`super::variations`]), read into the game's side lines with their comments. The
//! players' names and the `event`, `site`, `date` and `annotator` tags are kept in the game's
//! [`Tags`].

use super::move_record::{lines, play_entry};
use super::variations::{self, VariationTurn};
use crate::game::load_error::{RecordError, RecordErrorKind};
use crate::game::player::Player;
use crate::game::record::{Game, fits_result, is_off_board};
use crate::game::tags::{Tag, Tags};
use crate::game::time::Timestamp;
use crate::rules::{Outcome, Reason, Side, parse_position_record, parse_rules_string};

/// One turn of the main line: its line, its entries and the comments on them.
struct Turn<'a> {
    line: usize,
    entries: Vec<&'a str>,
    comments: Vec<Option<String>>,
}

/// The record split into tags, the turns of its main line and those of its variations
/// (each with its line).
#[derive(Default)]
struct Parts<'a> {
    tags: Vec<(usize, &'a str, &'a str)>,
    turns: Vec<Turn<'a>>,
    variations: Vec<(usize, VariationTurn<'a>)>,
}

/// What the line before the current one was, for comment lines.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Previous {
    Nothing,
    MainTurn,
    Variation,
    Comment,
}

/// Reads an OpenTafl game record.
pub(super) fn read(text: &str) -> Result<Game, RecordError> {
    let parts = split(text)?;
    let tag = |name: &str| {
        parts
            .tags
            .iter()
            .rev()
            .find(|(_, n, _)| *n == name)
            .map(|&(line, _, value)| (line, value))
    };
    let header_end = parts.tags.last().map_or(1, |t| t.0);
    let (rules_line, rules_text) = tag("rules").ok_or(RecordError {
        line: header_end,
        kind: RecordErrorKind::NoRules,
    })?;
    let at = |line| move |kind| RecordError { line, kind };
    let (rules, mut start) =
        parse_rules_string(rules_text).map_err(|e| at(rules_line)(RecordErrorKind::Rules(e)))?;
    if let Some((line, record)) = tag("position") {
        start = parse_position_record(record.trim(), start.side_to_move())
            .map_err(|e| at(line)(RecordErrorKind::Position(e)))?;
    }
    // A player tag names one of ours (`ai:hard`), or else a person, who plays as a human and
    // whose name is kept.
    let mut tags = Tags::default();
    let mut player = |side| {
        let name = Tag::name_of(side);
        let value = tag(name.name()).map_or("", |(_, value)| value.trim());
        value.parse().unwrap_or_else(|_| {
            tags.set_fitted(name, value);
            Player::Human
        })
    };
    let (attackers, defenders) = (player(Side::Attackers), player(Side::Defenders));
    for kept in [Tag::Event, Tag::Site, Tag::Annotator] {
        if let Some((_, value)) = tag(kept.name()) {
            tags.set_fitted(kept, value);
        }
    }
    // Tags of other names (`round`, `termination`, ...) are kept as written.
    for &(_, name, value) in &parts.tags {
        tags.keep_other(name, value);
    }
    // The date is kept as written (`2016.08.27`, `2016.??.??`); one that is a day is also
    // when the game was created.
    let date = tag("date").map(|(_, date)| date.trim());
    let day = date.and_then(date_of);
    if let Some(text) = date {
        tags.set_fitted(Tag::Date, text);
    }
    let mut game = Game::new(rules, start, attackers, defenders);
    game.set_tags(tags);
    game.set_start_comment(tag("start-comment").map(|(_, text)| paragraphs(text)));
    for turn in &parts.turns {
        for (entry, comment) in turn.entries.iter().zip(&turn.comments) {
            let before = game.moves().len();
            play_entry(&mut game, entry).map_err(at(turn.line))?;
            if game.moves().len() > before {
                game.set_comment(before, comment.clone());
            }
        }
    }
    for (line, turn) in &parts.variations {
        variations::apply(&mut game, turn).map_err(at(*line))?;
    }
    let termination = tag("termination").map(|(_, text)| text);
    if let Some((line, value)) = tag("result") {
        apply_result(&mut game, value.trim(), termination).map_err(at(line))?;
    }
    // A termination that is the name of the game's reason is what an export writes anyway.
    let named = termination.and_then(reason_named);
    if named.is_some() && named == game.outcome().map(|o| o.reason) {
        let mut tags = game.tags().clone();
        tags.keep_other("termination", "");
        game.set_tags(tags);
    }
    let created = day.unwrap_or_else(Timestamp::now);
    game.set_timestamps(created, created);
    Ok(game)
}

/// The tags of an OpenTafl game record, names and values as written, in order.
pub(super) fn tags(text: &str) -> Result<Vec<(String, String)>, RecordError> {
    Ok(split(text)?
        .tags
        .into_iter()
        .map(|(_, name, value)| (name.to_owned(), value.to_owned()))
        .collect())
}

/// Splits the text into tags, main-line turns and variation turns.
fn split(text: &str) -> Result<Parts<'_>, RecordError> {
    let mut parts = Parts::default();
    let mut in_header = true;
    let mut previous = Previous::Nothing;
    for (line, raw) in logical_lines(text) {
        let at = |kind| RecordError { line, kind };
        let content = raw.trim();
        if content.is_empty() {
            // A blank line ends the header.
            in_header = parts.tags.is_empty();
            continue;
        }
        if in_header && content.starts_with('[') {
            let (name, value) =
                tag_of(content).ok_or_else(|| at(RecordErrorKind::Tag(content.to_owned())))?;
            parts.tags.push((line, name, value));
            continue;
        }
        in_header = false;
        if let Some(comment) = content.strip_prefix('[') {
            match previous {
                Previous::MainTurn => {
                    if let Some(turn) = parts.turns.last_mut() {
                        turn.comments = comments_of(comment, turn.entries.len());
                    }
                }
                Previous::Variation => {
                    if let Some((_, turn)) = parts.variations.last_mut() {
                        turn.comments = comments_of(comment, turn.entries.len());
                    }
                }
                Previous::Nothing | Previous::Comment => {
                    return Err(at(RecordErrorKind::StrayComment));
                }
            }
            previous = Previous::Comment;
            continue;
        }
        let mut tokens = content.split_whitespace();
        let label = tokens.next().unwrap_or_default();
        if is_variation_label(label) {
            parts
                .variations
                .push((line, variation_turn(label, tokens.collect()).map_err(at)?));
            previous = Previous::Variation;
            continue;
        }
        let expected = parts.turns.len() + 1;
        if !super::move_record::is_turn_number(label) {
            return Err(at(RecordErrorKind::Unexpected(content.to_owned())));
        }
        if label.trim_end_matches('.').parse() != Ok(expected) {
            return Err(at(RecordErrorKind::TurnNumber {
                expected,
                found: label.to_owned(),
            }));
        }
        if let Some(short) = parts.turns.last().filter(|t| t.entries.len() < 2) {
            return Err(RecordError {
                line: short.line,
                kind: RecordErrorKind::TurnLength {
                    turn: expected - 1,
                    moves: short.entries.len(),
                },
            });
        }
        let entries: Vec<&str> = tokens.collect();
        if entries.is_empty() || entries.len() > 2 {
            return Err(at(RecordErrorKind::TurnLength {
                turn: expected,
                moves: entries.len(),
            }));
        }
        parts.turns.push(Turn {
            line,
            comments: vec![None; entries.len()],
            entries,
        });
        previous = Previous::MainTurn;
    }
    Ok(parts)
}

/// A variation turn of `entries` labelled `text`, checked to be one.
fn variation_turn<'a>(
    text: &'a str,
    entries: Vec<&'a str>,
) -> Result<VariationTurn<'a>, RecordErrorKind> {
    let wrong = |why| RecordErrorKind::Variation {
        label: text.to_owned(),
        why,
    };
    let label = variations::parse_label(text)
        .ok_or_else(|| wrong("not a variation address (expected a form like 3b.1.1a.)"))?;
    if entries.is_empty() || entries.len() > 2 {
        return Err(wrong("a turn holds one or two moves"));
    }
    Ok(VariationTurn {
        text,
        label,
        comments: vec![None; entries.len()],
        entries,
    })
}

/// The record's lines with the number of each, a tag or a comment that runs over several
/// lines (paragraphs of a start comment or of a comment, blank lines between them) joined
/// into one with its line breaks. Such a run ends at the line that closes it with `]`; a
/// tag, a turn or a variation first means the bracket was not left open for that, and the
/// lines are taken one by one as they are.
fn logical_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut open: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in lines(text).enumerate() {
        let line = i + 1;
        let content = raw.trim();
        if let Some(&(first_line, first)) = open.first() {
            let first_word = content.split_whitespace().next().unwrap_or_default();
            let interrupted = content.starts_with('[')
                || super::move_record::is_turn_number(first_word)
                || is_variation_label(first_word);
            if !interrupted {
                if content.ends_with(']') {
                    out.push((first_line, span(text, first, raw)));
                    open.clear();
                } else {
                    open.push((line, raw));
                }
                continue;
            }
            out.append(&mut open);
        }
        if content.starts_with('[') && !content.ends_with(']') {
            open.push((line, raw));
        } else {
            out.push((line, raw));
        }
    }
    out.append(&mut open);
    out
}

/// The text from the start of `first` to the end of `last`, both lines of `text`, `first`
/// not after `last`.
fn span<'a>(text: &'a str, first: &'a str, last: &str) -> &'a str {
    let base = text.as_ptr() as usize;
    let start = first.as_ptr() as usize - base;
    let end = last.as_ptr() as usize + last.len() - base;
    text.get(start..end).unwrap_or(first)
}

/// A text of one or more lines as kept: each line break a `\n`, the whole trimmed.
fn paragraphs(text: &str) -> String {
    lines(text.trim()).collect::<Vec<_>>().join("\n")
}

/// The name and value of a tag line `[name:value]`; the name is letters, digits and `-`.
fn tag_of(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(':')?;
    let is_name = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    is_name.then_some((name, value))
}

/// The comments of a comment line (without its `[`) on a turn of `entries` moves: the text
/// up to the last `]`, split at the first `|` that is not written `\|` (a bar of the first
/// comment, as our export writes it); empty parts are no comment.
fn comments_of(line: &str, entries: usize) -> Vec<Option<String>> {
    let inner = line.rfind(']').map_or(line, |end| &line[..end]);
    let bar = inner
        .match_indices('|')
        .map(|(at, _)| at)
        .find(|&at| !inner[..at].ends_with('\\'));
    let (first, second) = bar.map_or((inner, ""), |at| (&inner[..at], &inner[at + 1..]));
    let first = first.replace("\\|", "|");
    [first.as_str(), second]
        .into_iter()
        .take(entries)
        .map(|text| Some(paragraphs(text)).filter(|t| !t.is_empty()))
        .collect()
}

/// Whether `label` numbers a variation: it begins with a digit, ends with a period and has a
/// letter or more than one period (`3b.`, `3b.3.1a.`), or is the `.....` of a move matching
/// the parent line. (A word of a comment's paragraph, `Good.` or `e.g.`, is none.)
pub(super) fn is_variation_label(label: &str) -> bool {
    let numbered = label.starts_with(|c: char| c.is_ascii_digit())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.')
        && (label.bytes().any(|b| b.is_ascii_alphabetic()) || label.matches('.').count() > 1);
    label.ends_with('.') && (numbered || label.bytes().all(|b| b == b'.'))
}

/// Records the result of the `result` tag (`1`, `0`, `-1`, `?`): checked against the end
/// the moves reach, or, where they reach none, recorded as an ending off the board: the one
/// `termination` tells in words (a resignation, a loss on time, a draw agreed) where it fits
/// the result, else the result as recorded ([`Reason::Recorded`]).
fn apply_result(
    game: &mut Game,
    value: &str,
    termination: Option<&str>,
) -> Result<(), RecordErrorKind> {
    let winner = match value {
        "1" => Some(Side::Attackers),
        "-1" => Some(Side::Defenders),
        "0" => None,
        "?" | "" => return Ok(()),
        _ => return Err(RecordErrorKind::ResultTag(value.to_owned())),
    };
    if let Some(replayed) = game.outcome() {
        if replayed.winner != winner {
            return Err(RecordErrorKind::ResultMismatch {
                tag: value.to_owned(),
                winner,
                replayed,
            });
        }
        return Ok(());
    }
    let reason = termination
        .and_then(reason_told)
        .filter(|&r| is_off_board(r) && fits_result(r, winner.is_some()))
        .unwrap_or(Reason::Recorded);
    // The game is not over (checked above), so it can be concluded.
    let _ = game.conclude(Outcome { winner, reason });
    Ok(())
}

/// The reason a termination text tells: one of our names, with spaces or hyphens, any
/// case; else the first of a resignation, a loss on time or a draw agreed that its words
/// speak of (OpenTafl's `Defender resigns`, `Attacker times out`, `Draw`).
fn reason_told(text: &str) -> Option<Reason> {
    let words = text.to_ascii_lowercase();
    let spoken = [
        ("resign", Reason::Resignation),
        ("time", Reason::Time),
        ("agree", Reason::Agreement),
        ("draw", Reason::Agreement),
    ];
    reason_named(text).or_else(|| {
        spoken
            .into_iter()
            .find(|(word, _)| words.contains(word))
            .map(|(_, reason)| reason)
    })
}

/// The reason a termination text names: our names, with spaces or hyphens, any case.
fn reason_named(text: &str) -> Option<Reason> {
    let name = text.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    Reason::ALL.into_iter().find(|r| r.name() == name)
}

/// Midnight UTC of a `date` tag `YYYY.MM.DD`.
fn date_of(text: &str) -> Option<Timestamp> {
    let mut parts = text.split('.');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    (parts.next().is_none() && digits(year, 4) && digits(month, 2) && digits(day, 2))
        .then(|| format!("{year}-{month}-{day}T00:00:00Z").parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_name_colon_value_in_brackets() {
        assert_eq!(tag_of("[date:2016.08.27]"), Some(("date", "2016.08.27")));
        assert_eq!(
            tag_of("[rules:dim:7 start:/3t3/]"),
            Some(("rules", "dim:7 start:/3t3/"))
        );
        assert_eq!(tag_of("[start-comment:]"), Some(("start-comment", "")));
        for bad in ["[date 2016]", "[:x]", "[da te:x]", "[date:x", "date:x]"] {
            assert_eq!(tag_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn comment_lines_split_at_the_first_bar() {
        assert_eq!(
            comments_of("a|b]", 2),
            [Some("a".to_owned()), Some("b".to_owned())]
        );
        assert_eq!(comments_of("|b|c]", 2), [None, Some("b|c".to_owned())]);
        assert_eq!(comments_of(" a ]", 2), [Some("a".to_owned()), None]);
        assert_eq!(comments_of("x]y|z]", 1), [Some("x]y".to_owned())]);
        assert_eq!(
            comments_of("a\\|b|c]", 2),
            [Some("a|b".to_owned()), Some("c".to_owned())]
        );
        assert_eq!(comments_of("a\\|b]", 1), [Some("a|b".to_owned())]);
    }

    #[test]
    fn variations_are_told_from_the_main_line() {
        for label in ["3b.", "3b.3.1a.", ".....", "1.2."] {
            assert!(is_variation_label(label), "{label}");
        }
        for label in ["3.", "12.", "d2-e2", "[x]", "Good.", "e.g.", "i.e."] {
            assert!(!is_variation_label(label), "{label}");
        }
    }

    #[test]
    fn dates_are_midnight_utc() {
        assert_eq!(
            date_of("2016.08.27").map(|t| t.to_string()),
            Some("2016-08-27T00:00:00Z".to_owned())
        );
        for bad in ["2016.8.27", "2016.02.30", "2016-08-27", "2016.08.27.1", ""] {
            assert_eq!(date_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn terminations_name_our_reasons_in_any_spelling_or_tell_them_in_words() {
        assert_eq!(reason_told("king captured"), Some(Reason::KingCaptured));
        assert_eq!(reason_told(" Resignation "), Some(Reason::Resignation));
        assert_eq!(reason_told("no_moves"), Some(Reason::NoMoves));
        assert_eq!(reason_told("Black resigns"), Some(Reason::Resignation));
        assert_eq!(reason_told("Defender times out"), Some(Reason::Time));
        assert_eq!(reason_told("Draw"), Some(Reason::Agreement));
        assert_eq!(reason_told("checkmate"), None);
        assert_eq!(reason_told("Attacker wins"), None);
    }

    #[test]
    fn the_main_line_and_the_variations_are_split_with_their_comments() {
        let text = "[rules:x]\n\n1. d2-e2 c4-c5\n[a|b]\n1b.1.1a. ..... c4-c3\n[|v]\n\
                    1b.1.2a. e2-e3\n2. e2-e3\n[c]\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.tags, [(1, "rules", "x")]);
        let turns: Vec<_> = parts
            .turns
            .into_iter()
            .map(|t| (t.line, t.entries, t.comments))
            .collect();
        assert_eq!(
            turns,
            [
                (
                    3,
                    vec!["d2-e2", "c4-c5"],
                    vec![Some("a".to_owned()), Some("b".to_owned())]
                ),
                (8, vec!["e2-e3"], vec![Some("c".to_owned())]),
            ]
        );
        let variations: Vec<_> = parts
            .variations
            .into_iter()
            .map(|(line, v)| (line, v.text, v.entries, v.comments))
            .collect();
        assert_eq!(
            variations,
            [
                (
                    5,
                    "1b.1.1a.",
                    vec![".....", "c4-c3"],
                    vec![None, Some("v".to_owned())]
                ),
                (7, "1b.1.2a.", vec!["e2-e3"], vec![None]),
            ]
        );
        let two_comments = split("[rules:x]\n\n1. d2-e2\n[a]\n[b]\n").err();
        assert_eq!(
            two_comments.map(|e| e.to_string()).as_deref(),
            Some("line 5: a comment line that follows no turn")
        );
    }
}
