//! Reads off the hub's thread: a page of a player's archive and a finished game's download
//! are read by threads of their own, each on a read-only connection to the database (WAL
//! lets them read while the hub writes), and answered straight into the asking connection's
//! queue, so the hub hands a read over and goes on relaying moves. Reads in flight are
//! capped: one beyond the cap is refused at once, and a connection whose queue an answer
//! would overfill is cut off by the hub, as for any line.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use tokio::sync::mpsc::WeakUnboundedSender;

use super::conn_id::ConnId;
use super::event::Event;
use super::outbox::Outbox;
use super::store::ratings;
use super::store::read::{self, ArchivePage};
use crate::net::protocol::{ErrorCode, GameId, ServerMessage};
use crate::net::ratings::Pool;

/// The threads that read, each on its own connection.
const READERS: usize = 2;

/// Reads waiting for a reader, at most: with those being read, the cap of reads in flight.
pub(super) const READS_WAITING: usize = 32;

/// How long a reader waits for the database when the writer holds it (only while the log
/// is started again, for a moment: WAL readers do not wait for the writer otherwise).
const BUSY_WAIT: Duration = Duration::from_secs(1);

/// What is read.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) enum Ask {
    /// Page `page` of the finished games of the player named `name`.
    Archive { name: String, page: u32 },
    /// Finished game `game`, as a save.
    Download { game: GameId },
    /// Page `page` of `pool`'s leaderboard.
    Leaderboard { pool: Pool, page: u32 },
    /// The profile of the player named `name`, who is online or not, and plays or not.
    Profile {
        name: String,
        online: bool,
        playing: bool,
    },
}

/// A read handed to the readers: what, and where its answer goes.
pub(super) struct Read {
    /// The connection that asked.
    pub conn: ConnId,
    /// What it asked.
    pub ask: Ask,
    /// Its queue.
    pub out: Outbox,
    /// Set while the answer is on its way and queued, for a request that is not answered
    /// twice (see [`Outbox::send_flagged`]); cleared if no answer is queued.
    pub queued: Option<Arc<AtomicBool>>,
}

/// A read refused: the error's code and words.
type Refused = (ErrorCode, String);

/// Every reader is busy and the reads waiting are at their cap.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) struct Busy;

/// Something each reader does before a read, for tests (a read held up on a seam).
#[cfg(test)]
type BeforeRead = Arc<Mutex<Option<Arc<dyn Fn() + Send + Sync>>>>;

/// The readers: their threads, and the queue of reads waiting for one.
pub(super) struct Readers {
    reads: Option<mpsc::SyncSender<Read>>,
    threads: Vec<JoinHandle<()>>,
    #[cfg(test)]
    before_read: BeforeRead,
}

impl Readers {
    /// Starts the readers on the database in `file`; `events` is the hub's inbox, told of
    /// a connection to cut off.
    pub fn start(
        file: &Path,
        events: &WeakUnboundedSender<Event>,
    ) -> Result<Readers, Box<dyn std::error::Error + Send + Sync>> {
        let (reads, waiting) = mpsc::sync_channel(READS_WAITING);
        let waiting = Arc::new(Mutex::new(waiting));
        #[cfg(test)]
        let before_read = BeforeRead::default();
        let mut threads = Vec::with_capacity(READERS);
        for n in 0..READERS {
            let reader = Reader {
                db: open_read_only(file)?,
                waiting: Arc::clone(&waiting),
                events: events.clone(),
                #[cfg(test)]
                before_read: Arc::clone(&before_read),
            };
            let thread = std::thread::Builder::new()
                .name(format!("brandubh-reader-{n}"))
                .spawn(move || reader.serve())?;
            threads.push(thread);
        }
        Ok(Readers {
            reads: Some(reads),
            threads,
            #[cfg(test)]
            before_read,
        })
    }

    /// Hands `read` to the readers, or refuses it when as many reads as may be are in
    /// flight already.
    pub fn read(&self, read: Read) -> Result<(), Busy> {
        let reads = self.reads.as_ref().ok_or(Busy)?;
        reads.try_send(read).map_err(|_| Busy)
    }

    /// Stops the readers once the reads waiting are answered, and waits for them.
    pub fn stop(mut self) {
        self.reads = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }

    /// Has each reader call `hook` before each read from now on (a test holds a read up).
    #[cfg(test)]
    pub fn before_each_read(&self, hook: impl Fn() + Send + Sync + 'static) {
        *self
            .before_read
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(hook));
    }
}

