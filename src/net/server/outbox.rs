//! A connection's send queue, bounded in bytes: the hub (and the connection's reader, for its
//! refusals) put encoded lines in; the connection's writer takes them out. A line that would
//! take the queue over its bound is refused: the reader at the other end has fallen behind,
//! and the hub cuts it off. A line may carry a flag that says whether it is still queued, so
//! that a request repeated before its answer has left is answered once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::mpsc;

use crate::net::protocol::ServerMessage;

/// What goes to a connection's writer.
#[derive(Debug)]
enum Queued {
    /// A line (without its end), and the flag cleared once it leaves the queue.
    Line(String, Option<Arc<AtomicBool>>),
    /// Close the connection (after what is queued before).
    Close,
}

/// The queue is full: the reader at the other end has fallen behind.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) struct Full;

/// The sending end of a connection's queue.
#[derive(Clone, Debug)]
pub(super) struct Outbox {
    lines: mpsc::UnboundedSender<Queued>,
    bytes: Arc<AtomicUsize>,
    limit: usize,
}

/// The writer's end of a connection's queue.
#[derive(Debug)]
pub(super) struct Inbox {
    lines: mpsc::UnboundedReceiver<Queued>,
    bytes: Arc<AtomicUsize>,
}

/// A queue that holds at most `limit` bytes of lines.
pub(super) fn queue(limit: usize) -> (Outbox, Inbox) {
    let (lines, receiver) = mpsc::unbounded_channel();
    let bytes = Arc::new(AtomicUsize::new(0));
    let outbox = Outbox {
        lines,
        bytes: Arc::clone(&bytes),
        limit,
    };
    (
        outbox,
        Inbox {
            lines: receiver,
            bytes,
        },
    )
}

impl Outbox {
    /// Queues `message`.
    pub fn send(&self, message: &ServerMessage) -> Result<(), Full> {
        self.push(message.to_line(), None)
    }

    /// Queues `message` with `queued`, a flag set now that stays set while it is queued
    /// (cleared at once if it is not).
    pub fn send_flagged(
        &self,
        message: &ServerMessage,
        queued: &Arc<AtomicBool>,
    ) -> Result<(), Full> {
        queued.store(true, Ordering::Release);
        let pushed = self.push(message.to_line(), Some(Arc::clone(queued)));
        if pushed.is_err() {
            queued.store(false, Ordering::Release);
        }
        pushed
    }

    /// Asks the writer to close the connection once what is queued is written.
    pub fn close(&self) {
        let _ = self.lines.send(Queued::Close);
    }

    fn push(&self, line: String, queued: Option<Arc<AtomicBool>>) -> Result<(), Full> {
        let size = line.len();
        let held = self.bytes.fetch_add(size, Ordering::AcqRel);
        if held.saturating_add(size) > self.limit {
            self.bytes.fetch_sub(size, Ordering::AcqRel);
            return Err(Full);
        }
        self.lines
            .send(Queued::Line(line, queued))
            // The writer is gone: the connection is ending anyway.
            .map_err(|_| Full)
    }
}

impl Inbox {
    /// The next line to write; `None` when the connection is to close.
    pub async fn next(&mut self) -> Option<String> {
        let next = self.lines.recv().await?;
        self.taken(next)
    }

    /// The next line to write if one is queued now.
    #[cfg(test)]
    pub fn try_next(&mut self) -> Option<String> {
        let next = self.lines.try_recv().ok()?;
        self.taken(next)
    }

    /// The bytes of the lines queued now.
    #[cfg(test)]
    pub fn queued_bytes(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }

    /// `next`, taken out of the queue.
    fn taken(&self, next: Queued) -> Option<String> {
        match next {
            Queued::Line(line, queued) => {
                self.bytes.fetch_sub(line.len(), Ordering::AcqRel);
                if let Some(queued) = queued {
                    queued.store(false, Ordering::Release);
                }
                Some(line)
            }
            Queued::Close => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pong(id: u64) -> ServerMessage {
        ServerMessage::Pong { id }
    }

    #[tokio::test]
    async fn a_queue_holds_lines_up_to_its_bytes_and_frees_them_as_they_are_written() {
        let size = pong(1).to_line().len();
        let (outbox, mut inbox) = queue(3 * size);
        for id in 1..=3 {
            assert_eq!(outbox.send(&pong(id)), Ok(()));
        }
        assert_eq!(outbox.send(&pong(4)), Err(Full), "over the bound");
        assert_eq!(inbox.next().await, Some(pong(1).to_line()));
        assert_eq!(outbox.send(&pong(4)), Ok(()), "room again");
        outbox.close();
        for id in 2..=4 {
            assert_eq!(inbox.next().await, Some(pong(id).to_line()));
        }
        assert_eq!(inbox.next().await, None, "closed");
    }

    #[tokio::test]
    async fn a_flagged_line_is_marked_queued_until_it_is_taken() {
        let (outbox, mut inbox) = queue(1 << 20);
        let queued = Arc::new(AtomicBool::new(false));
        outbox.send_flagged(&pong(1), &queued).unwrap();
        assert!(queued.load(Ordering::Acquire));
        inbox.next().await;
        assert!(!queued.load(Ordering::Acquire));
    }
}
