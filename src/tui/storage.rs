//! The terminal game's storage, on a thread of its own: autosaves, saves, the list of saves,
//! loading one, and the settings file. The app asks for them ([`Job`], inside its effects) and
//! goes on drawing; each answer ([`Done`]) comes back on the event channel. Jobs run in the
//! order asked, except autosaves: only the latest waiting one of a game is written, so a slow
//! disk never piles them up.
//!
//! The thread keeps the files of each game ([`GameFiles`]: its own file and the version it
//! last saw there, its autosave), so that every write of a game knows what the writes before
//! it did.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::SystemTime;

use super::online_memory::OnlineMemory;
use super::progress_file::{load_progress, write_progress};
use super::session::{self, GameFiles, Session, new_save_name};
use super::settings::{Settings, SettingsFile};
use crate::game::storage::{
    ListError, ManageError, Progress, SaveEntry, SaveError, SaveKind, SummaryCache, delete_save,
    latest_unfinished_with, list_saves_watched, rename_save,
};
use crate::game::{Game, LoadError};

/// Identifies a game played in the app, so that each keeps its own files.
pub type GameId = u64;

/// A job for the storage thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// From now on, game `game` has `files` (a new game, or one loaded or continued).
    Track {
        /// The game.
        game: GameId,
        /// Its files as it starts.
        files: GameFiles,
    },
    /// Write `record`, game `game` as of its change number `revision`, to its autosave in the
    /// autosave folder of `save_dir`. Only the latest one waiting for a game is written.
    Autosave {
        /// The game.
        game: GameId,
        /// Its change number.
        revision: u64,
        /// The save folder.
        save_dir: PathBuf,
        /// The game record.
        record: Box<Game>,
    },
    /// Save `record`, game `game` as of `revision`, to `path` in the folder `dir`: over
    /// another file (or the game's own written by another program since) only if `replace`.
    Save {
        /// The game.
        game: GameId,
        /// Its change number.
        revision: u64,
        /// The folder typed.
        dir: PathBuf,
        /// The file.
        path: PathBuf,
        /// The game record.
        record: Box<Game>,
        /// Whether the player agreed to replace the file.
        replace: bool,
    },
    /// Find a name for a save of `record` that no file in `dir` has.
    NameSave {
        /// The folder.
        dir: PathBuf,
        /// The game record (its name comes from when it was created).
        record: Box<Game>,
    },
    /// List the saves in `dir`, telling game `game`'s own files.
    List {
        /// The game in play.
        game: GameId,
        /// The save folder.
        dir: PathBuf,
    },
    /// Find the latest unfinished game in `dir`, other than game `game`.
    FindUnfinished {
        /// The game in play.
        game: GameId,
        /// The save folder.
        dir: PathBuf,
    },
    /// Load a listed save.
    Open(SaveRef),
    /// Delete a listed save, if its file is still as listed.
    Delete(SaveRef),
    /// Give a listed save the path `to`, if its file is still as listed and no file is there.
    Rename {
        /// The save.
        save: SaveRef,
        /// Its new path.
        to: PathBuf,
    },
    /// Write the remembered choices, if they are not what the file holds.
    Remember(Settings),
    /// Remember in the config folder `dir` that `name` played on `server` (what online play
    /// remembers: the name, the servers).
    RememberOnline {
        /// The config folder.
        dir: PathBuf,
        /// `HOST:PORT` of the server.
        server: String,
        /// The name played under.
        name: String,
    },
    /// Save the finished online game `game`, as the server sent it (`json`), as a new save
    /// in `dir`.
    SaveOnline {
        /// The game's number on the server.
        game: u64,
        /// The save folder.
        dir: PathBuf,
        /// The game record the server sent.
        json: String,
    },
    /// Read the summaries of the saves in `dir` ahead, so that the list opens at once when
    /// asked for (only its progress is answered; and a list of `dir` asked while it reads,
    /// next in line, is answered by this reading).
    ReadAhead(PathBuf),
    /// Read the puzzle progress kept at this path.
    ReadPuzzleProgress(PathBuf),
    /// Write the puzzle progress, as JSON `text`, atomically to `path` (its folder made if
    /// need be).
    WritePuzzleProgress {
        /// The progress file.
        path: PathBuf,
        /// The progress as JSON.
        text: String,
    },
    /// Answer [`Done::Flushed`] with this number once every job asked before is done.
    Flush(u64),
    /// From now on, writes on the storage thread fail with this (`None`: they work again).
    #[cfg(test)]
    FailWrites(Option<std::io::ErrorKind>),
}

