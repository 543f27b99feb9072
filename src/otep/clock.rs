//! Time management from OpenTafl's `clock` command.

use std::time::Duration;

use crate::game::{ClockReading, MoveBudget, move_budget};
use crate::rules::Side;

/// One side's clock: time left and whether it is in overtime.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct SideReading {
    /// Milliseconds left (in the current overtime period when `overtime`); negative: untimed.
    left_ms: i64,
    overtime: bool,
    overtimes_left: u32,
}

/// The clocks as OpenTafl last reported them.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Clock {
    attackers: SideReading,
    defenders: SideReading,
    overtime_ms: u64,
}

/// Kept back from every budget for the protocol round trip (at most an eighth of it).
const SAFETY: Duration = Duration::from_millis(150);

impl Clock {
    /// Parses the arguments of `clock <att-ms>[*] <def-ms>[*] <overtime-s> <att-overtimes>
    /// <def-overtimes>`.
    pub fn parse(args: &[&str]) -> Option<Clock> {
        let [att, def, overtime, att_n, def_n] = args else {
            return None;
        };
        let side = |time: &str, n: &str| -> Option<SideReading> {
            let (digits, overtime) = match time.strip_suffix('*') {
                Some(d) => (d, true),
                None => (time, false),
            };
            Some(SideReading {
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

    /// How long `side` may think on this move, with `pieces` on the board (the fewer, the
    /// nearer the end, and the fewer moves main time must last), or `None` when its clock is
    /// not running: as [`move_budget`] has it for every clock, keeping back 150 ms (at most an
    /// eighth) for the protocol's round trip. OpenTafl's clock has no increment.
    ///
    /// In an overtime period the move may take the whole period (less the margin): what it
    /// leaves is lost. On main time it aims at its share of what is left plus, while overtime
    /// periods remain, one period (a move that runs out of main time goes on in a period), and
    /// may stretch to [`MoveBudget::STRETCH`] times that, within main time and one period.
    pub fn budget(&self, side: Side, pieces: u32) -> Option<MoveBudget> {
        let clock = match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let reading = ClockReading {
            left: Duration::from_millis(u64::try_from(clock.left_ms).ok()?),
            overtime: clock.overtime,
            period: Duration::from_millis(self.overtime_ms),
            periods: clock.overtimes_left,
            increment: Duration::ZERO,
        };
        Some(move_budget(reading, pieces, SAFETY))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn main_time_is_spread_with_a_period_on_top_while_periods_remain() {
        let clock = Clock::parse(&["300000", "60000*", "10", "3", "2"]).unwrap();
        // 300 s over 30 moves with the board full, plus the 10 s period; at most three times
        // that.
        assert_eq!(
            clock.budget(Side::Attackers, 13),
            Some(MoveBudget {
                most: ms(60_000 - 150),
                target: Some(ms(20_000 - 150)),
            })
        );
        // Three pieces left: over 10 moves.
        assert_eq!(
            clock.budget(Side::Attackers, 3).and_then(|b| b.target),
            Some(ms(40_000 - 150))
        );
        // Main time with no period: at most a third of what is left.
        let sudden = Clock::parse(&["90000", "-1", "0", "0", "0"]).unwrap();
        assert_eq!(
            sudden.budget(Side::Attackers, 13),
            Some(MoveBudget {
                most: ms(9000 - 150),
                target: Some(ms(3000 - 150)),
            })
        );
        assert_eq!(sudden.budget(Side::Defenders, 13), None);
        // Little main time but a period to come: the period is the move's time.
        let ending = Clock::parse(&["1000", "1000", "5", "1", "1"]).unwrap();
        assert_eq!(
            ending.budget(Side::Defenders, 13).and_then(|b| b.target),
            Some(Duration::from_nanos(5_033_333_333 - 150_000_000))
        );
    }

    #[test]
    fn an_overtime_period_is_used_whole_less_the_margin() {
        let clock = Clock::parse(&["300000", "60000*", "10", "3", "2"]).unwrap();
        assert_eq!(
            clock.budget(Side::Defenders, 13),
            Some(MoveBudget {
                most: ms(60_000 - 150),
                target: None,
            })
        );
        // A short period keeps back an eighth of it.
        let byo_yomi = Clock::parse(&["1000*", "700*", "1", "1", "1"]).unwrap();
        assert_eq!(
            byo_yomi.budget(Side::Attackers, 13).map(|b| b.most),
            Some(ms(875))
        );
        assert_eq!(
            byo_yomi.budget(Side::Defenders, 13).map(|b| b.most),
            Some(Duration::from_micros(612_500))
        );
        let scarce = Clock::parse(&["100", "10*", "0", "0", "0"]).unwrap();
        for side in [Side::Attackers, Side::Defenders] {
            assert_eq!(
                scarce.budget(side, 13).map(|b| b.most),
                Some(MoveBudget::MINIMUM)
            );
        }
    }

    #[test]
    fn malformed_clocks_are_refused() {
        assert_eq!(Clock::parse(&["1", "2", "3", "4"]), None);
        assert_eq!(Clock::parse(&["x", "2", "3", "4", "5"]), None);
        assert_eq!(Clock::parse(&["1", "2*", "-3", "4", "5"]), None);
    }
}
