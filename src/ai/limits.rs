//! Search budgets, and durations written like `50ms`, `1s`, `2.5s`.

use std::fmt;
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

/// Why a text is not a duration.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParseDurationError(String);

impl fmt::Display for ParseDurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a duration (expected a number with ms or s, e.g. 50ms, 1s, 2.5s)",
            crate::quote::excerpt(&self.0)
        )
    }
}

impl std::error::Error for ParseDurationError {}

/// Parses `50ms`, `1s`, `2.5s` (a non-negative decimal number followed by `ms` or `s`).
pub fn parse_duration(text: &str) -> Result<Duration, ParseDurationError> {
    let err = || ParseDurationError(text.to_owned());
    let (number, millis_per_unit) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        return Err(err());
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(err());
    }
    let value: f64 = number.parse().map_err(|_| err())?;
    let millis = value * millis_per_unit;
    if !millis.is_finite() || millis > 1e12 {
        return Err(err());
    }
    Ok(Duration::from_secs_f64(millis / 1000.0))
}

/// Writes a duration the way [`parse_duration`] reads it: `50ms` below a second, else
/// seconds with up to three decimals (`1s`, `2.5s`).
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis < 1000 {
        format!("{millis}ms")
    } else {
        let text = format!("{}.{:03}", millis / 1000, millis % 1000);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        format!("{text}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("50ms"), Ok(Duration::from_millis(50)));
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("0.25s"), Ok(Duration::from_millis(250)));
        for bad in [
            "", "1", "s", "ms", "-1s", "1 s", "1.2.3s", "1h", "abc", "1e3s",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_format_and_round_trip() {
        assert_eq!(format_duration(Duration::from_millis(50)), "50ms");
        assert_eq!(format_duration(Duration::from_secs(1)), "1s");
        assert_eq!(format_duration(Duration::from_millis(2500)), "2.5s");
        assert_eq!(format_duration(Duration::from_millis(1234)), "1.234s");
        for text in ["0ms", "999ms", "1s", "2.5s", "10.125s"] {
            let d = parse_duration(text).unwrap();
            assert_eq!(format_duration(d), text);
        }
    }
}
