//! Side lines in OpenTafl records: variation labels and where they put a line in the game's
//! tree.
//!
//! A turn of a variation is labelled by the address of its first move: the move of the main
//! line it replaces (`3b`: turn 3, its second move), the variation's number among those
//! played there (from 1), and the turn within the variation (`1a`, `2a`, ..., numbered
//! afresh from the variation's first turn). Nested variations add a step for each line:
//! `3b.2.1b.1.1a.` is the first variation played instead of the second move of the first
//! turn of the second variation at move 3b of the main line. A variation that replaces a
//! second move (`b`) begins its first turn with `.....`, which stands for the first move of
//! that turn, the parent line's own.

use crate::game::load_error::RecordErrorKind;
use crate::game::record::Game;
use crate::game::tree::{Fork, Place, PlayAtError};
use crate::rules::{IllegalMove, MoveError, RecordEntry};

/// The entry standing for a move of the parent line in a variation's first turn.
pub(super) const ELLIPSIS: &str = ".....";

/// One step down the tree in a label: the move of a line replaced (its turn from 1, and
/// whether it is the turn's second move), and which variation played there (from 1).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct Step {
    turn: usize,
    second: bool,
    variation: usize,
}

/// A variation turn's label: the steps from the main line to the variation, then the
/// variation's turn (from 1).
#[derive(Clone, Eq, PartialEq, Debug)]
pub(super) struct Label {
    steps: Vec<Step>,
    turn: usize,
}

/// Parses a variation label (`3b.1.1a.`); `None` if it is not one.
pub(super) fn parse_label(text: &str) -> Option<Label> {
    let elements: Vec<&str> = text.strip_suffix('.')?.split('.').collect();
    let (last, pairs) = elements.split_last()?;
    if pairs.is_empty() || pairs.len() % 2 != 0 {
        return None;
    }
    let mut steps = Vec::with_capacity(pairs.len() / 2);
    for pair in pairs.chunks(2) {
        let (turn, letter) = move_element(pair[0])?;
        steps.push(Step {
            turn,
            second: letter? == 'b',
            variation: number(pair[1])?,
        });
    }
    let (turn, letter) = move_element(last)?;
    // The turn's first move: `1a`, or `1` alone.
    (letter.is_none_or(|l| l == 'a')).then_some(Label { steps, turn })
}

/// A number from 1, in digits.
fn number(text: &str) -> Option<usize> {
    let all_digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    all_digits
        .then(|| text.parse().ok())
        .flatten()
        .filter(|&n| n >= 1)
}

/// A move element: a turn number and its letter, `a` or `b`, if any.
fn move_element(text: &str) -> Option<(usize, Option<char>)> {
    match text.strip_suffix(['a', 'b']) {
        Some(digits) => Some((number(digits)?, text.chars().last())),
        None => Some((number(text)?, None)),
    }
}

/// The address element of the move at `index` (from 0) of a line's numbering: its turn
/// and `a` or `b`.
pub(super) fn move_address(index: usize) -> String {
    let letter = if index.is_multiple_of(2) { 'a' } else { 'b' };
    format!("{}{letter}", index / 2 + 1)
}

/// The label prefix of variation `number` (from 0) played instead of the move at `index`
/// of a line's numbering, under the line's own `prefix` (empty for the main line).
pub(super) fn variation_prefix(prefix: &str, index: usize, number: usize) -> String {
    format!("{prefix}{}.{}.", move_address(index), number + 1)
}

/// One turn of a variation as read: its label, its entries and their comments.
pub(super) struct VariationTurn<'a> {
    /// The label as written.
    pub text: &'a str,
    /// The label parsed.
    pub label: Label,
    /// The moves (and `.....`).
    pub entries: Vec<&'a str>,
    /// The comments on them.
    pub comments: Vec<Option<String>>,
}

