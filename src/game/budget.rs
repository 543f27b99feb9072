//! How long a side may think on one move, from its clock: one formula for every clock there
//! is (the terminal game's [`Clocks`](super::Clocks) and the clock OpenTafl sends an engine).
//!
//! On main time a move aims at a share of what is left, spread over the moves still to come
//! (fewer as pieces go), plus most of the increment, plus one overtime period while periods
//! remain; it may stretch to [`MoveBudget::STRETCH`] times that when its best move has not
//! settled (the AI's pacer decides). In an overtime period it may take the whole period: what
//! it leaves is lost. A margin is kept back from both for whatever lies between the search and
//! the clock.

use std::time::Duration;

/// The most moves main time is spread over, with the board full; fewer as pieces go.
const MOVES_TO_GO: u32 = 30;
/// The fewest moves main time is spread over, however few pieces are left.
const MOVES_TO_GO_LEAST: u32 = 10;
/// The part of the increment a move on main time adds to its target (the increment comes
/// after the move, so it is not spent before it is there: see [`move_budget`]).
const INCREMENT_SHARE: (u32, u32) = (4, 5);
/// The margin is at most this part of the time it is kept from (a short period keeps most of
/// itself).
const MARGIN_SHARE: u32 = 8;

/// One side's clock as a move begins: what [`move_budget`] needs of it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct ClockReading {
    /// Time left: of the main time, or in overtime of the current period.
    pub left: Duration,
    /// Whether the main time is used up and the side plays in an overtime period.
    pub overtime: bool,
    /// The length of one overtime period (zero without any).
    pub period: Duration,
    /// The overtime periods left: on main time, those still to come; in overtime, the current
    /// one included.
    pub periods: u32,
    /// Added to the main time after each move made in it (Fischer); zero without one.
    pub increment: Duration,
}

/// How long a side may think on one move.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct MoveBudget {
    /// Never passed.
    pub most: Duration,
    /// When the time not used now is kept for later moves (main time): the time to aim at,
    /// past which a search whose best move has settled plays. `None` in an overtime period,
    /// where time not used is lost: the search uses all of `most`.
    pub target: Option<Duration>,
}

impl MoveBudget {
    /// The shortest think: a budget is never below it (with less than this left, the flag
    /// falls whatever the move takes).
    pub const MINIMUM: Duration = Duration::from_millis(20);
    /// How much longer than its target a move on main time may take, for a best move that has
    /// not settled.
    pub const STRETCH: u32 = 3;
}

