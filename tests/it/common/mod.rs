//! Helpers shared by the integration tests: boards drawn as diagrams, moves by name.
#![allow(dead_code)]
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

pub mod cli;
#[cfg(unix)]
pub mod engine;
pub mod naive;
pub mod rss;

use brandubh::rules::{
    AnnotatedMove, Bitboard, GameState, Move, Outcome, Position, Preset, Side, Square,
};

/// One row of a per-preset rules table: a position, a move, and what it captures under each
/// preset.
pub struct Case {
    /// What the row shows.
    pub name: &'static str,
    /// The position, as a [`diagram`].
    pub board: &'static str,
    /// The side to move.
    pub side: Side,
    /// The move played.
    pub mv: &'static str,
    /// Captured squares per preset, in the order of `Preset::ALL`: standard, walker,
    /// nielsen, fellhuhn, opentafl.
    pub expect: [&'static [&'static str]; 5],
}

/// A square by name.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// A move by name, `d2-d5`.
pub fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A set of squares by name.
pub fn squares(names: &[&str]) -> Bitboard {
    names.iter().map(|n| sq(n)).collect()
}

/// A position drawn as seven rows, rank 7 first, files a–g left to right: `t` attacker,
/// `T` defender, `K` king, anything else empty. Spaces are ignored.
pub fn diagram(rows: &str, side: Side) -> Position {
    let rows: Vec<String> = rows
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 7, "a diagram has 7 rows");
    let (mut att, mut def, mut king) = (Bitboard::EMPTY, Bitboard::EMPTY, None);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.chars().count(), 7, "row {row}");
        for (file, c) in row.chars().enumerate() {
            let s = Square::new(file as u8, 6 - i as u8).unwrap();
            match c {
                't' => att = att.with(s),
                'T' => def = def.with(s),
                'K' => king = Some(s),
                _ => {}
            }
        }
    }
    Position::from_parts(att, def, king, side).unwrap()
}

/// Plays `text` from `position` under `preset` and returns the annotated move and the outcome.
pub fn play(preset: Preset, position: Position, text: &str) -> (AnnotatedMove, Option<Outcome>) {
    let mut state = GameState::new(preset.rules(), position);
    let done = state.play(mv(text)).unwrap();
    (done, state.outcome())
}

/// The squares a move captured under `preset`.
pub fn captured(preset: Preset, position: Position, text: &str) -> Bitboard {
    play(preset, position, text).0.captured
}
