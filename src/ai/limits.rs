//! Search budgets.

use std::time::Duration;

/// How long a search may run: any combination of a time, a depth and a node bound (the first
/// reached ends the search). With no bound at all it runs until stopped or the result is proven.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes visited.
    pub nodes: Option<u64>,
}

impl Limits {
    /// No bound: search until stopped.
    pub const INFINITE: Limits = Limits {
        time: None,
        depth: None,
        nodes: None,
    };

    /// Bounded by time only.
    pub const fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::INFINITE
        }
    }

    /// Bounded by depth only.
    pub const fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::INFINITE
        }
    }

    /// Bounded by nodes only.
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::INFINITE
        }
    }

    /// These limits with the time bound replaced by `time`.
    #[must_use]
    pub const fn with_time(self, time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..self
        }
    }
}
