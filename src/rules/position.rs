//! The board with the side to move and its Zobrist key; move generation and making moves.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::capture::{self, Board};
use super::moves::{IllegalMove, Move, MoveList};
use super::piece::{Piece, Side};
use super::preset::Rules;
use super::square::Square;
use super::tables::{reach_from, soldier_move_count};
use super::zobrist::{piece_key, side_key};
use crate::quote::excerpt;

/// A legal arrangement of pieces with the side to move. Fields are private: every `Position`
/// has at most one king and no soldier on the throne or a corner.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Position {
    attackers: Bitboard,
    defenders: Bitboard,
    king: Bitboard,
    side: Side,
    key: u64,
}

/// The start position string (RULES.md §1).
pub const START: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a";

impl Position {
    /// The start position: king on d4, defenders around him, attackers in a cross; attackers to move.
    pub fn start() -> Position {
        let sqs = |names: &[&str]| -> Bitboard {
            names
                .iter()
                .filter_map(|n| n.parse::<Square>().ok())
                .collect()
        };
        Position::build(
            sqs(&["d1", "d2", "a4", "b4", "f4", "g4", "d6", "d7"]),
            sqs(&["d3", "c4", "e4", "d5"]),
            Bitboard::THRONE,
            Side::Attackers,
        )
    }

    /// A position from its parts, checked: pieces on distinct squares, at most one king, and
    /// no soldier on the throne or a corner.
    pub fn from_parts(
        attackers: Bitboard,
        defenders: Bitboard,
        king: Option<Square>,
        side: Side,
    ) -> Result<Position, SetupError> {
        let king = king.map_or(Bitboard::EMPTY, Square::bit);
        let overlap = (attackers & defenders) | ((attackers | defenders) & king);
        if let Some(sq) = overlap.first() {
            return Err(SetupError::Overlap(sq));
        }
        if let Some(sq) = ((attackers | defenders) & Bitboard::RESTRICTED).first() {
            return Err(SetupError::SoldierOnRestricted(sq));
        }
        Ok(Position::build(attackers, defenders, king, side))
    }

    fn build(attackers: Bitboard, defenders: Bitboard, king: Bitboard, side: Side) -> Position {
        let mut pos = Position {
            attackers,
            defenders,
            king,
            side,
            key: 0,
        };
        pos.key = pos.computed_key();
        pos
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same board with `side` to move.
    #[must_use]
    pub(crate) fn with_side_to_move(mut self, side: Side) -> Position {
        if side != self.side {
            self.side = side;
            self.key ^= side_key(Side::Attackers) ^ side_key(Side::Defenders);
        }
        self
    }

    /// The attacking soldiers.
    pub const fn attackers(&self) -> Bitboard {
        self.attackers
    }

    /// The defending soldiers (without the king).
    pub const fn defenders(&self) -> Bitboard {
        self.defenders
    }

    /// The king's square; `None` once he has been captured.
    pub const fn king(&self) -> Option<Square> {
        self.king.first()
    }

    /// Every piece of `side` (the king counts for the defenders).
    pub const fn pieces(&self, side: Side) -> Bitboard {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => Bitboard::from_bits(self.defenders.bits() | self.king.bits()),
        }
    }

