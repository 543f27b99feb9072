//! The static evaluation: every term and weight in one place.
//!
//! Scores are in hundredths of an attacking soldier, from the side to move's point of view.
//! The evaluation is a dot product: [`features`] counts what the position has (material,
//! routes, king freedom, ...), a [`Weights`] vector says what each count is worth to the
//! defenders, and [`evaluate`] turns the sum to the side to move's view. The weights are
//! fitted to the results of self-play games by logistic regression (Texel's method, the
//! `tune` example; docs/engine.md gives the procedure and the figures).
//!
//! The king never has an open line to a corner where the search evaluates: with the
//! defenders to move that is a win, with the attackers to move their replies are searched.
//! So no term scores open lines.

use super::fill::{reach, sandwiched_by};
use crate::rules::{Bitboard, Position, Rules, Side, Square};

/// Declares the features, one field each in [`Features`] (the count) and [`Weights`] (its
/// worth), with the same documentation.
macro_rules! terms {
    ($($(#[doc = $doc:literal])+ $name:ident,)+) => {
        /// The evaluation's features of a position: integer counts, each documented with the
        /// term it feeds. Plain data, as [`features`] computes it.
        #[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
        pub struct Features {
            $($(#[doc = $doc])+ pub $name: i32,)+
        }

        /// A weight per feature, from the defenders' point of view: positive when more of the
        /// feature is good for the defenders. Each field is documented with its feature.
        #[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
        pub struct Weights {
            $($(#[doc = $doc])+ pub $name: i32,)+
        }

        impl Features {
            /// The number of features.
            pub const COUNT: usize = [$(stringify!($name)),+].len();
            /// The features' names (their field names), in the order of [`Features::to_array`].
            pub const NAMES: [&'static str; Features::COUNT] = [$(stringify!($name)),+];

            /// The counts as an array, in the order of [`Features::NAMES`].
            pub const fn to_array(self) -> [i32; Features::COUNT] {
                [$(self.$name),+]
            }
        }

        impl Weights {
            /// The weights as an array, in the order of [`Features::NAMES`].
            pub const fn to_array(self) -> [i32; Features::COUNT] {
                [$(self.$name),+]
            }

            /// The weights of an array in the order of [`Features::NAMES`].
            pub const fn from_array(array: [i32; Features::COUNT]) -> Weights {
                let [$($name),+] = array;
                Weights { $($name),+ }
            }

            /// The score of `features` from the defenders' point of view (before [`evaluate`]
            /// turns it to the side to move's and bounds it).
            #[inline]
            pub const fn dot(&self, features: &Features) -> i32 {
                0 $(+ self.$name * features.$name)+
            }
        }
    };
}

terms! {
    /// Attacking soldiers on the board.
    attackers,
    /// Defending soldiers on the board (the king not counted).
    defenders,
    /// The side to move: +1 for the defenders, -1 for the attackers (so its weight is a bonus
    /// for whoever moves).
    tempo,
    /// Attackers on the squares orthogonally next to a corner (b1, f1, a2, g2, a6, g6, b7, f7).
    corner_guards,
    /// Attackers on the squares diagonally next to a corner (b2, f2, b6, f6).
    corner_diagonals,
    /// Blockades: an attacker next to a corner with a second attacker beyond it along the edge
    /// (b1 and c1, a2 and a3, ...). Neither can be captured: the one next to the corner has a
    /// friend where the anvil would stand, the other has the edge behind it and a friend on
    /// one side. Counted once per pair.
    blockades,
    /// Squares the defenders' pieces (the king included) reach in one move, excluding the
    /// throne and the corners.
    defender_mobility,
    /// Squares the attackers reach in one move, excluding the throne and the corners.
    attacker_mobility,
    /// Escape routes: squares the king reaches from which he would see a corner (an escape in
    /// two moves).
    escape_routes,
    /// Only when there are no escape routes: squares reached in two king moves from which a
    /// corner is open (an escape in three).
    far_routes,
    /// The king's distance to safety: the fewest king moves to a corner over the empty squares
    /// as they stand (the attackers not moving), 2 to 4, and 5 for farther or never; 0
    /// without a king.
    king_distance,
    /// Squares the king can move to.
    king_freedom,
    /// Attackers next to the king, unless he stands where he cannot be captured.
    king_attackers,
    /// Hostile empty squares (corners, the empty throne) next to the king, unless he stands
    /// where he cannot be captured.
    king_hostile,
    /// Escape routes an attacker can move onto: the attackers' tempo toward closing them.
    route_cover,
    /// Squares the king can move to that an attacker can move onto: lines the attackers can
    /// close with their next move.
    line_cover,
    /// With the defenders to move, attacking soldiers a defender can capture with this move.
    attackers_threatened,
    /// With the attackers to move, attacking soldiers a defender could capture if the
    /// attackers left them (pieces hanging, the attackers' to save).
    attackers_hanging,
    /// With the attackers to move, defending soldiers an attacker can capture with this move.
    defenders_threatened,
    /// With the defenders to move, defending soldiers an attacker could capture if the
    /// defenders left them.
    defenders_hanging,
}

impl Weights {
    /// The hand-set weights the engine had before any were fitted (`v0.1.0`): the starting
    /// point of the `tune` example, and the weights of a preset whose fitted ones lost.
    pub const HAND_SET: Weights = Weights {
        attackers: -100,
        defenders: 200,
        tempo: 12,
        corner_guards: -25,
        corner_diagonals: -12,
        blockades: 0,
        defender_mobility: 2,
        attacker_mobility: -2,
        escape_routes: 35,
        far_routes: 6,
        king_distance: 0,
        king_freedom: 4,
        king_attackers: -30,
        king_hostile: -15,
        route_cover: 0,
        line_cover: 0,
        attackers_threatened: 0,
        attackers_hanging: 0,
        defenders_threatened: 0,
        defenders_hanging: 0,
    };
}

/// The weights for the `standard` rules and every preset whose throne is hostile (`walker`,
/// `nielsen`, `fellhuhn`): fitted by `cargo run --release --example tune -- --rules standard
/// --games 2000 --seed 1 --depth 4` (their match against the hand-set ones is in
/// docs/engine.md).
static STANDARD: Weights = Weights {
    attackers: -100,
    defenders: 157,
    tempo: 37,
    corner_guards: 28,
    corner_diagonals: 40,
    blockades: -27,
    defender_mobility: 20,
    attacker_mobility: 8,
    escape_routes: 41,
    far_routes: 24,
    king_distance: -18,
    king_freedom: 65,
    king_attackers: -9,
    king_hostile: 48,
    route_cover: -49,
    line_cover: -50,
    attackers_threatened: 117,
    attackers_hanging: 52,
    defenders_threatened: -26,
    defenders_hanging: -28,
};

/// The weights for rules whose throne is hostile to nobody (`opentafl`): fitted by
/// `cargo run --release --example tune -- --rules opentafl --games 4000 --seed 1` (their match
/// against the hand-set ones is in docs/engine.md).
static OPENTAFL: Weights = Weights {
    attackers: -100,
    defenders: 89,
    tempo: 39,
    corner_guards: 41,
    corner_diagonals: 7,
    blockades: 138,
    defender_mobility: 9,
    attacker_mobility: 10,
    escape_routes: 39,
    far_routes: 10,
    king_distance: 35,
    king_freedom: 79,
    king_attackers: -67,
    king_hostile: -15,
    route_cover: -76,
    line_cover: -68,
    attackers_threatened: 64,
    attackers_hanging: 52,
    defenders_threatened: -25,
    defenders_hanging: -16,
};

/// The weights [`evaluate`] uses under `rules`: [`OPENTAFL`]'s where the empty throne is
/// hostile to nobody, else [`STANDARD`]'s. Chosen by one rule parameter, not by comparing
/// whole presets, since the search calls this at every leaf.
#[inline]
pub fn weights(rules: &Rules) -> &'static Weights {
    if rules.throne_hostile_to_attackers || rules.throne_hostile_to_defenders {
        &STANDARD
    } else {
        &OPENTAFL
    }
}

/// Evaluation scores stay strictly inside this bound, below every win or loss score.
pub const MAX_EVAL: i32 = 20_000;

/// The squares orthogonally next to a corner: b1, f1, a2, g2, a6, g6, b7, f7.
const CORNER_APPROACH: Bitboard =
    Bitboard::from_bits(1 << 1 | 1 << 5 | 1 << 7 | 1 << 13 | 1 << 35 | 1 << 41 | 1 << 43 | 1 << 47);

/// The squares diagonally next to a corner: b2, f2, b6, f6.
const CORNER_DIAGONAL: Bitboard = Bitboard::from_bits(1 << 8 | 1 << 12 | 1 << 36 | 1 << 40);

/// The blockade pairs: a square next to a corner and the next square along the edge (b1 c1,
/// f1 e1, a2 a3, g2 g3, a6 a5, g6 g5, b7 c7, f7 e7).
const BLOCKADES: [u64; 8] = [
    1 << 1 | 1 << 2,
    1 << 5 | 1 << 4,
    1 << 7 | 1 << 14,
    1 << 13 | 1 << 20,
    1 << 35 | 1 << 28,
    1 << 41 | 1 << 34,
    1 << 43 | 1 << 44,
    1 << 47 | 1 << 46,
];

/// The value of [`Features::king_distance`] when a corner is farther than four king moves, or
/// out of reach.
const FAR: i32 = 5;

/// The squares the king reaches from which he would see a corner, plus the corners he sees:
/// the destinations that bring him closest to escaping (empty if there is no king).
#[inline]
pub fn king_targets(pos: &Position) -> Bitboard {
    let empty = !pos.occupied();
    pos.king_reach() & (reach(Bitboard::CORNERS, empty) | Bitboard::CORNERS)
}

/// The static score of `pos` for the side to move, with the weights of `rules`.
#[inline]
pub fn evaluate(pos: &Position, rules: &Rules) -> i32 {
    evaluate_with(pos, rules, weights(rules))
}

/// The static score of `pos` for the side to move, with `weights`.
#[inline]
fn evaluate_with(pos: &Position, rules: &Rules, weights: &Weights) -> i32 {
    let score = weights.dot(&features(pos, rules));
    let score = match pos.side_to_move() {
        Side::Defenders => score,
        Side::Attackers => -score,
    };
    score.clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}

#[allow(clippy::cast_possible_wrap)]
#[inline]
const fn count(b: Bitboard) -> i32 {
    b.count() as i32
}

/// The features of `pos` under `rules`, for the evaluation: `weights(rules).dot(&features)`
/// is the defenders' score before it is bounded. Public for tuning the weights.
#[inline]
pub fn features(pos: &Position, rules: &Rules) -> Features {
    let attackers = pos.attackers();
    let defenders = pos.defenders();
    let empty = !pos.occupied();
    let defenders_to_move = pos.side_to_move() == Side::Defenders;
    let mut f = Features {
        attackers: count(attackers),
        defenders: count(defenders),
        tempo: if defenders_to_move { 1 } else { -1 },
        corner_guards: count(attackers & CORNER_APPROACH),
        corner_diagonals: count(attackers & CORNER_DIAGONAL),
        ..Features::default()
    };
    let a = attackers.bits();
    for pair in BLOCKADES {
        f.blockades += i32::from(a & pair == pair);
    }
    let defender_reach = reach(pos.pieces(Side::Defenders), empty & !Bitboard::RESTRICTED);
    let attacker_reach = reach(attackers, empty & !Bitboard::RESTRICTED);
    f.defender_mobility = count(defender_reach);
    f.attacker_mobility = count(attacker_reach);
    hanging(&mut f, pos, rules, empty, [defender_reach, attacker_reach]);
    if let Some(king) = pos.king() {
        king_features(&mut f, king, pos, rules, empty, attacker_reach);
    }
    f
}

/// The soldiers either side could capture with one move ([`Features::attackers_threatened`]
/// and the three others), from the squares each side's pieces can move to (over the empty
/// throne too, unlike the mobility terms). A capture is counted even where the moving piece
/// itself would have been the anvil.
#[inline]
fn hanging(
    f: &mut Features,
    pos: &Position,
    rules: &Rules,
    empty: Bitboard,
    mobility: [Bitboard; 2],
) {
    // Where each side's pieces can land, passing an empty throne: with the throne taken that
    // is where they move to.
    let [defender_reach, attacker_reach] = if empty.contains(Square::THRONE) {
        let landing = |pieces| reach(pieces, empty) & !Bitboard::RESTRICTED;
        [
            landing(pos.pieces(Side::Defenders)),
            landing(pos.attackers()),
        ]
    } else {
        mobility
    };
    let corners = if rules.corners_hostile {
        Bitboard::CORNERS
    } else {
        Bitboard::EMPTY
    };
    let throne_empty = pos.king() != Some(Square::THRONE);
    let throne_against = |hostile: bool| {
        if hostile && throne_empty {
            Bitboard::THRONE
        } else {
            Bitboard::EMPTY
        }
    };
    let attacker_anvils =
        pos.pieces(Side::Defenders) | corners | throne_against(rules.throne_hostile_to_attackers);
    let defender_anvils =
        pos.attackers() | corners | throne_against(rules.throne_hostile_to_defenders);
    let attackers = count(sandwiched_by(
        pos.attackers(),
        attacker_anvils,
        defender_reach,
    ));
    let defenders = count(sandwiched_by(
        pos.defenders(),
        defender_anvils,
        attacker_reach,
    ));
    if pos.side_to_move() == Side::Defenders {
        f.attackers_threatened = attackers;
        f.defenders_hanging = defenders;
    } else {
        f.attackers_hanging = attackers;
        f.defenders_threatened = defenders;
    }
}

#[inline]
fn king_features(
    f: &mut Features,
    king: Square,
    pos: &Position,
    rules: &Rules,
    empty: Bitboard,
    attacker_reach: Bitboard,
) {
    let king_reach = pos.king_reach();
    let corner_reach = reach(Bitboard::CORNERS, empty);
    let routes = king_reach & corner_reach & !Bitboard::CORNERS;
    f.escape_routes = count(routes);
    f.king_freedom = count(king_reach);
    f.route_cover = count(routes & attacker_reach);
    f.line_cover = count(king_reach & attacker_reach);
    let second = if routes.is_empty() {
        let second = reach(king_reach, empty);
        f.far_routes = count(second & corner_reach);
        second
    } else {
        Bitboard::EMPTY
    };
    f.king_distance = if !(king_reach & Bitboard::CORNERS).is_empty() {
        1
    } else if !routes.is_empty() {
        2
    } else if f.far_routes != 0 {
        3
    } else if !(reach(second | king_reach, empty) & corner_reach).is_empty() {
        4
    } else {
        FAR
    };
    let safe_on_edge = rules.king_safe_on_edge && king.is_edge();
    if !safe_on_edge {
        let around = king.bit().neighbours();
        f.king_attackers = count(around & pos.attackers());
        let mut hostile = Bitboard::EMPTY;
        if rules.corners_hostile_to_king {
            hostile |= Bitboard::CORNERS;
        }
        if rules.throne_hostile_to_defenders && !king.is_throne() {
            hostile |= Bitboard::THRONE;
        }
        f.king_hostile = count(around & hostile);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameState, Preset};

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

    #[test]
    fn the_presets_choose_their_weights() {
        let chosen = |preset: Preset| std::ptr::from_ref(weights(&preset.rules()));
        assert_eq!(chosen(Preset::Standard), &raw const STANDARD);
        assert_eq!(chosen(Preset::OpenTafl), &raw const OPENTAFL);
        for p in [Preset::Walker, Preset::Nielsen, Preset::Fellhuhn] {
            assert_eq!(chosen(p), &raw const STANDARD, "{p}");
        }
    }

    #[test]
    fn weights_round_trip_through_arrays() {
        let array = STANDARD.to_array();
        assert_eq!(Weights::from_array(array), STANDARD);
        assert_eq!(Weights::HAND_SET.to_array()[..3], [-100, 200, 12]);
        assert_eq!(Features::NAMES.len(), Features::COUNT);
        assert_eq!(Features::NAMES[0], "attackers");
    }

    #[test]
    fn blockades_are_pairs_along_the_edge() {
        // b1 c1 is a blockade; a2 alone and f7 e6 are not.
        let f = features(
            &pos("/1tt4/t6/7/3K3/7/4t2/5t1/ a"),
            &Preset::Standard.rules(),
        );
        assert_eq!(f.blockades, 1);
        assert_eq!(f.corner_guards, 3);
    }

    #[test]
    fn the_king_distance_counts_king_moves() {
        let rules = Preset::Standard.rules();
        // An empty board but for the king: on c3 he reaches c1, which sees a1.
        assert_eq!(
            features(&pos("/7/7/2K4/7/7/7/7/ a"), &rules).king_distance,
            2
        );
        // Boxed in on d4 by four attackers: no way out.
        let boxed = features(&pos("/7/7/3t3/2tKt2/3t3/7/7/ a"), &rules);
        assert_eq!(boxed.king_distance, FAR);
        assert_eq!(boxed.king_freedom, 0);
        assert_eq!(features(&pos("/7/7/7/7/7/7/7/ a"), &rules).king_distance, 0);
    }

    #[test]
    fn hanging_pieces_are_counted_for_the_side_they_belong_to() {
        let rules = Preset::Standard.rules();
        // The attacker on c5 stands between d5 (a defender) and b5, where the defender on b3
        // can move: defenders to move threaten it; attackers to move must save it.
        let threatened = features(&pos("/7/7/1T5/7/2tT3/7/7/ d"), &rules);
        assert_eq!(threatened.attackers_threatened, 1);
        assert_eq!(threatened.attackers_hanging, 0);
        let hanging = features(&pos("/7/7/1T5/7/2tT3/7/7/ a"), &rules);
        assert_eq!(hanging.attackers_hanging, 1);
        assert_eq!(hanging.attackers_threatened, 0);
        assert_eq!(hanging.defenders_threatened, 0);
    }

    /// The evaluation's weights before the features were added (issue 11), in the old form.
    struct OldWeights {
        attacker: i32,
        defender: i32,
        escape_route: i32,
        far_route: i32,
        king_freedom: i32,
        king_neighbour_attacker: i32,
        king_neighbour_hostile: i32,
        corner_guard: i32,
        corner_diagonal: i32,
        mobility: i32,
        tempo: i32,
    }

    const OLD: OldWeights = OldWeights {
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

    /// The evaluation as it was written before it became a dot product.
    fn old_evaluate(pos: &Position, rules: &Rules) -> i32 {
        let w = &OLD;
        let attackers = pos.attackers();
        let empty = !pos.occupied();
        let mut score = w.defender * count(pos.defenders()) - w.attacker * count(attackers);
        score -= w.corner_guard * count(attackers & CORNER_APPROACH);
        score -= w.corner_diagonal * count(attackers & CORNER_DIAGONAL);
        let defender_reach = reach(pos.pieces(Side::Defenders), empty & !Bitboard::RESTRICTED);
        let attacker_reach = reach(attackers, empty & !Bitboard::RESTRICTED);
        score += w.mobility * (count(defender_reach) - count(attacker_reach));
        if let Some(king) = pos.king() {
            let king_reach = reach(king.bit(), empty);
            let corner_reach = reach(Bitboard::CORNERS, empty);
            let routes = king_reach & corner_reach & !Bitboard::CORNERS;
            score += w.escape_route * count(routes);
            if routes.is_empty() {
                score += w.far_route * count(reach(king_reach, empty) & corner_reach);
            }
            score += w.king_freedom * count(king_reach);
            if !(rules.king_safe_on_edge && king.is_edge()) {
                let around = king.bit().neighbours();
                score -= w.king_neighbour_attacker * count(around & attackers);
                let mut hostile = Bitboard::EMPTY;
                if rules.corners_hostile_to_king {
                    hostile |= Bitboard::CORNERS;
                }
                if rules.throne_hostile_to_defenders && !king.is_throne() {
                    hostile |= Bitboard::THRONE;
                }
                score -= w.king_neighbour_hostile * count(around & hostile);
            }
        }
        let score = match pos.side_to_move() {
            Side::Defenders => score + w.tempo,
            Side::Attackers => -score + w.tempo,
        };
        score.clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
    }

    /// Positions from seeded random playouts under every preset, with their rules.
    fn playout_positions() -> Vec<(Position, Rules)> {
        let mut seed = 0x853c_49e6_748f_ea9b_u64;
        let mut out = Vec::new();
        for preset in Preset::ALL {
            let rules = preset.rules();
            for _ in 0..60 {
                let mut game = GameState::start(rules);
                while !game.is_over() && game.ply() < 120 {
                    out.push((*game.position(), rules));
                    let moves = game.legal_moves();
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    #[allow(clippy::cast_possible_truncation)]
                    let mv = moves[(seed % moves.len() as u64) as usize];
                    game.play_unchecked(mv);
                }
            }
        }
        out
    }

    #[test]
    fn the_dot_product_equals_the_old_formula() {
        let positions = playout_positions();
        assert!(positions.len() > 10_000, "{}", positions.len());
        for (pos, rules) in &positions {
            assert_eq!(
                evaluate_with(pos, rules, &Weights::HAND_SET),
                old_evaluate(pos, rules),
                "{pos}"
            );
        }
    }

    #[test]
    fn the_features_agree_with_slow_definitions() {
        let (mut checked, mut exact) = (0, 0);
        for (pos, rules) in playout_positions().iter().step_by(7) {
            let f = features(pos, rules);
            assert_eq!(f.king_distance, slow_king_distance(pos), "{pos}");
            let (attackers, defenders) = slow_hanging(pos, rules);
            let (fast_attackers, fast_defenders) = match pos.side_to_move() {
                Side::Defenders => (f.attackers_threatened, f.defenders_hanging),
                Side::Attackers => (f.attackers_hanging, f.defenders_threatened),
            };
            // Every capture a move makes is counted; the count may include captures against
            // the moving piece's own square.
            assert!(
                attackers <= fast_attackers && defenders <= fast_defenders,
                "{pos}"
            );
            checked += 1;
            exact += i32::from((attackers, defenders) == (fast_attackers, fast_defenders));
        }
        assert!(exact * 10 >= checked * 9, "{exact} of {checked}");
    }

    /// The king's distance to a corner by breadth-first search over king moves.
    fn slow_king_distance(pos: &Position) -> i32 {
        let Some(king) = pos.king() else {
            return 0;
        };
        let empty = !pos.occupied();
        let mut seen = king.bit();
        let mut frontier = king.bit();
        for distance in 1..FAR {
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                next |= reach(sq.bit(), empty);
            }
            if !(next & Bitboard::CORNERS).is_empty() {
                return distance;
            }
            frontier = next & !seen;
            seen |= next;
        }
        FAR
    }

    /// The attacking and the defending soldiers that some move of the other side, played on a
    /// copy under the rules, would capture.
    fn slow_hanging(pos: &Position, rules: &Rules) -> (i32, i32) {
        let mut out = [Bitboard::EMPTY; 2];
        for (i, side) in [Side::Defenders, Side::Attackers].into_iter().enumerate() {
            let mover = pos.with_side_to_move(side);
            for &mv in &mover.legal_moves() {
                if mv.to().is_corner() || mv.to().is_throne() {
                    continue;
                }
                let mut after = mover;
                let taken = after.play_unchecked(mv, rules);
                let victims = match side {
                    Side::Defenders => pos.attackers(),
                    Side::Attackers => pos.defenders(),
                };
                out[i] |= taken & victims;
            }
        }
        (count(out[0]), count(out[1]))
    }
}
