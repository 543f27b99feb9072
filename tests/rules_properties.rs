//! Properties that hold along random playouts, for every preset, checked against a naive
//! second implementation of the rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use brandubh::rules::{Bitboard, GameState, Move, Outcome, Position, Preset, Reason, Side};
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
                b.play(mv).unwrap().captured.collect()
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
            if after.outcome().is_some_and(|o| o.reason == Reason::NoMoves) {
                assert!(naive.moves().is_empty());
            }
        });
    }
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
            let escapes: Bitboard = turn(Side::Defenders)
                .destinations(king)
                .into_iter()
                .filter(|s| s.is_corner())
                .collect();
            assert_eq!(p.king_open_corners(), escapes, "{p}");
        });
    }
}
