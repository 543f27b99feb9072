//! Playing the local game: choosing and moving pieces (on the board or at the prompt),
//! undo and redo, draw offers and resignation, and what is said after a move and at the end.

use super::LocalGame;
use crate::game::Player;
use crate::rules::{MoveError, Outcome, Reason, Side, Square};
use crate::tui::board_screen::{BoardHandled, Choice, choice, selected_text};
use crate::tui::dialogs::Question;
use crate::tui::input::{Action, typed_move};
use crate::tui::overlay::Overlay;
use crate::tui::panels::{self};

impl LocalGame {
    /// An action on the game screen: the screen's own keys, then the game's.
    pub(super) fn update_board(&mut self, action: Action) {
        let moves = self.session.moves().len();
        match self.board.update(action, self.size, moves) {
            BoardHandled::Stay => {}
            BoardHandled::Choose(sq) => self.choose(sq),
            BoardHandled::Cancelled => {
                self.hint = None;
                self.status = None;
            }
            BoardHandled::StoppedTyping => self.status = None,
            BoardHandled::Typed(text) => self.play_typed(&text),
            BoardHandled::Game(action) => self.update_game(action),
        }
    }

    /// Plays a move typed at the prompt (a repeating one waits: see `holds_typed`).
    pub(super) fn play_typed(&mut self, text: &str) {
        let text = typed_move(text);
        if text.is_empty() {
            self.status = None;
        } else if self.can_move_by_hand() && !self.holds_typed(&text) {
            match self.session.play_text(&text) {
                Ok(_) => self.after_move(),
                Err(e @ MoveError::Parse(_)) => self.error(e.to_string()),
                Err(e) => self.error(format!("{text}: {e}")),
            }
        }
    }

    /// Whether the side to move is played from the keyboard; says why not if it is not.
    pub(super) fn can_move_by_hand(&mut self) -> bool {
        if let Some(outcome) = self.session.outcome() {
            self.error(format!(
                "the game is over ({}): {}",
                panels::outcome_text(outcome, self.you()),
                over_keys(outcome)
            ));
            return false;
        }
        let side = self.session.side_to_move();
        if self.session.player(side) != Player::Human {
            self.error(format!(
                "the {side} are played by the AI: wait for its move"
            ));
            return false;
        }
        true
    }

    /// Enter, Space or a click on `sq`: select a piece, move the selected one, or explain.
    pub(super) fn choose(&mut self, sq: Square) {
        if !self.can_move_by_hand() {
            return;
        }
        match choice(self.session.state(), self.board.selected, sq) {
            Choice::Deselect => {
                self.board.selected = None;
                self.status = None;
            }
            Choice::Play(mv) => {
                if self.holds_move(mv) {
                    return;
                }
                match self.session.play(mv) {
                    Ok(_) => self.after_move(),
                    Err(e) => self.error(format!("cannot move {mv}: {e}")),
                }
            }
            Choice::Select(sq, piece) => {
                self.board.selected = Some(sq);
                self.info(selected_text(sq, piece));
                self.warn_selection();
            }
            Choice::Refused { why, deselect } => {
                self.error(why);
                if deselect {
                    self.board.selected = None;
                }
            }
        }
    }

    pub(super) fn after_move(&mut self) {
        self.board.selected = None;
        self.hint = None;
        self.board.list_scroll = None;
        self.changed();
        if self.session.outcome().is_some() {
            self.say_outcome();
        } else if let Some(last) = self.session.moves().last() {
            let to_move = self.session.side_to_move();
            let who = match self.session.player(to_move.opponent()) {
                Player::Human | Player::Program => "",
                Player::Ai { .. } => "the AI ",
            };
            self.info_warned(format!("{who}played {last}; the {to_move} to move"));
        }
    }

    /// Ends the game as a draw by agreement and says so with `message`.
    pub(super) fn agree_draw(&mut self, message: String) {
        self.cancel_thinking();
        if let Err(e) = self.session.agree_draw() {
            self.error(e.to_string());
            return;
        }
        self.changed();
        self.info(message);
        self.ring();
    }

