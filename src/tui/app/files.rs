//! Saving and loading from the app: the save prompt, the list of saves, and loading one.

use std::path::Path;

use super::{App, Overlay};
use crate::game::storage::SAVE_DIR_ENV;
use crate::tui::dialogs::{SavePrompt, SavesList};
use crate::tui::session::{Session, saves};

impl App {
    pub(super) fn save_to(&mut self, path: &Path) {
        match self.session.save(path) {
            Ok(()) => {
                self.saved = true;
                self.info(format!("saved to {}", path.display()));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Offers to save the game, in the save folder.
    pub(super) fn ask_save(&mut self) {
        match self.storage.save_dir.clone() {
            Some(dir) => {
                let default = self.session.save_path(&dir);
                self.overlay = Some(Overlay::Save(SavePrompt::new(dir, &default)));
            }
            None => self.no_save_dir(),
        }
    }

    /// Shows the saved games to choose from.
    pub(super) fn ask_load(&mut self) {
        let Some(dir) = self.storage.save_dir.clone() else {
            self.no_save_dir();
            return;
        };
        match saves(&dir) {
            Ok(entries) => self.overlay = Some(Overlay::Load(SavesList::new(dir, entries))),
            Err(e) => self.error(e.to_string()),
        }
    }

    pub(super) fn load_selected(&mut self, list: &SavesList) {
        let Some(entry) = list.selected() else {
            return;
        };
        let is_autosave = self.storage.autosave.as_deref() == Some(entry.path.as_path());
        match Session::load(&entry.path) {
            Ok(session) => {
                let name = entry.name.clone();
                if is_autosave {
                    self.start(session.without_file());
                } else {
                    self.start(session);
                    self.saved = true;
                }
                self.info(format!("loaded {name}: {}", self.session.game().summary()));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn no_save_dir(&mut self) {
        self.error(format!("no save folder: set {SAVE_DIR_ENV} or HOME"));
    }
}
