//! The seam every AI stands behind, [`Ai`]: what an engine reports while it thinks
//! ([`SearchInfo`]) and why it may give no move ([`NoMove`], [`Failure`]).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::limits::Limits;
use crate::game::{Score, format_duration};
use crate::rules::{GameState, Move, Outcome};

/// An engine may take this many times its budget before it loses on time.
pub const SLOWNESS_ALLOWED: u32 = 3;

/// A progress report: the result of one completed search depth.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct SearchInfo {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes visited so far in this search.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Whether this report comes from an iteration cut off by the limits or the stop flag
    /// after it found a new best move: `depth` is then the last depth completed, and the best
    /// move and score are from the unfinished iteration one deeper.
    pub partial: bool,
}

/// An engine that picks moves.
pub trait Ai: Send {
    /// A short name such as `search:hard` or `random`.
    fn name(&self) -> String;

    /// Chooses a move for the side to move in `state`, within `limits`, returning early once
    /// `stop` is set. `progress` is called with a report after each completed search depth.
    /// Without a move, says why: the game is over, the engine was stopped before it had one,
    /// or it failed (an engine in another program that crashed, ran over its time or played
    /// an illegal move; it fails again at every later move).
    fn choose(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, NoMove>;

    /// The `count` best lines of `state` (fewer if it has fewer legal moves), best score first,
    /// within `limits` in all; those found before `stop` is set are kept, and there are none
    /// without legal moves. An engine that only knows one line (the default) gives the last
    /// report of its search for a move, if it made one.
    fn lines(
        &mut self,
        state: &GameState,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Vec<SearchInfo> {
        let mut last = None;
        if count == 0
            || self
                .choose(state, limits, stop, &mut |info| last = Some(info.clone()))
                .is_err()
        {
            return Vec::new();
        }
        last.into_iter().collect()
    }

    /// The game the engine played is over, with `outcome`.
    fn game_over(&mut self, _outcome: &Outcome) {}
}

/// Why an engine gave no move.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum NoMove {
    /// The game is over: there is no legal move.
    GameOver,
    /// The engine was stopped before it had a move.
    Stopped,
    /// The engine failed, in an unfinished game: it loses the game.
    Failed(Failure),
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::GameOver => f.write_str("the game is over"),
            NoMove::Stopped => f.write_str("the engine was stopped"),
            NoMove::Failed(failure) => failure.fmt(f),
        }
    }
}

/// Why an engine failed to give a move in an unfinished game: it loses the game.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Failure {
    /// Its program could not start, or stopped answering.
    Crashed(String),
    /// It thought longer than [`SLOWNESS_ALLOWED`] times its budget.
    Time {
        /// The time it was given for the move.
        budget: Duration,
        /// The time it had taken when it was given up.
        taken: Duration,
    },
    /// It answered with an illegal move.
    IllegalMove(String),
    /// It broke the protocol or gave up.
    Protocol(String),
}

impl Failure {
    /// Whether the failure is a loss on time (the others are losses by resignation).
    pub const fn is_time(&self) -> bool {
        matches!(self, Failure::Time { .. })
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Crashed(why) => write!(f, "the engine crashed: {why}"),
            Failure::Time { budget, taken } => write!(
                f,
                "the engine took over {} for a move, {SLOWNESS_ALLOWED} times its {}",
                format_duration(*taken),
                format_duration(*budget)
            ),
            Failure::IllegalMove(why) => write!(f, "the engine played an illegal move {why}"),
            Failure::Protocol(why) => write!(f, "the engine broke the protocol: {why}"),
        }
    }
}
