//! The one channel the event loop waits on: terminal input (keys, clicks, resizes, read on a
//! thread of their own), the AI worker's reports, the storage thread's answers and the ending
//! signals all arrive here, so the loop blocks in one place, until the next event or the next
//! deadline, and never polls.
//!
//! Once the terminal is gone (a hangup), crossterm's reader spins without returning (crossterm
//! issue #793); the reading thread is then stuck until the program ends, which is at once: the
//! loop sees the hangup by itself (see `tui::run`).

use std::io;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Instant;

use ratatui::crossterm::event;

use super::storage_jobs::Done;
use crate::ai::Report;

/// Something the event loop reacts to.
#[derive(Debug)]
pub(super) enum Event {
    /// A key, a click or a resize.
    Terminal(event::Event),
    /// Reading the terminal failed: no more input will come.
    InputFailed(io::Error),
    /// A report of the AI worker.
    Engine(Report),
    /// An answer of the storage thread.
    Stored(Done),
    /// What the online client reports.
    Net(crate::net::client::Event),
    /// The exact solver's judgement of the puzzle trainer's check number `id`.
    Judged {
        /// The check's number.
        id: u64,
        /// What the move comes to.
        verdict: crate::puzzle::Verdict,
    },
    /// An ending signal came (its number).
    Signal(i32),
    /// SIGTSTP came (`kill -TSTP`; Ctrl-z is a key in raw mode): the game is to give the
    /// terminal back and stop.
    Suspend,
    /// SIGCONT came: the game was stopped (by itself or by another), the terminal may have
    /// been changed meanwhile: everything is to be drawn again.
    Continued,
}

impl From<Report> for Event {
    fn from(report: Report) -> Event {
        Event::Engine(report)
    }
}

impl From<crate::net::client::Event> for Event {
    fn from(event: crate::net::client::Event) -> Event {
        Event::Net(event)
    }
}

impl From<Done> for Event {
    fn from(done: Done) -> Event {
        Event::Stored(done)
    }
}

/// The channel every event comes in on.
pub(super) struct Events {
    tx: Sender<Event>,
    rx: Receiver<Event>,
}

impl Events {
    /// A channel with nothing on it yet.
    pub(super) fn new() -> Events {
        let (tx, rx) = mpsc::channel();
        Events { tx, rx }
    }

    /// A sender for a source of events (a worker, a reading thread).
    pub(super) fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// The next event, waiting for it until `deadline`; `None` if the deadline came first.
    pub(super) fn next(&self, deadline: Instant) -> Option<Event> {
        // The channel keeps a sender of its own: it never disconnects.
        self.rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .ok()
    }

    /// The next event, waiting for it as long as it takes (`None` never comes: the channel
    /// keeps a sender of its own).
    pub(super) fn wait(&self) -> Option<Event> {
        self.rx.recv().ok()
    }

    /// The next event if one is waiting.
    pub(super) fn try_next(&self) -> Option<Event> {
        self.rx.try_recv().ok()
    }
}

/// Reads the terminal's events on a thread of its own, each sent on `events` as it comes; a
/// failure is sent last. The thread is not waited for: on a terminal that is gone it never
/// comes back from crossterm, and otherwise it ends with the program.
pub(super) fn read_terminal(events: Sender<Event>) -> io::Result<()> {
    thread::Builder::new()
        .name("terminal input".to_owned())
        .spawn(move || {
            loop {
                let sent = match event::read() {
                    Ok(event) => events.send(Event::Terminal(event)),
                    Err(e) => {
                        let _ = events.send(Event::InputFailed(e));
                        return;
                    }
                };
                if sent.is_err() {
                    return;
                }
            }
        })?;
    Ok(())
}
