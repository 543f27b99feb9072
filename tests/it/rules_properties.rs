//! Properties that hold along random playouts, for every preset, checked against a naive
//! second implementation of the rules.

use crate::common;

use brandubh::rules::{Bitboard, GameState, Move, Outcome, Position, Preset, Reason, Side, Square};
use common::naive::Naive;
use proptest::prelude::*;

/// Plays the game chosen by `choices` (each picks one legal move) and calls `check` with
/// the state before each move, the move's index among the legal moves, and the state after.
fn playout(preset: Preset, choices: &[u16], mut check: impl FnMut(&GameState, usize, &GameState)) {
    let mut state = GameState::start(preset.rules());
    for &choice in choices {
        let moves = state.legal_moves();
        if moves.is_empty() {
            break;
        }
        let index = usize::from(choice) % moves.len();
        let before = state.clone();
        state.play(moves[index]).unwrap();
        check(&before, index, &state);
    }
}

fn preset() -> impl Strategy<Value = Preset> {
    (0..5usize).prop_map(|i| Preset::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn pieces_never_grow_and_only_the_king_stands_on_restricted_squares(
        preset in preset(), choices in prop::collection::vec(any::<u16>(), 1..300)
    ) {
        playout(preset, &choices, |before, _, after| {
            let (b, a) = (before.position(), after.position());
            assert!(a.attackers().count() <= b.attackers().count());
            assert!(a.defenders().count() <= b.defenders().count());
            assert!(((a.attackers() | a.defenders()) & Bitboard::RESTRICTED).is_empty());
            assert!(a.attackers().count() <= 8 && a.defenders().count() <= 4);
        });
    }

    #[test]
    fn the_incremental_key_equals_a_recomputed_one(
        preset in preset(), choices in prop::collection::vec(any::<u16>(), 1..300)
    ) {
        playout(preset, &choices, |_, _, after| {
            let p = after.position();
            assert_eq!(p.key(), p.computed_key(), "{p}");
        });
    }

    #[test]
    fn printed_moves_and_positions_parse_back(
        preset in preset(), choices in prop::collection::vec(any::<u16>(), 1..300)
    ) {
        playout(preset, &choices, |before, index, after| {
            let mv = before.legal_moves()[index];
            let mut replayed = before.clone();
            let printed = replayed.clone().play(mv).unwrap().to_string();
            let done = replayed.play_text(&printed).unwrap();
            assert_eq!(done.mv, mv);
            assert_eq!(&replayed, after, "{printed}");
            let text = after.position().to_string();
            assert_eq!(text.parse::<Position>().as_ref(), Ok(after.position()), "{text}");
        });
    }

    #[test]
    fn moves_captures_and_endings_agree_with_the_naive_rules(
        preset in preset(), choices in prop::collection::vec(any::<u16>(), 1..300)
    ) {
        let rules = preset.rules();
        playout(preset, &choices, |before, index, after| {
            let mut naive = Naive::from_position(before.position());
            let engine_moves: Vec<_> = before
                .legal_moves()
                .iter()
                .map(|m| (m.from(), m.to()))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(engine_moves, naive.moves(), "{}", before.position());
            let mv = before.legal_moves()[index];
            let mut taken = naive.play(mv.from(), mv.to(), &rules);
            taken.retain(|s| Some(*s) != before.position().king());
            assert_eq!(Naive::from_position(after.position()), naive);
            let engine_taken: Vec<_> = {
                let mut b = before.clone();
                b.play(mv).unwrap().captured.iter().collect()
            };
            assert_eq!(engine_taken, taken);
            let mover = before.position().side_to_move();
            let naive_end = if naive.king_gone() {
                Some(Outcome::win(Side::Attackers, Reason::KingCaptured))
            } else if naive.escaped() {
                Some(Outcome::win(Side::Defenders, Reason::KingEscaped))
            } else if mover == Side::Attackers && rules.encirclement && naive.encircled() {
                Some(Outcome::win(Side::Attackers, Reason::Encircled))
            } else {
                None
            };
            let board_end = after.outcome().filter(|o| {
                matches!(o.reason, Reason::KingCaptured | Reason::KingEscaped | Reason::Encircled)
            });
            assert_eq!(board_end, naive_end, "{} {mv}", before.position());
            // With the board undecided and no repetition, the side to move loses exactly
            // when the naive rules find it no move.
            if naive_end.is_none() && after.outcome().is_none_or(|o| o.reason != Reason::Repetition) {
                let no_moves = naive.moves().is_empty();
                let expected = no_moves.then(|| Outcome::win(mover, Reason::NoMoves));
                assert_eq!(after.outcome(), expected, "{} {mv}", before.position());
            }
        });
    }

    #[test]
    fn encirclement_with_two_separate_pockets_agrees_with_the_naive_rules(
        seeds in (inside(), inside()),
        grow in (prop::option::of(any::<usize>()), prop::option::of(any::<usize>())),
        gap in prop::option::of(any::<usize>()),
    ) {
        let (mut a, mut b) = (pocket(seeds.0, grow.0), pocket(seeds.1, grow.1));
        // No soldier may wall the throne: it joins a pocket that touches it.
        for p in [&mut a, &mut b] {
            if (*p | p.neighbours()).contains(Square::THRONE) {
                *p |= Bitboard::THRONE;
            }
        }
        prop_assume!(((a | a.neighbours()) & b).is_empty(), "the pockets touch");
        if b == Bitboard::THRONE {
            (a, b) = (b, a);
        }
        // The king in one pocket, a defender in the other; attackers on every wall, but
        // perhaps one.
        let king = a.first().unwrap();
        let defender = (b & !Bitboard::THRONE).first().unwrap();
        let walls = (a | b).neighbours() & !(a | b);
        let gap = gap.map(|i| walls.iter().collect::<Vec<_>>()[i % walls.count() as usize]);
        let attackers = gap.map_or(walls, |g| walls.without(g));
        let position =
            Position::from_parts(attackers, defender.bit(), Some(king), Side::Defenders).unwrap();
        let naive = Naive::from_position(&position);
        prop_assert_eq!(position.is_encircled(), naive.encircled(), "{}", position);
        match gap {
            None => prop_assert!(naive.encircled(), "{}", position),
            Some(g) if g.is_edge() => prop_assert!(!naive.encircled(), "{}", position),
            Some(_) => {}
        }
        for preset in Preset::ALL {
            let rules = preset.rules();
            let encircled = GameState::new(rules, position).outcome()
                == Some(Outcome::win(Side::Attackers, Reason::Encircled));
            prop_assert_eq!(encircled, rules.encirclement && naive.encircled(), "{} {}", preset, position);
        }
    }

    #[test]
    fn a_side_has_no_legal_move_exactly_when_the_naive_rules_find_none(
        (attackers, defenders, king) in crowded_board()
    ) {
        for side in [Side::Attackers, Side::Defenders] {
            let position = Position::from_parts(attackers, defenders, king, side).unwrap();
            let naive = Naive::from_position(&position);
            let naive_moves = naive.moves();
            prop_assert_eq!(position.has_moves(), !naive_moves.is_empty(), "{}", position);
            prop_assert_eq!(position.count_moves(), naive_moves.len() as u64, "{}", position);
            for preset in Preset::ALL {
                let rules = preset.rules();
                let decided_before = naive.king_gone()
                    || naive.escaped()
                    || (side == Side::Defenders && rules.encirclement && naive.encircled());
                let expected = (!decided_before && naive_moves.is_empty())
                    .then(|| Outcome::win(side.opponent(), Reason::NoMoves));
                let no_moves = GameState::new(rules, position)
                    .outcome()
                    .filter(|o| o.reason == Reason::NoMoves);
                prop_assert_eq!(no_moves, expected, "{} {}", preset, position);
            }
        }
    }
}

/// A square off the board's edge (b2 to f6).
fn inside() -> impl Strategy<Value = Square> {
    (1..6u8, 1..6u8).prop_map(|(file, rank)| Square::new(file, rank).unwrap())
}

/// A pocket off the edge: `seed`, and with `grow` one of its neighbours off the edge too.
fn pocket(seed: Square, grow: Option<usize>) -> Bitboard {
    let around: Vec<Square> = (seed.bit().neighbours() & !Bitboard::EDGE).iter().collect();
    grow.map_or(seed.bit(), |i| seed.bit().with(around[i % around.len()]))
}

/// A crowded board, where a side without moves is common: up to five empty squares besides
/// the throne and corners, every other square an attacker or a defender (the king's aside,
/// when there is one).
fn crowded_board() -> impl Strategy<Value = (Bitboard, Bitboard, Option<Square>)> {
    (
        any::<u64>(),
        prop::collection::vec(0..49usize, 0..6),
        prop::option::of(0..49usize),
    )
        .prop_map(|(sides, empty, king)| {
            let king = king.and_then(Square::from_index);
            let empty: Bitboard = empty.into_iter().filter_map(Square::from_index).collect();
            let soldiers =
                !(empty | Bitboard::RESTRICTED | king.map_or(Bitboard::EMPTY, Square::bit));
            let attackers = soldiers & Bitboard::from_bits(sides);
            (attackers, soldiers & !attackers, king)
        })
}

proptest! {
    // Each ply plays every attackers' move on the naive board: fewer games keep it quick.
    #![proptest_config(ProptestConfig::with_cases(50))]

    #[test]
    fn king_threats_and_repetition_counts_agree_with_playing_the_moves(
        preset in preset(), choices in prop::collection::vec(any::<u16>(), 1..300)
    ) {
        let rules = preset.rules();
        playout(preset, &choices, |before, index, after| {
            let mv = before.legal_moves()[index];
            assert_eq!(before.occurrences_after(mv), Ok(after.occurrences()), "{mv}");
            let p = after.position();
            let Some(king) = p.king() else { return };
            let turn = |side| Position::from_parts(p.attackers(), p.defenders(), p.king(), side).unwrap();
            let attacking = turn(Side::Attackers);
            let mut by_playing: Vec<Move> = attacking
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    let mut naive = Naive::from_position(&attacking);
                    naive.play(m.from(), m.to(), &rules);
                    naive.king_gone()
                })
                .collect();
            let mut found = p.king_capture_moves(&rules).to_vec();
            by_playing.sort();
            found.sort();
            assert_eq!(found, by_playing, "{p}");
            let first = p.king_capture_move(&rules);
            assert_eq!(first.is_some(), !found.is_empty(), "{p}");
            assert!(first.is_none_or(|m| found.contains(&m)), "{p}");
            let escapes: Bitboard = turn(Side::Defenders)
                .destinations(king)
                .into_iter()
                .filter(|s| s.is_corner())
                .collect();
            assert_eq!(p.king_open_corners(), escapes, "{p}");
        });
    }
}
