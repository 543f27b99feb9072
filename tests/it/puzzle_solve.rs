//! The exact solver on hand-made positions, and against a plain minimax on random ones.

use brandubh::puzzle::Solver;
use brandubh::rules::{Bitboard, GameState, Move, Position, Preset, Side, Square};
use proptest::prelude::*;

fn game(position: &str) -> GameState {
    GameState::new(Preset::Standard.rules(), position.parse().unwrap())
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn a_king_one_move_from_a_corner_wins_in_one() {
    // The king on c7 sees a7; e7 blocks g7.
    let state = game("/7/7/7/7/7/7/2K1t2/ d");
    let mut solver = Solver::new();
    assert_eq!(solver.shortest_win(&state, 3), Some(1));
    assert_eq!(solver.winning_moves(&state, 1), [mv("c7-a7")]);
}

#[test]
fn a_double_threat_wins_in_two_and_a_single_one_does_not() {
    // King c2; attackers b5 and g5. c2-c1 opens a1 and g1 at once: b5-b1 shuts only one.
    // c2-g2 walks into g5-g3, which takes the king against the corner g1.
    let state = game("/7/2K4/7/7/1t4t/7/7/ d");
    let mut solver = Solver::new();
    assert!(!solver.wins_within(&state, 1));
    assert_eq!(solver.shortest_win(&state, 3), Some(2));
    let wins = solver.winning_moves(&state, 2);
    assert!(wins.contains(&mv("c2-c1")), "{wins:?}");
    assert!(wins.contains(&mv("c2-c7")), "{wins:?}");
    assert!(!wins.contains(&mv("c2-g2")), "{wins:?}");
    // After c2-g2 the attackers win at once.
    let mut after = state.clone();
    after.play(mv("c2-g2")).unwrap();
    assert_eq!(solver.winning_moves(&after, 1), [mv("g5-g3")]);
}

#[test]
fn the_only_move_that_does_not_lose_is_found() {
    // The king on d7 threatens a7 (e7 is his own defender); only c3-c7 blocks the line,
    // and nothing else of the attackers reaches b7 or c7.
    let state = game("/5t1/7/2t3t/7/7/7/3KT2/ a");
    let mut solver = Solver::new();
    assert_eq!(solver.moves_that_hold(&state, 1), [mv("c3-c7")]);
    let mut defenders = state.clone();
    defenders.play(mv("g3-g2")).unwrap();
    assert!(solver.wins_within(&defenders, 1));
}

#[test]
fn the_loser_resists_longest() {
    // The king on c7 sees a7. Only b3-b7 shuts that line; then the king still needs two
    // moves (c7-c1 opens a1 and g1 at once). Every other reply loses at once.
    let state = game("/7/7/1t5/7/7/7/2K1t2/ a");
    let mut solver = Solver::new();
    let resistance = solver.longest_resistance(&state, 3);
    assert_eq!(resistance.replies, [mv("b3-b7")]);
    assert_eq!(resistance.moves_left, Some(2));
    // Within one move, that reply holds: the win is no longer forced.
    assert_eq!(solver.longest_resistance(&state, 1).moves_left, None);
}

#[test]
fn a_finished_game_is_no_win_for_the_side_to_move() {
    // The king already sits on a corner: the defenders have won, the attackers move.
    let state = game("/K6/7/7/7/7/7/3t3/ a");
    assert!(state.is_over());
    let mut solver = Solver::new();
    assert!(!solver.wins_within(&state, 2));
    assert!(solver.winning_moves(&state, 2).is_empty());
}

/// A plain minimax over plies: every child evaluated, no table, no move order.
fn reference(state: &GameState, winner: Side, plies: u32) -> bool {
    if let Some(outcome) = state.outcome() {
        return outcome.winner == Some(winner);
    }
    if plies == 0 {
        return false;
    }
    let results: Vec<bool> = state
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut next = state.clone();
            next.play(m).unwrap();
            reference(&next, winner, plies - 1)
        })
        .collect();
    if state.position().side_to_move() == winner {
        results.iter().any(|&r| r)
    } else {
        results.iter().all(|&r| r)
    }
}

fn squares(indices: &[usize]) -> Bitboard {
    indices
        .iter()
        .filter_map(|&i| Square::from_index(i))
        .collect()
}

prop_compose! {
    fn sparse_position()(
        king in 0usize..49,
        attackers in proptest::collection::vec(0usize..49, 1..6),
        defenders in proptest::collection::vec(0usize..49, 0..3),
        defenders_move in any::<bool>(),
    ) -> Option<Position> {
        let king = Square::from_index(king)?;
        let attackers = squares(&attackers).without(king) & !Bitboard::RESTRICTED;
        let defenders = squares(&defenders).without(king) & !attackers & !Bitboard::RESTRICTED;
        let side = if defenders_move { Side::Defenders } else { Side::Attackers };
        Position::from_parts(attackers, defenders, Some(king), side).ok()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The solver's answers, its winning first moves and the moves that hold all agree
    /// with the plain minimax, under every preset: a table or an order that cut a line it
    /// should not have would show here.
    #[test]
    fn the_solver_agrees_with_plain_minimax(
        position in sparse_position(),
        preset in proptest::sample::select(Preset::ALL.to_vec()),
    ) {
        let Some(position) = position else { return Ok(()) };
        let state = GameState::new(preset.rules(), position);
        // A game decided at setup is no puzzle (the solver calls it no win for anyone).
        prop_assume!(!state.is_over());
        let mover = position.side_to_move();
        let mut solver = Solver::new();
        for n in 1..=2u8 {
            let plies = 2 * u32::from(n) - 1;
            prop_assert_eq!(solver.wins_within(&state, n), reference(&state, mover, plies));
            let expected: Vec<Move> = state
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| {
                    let mut next = state.clone();
                    next.play(m).unwrap();
                    reference(&next, mover, plies - 1)
                })
                .collect();
            prop_assert_eq!(solver.winning_moves(&state, n), expected);
        }
        let holding: Vec<Move> = state
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = state.clone();
                next.play(m).unwrap();
                !reference(&next, mover.opponent(), 1)
            })
            .collect();
        prop_assert_eq!(solver.moves_that_hold(&state, 1), holding);
    }
}
