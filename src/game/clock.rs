//! Time controls and the two sides' clocks: main time, an increment after each move (Fischer)
//! and overtime periods (byo-yomi, as OpenTafl's `time-control` has them). A clock that runs
//! out ends the game with the result reason `time`.
//!
//! Neither a time control nor the clocks can hold numbers play cannot lead to: a
//! [`TimeControl`] is made only by [`TimeControl::new`] (the command line, the save format and
//! the settings file all go through it), and [`Clocks`] only full by [`Clocks::new`] or
//! checked by [`Clocks::restore`] (a saved game's clocks go through it), and then change only
//! by running and moving.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::budget::{ClockReading, MoveBudget, move_budget};
use super::duration::{MAX_DURATION, ParseDurationError, format_duration, parse_duration};
use crate::quote::excerpt;
use crate::rules::Side;

/// How much time each side has: `main` at the start, `increment` added after each move made
/// in the main time, then `periods` overtime periods of `period` each (a move within a period
/// starts it again; a period used up is lost).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "TimeControlFields")]
pub struct TimeControl {
    main_ms: u64,
    increment_ms: u64,
    periods: u32,
    period_ms: u64,
}

/// A time control as written in a file, checked by [`TimeControl::new`] before use.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TimeControl")]
struct TimeControlFields {
    /// The main time, in milliseconds (more than zero, at most 1000 hours).
    #[schemars(range(min = 1, max = 3_600_000_000_u64))]
    main_ms: u64,
    /// Added to the main time after each move made in it, in milliseconds (at most 1000
    /// hours).
    #[serde(default)]
    #[schemars(range(max = 3_600_000_000_u64))]
    increment_ms: u64,
    /// The number of overtime periods (zero without overtime, at most 100).
    #[serde(default)]
    #[schemars(range(max = 100))]
    periods: u32,
    /// The length of each overtime period, in milliseconds (zero without overtime, at most
    /// 1000 hours).
    #[serde(default)]
    #[schemars(range(max = 3_600_000_000_u64))]
    period_ms: u64,
}

impl TryFrom<TimeControlFields> for TimeControl {
    type Error = ClockError;

    fn try_from(fields: TimeControlFields) -> Result<Self, Self::Error> {
        TimeControl::from_millis(
            fields.main_ms,
            fields.increment_ms,
            fields.periods,
            fields.period_ms,
        )
    }
}

/// The most days per move of a correspondence time control.
pub const MAX_DAYS_PER_MOVE: u32 = 30;

/// The most overtime periods of a time control.
pub const MAX_PERIODS: u32 = 100;

/// A day in milliseconds.
const DAY_MS: u64 = 24 * 3600 * 1000;

impl TimeControl {
    /// Correspondence, `days` for each move (1 to [`MAX_DAYS_PER_MOVE`]): one overtime
    /// period of that length, which each move fills again, after 1 ms of main time. Written
    /// `3d/move`.
    pub fn per_move(days: u32) -> Option<TimeControl> {
        (1..=MAX_DAYS_PER_MOVE)
            .contains(&days)
            .then(|| TimeControl {
                main_ms: 1,
                increment_ms: 0,
                periods: 1,
                period_ms: u64::from(days) * DAY_MS,
            })
    }

    /// The days per move of a correspondence time control ([`TimeControl::per_move`]).
    pub fn days_per_move(self) -> Option<u32> {
        let days = u32::try_from(self.period_ms / DAY_MS).ok()?;
        (TimeControl::per_move(days) == Some(self)).then_some(days)
    }

    /// A time control of `main` time, `increment` after each move, and `periods` overtime
    /// periods of `period` each (`0` and zero for none), to the millisecond. The main time
    /// must not be zero, and there are periods exactly when they have a length.
    pub fn new(
        main: Duration,
        increment: Duration,
        periods: u32,
        period: Duration,
    ) -> Result<TimeControl, ClockError> {
        TimeControl::from_millis(millis(main), millis(increment), periods, millis(period))
    }

    /// The one check of every time control, read or made (the command line, a save, the
    /// settings, the network): each duration at most [`MAX_DURATION`], at most
    /// [`MAX_PERIODS`] periods, so that no sum of a clock's times can overflow.
    fn from_millis(
        main_ms: u64,
        increment_ms: u64,
        periods: u32,
        period_ms: u64,
    ) -> Result<TimeControl, ClockError> {
        let longest = millis(MAX_DURATION);
        match (main_ms, periods, period_ms) {
            (0, _, _) => Err(ClockError::NoMainTime),
            (_, 1.., 0) => Err(ClockError::EmptyPeriods),
            (_, 0, 1..) => Err(ClockError::NoPeriods),
            _ if main_ms.max(increment_ms).max(period_ms) > longest => Err(ClockError::TooLong),
            _ if periods > MAX_PERIODS => Err(ClockError::TooManyPeriods),
            _ => Ok(TimeControl {
                main_ms,
                increment_ms,
                periods,
                period_ms,
            }),
        }
    }

