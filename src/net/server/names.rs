//! Names on the server, the rules without the database: a key's claim of one (its form
//! checked by [`normalize_name`], then put to the name table, which the store keeps, and
//! its answer put in words), the look-alike forms compared with the names other keys hold,
//! and the count of new names claimed from each address in the last minute.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use unicode_security::skeleton;

use super::limits::Limits;
use crate::net::protocol::normalize_name;

/// The window in which new names are counted per address.
pub(super) const CLAIM_WINDOW: Duration = Duration::from_secs(60);

/// How long a name unused stays with a key that is in no game (30 days): then another key
/// may claim it, or one like it.
pub(super) const UNUSED_NAME_KEPT_SECS: i64 = 30 * 86_400;

/// A key's claim of a name.
pub(super) struct NameClaim<'a> {
    /// The key.
    pub key: &'a str,
    /// The name, checked and in NFC ([`crate::net::protocol::normalize_name`]).
    pub name: &'a str,
    /// Now, in seconds since 1970.
    pub now: i64,
    /// The most names the key may hold.
    pub most: usize,
    /// Whether the name may be a new one of the key (within the claims per minute).
    pub may_add: bool,
    /// Whether a bot claims it: a name is a bot's or a person's for good, as first claimed.
    pub bot: bool,
}

/// What became of a claim.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) enum Claim {
    /// The key held the name already.
    Yours,
    /// The name is the key's from now on.
    New,
    /// Another key holds this name, or this one, like it.
    Taken(String),
    /// The key holds as many names as it may.
    TooMany,
    /// The name would be a new one, and no new one may be claimed now.
    TooFast,
    /// The key holds the name, as a bot's (`true`) or a person's, and claims it as the other.
    OtherKind(bool),
}

/// A name's forms compared with those of names other keys hold: its confusable skeleton
/// (Unicode TS #39: `aIice` and `alice` share one) and that of its lowercase form (so that
/// `Alice` is taken with `alice`).
pub(super) fn look_alike_forms(name: &str) -> [String; 2] {
    [
        skeleton(name).collect(),
        skeleton(&name.to_lowercase()).collect(),
    ]
}

/// When new names were claimed lately, per address (only claims within [`CLAIM_WINDOW`]
/// are kept, so it holds at most the cap for each address that claimed one in the window).
#[derive(Default)]
pub(super) struct NameClaims {
    recent: HashMap<IpAddr, VecDeque<Instant>>,
}

impl NameClaims {
    /// Gives `key`, proven on a connection from `ip`, the name `asked` (in NFC) for a bot or
    /// a person (`bot`) if it may have it, as the name table says (`store`, which may fail): the name as kept, or why
    /// not (for a `bad_name` error).
    pub fn claim<E>(
        &mut self,
        limits: &Limits,
        (ip, key): (IpAddr, &str),
        (asked, bot): (&str, bool),
        store: impl FnOnce(&NameClaim) -> Result<Claim, E>,
    ) -> Result<Result<String, String>, E> {
        let name = match normalize_name(asked) {
            Ok(name) => name,
            Err(e) => return Ok(Err(format!("the name {e}"))),
        };
        let now = Instant::now();
        let claim = NameClaim {
            key,
            name: &name,
            now: jiff::Timestamp::now().as_second(),
            most: limits.names_per_key,
            may_add: self.allows(ip, now, limits.new_names_per_minute),
            bot,
        };
        Ok(match store(&claim)? {
            Claim::Yours => Ok(name),
            Claim::New => {
                self.record(ip, now);
                Ok(name)
            }
            Claim::Taken(held) if held == name => Err(format!("the name {name} is taken")),
            Claim::Taken(held) => Err(format!(
                "the name {name} looks like {held}, which another player holds"
            )),
            Claim::TooMany => Err(format!(
                "this key holds {} names already: play under one of them",
                limits.names_per_key
            )),
            Claim::TooFast => Err(
                "too many new names from your address in the last minute: try again later"
                    .to_owned(),
            ),
            Claim::OtherKind(true) => Err(format!(
                "the name {name} is a bot's: a person plays under a name of their own"
            )),
            Claim::OtherKind(false) => Err(format!(
                "the name {name} is a person's: a bot plays under a name of its own"
            )),
        })
    }

    /// Whether `ip` may claim a new name at `now`, `per_minute` being allowed per window.
    fn allows(&mut self, ip: IpAddr, now: Instant, per_minute: usize) -> bool {
        self.recent.retain(|_, times| {
            while times
                .front()
                .is_some_and(|&t| now.saturating_duration_since(t) >= CLAIM_WINDOW)
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        self.recent.get(&ip).map_or(0, VecDeque::len) < per_minute
    }

    /// Counts a new name claimed by `ip` at `now`.
    fn record(&mut self, ip: IpAddr, now: Instant) {
        self.recent.entry(ip).or_default().push_back(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_names_are_counted_per_address_over_a_minute() {
        let mut claims = NameClaims::default();
        let (a, b): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "::1".parse().unwrap());
        let t = Instant::now();
        for _ in 0..2 {
            assert!(claims.allows(a, t, 2));
            claims.record(a, t);
        }
        assert!(!claims.allows(a, t, 2), "a third in the minute");
        assert!(claims.allows(b, t, 2), "another address");
        let just_before = t + Duration::from_secs(59);
        assert!(!claims.allows(a, just_before, 2));
        assert!(claims.allows(a, t + CLAIM_WINDOW, 2), "a minute later");
        assert!(claims.recent.is_empty(), "nothing kept past the window");
    }

    #[test]
    fn look_alikes_share_a_form() {
        let alice = look_alike_forms("alice");
        for other in ["aIice", "Alice", "ALICE"] {
            let forms = look_alike_forms(other);
            assert!(
                forms.iter().zip(&alice).any(|(a, b)| a == b),
                "{other}: {forms:?}"
            );
        }
        let bob = look_alike_forms("bob");
        assert!(bob.iter().zip(&alice).all(|(a, b)| a != b));
    }
}
