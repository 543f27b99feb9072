//! Where the timeouts of engine sessions read the time: the system's steady clock, or in
//! tests one that the test moves, so that a test decides when a deadline has passed and
//! asserts on what the code does then, never on how long the machine took.

use std::fmt;
use std::time::Instant;

/// A source of the time now, for deadlines: when an engine in another program must have
/// answered, when the OpenTafl session must play its move.
pub trait TimeSource: fmt::Debug + Send + Sync {
    /// The time now; never earlier than a time it gave before.
    fn now(&self) -> Instant;
}

/// The system's steady clock ([`Instant::now`]).
#[derive(Copy, Clone, Debug, Default)]
pub struct RealTime;

impl TimeSource for RealTime {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A time source for tests, which stands still until the test moves it.
#[cfg(test)]
pub(crate) mod manual {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    use super::TimeSource;

    /// Gives its start time plus what the test has advanced it by; or, once given readings
    /// to come, those first, in order (for code that reads the time several times in one
    /// call).
    #[derive(Debug)]
    pub(crate) struct ManualTime {
        start: Instant,
        state: Mutex<(Duration, Vec<Duration>)>,
    }

    impl ManualTime {
        /// A time source standing at its start.
        pub(crate) fn new() -> ManualTime {
            ManualTime {
                start: Instant::now(),
                state: Mutex::new((Duration::ZERO, Vec::new())),
            }
        }

        /// The time `offset` after the start.
        pub(crate) fn at(&self, offset: Duration) -> Instant {
            self.start + offset
        }

        /// Moves the time on by `by`.
        pub(crate) fn advance(&self, by: Duration) {
            self.state.lock().unwrap().0 += by;
        }

        /// The next readings, as offsets from the start, one a call to `now`; after the
        /// last, the time stands at it.
        pub(crate) fn readings(&self, offsets: &[Duration]) {
            let mut state = self.state.lock().unwrap();
            state.1 = offsets.iter().rev().copied().collect();
        }
    }

    impl TimeSource for ManualTime {
        fn now(&self) -> Instant {
            let mut state = self.state.lock().unwrap();
            if let Some(next) = state.1.pop() {
                state.0 = state.0.max(next);
            }
            self.start + state.0
        }
    }
}
