//! Saving and loading from the app: the save prompt and the question before replacing a save,
//! the list of saves, the game to continue, the autosave, and leaving a game only when it is
//! kept. The files are written and read by the storage thread: the app asks for it
//! ([`Job`]) and takes its answers ([`Done`]).

use std::path::{Path, PathBuf};

use super::{LocalGame, Overlay};
use crate::game::Game;
use crate::game::storage::{ManageError, Progress, SAVE_DIR_ENV, SaveEntry, SaveError, SaveKind};
use crate::rules::Side;
use crate::tui::dialogs::{Leaving, Overwrite, Question, SavePrompt};
use crate::tui::effect::Effect;
use crate::tui::saves_list::{RenamePrompt, SavesList};
use crate::tui::screens::SetupForm;
use crate::tui::session::Session;
use crate::tui::storage_jobs::{Done, GameId, Job, SaveRef, Saving};
use crate::tui::text::{Status, printable};

impl LocalGame {
    /// Why leaving the game now would lose it: it has moves not saved to a file and no
    /// working autosave. `None` when it is kept.
    fn unkept(&self) -> Option<String> {
        if !self.is_dirty() {
            return None;
        }
        if self.storage.save_dir.is_none() {
            return Some("there is no save folder for the autosave".to_owned());
        }
        self.autosave_error
            .as_ref()
            .map(|e| format!("the autosave failed ({e})"))
    }

    /// What the game has that no file holds, as a sentence.
    fn unsaved_changes(&self) -> String {
        match &self.in_file {
            Some(copy) => copy.changes(self.session.game()),
            None => "The game is not saved to a file".to_owned(),
        }
    }

    /// Leaves the game for `to`, asking first when it has changes no file holds (quitting) or
    /// would be lost (a new game or another loaded one: the autosave keeps it otherwise).
    /// While an autosave is being written, whether it keeps the game is not known yet: the
    /// question waits for it.
    pub(super) fn ask_leave(&mut self, to: Leaving) {
        if self.autosave_pending() {
            self.waiting.leaving = Some(to);
            return;
        }
        let lost = self.unkept();
        // Quitting asks for any change no file holds, even one the autosave keeps.
        if lost.is_some() || (to == Leaving::Quit && self.is_dirty()) {
            let unsaved = self.unsaved_changes();
            let finished = self.session.game().outcome().is_some();
            self.show(Overlay::Question(Question::Leave {
                to,
                lost,
                unsaved,
                finished,
            }));
        } else {
            self.leave(to);
        }
    }

    /// Leaves the game for `to`.
    pub(super) fn leave(&mut self, to: Leaving) {
        match to {
            Leaving::Quit => self.quit = true,
            Leaving::NewGame => {
                self.cancel_thinking();
                self.show_setup(SetupForm::new(
                    self.session.preset().unwrap_or_default(),
                    self.session.player(Side::Attackers),
                    self.session.player(Side::Defenders),
                ));
            }
            Leaving::Load => self.ask_load(),
            Leaving::PlayFromHere(ply) => self.play_from_here(ply),
        }
    }

    /// Asks the storage thread for `job`, whose answer the app waits for: the player's next
    /// key is read once it has come.
    fn ask_storage(&mut self, job: Job) {
        self.waiting.awaited += 1;
        self.effects.push(Effect::Store(job));
    }

    /// Whether the app waits for an answer of the storage thread before it reads the next
    /// key (a save, the list of saves, a game to load or continue, or an autosave that
    /// decides whether leaving the game loses it).
    pub(super) fn awaits_storage(&self) -> bool {
        self.waiting.awaited > 0 || self.waiting.leaving.is_some()
    }

    /// Whether an autosave asked for has not been answered yet.
    fn autosave_pending(&self) -> bool {
        self.waiting.autosaved < self.waiting.autosave_asked
    }

    /// Asks for the game as it is now to be autosaved, if there is a save folder.
    pub(super) fn autosave(&mut self) {
        let Some(save_dir) = self.storage.save_dir.clone() else {
            return;
        };
        self.waiting.autosave_asked = self.revision;
        self.waiting.status_at_autosave = self.status.clone();
        self.effects.push(Effect::Store(Job::Autosave {
            game: self.game_id,
            revision: self.revision,
            save_dir,
            record: Box::new(self.session.game().clone()),
        }));
    }

