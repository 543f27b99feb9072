//! Move ordering: what a search learns to order by (killer moves and the history table,
//! kept between searches), the ordering scores (the table move, then king escapes, captures,
//! king routes, killers, history) and picking the next best move.

use super::bounds::MAX_PLY;
use crate::ai::eval;
use crate::ai::fill::sandwich_squares;
use crate::rules::{Bitboard, Move, Position, Side, Square};

/// Move-ordering scores: the table move, then king escapes, captures, king routes, killers,
/// then history.
const ORDER_TT: i32 = 1 << 30;
const ORDER_ESCAPE: i32 = 1 << 29;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KING_ROUTE: i32 = 1 << 23;
const ORDER_KILLER_1: i32 = 1 << 22;
pub(super) const ORDER_KILLER_2: i32 = 1 << 21;

/// Killer moves and the history table, kept between searches (history is aged).
pub(super) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Indexed by side, origin and destination.
    history: Vec<i32>,
}

/// A history score past this halves every score of its side.
const HISTORY_MAX: i32 = 1 << 19;
const HISTORY_SIDE: usize = Square::COUNT * Square::COUNT;

impl Heuristics {
    pub(super) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SIDE],
        }
    }

    /// Starts a new search: no killers, the history divided by `aging`.
    pub(super) fn new_search(&mut self, aging: i32) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        for h in &mut self.history {
            *h /= aging;
        }
    }

    const fn index(side: Side, mv: Move) -> usize {
        side as usize * HISTORY_SIDE + mv.from().index() * Square::COUNT + mv.to().index()
    }

    fn history(&self, side: Side, mv: Move) -> i32 {
        self.history[Self::index(side, mv)]
    }

    pub(super) fn cutoff(&mut self, side: Side, mv: Move, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let h = &mut self.history[Self::index(side, mv)];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            let start = side as usize * HISTORY_SIDE;
            for h in &mut self.history[start..start + HISTORY_SIDE] {
                *h /= 2;
            }
        }
    }

    /// Scores `moves` for ordering into `scores`.
    pub(super) fn order(
        &self,
        pos: &Position,
        moves: &mut [Move],
        tt_move: Option<Move>,
        ply: usize,
        scores: &mut [i32],
    ) {
        let us = pos.side_to_move();
        let own = pos.pieces(us);
        let victims = match us {
            Side::Attackers => pos.pieces(Side::Defenders),
            Side::Defenders => pos.attackers(),
        };
        let mut anvils = own | Bitboard::CORNERS;
        if pos.king() != Some(Square::THRONE) {
            anvils |= Bitboard::THRONE;
        }
        let captures = sandwich_squares(victims, anvils);
        let routes = eval::king_targets(pos);
        let king = pos.king();
        let killers = self.killers[ply];
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            let mv = *mv;
            if Some(mv) == tt_move {
                *score = ORDER_TT;
                continue;
            }
            let mut s = self.history(us, mv);
            if king == Some(mv.from()) && mv.to().is_corner() {
                s += ORDER_ESCAPE;
            }
            if captures.contains(mv.to()) {
                s += ORDER_CAPTURE;
            }
            if routes.contains(mv.to()) {
                s += ORDER_KING_ROUTE;
            }
            if killers[0] == Some(mv) {
                s += ORDER_KILLER_1;
            } else if killers[1] == Some(mv) {
                s += ORDER_KILLER_2;
            }
            *score = s;
        }
    }
}

/// Moves the best-scored move at or after `i` to `i`.
pub(super) fn pick_best(moves: &mut [Move], scores: &mut [i32], i: usize) {
    // The first of the best: `max_by_key` keeps the last of equals, so it scans backwards.
    let best = scores[i..moves.len()]
        .iter()
        .enumerate()
        .rev()
        .max_by_key(|&(_, &score)| score)
        .map_or(i, |(j, _)| i + j);
    moves.swap(i, best);
    scores.swap(i, best);
}
