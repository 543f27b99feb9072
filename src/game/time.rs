//! Timestamps as RFC 3339 UTC strings (`2026-11-29T14:13:39Z`), without a date crate.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment to the second, from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
///
/// Written as RFC 3339 in UTC (`2026-11-29T14:13:39Z`); read from any RFC 3339 date-time
/// (fractions of a second are dropped, offsets are converted to UTC).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Timestamp(u64);

const SECONDS_PER_DAY: u64 = 86_400;
/// Days from 0000-03-01 (the start of the proleptic Gregorian era used below) to 1970-01-01.
const EPOCH_DAYS: i64 = 719_468;
const DAYS_PER_ERA: i64 = 146_097;

impl Timestamp {
    /// 1970-01-01T00:00:00Z.
    pub const EPOCH: Timestamp = Timestamp(0);
    /// 9999-12-31T23:59:59Z, the last moment with a four-digit year.
    pub const MAX: Timestamp = Timestamp(253_402_300_799);

    /// The moment `seconds` after 1970-01-01T00:00:00Z, if it is not after [`Timestamp::MAX`].
    pub const fn from_unix_seconds(seconds: u64) -> Option<Timestamp> {
        if seconds <= Timestamp::MAX.0 {
            Some(Timestamp(seconds))
        } else {
            None
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub const fn unix_seconds(self) -> u64 {
        self.0
    }

    /// A system time, truncated to the second and clamped to the range of timestamps.
    pub fn from_system_time(time: SystemTime) -> Timestamp {
        let seconds = time
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
            .min(Timestamp::MAX.0);
        Timestamp(seconds)
    }

    /// The current time.
    pub fn now() -> Timestamp {
        Timestamp::from_system_time(SystemTime::now())
    }

    /// The same moment as a system time.
    pub fn system_time(self) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(self.0)
    }
}

/// The (year, month, day) of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + EPOCH_DAYS;
    let era = z.div_euclid(DAYS_PER_ERA);
    let doe = z.rem_euclid(DAYS_PER_ERA);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The day counted from 1970-01-01 of a valid date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * DAYS_PER_ERA + doe - EPOCH_DAYS
}

const fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Timestamp {
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // At most MAX / 86400 < 2^32 days: the conversion cannot fail.
        let days = i64::try_from(self.0 / SECONDS_PER_DAY).unwrap_or(i64::MAX);
        let (year, month, day) = civil_from_days(days);
        let second = self.0 % SECONDS_PER_DAY;
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
            second / 3600,
            second / 60 % 60,
            second % 60
        )
    }
}

/// Why a text is not a timestamp.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParseTimestampError(String);

impl fmt::Display for ParseTimestampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not an RFC 3339 time between 1970 and 9999 like 2026-11-29T14:13:39Z",
            crate::quote::excerpt(&self.0)
        )
    }
}

impl std::error::Error for ParseTimestampError {}

/// Reads a run of exactly `N` ASCII digits from the front of `text`.
fn digits<const N: usize>(text: &mut &[u8]) -> Option<i64> {
    let (head, rest) = text.split_at_checked(N)?;
    let mut value = 0;
    for &b in head {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(b - b'0');
    }
    *text = rest;
    Some(value)
}

/// Takes `byte` (either case for letters) from the front of `text`.
fn expect(text: &mut &[u8], byte: u8) -> Option<()> {
    let (&first, rest) = text.split_first()?;
    first.eq_ignore_ascii_case(&byte).then(|| *text = rest)
}

