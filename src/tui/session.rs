//! The one place the terminal game reaches the game record: the game in play, who plays each
//! side, and the moves that can be redone. Everything else in the interface goes through here.

use crate::game::Player;
use crate::rules::{
    AnnotatedMove, GameState, IllegalMove, Move, MoveError, Outcome, Position, Preset, Reason,
    Rules, Side,
};

/// A game in progress: rules, moves played, moves undone (for redo) and the two players.
#[derive(Clone, Debug)]
pub struct Session {
    preset: Preset,
    state: GameState,
    moves: Vec<AnnotatedMove>,
    undone: Vec<Move>,
    attackers: Player,
    defenders: Player,
}

impl Session {
    /// A new game under `preset` from the standard start.
    pub fn new(preset: Preset, attackers: Player, defenders: Player) -> Session {
        Session {
            preset,
            state: GameState::new(Rules::from(preset), Position::start()),
            moves: Vec::new(),
            undone: Vec::new(),
            attackers,
            defenders,
        }
    }

    /// The rule preset.
    pub const fn preset(&self) -> Preset {
        self.preset
    }

    /// The position, rules and outcome so far.
    pub const fn state(&self) -> &GameState {
        &self.state
    }

    /// The moves played, annotated.
    pub fn moves(&self) -> &[AnnotatedMove] {
        &self.moves
    }

    /// Who plays `side`.
    pub const fn player(&self, side: Side) -> Player {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }

    /// The side to move (also once the game is over: the side that would move).
    pub fn side_to_move(&self) -> Side {
        self.state.position().side_to_move()
    }

    /// The outcome, once the game is over.
    pub const fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// Plays a legal move; redo history is dropped unless the move is the one redo would play.
    pub fn play(&mut self, mv: Move) -> Result<AnnotatedMove, IllegalMove> {
        let done = self.state.play(mv)?;
        self.record(done);
        Ok(done)
    }

    /// Plays a move typed as text (annotations are checked).
    pub fn play_text(&mut self, text: &str) -> Result<AnnotatedMove, MoveError> {
        let done = self.state.play_text(text)?;
        self.record(done);
        Ok(done)
    }

    fn record(&mut self, done: AnnotatedMove) {
        if self.undone.last() == Some(&done.mv) {
            self.undone.pop();
        } else {
            self.undone.clear();
        }
        self.moves.push(done);
    }

    /// Takes back the last move (or a decision such as a resignation). False if there is nothing
    /// to take back.
    pub fn undo(&mut self) -> bool {
        if self.state.is_over() && self.concluded_off_board() {
            self.replay_without_conclusion();
            return true;
        }
        let Some(last) = self.moves.pop() else {
            return false;
        };
        self.state.undo();
        self.undone.push(last.mv);
        true
    }

    /// Plays again the last move taken back. False if there is none.
    pub fn redo(&mut self) -> bool {
        let Some(mv) = self.undone.pop() else {
            return false;
        };
        if let Ok(done) = self.state.play(mv) {
            self.moves.push(done);
            true
        } else {
            self.undone.clear();
            false
        }
    }

    /// Whether a move can be redone.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// `side` resigns: the opponent wins.
    pub fn resign(&mut self, side: Side) {
        self.state
            .conclude(Outcome::win(side.opponent(), Reason::Resignation));
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) {
        self.state.conclude(Outcome::draw(Reason::Agreement));
    }

    fn concluded_off_board(&self) -> bool {
        matches!(
            self.state.outcome().map(|o| o.reason),
            Some(Reason::Resignation | Reason::Agreement | Reason::Adjudicated)
        )
    }

    /// Rebuilds the state from the moves, dropping a decision taken off the board.
    fn replay_without_conclusion(&mut self) {
        let mut state = GameState::new(*self.state.rules(), *self.state.start_position());
        for done in &self.moves {
            state.play_unchecked(done.mv);
        }
        self.state = state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn undo_and_redo_walk_the_moves() {
        let mut s = Session::new(Preset::Standard, Player::Human, Player::Human);
        s.play(mv("d2-e2")).unwrap();
        s.play(mv("c4-c5")).unwrap();
        assert!(s.undo());
        assert_eq!(s.moves().len(), 1);
        assert_eq!(s.side_to_move(), Side::Defenders);
        assert!(s.redo());
        assert_eq!(s.moves().len(), 2);
        assert!(!s.redo());
        assert!(s.undo() && s.undo());
        assert!(!s.undo());
        // A different move drops the redo history.
        s.play(mv("d2-c2")).unwrap();
        assert!(!s.can_redo());
    }

    #[test]
    fn a_resignation_can_be_taken_back() {
        let mut s = Session::new(Preset::Standard, Player::Human, Player::Human);
        s.play(mv("d2-e2")).unwrap();
        s.resign(Side::Defenders);
        assert_eq!(
            s.outcome(),
            Some(Outcome::win(Side::Attackers, Reason::Resignation))
        );
        assert!(s.undo());
        assert_eq!(s.outcome(), None);
        assert_eq!(s.moves().len(), 1);
    }
}