    pub(super) fn say_outcome(&mut self) {
        if let Some(outcome) = self.session.outcome() {
            self.ring();
            self.info(format!(
                "{}: {}",
                panels::outcome_text(outcome, self.you()),
                over_keys(outcome)
            ));
        }
    }

    /// The side the one person plays against the AI, if it is such a game.
    pub(super) fn you(&self) -> Option<Side> {
        panels::you(self.session.game().players())
    }

    /// Whether a person plays either side.
    pub(super) fn has_human(&self) -> bool {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .any(|s| self.session.player(s) == Player::Human)
    }

    pub(super) fn undo(&mut self) {
        self.cancel_thinking();
        self.board.selected = None;
        self.hint = None;
        // A result off the board is taken back alone, without a move; but the clock that ran
        // out would fall again at once.
        let reason = self.session.outcome().map(|o| o.reason);
        if reason == Some(Reason::Time) {
            self.error("a loss on time cannot be taken back: v to review, n new game".to_owned());
            return;
        }
        let reopened = reason.and_then(|reason| match reason {
            Reason::Resignation => Some("resignation"),
            Reason::Agreement => Some("draw agreement"),
            _ => None,
        });
        if let Some(what) = reopened
            && self.session.undo()
        {
            self.changed();
            self.info_warned(format!("{what} taken back: the game goes on"));
        } else if self.session.undo() {
            if self.has_human() {
                // Against the AI, go back to the human's turn.
                while self.session.player(self.session.side_to_move()) != Player::Human
                    && self.session.undo()
                {}
            } else {
                // Watching the AIs: stop to look at the position.
                self.ai.paused = true;
            }
            self.changed();
            self.info_warned("move taken back: r to redo".to_owned());
        } else {
            self.error("nothing to undo".to_owned());
        }
    }

    pub(super) fn redo(&mut self) {
        self.cancel_thinking();
        self.board.selected = None;
        self.hint = None;
        if self.session.redo() {
            while self.has_human()
                && self.session.player(self.session.side_to_move()) != Player::Human
                && self.session.outcome().is_none()
                && self.session.redo()
            {}
            self.changed();
            if self.session.outcome().is_some() {
                self.say_outcome();
            } else {
                self.info_warned("move played again".to_owned());
            }
        } else {
            self.error("nothing to redo".to_owned());
        }
    }

    /// The human side that acts off the board (resign, offer a draw): the side to move if a
    /// human plays it, else the other one if a human plays that.
    pub(super) fn human_side(&self) -> Option<Side> {
        let to_move = self.session.side_to_move();
        [to_move, to_move.opponent()]
            .into_iter()
            .find(|&s| self.session.player(s) == Player::Human)
    }

    pub(super) fn offer_draw(&mut self) {
        if self.session.outcome().is_some() {
            self.error("the game is over".to_owned());
            return;
        }
        match self.human_side() {
            Some(side) if self.session.player(side.opponent()) == Player::Human => {
                self.show(Overlay::Question(Question::Draw(side)));
            }
            Some(side) => self.ai_answers_draw(side.opponent()),
            None => self.error("no human plays in this game".to_owned()),
        }
    }

    pub(super) fn ask_resign(&mut self) {
        if self.session.outcome().is_some() {
            self.error("the game is over".to_owned());
            return;
        }
        match self.human_side() {
            Some(side) => self.show(Overlay::Question(Question::Resign(side))),
            None => self.error("no human plays in this game".to_owned()),
        }
    }
}

/// What can be done once the game is over: a loss on time is not undone (the clock would fall
/// again at once).
fn over_keys(outcome: Outcome) -> &'static str {
    if outcome.reason == Reason::Time {
        "v to review, n new game"
    } else {
        "v to review, n new game, u undo"
    }
}
