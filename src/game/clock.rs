//! Time controls and the two sides' clocks: main time, an increment after each move (Fischer)
//! and overtime periods (byo-yomi, as OpenTafl's `time-control` has them). A clock that runs
//! out ends the game with the result reason `time`.

use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::budget::{ClockReading, MoveBudget, move_budget};
use crate::rules::Side;

/// How much time each side has: `main` at the start, `increment` added after each move made
/// in the main time, then `periods` overtime periods of `period` each (a move within a period
/// starts it again; a period used up is lost).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// The main time, in milliseconds.
    pub main_ms: u64,
    /// Added to the main time after each move made in it, in milliseconds.
    #[serde(default)]
    pub increment_ms: u64,
    /// The number of overtime periods.
    #[serde(default)]
    pub periods: u32,
    /// The length of each overtime period, in milliseconds.
    #[serde(default)]
    pub period_ms: u64,
}

impl TimeControl {
    /// Main time alone.
    pub fn main(main: Duration) -> TimeControl {
        TimeControl {
            main_ms: millis(main),
            increment_ms: 0,
            periods: 0,
            period_ms: 0,
        }
    }

    /// The same with `increment` added after each move.
    #[must_use]
    pub fn with_increment(self, increment: Duration) -> TimeControl {
        TimeControl {
            increment_ms: millis(increment),
            ..self
        }
    }

    /// The same with `periods` overtime periods of `period`.
    #[must_use]
    pub fn with_overtime(self, periods: u32, period: Duration) -> TimeControl {
        TimeControl {
            periods,
            period_ms: millis(period),
            ..self
        }
    }

    const fn overtime(self) -> bool {
        self.periods > 0 && self.period_ms > 0
    }
}

/// `d`'s milliseconds, saturating.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A time control could not be read.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct BadTimeControl(String);

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a time control: MAIN[+INCREMENT][/PERIODSxPERIOD], e.g. 5m, 5m+3s, \
             10m/3x30s",
            self.0
        )
    }
}

impl std::error::Error for BadTimeControl {}

/// A duration as `90s`, `5m`, `1h`, or a sum of them (`1m30s`).
fn parse_duration(text: &str) -> Option<Duration> {
    let mut total = Duration::ZERO;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let n: u64 = rest[..digits].parse().ok()?;
        let unit = rest[digits..].chars().next()?;
        let seconds = match unit {
            's' => n,
            'm' => n.checked_mul(60)?,
            'h' => n.checked_mul(3600)?,
            _ => return None,
        };
        total = total.checked_add(Duration::from_secs(seconds))?;
        rest = &rest[digits + 1..];
    }
    (!text.is_empty()).then_some(total)
}

/// `1h`, `5m`, `1m30s`, `45s`: as [`parse_duration`] reads them (whole seconds).
fn duration_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    let mut text = String::new();
    for (n, unit) in [(h, 'h'), (m, 'm'), (s, 's')] {
        if n > 0 {
            // Writing to a String cannot fail.
            let _ = write!(text, "{n}{unit}");
        }
    }
    if text.is_empty() {
        "0s".to_owned()
    } else {
        text
    }
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `5m` (main time), `5m+3s` (with an increment), `10m/3x30s` (with 3 overtime periods of
    /// 30 s), or both (`5m+2s/3x30s`). The main time must not be zero.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BadTimeControl(text.to_owned());
        let trimmed = text.trim();
        let (timed, overtime) = match trimmed.split_once('/') {
            Some((timed, overtime)) => (timed, Some(overtime)),
            None => (trimmed, None),
        };
        let (main, increment) = match timed.split_once('+') {
            Some((main, increment)) => (main, Some(increment)),
            None => (timed, None),
        };
        let main = parse_duration(main)
            .filter(|d| !d.is_zero())
            .ok_or_else(bad)?;
        let mut control = TimeControl::main(main);
        if let Some(increment) = increment {
            control = control.with_increment(parse_duration(increment).ok_or_else(bad)?);
        }
        if let Some(overtime) = overtime {
            let (n, period) = overtime.split_once('x').ok_or_else(bad)?;
            let n: u32 = n.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
            let period = parse_duration(period)
                .filter(|d| !d.is_zero())
                .ok_or_else(bad)?;
            control = control.with_overtime(n, period);
        }
        Ok(control)
    }
}

impl fmt::Display for TimeControl {
    /// As [`TimeControl::from_str`] reads it: `5m+3s`, `10m/3x30s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&duration_text(self.main_ms))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", duration_text(self.increment_ms))?;
        }
        if self.overtime() {
            write!(f, "/{}x{}", self.periods, duration_text(self.period_ms))?;
        }
        Ok(())
    }
}

/// One side's clock.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideClock {
    /// Time left: of the main time, or in overtime of the current period, in milliseconds.
    pub left_ms: u64,
    /// In overtime: the periods left, the current one included.
    pub periods: u32,
    /// Whether the main time is used up.
    pub overtime: bool,
}

