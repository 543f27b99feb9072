//! Zobrist keys: a fixed pseudo-random number per (piece, square) and one for the side to move.

use super::piece::{Piece, Side};
use super::square::Square;

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn build_piece_keys() -> [[u64; Square::COUNT]; 3] {
    let mut keys = [[0; Square::COUNT]; 3];
    let mut i = 0;
    while i < 3 * Square::COUNT {
        keys[i / Square::COUNT][i % Square::COUNT] =
            splitmix((i as u64).wrapping_mul(0x1234_5678_9abc_def1));
        i += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; Square::COUNT]; 3] = build_piece_keys();

/// Key mixed in when the defenders are to move.
const DEFENDERS_TO_MOVE: u64 = splitmix(0xdead_beef_cafe_f00d);

/// The key contribution of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece as usize][sq.index()]
}

/// The key contribution of the side to move.
#[inline]
pub(crate) const fn side_key(side: Side) -> u64 {
    match side {
        Side::Attackers => 0,
        Side::Defenders => DEFENDERS_TO_MOVE,
    }
}