/// What a job came to.
#[derive(Debug)]
pub enum Done {
    /// An autosave of game `game` as of `revision` was written, or failed.
    Autosaved {
        /// The game.
        game: GameId,
        /// Its change number.
        revision: u64,
        /// Whether it was written.
        result: Result<(), SaveError>,
    },
    /// A save of game `game` as of `revision` to `path`.
    Saved {
        /// The game.
        game: GameId,
        /// Its change number.
        revision: u64,
        /// The file.
        path: PathBuf,
        /// How it went.
        outcome: Saving,
    },
    /// A name for a save in `dir`.
    Named {
        /// The folder.
        dir: PathBuf,
        /// The name, without `.json`.
        name: String,
    },
    /// The saves in `dir` are being read (for a list asked for, or ahead of one): this far.
    Reading {
        /// The folder.
        dir: PathBuf,
        /// How far.
        progress: Progress,
    },
    /// The saves in `dir`, newest first, and the files among them that hold the game in play.
    Listed {
        /// The folder.
        dir: PathBuf,
        /// The saves and the game's own files, or why the folder cannot be read.
        result: Result<(Vec<SaveEntry>, Vec<PathBuf>), ListError>,
    },
    /// The latest unfinished game other than the one in play, if any (a folder that cannot be
    /// read has none).
    Unfinished(Option<SaveEntry>),
    /// A listed save loaded, or why not.
    Opened {
        /// The save.
        save: SaveRef,
        /// The game and its files.
        result: Result<Box<Session>, LoadError>,
    },
    /// A listed save deleted, or why not.
    Deleted {
        /// The save.
        save: SaveRef,
        /// How it went.
        result: Result<(), ManageError>,
    },
    /// A listed save renamed to `to`, or why not.
    Renamed {
        /// The save.
        save: SaveRef,
        /// Its new path.
        to: PathBuf,
        /// How it went.
        result: Result<(), ManageError>,
    },
    /// The choices were remembered, or why not.
    Remembered(Result<(), SaveError>),
    /// What online play remembers was written, or why not (in words).
    OnlineRemembered(Result<(), String>),
    /// A finished online game was saved to this file, or why not (in words).
    OnlineSaved {
        /// The game's number on the server.
        game: u64,
        /// Its file, or why it was not written.
        result: Result<PathBuf, String>,
    },
    /// The puzzle progress read, and why the file was not used if it was not.
    PuzzleProgress(Box<crate::puzzle::Progress>, Option<String>),
    /// The puzzle progress written, or why not.
    PuzzleProgressWritten(Result<(), String>),
    /// Every job asked before [`Job::Flush`] with this number is done.
    Flushed(u64),
}

/// How a save went.
#[derive(Debug)]
pub enum Saving {
    /// Written: the game belongs to the file now.
    Saved,
    /// Not written: a file is there that is not the game's own, or the game's own was written
    /// by another program since (`changed`); it holds what `holds` says.
    Refused {
        /// What the file there holds, in words.
        holds: String,
        /// Whether it is the game's own file, changed since.
        changed: bool,
    },
    /// Not written: the folder typed is not one (why, in words).
    NoFolder(String),
    /// Not written: the write failed.
    Failed(SaveError),
}

/// A listed save to load: where it is, its name, and who wrote it when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveRef {
    /// The file.
    pub path: PathBuf,
    /// Its name as listed.
    pub name: String,
    /// Who wrote it.
    pub kind: SaveKind,
    /// When it was last written, as listed.
    pub modified: Option<SystemTime>,
}

impl From<&SaveEntry> for SaveRef {
    fn from(entry: &SaveEntry) -> SaveRef {
        SaveRef {
            path: entry.path.clone(),
            name: entry.name.clone(),
            kind: entry.kind,
            modified: entry.modified,
        }
    }
}