    /// From now on, the game in play is a new one with the files of `session`.
    pub(super) fn track(&mut self) {
        self.game_id += 1;
        self.waiting.autosave_asked = 0;
        self.waiting.autosaved = 0;
        self.effects.push(Effect::Store(Job::Track {
            game: self.game_id,
            files: self.session.files().clone(),
        }));
    }

    /// Offers to save the game: a name in the save folder (or in its own file's folder).
    /// When the autosave failed there, or there is no save folder, the prompt asks for
    /// another folder first. The prompt leaves for `then` once the game is saved. A new
    /// game's name is found by the storage thread (a name no file there has).
    pub(super) fn ask_save(&mut self, then: Option<Leaving>) {
        let dir = self.save_place().0;
        if let Some(name) = self.session.own_save_name() {
            self.show_save_prompt(&dir, name, then);
        } else {
            self.waiting.prompt_leaving = then;
            let record = Box::new(self.session.game().clone());
            self.ask_storage(Job::NameSave { dir, record });
        }
    }

    /// Where a save is offered, and why there if it is not the usual folder.
    fn save_place(&self) -> (PathBuf, Option<String>) {
        let folder = self.session.save_folder(self.storage.save_dir.as_deref());
        match (folder, &self.autosave_error) {
            (Some(dir), None) => (dir, None),
            (Some(dir), Some(e)) => {
                let why = format!("the autosave failed here ({e}): type another folder");
                (dir, Some(why))
            }
            (None, _) => {
                let home = directories::BaseDirs::new()
                    .map_or_else(|| Path::new("/").to_owned(), |b| b.home_dir().to_owned());
                (home, Some("there is no save folder: type one".to_owned()))
            }
        }
    }

    /// Shows the save prompt in `dir` with `name`, leaving for `then` once saved.
    fn show_save_prompt(&mut self, dir: &Path, name: String, then: Option<Leaving>) {
        let prompt = match self.save_place().1 {
            None => SavePrompt::new(dir, name),
            Some(why) => SavePrompt::elsewhere(dir, name, why),
        };
        let prompt = match then {
            Some(to) => prompt.then_leave(to),
            None => prompt,
        };
        self.show(Overlay::Save(prompt));
    }

    /// Enter in the save prompt: saves under the typed name if it is a valid one. A file of
    /// that name other than the game's own, or the game's own written by another program since
    /// this game last read or wrote it, is never replaced without a question; a failure keeps
    /// the prompt open with the reason. The prompt stays on screen while the game is written
    /// (and shows why a name is refused).
    pub(super) fn confirm_save(&mut self, prompt: &SavePrompt) {
        if let (Ok(dir), Ok(name)) = (prompt.dir(), prompt.name()) {
            let path = name.path_in(&dir);
            self.ask_save_to(dir, path, false);
        }
    }

    /// Asks for the game to be saved to `path` in `dir`, over another file if `replace`.
    fn ask_save_to(&mut self, dir: PathBuf, path: PathBuf, replace: bool) {
        self.ask_storage(Job::Save {
            game: self.game_id,
            revision: self.revision,
            dir,
            path,
            record: Box::new(self.session.game().clone()),
            replace,
        });
    }

    /// The player agreed to replace the file `overwrite.path`: the prompt shows while it is
    /// written.
    pub(super) fn overwrite(&mut self, overwrite: Overwrite) {
        let Overwrite { prompt, path, .. } = overwrite;
        if let Ok(dir) = prompt.dir() {
            self.ask_save_to(dir, path, true);
        }
        self.show(Overlay::Save(prompt));
    }

    /// Goes where the question that opened `prompt` was leaving for, if it was.
    fn leave_after_save(&mut self, prompt: &SavePrompt) {
        if let Some(to) = prompt.leaving() {
            self.leave(to);
        }
    }

    /// Shows the saved games to choose from, once the storage thread has listed them.
    pub(super) fn ask_load(&mut self) {
        let Some(dir) = self.storage.save_dir.clone() else {
            self.no_save_dir();
            return;
        };
        self.waiting.list_asked = true;
        self.ask_storage(Job::List {
            game: self.game_id,
            dir,
        });
    }

    /// The saves are being read for the list asked for: the list shows how far.
    fn reading(&mut self, dir: PathBuf, progress: Progress) {
        if !self.waiting.list_asked {
            return;
        }
        if let Some(Overlay::Load(list)) = self.overlays.last_mut() {
            list.set_progress(progress);
        } else {
            self.show(Overlay::Load(SavesList::reading(dir, progress)));
        }
    }

