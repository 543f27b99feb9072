//! The ending signals of [`crate::signals`] brought to the terminal game's event loop: each one
//! caught raises the flag there and also comes to the loop as an event, from a thread of its
//! own, so that the loop, blocked on its channel, wakes for it: it autosaves, leaves the loop so
//! the terminal is restored, and the program exits with 128 + the signal's number. (The loop
//! reads the flag too before it writes to the terminal, which a hangup may have taken away;
//! elsewhere than on Unix that is how it sees them, signal-hook having no iterator there.)

use std::io;
use std::sync::mpsc::Sender;
#[cfg(unix)]
use std::thread;

#[cfg(unix)]
use signal_hook::consts::signal::{SIGCONT, SIGTSTP};
#[cfg(unix)]
use signal_hook::iterator::{self, Handle};

use super::events::Event;
use crate::signals::StartIgnored;

/// The ending signals, caught while the game runs and sent to its loop.
pub(super) struct Signals {
    caught: crate::signals::Signals,
    /// Ends the thread that hands the signals to the event loop.
    #[cfg(unix)]
    forwarding: Handle,
}

impl Signals {
    /// Catches the ending signals from now on, each sent on `events` as it comes.
    pub(super) fn catch(events: Sender<Event>) -> io::Result<Signals> {
        let caught = crate::signals::Signals::catch(StartIgnored::Caught)?;
        #[cfg(not(unix))]
        drop(events);
        Ok(Signals {
            #[cfg(unix)]
            forwarding: forward(caught.caught(), events)?,
            caught,
        })
    }

    /// The signal received, if any.
    pub(super) fn received(&self) -> Option<i32> {
        self.caught.received()
    }
}

impl Drop for Signals {
    /// Stops the forwarding; the signals stay caught until the fields drop (then, the game
    /// being over, an ending signal ends the program at once).
    fn drop(&mut self) {
        #[cfg(unix)]
        self.forwarding.close();
    }
}

/// Sends each of the ending `signals` on `events` as it comes, and the job control's SIGTSTP
/// and SIGCONT, from a thread of its own, until the returned handle is closed. SIGTSTP caught
/// no longer stops the program by itself: the loop gives the terminal back first, then stops
/// it.
#[cfg(unix)]
fn forward(signals: &[i32], events: Sender<Event>) -> io::Result<Handle> {
    let mut caught = iterator::Signals::new(signals.iter().chain(&[SIGTSTP, SIGCONT]))?;
    let handle = caught.handle();
    thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || {
            for signal in caught.forever() {
                let event = match signal {
                    SIGTSTP => Event::Suspend,
                    SIGCONT => Event::Continued,
                    ending => Event::Signal(ending),
                };
                if events.send(event).is_err() {
                    return;
                }
            }
        })?;
    Ok(handle)
}
