//! The board's eight symmetries (rotations and reflections). Every preset treats the throne
//! and the corners alike under all of them, so symmetric positions are the same puzzle.

use crate::rules::{Bitboard, Position, Square};

/// The square `sq` under symmetry number `index` (0..8; 0 is the identity).
fn map_square(sq: Square, index: u8) -> Square {
    let last = 6;
    let (f, r) = (sq.file(), sq.rank());
    let (f, r) = if index & 4 == 0 { (f, r) } else { (r, f) };
    let f = if index & 1 == 0 { f } else { last - f };
    let r = if index & 2 == 0 { r } else { last - r };
    Square::new(f, r).unwrap_or(sq)
}

fn map_board(board: Bitboard, index: u8) -> Bitboard {
    board.into_iter().map(|sq| map_square(sq, index)).collect()
}

/// `position` under each of the eight symmetries, the identity first.
pub fn images(position: &Position) -> impl Iterator<Item = Position> + '_ {
    (0..8).filter_map(move |index| {
        Position::from_parts(
            map_board(position.attackers(), index),
            map_board(position.defenders(), index),
            position.king().map(|k| map_square(k, index)),
            position.side_to_move(),
        )
        .ok()
    })
}

/// One key shared by `position` and all its symmetric images (the smallest of their keys).
pub fn canonical_key(position: &Position) -> u64 {
    images(position)
        .map(|p| p.key())
        .min()
        .unwrap_or_else(|| position.key())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_images_of_an_asymmetric_position_differ_and_share_one_key() {
        let position: Position = "/1t5/2K4/7/7/5T1/7/7/ d".parse().unwrap_or_default();
        let all: Vec<Position> = images(&position).collect();
        assert_eq!(all.len(), 8);
        let mut keys: Vec<u64> = all.iter().map(Position::key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 8);
        for image in &all {
            assert_eq!(canonical_key(image), canonical_key(&position));
        }
    }

    #[test]
    fn the_start_position_is_its_own_image() {
        let start = Position::start();
        assert!(images(&start).all(|p| p == start));
    }
}