    /// The main time.
    pub const fn main(self) -> Duration {
        Duration::from_millis(self.main_ms)
    }

    /// Added to the main time after each move made in it.
    pub const fn increment(self) -> Duration {
        Duration::from_millis(self.increment_ms)
    }

    /// The number of overtime periods, `0` without overtime.
    pub const fn periods(self) -> u32 {
        self.periods
    }

    /// The length of each overtime period, zero without overtime.
    pub const fn period(self) -> Duration {
        Duration::from_millis(self.period_ms)
    }

    /// Whether there are overtime periods (they then have a length: [`TimeControl::new`]).
    const fn overtime(self) -> bool {
        self.periods > 0
    }
}

/// `d`'s milliseconds, saturating.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Why a time control or a pair of clocks cannot be: the one check of
/// [`TimeControl::new`] and [`Clocks::restore`], for the command line, the settings file and
/// saved games alike.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
#[non_exhaustive]
pub enum ClockError {
    /// The main time is zero: every game would be lost on time at once.
    NoMainTime,
    /// Overtime periods of no length.
    EmptyPeriods,
    /// A length of overtime periods, but no periods.
    NoPeriods,
    /// A duration (main time, increment or period) longer than [`MAX_DURATION`].
    TooLong,
    /// More than [`MAX_PERIODS`] overtime periods.
    TooManyPeriods,
    /// A side's clock cannot be one of its time control.
    Side(Side, SideClockError),
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoMainTime => f.write_str("the main time must be more than zero"),
            Self::EmptyPeriods => f.write_str("overtime periods must be longer than zero"),
            Self::NoPeriods => {
                f.write_str("a length of overtime periods needs at least one period")
            }
            Self::TooLong => write!(
                f,
                "the main time, the increment and the periods are at most {}",
                format_duration(MAX_DURATION)
            ),
            Self::TooManyPeriods => write!(f, "at most {MAX_PERIODS} overtime periods"),
            Self::Side(side, e) => write!(f, "the {side}' clock {e}"),
        }
    }
}

impl std::error::Error for ClockError {}

/// Why one side's clock cannot be one of its time control (times in milliseconds).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
#[non_exhaustive]
pub enum SideClockError {
    /// Overtime periods counted while on main time.
    PeriodsOnMainTime(u32),
    /// No main time left and not in overtime, though the time control has some.
    OvertimeNotBegun,
    /// In overtime, but the time control has none.
    NoOvertime,
    /// More periods left than the time control has.
    TooManyPeriods {
        /// Periods left.
        left: u32,
        /// Periods of the time control.
        control: u32,
    },
    /// More time left in a period than a period holds.
    LongerThanAPeriod {
        /// Time left.
        left: u64,
        /// The length of a period.
        period: u64,
    },
    /// No period left, but time left in one.
    TimeWithoutPeriod(u64),
    /// A period left with no time in it.
    EmptyPeriod,
}

impl fmt::Display for SideClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PeriodsOnMainTime(n) => {
                write!(f, "counts {n} overtime periods left while on main time")
            }
            Self::OvertimeNotBegun => {
                f.write_str("has no main time left but has not begun its overtime")
            }
            Self::NoOvertime => f.write_str("is in overtime, but the time control has none"),
            Self::TooManyPeriods { left, control } => write!(
                f,
                "has {left} overtime periods left, but the time control has {control}"
            ),
            Self::LongerThanAPeriod { left, period } => {
                write!(f, "has {left} ms left in an overtime period of {period} ms")
            }
            Self::TimeWithoutPeriod(left) => {
                write!(f, "has no overtime period left but {left} ms in it")
            }
            Self::EmptyPeriod => f.write_str("has an overtime period left but no time in it"),
        }
    }
}

impl std::error::Error for SideClockError {}

/// A time control could not be read: the text, and what is wrong in it.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct BadTimeControl {
    text: String,
    fault: ControlFault,
}