/// Plays a variation turn into the game's tree, its parent lines already read: the
/// variation's first turn opens it, a later one lengthens it.
pub(super) fn apply(game: &mut Game, turn: &VariationTurn<'_>) -> Result<(), RecordErrorKind> {
    let wrong = |why| RecordErrorKind::Variation {
        label: turn.text.to_owned(),
        why,
    };
    let (forks, offset, opening) = locate(game, &turn.label).map_err(wrong)?;
    let len = game.line_len(&forks).unwrap_or(0);
    let expected = (2 * (turn.label.turn - 1)).checked_sub(offset);
    let mut place = match opening {
        Some(parent) if turn.label.turn == 1 => parent,
        Some(_) => return Err(wrong("its first turn has not been read")),
        None if turn.label.turn == 1 => return Err(wrong("its first turn was read before")),
        None if expected != Some(len) => return Err(wrong("its turns are not in order")),
        None => Place::new(forks.clone(), len),
    };
    let skip = if turn.label.turn == 1 { offset } else { 0 };
    for (i, (&entry, comment)) in turn.entries.iter().zip(&turn.comments).enumerate() {
        if (i < skip) != (entry == ELLIPSIS) {
            return Err(wrong(if i < skip {
                "it replaces a second move, so its first turn begins with ....."
            } else {
                "..... only stands for the parent line's move before the variation's first"
            }));
        }
        if i < skip {
            continue;
        }
        if matches!(
            entry.parse::<RecordEntry>(),
            Ok(RecordEntry::Resignation | RecordEntry::Timeout)
        ) {
            // A side line holds moves only: an ending off the board in it is not kept.
            continue;
        }
        place = play(game, &place, entry, comment.clone(), &forks).map_err(|e| match e {
            Played::Move(kind) => kind,
            Played::Tree(why) => wrong(why),
        })?;
    }
    Ok(())
}

/// Where a label's variation is: the forks to it, whether its first move is the second of
/// its first turn (1) or not (0), and, if it is not in the tree yet, the place in its
/// parent line where it opens.
fn locate(game: &Game, label: &Label) -> Result<(Vec<Fork>, usize, Option<Place>), &'static str> {
    let mut forks: Vec<Fork> = Vec::with_capacity(label.steps.len());
    let mut offset = 0;
    let mut opening = None;
    for (i, step) in label.steps.iter().enumerate() {
        let index = 2 * (step.turn - 1) + usize::from(step.second);
        let len = game.line_len(&forks).unwrap_or(0);
        let at = index
            .checked_sub(offset)
            .filter(|&at| at < len)
            .ok_or("the move it replaces is not in its parent line")?;
        let parent = Place::new(forks.clone(), at);
        let existing = game.side_lines_at(&parent).len();
        let line = step.variation - 1;
        if line > existing {
            return Err("a variation numbered before it has not been read");
        }
        if line == existing && i + 1 < label.steps.len() {
            return Err("a line it leaves has not been read");
        }
        if line == existing {
            opening = Some(parent);
        }
        forks.push(Fork { at, line });
        offset = usize::from(step.second);
    }
    Ok((forks, offset, opening))
}

/// Why a variation's move could not be played.
enum Played {
    /// The move itself.
    Move(RecordErrorKind),
    /// Where it goes in the tree.
    Tree(&'static str),
}

/// Plays `entry` at `place`, which must lead along (or open) the line through `forks`, with
/// its comment; the place after it.
fn play(
    game: &mut Game,
    place: &Place,
    entry: &str,
    comment: Option<String>,
    forks: &[Fork],
) -> Result<Place, Played> {
    let number = place.depth_in_moves() + 1;
    let error = |error| {
        Played::Move(RecordErrorKind::Move {
            number,
            text: entry.to_owned(),
            error,
        })
    };
    if game.moves().len() + game.side_moves() >= crate::game::save_format::MAX_PLIES {
        return Err(Played::Move(RecordErrorKind::TooManyMoves));
    }
    let mut state = game.state_at(place).ok_or(Played::Tree("no such place"))?;
    let done = state.play_text(entry).map_err(error)?;
    let next = game.play_at(place, done.mv).map_err(|e| match e {
        PlayAtError::Illegal(e) => error(MoveError::Illegal(e)),
        PlayAtError::TooDeep => Played::Tree("side lines nest at most 16 deep"),
        PlayAtError::NoSuchPlace => error(MoveError::Illegal(IllegalMove::GameOver)),
    })?;
    if next.forks() != forks {
        return Err(Played::Tree(
            "its first move is one its parent line or an earlier variation plays there",
        ));
    }
    game.set_comment_at(&next, comment);
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_steps_down_the_tree() {
        let label = parse_label("3b.3.1a.").unwrap();
        assert_eq!(
            label.steps,
            [Step {
                turn: 3,
                second: true,
                variation: 3
            }]
        );
        assert_eq!(label.turn, 1);
        let nested = parse_label("2a.1.4b.2.12.").unwrap();
        assert_eq!(nested.steps.len(), 2);
        assert_eq!(nested.turn, 12);
        for bad in [
            "3.", "3b.", "3b.1.", "3b.1.1b.", "3.1.1a.", "3b.0.1a.", "0a.1.1a.", "3b.1.1a",
            "3c.1.1a.", ".....",
        ] {
            assert_eq!(parse_label(bad), None, "{bad}");
        }
        assert_eq!(variation_prefix("", 5, 0), "3b.1.");
        assert_eq!(variation_prefix("3b.1.", 0, 1), "3b.1.1a.2.");
    }
}
