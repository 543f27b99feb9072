//! An exact solver: does the side to move force a win within N of its own moves?
//!
//! An AND/OR search over the rules engine with no evaluation and no pruning beyond what
//! logic allows: an OR node (the side that should win) stops at its first winning move, an
//! AND node (the other side) at its first reply that holds. Results are remembered in a
//! table keyed by the position (board and side to move) and the moves left.
//!
//! Repetition depends on the game's history, not only on the position; the table is exact
//! for lines that cannot reach a third occurrence of a position they did not already hold
//! twice. From a fresh position that takes at least eight plies, so wins within four moves
//! (seven plies) searched from a puzzle's start are exact.

use std::collections::HashMap;

use crate::rules::{GameState, Move, MoveList, Position, Side};

/// The exact search with its table of proven results. Reuse one solver for many questions
/// about the same game to share the table; start a new one for an unrelated position.
#[derive(Default, Debug)]
pub struct Solver {
    table: HashMap<(u64, u8), bool>,
    nodes: u64,
}

/// How the losing side resists best: the replies after which the winner needs the most
/// moves, and how many that is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resistance {
    /// The replies that hold out longest, in move-generation order.
    pub replies: Vec<Move>,
    /// The winner's moves still needed after any of `replies`; `None` when one of them
    /// holds beyond the bound asked about (the win is no longer forced within it).
    pub moves_left: Option<u8>,
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Positions visited so far (moves played by the search).
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the side to move in `state` forces a win within `moves` of its own moves,
    /// against every defence. A game already over is no win for the side to move.
    pub fn wins_within(&mut self, state: &GameState, moves: u8) -> bool {
        let mut work = state.clone();
        self.or_node(&mut work, moves)
    }

    /// The fewest own moves, at most `max`, within which the side to move forces a win.
    pub fn shortest_win(&mut self, state: &GameState, max: u8) -> Option<u8> {
        (1..=max).find(|&n| self.wins_within(state, n))
    }

    /// Every first move of the side to move that forces a win within `moves` (this move
    /// included), in move-generation order.
    pub fn winning_moves(&mut self, state: &GameState, moves: u8) -> Vec<Move> {
        if moves == 0 {
            return Vec::new();
        }
        let player = state.position().side_to_move();
        let mut work = state.clone();
        let mut found = Vec::new();
        for mv in work.legal_moves().iter().copied() {
            work.play_unchecked(mv);
            if self.after_move(&mut work, player, moves - 1) {
                found.push(mv);
            }
            work.undo();
        }
        found
    }

    /// Whether `mv` by the side to move forces a win within `moves` (this move included).
    pub fn move_wins_within(&mut self, state: &GameState, mv: Move, moves: u8) -> bool {
        if moves == 0 || state.check_move(mv).is_err() {
            return false;
        }
        let player = state.position().side_to_move();
        let mut work = state.clone();
        work.play_unchecked(mv);
        self.after_move(&mut work, player, moves - 1)
    }

    /// The moves of the side to move after which the other side does not force a win
    /// within `moves` of its own moves: when only one move holds, it is the only move that
    /// does not lose. In move-generation order.
    pub fn moves_that_hold(&mut self, state: &GameState, moves: u8) -> Vec<Move> {
        let opponent = state.position().side_to_move().opponent();
        let mut work = state.clone();
        let mut found = Vec::new();
        for mv in work.legal_moves().iter().copied() {
            work.play_unchecked(mv);
            let holds = match work.outcome() {
                Some(outcome) => outcome.winner != Some(opponent),
                None => !self.or_node(&mut work, moves),
            };
            work.undo();
            if holds {
                found.push(mv);
            }
        }
        found
    }

    /// The side to move's longest resistance when the other side forces a win within
    /// `moves` of its own moves: the replies after which the winner needs the most moves.
    /// Without legal moves there are no replies.
    pub fn longest_resistance(&mut self, state: &GameState, moves: u8) -> Resistance {
        let mut work = state.clone();
        let mut best = Resistance {
            replies: Vec::new(),
            moves_left: Some(0),
        };
        let loser = state.position().side_to_move();
        for reply in work.legal_moves().iter().copied() {
            work.play_unchecked(reply);
            let needed = match work.outcome() {
                Some(outcome) if outcome.winner == Some(loser.opponent()) => Some(0),
                Some(_) => None,
                None => (1..=moves).find(|&n| self.or_node(&mut work, n)),
            };
            work.undo();
            let longer = match (needed, best.moves_left) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(a), Some(b)) => a > b,
            };
            if longer || best.replies.is_empty() {
                best = Resistance {
                    replies: vec![reply],
                    moves_left: needed,
                };
            } else if needed == best.moves_left {
                best.replies.push(reply);
            }
        }
        best
    }

    /// OR node: the side to move wins within `moves` of its own moves.
    fn or_node(&mut self, state: &mut GameState, moves: u8) -> bool {
        if moves == 0 || state.is_over() {
            return false;
        }
        let key = (state.position().key(), moves);
        if let Some(&known) = self.table.get(&key) {
            return known;
        }
        let player = state.position().side_to_move();
        let mut wins = false;
        for &mv in &ordered_moves(state) {
            state.play_unchecked(mv);
            wins = self.after_move(state, player, moves - 1);
            state.undo();
            if wins {
                break;
            }
        }
        self.table.insert(key, wins);
        wins
    }

    /// After a move by `player`: the game is won, or every reply leaves `player` a win within
    /// `moves` more of its own moves (AND node).
    fn after_move(&mut self, state: &mut GameState, player: Side, moves: u8) -> bool {
        self.nodes += 1;
        if let Some(outcome) = state.outcome() {
            return outcome.winner == Some(player);
        }
        if moves == 0 {
            return false;
        }
        for &reply in &ordered_moves(state) {
            state.play_unchecked(reply);
            self.nodes += 1;
            let holds = match state.outcome() {
                Some(outcome) => outcome.winner != Some(player),
                None => !self.or_node(state, moves),
            };
            state.undo();
            if holds {
                return false;
            }
        }
        true
    }
}

/// The legal moves with those that end the game at once first (the king's escapes for the
/// defenders, his captures for the attackers). Only the order changes, so it is sound.
fn ordered_moves(state: &GameState) -> MoveList {
    let position = state.position();
    let mut moves = state.legal_moves();
    let decisive = decisive_moves(position, state);
    moves.sort_by_key(|mv| !decisive.contains(mv));
    moves
}

/// The moves that end the game at once for the side to move, as the threat tables see them.
fn decisive_moves(position: &Position, state: &GameState) -> MoveList {
    match position.side_to_move() {
        Side::Attackers => position.king_capture_moves(state.rules()),
        Side::Defenders => {
            let mut moves = MoveList::new();
            if let Some(king) = position.king() {
                for corner in position.king_open_corners() {
                    moves.push(Move::new(king, corner));
                }
            }
            moves
        }
    }
}