/// What is wrong in a text that is not a time control.
#[derive(Clone, Eq, PartialEq, Debug)]
enum ControlFault {
    /// Not of the form `MAIN[+INCREMENT][/PERIODSxPERIOD]`.
    Shape,
    /// One of its durations is not one.
    Duration(ParseDurationError),
    /// Of the right form, but not a time control play can have.
    Invalid(ClockError),
    /// Days per move not within 1 to [`MAX_DAYS_PER_MOVE`].
    Days,
}

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not a time control: ", excerpt(&self.text))?;
        match &self.fault {
            ControlFault::Shape => {}
            ControlFault::Duration(e) => write!(f, "{}; ", e.short())?,
            ControlFault::Invalid(e) => write!(f, "{e}; ")?,
            ControlFault::Days => write!(f, "1 to {MAX_DAYS_PER_MOVE} days per move; ")?,
        }
        f.write_str(
            "MAIN[+INCREMENT][/PERIODSxPERIOD] or DAYSd/move, e.g. 5m, 5m+3s, 10m/3x30s, 3d/move",
        )
    }
}

impl std::error::Error for BadTimeControl {}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    /// `5m` (main time), `5m+3s` (with an increment), `10m/3x30s` (with 3 overtime periods of
    /// 30 s), or both (`5m+2s/3x30s`), each duration as [`parse_duration`] reads it (`1m30s`,
    /// `2.5s`, `500ms`). The main time must not be zero. Or correspondence: `3d/move`
    /// ([`TimeControl::per_move`]).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |fault| BadTimeControl {
            text: text.to_owned(),
            fault,
        };
        let trimmed = text.trim();
        if let Some(days) = trimmed.to_ascii_lowercase().strip_suffix("d/move") {
            let days = days.parse().map_err(|_| bad(ControlFault::Shape))?;
            return TimeControl::per_move(days).ok_or_else(|| bad(ControlFault::Days));
        }
        let (timed, overtime) = match trimmed.split_once('/') {
            Some((timed, overtime)) => (timed, Some(overtime)),
            None => (trimmed, None),
        };
        let (main, increment) = match timed.split_once('+') {
            Some((main, increment)) => (main, Some(increment)),
            None => (timed, None),
        };
        let duration =
            |text: &str| parse_duration(text).map_err(|e| bad(ControlFault::Duration(e)));
        let main = duration(main)?;
        let increment = increment.map_or(Ok(Duration::ZERO), duration)?;
        let (periods, period) = match overtime {
            Some(overtime) => {
                let (n, period) = overtime
                    .split_once('x')
                    .ok_or_else(|| bad(ControlFault::Shape))?;
                let n = n.parse().map_err(|_| bad(ControlFault::Shape))?;
                (n, duration(period)?)
            }
            None => (0, Duration::ZERO),
        };
        // A written overtime part has periods: `/0x0s` is not "no overtime".
        if overtime.is_some() && periods == 0 {
            return Err(bad(ControlFault::Invalid(ClockError::NoPeriods)));
        }
        TimeControl::new(main, increment, periods, period)
            .map_err(|e| bad(ControlFault::Invalid(e)))
    }
}

impl fmt::Display for TimeControl {
    /// As [`TimeControl::from_str`] reads it: `5m+3s`, `10m/3x30s`, `3d/move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(days) = self.days_per_move() {
            return write!(f, "{days}d/move");
        }
        f.write_str(&format_duration(self.main()))?;
        if self.increment_ms > 0 {
            write!(f, "+{}", format_duration(self.increment()))?;
        }
        if self.overtime() {
            write!(f, "/{}x{}", self.periods, format_duration(self.period()))?;
        }
        Ok(())
    }
}

/// One side's clock.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideClock {
    /// Time left: of the main time, or in overtime of the current period, in milliseconds.
    left_ms: u64,
    /// In overtime: the periods left, the current one included.
    periods: u32,
    /// Whether the main time is used up.
    overtime: bool,
}

impl SideClock {
    /// A full clock at the start of a game under `control`.
    const fn full(control: TimeControl) -> SideClock {
        SideClock {
            left_ms: control.main_ms,
            periods: 0,
            overtime: false,
        }
    }

    /// Time left: of the main time, or in overtime of the current period.
    pub const fn left(self) -> Duration {
        Duration::from_millis(self.left_ms)
    }

    /// In overtime, the periods left, the current one included; `0` on main time.
    pub const fn periods(self) -> u32 {
        self.periods
    }

    /// Whether the main time is used up.
    pub const fn in_overtime(self) -> bool {
        self.overtime
    }

    /// Whether the flag has fallen: no time left, and no overtime period to go on in.
    const fn flag_fell(self) -> bool {
        self.left_ms == 0 && (!self.overtime || self.periods == 0)
    }

