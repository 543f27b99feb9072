//! What the next move can do: the king's open lines to the corners, the attackers' moves that
//! capture him, and how often a move would repeat a position. These are the facts behind the
//! terminal game's warnings; nothing here changes a game.

use std::ops::ControlFlow;

use super::bitboard::Bitboard;
use super::moves::{IllegalMove, Move, MoveList};
use super::outcome::occurrences_before;
use super::piece::Side;
use super::position::Position;
use super::preset::Rules;
use super::state::GameState;
use super::tables::reach_from;

impl Position {
    /// The corners the king reaches in one move: his open lines to them (whichever side is to
    /// move). Empty without a king.
    ///
    /// ```
    /// use brandubh::rules::{Position, Square};
    ///
    /// // The king on c7 sees a7 along the top edge; g7 is blocked by the attacker on e7.
    /// let position: Position = "/7/7/7/7/7/7/2K1t2/ d".parse()?;
    /// let a7: Square = "a7".parse()?;
    /// assert_eq!(position.king_open_corners().into_iter().collect::<Vec<_>>(), [a7]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn king_open_corners(&self) -> Bitboard {
        self.king_reach() & Bitboard::CORNERS
    }

    /// The empty squares the king reaches in one rook move as the board stands, the throne
    /// and the corners included (whether the rules let him stop there or not). Empty without
    /// a king.
    ///
    /// ```
    /// use brandubh::rules::{Bitboard, Position, Square};
    ///
    /// // The king on c7: b7 and a7 to the west, d7 before the attacker on e7, c6 down to c1.
    /// let position: Position = "/7/7/7/7/7/7/2K1t2/ d".parse()?;
    /// let squares: Bitboard = ["a7", "b7", "d7", "c6", "c5", "c4", "c3", "c2", "c1"]
    ///     .iter()
    ///     .map(|s| s.parse::<Square>())
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(position.king_reach(), squares);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn king_reach(&self) -> Bitboard {
        self.king()
            .map_or(Bitboard::EMPTY, |k| reach_from(k, self.occupied()))
    }

    /// The attackers' moves that would capture the king under `rules` if the attackers were
    /// to move: with the attackers to move, the captures they can make now; with the
    /// defenders to move, the threats the defenders must answer. Empty without a king.
    pub fn king_capture_moves(&self, rules: &Rules) -> MoveList {
        let mut found = MoveList::new();
        self.for_each_king_capture(rules, |mv| {
            found.push(mv);
            ControlFlow::Continue(())
        });
        found
    }

    /// One of [`Position::king_capture_moves`], found without listing the others: the move
    /// that wins at once with the attackers to move, or the threat to answer with the
    /// defenders to move. `None` without a king or without such a move.
    ///
    /// ```
    /// use brandubh::rules::{Move, Position, Preset};
    ///
    /// // The king on d6 between the attacker on d7 and the empty d5, which c5 reaches.
    /// let position: Position = "/7/7/7/7/2t4/3K3/3t3/ a".parse()?;
    /// let capture: Move = "c5-d5".parse()?;
    /// assert_eq!(position.king_capture_move(&Preset::Standard.rules()), Some(capture));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn king_capture_move(&self, rules: &Rules) -> Option<Move> {
        let mut first = None;
        self.for_each_king_capture(rules, |mv| {
            first = Some(mv);
            ControlFlow::Break(())
        });
        first
    }

    /// Calls `f` with each attackers' move that would capture the king, until it breaks.
    ///
    /// Each square next to the king that an attacker reaches is played on a copy and judged
    /// by the capture rules themselves, so every preset's king rule applies as in play. The
    /// verdict depends only on the square: the attacker arriving there never comes from
    /// another square next to the king (those lie across the king or diagonally from it).
    fn for_each_king_capture(&self, rules: &Rules, mut f: impl FnMut(Move) -> ControlFlow<()>) {
        let Some(king) = self.king() else {
            return;
        };
        let around = king.bit().neighbours();
        // Every capture needs an attacker, a corner or the throne next to the king already.
        if (around & (self.pieces(Side::Attackers) | Bitboard::RESTRICTED)).is_empty() {
            return;
        }
        let occupied = self.occupied();
        let beside_king = around & !occupied & !Bitboard::RESTRICTED;
        if beside_king.is_empty() {
            return;
        }
        let attacking = self.with_side_to_move(Side::Attackers);
        let (mut judged, mut capturing) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for from in self.pieces(Side::Attackers) {
            for to in reach_from(from, occupied) & beside_king {
                let mv = Move::new(from, to);
                if !judged.contains(to) {
                    judged |= to.bit();
                    let mut after = attacking;
                    after.play_unchecked(mv, rules);
                    if after.king().is_none() {
                        capturing |= to.bit();
                    }
                }
                if capturing.contains(to) && f(mv).is_break() {
                    return;
                }
            }
        }
    }
}

impl GameState {
    /// How many times the position after `mv` would have occurred, itself included: 1 for a
    /// new position, 2 for its second occurrence, 3 when the move would decide the game by
    /// repetition (as [`Rules::repetition`](super::Rules::repetition) says). Counted
    /// from the game's history, the move is not played.
    ///
    /// ```
    /// use brandubh::rules::{GameState, Preset};
    ///
    /// let mut game = GameState::start(Preset::Standard.rules());
    /// for text in ["d1-c1", "e4-e5", "c1-d1"] {
    ///     game.play_text(text)?;
    /// }
    /// // Back to the start position: its second occurrence.
    /// assert_eq!(game.occurrences_after("e5-e4".parse()?)?, 2);
    /// assert_eq!(game.occurrences_after("e5-e6".parse()?)?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn occurrences_after(&self, mv: Move) -> Result<usize, IllegalMove> {
        self.check_move(mv)?;
        let mut after = *self.position();
        after.play_unchecked(mv, self.rules());
        Ok(1 + occurrences_before(self.history(), &after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset::Preset;

    #[test]
    fn a_position_without_a_king_has_no_king_threats() {
        let position: Position = "/7/7/7/2t4/7/7/7/ a".parse().unwrap();
        assert!(position.king_open_corners().is_empty());
        assert!(
            position
                .king_capture_moves(&Preset::Standard.rules())
                .is_empty()
        );
    }
}