    /// Every occupied square.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard::from_bits(self.attackers.bits() | self.defenders.bits() | self.king.bits())
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else if self.king.contains(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// The Zobrist key of board and side to move, kept up to date move by move.
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch (equals [`Position::key`]).
    pub fn computed_key(&self) -> u64 {
        let pieces = [
            (Piece::Attacker, self.attackers),
            (Piece::Defender, self.defenders),
            (Piece::King, self.king),
        ];
        pieces
            .into_iter()
            .flat_map(|(piece, bb)| bb.iter().map(move |sq| piece_key(piece, sq)))
            .fold(side_key(self.side), |k, p| k ^ p)
    }

    /// Where the piece on `from` may move, if it belongs to the side to move.
    pub fn destinations(&self, from: Square) -> Bitboard {
        if !self.pieces(self.side).contains(from) {
            return Bitboard::EMPTY;
        }
        self.destinations_of(from)
    }

    #[inline]
    fn destinations_of(&self, from: Square) -> Bitboard {
        let reach = reach_from(from, self.occupied());
        if self.king.contains(from) {
            reach
        } else {
            reach & !Bitboard::RESTRICTED
        }
    }

    /// Calls `f(from, destinations)` for each piece of the side to move that can move.
    #[inline]
    pub(crate) fn for_each_piece_moves(&self, mut f: impl FnMut(Square, Bitboard)) {
        for from in self.pieces(self.side) {
            let to = self.destinations_of(from);
            if !to.is_empty() {
                f(from, to);
            }
        }
    }

    /// Every legal move of the side to move, ignoring whether the game is already over
    /// (see [`GameState::legal_moves`](super::GameState::legal_moves) for that).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_piece_moves(|from, dests| {
            for to in dests {
                list.push(Move::new(from, to));
            }
        });
        list
    }

    /// The number of legal moves of the side to move, counted without listing them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let occ = self.occupied();
        let soldiers = match self.side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let mut n = soldier_move_count(soldiers, !occ);
        if self.side == Side::Defenders
            && let Some(k) = self.king.first()
        {
            n += reach_from(k, occ).count();
        }
        u64::from(n)
    }

    /// Whether the side to move has any legal move.
    pub fn has_moves(&self) -> bool {
        self.pieces(self.side)
            .iter()
            .any(|sq| !self.destinations_of(sq).is_empty())
    }

    /// Checks that `mv` is a legal move of the side to move, saying why not.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let (from, to) = (mv.from(), mv.to());
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
        if piece.side() != self.side {
            return Err(IllegalMove::NotYourPiece(from));
        }
        if from == to {
            return Err(IllegalMove::NullMove(from));
        }
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(IllegalMove::NotStraight(mv));
        }
        if !self.destinations_of(from).contains(to) {
            let occ = self.occupied();
            #[allow(clippy::cast_possible_wrap)]
            let step = (
                (to.file() as i8 - from.file() as i8).signum(),
                (to.rank() as i8 - from.rank() as i8).signum(),
            );
            let mut sq = from;
            while let Some(next) = sq.offset(step.0, step.1) {
                if occ.contains(next) {
                    return Err(IllegalMove::Blocked(mv, next));
                }
                if next == to {
                    break;
                }
                sq = next;
            }
            return Err(IllegalMove::RestrictedSquare(to));
        }
        Ok(())
    }

    /// Plays `mv` for the side to move, removes what it captures, passes the turn, and
    /// returns the captured squares (the king's included).
    ///
    /// The move must be legal (see [`Position::check_move`]); an illegal one leaves the
    /// position in an unspecified but memory-safe state. Meant for search and perft.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move, rules: &Rules) -> Bitboard {
        let (from, to) = (mv.from(), mv.to());
        let mover = self.side;
        let piece = if self.king.contains(from) {
            self.king = to.bit();
            Piece::King
        } else if mover == Side::Attackers {
            self.attackers = self.attackers.without(from).with(to);
            Piece::Attacker
        } else {
            self.defenders = self.defenders.without(from).with(to);
            Piece::Defender
        };
        self.key ^= piece_key(piece, from) ^ piece_key(piece, to);
        let board = Board {
            attackers: self.attackers,
            defenders: self.defenders,
            king: self.king,
        };
        let captured = capture::captures(&board, to, mover, rules);
        if !captured.is_empty() {
            self.remove(captured);
        }
        self.side = mover.opponent();
        self.key ^= side_key(Side::Attackers) ^ side_key(Side::Defenders);
        captured
    }

    fn remove(&mut self, captured: Bitboard) {
        for sq in captured {
            if let Some(piece) = self.piece_at(sq) {
                self.key ^= piece_key(piece, sq);
            }
        }
        self.attackers &= !captured;
        self.defenders &= !captured;
        self.king &= !captured;
    }

    /// Whether the king stands on a corner.
    pub(crate) const fn king_escaped(&self) -> bool {
        !Bitboard::from_bits(self.king.bits() & Bitboard::CORNERS.bits()).is_empty()
    }

    /// Whether no defender and not the king can reach an edge square by orthogonal steps
    /// through squares free of attackers.
    pub fn is_encircled(&self) -> bool {
        let free = !self.attackers;
        let mut region = self.pieces(Side::Defenders);
        if region.is_empty() {
            return false;
        }
        loop {
            if !(region & Bitboard::EDGE).is_empty() {
                return false;
            }
            let grown = (region | region.neighbours()) & free;
            if grown == region {
                return true;
            }
            region = grown;
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

/// Why pieces cannot be set up as asked.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum SetupError {
    /// Two pieces on one square.
    Overlap(Square),
    /// A soldier on the throne or a corner.
    SoldierOnRestricted(Square),
    /// More than one king.
    SecondKing(Square),
    /// The board part does not have 7 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 7 squares.
    RankLength {
        /// The rank, 1..=7.
        rank: usize,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–7.
    BadChar {
        /// The rank, 1..=7.
        rank: usize,
        /// The character.
        ch: char,
    },
    /// The side to move is not `a` or `d`.
    BadSide(String),
    /// Text after the side to move.
    Trailing(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Overlap(sq) => write!(f, "two pieces on {sq}"),
            Self::SoldierOnRestricted(sq) => {
                write!(
                    f,
                    "a soldier on {sq}: only the king may stand on the throne or a corner"
                )
            }
            Self::SecondKing(sq) => write!(f, "a second king on {sq}"),
            Self::RankCount(1) => write!(f, "the board has 1 rank, expected 7 separated by /"),
            Self::RankCount(n) => write!(f, "the board has {n} ranks, expected 7 separated by /"),
            Self::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 7")
            }
            Self::BadChar { rank, ch } => write!(
                f,
                "rank {rank}: '{}' is not t, T, K or a digit 1-7",
                excerpt(&ch.to_string())
            ),
            Self::BadSide(s) => write!(f, "side to move \"{}\" is not a or d", excerpt(s)),
            Self::Trailing(s) => {
                write!(f, "unexpected \"{}\" after the side to move", excerpt(s))
            }
        }
    }
}