/// The budget of a move on `clock` with `pieces` on the board (the fewer, the nearer the end,
/// and the fewer moves main time must last), keeping back `margin` (at most an eighth) for
/// the time between the search and the clock: a protocol round trip, or a screen's loop.
///
/// - In an overtime period: `most` is the time left in it, less the margin; no target.
/// - On main time, its share is what is left over 30 moves with the board full, down to 10 as
///   pieces go (twice the pieces and four more). The target is the share, plus four fifths of
///   the increment, plus one period while periods remain (a move that runs out of main time
///   goes on in a period). `most` is [`MoveBudget::STRETCH`] times the target, but at most
///   the main time left and one period while periods remain, or else a third of the main time
///   left plus the increment and never more than half of it (nothing follows the main time;
///   the increment is added only after the move, so a move never counts on it). The target is
///   never above `most`.
///
/// Neither is ever below [`MoveBudget::MINIMUM`], nor, but for that floor, more than the time
/// actually left before the flag falls.
///
/// ```
/// use std::time::Duration;
/// use brandubh::game::{ClockReading, MoveBudget, move_budget};
///
/// let s = Duration::from_secs;
/// // Five minutes and 3 s a move, the board full: 10 s and 2.4 s of the increment.
/// let five_three = ClockReading {
///     left: s(300),
///     overtime: false,
///     period: Duration::ZERO,
///     periods: 0,
///     increment: s(3),
/// };
/// let budget = move_budget(five_three, 13, Duration::ZERO);
/// assert_eq!(budget.target, Some(Duration::from_millis(12_400)));
/// assert_eq!(budget.most, Duration::from_millis(37_200));
/// ```
pub fn move_budget(clock: ClockReading, pieces: u32, margin: Duration) -> MoveBudget {
    let usable = |time: Duration| {
        time.saturating_sub(margin.min(time / MARGIN_SHARE))
            .max(MoveBudget::MINIMUM)
    };
    let left = clock.left;
    if clock.overtime {
        return MoveBudget {
            most: usable(left),
            target: None,
        };
    }
    let moves_to_go = pieces
        .saturating_mul(2)
        .saturating_add(4)
        .clamp(MOVES_TO_GO_LEAST, MOVES_TO_GO);
    let share = left / moves_to_go;
    let (numerator, denominator) = INCREMENT_SHARE;
    let target = share.saturating_add(clock.increment.saturating_mul(numerator) / denominator);
    let (target, most) = if clock.periods > 0 && !clock.period.is_zero() {
        let target = target.saturating_add(clock.period);
        let most = target
            .saturating_mul(MoveBudget::STRETCH)
            .min(left.saturating_add(clock.period));
        (target, most)
    } else {
        let cap = (left / 3).saturating_add(clock.increment).min(left / 2);
        (target, target.saturating_mul(MoveBudget::STRETCH).min(cap))
    };
    MoveBudget {
        most: usable(most),
        target: Some(usable(target.min(most))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// Main time `left` ms with `increment` ms after each move, and `periods` to come of
    /// `period` ms.
    fn main_time(left: u64, increment: u64, periods: u32, period: u64) -> ClockReading {
        ClockReading {
            left: ms(left),
            overtime: false,
            period: ms(period),
            periods,
            increment: ms(increment),
        }
    }

    fn budget(most: u64, target: u64) -> MoveBudget {
        MoveBudget {
            most: ms(most),
            target: Some(ms(target)),
        }
    }

    #[test]
    fn main_time_alone_is_spread_over_the_moves_to_come() {
        // A minute over 30 moves with the board full: 2 s, and three times that at most.
        let minute = main_time(60_000, 0, 0, 0);
        assert_eq!(move_budget(minute, 13, ms(0)), budget(6_000, 2_000));
        // The margin: 50 ms off both.
        assert_eq!(move_budget(minute, 13, ms(50)), budget(5_950, 1_950));
        // Eight pieces: over 20 moves; three or fewer: over 10.
        assert_eq!(move_budget(minute, 8, ms(0)), budget(9_000, 3_000));
        assert_eq!(move_budget(minute, 3, ms(0)), budget(18_000, 6_000));
        assert_eq!(move_budget(minute, 0, ms(0)), budget(18_000, 6_000));
    }

    #[test]
    fn most_of_the_increment_is_added_but_never_spent_before_it_comes() {
        // 5m+3s: 10 s and 2.4 s, stretched to 37.2 s.
        let fischer = main_time(300_000, 3_000, 0, 0);
        assert_eq!(move_budget(fischer, 13, ms(50)), budget(37_150, 12_350));
        // Little main time and a large increment: no more than half the main time left.
        let short = main_time(2_000, 5_000, 0, 0);
        let b = move_budget(short, 13, ms(50));
        assert_eq!(b, budget(950, 950));
        // Without an increment, at most a third of the main time: 3 pieces, over 10 moves,
        // stretched to 0.3 of it.
        let sudden = main_time(9_000, 0, 0, 0);
        assert_eq!(move_budget(sudden, 3, ms(0)), budget(2_700, 900));
        // A small increment: a third and the increment.
        let small = main_time(3_000, 400, 0, 0);
        assert_eq!(move_budget(small, 2, ms(0)), budget(1_000 + 400, 300 + 320));
    }

    #[test]
    fn with_periods_to_come_a_move_may_run_into_the_first() {
        // 10m/3x30s with the board full: 20 s and 30 s, stretched to 150 s.
        let byo_yomi = main_time(600_000, 0, 3, 30_000);
        assert_eq!(move_budget(byo_yomi, 13, ms(0)), budget(150_000, 50_000));
        // Little main time left: the main time and one period at most.
        let ending = main_time(1_000, 0, 1, 5_000);
        assert_eq!(
            move_budget(ending, 13, ms(0)),
            MoveBudget {
                most: ms(6_000),
                target: Some(Duration::from_nanos(5_033_333_333)),
            }
        );
        // An increment as well, larger than what is left: the target is held to `most`.
        let both = main_time(1_000, 10_000, 2, 5_000);
        assert_eq!(move_budget(both, 13, ms(50)), budget(5_950, 5_950));
    }

    #[test]
    fn an_overtime_period_is_used_whole_less_the_margin() {
        let period = ClockReading {
            left: ms(30_000),
            overtime: true,
            period: ms(30_000),
            periods: 3,
            increment: ms(3_000),
        };
        let whole = MoveBudget {
            most: ms(29_950),
            target: None,
        };
        assert_eq!(move_budget(period, 13, ms(50)), whole);
        assert_eq!(move_budget(period, 2, ms(50)), whole, "whatever the pieces");
        // A short one keeps an eighth.
        let short = ClockReading {
            left: ms(200),
            ..period
        };
        assert_eq!(move_budget(short, 13, ms(50)).most, ms(175));
    }

    #[test]
    fn tiny_time_left_gives_the_shortest_think() {
        for reading in [
            main_time(100, 0, 0, 0),
            main_time(1, 0, 0, 0),
            main_time(0, 0, 0, 0),
            ClockReading {
                left: ms(10),
                overtime: true,
                period: ms(1_000),
                periods: 1,
                increment: Duration::ZERO,
            },
        ] {
            let b = move_budget(reading, 13, ms(50));
            assert_eq!(b.most, MoveBudget::MINIMUM, "{reading:?}");
            assert!(
                b.target.is_none_or(|t| t == MoveBudget::MINIMUM),
                "{reading:?}"
            );
        }
        // Above it, no budget passes the time left before the flag falls.
        for left in [30, 60, 100, 400, 1_000] {
            for reading in [
                main_time(left, 0, 0, 0),
                main_time(left, 10 * left, 0, 0),
                ClockReading {
                    overtime: true,
                    ..main_time(left, 10 * left, 1, left)
                },
            ] {
                let b = move_budget(reading, 13, ms(50));
                assert!(b.most < ms(left), "{reading:?}: {b:?}");
            }
            let b = move_budget(main_time(left, 10 * left, 1, 1_000), 13, ms(50));
            assert!(b.most < ms(left + 1_000), "{left}: {b:?}");
        }
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let huge = ClockReading {
            left: Duration::MAX,
            overtime: false,
            period: Duration::MAX,
            periods: u32::MAX,
            increment: Duration::MAX,
        };
        let b = move_budget(huge, u32::MAX, ms(50));
        assert!(b.target.is_some_and(|t| t <= b.most));
    }
}
