//! Bitboard fills for the evaluation and move ordering: where rook-moving pieces can go in
//! one move through empty squares, which squares a move to would sandwich an enemy, and which
//! enemies a move could sandwich.

use crate::rules::Bitboard;

const ALL: u64 = Bitboard::FULL.bits();
const NOT_FILE_A: u64 = ALL & !Bitboard::FILE_A.bits();
const NOT_FILE_G: u64 = ALL & !Bitboard::FILE_G.bits();

/// One step in each direction: north, south, east, west.
const STEPS: [fn(u64) -> u64; 4] = [north, south, east, west];

#[inline]
const fn north(b: u64) -> u64 {
    (b << 7) & ALL
}

#[inline]
const fn south(b: u64) -> u64 {
    b >> 7
}

#[inline]
const fn east(b: u64) -> u64 {
    (b << 1) & NOT_FILE_A
}

#[inline]
const fn west(b: u64) -> u64 {
    (b >> 1) & NOT_FILE_G
}

/// Every square some piece of `from` reaches in one rook move over `empty` squares
/// (the origins themselves excluded unless reached from another origin).
#[inline]
pub fn reach(from: Bitboard, empty: Bitboard) -> Bitboard {
    let [up, down, right, left] = from.rook_slides(empty);
    up | down | right | left
}

/// The squares where a piece moving in would sandwich a piece of `victims` against a piece
/// of `anvils` on the other side (custodian capture, ignoring the king's special rules).
#[inline]
pub fn sandwich_squares(victims: Bitboard, anvils: Bitboard) -> Bitboard {
    let (victims, anvils) = (victims.bits(), anvils.bits());
    let mut out = 0;
    // For a capture along direction d the mover lands on s, the victim stands on s + d and
    // the anvil on s + 2d: s is one step back from the victim and two from the anvil.
    for back in STEPS {
        out |= back(victims) & back(back(anvils));
    }
    Bitboard::from_bits(out)
}

/// The pieces of `victims` that a piece moving to a square of `landing` would sandwich against
/// a piece of `anvils` on the other side (custodian capture, ignoring the king's special rules
/// and that the mover might be the anvil itself).
#[inline]
pub fn sandwiched_by(victims: Bitboard, anvils: Bitboard, landing: Bitboard) -> Bitboard {
    let (victims, anvils, landing) = (victims.bits(), anvils.bits(), landing.bits());
    // The mover lands on s, the victim stands on s + d and the anvil on s + 2d: the victim is
    // one step forward from a landing square and one step back from an anvil.
    let out = north(landing) & south(anvils)
        | south(landing) & north(anvils)
        | east(landing) & west(anvils)
        | west(landing) & east(anvils);
    Bitboard::from_bits(victims & out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    fn bb(names: &[&str]) -> Bitboard {
        names.iter().map(|n| n.parse::<Square>().unwrap()).collect()
    }

    /// `count` pseudo-random words from `seed` (xorshift), for random boards.
    fn words(mut seed: u64, count: usize) -> impl Iterator<Item = u64> {
        (0..count).map(move |_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        })
    }

    #[test]
    fn reach_stops_at_pieces_and_edges() {
        let occupied = bb(&["d4", "d6", "b4"]);
        let got = reach(bb(&["d4"]), !occupied);
        assert_eq!(got, bb(&["d5", "d3", "d2", "d1", "c4", "e4", "f4", "g4"]));
        let corner = reach(bb(&["a1"]), !bb(&["a1", "a3"]));
        assert_eq!(corner, bb(&["a2", "b1", "c1", "d1", "e1", "f1", "g1"]));
    }

    fn slow_reach(from: Bitboard, empty: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in from {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut at = sq;
                while let Some(next) = at.offset(df, dr).filter(|n| empty.contains(*n)) {
                    out = out.with(next);
                    at = next;
                }
            }
        }
        out
    }

    #[test]
    fn reach_agrees_with_ray_walking() {
        for seed in words(0x2545_f491_4f6c_dd1d, 3000) {
            let occupied = Bitboard::from_bits(seed & seed >> 5);
            let from = Bitboard::from_bits(seed >> 11 & seed >> 23 & seed >> 3);
            let empty = !occupied;
            assert_eq!(
                reach(from, empty),
                slow_reach(from, empty),
                "{from:?}\n{occupied:?}"
            );
        }
    }

    #[test]
    fn sandwich_squares_need_an_anvil_beyond_the_victim() {
        let got = sandwich_squares(bb(&["c3"]), bb(&["c4", "d3", "c6"]));
        assert_eq!(got, bb(&["c2", "b3"]));
        assert!(sandwich_squares(bb(&["a2"]), bb(&["g1"])).is_empty());
        assert!(sandwich_squares(bb(&["g2"]), bb(&["a3"])).is_empty());
    }

    #[test]
    fn sandwiched_by_agrees_with_sandwich_squares() {
        for seed in words(0x9e37_79b9_7f4a_7c15, 2000) {
            let victims = Bitboard::from_bits(seed & seed >> 9 & Bitboard::FULL.bits());
            let anvils =
                Bitboard::from_bits(seed >> 3 & seed >> 21 & !victims.bits()) & Bitboard::FULL;
            let landing =
                Bitboard::from_bits(seed >> 17 & !(victims | anvils).bits()) & Bitboard::FULL;
            let mut slow = Bitboard::EMPTY;
            for s in landing & sandwich_squares(victims, anvils) {
                slow |= s.bit().neighbours() & victims & sandwiched_neighbours(s, anvils);
            }
            assert_eq!(sandwiched_by(victims, anvils, landing), slow);
        }
    }

    /// The neighbours of `s` that have a square of `anvils` beyond them, seen from `s`.
    fn sandwiched_neighbours(s: Square, anvils: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let (Some(n), Some(b)) = (s.offset(df, dr), s.offset(2 * df, 2 * dr))
                && anvils.contains(b)
            {
                out = out.with(n);
            }
        }
        out
    }

    #[test]
    fn sandwiched_by_names_the_victims() {
        // A defender landing on c2 takes c3 against c4 and d2 against e2; b3 has no anvil.
        let got = sandwiched_by(
            bb(&["c3", "d2", "b3"]),
            bb(&["c4", "e2"]),
            bb(&["c2", "a3"]),
        );
        assert_eq!(got, bb(&["c3", "d2"]));
        assert!(sandwiched_by(bb(&["a2"]), bb(&["b2"]), bb(&["g1"])).is_empty());
    }
}
