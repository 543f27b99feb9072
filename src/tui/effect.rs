//! What the app asks of the world. [`App::update`](super::App::update) and the app's other
//! handlers change its state and return these, doing no I/O themselves; the
//! [`Runtime`](super::Runtime) carries them out, and what comes of them (a search's reports,
//! a save's outcome) comes back as events.

use crate::ai::Budget;
use crate::ai::{JobId, MoveLimits};
use crate::game::{EngineKind, Game, Level};
use crate::puzzle::Goal;
use crate::rules::{GameState, Move};
use crate::tui::net_request::NetRequest;
use crate::tui::storage_jobs::Job;

/// One thing for the runtime to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Search `state` for its side to move, as job `id`, stopping the job running.
    Search {
        /// The job's number, in its reports.
        id: JobId,
        /// The engine that searches.
        engine: EngineKind,
        /// Its level.
        level: Level,
        /// The game as it stands.
        state: Box<GameState>,
        /// How long it may search.
        limits: MoveLimits,
    },
    /// Analyze every move of `game` within `budget` per position, as job `id`, stopping the
    /// job running.
    Analyze {
        /// The job's number, in its reports.
        id: JobId,
        /// The game to analyze.
        game: Box<Game>,
        /// How long each position is searched.
        budget: Budget,
    },
    /// Stop job `id` if it still runs: a search then reports its best move so far, an analysis
    /// what it has.
    Stop(JobId),
    /// Judge `mv` in a puzzle on the engine's thread, by exact search (see
    /// [`judge`](crate::puzzle::judge)); the verdict comes back as an event with `id`.
    Judge {
        /// The check's number.
        id: u64,
        /// The position before the move.
        state: Box<GameState>,
        /// The move.
        mv: Move,
        /// The puzzle's goal.
        goal: Goal,
        /// The moves left, this one included.
        moves: u8,
    },
    /// Ring the terminal's bell once this frame is drawn.
    Bell,
    /// Hand `Job` to the storage thread (write, list or read files).
    Store(Job),
    /// Connect to a server, send to it, or remember it (online play).
    Net(NetRequest),
}
