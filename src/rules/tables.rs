//! Lookup tables for rook moves on a 7×7 board, built at compile time.
//!
//! A rank's occupancy is 7 contiguous bits of the board mask; a file's occupancy is gathered
//! into 7 contiguous bits by one multiplication. Both then index the same per-line tables.

use super::bitboard::Bitboard;
use super::square::Square;

const FILE_A: u64 = Bitboard::FILE_A.bits();
/// Multiplier that moves bit `7k` of a file-a mask to bit `36 + k`. The partial products all
/// land on distinct bits, so no carry disturbs bits 36..43.
const FILE_GATHER: u64 = 1 << 36 | 1 << 30 | 1 << 24 | 1 << 18 | 1 << 12 | 1 << 6 | 1;

/// `LINE_REACH[pos][occ]`: empty positions a piece at `pos` reaches along a 7-square line
/// whose occupied positions are `occ` (bit `pos` itself is ignored).
static LINE_REACH: [[u8; 128]; 7] = build_line_reach();

/// `FILE_SPREAD[mask]`: the 7-bit line mask laid out on file a (bit k → square index 7k).
static FILE_SPREAD: [u64; 128] = build_file_spread();

const fn reach(pos: usize, occ: usize) -> u8 {
    let mut out = 0u8;
    let mut p = pos + 1;
    while p < 7 && occ >> p & 1 == 0 {
        out |= 1 << p;
        p += 1;
    }
    let mut p = pos;
    while p > 0 && occ >> (p - 1) & 1 == 0 {
        out |= 1 << (p - 1);
        p -= 1;
    }
    out
}

const fn build_line_reach() -> [[u8; 128]; 7] {
    let mut table = [[0; 128]; 7];
    let mut pos = 0;
    while pos < 7 {
        let mut occ = 0;
        while occ < 128 {
            table[pos][occ] = reach(pos, occ);
            occ += 1;
        }
        pos += 1;
    }
    table
}

const fn build_file_spread() -> [u64; 128] {
    let mut table = [0; 128];
    let mut mask = 0;
    while mask < 128 {
        let mut k = 0;
        while k < 7 {
            if mask >> k & 1 != 0 {
                table[mask] |= 1 << (7 * k);
            }
            k += 1;
        }
        mask += 1;
    }
    table
}

#[inline]
fn rank_occupancy(occ: u64, rank: u8) -> usize {
    (occ >> (7 * rank) & 0x7f) as usize
}

#[inline]
fn file_occupancy(occ: u64, file: u8) -> usize {
    ((occ >> file & FILE_A).wrapping_mul(FILE_GATHER) >> 36 & 0x7f) as usize
}

/// The empty squares a rook-moving piece on `from` reaches, given the occupied squares.
/// An empty throne is passed over like any empty square.
#[inline]
pub(crate) fn reach_from(from: Square, occupied: Bitboard) -> Bitboard {
    let occ = occupied.bits();
    let (file, rank) = (from.file(), from.rank());
    let along_rank = u64::from(LINE_REACH[file as usize][rank_occupancy(occ, rank)]) << (7 * rank);
    let along_file =
        FILE_SPREAD[LINE_REACH[rank as usize][file_occupancy(occ, file)] as usize] << file;
    Bitboard::from_bits(along_rank | along_file)
}

/// How many moves the soldiers `movers` have together over the `empty` squares: the throne
/// and the corners are passed or reached but not stopped on.
#[inline]
pub(crate) fn soldier_move_count(movers: Bitboard, empty: Bitboard) -> u32 {
    movers
        .rook_slides(empty)
        .iter()
        .map(|&to| (to & !Bitboard::RESTRICTED).count())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach computed by walking rays one square at a time.
    fn slow_reach(from: Square, occupied: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let mut sq = from;
            while let Some(next) = sq.offset(df, dr) {
                if occupied.contains(next) {
                    break;
                }
                out = out.with(next);
                sq = next;
            }
        }
        out
    }

    #[test]
    fn tables_agree_with_ray_walking() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occupied = Bitboard::from_bits(seed & seed >> 3);
            for from in Square::all() {
                let occ = occupied.with(from);
                let reach = reach_from(from, occ);
                assert_eq!(reach, slow_reach(from, occ), "from {from}\n{occupied:?}");
                let one = Bitboard::EMPTY.with(from);
                assert_eq!(
                    soldier_move_count(one, !occ),
                    (reach & !Bitboard::RESTRICTED).count()
                );
            }
            // Any subset of the pieces moving together: the sum of their own moves.
            let movers = occupied & Bitboard::from_bits(seed >> 17);
            let each: u32 = movers
                .iter()
                .map(|sq| (slow_reach(sq, occupied) & !Bitboard::RESTRICTED).count())
                .sum();
            assert_eq!(soldier_move_count(movers, !occupied), each, "{occupied:?}");
        }
    }
}
