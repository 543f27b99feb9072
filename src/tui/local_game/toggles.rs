//! The toggles and what is remembered: the bell, the panel over the board in the compact
//! layout, and the settings file written as the choices change.

use super::LocalGame;
use crate::tui::effect::Effect;
use crate::tui::layout::GameLayout;
use crate::tui::storage_jobs::Job;

impl LocalGame {
    /// Asks for the remembered choices to be written if they changed: the toggles as they
    /// are now, the rest as last set.
    pub(super) fn remember(&mut self) {
        self.settings.bell = self.bell;
        self.settings.warnings = self.warnings.on();
        self.effects
            .push(Effect::Store(Job::Remember(self.settings)));
    }

    /// Rings the bell after this frame, if it is on (the AI has moved, a game ended).
    pub(super) fn ring(&mut self) {
        if self.bell && !self.effects.contains(&Effect::Bell) {
            self.effects.push(Effect::Bell);
        }
    }

    /// `b`: the bell on or off.
    pub(super) fn toggle_bell(&mut self) {
        self.bell = !self.bell;
        self.info(if self.bell {
            "bell on: it rings when the AI has moved and when a game ends".to_owned()
        } else {
            "bell off".to_owned()
        });
        self.remember();
    }

    /// The layout, if the panel is on screen (beside the board, or shown over it).
    pub(super) fn panel_on_screen(&self) -> Option<GameLayout> {
        self.board.panel_on_screen(self.size)
    }

    /// Tab: in the compact layout, the panel over the board or the board again.
    pub(super) fn toggle_panel(&mut self) {
        if !self.board.toggle_panel(self.size) {
            self.info(
                "the panel is beside the board: Tab only switches on a small terminal".to_owned(),
            );
        }
    }
}
