//! One search of a position ([`Searcher`]): iterative deepening with aspiration windows over
//! the root moves, and below the root alpha-beta (fail-soft, principal-variation search) with
//! the transposition table, futility and history pruning near the horizon and late-move
//! reductions; decided games scored exactly, by distance.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::bounds::{INF, MATE, MAX_PLY, WIN_BOUND};
use super::ordering::{Heuristics, ORDER_KILLER_2, pick_best};
use crate::ai::engine::SearchInfo;
use crate::ai::eval;
use crate::ai::limits::Limits;
use crate::ai::params::SearchParams;
use crate::ai::tt::{Bound, Table};
use crate::game::Score;
use crate::rules::{
    Bitboard, GameState, MAX_MOVES, Move, Outcome, Position, Rules, Side, decided_by_move,
    is_third_occurrence, repetition_outcome,
};

/// The stop flag and the clock are checked every this many nodes (a fraction of a
/// millisecond).
const POLL_INTERVAL: u64 = 1024;

/// A root move with its random bonus (0 at the higher levels).
#[derive(Copy, Clone)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) bonus: i32,
}

/// The depth, distance from the root and alpha-beta window of a node.
#[derive(Copy, Clone)]
struct Window {
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
}

/// One search: the path from the game's start to the current node, and its bookkeeping.
pub(super) struct Searcher<'a> {
    rules: Rules,
    params: SearchParams,
    path: Vec<Position>,
    table: &'a mut Table,
    heuristics: &'a mut Heuristics,
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    pub(super) aborted: bool,
    pub(super) can_abort: bool,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    pub(super) best: Option<Move>,
}

#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
const fn win_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of a decided game for `us`, decided `ply` plies from the root.
fn outcome_score(outcome: Outcome, us: Side, ply: usize) -> i32 {
    match outcome.winner {
        Some(side) if side == us => win_in(ply),
        Some(_) => -win_in(ply),
        None => 0,
    }
}

