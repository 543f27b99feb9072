//! The warnings while playing, shared by the local game and the online one: what threatens
//! the king or is open to him, the selected piece's destinations that would repeat a position
//! and what a third occurrence means, and the second choice a game-ending repetition needs.
//! Pure: each answer is computed from the game state and handed back as text; the screen
//! shows it.

use crate::rules::{
    Bitboard, GameState, Move, MoveText, Repetition, Rules, Side, Square, repetition_outcome,
};

/// Whether warnings are shown, and a game-ending repetition chosen once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warnings {
    on: bool,
    /// A move that would end the game by repetition, chosen once at this ply.
    confirm: Option<(usize, Move)>,
}

impl Warnings {
    /// Warnings shown if `on`.
    pub const fn new(on: bool) -> Warnings {
        Warnings { on, confirm: None }
    }

    /// Whether warnings are shown.
    pub const fn on(&self) -> bool {
        self.on
    }

    /// Turns the warnings off or on; returns whether they are on now.
    pub fn toggle(&mut self) -> bool {
        self.on = !self.on;
        self.confirm = None;
        self.on
    }

    /// The warnings about the position of `state` (none when off): the king's open lines to
    /// the corners and whether the attackers can capture him with their next move.
    pub fn about(&self, state: &GameState) -> Vec<String> {
        if self.on {
            position_warnings(state)
        } else {
            Vec::new()
        }
    }

    /// The destinations of the piece `selected` that would repeat a position, to be marked
    /// on the board.
    pub fn repeating(&self, state: &GameState, selected: Option<Square>) -> Bitboard {
        let Some(from) = selected.filter(|_| self.on) else {
            return Bitboard::EMPTY;
        };
        state
            .position()
            .destinations(from)
            .iter()
            .filter(|&to| repeats(state, Move::new(from, to)) >= 2)
            .collect()
    }

    /// After the piece `selected` is chosen: what its marked destinations (`mark`) would
    /// repeat, if any would. A repetition chosen once is forgotten.
    pub fn on_selection(
        &mut self,
        state: &GameState,
        selected: Option<Square>,
        mark: &str,
    ) -> Option<String> {
        self.confirm = None;
        let from = selected.filter(|_| self.on)?;
        let most = state
            .position()
            .destinations(from)
            .iter()
            .map(|to| repeats(state, Move::new(from, to)))
            .max()
            .unwrap_or(0);
        let (rules, repeater) = (state.rules(), state.position().side_to_move());
        match most {
            0..=1 => None,
            2 => Some(format!(
                "{mark} repeats a position: {}",
                third_time(rules, repeater)
            )),
            _ => Some(format!(
                "{mark} repeats a position a 3rd time: {}",
                decision(rules, repeater)
            )),
        }
    }

    /// Whether `mv`, chosen on the board, waits, and the warning to show if it does: the
    /// first choice of a move that would end the game by repetition only warns; the second
    /// plays it.
    pub fn holds(&mut self, state: &GameState, mv: Move) -> Option<String> {
        let ply = state.ply();
        if !self.on || self.confirm == Some((ply, mv)) || repeats(state, mv) < 3 {
            return None;
        }
        self.confirm = Some((ply, mv));
        Some(format!(
            "{mv}: a 3rd repetition, {}. Choose {} again to play it",
            decision(state.rules(), state.position().side_to_move()),
            mv.to()
        ))
    }

    /// The move typed as `text`, if it is to wait: a plain move that would repeat a
    /// position becomes the selection instead, with its destination under the cursor, so
    /// that the same warning shows and Enter plays it.
    pub fn holds_typed(&self, state: &GameState, text: &str) -> Option<Move> {
        let written = text.parse::<MoveText>().ok()?;
        // A repeating move captures nothing and ends nothing: annotations are left to be
        // refused by the move itself.
        let plain = written.captures.is_none() && written.mark.is_none();
        (self.on && plain && repeats(state, written.mv) >= 2).then_some(written.mv)
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
pub(crate) fn third_time(rules: &Rules, repeater: Side) -> String {
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
pub(crate) fn decision(rules: &Rules, repeater: Side) -> String {
    match repetition_outcome(rules, repeater.opponent()).winner {
        Some(winner) => format!("the {} lose", winner.opponent()),
        None => "a draw".to_owned(),
    }
}