impl std::error::Error for SetupError {}

impl FromStr for Position {
    type Err = SetupError;

    /// Parses a position string: the OpenTafl record, rank 1 first, then optionally `a` or `d`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let board = words.next().unwrap_or("");
        let side = match words.next() {
            None | Some("a") => Side::Attackers,
            Some("d") => Side::Defenders,
            Some(other) => return Err(SetupError::BadSide(other.to_owned())),
        };
        if let Some(extra) = words.next() {
            return Err(SetupError::Trailing(extra.to_owned()));
        }
        let board = board.strip_prefix('/').unwrap_or(board);
        let board = board.strip_suffix('/').unwrap_or(board);
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 7 {
            return Err(SetupError::RankCount(ranks.len()));
        }
        let (mut attackers, mut defenders) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let mut king = None;
        for (r, text) in ranks.iter().enumerate() {
            let rank = r + 1;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(run) = ch.to_digit(10).filter(|d| (1..=7).contains(d)) {
                    file += run as usize;
                    continue;
                }
                let piece = Piece::from_letter(ch).ok_or(SetupError::BadChar { rank, ch })?;
                let sq = u8::try_from(file)
                    .ok()
                    .and_then(|f| Square::new(f, u8::try_from(r).ok()?));
                file += 1;
                let Some(sq) = sq else { continue };
                match piece {
                    Piece::Attacker => attackers = attackers.with(sq),
                    Piece::Defender => defenders = defenders.with(sq),
                    Piece::King if king.is_some() => return Err(SetupError::SecondKing(sq)),
                    Piece::King => king = Some(sq),
                }
            }
            if file != 7 {
                return Err(SetupError::RankLength {
                    rank,
                    squares: file,
                });
            }
        }
        Position::from_parts(attackers, defenders, king, side)
    }
}

impl fmt::Display for Position {
    /// The position string, e.g. `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("/")?;
        for rank in 0..7 {
            let mut empty = 0;
            for file in 0..7 {
                let piece = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                match piece {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            f.write_str("/")?;
        }
        let side = match self.side {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        };
        write!(f, " {side}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changing_the_side_to_move_keeps_the_key_right() {
        let start = Position::start();
        let defenders = start.with_side_to_move(Side::Defenders);
        assert_eq!(defenders.side_to_move(), Side::Defenders);
        assert_eq!(defenders.key(), defenders.computed_key());
        assert_ne!(defenders.key(), start.key());
        assert_eq!(defenders.with_side_to_move(Side::Attackers), start);
        assert_eq!(start.with_side_to_move(Side::Attackers), start);
    }
}