#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Searcher<'a> {
    /// A search of the current position of `state` within `limits` with `params`, with the
    /// engine's table and heuristics (both start a new search).
    pub(super) fn new(
        state: &GameState,
        limits: &Limits,
        params: SearchParams,
        table: &'a mut Table,
        heuristics: &'a mut Heuristics,
        stop: &'a AtomicBool,
    ) -> Searcher<'a> {
        table.new_search();
        heuristics.new_search(params.history_aging);
        Searcher {
            rules: *state.rules(),
            params,
            path: state.history().to_vec(),
            table,
            heuristics,
            stop,
            start: Instant::now(),
            deadline: limits.time.map(|t| Instant::now() + t),
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            aborted: false,
            can_abort: false,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            best: None,
        }
    }

    /// The root moves `moves` of `pos`, most promising first.
    pub(super) fn root_order(&self, pos: &Position, moves: &mut [Move]) -> Vec<Move> {
        let mut scores = [0; MAX_MOVES];
        self.heuristics.order(pos, moves, None, 0, &mut scores);
        (0..moves.len())
            .map(|i| {
                pick_best(moves, &mut scores, i);
                moves[i]
            })
            .collect()
    }

    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn info(&self, depth: usize, score: i32, partial: bool) -> SearchInfo {
        let elapsed = self.elapsed();
        let secs = elapsed.as_secs_f64();
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let nps = if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        };
        SearchInfo {
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
            score: Score::from_value(score),
            nodes: self.nodes,
            nps,
            elapsed,
            pv: self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .copied()
                .collect(),
            partial,
        }
    }

    /// Iterative deepening with aspiration windows, reporting each completed depth.
    pub(super) fn deepen(
        &mut self,
        root: &mut [RootMove],
        max_depth: usize,
        progress: &mut dyn FnMut(&SearchInfo),
    ) {
        let mut previous: Option<i32> = None;
        let params = self.params;
        for depth in 1..=max_depth {
            self.can_abort = depth > 1;
            let best_before = self.best;
            let mut delta = params.aspiration_window;
            let (mut alpha, mut beta) = match previous {
                Some(s) if depth >= params.aspiration_depth && s.abs() < WIN_BOUND => {
                    (s - delta, s + delta)
                }
                _ => (-INF, INF),
            };
            let score = loop {
                #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
                let s = self.search_root(root, depth as i32, alpha, beta);
                if self.aborted {
                    break s;
                }
                if s <= alpha {
                    alpha = (s - delta).max(-INF);
                } else if s >= beta {
                    beta = (s + delta).min(INF);
                } else {
                    break s;
                }
                delta *= 2;
                if delta > params.aspiration_limit {
                    (alpha, beta) = (-INF, INF);
                }
            };
            if self.aborted {
                if self.best != best_before && self.pv_len[0] > 0 {
                    progress(&self.info(depth - 1, score, true));
                }
                break;
            }
            previous = Some(score);
            progress(&self.info(depth, score, false));
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            if score.abs() >= WIN_BOUND && MATE - score.abs() <= depth as i32 {
                break;
            }
        }
    }

    /// The root: every move searched (PVS), the best moved to the front.
    pub(super) fn search_root(
        &mut self,
        root: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[0] = 0;
        let pos = self.path[self.path.len() - 1];
        let mut best = -INF;
        for i in 0..root.len() {
            let RootMove { mv, bonus } = root[i];
            let window = Window {
                depth,
                ply: 0,
                alpha: alpha - bonus,
                beta: beta - bonus,
            };
            let (mut score, _) = self.search_child(&pos, mv, window, i, false);
            if score.abs() < WIN_BOUND {
                score += bonus;
            }
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, mv);
                    self.best = Some(mv);
                    root[..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[ply] = Some(mv);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        line[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// Checks the node budget, and every [`POLL_INTERVAL`] nodes the stop flag and the clock.
    #[inline]
    fn poll(&mut self) {
        if !self.can_abort {
            return;
        }
        let clock_due = self.nodes.is_multiple_of(POLL_INTERVAL);
        if self.nodes >= self.max_nodes
            || clock_due
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// The score of a position where the search stops: a loss without moves, else the
    /// static evaluation.
    fn leaf(&self, pos: &Position, ply: usize) -> i32 {
        if pos.has_moves() {
            eval::evaluate(pos, &self.rules)
        } else {
            -win_in(ply)
        }
    }

    /// What the table knows of `pos`, the node searched with `window`: its best move, and
    /// the score to return at once where a stored bound settles the node (never in a PV
    /// node). Nodes nearer the horizon than [`SearchParams::table_depth`] skip the table.
    fn probe(&self, pos: &Position, window: Window, pv_node: bool) -> (Option<Move>, Option<i32>) {
        let Window {
            depth,
            ply,
            alpha,
            beta,
        } = window;
        let Some(hit) = (depth >= self.params.table_depth)
            .then(|| self.table.probe(pos.key()))
            .flatten()
        else {
            return (None, None);
        };
        let score = from_table(hit.score, ply);
        let settled = !pv_node
            && hit.depth >= depth
            && match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
        (hit.mv, settled.then_some(score))
    }

    /// The move that wins at once, found without a search: with the defenders to move the
    /// king's walk into an open corner (one of `open_corners`), with the attackers to move a
    /// capture of the king.
    fn immediate_win(&self, pos: &Position, open_corners: Bitboard) -> Option<Move> {
        match pos.side_to_move() {
            Side::Defenders => Some(Move::new(pos.king()?, open_corners.first()?)),
            Side::Attackers => pos.king_capture_move(&self.rules),
        }
    }

    /// Whether the static score of `pos`, a node `depth` plies above the horizon (at least 1),
    /// is so far below `alpha` that no quiet move can lift it there.
    fn futile(&self, pos: &Position, depth: i32, alpha: i32) -> bool {
        eval::evaluate(pos, &self.rules) + self.params.futility_margin * depth <= alpha
    }

    /// Alpha-beta (fail-soft, PVS) below the root; the node's position is the path's last.
    fn negamax(&mut self, mut depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let pos = self.path[self.path.len() - 1];
        let us = pos.side_to_move();
        let open_corners = pos.king_open_corners();
        let king_free = !open_corners.is_empty();
        if let Some(win) = self.immediate_win(&pos, open_corners) {
            self.pv[ply][ply] = Some(win);
            self.pv_len[ply] = ply + 1;
            return win_in(ply + 1);
        }
        if depth <= 0 || ply + 2 >= MAX_PLY {
            // An escape threat is answered before evaluating: the attackers' replies are searched.
            if king_free && ply + 2 < MAX_PLY {
                depth = 1;
            } else {
                return self.leaf(&pos, ply);
            }
        }
        alpha = alpha.max(-win_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let node = Window {
            depth,
            ply,
            alpha,
            beta,
        };
        let (tt_move, cutoff) = self.probe(&pos, node, pv_node);
        if let Some(score) = cutoff {
            return score;
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -win_in(ply);
        }
        let mut scores = [0; MAX_MOVES];
        self.heuristics
            .order(&pos, &mut moves, tt_move, ply, &mut scores);
        // Near the horizon, outside the principal variation and with no escape to answer,
        // quiet moves that cannot lift a hopeless score to alpha are not searched.
        let prunable =
            !pv_node && !king_free && depth <= self.params.pruning_depth && alpha.abs() < WIN_BOUND;
        let futile = prunable && self.futile(&pos, depth, alpha);
        let king = pos.king();
        let alpha_start = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut scores, i);
            let mv = moves[i];
            let quiet_guess = scores[i] < ORDER_KILLER_2 && king != Some(mv.from());
            // Late quiet moves that never made a cutoff (no history) are not searched either.
            let late = i >= self.params.late_moves && scores[i] == 0;
            if i > 0 && quiet_guess && (futile || prunable && late) {
                continue;
            }
            let window = Window { alpha, ..node };
            let reducible = scores[i] < ORDER_KILLER_2;
            let (score, quiet) = self.search_child(&pos, mv, window, i, reducible);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.heuristics.cutoff(us, mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if depth >= self.params.table_depth {
            self.table
                .store(pos.key(), best_move, to_table(best, ply), depth, bound);
        }
        best
    }

    /// Plays `mv` from `pos`, the node at `window.ply`, and scores it for the mover: a decided
    /// game exactly, else by a search below it (PVS: the first move with the full window, the
    /// others with a null window first, late quiet `reducible` moves at reduced depth).
    /// Also says whether the move was quiet (captured nothing).
    fn search_child(
        &mut self,
        pos: &Position,
        mv: Move,
        window: Window,
        index: usize,
        reducible: bool,
    ) -> (i32, bool) {
        let Window {
            depth,
            ply,
            alpha,
            beta,
        } = window;
        let us = pos.side_to_move();
        let mut child = *pos;
        let captured = child.play_unchecked(mv, &self.rules);
        let quiet = captured.is_empty();
        self.pv_len[ply + 1] = ply + 1;
        if let Some(outcome) = decided_by_move(&self.rules, &child, captured) {
            return (outcome_score(outcome, us, ply + 1), quiet);
        }
        self.path.push(child);
        let score = if is_third_occurrence(&self.path) {
            outcome_score(
                repetition_outcome(&self.rules, child.side_to_move()),
                us,
                ply + 1,
            )
        } else if index == 0 {
            -self.negamax(depth - 1, ply + 1, -beta, -alpha)
        } else {
            let reduction = self.reduction(reducible && quiet, depth, index);
            let mut s = -self.negamax(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
            // A search cut off by the limits returns 0: it is not searched again.
            if !self.aborted && s > alpha && reduction > 0 {
                s = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha);
            }
            if !self.aborted && s > alpha && s < beta {
                s = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            }
            s
        };
        self.path.pop();
        (score, quiet)
    }

    /// How many plies shallower the move numbered `index` of a node `depth` plies above the
    /// horizon is searched first: late quiet (`reducible`) moves are reduced.
    fn reduction(&self, reducible: bool, depth: i32, index: usize) -> i32 {
        let p = &self.params;
        if !reducible {
            0
        } else if depth >= p.deep_reduction_depth && index >= p.deep_reduction_move {
            2
        } else {
            i32::from(depth >= p.reduction_depth && index >= p.reduction_move)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, Square};

    /// What `f` makes of a fresh search of `state` (to depth 1, with a small table).
    fn with_searcher<R>(state: &GameState, f: impl FnOnce(&mut Searcher) -> R) -> R {
        let (mut table, mut heuristics) = (Table::new(1), Heuristics::new());
        let stop = AtomicBool::new(false);
        let limits = Limits::depth(1);
        f(&mut Searcher::new(
            state,
            &limits,
            SearchParams::DEFAULT,
            &mut table,
            &mut heuristics,
            &stop,
        ))
    }

    /// The nodes a depth-1 search of the start (the attackers to move: no capture, no king
    /// move, no route to block) visits with the window `(alpha, beta)` around its static score.
    fn nodes_at_depth_one(alpha: i32, beta: i32) -> u64 {
        let state = GameState::start(Preset::Standard.rules());
        let score = eval::evaluate(state.position(), state.rules());
        with_searcher(&state, |searcher| {
            searcher.negamax(1, 0, score + alpha, score + beta);
            searcher.nodes
        })
    }

    #[test]
    fn a_king_capture_is_a_win_without_a_search_even_at_the_horizon() {
        // d5-d7 takes the king on c7 against b7, along the edge.
        let position = "/7/7/5T1/7/3t3/2t4/1tK1t2/ a".parse().unwrap();
        let state = GameState::new(Preset::Standard.rules(), position);
        let (score, best) = with_searcher(&state, |searcher| {
            (searcher.negamax(0, 0, -INF, INF), searcher.pv[0][0])
        });
        assert_eq!(score, win_in(1));
        assert_eq!(best, Some(Move::new(sq("d5"), sq("d7"))));
    }

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn quiet_moves_near_the_horizon_are_pruned_outside_the_principal_variation() {
        let moves = GameState::start(Preset::Standard.rules())
            .legal_moves()
            .len() as u64;
        let late_moves = SearchParams::DEFAULT.late_moves as u64;
        assert!(moves > late_moves + 1);
        // A principal-variation node searches every move (some twice, as PVS does).
        assert!(nodes_at_depth_one(-1000, 1000) > moves);
        // A null window above every move's score but within the margin: the late moves
        // without history are pruned.
        assert_eq!(nodes_at_depth_one(100, 101), 1 + late_moves);
        // A null window out of reach by more than the margin: only the first move is tried.
        let alpha = SearchParams::DEFAULT.futility_margin + 1;
        assert_eq!(nodes_at_depth_one(alpha, alpha + 1), 2);
    }
}
