//! The signals that end the program (SIGTERM, SIGHUP, SIGQUIT, and SIGINT sent with `kill`; a
//! Ctrl-C typed in the game is a key, since the terminal is raw). Their default action would
//! kill the game on the spot, leaving the terminal raw, in the alternate screen, with the
//! cursor hidden and mouse reporting on. Instead each one raises a flag and comes to the event
//! loop as an event: it autosaves, leaves the loop so the terminal is restored, and the program
//! exits with 128 + the signal's number, as if killed. (The loop reads the flag too before it
//! writes to the terminal, which a hangup may have taken away; elsewhere than on Unix that is
//! how it sees them, signal-hook having no iterator there.)
//!
//! A second signal, when the first has not ended the game (stuck writing to a dead terminal),
//! exits at once with the same code; so does any of them once the game is over.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
#[cfg(unix)]
use std::thread;

#[cfg(unix)]
use signal_hook::consts::signal::{SIGHUP, SIGQUIT};
use signal_hook::consts::signal::{SIGINT, SIGTERM};
use signal_hook::flag;
#[cfg(unix)]
use signal_hook::iterator::{self, Handle};

use super::events::Event;

/// The signals caught.
#[cfg(unix)]
const CAUGHT: [i32; 4] = [SIGTERM, SIGHUP, SIGQUIT, SIGINT];
#[cfg(not(unix))]
const CAUGHT: [i32; 2] = [SIGTERM, SIGINT];

/// The ending signals, caught while the game runs.
pub(super) struct Signals {
    /// The number of the last signal received, 0 before any.
    received: Arc<AtomicUsize>,
    /// Whether the next signal exits at once.
    armed: Arc<AtomicBool>,
    /// Ends the thread that hands the signals to the event loop.
    #[cfg(unix)]
    forwarding: Handle,
}

impl Signals {
    /// Catches the ending signals from now on, each sent on `events` as it comes.
    pub(super) fn catch(events: Sender<Event>) -> io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        for signal in CAUGHT {
            // In this order: the exit checks `armed` before the same signal sets it.
            flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&armed))?;
            flag::register(signal, Arc::clone(&armed))?;
            let number = usize::try_from(signal).map_err(io::Error::other)?;
            flag::register_usize(signal, Arc::clone(&received), number)?;
        }
        #[cfg(not(unix))]
        drop(events);
        Ok(Signals {
            #[cfg(unix)]
            forwarding: forward(events)?,
            received,
            armed,
        })
    }

    /// The signal received, if any.
    pub(super) fn received(&self) -> Option<i32> {
        match self.received.load(Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }
}

impl Drop for Signals {
    /// Once the game is over, an ending signal ends the program at once.
    fn drop(&mut self) {
        self.armed.store(true, Ordering::SeqCst);
        #[cfg(unix)]
        self.forwarding.close();
    }
}

/// Sends each ending signal on `events` as it comes, from a thread of its own, until the
/// returned handle is closed.
#[cfg(unix)]
fn forward(events: Sender<Event>) -> io::Result<Handle> {
    let mut caught = iterator::Signals::new(CAUGHT)?;
    let handle = caught.handle();
    thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || {
            for signal in caught.forever() {
                if events.send(Event::Signal(signal)).is_err() {
                    return;
                }
            }
        })?;
    Ok(handle)
}