    /// The player asks to delete `save` selected in the list, or to rename it (in the list's
    /// folder `rename_in`): the question or the prompt shows over the list, unless the save
    /// holds the game in play (`in_play`).
    pub(super) fn manage_save(&mut self, save: SaveRef, in_play: bool, rename_in: Option<PathBuf>) {
        let rename = rename_in.is_some();
        if in_play {
            self.error(format!(
                "\"{}\" holds the game in play: it is not {} while played",
                save.name,
                if rename { "renamed" } else { "deleted" }
            ));
        } else if let Some(dir) = rename_in {
            self.show(Overlay::Rename(RenamePrompt::new(save, dir)));
        } else {
            self.show(Overlay::Question(Question::Delete(save)));
        }
    }

    /// Renames the save of `prompt` to the name typed; the prompt shows while it is.
    pub(super) fn rename_save(&mut self, prompt: RenamePrompt) {
        if let Ok(to) = prompt.destination() {
            self.ask_storage(Job::Rename {
                save: prompt.save().clone(),
                to,
            });
        }
        self.show(Overlay::Rename(prompt));
    }

    /// Deletes a listed save; the list shows while it is.
    pub(super) fn delete_save(&mut self, save: SaveRef) {
        self.ask_storage(Job::Delete(save));
    }

    /// A listed save was deleted, or not.
    fn deleted(&mut self, save: &SaveRef, result: Result<(), ManageError>) {
        match result {
            Ok(()) => {
                if let Some(Overlay::Load(list)) = self.overlays.last_mut() {
                    list.remove(&save.path);
                }
                self.info(format!("deleted {}", save.name));
            }
            Err(e) => self.error(format!("\"{}\" not deleted: {e}", save.name)),
        }
    }

    /// A listed save was renamed to `to`, or not (the prompt says why, and stays).
    fn renamed(&mut self, save: &SaveRef, to: &Path, result: Result<(), ManageError>) {
        let Some(Overlay::Rename(mut prompt)) =
            self.overlays.pop_if(|o| matches!(o, Overlay::Rename(_)))
        else {
            return;
        };
        match result {
            Ok(()) => {
                if let Some(Overlay::Load(list)) = self.overlays.last_mut() {
                    list.renamed(&save.path, to);
                }
                self.info(format!("renamed {} to {}", save.name, to.display()));
            }
            Err(ManageError::Taken) => {
                let name = to.file_stem().unwrap_or_default().to_string_lossy();
                prompt.set_failure(format!("a save named \"{name}\" exists: choose another"));
                self.show(Overlay::Rename(prompt));
            }
            Err(e) => {
                prompt.set_failure(format!("not renamed: {e}"));
                self.show(Overlay::Rename(prompt));
            }
        }
    }

    /// Plays the game of a listed save, once the storage thread has loaded it: a named save
    /// as its file holds it, an autosave as a game continued.
    pub(super) fn open(&mut self, save: SaveRef) {
        self.ask_storage(Job::Open(save));
    }

    /// Looks for the game the new-game screen offers to continue: the latest unfinished one
    /// in the save folder other than the game in play.
    pub(super) fn find_unfinished(&mut self) {
        if let Some(dir) = self.storage.save_dir.clone() {
            self.ask_storage(Job::FindUnfinished {
                game: self.game_id,
                dir,
            });
        }
    }

    fn no_save_dir(&mut self) {
        self.error(format!("no save folder: set {SAVE_DIR_ENV} or HOME"));
    }

    /// Takes an answer of the storage thread.
    pub(super) fn on_stored(&mut self, done: Done) -> Vec<Effect> {
        match done {
            Done::Autosaved {
                game,
                revision,
                result,
            } => self.autosaved(game, revision, result),
            Done::Remembered(result) => {
                if let Err(e) = result {
                    self.error(format!("settings not remembered: {e}"));
                }
            }
            // Online play has closed since it asked.
            Done::OnlineRemembered(result) => {
                if let Err(e) = result {
                    self.error(format!("the server and name are not remembered: {e}"));
                }
            }
            Done::OnlineSaved { game, result } => match result {
                Ok(path) => self.info(format!("online game #{game} saved as {}", path.display())),
                Err(e) => self.error(format!("online game #{game} NOT saved: {e}")),
            },
            Done::Reading { dir, progress } => self.reading(dir, progress),
            // The puzzle progress is the trainer's, which has closed since it asked.
            Done::Flushed(_) | Done::PuzzleProgress(..) | Done::PuzzleProgressWritten(_) => {}
            awaited => {
                self.waiting.awaited = self.waiting.awaited.saturating_sub(1);
                self.answered(awaited);
            }
        }
        self.take_effects()
    }

