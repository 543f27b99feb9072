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

use super::online_memory::OnlineMemory;
use super::progress_file::{load_progress, write_progress};
use super::session::{self, GameFiles, Session, new_save_name};
use super::settings::SettingsFile;
use crate::game::Game;
use crate::game::storage::{
    ListError, SaveEntry, SummaryCache, delete_save, latest_unfinished_with, list_saves_watched,
    rename_save,
};

use super::storage_jobs::{Done, GameId, Job, Saving};

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
            Job::RememberMuted { dir, server, names } => {
                Done::OnlineRemembered(OnlineMemory::remember_muted(&dir, &server, names))
            }
            Job::SaveOnline {
                game,
                server,
                dir,
                json,
            } => Done::OnlineSaved {
                game,
                result: save_online(&dir, server.as_deref(), game, &json),
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

/// Saves game `game` as `json` has it in `dir`: a finished game of `server` once, a game
/// saved as it stands (no server) as a new save each time.
fn save_online(dir: &Path, server: Option<&str>, game: u64, json: &str) -> Result<PathBuf, String> {
    let origin = server.map(|server| crate::game::storage::Origin { server, game });
    crate::game::storage::save_downloaded(dir, origin, json)
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
