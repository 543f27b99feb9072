//! The main engine: iterative deepening alpha-beta with principal-variation search,
//! aspiration windows, late-move reductions, futility and history pruning near the horizon, a
//! transposition table and move ordering (table move, captures, king moves toward the corners,
//! killers, history).
//!
//! The search is exact at the leaves for every preset: king captures, escapes, encirclement,
//! repetition (with the game's history before the root) and "no legal move loses" are decided
//! by the rules engine as moves are made; a king that can escape or be captured with the next
//! move is a win for the side to move at any node; wins and losses are scored by distance.
//!
//! Here the engine ([`SearchAi`]), what it keeps between searches and its entry points;
//! `searcher` holds one search, `ordering` the move ordering and its heuristics.

mod bounds;
mod ordering;
mod searcher;

use std::sync::atomic::AtomicBool;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::engine::{Ai, NoMove, SearchInfo};
use super::limits::Limits;
use super::params::SearchParams;
use super::tt::Table;
use crate::game::Level;
use crate::rules::{GameState, Move, Rules};
use bounds::{MAX_PLY, WIN_BOUND};
use ordering::Heuristics;
use searcher::{RootMove, Searcher};

/// The default transposition-table size in megabytes.
pub const DEFAULT_TT_MB: usize = 8;

/// The alpha-beta engine at a level.
pub struct SearchAi {
    level: Level,
    /// The largest random bonus given to a root move (0: none), for the lower levels.
    noise: i32,
    rng: Xoshiro256PlusPlus,
    params: SearchParams,
    table: Table,
    heuristics: Box<Heuristics>,
    /// The rules of the last search: the table and heuristics learned under them, and hold
    /// under no others.
    rules: Option<Rules>,
}

impl SearchAi {
    /// The engine at `level` with a transposition table of `tt_megabytes` MB (at most
    /// [`MAX_TT_MB`](super::MAX_TT_MB)). The seed drives
    /// the controlled randomness of the lower levels: each root move gets a random bonus of up
    /// to 1.5 soldiers at `easy` and 0.6 at `medium` (never added to a win or a loss).
    pub fn new(level: Level, seed: u64, tt_megabytes: usize) -> SearchAi {
        let noise = match level {
            Level::Easy => 150,
            Level::Medium => 60,
            Level::Hard | Level::Max => 0,
        };
        SearchAi {
            level,
            noise,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            params: SearchParams::DEFAULT,
            table: Table::new(tt_megabytes),
            heuristics: Box::new(Heuristics::new()),
            rules: None,
        }
    }

    /// The engine searching with `params` instead of [`SearchParams::DEFAULT`], each brought
    /// into its range.
    #[must_use]
    pub fn with_params(mut self, params: SearchParams) -> SearchAi {
        self.params = params.clamped();
        self
    }

    /// Forgets what earlier searches learned if `state` is played under other rules than the
    /// last search: a score proven under one preset may be wrong under another.
    fn adopt_rules(&mut self, state: &GameState) {
        let rules = *state.rules();
        if self.rules.is_some_and(|r| r != rules) {
            self.table.clear();
            *self.heuristics = Heuristics::new();
        }
        self.rules = Some(rules);
    }
}

impl Ai for SearchAi {
    fn name(&self) -> String {
        format!("search:{}", self.level)
    }

    fn choose(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, NoMove> {
        let mut moves = state.legal_moves();
        if moves.is_empty() {
            return Err(NoMove::GameOver);
        }
        self.adopt_rules(state);
        let mut searcher = Searcher::new(
            state,
            limits,
            self.params,
            &mut self.table,
            &mut self.heuristics,
            stop,
        );
        let root_moves = searcher.root_order(state.position(), &mut moves);
        let mut root: Vec<RootMove> = root_moves
            .into_iter()
            .map(|mv| {
                let bonus = if self.noise > 0 {
                    self.rng.random_range(0..=self.noise)
                } else {
                    0
                };
                RootMove { mv, bonus }
            })
            .collect();
        let max_depth = max_depth(limits);
        searcher.deepen(&mut root, max_depth, progress);
        Ok(searcher.best.unwrap_or(root[0].mv))
    }

    /// The first search searches every move, the next every move but the first line's, and
    /// so on, each with an equal share of the time in `limits` (the table carries over, so
    /// later searches start with what earlier ones learned).
    fn lines(
        &mut self,
        state: &GameState,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<SearchInfo> {
        let mut moves = state.legal_moves();
        let count = count.min(moves.len());
        if count == 0 {
            return Vec::new();
        }
        self.adopt_rules(state);
        let mut share = *limits;
        if let Some(time) = limits.time {
            share.time = Some(time / u32::try_from(count).unwrap_or(u32::MAX));
        }
        let mut lines: Vec<SearchInfo> = Vec::with_capacity(count);
        for _ in 0..count {
            let mut searcher = Searcher::new(
                state,
                &share,
                self.params,
                &mut self.table,
                &mut self.heuristics,
                stop,
            );
            let mut root: Vec<RootMove> = searcher
                .root_order(state.position(), &mut moves)
                .into_iter()
                .filter(|mv| lines.iter().all(|line| line.pv.first() != Some(mv)))
                .map(|mv| RootMove { mv, bonus: 0 })
                .collect();
            let mut last = None;
            searcher.deepen(&mut root, max_depth(&share), &mut |info| {
                last = Some(info.clone());
            });
            match last.filter(|info| !info.pv.is_empty()) {
                Some(info) => lines.push(info),
                None => break,
            }
        }
        // A later search, knowing more from the table, may score its line above an earlier
        // one (pruning makes the searches' scores inexact): the list is put in score order.
        lines.sort_by_key(|line| std::cmp::Reverse(line.score.value()));
        lines
    }
}

impl SearchAi {
    /// Whether every legal move of `state` other than `except` loses by force, as far as a
    /// search within `limits` proves it: `Some(true)` when each of them (and there is at least
    /// one) is shown to lose, `Some(false)` when one is not shown to lose by the deepest depth
    /// allowed, `None` when stopped or out of time or nodes before an answer. `except` is
    /// usually the best move, so this says whether it is the only move that does not lose.
    ///
    /// The other moves are searched by iterative deepening with a null window at the edge of
    /// the losses: one move that does not lose answers at once, so this costs little unless
    /// every other move does lose. Losses are proofs, so `Some(true)` is never a guess.
    pub fn every_other_move_loses(
        &mut self,
        state: &GameState,
        except: Move,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<bool> {
        let mut moves: Vec<Move> = state
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| mv != except)
            .collect();
        if moves.is_empty() {
            return Some(false);
        }
        self.adopt_rules(state);
        let mut searcher = Searcher::new(
            state,
            limits,
            self.params,
            &mut self.table,
            &mut self.heuristics,
            stop,
        );
        let mut root: Vec<RootMove> = searcher
            .root_order(state.position(), &mut moves)
            .into_iter()
            .map(|mv| RootMove { mv, bonus: 0 })
            .collect();
        // A score at or below `-WIN_BOUND` is a proven loss.
        let (alpha, beta) = (-WIN_BOUND, -WIN_BOUND + 1);
        for depth in 1..=max_depth(limits) {
            searcher.can_abort = depth > 1;
            #[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)]
            let best = searcher.search_root(&mut root, depth as i32, alpha, beta);
            if searcher.aborted {
                return None;
            }
            if best <= alpha {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// The deepest iteration allowed by `limits`.
fn max_depth(limits: &Limits) -> usize {
    limits
        .depth
        .map_or(MAX_PLY - 4, |d| (d as usize).clamp(1, MAX_PLY - 4))
}
