//! The lag shown in the headers: the round trip of the last ping answered or, while a ping
//! has waited for its answer longer than pings are apart (a frozen server, a connection
//! that died without a word), how long it has waited, and past [`NOT_ANSWERING`] that the
//! server is not answering.

use std::time::Duration;

/// How long a ping waits unanswered before the server is said not to answer.
pub const NOT_ANSWERING: Duration = Duration::from_secs(15);

/// The lag as shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lag {
    /// The round trip of the last ping answered.
    Measured(Duration),
    /// A ping unanswered for this long, longer than pings are apart.
    Waiting(Duration),
}

impl Lag {
    /// The lag shown, from the round trip `measured` last and how long the ping sent since
    /// has `waited`, pings being `every` apart.
    pub fn of(
        measured: Option<Duration>,
        waited: Option<Duration>,
        every: Duration,
    ) -> Option<Lag> {
        match waited {
            Some(waited) if waited >= every => Some(Lag::Waiting(waited)),
            _ => measured.map(Lag::Measured),
        }
    }

    /// In words: `lag 42 ms`, `lag ≥ 6 s`, `not answering for 25 s`.
    pub fn text(self) -> String {
        match self {
            Lag::Measured(lag) => format!("lag {} ms", lag.as_millis()),
            Lag::Waiting(waited) if waited >= NOT_ANSWERING => {
                format!("not answering for {} s", waited.as_secs())
            }
            Lag::Waiting(waited) => format!("lag ≥ {} s", waited.as_secs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ping_unanswered_past_the_next_one_shows_as_a_growing_lag_then_as_no_answer() {
        let every = Duration::from_secs(5);
        let secs = Duration::from_secs;
        let measured = Some(Duration::from_millis(3));
        let shown = |waited| Lag::of(measured, waited, every).map(Lag::text);
        assert_eq!(shown(None).as_deref(), Some("lag 3 ms"));
        assert_eq!(shown(Some(secs(4))).as_deref(), Some("lag 3 ms"));
        assert_eq!(shown(Some(secs(6))).as_deref(), Some("lag ≥ 6 s"));
        assert_eq!(
            shown(Some(secs(20))).as_deref(),
            Some("not answering for 20 s")
        );
        assert_eq!(Lag::of(None, None, every), None);
    }
}