/// Seconds since the epoch of an RFC 3339 date-time, or `None`.
fn parse_rfc3339(text: &str) -> Option<u64> {
    let mut s = text.as_bytes();
    let year = digits::<4>(&mut s)?;
    expect(&mut s, b'-')?;
    let month = digits::<2>(&mut s)?;
    expect(&mut s, b'-')?;
    let day = digits::<2>(&mut s)?;
    expect(&mut s, b'T')?;
    let hour = digits::<2>(&mut s)?;
    expect(&mut s, b':')?;
    let minute = digits::<2>(&mut s)?;
    expect(&mut s, b':')?;
    let second = digits::<2>(&mut s)?;
    if expect(&mut s, b'.').is_some() {
        let fraction = s.iter().take_while(|b| b.is_ascii_digit()).count();
        if fraction == 0 {
            return None;
        }
        s = &s[fraction..];
    }
    let offset = if expect(&mut s, b'Z').is_some() {
        0
    } else {
        let sign = match s.split_first()? {
            (b'+', rest) => {
                s = rest;
                1
            }
            (b'-', rest) => {
                s = rest;
                -1
            }
            _ => return None,
        };
        let hours = digits::<2>(&mut s)?;
        expect(&mut s, b':')?;
        let minutes = digits::<2>(&mut s)?;
        if hours > 23 || minutes > 59 {
            return None;
        }
        sign * (hours * 60 + minutes) * 60
    };
    let valid = s.is_empty()
        && (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60;
    if !valid {
        return None;
    }
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    u64::try_from(seconds).ok()
}

impl FromStr for Timestamp {
    type Err = ParseTimestampError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_rfc3339(s)
            .and_then(Timestamp::from_unix_seconds)
            .ok_or_else(|| ParseTimestampError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(seconds: u64) -> String {
        Timestamp::from_unix_seconds(seconds).unwrap().to_string()
    }

    #[test]
    fn formats_known_moments() {
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(68_255_999), "1972-02-29T23:59:59Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(978_307_199), "2000-12-31T23:59:59Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(Timestamp::from_unix_seconds(253_402_300_800), None);
    }

    #[test]
    fn parses_utc_offsets_and_fractions() {
        let t = |s: &str| s.parse::<Timestamp>().map(Timestamp::unix_seconds);
        assert_eq!(t("2023-11-14T22:13:20Z"), Ok(1_700_000_000));
        assert_eq!(t("2023-11-14t22:13:20z"), Ok(1_700_000_000));
        assert_eq!(t("2023-11-14T22:13:20.999Z"), Ok(1_700_000_000));
        assert_eq!(t("2023-11-15T00:13:20+02:00"), Ok(1_700_000_000));
        assert_eq!(t("2023-11-14T20:43:20-01:30"), Ok(1_700_000_000));
        assert_eq!(t("2000-02-29T00:00:00Z"), Ok(951_782_400));
    }

    #[test]
    fn rejects_impossible_or_malformed_times() {
        for bad in [
            "",
            "2023-11-14",
            "2023-11-14T22:13:20",
            "2023-11-14 22:13:20Z",
            "2023-13-01T00:00:00Z",
            "2023-00-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2023-04-31T00:00:00Z",
            "2023-11-14T24:00:00Z",
            "2023-11-14T22:60:00Z",
            "2023-11-14T22:13:60Z",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20+2:00",
            "2023-11-14T22:13:20+24:00",
            "2023-11-14T22:13:20Zjunk",
            "1969-12-31T23:59:59Z",
            "1970-01-01T00:30:00+01:00",
            "+2023-11-14T22:13:20Z",
            "２023-11-14T22:13:20Z",
        ] {
            assert!(bad.parse::<Timestamp>().is_err(), "{bad}");
        }
    }

    #[test]
    fn system_times_are_truncated_and_clamped() {
        let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_750);
        assert_eq!(
            Timestamp::from_system_time(t).to_string(),
            "2023-11-14T22:13:20Z"
        );
        let before = UNIX_EPOCH - Duration::from_secs(5);
        assert_eq!(Timestamp::from_system_time(before), Timestamp::EPOCH);
        assert_eq!(
            Timestamp::from_system_time(Timestamp::MAX.system_time() + Duration::from_secs(9)),
            Timestamp::MAX
        );
    }

    proptest! {
        #[test]
        fn text_round_trips(seconds in 0..=Timestamp::MAX.unix_seconds()) {
            let t = Timestamp::from_unix_seconds(seconds).unwrap();
            let text = t.to_string();
            prop_assert_eq!(text.len(), 20);
            prop_assert_eq!(text.parse::<Timestamp>(), Ok(t));
        }

        #[test]
        fn days_convert_both_ways(days in 0i64..2_932_897) {
            let (y, m, d) = civil_from_days(days);
            prop_assert!((1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d));
            prop_assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
