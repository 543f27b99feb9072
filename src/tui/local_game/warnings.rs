//! Warnings while playing, on by default; `w` turns them off and on.
//!
//! - After each move (and undo or redo), and when a game starts or is loaded, the status line
//!   starts with what threatens the king or is open to him: `the king threatens a7`, `the
//!   king can escape to a7`, `the king can be captured next move`, `the attackers can capture
//!   the king`.
//! - When a piece is selected, its destinations that would repeat a position are marked `!`
//!   on the board, and the status line says what a third occurrence means under the rules
//!   and for whom. Choosing a marked square plays the move: the warning came first.
//! - A move that would make the third occurrence, and so end the game, is played only when
//!   chosen a second time in a row.
//! - A typed move that repeats a position is not played at once: it becomes the selection with
//!   the cursor on its destination, so the same warning shows and Enter plays it.

#[cfg(test)]
mod tests;

use super::LocalGame;
use crate::rules::{Bitboard, Move};
use crate::tui::text::{Status, Tone};

impl LocalGame {
    /// `w`: turns the warnings off or on and says so.
    pub(super) fn toggle_warnings(&mut self) {
        let on = self.warnings.toggle();
        self.remember();
        if on {
            self.info_warned("warnings on: w turns them off".to_owned());
        } else {
            self.info("warnings off: w turns them on".to_owned());
        }
    }

    /// Shows `text` on the status line, after the warnings about the position now.
    pub(super) fn info_warned(&mut self, text: String) {
        let warnings = self.warnings.about(self.session.state());
        if warnings.is_empty() {
            self.info(text);
        } else {
            self.warn(format!("{} · {text}", warnings.join(" · ")));
        }
    }

    /// Shows the warnings about the position now, if there are any: a game can start or be
    /// loaded where the king already threatens a corner or can be captured.
    pub(super) fn warn_position(&mut self) {
        let warnings = self.warnings.about(self.session.state());
        if !warnings.is_empty() {
            self.warn(warnings.join(" · "));
        }
    }

    /// The selected piece's destinations that would repeat a position, marked on the board.
    pub(super) fn repeating_destinations(&self) -> Bitboard {
        self.warnings
            .repeating(self.session.state(), self.board.selected)
    }

    /// After a piece is selected: says what its marked destinations would repeat.
    pub(super) fn warn_selection(&mut self) {
        let mark = self.look.glyphs.repeat;
        if let Some(text) =
            self.warnings
                .on_selection(self.session.state(), self.board.selected, mark)
        {
            self.warn(text);
        }
    }

    /// Whether `mv`, chosen on the board, waits: the first choice of a move that would end
    /// the game by repetition only warns; the second plays it.
    pub(super) fn holds_move(&mut self, mv: Move) -> bool {
        let held = self.warnings.holds(self.session.state(), mv);
        held.map(|text| self.warn(text)).is_some()
    }

    /// Whether the typed `text` waits: a plain move that would repeat a position becomes the
    /// selection instead, with its destination under the cursor and the warning shown.
    pub(super) fn holds_typed(&mut self, text: &str) -> bool {
        let Some(mv) = self.warnings.holds_typed(self.session.state(), text) else {
            return false;
        };
        self.board.selected = Some(mv.from());
        self.board.cursor = mv.to();
        self.warn_selection();
        self.holds_move(mv);
        true
    }

    fn warn(&mut self, text: String) {
        self.status = Some(Status {
            text,
            tone: Tone::Warning,
        });
    }
}
