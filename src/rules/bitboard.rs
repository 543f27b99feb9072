//! Sets of squares as 49-bit masks.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares: bit `i` is the square with index `i`; bits 49..64 are always zero.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct Bitboard(u64);

const ALL_BITS: u64 = (1 << 49) - 1;
const FILE_A: u64 = 0x0000_0408_1020_4081;
const RANK_1: u64 = 0x7f;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 49 squares.
    pub const FULL: Bitboard = Bitboard(ALL_BITS);
    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard(1 | 1 << 6 | 1 << 42 | 1 << 48);
    /// The throne, `d4`.
    pub const THRONE: Bitboard = Bitboard(1 << 24);
    /// Squares where only the king may stop: the throne and the corners.
    pub const RESTRICTED: Bitboard = Bitboard(Self::CORNERS.0 | Self::THRONE.0);
    /// The 24 squares on the board's edge.
    pub const EDGE: Bitboard = Bitboard(RANK_1 | RANK_1 << 42 | FILE_A | FILE_A << 6);
    /// The four squares beside the throne: `d3`, `c4`, `e4`, `d5`.
    pub const BESIDE_THRONE: Bitboard = Bitboard(1 << 17 | 1 << 23 | 1 << 25 | 1 << 31);
    /// File a.
    pub const FILE_A: Bitboard = Bitboard(FILE_A);
    /// File g.
    pub const FILE_G: Bitboard = Bitboard(FILE_A << 6);

    /// The set with exactly these bits; bits above 48 are dropped.
    pub const fn from_bits(bits: u64) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// The raw mask.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares of the set, lowest first.
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }

    /// The lowest square of the set, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The set with `sq` added.
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Where rook moves from the squares of the set lead through the squares of `pass`: one
    /// set per direction (north, south, east, west), each holding the squares of `pass` that
    /// some square of the set reaches in a straight line over squares of `pass` only. With
    /// `pass` the empty squares, a square is in a direction's set once, for the one piece
    /// nearest behind it, so the sets' sizes add up to the number of moves.
    ///
    /// A Kogge-Stone fill: three doubling steps per direction cover a 7-square line.
    #[must_use]
    #[inline]
    pub fn rook_slides(self, pass: Bitboard) -> [Bitboard; 4] {
        #[inline]
        fn fill(from: u64, pass: u64, shift: impl Fn(u64, u32) -> u64, step: u32) -> Bitboard {
            let (mut g, mut p) = (from, pass);
            g |= p & shift(g, step);
            p &= shift(p, step);
            g |= p & shift(g, 2 * step);
            p &= shift(p, 2 * step);
            g |= p & shift(g, 4 * step);
            Bitboard(shift(g, step) & pass)
        }
        let (from, pass) = (self.0, pass.0);
        [
            fill(from, pass, |b, n| (b << n) & ALL_BITS, 7),
            fill(from, pass, |b, n| b >> n, 7),
            fill(from, pass & !FILE_A, |b, n| b << n, 1),
            fill(from, pass & !(FILE_A << 6), |b, n| b >> n, 1),
        ]
    }

    /// The squares orthogonally next to any square of the set.
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let east = (b & !(FILE_A << 6)) << 1;
        let west = (b & !FILE_A) >> 1;
        Bitboard((east | west | b << 7 | b >> 7) & ALL_BITS)
    }
}

/// The squares' questions answered by a bitboard: kept here, beside [`Bitboard`], so that
/// `square.rs` needs nothing of this file.
impl Square {
    /// This square as a one-square bitboard.
    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.index())
    }

    /// Whether this is one of the four corners.
    pub const fn is_corner(self) -> bool {
        Bitboard::CORNERS.contains(self)
    }

    /// Whether this square is on the board's edge (corners included).
    pub const fn is_edge(self) -> bool {
        Bitboard::EDGE.contains(self)
    }
}

/// The squares of a [`Bitboard`], lowest first: what iterating over a bitboard gives.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = Bitboard(self.0).first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// Seven rows of `x` and `.`, rank 7 first, as the board is seen.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..7).rev() {
            for file in 0..7 {
                let set = Square::new(file, rank).is_some_and(|sq| self.contains(sq));
                f.write_str(if set { "x" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn named_sets_hold_the_right_squares() {
        let names = |b: Bitboard| b.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(Bitboard::CORNERS), ["a1", "g1", "a7", "g7"]);
        assert_eq!(names(Bitboard::THRONE), ["d4"]);
        assert_eq!(names(Bitboard::BESIDE_THRONE), ["d3", "c4", "e4", "d5"]);
        assert_eq!(Bitboard::EDGE.count(), 24);
        assert!(Square::all().all(|s| Bitboard::EDGE.contains(s)
            == (s.file() == 0 || s.file() == 6 || s.rank() == 0 || s.rank() == 6)));
    }

    #[test]
    fn squares_come_lowest_first_and_leave_the_set_whole() {
        let set: Bitboard = [sq("g7"), sq("a1"), sq("d4")].into_iter().collect();
        let mut squares = set.iter();
        assert_eq!(squares.len(), 3);
        assert_eq!(squares.next(), Some(sq("a1")));
        assert_eq!(squares.len(), 2);
        assert_eq!(squares.collect::<Vec<_>>(), [sq("d4"), sq("g7")]);
        assert_eq!(set.into_iter().collect::<Bitboard>(), set);
        assert_eq!(set.count(), 3);
        assert_eq!(Bitboard::EMPTY.iter().next(), None);
    }

    #[test]
    fn neighbours_do_not_wrap_around_the_edges() {
        let n = sq("a4").bit().neighbours();
        assert_eq!(n, [sq("a3"), sq("a5"), sq("b4")].into_iter().collect());
        let n = sq("g1").bit().neighbours();
        assert_eq!(n, [sq("f1"), sq("g2")].into_iter().collect());
        assert_eq!(Bitboard::THRONE.neighbours(), Bitboard::BESIDE_THRONE);
    }

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert_eq!((!Bitboard::CORNERS).count(), 45);
    }
}
