//! Time on the server: a game's timing as the protocol says it, run as a clock, and
//! durations as the protocol counts them.

use std::time::Duration;

use crate::game::TimeControl;
use crate::net::protocol::Timing;

/// The time control of a timing: a correspondence game's days per move are a clock of one
/// overtime period of that length, which each move fills again (and 1 ms of main time).
pub(crate) fn control(timing: Timing) -> Option<TimeControl> {
    match timing {
        Timing::Clock { control } => Some(control),
        Timing::Correspondence { days } => TimeControl::per_move(days),
        Timing::Untimed => None,
    }
}

/// Milliseconds, saturating.
pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correspondence_days_are_a_clock_refilled_by_each_move() {
        let control = control(Timing::Correspondence { days: 3 }).unwrap();
        assert_eq!(control.period(), Duration::from_secs(3 * 86_400));
        assert_eq!(control.periods(), 1);
        assert!(super::control(Timing::Correspondence { days: 0 }).is_none());
        assert!(super::control(Timing::Untimed).is_none());
    }
}