/// The storage thread. Dropping it lets the thread do every job asked, then waits for it.
pub struct StorageWorker {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// The jobs waiting, shared with the thread.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// No more jobs will come: the thread ends once the queue is empty.
    closed: bool,
}

impl StorageWorker {
    /// Starts the thread, writing the settings to `settings` and keeping the summaries of the
    /// saves listed in the index file `summaries` (if any, else in memory only); every answer
    /// is sent on `done` (as the channel's own type, so that answers can share a channel with
    /// other events).
    pub fn spawn<T: From<Done> + Send + 'static>(
        settings: SettingsFile,
        summaries: Option<PathBuf>,
        done: Sender<T>,
    ) -> io::Result<StorageWorker> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name("storage".to_owned())
            .spawn(move || {
                let report = done.clone();
                let mut store = Store {
                    games: HashMap::new(),
                    settings,
                    summaries: summaries.map_or_else(SummaryCache::default, SummaryCache::kept_in),
                    report: Box::new(move |answer| {
                        let _ = report.send(T::from(answer));
                    }),
                    shared: Arc::clone(&theirs),
                };
                while let Some(job) = theirs.next() {
                    if let Some(answer) = store.run(job)
                        && done.send(T::from(answer)).is_err()
                    {
                        return;
                    }
                    if theirs.idle() {
                        // Best effort: the index is a cache, rebuilt from the saves.
                        let _ = store.summaries.write_index();
                    }
                }
            })?;
        Ok(StorageWorker {
            shared,
            thread: Some(thread),
        })
    }

    /// Asks for `job` (see [`Queue::push`]).
    pub fn ask(&self, job: Job) {
        self.shared.lock().push(job);
        self.shared.ready.notify_one();
    }
}

