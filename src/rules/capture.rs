//! Custodian captures of soldiers and the preset-dependent capture of the king.

use super::bitboard::Bitboard;
use super::piece::Side;
use super::preset::{KingBesideThrone, KingOnThrone, Rules};
use super::square::Square;

/// Sentinel for "off the board" in [`LINES`].
const NONE: u8 = u8::MAX;

/// `LINES[sq][dir]`: the neighbour of `sq` in direction `dir` and the square beyond it.
static LINES: [[(u8, u8); 4]; Square::COUNT] = build_lines();

const fn build_lines() -> [[(u8, u8); 4]; Square::COUNT] {
    let mut table = [[(NONE, NONE); 4]; Square::COUNT];
    let dirs: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut i = 0;
    while i < Square::COUNT {
        #[allow(clippy::cast_possible_truncation)]
        let sq = Square::from_index_unchecked(i as u32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            if let (Some(n), Some(b)) = (sq.offset(df, dr), sq.offset(2 * df, 2 * dr)) {
                #[allow(clippy::cast_possible_truncation)]
                let pair = (n.index() as u8, b.index() as u8);
                table[i][d] = pair;
            }
            d += 1;
        }
        i += 1;
    }
    table
}

/// The board as seen by the capture rules, after the mover's piece arrived.
pub(crate) struct Board {
    pub attackers: Bitboard,
    pub defenders: Bitboard,
    pub king: Bitboard,
}

/// The squares whose pieces the move to `to` by `mover` captures, the king's included.
#[inline]
pub(crate) fn captures(board: &Board, to: Square, mover: Side, rules: &Rules) -> Bitboard {
    let throne_empty = (board.king & Bitboard::THRONE).is_empty();
    let (own, victims, throne_hostile) = match mover {
        Side::Attackers => (
            board.attackers,
            board.defenders,
            rules.throne_hostile_to_defenders,
        ),
        Side::Defenders => (
            board.defenders | board.king,
            board.attackers,
            rules.throne_hostile_to_attackers,
        ),
    };
    let mut anvils = own;
    if rules.corners_hostile {
        anvils |= Bitboard::CORNERS;
    }
    if throne_hostile && throne_empty {
        anvils |= Bitboard::THRONE;
    }
    let near = to.bit().neighbours();
    let mut captured = Bitboard::EMPTY;
    if !(near & victims).is_empty() {
        for &(n, b) in &LINES[to.index()] {
            if n != NONE && victims.bits() >> n & 1 != 0 && anvils.bits() >> b & 1 != 0 {
                captured |= Bitboard::from_bits(1 << n);
            }
        }
    }
    if mover == Side::Attackers
        && !(near & board.king).is_empty()
        && let Some(king) = board.king.first()
        && king_is_captured(board.attackers, king, to, rules)
    {
        captured |= board.king;
    }
    captured
}

/// Whether the attacker that just arrived on `to`, next to the king on `king`, captures him.
fn king_is_captured(attackers: Bitboard, king: Square, to: Square, rules: &Rules) -> bool {
    if rules.king_safe_on_edge && king.is_edge() {
        return false;
    }
    // The square on the far side of the king from the attacker that moved.
    #[allow(clippy::cast_possible_wrap)]
    let beyond = king.offset(
        king.file() as i8 - to.file() as i8,
        king.rank() as i8 - to.rank() as i8,
    );
    let surrounded_except = |spare: Bitboard| {
        let around = king.bit().neighbours() & !spare;
        (around & attackers) == around
    };
    let sandwiched = |hostile: Bitboard| beyond.is_some_and(|b| (attackers | hostile).contains(b));
    if king.is_throne() {
        match rules.king_on_throne {
            KingOnThrone::FourAttackers => surrounded_except(Bitboard::EMPTY),
            KingOnThrone::Sandwich => sandwiched(Bitboard::EMPTY),
        }
    } else if Bitboard::BESIDE_THRONE.contains(king) {
        match rules.king_beside_throne {
            KingBesideThrone::ThreeAttackers => surrounded_except(Bitboard::THRONE),
            KingBesideThrone::SandwichAgainstThrone => sandwiched(Bitboard::THRONE),
            KingBesideThrone::Sandwich => sandwiched(Bitboard::EMPTY),
            KingBesideThrone::Uncapturable => false,
        }
    } else if rules.corners_hostile_to_king {
        sandwiched(Bitboard::CORNERS)
    } else {
        sandwiched(Bitboard::EMPTY)
    }
}
