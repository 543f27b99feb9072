//! Timestamps as RFC 3339 UTC strings (`2026-11-29T14:13:39Z`); the calendar is `jiff`'s.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment to the second, from 1970-01-01T00:00:00Z to 9999-12-30T22:00:00Z (the end of
/// `jiff`'s range, which keeps room for any offset in year 9999).
///
/// Written as RFC 3339 in UTC (`2026-11-29T14:13:39Z`); read from any RFC 3339 date-time
/// (fractions of a second are dropped, offsets are converted to UTC): the text must have the
/// shape of RFC 3339, and `jiff` checks the date and converts it.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Timestamp(u64);

impl Timestamp {
    /// 1970-01-01T00:00:00Z.
    pub const EPOCH: Timestamp = Timestamp(0);
    /// 9999-12-30T22:00:00Z, the last whole second `jiff` holds.
    pub const MAX: Timestamp = Timestamp(253_402_207_200);

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

    /// The same moment in `jiff`, which holds every timestamp.
    fn to_jiff(self) -> jiff::Timestamp {
        i64::try_from(self.0)
            .ok()
            .and_then(|s| jiff::Timestamp::from_second(s).ok())
            .unwrap_or(jiff::Timestamp::MAX)
    }

    /// A `jiff` moment truncated to the second, if it is not before 1970.
    fn from_jiff(moment: jiff::Timestamp) -> Option<Timestamp> {
        if moment < jiff::Timestamp::UNIX_EPOCH {
            return None;
        }
        u64::try_from(moment.as_second())
            .ok()
            .and_then(Timestamp::from_unix_seconds)
    }
}

impl fmt::Display for Timestamp {
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Whole seconds: jiff writes no fraction.
        write!(f, "{}", self.to_jiff())
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

/// The shape of an RFC 3339 date-time (section 5.6) as a regular expression, for the save
/// format's JSON Schema; [`is_rfc3339_shaped`] checks the same shape.
pub(super) const RFC3339_PATTERN: &str = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$";

/// Whether `text` has the shape of an RFC 3339 date-time (section 5.6):
/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or `+HH:MM`/`-HH:MM`. `jiff` reads a wider format (ISO 8601
/// and RFC 9557 forms such as `20261129T141339Z` or `2026-11-29 14:13Z[Europe/Dublin]`),
/// which other programs reading the format would not expect.
fn is_rfc3339_shaped(text: &str) -> bool {
    // `d` a digit, `T` the separator; `T` and `Z` may be lowercase (RFC 3339, 5.6).
    const DATE_TIME: &[u8; 19] = b"dddd-dd-ddTdd:dd:dd";
    let Some((head, mut rest)) = text.as_bytes().split_at_checked(DATE_TIME.len()) else {
        return false;
    };
    let head_ok = head.iter().zip(DATE_TIME).all(|(&b, &t)| match t {
        b'd' => b.is_ascii_digit(),
        b'T' => b.eq_ignore_ascii_case(&b'T'),
        _ => b == t,
    });
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &fraction[digits..];
    }
    let offset_ok = match rest {
        [z] => z.eq_ignore_ascii_case(&b'Z'),
        [sign, h1, h2, b':', m1, m2] => {
            matches!(sign, b'+' | b'-') && [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit())
        }
        _ => false,
    };
    head_ok && offset_ok
}

impl FromStr for Timestamp {
    type Err = ParseTimestampError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Some(s)
            .filter(|s| is_rfc3339_shaped(s))
            .and_then(|s| s.parse::<jiff::Timestamp>().ok())
            .and_then(Timestamp::from_jiff)
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
        assert_eq!(at(253_402_207_200), "9999-12-30T22:00:00Z");
        assert_eq!(Timestamp::from_unix_seconds(253_402_207_201), None);
        assert_eq!(
            Some(jiff::Timestamp::MAX.as_second()),
            i64::try_from(Timestamp::MAX.unix_seconds()).ok()
        );
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
        assert_eq!(t("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(t("9999-12-30T22:00:00.999Z"), Ok(Timestamp::MAX.0));
        // RFC 3339 allows a leap second; jiff reads it as the second before.
        assert_eq!(t("2016-12-31T23:59:60Z"), t("2016-12-31T23:59:59Z"));
    }

    #[test]
    fn rejects_impossible_or_malformed_times() {
        for bad in [
            "",
            "yesterday",
            "2023-11-14",
            "2023-11-14T22:13:20",
            "2023-13-01T00:00:00Z",
            "2023-00-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2023-04-31T00:00:00Z",
            "2026-02-30T12:00:00Z",
            "2023-11-14T24:00:00Z",
            "2023-11-14T22:60:00Z",
            "2023-11-14T22:13:61Z",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20+2:00",
            "2023-11-14T22:13:20+26:00",
            "2023-11-14T22:13:20Zjunk",
            "1969-12-31T23:59:59Z",
            "9999-12-30T22:00:01Z",
            "9999-12-31T23:59:59Z",
            "1969-12-31T23:59:59.5Z",
            "1970-01-01T00:30:00+01:00",
            "２023-11-14T22:13:20Z",
            // Read by jiff, but not RFC 3339.
            "+2023-11-14T22:13:20Z",
            "+002023-11-14T22:13:20Z",
            "2023-11-14 22:13:20Z",
            "2023-11-14T22:13:20+02",
            "2023-11-14T22:13:20+0200",
            "20231114T221320Z",
            "2023-11-14T22:13:20Z[Europe/Dublin]",
            "2023-11-14T22:13Z",
            "2023-11-14T22:13:20,5Z",
        ] {
            assert!(bad.parse::<Timestamp>().is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_quote_the_text_escaped() {
        let err = "2026-02-30T12:00:00Z".parse::<Timestamp>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"2026-02-30T12:00:00Z\" is not an RFC 3339 time between 1970 and 9999 like 2026-11-29T14:13:39Z"
        );
        let text = "\u{1b}[2J".parse::<Timestamp>().unwrap_err().to_string();
        assert!(text.starts_with("\"\\u{1b}[2J\" is not"), "{text}");
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
    }
}
