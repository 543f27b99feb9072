//! Time management from OpenTafl's `clock` command.

use std::time::Duration;

use crate::rules::Side;

/// One side's clock: time left and whether it is in overtime.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct SideClock {
    /// Milliseconds left (in the current overtime period when `overtime`); negative: untimed.
    left_ms: i64,
    overtime: bool,
    overtimes_left: u32,
}

/// The clocks as OpenTafl last reported them.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Clock {
    attackers: SideClock,
    defenders: SideClock,
    overtime_ms: u64,
}

/// Kept back from every budget for the protocol round trip.
const SAFETY: Duration = Duration::from_millis(150);
/// The shortest think.
const MINIMUM: Duration = Duration::from_millis(20);
/// Moves the main time is spread over.
const MOVES_TO_GO: u32 = 30;

impl Clock {
    /// Parses the arguments of `clock <att-ms>[*] <def-ms>[*] <overtime-s> <att-overtimes>
    /// <def-overtimes>`.
    pub fn parse(args: &[&str]) -> Option<Clock> {
        let [att, def, overtime, att_n, def_n] = args else {
            return None;
        };
        let side = |time: &str, n: &str| -> Option<SideClock> {
            let (digits, overtime) = match time.strip_suffix('*') {
                Some(d) => (d, true),
                None => (time, false),
            };
            Some(SideClock {
                left_ms: digits.parse().ok()?,
                overtime,
                overtimes_left: n.parse().ok()?,
            })
        };
        let overtime_s: u64 = overtime.parse().ok()?;
        Some(Clock {
            attackers: side(att, att_n)?,
            defenders: side(def, def_n)?,
            overtime_ms: overtime_s.saturating_mul(1000),
        })
    }

    /// How long `side` may think on this move, or `None` when its clock is not running.
    pub fn budget(&self, side: Side) -> Option<Duration> {
        let clock = match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let left = Duration::from_millis(u64::try_from(clock.left_ms).ok()?);
        let overtime = Duration::from_millis(self.overtime_ms);
        let budget = if clock.overtime {
            left.mul_f64(0.6)
        } else {
            let spread = left / MOVES_TO_GO;
            let spare = if clock.overtimes_left > 0 {
                overtime.mul_f64(0.6)
            } else {
                Duration::ZERO
            };
            (spread + spare).min(left / 3)
        };
        Some(budget.saturating_sub(SAFETY).max(MINIMUM))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_spread_main_time_and_respect_overtime() {
        let clock = Clock::parse(&["300000", "60000*", "10", "3", "2"]).unwrap();
        assert_eq!(
            clock.budget(Side::Attackers),
            Some(Duration::from_millis(10_000 + 6000 - 150))
        );
        assert_eq!(
            clock.budget(Side::Defenders),
            Some(Duration::from_millis(36_000 - 150))
        );
        let short = Clock::parse(&["90000", "-1", "0", "0", "0"]).unwrap();
        assert_eq!(
            short.budget(Side::Attackers),
            Some(Duration::from_millis(2850))
        );
        assert_eq!(short.budget(Side::Defenders), None);
        let scarce = Clock::parse(&["100", "100", "0", "0", "0"]).unwrap();
        assert_eq!(scarce.budget(Side::Attackers), Some(MINIMUM));
    }

    #[test]
    fn malformed_clocks_are_refused() {
        assert_eq!(Clock::parse(&["1", "2", "3", "4"]), None);
        assert_eq!(Clock::parse(&["x", "2", "3", "4", "5"]), None);
        assert_eq!(Clock::parse(&["1", "2*", "-3", "4", "5"]), None);
    }
}
