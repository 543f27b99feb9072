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

use super::App;
use crate::rules::{
    Bitboard, GameState, Move, MoveText, Repetition, Rules, Side, repetition_outcome,
};
use crate::tui::text::{Status, Tone};

/// Whether warnings are shown, and a game-ending repetition chosen once.
#[derive(Clone, Debug)]
pub(super) struct Warnings {
    on: bool,
    /// A move that would end the game by repetition, chosen once at this ply.
    confirm: Option<(usize, Move)>,
}

impl Warnings {
    /// Warnings shown if `on`.
    pub(super) const fn new(on: bool) -> Warnings {
        Warnings { on, confirm: None }
    }

    /// Whether warnings are shown.
    pub(super) const fn on(&self) -> bool {
        self.on
    }
}

impl App {
    /// `w`: turns the warnings off or on and says so.
    pub(super) fn toggle_warnings(&mut self) {
        self.warnings.on = !self.warnings.on;
        self.warnings.confirm = None;
        self.remember();
        if self.warnings.on {
            self.info_warned("warnings on: w turns them off".to_owned());
        } else {
            self.info("warnings off: w turns them on".to_owned());
        }
    }

    /// Shows `text` on the status line, after the warnings about the position now.
    pub(super) fn info_warned(&mut self, text: String) {
        let warnings = if self.warnings.on {
            position_warnings(self.session.state())
        } else {
            Vec::new()
        };
        if warnings.is_empty() {
            self.info(text);
        } else {
            self.warn(format!("{} · {text}", warnings.join(" · ")));
        }
    }

    /// Shows the warnings about the position now, if there are any: a game can start or be
    /// loaded where the king already threatens a corner or can be captured.
    pub(super) fn warn_position(&mut self) {
        let warnings = if self.warnings.on {
            position_warnings(self.session.state())
        } else {
            Vec::new()
        };
        if !warnings.is_empty() {
            self.warn(warnings.join(" · "));
        }
    }

    /// The selected piece's destinations that would repeat a position, marked on the board.
    pub(super) fn repeating_destinations(&self) -> Bitboard {
        let Some(from) = self.board.selected.filter(|_| self.warnings.on) else {
            return Bitboard::EMPTY;
        };
        let state = self.session.state();
        state
            .position()
            .destinations(from)
            .iter()
            .filter(|&to| repeats(state, Move::new(from, to)) >= 2)
            .collect()
    }

    /// After a piece is selected: says what its marked destinations would repeat.
    pub(super) fn warn_selection(&mut self) {
        self.warnings.confirm = None;
        let Some(from) = self.board.selected.filter(|_| self.warnings.on) else {
            return;
        };
        let state = self.session.state();
        let most = state
            .position()
            .destinations(from)
            .iter()
            .map(|to| repeats(state, Move::new(from, to)))
            .max()
            .unwrap_or(0);
        let (rules, repeater) = (state.rules(), state.position().side_to_move());
        let mark = self.look.glyphs.repeat;
        match most {
            0..=1 => {}
            2 => self.warn(format!(
                "{mark} repeats a position: {}",
                third_time(rules, repeater)
            )),
            _ => self.warn(format!(
                "{mark} repeats a position a 3rd time: {}",
                decision(rules, repeater)
            )),
        }
    }

    /// Whether `mv`, chosen on the board, waits: the first choice of a move that would end
    /// the game by repetition only warns; the second plays it.
    pub(super) fn holds_move(&mut self, mv: Move) -> bool {
        let state = self.session.state();
        let ply = state.ply();
        if !self.warnings.on || self.warnings.confirm == Some((ply, mv)) || repeats(state, mv) < 3 {
            return false;
        }
        let text = format!(
            "{mv}: a 3rd repetition, {}. Choose {} again to play it",
            decision(state.rules(), state.position().side_to_move()),
            mv.to()
        );
        self.warnings.confirm = Some((ply, mv));
        self.warn(text);
        true
    }

    /// Whether the typed `text` waits: a plain move that would repeat a position becomes the
    /// selection instead, with its destination under the cursor and the warning shown.
    pub(super) fn holds_typed(&mut self, text: &str) -> bool {
        let Ok(written) = text.parse::<MoveText>() else {
            return false;
        };
        // A repeating move captures nothing and ends nothing: annotations are left to be
        // refused by the move itself.
        let plain = written.captures.is_none() && written.mark.is_none();
        if !self.warnings.on || !plain || repeats(self.session.state(), written.mv) < 2 {
            return false;
        }
        let mv = written.mv;
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

/// How many times the position after `mv` would have occurred; 0 if `mv` is not legal.
fn repeats(state: &GameState, mv: Move) -> usize {
    state.occurrences_after(mv).unwrap_or(0)
}

/// The warnings about the position now: the king's open lines to the corners and whether the
/// attackers can capture him with their next move.
fn position_warnings(state: &GameState) -> Vec<String> {
    if state.is_over() {
        return Vec::new();
    }
    let position = state.position();
    let to_move = position.side_to_move();
    let mut warnings = Vec::new();
    let corners = position.king_open_corners();
    if !corners.is_empty() {
        let names: Vec<String> = corners.iter().map(|c| c.to_string()).collect();
        let names = names.join(" and ");
        warnings.push(match to_move {
            Side::Attackers => format!("the king threatens {names}"),
            Side::Defenders => format!("the king can escape to {names}"),
        });
    }
    if !position.king_capture_moves(state.rules()).is_empty() {
        let text = match to_move {
            Side::Attackers => "the attackers can capture the king",
            Side::Defenders => "the king can be captured next move",
        };
        warnings.push(text.to_owned());
    }
    warnings
}

/// What a third occurrence of the position `repeater` is about to repeat would decide, in
/// the words of the rules: `a 3rd time loses for the side that repeats (attackers)`.
fn third_time(rules: &Rules, repeater: Side) -> String {
    let loser = repetition_outcome(rules, repeater.opponent())
        .winner
        .map(Side::opponent);
    match (rules.repetition, loser) {
        (_, None) => "a 3rd time is a draw".to_owned(),
        (Repetition::MoverLoses, Some(loser)) => {
            format!("a 3rd time loses for the side that repeats ({loser})")
        }
        (Repetition::SideToMoveLoses, Some(loser)) => {
            format!("a 3rd time loses for the {loser}, who began the cycle")
        }
        (_, Some(loser)) => format!("a 3rd time loses for the {loser}"),
    }
}

/// What a third occurrence made by `repeater` decides: `the attackers lose`, `a draw`.
fn decision(rules: &Rules, repeater: Side) -> String {
    match repetition_outcome(rules, repeater.opponent()).winner {
        Some(winner) => format!("the {} lose", winner.opponent()),
        None => "a draw".to_owned(),
    }
}
