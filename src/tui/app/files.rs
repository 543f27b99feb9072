//! Saving and loading from the app: the save prompt and the question before replacing a save,
//! the list of saves, the game to continue, and leaving a game only when it is kept.

use std::path::Path;

use super::{App, Overlay};
use crate::game::storage::{SAVE_DIR_ENV, SaveEntry, SaveKind};
use crate::rules::Side;
use crate::tui::dialogs::{Leaving, Overwrite, Question, SavePrompt, SavesList};
use crate::tui::screens::SetupForm;
use crate::tui::session::{self, Session, saves};

impl App {
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

    /// Leaves the game for `to`, asking first when it is not saved to a file (quitting) or
    /// would be lost (a new game or another loaded one: the autosave keeps it otherwise).
    pub(super) fn ask_leave(&mut self, to: Leaving) {
        let lost = self.unkept();
        // A finished game the autosave keeps has nothing left to lose.
        let unsaved = self.is_dirty() && self.session.outcome().is_none();
        if lost.is_some() || (to == Leaving::Quit && unsaved) {
            self.overlay = Some(Overlay::Question(Question::Leave { to, lost }));
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

    /// Offers to save the game: a name in the save folder (or in its own file's folder).
    /// When the autosave failed there, or there is no save folder, the prompt asks for
    /// another folder first.
    pub(super) fn ask_save(&mut self) {
        let folder = self.session.save_folder(self.storage.save_dir.as_deref());
        let prompt = match (folder, &self.autosave_error) {
            (Some(dir), None) => {
                let name = self.session.save_name(&dir);
                SavePrompt::new(&dir, name)
            }
            (Some(dir), Some(e)) => {
                let name = self.session.save_name(&dir);
                let why = format!("the autosave failed here ({e}): type another folder");
                SavePrompt::elsewhere(&dir, name, why)
            }
            (None, _) => {
                let home = directories::BaseDirs::new()
                    .map_or_else(|| Path::new("/").to_owned(), |b| b.home_dir().to_owned());
                let name = self.session.save_name(&home);
                SavePrompt::elsewhere(&home, name, "there is no save folder: type one".to_owned())
            }
        };
        self.overlay = Some(Overlay::Save(prompt));
    }

    /// Enter in the save prompt: saves under the typed name if it is a valid one. A file of
    /// that name other than the game's own, or the game's own written by another program since
    /// this game last read or wrote it, is never replaced without a question; a failure keeps
    /// the prompt open with the reason.
    pub(super) fn confirm_save(&mut self, mut prompt: SavePrompt) -> Option<Overlay> {
        // The prompt shows why a name is refused.
        let (Ok(dir), Ok(name)) = (prompt.dir(), prompt.name()) else {
            return Some(Overlay::Save(prompt));
        };
        if !dir.is_dir() {
            prompt.set_failure(if dir.exists() {
                format!("{} is a file, not a folder", dir.display())
            } else {
                format!("there is no folder {}", dir.display())
            });
            return Some(Overlay::Save(prompt));
        }
        let path = name.path_in(&dir);
        match self.session.save(&path) {
            Ok(()) => {
                self.saved_to(&path);
                self.leave_after_save(&prompt);
                self.overlay.take()
            }
            Err(e) if e.already_exists() || e.changed_since_seen() => {
                let holds = session::describe(&path);
                Some(Overlay::Question(Question::Overwrite(Box::new(
                    Overwrite {
                        prompt,
                        path,
                        holds,
                        changed: e.changed_since_seen(),
                    },
                ))))
            }
            Err(e) => {
                self.error(e.to_string());
                prompt.set_failure(e.to_string());
                Some(Overlay::Save(prompt))
            }
        }
    }

    /// The player agreed to replace the file `overwrite.path`.
    pub(super) fn overwrite(&mut self, overwrite: Overwrite) {
        let Overwrite {
            mut prompt, path, ..
        } = overwrite;
        match self.session.replace(&path) {
            Ok(()) => {
                self.saved_to(&path);
                self.leave_after_save(&prompt);
            }
            Err(e) => {
                self.error(e.to_string());
                prompt.set_failure(e.to_string());
                self.overlay = Some(Overlay::Save(prompt));
            }
        }
    }

    /// Goes where the question that opened `prompt` was leaving for, if it was.
    fn leave_after_save(&mut self, prompt: &SavePrompt) {
        if let Some(to) = prompt.leaving() {
            self.leave(to);
        }
    }

    fn saved_to(&mut self, path: &Path) {
        self.saved = true;
        self.autosave_error = None;
        self.info(format!("saved to {}", path.display()));
    }

    /// Shows the saved games to choose from.
    pub(super) fn ask_load(&mut self) {
        let Some(dir) = self.storage.save_dir.clone() else {
            self.no_save_dir();
            return;
        };
        match saves(&dir) {
            Ok(entries) => {
                let list = SavesList::new(dir, entries, &self.session.files());
                self.overlay = Some(Overlay::Load(list));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    pub(super) fn load_selected(&mut self, list: &SavesList) {
        if let Some(entry) = list.selected() {
            self.open(entry);
        }
    }

    /// Plays the game of a listed save: a named save as its file holds it, an autosave as a
    /// game continued.
    pub(super) fn open(&mut self, entry: &SaveEntry) {
        match Session::open(entry) {
            Ok(session) => {
                let named = session.is_held_in_a_file();
                self.start(session);
                self.saved = named;
                let summary = self.session.game().summary();
                match entry.kind {
                    SaveKind::Named => {
                        self.info_warned(format!("loaded {}: {summary}", entry.name));
                    }
                    SaveKind::Autosave => self.info_warned(format!("continued {summary}")),
                }
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// The game the new-game screen offers to continue: the latest unfinished one in the save
    /// folder other than the game in play.
    pub(super) fn latest_unfinished(&self) -> Option<SaveEntry> {
        let dir = self.storage.save_dir.as_deref()?;
        session::latest(dir, &self.session.files()).ok().flatten()
    }

    fn no_save_dir(&mut self) {
        self.error(format!("no save folder: set {SAVE_DIR_ENV} or HOME"));
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