/// A read-only connection to the database in `file`.
fn open_read_only(file: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let db = Connection::open_with_flags(file, flags)?;
    db.busy_timeout(BUSY_WAIT)?;
    Ok(db)
}

/// One reader's thread.
struct Reader {
    db: Connection,
    waiting: Arc<Mutex<mpsc::Receiver<Read>>>,
    events: WeakUnboundedSender<Event>,
    #[cfg(test)]
    before_read: BeforeRead,
}

impl Reader {
    /// Answers reads until the readers stop.
    fn serve(&self) {
        loop {
            let next = self
                .waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .recv();
            let Ok(read) = next else {
                return;
            };
            #[cfg(test)]
            self.held_up();
            // A fault in a read (a game that cannot be replayed) ends that read alone.
            let answer = catch_unwind(AssertUnwindSafe(|| answer(&self.db, &read.ask)))
                .unwrap_or_else(|_| {
                    tracing::error!(ask = ?read.ask, "a fault while reading");
                    Err(cannot_read())
                });
            self.deliver(&read, answer);
        }
    }

    /// Queues `answer` (a refusal logged as such) for the connection that asked; one whose
    /// queue is full is cut off by the hub.
    fn deliver(&self, read: &Read, answer: Result<ServerMessage, Refused>) {
        let sent = match (answer, &read.queued) {
            (Ok(message), Some(queued)) => read.out.send_flagged(&message, queued),
            (Ok(message), None) => read.out.send(&message),
            (Err((code, message)), queued) => {
                super::log::refused(read.conn, "request refused", &(code, &message));
                if let Some(queued) = queued {
                    queued.store(false, Ordering::Release);
                }
                read.out.send(&ServerMessage::error(code, message))
            }
        };
        if sent.is_err()
            && let Some(events) = self.events.upgrade()
        {
            let _ = events.send(Event::Cut { conn: read.conn });
        }
    }

    /// Calls the test's hook, if one is set.
    #[cfg(test)]
    fn held_up(&self) {
        let hook = self
            .before_read
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(hook) = hook {
            hook();
        }
    }
}

/// The answer to `ask`, read on `db`, or the refusal; a row that cannot be read back is
/// logged as an error with its game's number, and left out.
fn answer(db: &Connection, ask: &Ask) -> Result<ServerMessage, Refused> {
    match ask {
        Ask::Archive { name, page } => {
            let ArchivePage {
                games,
                page,
                total,
                unreadable,
            } = read::archive(db, name, *page).map_err(|e| read_error(&e))?;
            for game in unreadable {
                tracing::error!(
                    game = game.id,
                    "cannot be read back, left out of the archive: {}",
                    game.why
                );
            }
            Ok(ServerMessage::Archive {
                name: name.clone(),
                games,
                page,
                total,
            })
        }
        Ask::Download { game } => match read::finished(db, *game).map_err(|e| read_error(&e))? {
            Some(Ok(stored)) => {
                let chat = read::saved_chat(db, *game).map_err(|e| read_error(&e))?;
                Ok(ServerMessage::Save {
                    game: *game,
                    json: stored.save_json(chat),
                })
            }
            Some(Err(unreadable)) => {
                tracing::error!(game, "cannot be read back: {}", unreadable.why);
                Err((
                    ErrorCode::NoGame,
                    format!("finished game {game} cannot be read back"),
                ))
            }
            None => Err((ErrorCode::NoGame, format!("no finished game {game}"))),
        },
        Ask::Leaderboard { pool, page } => ratings::leaderboard(db, *pool, *page)
            .map(ServerMessage::Leaderboard)
            .map_err(|e| read_error(&e)),
        Ask::Profile {
            name,
            online,
            playing,
        } => {
            let mut profile = ratings::profile(db, name).map_err(|e| read_error(&e))?;
            (profile.online, profile.playing) = (*online, *playing);
            Ok(ServerMessage::Profile(Box::new(profile)))
        }
    }
}

/// A read that failed: logged, and refused with `not_now`.
fn read_error(e: &rusqlite::Error) -> Refused {
    tracing::error!("database: {e}");
    cannot_read()
}

/// The refusal of a read that failed.
fn cannot_read() -> Refused {
    (
        ErrorCode::NotNow,
        "the server cannot read this now: try again later".to_owned(),
    )
}
