//! Whole-game analysis: every position of a game searched once, each move judged by the
//! searches of the position before it and the position after it, for the command line and the
//! terminal game alike.
//!
//! Positions are searched from the last to the first, with one engine whose transposition
//! table carries over: what the search learned about later positions then helps with earlier
//! ones (the order engines' analysis servers use). A position the game ended on the board is
//! scored from its outcome, not searched; a game that ended by resignation or agreement is
//! judged as its board stands. Each search sees the game's history before its position, so
//! repetitions count as in the game.
//!
//! Only moves: when the move played is the engine's best and neither the position before it
//! nor the one after it is lost by force ([`may_be_only_move`]), a second search
//! asks whether every other move loses by force ([`SearchAi::every_other_move_loses`]). It
//! searches with a null window at the edge of the losses, so one move that does not lose ends
//! it quickly; it is bounded by the depth the first search reached and by a tenth of the
//! position's time, which is kept back from the first search so that a position never takes
//! more than its budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::engine::{Ai, SearchInfo};
use super::limits::Limits;
use super::search::{DEFAULT_TT_MB, SearchAi};
use crate::game::{Game, Level, PlyAnalysis, Score, classify, may_be_only_move};
use crate::rules::{AnnotatedMove, GameState, Move, Outcome};

/// How long to search each position.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Budget {
    /// 0.1 s a position.
    Quick,
    /// 0.5 s a position.
    Normal,
    /// 2 s a position.
    Deep,
    /// These limits for each position.
    Limits(Limits),
}

impl Budget {
    /// The three budgets a player picks from, quickest first.
    pub const PRESETS: [Budget; 3] = [Budget::Quick, Budget::Normal, Budget::Deep];

    /// The limits of one position's searches, all together.
    pub const fn limits(self) -> Limits {
        match self {
            Budget::Quick => Limits::time(Duration::from_millis(100)),
            Budget::Normal => Limits::time(Duration::from_millis(500)),
            Budget::Deep => Limits::time(Duration::from_secs(2)),
            Budget::Limits(limits) => limits,
        }
    }

    /// `quick`, `normal`, `deep`, or `custom`.
    pub const fn name(self) -> &'static str {
        match self {
            Budget::Quick => "quick",
            Budget::Normal => "normal",
            Budget::Deep => "deep",
            Budget::Limits(_) => "custom",
        }
    }

    /// The longest that searching `positions` positions at this budget takes (a position
    /// proven early takes less), or `None` for a budget without a time bound.
    ///
    /// ```
    /// use std::time::Duration;
    /// use brandubh::ai::{Budget, Limits};
    ///
    /// assert_eq!(Budget::Quick.time_for(25), Some(Duration::from_millis(2500)));
    /// assert_eq!(Budget::Limits(Limits::depth(4)).time_for(25), None);
    /// ```
    pub fn time_for(self, positions: usize) -> Option<Duration> {
        let each = self.limits().time?;
        Some(each.saturating_mul(u32::try_from(positions).unwrap_or(u32::MAX)))
    }
}

/// The share of a position's time kept back for the only-move search: one part in this many.
const ONLY_MOVE_TIME_SHARE: u32 = 10;

/// Positions searched so far out of all the analysis will search.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Progress {
    /// Positions searched.
    pub done: usize,
    /// Positions to search in all (a position the game ended on is not searched).
    pub total: usize,
}

/// What an analysis reports while it runs.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum AnalysisEvent {
    /// A position has been searched.
    Progress(Progress),
    /// A move's analysis is complete. Moves complete from the last to the first.
    Ply {
        /// The move's index in the game, from 0.
        ply: usize,
        /// Its analysis.
        analysis: PlyAnalysis,
    },
}

/// The analysis was stopped by its stop flag before it ended; the moves completed by then
/// were reported.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the analysis was stopped")
    }
}

impl std::error::Error for Stopped {}

/// Analyses whole games with one search engine (strongest level, no randomness). A fresh
/// analyzer with a depth or node budget gives the same results every time.
pub struct Analyzer {
    engine: SearchAi,
}

impl Default for Analyzer {
    fn default() -> Analyzer {
        Analyzer::new(DEFAULT_TT_MB)
    }
}

/// A position's search: the engine's best move and its last report.
struct Searched {
    best: AnnotatedMove,
    info: SearchInfo,
}

impl Analyzer {
    /// An analyzer whose engine has a transposition table of `tt_megabytes` MB.
    pub fn new(tt_megabytes: usize) -> Analyzer {
        Analyzer {
            engine: SearchAi::new(Level::Max, 0, tt_megabytes),
        }
    }