    /// Why this cannot be a clock under `control`, if it cannot: what [`SideClock::spent`]
    /// and [`SideClock::moved`] keep true.
    fn check(self, control: TimeControl) -> Result<(), SideClockError> {
        if !self.overtime {
            return if self.periods > 0 {
                Err(SideClockError::PeriodsOnMainTime(self.periods))
            } else if self.left_ms == 0 && control.overtime() {
                Err(SideClockError::OvertimeNotBegun)
            } else {
                Ok(())
            };
        }
        if !control.overtime() {
            Err(SideClockError::NoOvertime)
        } else if self.periods > control.periods {
            Err(SideClockError::TooManyPeriods {
                left: self.periods,
                control: control.periods,
            })
        } else if self.left_ms > control.period_ms {
            Err(SideClockError::LongerThanAPeriod {
                left: self.left_ms,
                period: control.period_ms,
            })
        } else if self.periods == 0 && self.left_ms > 0 {
            Err(SideClockError::TimeWithoutPeriod(self.left_ms))
        } else if self.periods > 0 && self.left_ms == 0 {
            Err(SideClockError::EmptyPeriod)
        } else {
            Ok(())
        }
    }

    /// This clock after running `elapsed` ms under `control`: the main time, then each
    /// overtime period in turn (a period used up is lost; the next starts full), computed
    /// at once however many periods go.
    fn spent(self, control: TimeControl, elapsed: u64) -> SideClock {
        let mut clock = self;
        let mut elapsed = elapsed;
        if !clock.overtime {
            if elapsed < clock.left_ms || !control.overtime() {
                clock.left_ms = clock.left_ms.saturating_sub(elapsed);
                return clock;
            }
            // The main time is up: overtime begins, every period to come.
            elapsed -= clock.left_ms;
            clock = SideClock {
                left_ms: control.period_ms,
                periods: control.periods,
                overtime: true,
            };
        }
        if clock.periods == 0 || elapsed < clock.left_ms {
            clock.left_ms = clock.left_ms.saturating_sub(elapsed);
            return clock;
        }
        // The current period is used up, and as many whole ones after it as `elapsed` holds.
        let fallen = SideClock {
            left_ms: 0,
            periods: 0,
            overtime: true,
        };
        let beyond = elapsed - clock.left_ms;
        let period = control.period_ms;
        let (Some(whole), Some(into)) = (beyond.checked_div(period), beyond.checked_rem(period))
        else {
            return fallen;
        };
        let left = u64::from(clock.periods).saturating_sub(whole.saturating_add(1));
        match u32::try_from(left) {
            Ok(periods @ 1..) => SideClock {
                left_ms: period - into,
                periods,
                overtime: true,
            },
            _ => fallen,
        }
    }

    /// This clock after a move under `control`: the increment on main time, or the period
    /// full again in overtime. A fallen flag stays fallen.
    fn moved(self, control: TimeControl) -> SideClock {
        if self.flag_fell() {
            self
        } else if self.overtime {
            SideClock {
                left_ms: control.period_ms,
                ..self
            }
        } else {
            SideClock {
                left_ms: self.left_ms.saturating_add(control.increment_ms),
                ..self
            }
        }
    }
}

/// Both sides' clocks under one time control.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "ClocksFields")]
pub struct Clocks {
    control: TimeControl,
    attackers: SideClock,
    defenders: SideClock,
}

/// Clocks as written in a file, checked by [`Clocks::restore`] before use.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Clocks")]
struct ClocksFields {
    /// The time control.
    control: TimeControl,
    /// The attackers' clock.
    attackers: SideClock,
    /// The defenders' clock.
    defenders: SideClock,
}

impl TryFrom<ClocksFields> for Clocks {
    type Error = ClockError;

    fn try_from(fields: ClocksFields) -> Result<Self, Self::Error> {
        Clocks::restore(fields.control, fields.attackers, fields.defenders)
    }
}

impl Clocks {
    /// Kept back from every move's budget (at most an eighth of it) for what lies between the
    /// search and the clock in the terminal game: the finished search's move goes to the
    /// screen's loop as an event, which plays it and draws; the rest covers the threads
    /// handing over on a busy machine. No protocol round trip, so less than the 150 ms an
    /// engine under OpenTafl keeps.
    pub const MARGIN: Duration = Duration::from_millis(50);