    /// An autosave of `game` as of `revision` was written or failed; a question about
    /// leaving waits for it. A failure is said on the status line unless something was said
    /// there since the autosave was asked (a move's own message): the panel and the leave
    /// question say it all the same.
    fn autosaved(&mut self, game: GameId, revision: u64, result: Result<(), SaveError>) {
        if game != self.game_id {
            return;
        }
        self.waiting.autosaved = self.waiting.autosaved.max(revision);
        match result {
            Ok(()) => self.autosave_error = None,
            Err(e) => {
                if self.status == self.waiting.status_at_autosave {
                    self.error(format!("autosave failed: {e}"));
                }
                self.autosave_error = Some(e.io_error().to_string());
            }
        }
        if !self.autosave_pending()
            && let Some(to) = self.waiting.leaving.take()
        {
            self.ask_leave(to);
        }
    }

    /// Takes an answer the app was waiting for.
    fn answered(&mut self, done: Done) {
        match done {
            Done::Saved {
                game,
                revision,
                path,
                outcome,
            } if game == self.game_id => self.saved(revision, path, outcome),
            Done::Named { dir, name } => {
                let then = self.waiting.prompt_leaving.take();
                self.show_save_prompt(&dir, name, then);
            }
            Done::Listed { dir, result } => match result {
                Ok((entries, own)) => {
                    self.waiting.list_asked = false;
                    // The list being read, if shown, gives way to the list read.
                    self.overlays.pop_if(|o| matches!(o, Overlay::Load(_)));
                    let own: Vec<&Path> = own.iter().map(PathBuf::as_path).collect();
                    self.show(Overlay::Load(SavesList::new(dir, entries, &own)));
                }
                Err(e) => {
                    self.waiting.list_asked = false;
                    self.overlays.pop_if(|o| matches!(o, Overlay::Load(_)));
                    self.error(e.to_string());
                }
            },
            Done::Deleted { save, result } => self.deleted(&save, result),
            Done::Renamed { save, to, result } => self.renamed(&save, &to, result),
            Done::Opened { save, result } => match result {
                Ok(session) => self.opened(&save, *session),
                Err(e) => self.error(e.to_string()),
            },
            // The new-game screen took the game to continue: the answer is only counted.
            Done::Unfinished(_)
            | Done::Saved { .. }
            | Done::PuzzleProgress(..)
            | Done::PuzzleProgressWritten(_)
            | Done::Reading { .. }
            | Done::Autosaved { .. }
            | Done::Remembered(_)
            | Done::OnlineRemembered(_)
            | Done::OnlineSaved { .. }
            | Done::Flushed(_) => {}
        }
    }

    /// A save of the game as of `revision` to `path` went as `outcome` says.
    fn saved(&mut self, revision: u64, path: PathBuf, outcome: Saving) {
        let on_top = self.overlays.pop_if(|o| matches!(o, Overlay::Save(_)));
        let Some(Overlay::Save(mut prompt)) = on_top else {
            // Nothing asked for it on screen: only what it did counts.
            if let Saving::Saved = outcome {
                self.saved_to(path, revision);
            }
            return;
        };
        match outcome {
            Saving::Saved => {
                self.saved_to(path, revision);
                self.leave_after_save(&prompt);
            }
            Saving::Refused { holds, changed } => {
                self.show(Overlay::Question(Question::Overwrite(Box::new(
                    Overwrite {
                        prompt,
                        path,
                        holds,
                        changed,
                    },
                ))));
            }
            Saving::NoFolder(why) => {
                prompt.set_failure(why);
                self.show(Overlay::Save(prompt));
            }
            Saving::Failed(e) => {
                self.error(e.to_string());
                prompt.set_failure(e.to_string());
                self.show(Overlay::Save(prompt));
            }
        }
    }