/// Both sides' clocks under one time control.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// The attackers' clock.
    pub attackers: SideClock,
    /// The defenders' clock.
    pub defenders: SideClock,
}

impl Clocks {
    /// Kept back from every move's budget (at most an eighth of it) for what lies between the
    /// search and the clock in the terminal game: the screen's loop takes a finished search's
    /// move at its next turn, up to 30 ms later, then draws; the rest covers the threads
    /// handing over on a busy machine. No protocol round trip, so less than the 150 ms an
    /// engine under OpenTafl keeps.
    pub const MARGIN: Duration = Duration::from_millis(50);

    /// Both clocks full at the start of a game under `control`.
    pub const fn new(control: TimeControl) -> Clocks {
        let full = SideClock {
            left_ms: control.main_ms,
            periods: 0,
            overtime: false,
        };
        Clocks {
            control,
            attackers: full,
            defenders: full,
        }
    }

    /// `side`'s clock.
    pub const fn side(&self, side: Side) -> SideClock {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }

    const fn side_mut(&mut self, side: Side) -> &mut SideClock {
        match side {
            Side::Attackers => &mut self.attackers,
            Side::Defenders => &mut self.defenders,
        }
    }

    /// Whether `side` has run out of time.
    pub const fn flag_fell(&self, side: Side) -> bool {
        let clock = self.side(side);
        clock.left_ms == 0 && (!clock.overtime || clock.periods == 0)
    }

    /// Runs `side`'s clock for `elapsed`: the main time, then each overtime period in turn.
    /// Returns whether its flag fell.
    pub fn spend(&mut self, side: Side, elapsed: Duration) -> bool {
        let control = self.control;
        let clock = self.side_mut(side);
        let mut elapsed = millis(elapsed);
        while elapsed > 0 && !(clock.left_ms == 0 && (!clock.overtime || clock.periods == 0)) {
            if elapsed < clock.left_ms {
                clock.left_ms -= elapsed;
                break;
            }
            elapsed -= clock.left_ms;
            clock.left_ms = 0;
            match (clock.overtime, control.overtime()) {
                // The main time is up: overtime begins.
                (false, true) => {
                    clock.overtime = true;
                    clock.periods = control.periods;
                    clock.left_ms = control.period_ms;
                }
                // A period is used up: the next one begins, if there is one.
                (true, _) => {
                    clock.periods -= 1;
                    if clock.periods > 0 {
                        clock.left_ms = control.period_ms;
                    }
                }
                (false, false) => {}
            }
        }
        self.flag_fell(side)
    }

    /// `side` has moved: its increment in the main time, or its period full again.
    pub fn moved(&mut self, side: Side) {
        let control = self.control;
        let clock = self.side_mut(side);
        if clock.overtime {
            clock.left_ms = control.period_ms;
        } else {
            clock.left_ms = clock.left_ms.saturating_add(control.increment_ms);
        }
    }

    /// How long `side` may think about one move with `pieces` on the board: as
    /// [`move_budget`] has it for every clock, keeping back [`Clocks::MARGIN`] for the
    /// screen's loop.
    pub fn move_budget(&self, side: Side, pieces: u32) -> MoveBudget {
        let clock = self.side(side);
        let control = self.control;
        let reading = ClockReading {
            left: Duration::from_millis(clock.left_ms),
            overtime: clock.overtime,
            period: Duration::from_millis(control.period_ms),
            periods: match (clock.overtime, control.overtime()) {
                (true, _) => clock.periods,
                (false, true) => control.periods,
                (false, false) => 0,
            },
            increment: Duration::from_millis(control.increment_ms),
        };
        move_budget(reading, pieces, Clocks::MARGIN)
    }

    /// Whether the saved clocks can be those of this control: no more periods than it has,
    /// and overtime only if it has some.
    pub fn is_consistent(&self) -> bool {
        let ok = |clock: SideClock| {
            if clock.overtime {
                self.control.overtime()
                    && clock.periods <= self.control.periods
                    && clock.left_ms <= self.control.period_ms
            } else {
                clock.periods == 0
            }
        };
        ok(self.attackers) && ok(self.defenders)
    }

    /// `side`'s clock as shown: `4:59`, `0:09.5` under ten seconds, `1:02:03` from an hour, and
    /// in overtime the periods left first (`3×0:28`).
    pub fn text(&self, side: Side) -> String {
        let clock = self.side(side);
        let time = time_text(clock.left_ms);
        if clock.overtime && clock.periods > 0 {
            format!("{}×{time}", clock.periods)
        } else {
            time
        }
    }
}