    /// Both clocks full at the start of a game under `control`.
    pub const fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            attackers: SideClock::full(control),
            defenders: SideClock::full(control),
        }
    }

    /// Saved clocks, if they can be those of `control`: the times [`Clocks::spend`] and a
    /// move can lead to, no more.
    pub fn restore(
        control: TimeControl,
        attackers: SideClock,
        defenders: SideClock,
    ) -> Result<Clocks, ClockError> {
        for (side, clock) in [(Side::Attackers, attackers), (Side::Defenders, defenders)] {
            clock
                .check(control)
                .map_err(|e| ClockError::Side(side, e))?;
        }
        Ok(Clocks {
            control,
            attackers,
            defenders,
        })
    }

    /// The time control.
    pub const fn control(&self) -> TimeControl {
        self.control
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
        self.side(side).flag_fell()
    }

    /// Runs `side`'s clock for `elapsed`: the main time, then each overtime period in turn.
    /// Returns whether its flag fell.
    pub fn spend(&mut self, side: Side, elapsed: Duration) -> bool {
        let control = self.control;
        let clock = self.side_mut(side);
        *clock = clock.spent(control, millis(elapsed));
        clock.flag_fell()
    }

    /// Gives `side` `more` time on its main time; returns whether it could (not in
    /// overtime, whose periods are fixed).
    pub fn give(&mut self, side: Side, more: Duration) -> bool {
        let clock = self.side_mut(side);
        if clock.overtime || clock.left_ms == 0 {
            return false;
        }
        clock.left_ms = clock.left_ms.saturating_add(millis(more));
        true
    }

    /// `side` has moved: its increment in the main time, or its period full again.
    pub fn moved(&mut self, side: Side) {
        let control = self.control;
        let clock = self.side_mut(side);
        *clock = clock.moved(control);
    }

    /// How long `side` may think about one move with `pieces` on the board: as
    /// [`move_budget`] has it for every clock, keeping back [`Clocks::MARGIN`] for the
    /// screen's loop.
    pub fn move_budget(&self, side: Side, pieces: u32) -> MoveBudget {
        let clock = self.side(side);
        let control = self.control;
        let reading = ClockReading {
            left: clock.left(),
            overtime: clock.overtime,
            period: control.period(),
            periods: if clock.overtime {
                clock.periods
            } else {
                control.periods
            },
            increment: control.increment(),
        };
        move_budget(reading, pieces, Clocks::MARGIN)
    }

    /// All the time `side` has left: its main time and the overtime periods after it (in a
    /// correspondence game, a side yet to move has its whole period).
    pub fn left_to_move(&self, side: Side) -> Duration {
        let clock = self.side(side);
        let control = self.control;
        let periods = if clock.overtime {
            clock.periods.saturating_sub(1)
        } else {
            control.periods
        };
        let ms = clock
            .left_ms
            .saturating_add(u64::from(periods).saturating_mul(control.period_ms));
        Duration::from_millis(ms)
    }

    /// How long `side`'s clock can run before what [`Clocks::text`] shows of it changes, or
    /// its time runs out: what a display waits for before it shows the clock again.
    pub fn until_text_changes(&self, side: Side) -> Duration {
        let left = self.side(side).left_ms;
        // The text drops the part below its last digit: whole seconds from ten seconds up,
        // tenths below.
        let unit = if left >= 10_000 { 1000 } else { 100 };
        Duration::from_millis((left % unit + 1).min(left))
    }

    /// `side`'s clock as shown: `4:59`, `0:09.5` under ten seconds, `1:02:03` from an hour, and
    /// in overtime the periods left first (`3×0:28`).
    pub fn text(&self, side: Side) -> String {
        let clock = self.side(side);
        if self.control.days_per_move().is_some() {
            return correspondence_text(millis(self.left_to_move(side)));
        }
        let time = time_text(clock.left_ms);
        if clock.overtime && clock.periods > 0 {
            format!("{}×{time}", clock.periods)
        } else {
            time
        }
    }
}

/// A correspondence clock: `2d 23h` from a day, `5h 07m` from an hour, then as
/// [`time_text`].
fn correspondence_text(ms: u64) -> String {
    const HOUR: u64 = 3_600_000;
    let hours = ms / HOUR;
    if hours >= 24 {
        format!("{}d {}h", hours / 24, hours % 24)
    } else if hours >= 1 {
        format!("{hours}h {:02}m", ms % HOUR / 60_000)
    } else {
        time_text(ms)
    }
}

