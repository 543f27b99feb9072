//! Admission of connections within the caps: in all, and per address those that said hello
//! and those on their way there (a newer one pushing the oldest out, so that sockets that
//! say nothing cannot lock their address out).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::Notify;

use super::limits::Limits;

/// Connections open: in all, and per address those that said hello and those on their
/// way (oldest first, each with the signal that pushes it out).
#[derive(Default)]
pub(super) struct Counts {
    all: usize,
    per_address: HashMap<IpAddr, usize>,
    arriving: HashMap<IpAddr, VecDeque<(u64, Arc<Notify>)>>,
    next: u64,
}

impl Counts {
    /// Takes connection `id` from `ip` off the arriving list; whether it was on it.
    fn arrived(&mut self, ip: IpAddr, id: u64) -> bool {
        let Some(arriving) = self.arriving.get_mut(&ip) else {
            return false;
        };
        let before = arriving.len();
        arriving.retain(|(other, _)| *other != id);
        let found = arriving.len() < before;
        if arriving.is_empty() {
            self.arriving.remove(&ip);
        }
        found
    }
}

/// Holds a connection's place in [`Counts`] until dropped.
pub(super) struct Admitted {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
    id: u64,
    evicted: Arc<Notify>,
    per_address: usize,
    settled: bool,
}

impl Admitted {
    /// Signalled when a newer connection from the same address pushes this one out before
    /// its hello.
    pub fn evicted(&self) -> Arc<Notify> {
        Arc::clone(&self.evicted)
    }

    /// The connection said hello: counted against its address's cap, if there is room
    /// (whether there was).
    pub fn settle(&mut self) -> bool {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.arrived(self.ip, self.id);
        let here = counts.per_address.entry(self.ip).or_insert(0);
        if *here >= self.per_address {
            return false;
        }
        *here += 1;
        self.settled = true;
        true
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.all = counts.all.saturating_sub(1);
        if !self.settled {
            counts.arrived(self.ip, self.id);
            return;
        }
        if let Some(n) = counts.per_address.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.per_address.remove(&self.ip);
            }
        }
    }
}

/// Admits a connection from `ip` within the cap in all, on its way to its address's cap:
/// with as many on their way from there already, the oldest of them is pushed out.
pub(super) fn admit(counts: &Arc<Mutex<Counts>>, ip: IpAddr, limits: &Limits) -> Option<Admitted> {
    let mut c = counts.lock().unwrap_or_else(PoisonError::into_inner);
    if c.all >= limits.connections {
        return None;
    }
    c.all += 1;
    c.next += 1;
    let id = c.next;
    let evicted = Arc::new(Notify::new());
    let arriving = c.arriving.entry(ip).or_default();
    if arriving.len() >= limits.per_address.max(1)
        && let Some((_, oldest)) = arriving.pop_front()
    {
        oldest.notify_one();
    }
    arriving.push_back((id, Arc::clone(&evicted)));
    Some(Admitted {
        counts: Arc::clone(counts),
        ip,
        id,
        evicted,
        per_address: limits.per_address,
        settled: false,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn connections_are_capped_per_address_and_in_all() {
        let limits = Limits {
            connections: 3,
            per_address: 2,
            ..Limits::default()
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let settled = |ip| {
            let mut place = admit(&counts, ip, &limits).unwrap();
            assert!(place.settle());
            place
        };
        let first = settled(a);
        let _second = settled(a);
        let mut third = admit(&counts, a, &limits).unwrap();
        assert!(!third.settle(), "a third from one address");
        drop(third);
        let _fourth = settled(b);
        assert!(admit(&counts, b, &limits).is_none(), "a fourth in all");
        drop(first);
        assert!(admit(&counts, a, &limits).is_some(), "a place freed");
    }

    #[test]
    fn a_connection_on_its_way_is_pushed_out_by_a_newer_one_from_its_address() {
        let limits = Limits {
            per_address: 2,
            ..Limits::default()
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let silent: Vec<Admitted> = (0..2)
            .map(|_| admit(&counts, a, &limits).unwrap())
            .collect();
        let mut honest = admit(&counts, a, &limits).unwrap();
        assert!(honest.settle(), "locked out by silent sockets");
        let pushed_out = silent[0].evicted();
        assert!(
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    tokio::time::timeout(Duration::ZERO, pushed_out.notified()).await
                })
                .is_ok(),
            "the oldest silent one stays"
        );
    }
}