    /// Analyses every move of `game` within `budget` per position, reporting progress and each
    /// move's analysis to `on_event` as they come, and returns the analyses in the game's
    /// order. Made for a worker thread: `stop` ends it within moments, with [`Stopped`].
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use brandubh::ai::{Analyzer, Budget, Limits};
    /// use brandubh::game::{Game, MoveClass, Player};
    /// use brandubh::rules::{Position, Preset};
    ///
    /// let mut game = Game::new(Preset::Standard.rules(), Position::start(), Player::Human, Player::Human);
    /// game.play_text("d2-c2").unwrap();
    /// game.play_text("c4-c3").unwrap();
    /// let stop = AtomicBool::new(false);
    /// let plies = Analyzer::default()
    ///     .analyze(&game, Budget::Limits(Limits::depth(3)), &stop, &mut |_| {})
    ///     .unwrap();
    /// assert_eq!(plies.len(), 2);
    /// assert!(MoveClass::ALL.contains(&plies[0].class));
    /// ```
    pub fn analyze(
        &mut self,
        game: &Game,
        budget: Budget,
        stop: &AtomicBool,
        on_event: &mut dyn FnMut(AnalysisEvent),
    ) -> Result<Vec<PlyAnalysis>, Stopped> {
        let (mut state, moves) = replayed(game);
        if moves.is_empty() {
            return Ok(Vec::new());
        }
        let limits = budget.limits();
        let ended = state.outcome();
        let mut progress = Progress {
            done: 0,
            total: searched_positions(&state, moves.len()),
        };
        // The score of the position after the move being judged, for its side to move.
        let mut next = if let Some(outcome) = ended {
            outcome_score(outcome, &state)
        } else {
            let searched = self.search(&state, &limits, stop)?;
            progress.done += 1;
            on_event(AnalysisEvent::Progress(progress));
            searched.info.score
        };
        let mut plies = Vec::with_capacity(moves.len());
        for (ply, &played) in moves.iter().enumerate().rev() {
            state.undo();
            let searched = self.search(&state, &limits, stop)?;
            let before = searched.info.score;
            let after = next.negated();
            let engine_choice = played == searched.best.mv;
            let only_move = may_be_only_move(before, after, engine_choice)
                && self.is_only_move(&state, played, &limits, searched.info.depth, stop)?;
            let analysis = PlyAnalysis {
                score_before: before,
                score_after: after,
                best: searched.best,
                pv: state.annotate(&searched.info.pv),
                class: classify(before, after, engine_choice),
                only_move,
                depth: searched.info.depth,
            };
            progress.done += 1;
            on_event(AnalysisEvent::Progress(progress));
            on_event(AnalysisEvent::Ply {
                ply,
                analysis: analysis.clone(),
            });
            plies.push(analysis);
            next = before;
        }
        plies.reverse();
        Ok(plies)
    }

    /// How many positions an analysis of `game` searches ([`Progress::total`]): the one before
    /// each move, and the last one unless the game ended there on the board.
    ///
    /// ```
    /// use brandubh::ai::Analyzer;
    /// use brandubh::game::{Game, Player};
    /// use brandubh::rules::{Position, Preset};
    ///
    /// let mut game = Game::new(Preset::Standard.rules(), Position::start(), Player::Human, Player::Human);
    /// assert_eq!(Analyzer::positions(&game), 0);
    /// game.play_text("d2-c2").unwrap();
    /// assert_eq!(Analyzer::positions(&game), 2);
    /// ```
    pub fn positions(game: &Game) -> usize {
        let (state, moves) = replayed(game);
        searched_positions(&state, moves.len())
    }

    /// Searches the current position of `state` (not over) within `limits`, less the time
    /// kept for the only-move search.
    fn search(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<Searched, Stopped> {
        let limits = Limits {
            time: limits
                .time
                .map(|t| t.saturating_sub(t / ONLY_MOVE_TIME_SHARE)),
            ..*limits
        };
        let mut last = None;
        let best = self.engine.choose(state, &limits, stop, &mut |info| {
            last = Some(info.clone());
        });
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        // A position that is not over has a move, and the first depth always completes.
        let best = best
            .ok()
            .and_then(|mv| state.annotate(&[mv]).first().copied());
        match (best, last) {
            (Some(best), Some(info)) => Ok(Searched { best, info }),
            _ => Err(Stopped),
        }
    }

    /// Whether `played`, the engine's best move in `state`, is the only one that does not
    /// lose by force, as far as a search to `depth` within the time kept back shows.
    fn is_only_move(
        &mut self,
        state: &GameState,
        played: Move,
        limits: &Limits,
        depth: u32,
        stop: &AtomicBool,
    ) -> Result<bool, Stopped> {
        let limits = Limits {
            time: limits.time.map(|t| t / ONLY_MOVE_TIME_SHARE),
            depth: Some(depth),
            nodes: limits.nodes,
        };
        let answer = self
            .engine
            .every_other_move_loses(state, played, &limits, stop);
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        Ok(answer == Some(true))
    }
}

/// The game's moves, and its state after them as the board alone decides it. Replayed rather
/// than cloned: an ending by resignation or agreement is not part of the board, and positions
/// before the last must be playable.
fn replayed(game: &Game) -> (GameState, Vec<Move>) {
    let moves: Vec<Move> = game.moves().iter().map(|done| done.mv).collect();
    let mut state = GameState::new(*game.rules(), *game.state().start_position());
    for &mv in &moves {
        state.play_unchecked(mv);
    }
    (state, moves)
}

/// The positions an analysis searches in a game of `moves` moves that ended in `state`.
fn searched_positions(state: &GameState, moves: usize) -> usize {
    if moves == 0 {
        0
    } else {
        moves + usize::from(state.outcome().is_none())
    }
}

/// The score of a game that is over, for the side to move in `state`.
fn outcome_score(outcome: Outcome, state: &GameState) -> Score {
    match outcome.winner {
        Some(winner) if winner == state.position().side_to_move() => Score::Win(0),
        Some(_) => Score::Loss(0),
        None => Score::Eval(0),
    }
}