/// `4:59`, `0:09.5`, `1:02:03`: whole seconds from ten seconds up, tenths below.
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
    use proptest::prelude::*;

    #[test]
    fn a_correspondence_clock_reads_in_days_and_hours_and_the_side_yet_to_move_is_full() {
        let mut clocks = Clocks::new(TimeControl::per_move(3).unwrap());
        assert_eq!(clocks.text(Side::Defenders), "3d 0h");
        clocks.spend(Side::Attackers, Duration::from_secs(3600 + 2));
        assert_eq!(clocks.text(Side::Attackers), "2d 22h");
        clocks.spend(Side::Attackers, Duration::from_secs(70 * 3600));
        assert_eq!(clocks.text(Side::Attackers), "59:58");
        clocks.moved(Side::Attackers);
        assert_eq!(clocks.text(Side::Attackers), "3d 0h");
        let mut day = Clocks::new(TimeControl::per_move(1).unwrap());
        day.spend(Side::Attackers, Duration::from_secs(60));
        assert_eq!(day.text(Side::Attackers), "23h 59m");
        assert_eq!(day.text(Side::Defenders), "1d 0h");
    }

    const SECOND: Duration = Duration::from_secs(1);

    fn control(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    /// `main` s, `increment` s, `periods` of `period` s.
    fn seconds(main: u64, increment: u64, periods: u32, period: u64) -> TimeControl {
        TimeControl::new(
            SECOND * u32::try_from(main).unwrap(),
            SECOND * u32::try_from(increment).unwrap(),
            periods,
            SECOND * u32::try_from(period).unwrap(),
        )
        .unwrap()
    }

    const fn side_clock(left_ms: u64, periods: u32, overtime: bool) -> SideClock {
        SideClock {
            left_ms,
            periods,
            overtime,
        }
    }

    #[test]
    fn time_controls_are_read_and_written_alike() {
        assert_eq!(control("5m"), seconds(300, 0, 0, 0));
        assert_eq!(control("5m+3s"), seconds(300, 3, 0, 0));
        assert_eq!(control("10m/3x30s"), seconds(600, 0, 3, 30));
        for text in ["5m", "5m+3s", "10m/3x30s", "1m30s+1s/2x10s", "1h", "45s"] {
            assert_eq!(control(text).to_string(), text);
        }
        // Durations as everywhere else (issue 18): fractions and milliseconds too.
        for text in ["1m30.5s+500ms", "2.5s/2x1.5s", "1h30m+250ms"] {
            assert_eq!(control(text).to_string(), text);
        }
        assert_eq!(control("1.5m+3000ms").to_string(), "1m30s+3s");
        for bad in [
            "", "5", "0s", "5x", "5m+", "5m/3", "5m/0x30s", "5m/3x0s", "5m/0x0s", "m5", "-5m",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.to_string().contains("5m+3s"), "{bad}: {e}");
        }
    }

    #[test]
    fn days_per_move_are_a_correspondence_time_control() {
        let three = control("3d/move");
        assert_eq!(three.days_per_move(), Some(3));
        assert_eq!(three.period(), Duration::from_secs(3 * 86_400));
        assert_eq!(three.periods(), 1);
        assert_eq!(three.to_string(), "3d/move");
        assert_eq!(control(" 1D/move ").days_per_move(), Some(1));
        assert_eq!(control("5m").days_per_move(), None);
        for bad in ["0d/move", "31d/move", "xd/move", "-3d/move", "3d/moves"] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("3d/move") && !e.contains('\n'), "{bad}: {e}");
        }
        let e = "31d/move".parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.contains("1 to 30 days per move"), "{e}");
    }

    #[test]
    fn a_bad_time_control_says_why_with_its_text_escaped() {
        let why = |text: &str| text.parse::<TimeControl>().unwrap_err().to_string();
        assert!(
            why("0s").starts_with("\"0s\" is not a time control: the main time must be more"),
            "{}",
            why("0s")
        );
        assert!(why("5m/3x0s").contains("overtime periods must be longer than zero"));
        assert!(why("5m/0x0s").contains("needs at least one period"));
        assert_eq!(
            why("5m+3q"),
            "\"5m+3q\" is not a time control: \"3q\" is not a duration; \
             MAIN[+INCREMENT][/PERIODSxPERIOD] or DAYSd/move, e.g. 5m, 5m+3s, 10m/3x30s, 3d/move"
        );
        assert!(why("2000h").contains("\"2000h\" is longer than 1000h; MAIN"));
        let raw = why("\u{1b}[2J5m");
        assert!(raw.starts_with("\"\\u{1b}[2J5m\""), "{raw}");
    }

    #[test]
    fn the_one_check_refuses_what_the_command_line_refuses() {
        let new = |main: u64, periods, period: u64| {
            TimeControl::new(
                Duration::from_millis(main),
                Duration::ZERO,
                periods,
                Duration::from_millis(period),
            )
        };
        // The bounds the save format's schema states (`TimeControlFields`).
        assert_eq!((millis(MAX_DURATION), MAX_PERIODS), (3_600_000_000, 100));
        assert_eq!(new(0, 0, 0), Err(ClockError::NoMainTime));
        assert_eq!(new(1, 3, 0), Err(ClockError::EmptyPeriods));
        assert_eq!(new(1, 0, 30), Err(ClockError::NoPeriods));
        assert!(new(1, 3, 30).is_ok());
        // Less than a millisecond is nothing.
        assert_eq!(
            TimeControl::new(
                Duration::from_micros(900),
                Duration::ZERO,
                0,
                Duration::ZERO
            ),
            Err(ClockError::NoMainTime)
        );
        // And files go through it.
        let read =
            |json: &str| serde_json::from_str::<TimeControl>(json).map_err(|e| e.to_string());
        assert_eq!(read(r#"{"main_ms": 60000}"#), Ok(seconds(60, 0, 0, 0)));
        for (json, why) in [
            (r#"{"main_ms": 0}"#, "the main time must be more than zero"),
            (r#"{"main_ms": 1, "periods": 3}"#, "longer than zero"),
            (r#"{"main_ms": 1, "period_ms": 5}"#, "at least one period"),
            (
                r#"{"main_ms": 60000, "periods": 4294967295, "period_ms": 18446744073709551615}"#,
                "at most 1000h",
            ),
            (r#"{"main_ms": 3600000001}"#, "at most 1000h"),
            (
                r#"{"main_ms": 1, "increment_ms": 3600000001}"#,
                "at most 1000h",
            ),
            (
                r#"{"main_ms": 1, "periods": 101, "period_ms": 1000}"#,
                "at most 100 overtime periods",
            ),
        ] {
            let e = read(json).unwrap_err();
            assert!(e.contains(why), "{json}: {e}");
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
            clocks.side(Side::Defenders).left(),
            SECOND * 10,
            "the other clock stood"
        );
        clocks.moved(Side::Attackers);
        assert!(clocks.flag_fell(Side::Attackers), "a fallen flag stays");
    }

    #[test]
    fn the_increment_comes_after_each_move() {
        let mut clocks = Clocks::new(control("1m+5s"));
        clocks.spend(Side::Defenders, SECOND * 2);
        clocks.moved(Side::Defenders);
        assert_eq!(clocks.side(Side::Defenders).left(), SECOND * 63);
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
        assert!(clock.in_overtime());
        assert_eq!((clock.periods(), clock.left()), (2, SECOND * 3));
        assert_eq!(clocks.text(Side::Attackers), "2×0:03.0");
        clocks.moved(Side::Attackers);
        assert_eq!(
            clocks.side(Side::Attackers).left(),
            SECOND * 5,
            "the period is full again"
        );
        assert!(
            !clocks.spend(Side::Attackers, SECOND * 6),
            "one period lost"
        );
        assert_eq!(clocks.side(Side::Attackers).periods(), 1);
        assert!(clocks.spend(Side::Attackers, SECOND * 4), "the last one");
        assert_eq!(
            clocks.text(Side::Attackers),
            "0:00.0",
            "no periods left to show"
        );
        let fallen = clocks.side(Side::Attackers);
        assert!(Clocks::restore(clocks.control(), fallen, fallen).is_ok());
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
    fn clocks_that_cannot_be_the_controls_are_refused() {
        let full = |control| SideClock::full(control);
        let refused = |control: TimeControl, clock: SideClock| {
            Clocks::restore(control, full(control), clock)
                .map(drop)
                .map_err(|e| match e {
                    ClockError::Side(Side::Defenders, e) => e,
                    other => panic!("{other:?}"),
                })
                .unwrap_err()
        };
        let plain = control("5m");
        let byo_yomi = control("10m/3x30s");
        assert_eq!(
            refused(plain, side_clock(5_000, 0, true)),
            SideClockError::NoOvertime
        );
        assert_eq!(
            refused(plain, side_clock(5_000, 2, false)),
            SideClockError::PeriodsOnMainTime(2)
        );
        assert_eq!(
            refused(byo_yomi, side_clock(0, 0, false)),
            SideClockError::OvertimeNotBegun
        );
        assert_eq!(
            refused(byo_yomi, side_clock(5_000, 4, true)),
            SideClockError::TooManyPeriods {
                left: 4,
                control: 3
            }
        );
        assert_eq!(
            refused(byo_yomi, side_clock(30_001, 1, true)),
            SideClockError::LongerThanAPeriod {
                left: 30_001,
                period: 30_000
            }
        );
        // The issue's crafted clock: in overtime, no period left, yet time on it. Spending
        // it took a period from none and wrapped to 4294967295.
        assert_eq!(
            refused(byo_yomi, side_clock(20_000, 0, true)),
            SideClockError::TimeWithoutPeriod(20_000)
        );
        assert_eq!(
            refused(byo_yomi, side_clock(0, 2, true)),
            SideClockError::EmptyPeriod
        );
        let e = Clocks::restore(byo_yomi, side_clock(20_000, 0, true), full(byo_yomi)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the attackers' clock has no overtime period left but 20000 ms in it"
        );
        // What play leads to is accepted: a flag fallen on main time or in overtime.
        for (control, clock) in [
            (plain, side_clock(0, 0, false)),
            (plain, side_clock(900_000, 0, false)),
            (byo_yomi, side_clock(0, 0, true)),
            (byo_yomi, side_clock(1, 1, true)),
            (byo_yomi, side_clock(30_000, 3, true)),
        ] {
            assert!(Clocks::restore(control, clock, clock).is_ok(), "{clock:?}");
        }
    }

    #[test]
    fn many_periods_go_at_once() {
        let many = TimeControl::new(
            SECOND,
            Duration::ZERO,
            MAX_PERIODS,
            Duration::from_millis(1),
        )
        .unwrap();
        let mut clocks = Clocks::new(many);
        assert!(!clocks.spend(Side::Attackers, Duration::from_millis(1_060)));
        let clock = clocks.side(Side::Attackers);
        assert_eq!(clock.periods(), MAX_PERIODS - 60);
        assert!(clocks.spend(Side::Attackers, Duration::MAX));
    }

    /// The clock after `elapsed` ms, a millisecond at a time: the meaning of
    /// [`SideClock::spent`].
    fn step_by_step(mut clock: SideClock, control: TimeControl, elapsed: u64) -> SideClock {
        for _ in 0..elapsed {
            if clock.flag_fell() {
                break;
            }
            clock.left_ms -= 1;
            if clock.left_ms == 0 && control.overtime() {
                if clock.overtime {
                    clock.periods -= 1;
                } else {
                    clock.overtime = true;
                    clock.periods = control.periods;
                }
                if clock.periods > 0 {
                    clock.left_ms = control.period_ms;
                }
            }
        }
        clock
    }

    #[test]
    fn under_a_tenth_left_the_text_waits_for_the_flag() {
        let control = TimeControl::from_millis(368_849, 0, 0, 0).unwrap();
        let mut clocks = Clocks::new(control);
        clocks.spend(Side::Attackers, Duration::from_millis(368_750));
        assert_eq!(clocks.text(Side::Attackers), "0:00.0");
        let wait = clocks.until_text_changes(Side::Attackers);
        assert_eq!(wait, Duration::from_millis(99));
        clocks.spend(Side::Attackers, wait);
        assert!(clocks.flag_fell(Side::Attackers));
        assert_eq!(clocks.text(Side::Attackers), "0:00.0");
    }

    proptest! {
        #[test]
        fn running_and_moving_keep_the_clocks_valid_and_exact(
            main in 1..200_u64,
            increment in 0..50_u64,
            periods in 0..4_u32,
            period in 1..60_u64,
            turns in proptest::collection::vec((0..300_u64, any::<bool>()), 1..12),
        ) {
            let control = TimeControl::from_millis(
                main, increment, periods, if periods == 0 { 0 } else { period },
            ).unwrap();
            let mut clocks = Clocks::new(control);
            for (elapsed, moves) in turns {
                let before = clocks.side(Side::Attackers);
                let fell = clocks.spend(Side::Attackers, Duration::from_millis(elapsed));
                let after = clocks.side(Side::Attackers);
                prop_assert_eq!(after, step_by_step(before, control, elapsed));
                prop_assert_eq!(fell, after.flag_fell());
                if moves {
                    clocks.moved(Side::Attackers);
                }
                // Whatever play leads to is read back.
                let json = serde_json::to_string(&clocks).unwrap();
                prop_assert_eq!(serde_json::from_str::<Clocks>(&json).ok(), Some(clocks));
            }
        }

        #[test]
        fn the_text_stays_until_it_is_said_to_change(
            main in 1..4_000_000_u64,
            periods in 0..3_u32,
            spent in 0..4_000_000_u64,
        ) {
            let period = if periods == 0 { 0 } else { 30_000 };
            let control = TimeControl::from_millis(main, 0, periods, period).unwrap();
            let mut clocks = Clocks::new(control);
            clocks.spend(Side::Attackers, Duration::from_millis(spent));
            prop_assume!(!clocks.flag_fell(Side::Attackers));
            let text = clocks.text(Side::Attackers);
            let wait = clocks.until_text_changes(Side::Attackers);
            prop_assert!(wait > Duration::ZERO);
            let mut later = clocks;
            later.spend(Side::Attackers, wait.saturating_sub(Duration::from_millis(1)));
            prop_assert_eq!(later.text(Side::Attackers), text.clone(), "not yet");
            later.spend(Side::Attackers, Duration::from_millis(1));
            // Under a tenth of a second left the text is `0:00.0` until the flag falls, and
            // stays so: then the change is the flag's.
            let fell = later.flag_fell(Side::Attackers);
            prop_assert!(fell || later.text(Side::Attackers) != text, "then at once");
        }
    }
}