/// `4:59`, `0:09.5`, `1:02:03`.
fn time_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else if s >= 10 {
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("0:{s:02}.{}", ms % 1000 / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn control(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn time_controls_are_read_and_written_alike() {
        assert_eq!(control("5m"), TimeControl::main(SECOND * 300));
        assert_eq!(
            control("5m+3s"),
            TimeControl::main(SECOND * 300).with_increment(SECOND * 3)
        );
        assert_eq!(
            control("10m/3x30s"),
            TimeControl::main(SECOND * 600).with_overtime(3, SECOND * 30)
        );
        for text in ["5m", "5m+3s", "10m/3x30s", "1m30s+1s/2x10s", "1h", "45s"] {
            assert_eq!(control(text).to_string(), text);
        }
        for bad in [
            "", "5", "0s", "5x", "5m+", "5m/3", "5m/0x30s", "5m/3x0s", "m5", "-5m",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.to_string().contains("5m+3s"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_flag_falls_when_the_main_time_is_used_up() {
        let mut clocks = Clocks::new(control("10s"));
        assert!(!clocks.spend(Side::Attackers, SECOND * 9));
        assert_eq!(clocks.text(Side::Attackers), "0:01.0");
        assert!(!clocks.flag_fell(Side::Defenders));
        assert!(clocks.spend(Side::Attackers, SECOND));
        assert!(clocks.flag_fell(Side::Attackers));
        assert_eq!(
            clocks.side(Side::Defenders).left_ms,
            10_000,
            "the other clock stood"
        );
    }

    #[test]
    fn the_increment_comes_after_each_move() {
        let mut clocks = Clocks::new(control("1m+5s"));
        clocks.spend(Side::Defenders, SECOND * 2);
        clocks.moved(Side::Defenders);
        assert_eq!(clocks.side(Side::Defenders).left_ms, 63_000);
        assert_eq!(clocks.text(Side::Defenders), "1:03");
    }

    #[test]
    fn overtime_periods_start_again_after_a_move_and_are_lost_when_used_up() {
        let mut clocks = Clocks::new(control("10s/2x5s"));
        assert!(
            !clocks.spend(Side::Attackers, SECOND * 12),
            "into the first period"
        );
        let clock = clocks.side(Side::Attackers);
        assert!(clock.overtime);
        assert_eq!((clock.periods, clock.left_ms), (2, 3_000));
        assert_eq!(clocks.text(Side::Attackers), "2×0:03.0");
        clocks.moved(Side::Attackers);
        assert_eq!(
            clocks.side(Side::Attackers).left_ms,
            5_000,
            "the period is full again"
        );
        assert!(
            !clocks.spend(Side::Attackers, SECOND * 6),
            "one period lost"
        );
        assert_eq!(clocks.side(Side::Attackers).periods, 1);
        assert!(clocks.spend(Side::Attackers, SECOND * 4), "the last one");
        assert_eq!(
            clocks.text(Side::Attackers),
            "0:00.0",
            "no periods left to show"
        );
        assert!(clocks.is_consistent());
    }

    #[test]
    fn the_move_budget_reads_the_side_clock_and_the_control() {
        let ms = Duration::from_millis;
        let budget = |most, target| MoveBudget {
            most: ms(most),
            target: Some(ms(target)),
        };
        // 5m+3s, the board full: 10 s and 2.4 s of the increment, less the margin; three
        // times that at most.
        let clocks = Clocks::new(control("5m+3s"));
        assert_eq!(
            clocks.move_budget(Side::Attackers, 13),
            budget(37_200 - 50, 12_400 - 50)
        );
        // The defenders' 4 s of a minute, three pieces left: over ten moves.
        let mut minute = Clocks::new(control("1m"));
        minute.spend(Side::Defenders, SECOND * 56);
        assert_eq!(
            minute.move_budget(Side::Defenders, 3),
            budget(1_200 - 50, 400 - 50)
        );
        // Periods to come: the first is added to the target.
        let mut byo_yomi = Clocks::new(control("12s/2x5s"));
        assert_eq!(
            byo_yomi.move_budget(Side::Attackers, 13),
            budget(16_200 - 50, 5_400 - 50)
        );
        // In a period: the whole period less the margin, no target.
        byo_yomi.spend(Side::Attackers, SECOND * 12);
        assert_eq!(
            byo_yomi.move_budget(Side::Attackers, 13),
            MoveBudget {
                most: ms(5_000 - 50),
                target: None,
            }
        );
        let mut short = Clocks::new(control("1s"));
        short.spend(Side::Attackers, ms(990));
        assert_eq!(
            short.move_budget(Side::Attackers, 13).most,
            MoveBudget::MINIMUM
        );
    }

    #[test]
    fn clocks_that_cannot_be_the_controls_are_inconsistent() {
        let mut clocks = Clocks::new(control("5m"));
        clocks.attackers.overtime = true;
        assert!(!clocks.is_consistent());
        let mut clocks = Clocks::new(control("5m/2x10s"));
        clocks.defenders = SideClock {
            left_ms: 5_000,
            periods: 3,
            overtime: true,
        };
        assert!(!clocks.is_consistent());
    }
}