impl Queue {
    /// Adds `job` last; an autosave replaces the one of the same game waiting, if any (it
    /// goes last all the same: after the jobs asked before it, a save among them, so that
    /// what it writes is never older than what they wrote).
    fn push(&mut self, job: Job) {
        if let Job::Autosave { game, .. } = &job {
            self.jobs
                .retain(|waiting| !matches!(waiting, Job::Autosave { game: g, .. } if g == game));
        }
        self.jobs.push_back(job);
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // A panic while the lock was held left the queue whole (pushes and pops only).
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the next job waiting if it is a list of the saves in `dir`, and gives its game.
    fn take_list_of(&self, dir: &Path) -> Option<GameId> {
        let mut queue = self.lock();
        let game = match queue.jobs.front() {
            Some(&Job::List {
                game,
                dir: ref asked,
            }) if asked == dir => game,
            _ => return None,
        };
        queue.jobs.pop_front();
        Some(game)
    }

    /// Whether no job waits.
    fn idle(&self) -> bool {
        self.lock().jobs.is_empty()
    }

    /// The next job, waiting for one; `None` once the queue is closed and empty.
    fn next(&self) -> Option<Job> {
        let mut queue = self.lock();
        loop {
            if let Some(job) = queue.jobs.pop_front() {
                return Some(job);
            }
            if queue.closed {
                return None;
            }
            queue = self
                .ready
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Drop for StorageWorker {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_one();
        if let Some(thread) = self.thread.take() {
            // A panic in the thread has already been reported by the panic hook.
            let _ = thread.join();
        }
    }
}

/// What the thread keeps: each game's files, the settings file, the summaries of the saves
/// read, and where to send what it says before a job is done (the progress of a listing).
struct Store {
    games: HashMap<GameId, GameFiles>,
    settings: SettingsFile,
    summaries: SummaryCache,
    report: Box<dyn FnMut(Done)>,
    /// The jobs waiting (a read-ahead answers the list asked while it read).
    shared: Arc<Shared>,
}

impl Store {
    /// Does `job`; returns its answer, if it has one.
    fn run(&mut self, job: Job) -> Option<Done> {
        let done = match job {
            Job::Track { game, files } => {
                self.games.insert(game, files);
                return None;
            }
            Job::Autosave {
                game,
                revision,
                save_dir,
                record,
            } => Done::Autosaved {
                game,
                revision,
                result: self.files(game).autosave(&save_dir, &record),
            },
            Job::Save {
                game,
                revision,
                dir,
                path,
                record,
                replace,
            } => {
                let outcome = self.save(game, &dir, &path, &record, replace);
                Done::Saved {
                    game,
                    revision,
                    path,
                    outcome,
                }
            }
            Job::NameSave { dir, record } => Done::Named {
                name: new_save_name(&dir, &record),
                dir,
            },
            Job::List { game, dir } => {
                let own = self.own_paths(game);
                Done::Listed {
                    result: self.list(&dir).map(|entries| (entries, own)),
                    dir,
                }
            }
            Job::FindUnfinished { game, dir } => {
                let own = self.own_paths(game);
                let own: Vec<&Path> = own.iter().map(PathBuf::as_path).collect();
                let latest = latest_unfinished_with(&dir, &own, &mut self.summaries);
                Done::Unfinished(latest.ok().flatten())
            }
            Job::Open(save) => Done::Opened {
                result: Session::open_save(&save.path, save.kind, save.modified).map(Box::new),
                save,
            },
            Job::Delete(save) => Done::Deleted {
                result: delete_save(&save.path, save.modified),
                save,
            },
            Job::Rename { save, to } => Done::Renamed {
                result: rename_save(&save.path, &to, save.modified),
                save,
                to,
            },
            Job::Remember(settings) => Done::Remembered(self.settings.remember(settings)),
            Job::RememberOnline { dir, server, name } => {
                Done::OnlineRemembered(OnlineMemory::remember_played(&dir, &server, &name))
            }
            Job::SaveOnline { game, dir, json } => Done::OnlineSaved {
                game,
                result: crate::game::storage::save_downloaded(&dir, &json),
            },
            Job::ReadAhead(dir) => {
                let listed = self.list(&dir);
                // A list of this folder asked meanwhile gets this one, which ended after it
                // was asked; else a folder that cannot be read says so when a list is.
                let game = self.shared.take_list_of(&dir)?;
                Done::Listed {
                    result: listed.map(|entries| (entries, self.own_paths(game))),
                    dir,
                }
            }
            Job::ReadPuzzleProgress(path) => {
                let (progress, warning) = load_progress(&path);
                Done::PuzzleProgress(Box::new(progress), warning)
            }
            Job::WritePuzzleProgress { path, text } => {
                Done::PuzzleProgressWritten(write_progress(&path, &text))
            }
            Job::Flush(n) => Done::Flushed(n),
            #[cfg(test)]
            Job::FailWrites(kind) => {
                crate::game::storage::fail_writes::inject(kind);
                return None;
            }
        };
        Some(done)
    }

    /// The saves in `dir`, saying how far the reading is as it goes.
    fn list(&mut self, dir: &Path) -> Result<Vec<SaveEntry>, ListError> {
        let report = &mut self.report;
        list_saves_watched(dir, &mut self.summaries, &mut |progress| {
            report(Done::Reading {
                dir: dir.to_owned(),
                progress,
            });
        })
    }

    /// The files of `game` (none yet if it was never tracked).
    fn files(&mut self, game: GameId) -> &mut GameFiles {
        self.games.entry(game).or_default()
    }

    /// The files that hold `game`.
    fn own_paths(&mut self, game: GameId) -> Vec<PathBuf> {
        self.files(game)
            .paths()
            .into_iter()
            .map(Path::to_owned)
            .collect()
    }

    /// Saves `record` of `game` to `path` in `dir`, never over another file unless `replace`.
    fn save(
        &mut self,
        game: GameId,
        dir: &Path,
        path: &Path,
        record: &Game,
        replace: bool,
    ) -> Saving {
        if !dir.is_dir() {
            return Saving::NoFolder(if dir.exists() {
                format!("{} is a file, not a folder", dir.display())
            } else {
                format!("there is no folder {}", dir.display())
            });
        }
        let files = self.files(game);
        let saved = if replace {
            files.replace(path, record)
        } else {
            files.save(path, record)
        };
        match saved {
            Ok(_) => Saving::Saved,
            Err(e) if e.already_exists() || e.changed_since_seen() => Saving::Refused {
                holds: session::describe(path),
                changed: e.changed_since_seen(),
            },
            Err(e) => Saving::Failed(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;
    use crate::game::Player;
    use crate::rules::{Position, Preset};

    fn game(moves: &[&str]) -> Box<Game> {
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        for mv in moves {
            game.play_text(mv).unwrap();
        }
        Box::new(game)
    }

    fn autosave(game: GameId, revision: u64) -> Job {
        Job::Autosave {
            game,
            revision,
            save_dir: PathBuf::from("/nowhere"),
            record: super::tests::game(&[]),
        }
    }

    #[test]
    fn a_read_ahead_answers_the_list_of_its_folder_asked_next_and_no_other() {
        let shared = Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
        };
        let list = |dir: &str| Job::List {
            game: 7,
            dir: PathBuf::from(dir),
        };
        let saves = Path::new("/saves");
        shared.lock().push(list("/elsewhere"));
        assert_eq!(shared.take_list_of(saves), None, "another folder");
        shared.lock().jobs.clear();
        shared.lock().push(autosave(1, 1));
        shared.lock().push(list("/saves"));
        assert_eq!(shared.take_list_of(saves), None, "not next in line");
        shared.lock().jobs.pop_front();
        assert_eq!(shared.take_list_of(saves), Some(7));
        assert!(shared.idle(), "taken from the queue");
    }

    #[test]
    fn only_the_latest_autosave_of_a_game_waits_and_it_goes_last() {
        let mut queue = Queue::default();
        let save = Job::Save {
            game: 1,
            revision: 1,
            dir: PathBuf::from("/nowhere"),
            path: PathBuf::from("/nowhere/a.json"),
            record: game(&[]),
            replace: false,
        };
        for job in [
            autosave(1, 1),
            save.clone(),
            autosave(1, 2),
            autosave(2, 1),
            autosave(1, 3),
        ] {
            queue.push(job);
        }
        assert_eq!(
            Vec::from(queue.jobs),
            [save, autosave(2, 1), autosave(1, 3)]
        );
    }

    #[test]
    fn jobs_are_answered_in_order_and_the_autosave_goes_once_the_game_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, rx) = mpsc::channel();
        let worker = StorageWorker::spawn(SettingsFile::none(), None, tx).unwrap();
        let answer = || rx.recv_timeout(Duration::from_secs(30)).unwrap();
        worker.ask(Job::Track {
            game: 1,
            files: GameFiles::default(),
        });
        worker.ask(Job::Autosave {
            game: 1,
            revision: 1,
            save_dir: dir.path().to_owned(),
            record: game(&["d2-e2"]),
        });
        let Done::Autosaved {
            game: 1,
            revision: 1,
            result: Ok(()),
        } = answer()
        else {
            panic!("autosaved")
        };
        let autosaves = dir.path().join(crate::game::storage::AUTOSAVE_DIR);
        assert_eq!(std::fs::read_dir(&autosaves).unwrap().count(), 1);
        let path = dir.path().join("kept.json");
        let save = |replace| Job::Save {
            game: 1,
            revision: 1,
            dir: dir.path().to_owned(),
            path: path.clone(),
            record: game(&["d2-e2"]),
            replace,
        };
        worker.ask(save(false));
        worker.ask(Job::Flush(7));
        let Done::Saved {
            outcome: Saving::Saved,
            ..
        } = answer()
        else {
            panic!("saved")
        };
        assert!(matches!(answer(), Done::Flushed(7)));
        assert_eq!(
            std::fs::read_dir(&autosaves).unwrap().count(),
            0,
            "the autosave is not needed any more"
        );
        // Another game's save there is refused, and says what the file holds.
        worker.ask(Job::Save {
            game: 2,
            revision: 1,
            dir: dir.path().to_owned(),
            path: path.clone(),
            record: game(&["d2-c2"]),
            replace: false,
        });
        let Done::Saved {
            outcome: Saving::Refused { holds, changed },
            ..
        } = answer()
        else {
            panic!("refused")
        };
        assert!(!changed && holds.contains("1 ply"), "{holds}");
        worker.ask(Job::List {
            game: 1,
            dir: dir.path().to_owned(),
        });
        let Done::Listed {
            result: Ok((entries, own)),
            ..
        } = answer()
        else {
            panic!("listed")
        };
        assert_eq!(entries.len(), 1);
        assert_eq!(own, [path]);
    }
}
