//! Durations as people write them: `500ms`, `1.5s`, `5m`, `1m30s`, `1h`. The one reader of
//! `--time`, the parts of a time control (`5m+3s`, `10m/3x30s`) and the move time of
//! `ai:max:TIME`, and the one writer of durations in messages and time controls.
//!
//! `jiff` reads the units and adds them up (its "friendly" format, units largest first, the
//! last one may have a fraction); before it, the text must have our short shape (a number
//! first, then only digits, `.` and unit letters), so the other forms `jiff` reads (spaces,
//! signs, `ago`, ISO 8601's `PT5M`, a decimal comma) are refused: a time control puts `+`,
//! `/` and `x` around its durations.

use std::fmt;
use std::time::Duration;

use jiff::SignedDuration;
use jiff::fmt::friendly::{Designator, FractionalUnit, Spacing, SpanPrinter};

use crate::quote::excerpt;

/// The longest duration read: far beyond any game or analysis, and far from the end of
/// what a moment plus a duration can hold.
pub const MAX_DURATION: Duration = Duration::from_secs(1000 * 3600);

/// Writes whole hours, minutes and seconds with up to three decimals, no spaces: `1m30.5s`.
const PRINTER: SpanPrinter = SpanPrinter::new()
    .designator(Designator::Compact)
    .spacing(Spacing::None)
    .fractional(Some(FractionalUnit::Second));

/// Why a text is not a duration.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParseDurationError {
    text: String,
    fault: DurationFault,
}

/// What is wrong with a text that is not a duration.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum DurationFault {
    /// It is not written as a duration.
    Shape,
    /// Longer than [`MAX_DURATION`].
    TooLong,
}

impl ParseDurationError {
    /// What is wrong, without the examples of [`fmt::Display`]: `"3q" is not a duration`,
    /// for a message that quotes the duration within a longer text.
    pub fn short(&self) -> String {
        let text = excerpt(&self.text);
        match self.fault {
            DurationFault::Shape => format!("\"{text}\" is not a duration"),
            DurationFault::TooLong => format!(
                "\"{text}\" is longer than {}",
                format_duration(MAX_DURATION)
            ),
        }
    }
}

impl fmt::Display for ParseDurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short())?;
        if self.fault == DurationFault::Shape {
            f.write_str(" (a number and a unit: 500ms, 1.5s, 5m, 1m30s, 1h)")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseDurationError {}

/// Reads a duration: numbers with units, largest first (`h`, `m`, `s`, `ms`, and the longer
/// names `jiff` knows, such as `min` or `secs`), the last number perhaps with a fraction:
/// `500ms`, `1.5s`, `5m`, `1m30s`, `1h`. Letters may be capitals; nothing else may stand
/// between or around the parts. At most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, ParseDurationError> {
    let err = |fault| ParseDurationError {
        text: text.to_owned(),
        fault,
    };
    let lower = text.to_ascii_lowercase();
    let short_shape = lower.starts_with(|c: char| c.is_ascii_digit())
        && lower
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase() || c == '.');
    if !short_shape {
        return Err(err(DurationFault::Shape));
    }
    let duration = lower
        .parse::<SignedDuration>()
        .ok()
        .and_then(|d| Duration::try_from(d).ok())
        .ok_or_else(|| err(DurationFault::Shape))?;
    if duration > MAX_DURATION {
        return Err(err(DurationFault::TooLong));
    }
    Ok(duration)
}

/// Writes a duration, to the millisecond, the way [`parse_duration`] reads it: `50ms` under
/// a second, else hours, minutes and seconds with up to three decimals (`2.5s`, `1m30s`,
/// `1h`).
pub fn format_duration(duration: Duration) -> String {
    let millis = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
    if millis < 1000 {
        format!("{millis}ms")
    } else {
        PRINTER.unsigned_duration_to_string(&Duration::from_millis(millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn what_each_reader_read_before_reads_the_same() {
        // `--time` and `analyze --time`.
        for (text, millis) in [("50ms", 50), ("1s", 1000), ("2.5s", 2500), ("0.25s", 250)] {
            assert_eq!(parse_duration(text), Ok(ms(millis)), "{text}");
        }
        // The parts of `--clock`.
        for (text, secs) in [("90s", 90), ("5m", 300), ("1h", 3600), ("1m30s", 90)] {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_secs(secs)),
                "{text}"
            );
        }
        // The move times of `ai:max:TIME`, in either case.
        for (text, secs) in [("1s", 1), ("3S", 3), ("10s", 10)] {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_secs(secs)),
                "{text}"
            );
        }
    }

    #[test]
    fn minutes_hours_and_fractions_read_everywhere() {
        for (text, millis) in [
            ("1m", 60_000),
            ("1.5s", 1500),
            ("500ms", 500),
            ("1.5m", 90_000),
            ("1h30m", 5_400_000),
            ("1m30.5s", 90_500),
            ("2mins", 120_000),
            ("0s", 0),
        ] {
            assert_eq!(parse_duration(text), Ok(ms(millis)), "{text}");
        }
    }

    #[test]
    fn other_forms_are_refused_with_what_is_wrong() {
        for bad in [
            "", "1", "s", "ms", "-1s", "+1s", "1 s", " 1s", "1s ", "1.2.3s", "1e3s", "abc", "1,5s",
            "PT5M", "5s ago", "30s1m", "1m1m", "1d", "1.s", ".5s", "5m+3s", "３s",
        ] {
            let e = parse_duration(bad).unwrap_err();
            assert_eq!(e.fault, DurationFault::Shape, "{bad}");
            assert!(e.to_string().contains("is not a duration (a number"), "{e}");
        }
        assert_eq!(
            parse_duration("1000h").map(format_duration),
            Ok("1000h".to_owned())
        );
        let e = parse_duration("1001h").unwrap_err();
        assert_eq!(e.to_string(), "\"1001h\" is longer than 1000h");
        let e = parse_duration("99999999999999999999s").unwrap_err();
        assert_eq!(e.fault, DurationFault::Shape);
        let e = parse_duration("\u{1b}[2J").unwrap_err();
        assert_eq!(e.short(), "\"\\u{1b}[2J\" is not a duration");
    }

    #[test]
    fn durations_are_written_as_they_are_read() {
        for (millis, text) in [
            (0, "0ms"),
            (50, "50ms"),
            (999, "999ms"),
            (1000, "1s"),
            (1234, "1.234s"),
            (2500, "2.5s"),
            (10_125, "10.125s"),
            (90_000, "1m30s"),
            (90_500, "1m30.5s"),
            (300_000, "5m"),
            (3_600_000, "1h"),
            (3_661_001, "1h1m1.001s"),
        ] {
            assert_eq!(format_duration(ms(millis)), text);
            assert_eq!(parse_duration(text), Ok(ms(millis)), "{text}");
        }
        // Below the millisecond is dropped.
        assert_eq!(format_duration(Duration::from_micros(1_999)), "1ms");
    }
}
