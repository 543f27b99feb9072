//! What the app asks of the storage thread ([`Job`]) and what comes back ([`Done`]): plain
//! data, below the effects that carry the jobs and the thread that does them.

use std::path::PathBuf;
use std::time::SystemTime;

use super::session::{GameFiles, Session};
use super::settings::Settings;
use crate::game::storage::{ListError, ManageError, Progress, SaveEntry, SaveError, SaveKind};
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
    /// Remember in the config folder `dir` that `names` are muted on `server`.
    RememberMuted {
        /// The config folder.
        dir: PathBuf,
        /// `HOST:PORT` of the server.
        server: String,
        /// The names muted there.
        names: std::collections::BTreeSet<String>,
    },
    /// Save the finished online game `game` of `server`, as the server sent it (`json`), in
    /// `dir` (once: a game saved before is recognised).
    SaveOnline {
        /// The game's number on the server.
        game: u64,
        /// `HOST:PORT` of the server of a finished game (`None`: a game saved as it stands,
        /// a new save each time).
        server: Option<String>,
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