    /// The game as of `revision` is in the file at `path` now: saved, if it has not changed
    /// since.
    fn saved_to(&mut self, path: PathBuf, revision: u64) {
        self.info(format!("saved to {}", path.display()));
        self.saved = revision == self.revision;
        // A game changed while it was written: what the file holds is not known here.
        let game = self.saved.then(|| self.session.game().clone());
        self.in_file = Some(FileCopy::new(&path, FileAct::Saved, game));
        self.session.saved_to(path);
        self.autosave_error = None;
    }

    /// The save `save` was loaded as `session`: plays it.
    fn opened(&mut self, save: &SaveRef, session: Session) {
        let named = session.is_held_in_a_file();
        self.start(session);
        self.saved = named;
        self.in_file = FileCopy::loaded(&self.session);
        let summary = self.session.game().summary();
        match save.kind {
            SaveKind::Named => self.info_warned(format!("loaded {}: {summary}", save.name)),
            SaveKind::Autosave => self.info_warned(format!("continued {summary}")),
        }
    }
}

/// What the app waits for from the storage thread.
#[derive(Clone, Debug, Default)]
pub(super) struct Waiting {
    /// Answers awaited (a save, a list, a game to load, ...): the next key waits for them.
    pub(super) awaited: usize,
    /// Where the player asked to go while an autosave was being written: asked again once it
    /// is.
    pub(super) leaving: Option<Leaving>,
    /// Where the save prompt being opened leaves for once the game is saved.
    pub(super) prompt_leaving: Option<Leaving>,
    /// The revision of the game the last autosave asked for is of.
    pub(super) autosave_asked: u64,
    /// The revision of the game the last autosave answered was of.
    pub(super) autosaved: u64,
    /// The status line when the last autosave was asked.
    pub(super) status_at_autosave: Option<Status>,
    /// The list of saves was asked for and is not shown yet.
    pub(super) list_asked: bool,
}

/// How a game came to be in its file.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) enum FileAct {
    Loaded,
    Saved,
}

/// The game as the file it was last loaded from or saved to holds it: what quitting compares
/// the game with to say what is not saved.
#[derive(Clone, Debug)]
pub(super) struct FileCopy {
    /// The file's name.
    name: String,
    act: FileAct,
    /// The game in the file, if known (not when it changed while it was being written).
    game: Option<Game>,
}

impl FileCopy {
    /// The copy of `game` in the file at `path`, which it was loaded from or saved to.
    fn new(path: &Path, act: FileAct, game: Option<Game>) -> FileCopy {
        let name = path.file_name().unwrap_or(path.as_os_str());
        FileCopy {
            name: printable(&name.to_string_lossy()),
            act,
            game,
        }
    }

    /// The copy of `session`'s game in the file it was loaded from, if a file holds it (its
    /// own save, or another program's record).
    pub(super) fn loaded(session: &Session) -> Option<FileCopy> {
        let path = session.held_in()?;
        Some(FileCopy::new(
            path,
            FileAct::Loaded,
            Some(session.game().clone()),
        ))
    }

    /// What `game` has that this copy lacks, as a sentence: "The game has 1 move since it was
    /// loaded from club.otg".
    fn changes(&self, game: &Game) -> String {
        let act = match self.act {
            FileAct::Loaded => "loaded from",
            FileAct::Saved => "saved to",
        };
        let since = format!("since it was {act} {}", self.name);
        let Some(then) = &self.game else {
            return format!("The game changed {since}");
        };
        let (before, now) = (then.moves(), game.moves());
        if now.len() > before.len() && now.starts_with(before) {
            let n = now.len() - before.len();
            let noun = if n == 1 { "move" } else { "moves" };
            format!("The game has {n} {noun} {since}")
        } else if now != before {
            format!("The game's moves changed {since}")
        } else if game.outcome() != then.outcome() {
            format!("The game's result changed {since}")
        } else if game.analysis() != then.analysis() {
            format!("The game was analyzed {since}")
        } else {
            format!("The game changed {since}")
        }
    }
}

/// The "Continue" entry of the new-game screen: the save's name if it has one, and what it
/// holds.
pub(super) fn continue_text(entry: &SaveEntry) -> String {
    let summary = entry
        .summary
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    match entry.kind {
        SaveKind::Named => format!("{}: {summary}", entry.name),
        SaveKind::Autosave => summary,
    }
}

#[cfg(test)]
mod tests;
