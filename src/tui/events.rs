//! Terminal events (keys, clicks, resizes) read on a thread of their own and handed over a
//! channel, so that the event loop never waits inside crossterm. Once the terminal is gone (a
//! hangup), crossterm's reader spins without returning, whatever the timeout (crossterm issue
//! #793); the loop must still see the hangup, autosave and exit. The reading thread then spins
//! until the program ends, which is at once.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event};

/// How long the reading thread waits for input before it looks whether it should stop.
const POLL: Duration = Duration::from_millis(30);

/// The terminal's events, read on their own thread.
pub(super) struct Events {
    rx: Receiver<io::Result<Event>>,
    /// Asks the reading thread to stop.
    stop: Arc<AtomicBool>,
}

impl Events {
    /// Starts reading the terminal's events.
    pub(super) fn start() -> io::Result<Events> {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        thread::Builder::new()
            .name("terminal input".to_owned())
            .spawn(move || {
                while !stopped.load(Ordering::Relaxed) {
                    let read = match event::poll(POLL) {
                        Ok(false) => continue,
                        Ok(true) => event::read(),
                        Err(e) => Err(e),
                    };
                    let failed = read.is_err();
                    if tx.send(read).is_err() || failed {
                        return;
                    }
                }
            })?;
        Ok(Events { rx, stop })
    }

    /// The next event, waiting at most `timeout`; `None` if none came.
    pub(super) fn next(&self, timeout: Duration) -> io::Result<Option<Event>> {
        match self.rx.recv_timeout(timeout) {
            Ok(read) => read.map(Some),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                Err(io::Error::other("the terminal's input has ended"))
            }
        }
    }
}

impl Drop for Events {
    /// Stops the reading thread within its poll interval. It is not waited for: on a terminal
    /// that is gone, it never comes back from crossterm.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
