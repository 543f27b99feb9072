//! The signals that end the program (SIGTERM, SIGHUP, SIGQUIT, and SIGINT: Ctrl-C, or sent
//! with `kill`; a Ctrl-C typed in the terminal game is a key, since the terminal is raw; and
//! on Unix every other signal whose default action ends a program and that may be caught:
//! SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGXCPU; not SIGXFSZ, which
//! [`crate::game::storage::survive_file_size_limit`] turns into a failed write), caught while the terminal game or a match runs. Their default action would kill the program
//! on the spot: the game would leave the terminal raw, in the alternate screen, with the cursor
//! hidden and mouse reporting on; a match would leave its engines, each in a process group of
//! its own, running. Instead each one only raises a flag, which the program reads between two
//! steps: the game autosaves and leaves its loop so the terminal is restored, a match stops and
//! ends its engines; then the program exits with 128 + the signal's number, as if killed.
//!
//! A second signal, when the first has not ended the program (stuck writing to a dead
//! terminal), exits at once with the same code; so does any of them once the work is over.
//!
//! A signal a match was started with ignored (SIGHUP under `nohup`, SIGINT for a job a script
//! starts in the background) stays ignored: it is not caught. Linux says which are; elsewhere
//! every one is caught. The terminal game catches every one: whatever ends it, it must give
//! the terminal back (and it never runs under `nohup`, which takes its terminal away).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[cfg(unix)]
use signal_hook::consts::signal::{
    SIGALRM, SIGHUP, SIGIO, SIGPROF, SIGQUIT, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
};
use signal_hook::consts::signal::{SIGINT, SIGTERM};
use signal_hook::flag;

/// The signals caught: every one whose default action ends the program and that may be
/// caught (SIGPIPE is ignored by the Rust runtime, SIGXFSZ made a failed write; SIGSEGV and
/// its kind are not signal-hook's to catch).
#[cfg(unix)]
const CAUGHT: [i32; 11] = [
    SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGXCPU,
];
#[cfg(not(unix))]
const CAUGHT: [i32; 2] = [SIGTERM, SIGINT];

/// The ending signals, caught while the terminal game or a match runs.
pub(crate) struct Signals {
    /// The number of the last signal received, 0 before any.
    received: Arc<AtomicUsize>,
    /// Whether the next signal exits at once.
    armed: Arc<AtomicBool>,
    /// The signals caught: [`CAUGHT`] but those ignored from the start.
    caught: Vec<i32>,
}

/// What becomes of an ending signal the program was started with ignored.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum StartIgnored {
    /// It stays ignored: a match under `nohup` goes on when its terminal closes.
    Kept,
    /// It is caught like the others: the terminal game gives its terminal back whatever ends
    /// it.
    Caught,
}

impl Signals {
    /// Catches the ending signals from now on; those ignored until now as `start_ignored`
    /// says.
    pub(crate) fn catch(start_ignored: StartIgnored) -> io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        let ignored = ignored();
        let caught: Vec<i32> = CAUGHT
            .into_iter()
            .filter(|&s| start_ignored == StartIgnored::Caught || !ignored(s))
            .collect();
        for &signal in &caught {
            // In this order: the exit checks `armed` before the same signal sets it.
            flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&armed))?;
            flag::register(signal, Arc::clone(&armed))?;
            let number = usize::try_from(signal).map_err(io::Error::other)?;
            flag::register_usize(signal, Arc::clone(&received), number)?;
        }
        Ok(Signals {
            received,
            armed,
            caught,
        })
    }

    /// The signals caught (those ignored from the start are not).
    pub(crate) fn caught(&self) -> &[i32] {
        &self.caught
    }

    /// Set once an ending signal has come: work stops by it.
    pub(crate) fn raised(&self) -> &AtomicBool {
        &self.armed
    }

    /// The signal received, if any.
    pub(crate) fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }
}

/// The most of `/proc/self/status` read (it is about 1.5 KB).
#[cfg(target_os = "linux")]
const STATUS_BYTES: u64 = 64 * 1024;

/// Which signals are ignored, as the kernel says: the `SigIgn` mask of `/proc/self/status`,
/// bit `n - 1` for signal `n`.
#[cfg(target_os = "linux")]
fn ignored() -> impl Fn(i32) -> bool {
    let status = std::path::Path::new("/proc/self/status");
    let mask = crate::game::storage::read_regular_file(status, STATUS_BYTES)
        .ok()
        .and_then(|(status, _)| {
            let status = String::from_utf8_lossy(&status);
            let hex = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(hex.trim(), 16).ok()
        })
        .unwrap_or(0);
    move |signal| {
        u32::try_from(signal - 1).is_ok_and(|bit| mask.checked_shr(bit).is_some_and(|m| m & 1 == 1))
    }
}

/// Which signals are ignored: unknown here, so none.
#[cfg(not(target_os = "linux"))]
fn ignored() -> impl Fn(i32) -> bool {
    |_| false
}

impl Drop for Signals {
    /// Once the work is over, an ending signal ends the program at once.
    fn drop(&mut self) {
        self.armed.store(true, Ordering::SeqCst);
    }
}
