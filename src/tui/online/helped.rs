//! Online play's side of its help ([`Assist`]): the keys of the warnings, the bell, the hint
//! and the live evaluation on the game's board, the warnings said after a move or a
//! selection, and the engine's reports taken from the app.

use std::time::Instant;

use super::assist::{Answered, Assist, Purpose};
use super::{Online, View};
use crate::ai::Report;
use crate::net::protocol::GameId;
use crate::rules::Move;
use crate::tui::input::Action;
use crate::tui::text::{Status, Tone};

impl Online {
    /// The warnings, the bell and the engine's help.
    pub const fn assist(&self) -> &Assist {
        &self.assist
    }

    /// Takes a report of the engine worker at `now`; returns whether it was one of online
    /// play's searches.
    pub(super) fn take_report(&mut self, report: &Report, now: Instant) -> bool {
        let games = &self.games;
        let answered = self.assist.on_report(
            report,
            |id| games.get(&id).map(|g| g.record().moves().len()),
            now,
        );
        match answered {
            Answered::NotOurs => return false,
            Answered::Quiet => {}
            Answered::Hint(text) => self.info(&text),
            Answered::Failed(text) => self.error(&text),
        }
        true
    }

    /// A key of the help on game `id`'s board; returns whether it was one.
    pub(super) fn assist_key(&mut self, id: GameId, action: Action) -> bool {
        let Some(game) = self.games.get(&id) else {
            return false;
        };
        let player = game.you().is_some();
        match action {
            Action::ToggleWarnings => {
                if self.assist.warnings_mut().toggle() {
                    self.info_warned(id, "warnings on: w turns them off");
                } else {
                    self.info("warnings off: w turns them on");
                }
            }
            Action::ToggleBell => {
                let text = self.assist.toggle_bell();
                self.info(text);
            }
            Action::Hint if !player => {
                self.error("hints are for the players: a shows the engine's evaluation");
            }
            Action::Hint | Action::Analyze if !game.engine_allowed() && player => {
                self.error("engine help is off in this game");
            }
            Action::Hint if game.outcome().is_some() => {
                self.info("the game is over: q to the lobby");
            }
            Action::Hint if !game.my_turn() => self.error("a hint is for your move"),
            Action::Hint => {
                self.assist.ask(Purpose::Hint, game.as_game_ref(), self.now);
                self.info("looking for a hint…");
            }
            Action::Analyze => {
                if self.assist.toggle_eval(game.as_game_ref(), self.now) {
                    self.info("evaluation on (searched on this machine): a turns it off");
                } else {
                    self.info("evaluation off");
                }
            }
            _ => return false,
        }
        true
    }

    /// Game `id` changed (a move, a new state): the help follows it.
    pub(super) fn assist_changed(&mut self, id: GameId) {
        if let Some(game) = self.games.get(&id) {
            self.assist.moved(game.as_game_ref(), self.now);
        }
    }

    /// Shows `text` on the status line after the warnings about game `id`'s position.
    pub(super) fn info_warned(&mut self, id: GameId, text: &str) {
        let warnings = self
            .games
            .get(&id)
            .map(|g| self.assist.warnings().about(g.record().state()))
            .unwrap_or_default();
        if warnings.is_empty() {
            self.info(text);
        } else {
            self.warn(format!("{} · {text}", warnings.join(" · ")));
        }
    }

    /// After a piece is selected on game `id`'s board: what its destinations would repeat.
    pub(super) fn warn_selection(&mut self, id: GameId) {
        let Some(game) = self.games.get(&id) else {
            return;
        };
        let mark = self.assist.repeat_mark();
        let state = game.record().state();
        let selected = game.board.selected;
        if let Some(text) = self
            .assist
            .warnings_mut()
            .on_selection(state, selected, mark)
        {
            self.warn(text);
        }
    }

    /// Whether `mv`, chosen on game `id`'s board, waits: a move that would end the game by
    /// repetition is sent when chosen a second time.
    pub(super) fn holds_move(&mut self, id: GameId, mv: Move) -> bool {
        let Some(game) = self.games.get(&id) else {
            return false;
        };
        let held = self.assist.warnings_mut().holds(game.record().state(), mv);
        held.map(|text| self.warn(text)).is_some()
    }

    /// Whether the typed `text` waits on game `id`: a move that repeats a position becomes
    /// the selection, its destination under the cursor, with the warning shown.
    pub(super) fn holds_typed(&mut self, id: GameId, text: &str) -> bool {
        let Some(game) = self.games.get_mut(&id) else {
            return false;
        };
        let Some(mv) = self
            .assist
            .warnings()
            .holds_typed(game.record().state(), text)
        else {
            return false;
        };
        game.board.selected = Some(mv.from());
        game.board.cursor = mv.to();
        self.warn_selection(id);
        self.holds_move(id, mv);
        true
    }

    /// The player leaves the game's board: its searches stop.
    pub(super) fn assist_left(&mut self) {
        if matches!(self.view, View::Game(_)) {
            self.assist.left();
        }
    }

    fn warn(&mut self, text: String) {
        self.status = Some(Status {
            text,
            tone: Tone::Warning,
        });
    }
}

#[cfg(test)]
impl Online {
    /// Shows game `id` when its state comes, as after watching or joining it.
    pub(crate) const fn show_next(&mut self, id: GameId) {
        self.to_show = Some(id);
    }

    /// Puts the cursor of the game on screen on `sq`.
    pub(crate) fn set_cursor(&mut self, sq: crate::rules::Square) {
        if let View::Game(id) = self.view
            && let Some(game) = self.games.get_mut(&id)
        {
            game.board.cursor = sq;
        }
    }
}
