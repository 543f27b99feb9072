//! Counting move sequences (perft), with bulk counting at the last ply.

use super::moves::Move;
use super::outcome::{decided_by_move, is_third_occurrence};
use super::position::Position;
use super::preset::Rules;
use super::state::GameState;

/// The number of distinct sequences of exactly `depth` moves from the game's current state.
/// A position whose game is over has no moves.
pub fn perft(state: &GameState, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if state.is_over() {
        return 0;
    }
    Walker::new(state).count(depth)
}

/// [`perft`] split by first move: each legal move with the count below it, in move order.
pub fn divide(state: &GameState, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    state
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

/// Depth-first walk over copies of positions, keeping the path for repetition checks.
struct Walker<'a> {
    rules: &'a Rules,
    path: Vec<Position>,
}

impl<'a> Walker<'a> {
    fn new(state: &'a GameState) -> Self {
        Walker {
            rules: state.rules(),
            path: state.history().to_vec(),
        }
    }

    /// Counts below the last position of the path, which is not decided.
    fn count(&mut self, depth: u32) -> u64 {
        let pos = self.path[self.path.len() - 1];
        if depth == 1 {
            return pos.count_moves();
        }
        let mut total = 0;
        pos.for_each_piece_moves(|from, dests| {
            for to in dests {
                let mut child = pos;
                let captured = child.play_unchecked(Move::new(from, to), self.rules);
                if decided_by_move(self.rules, &child, captured).is_some() {
                    continue;
                }
                self.path.push(child);
                if !is_third_occurrence(&self.path) {
                    total += self.count(depth - 1);
                }
                self.path.pop();
            }
        });
        total
    }
}
