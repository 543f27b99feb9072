//! The static evaluation: every term and weight in one place.
//!
//! Scores are in hundredths of an attacking soldier, from the side to move's point of view.
//! Terms: material; the king's distance to the corners in king moves; the king's freedom and
//! the danger around him; attackers guarding the corner approaches; and the mobility of both
//! sides.
//!
//! The king never has an open line to a corner where the search evaluates: with the
//! defenders to move that is a win, with the attackers to move their replies are searched.
//! So no term scores open lines.

use super::fill::reach;
use crate::rules::{Bitboard, Position, Rules, Side, Square};

/// Weights of the evaluation terms (positive favours the defenders).
struct Weights {
    attacker: i32,
    defender: i32,
    /// Per square the king reaches from which he would see a corner (escape in two moves).
    escape_route: i32,
    /// Per square reached in two king moves from which a corner is open (escape in three).
    far_route: i32,
    /// Per square the king can move to.
    king_freedom: i32,
    /// Per attacker next to the king.
    king_neighbour_attacker: i32,
    /// Per hostile empty square (corner, empty throne) next to the king.
    king_neighbour_hostile: i32,
    /// Per attacker on a square next to a corner.
    corner_guard: i32,
    /// Per attacker on a square diagonally next to a corner.
    corner_diagonal: i32,
    /// Per square a side's pieces reach in one move.
    mobility: i32,
    /// For the side to move.
    tempo: i32,
}

const W: Weights = Weights {
    attacker: 100,
    defender: 200,
    escape_route: 35,
    far_route: 6,
    king_freedom: 4,
    king_neighbour_attacker: 30,
    king_neighbour_hostile: 15,
    corner_guard: 25,
    corner_diagonal: 12,
    mobility: 2,
    tempo: 12,
};

/// Evaluation scores stay strictly inside this bound, below every win or loss score.
pub const MAX_EVAL: i32 = 20_000;

/// The squares orthogonally next to a corner: b1, f1, a2, g2, a6, g6, b7, f7.
const CORNER_APPROACH: Bitboard =
    Bitboard::from_bits(1 << 1 | 1 << 5 | 1 << 7 | 1 << 13 | 1 << 35 | 1 << 41 | 1 << 43 | 1 << 47);

/// The squares diagonally next to a corner: b2, f2, b6, f6.
const CORNER_DIAGONAL: Bitboard = Bitboard::from_bits(1 << 8 | 1 << 12 | 1 << 36 | 1 << 40);

/// The squares the king reaches from which he would see a corner, plus the corners he sees:
/// the destinations that bring him closest to escaping (empty if there is no king).
#[inline]
pub fn king_targets(pos: &Position) -> Bitboard {
    let Some(king) = pos.king() else {
        return Bitboard::EMPTY;
    };
    let empty = !pos.occupied();
    reach(king.bit(), empty) & (reach(Bitboard::CORNERS, empty) | Bitboard::CORNERS)
}

/// The static score of `pos` for the side to move.
pub fn evaluate(pos: &Position, rules: &Rules) -> i32 {
    let score = for_defenders(pos, rules);
    let score = match pos.side_to_move() {
        Side::Defenders => score + W.tempo,
        Side::Attackers => -score + W.tempo,
    };
    score.clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}

#[allow(clippy::cast_possible_wrap)]
fn count(b: Bitboard) -> i32 {
    b.count() as i32
}

/// The score from the defenders' point of view.
fn for_defenders(pos: &Position, rules: &Rules) -> i32 {
    let attackers = pos.attackers();
    let defenders = pos.defenders();
    let occupied = pos.occupied();
    let empty = !occupied;
    let mut score = W.defender * count(defenders) - W.attacker * count(attackers);
    score -= W.corner_guard * count(attackers & CORNER_APPROACH);
    score -= W.corner_diagonal * count(attackers & CORNER_DIAGONAL);
    let defender_reach = reach(pos.pieces(Side::Defenders), empty & !Bitboard::RESTRICTED);
    let attacker_reach = reach(attackers, empty & !Bitboard::RESTRICTED);
    score += W.mobility * (count(defender_reach) - count(attacker_reach));
    if let Some(king) = pos.king() {
        score += king_terms(king, pos, rules, empty);
    }
    score
}

fn king_terms(king: Square, pos: &Position, rules: &Rules, empty: Bitboard) -> i32 {
    let mut score = 0;
    let king_reach = reach(king.bit(), empty);
    let corner_reach = reach(Bitboard::CORNERS, empty);
    let routes = king_reach & corner_reach & !Bitboard::CORNERS;
    score += W.escape_route * count(routes);
    if routes.is_empty() {
        let second = reach(king_reach, empty) & corner_reach;
        score += W.far_route * count(second);
    }
    score += W.king_freedom * count(king_reach);
    let safe_on_edge = rules.king_safe_on_edge && king.is_edge();
    if !safe_on_edge {
        let around = king.bit().neighbours();
        score -= W.king_neighbour_attacker * count(around & pos.attackers());
        let mut hostile = Bitboard::EMPTY;
        if rules.corners_hostile_to_king {
            hostile |= Bitboard::CORNERS;
        }
        if rules.throne_hostile_to_defenders && !king.is_throne() {
            hostile |= Bitboard::THRONE;
        }
        score -= W.king_neighbour_hostile * count(around & hostile);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn the_start_is_roughly_balanced_and_symmetric() {
        let rules = Preset::Standard.rules();
        let start = Position::start();
        let score = evaluate(&start, &rules);
        assert!(score.abs() < 400, "{score}");
    }

    #[test]
    fn routes_to_the_corners_are_good_for_the_defenders() {
        let rules = Preset::Standard.rules();
        // The same three attackers (attackers to move): the king on c2 reaches a2, g2, c1
        // and c7, each with an open line to a corner; on d7 between them he reaches nothing.
        let routes = pos("/7/2K4/7/7/3t3/3tt2/7/ a");
        let boxed = pos("/7/7/7/7/7/3t3/2tKt2/ a");
        assert!(routes.king_open_corners().is_empty());
        assert!(!king_targets(&routes).is_empty());
        assert!(king_targets(&boxed).is_empty());
        assert!(evaluate(&routes, &rules) < evaluate(&boxed, &rules));
    }

    #[test]
    fn material_counts() {
        let rules = Preset::Standard.rules();
        let more = pos("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d");
        let fewer = pos("/3t3/3t3/3T3/ttTKTtt/7/3t3/3t3/ d");
        assert!(evaluate(&more, &rules) > evaluate(&fewer, &rules));
    }
}
