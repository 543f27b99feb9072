//! perft from the start against RULES.md §4, and against a second, naive implementation of
//! the rules from many other positions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use brandubh::rules::{GameState, Position, Preset, Rules, Side, Square, divide, perft};
use common::naive::Naive;

/// (depth, leaves) from `tests/fixtures/perft.txt`.
fn reference() -> Vec<(u32, u64)> {
    include_str!("fixtures/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            let depth = words.next().unwrap().parse().unwrap();
            let leaves = words.next().unwrap().parse().unwrap();
            (depth, leaves)
        })
        .collect()
}

fn check_start(max_depth: u32) {
    let table = reference();
    assert_eq!(table.len(), 5);
    for preset in Preset::ALL {
        let state = GameState::start(preset.rules());
        for &(depth, leaves) in table.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(perft(&state, depth), leaves, "{preset} depth {depth}");
        }
    }
}

#[test]
fn perft_from_the_start_to_depth_4() {
    check_start(4);
}

#[test]
#[ignore = "about a minute in debug; run with --release --ignored"]
fn perft_from_the_start_to_depth_5() {
    check_start(5);
}

#[test]
fn divide_adds_up_and_lists_every_first_move() {
    let state = GameState::start(Preset::Standard.rules());
    let parts = divide(&state, 3);
    assert_eq!(parts.len(), 40);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 39_512);
    assert_eq!(perft(&state, 0), 1);
}

/// The naive implementation's perft: lists every move, plays it, checks the end by hand.
fn naive_perft(board: &Naive, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for (from, to) in board.moves() {
        let mut child = board.clone();
        child.play(from, to, rules);
        let over = match board.side {
            Side::Attackers => child.king_gone() || (rules.encirclement && child.encircled()),
            Side::Defenders => child.escaped(),
        };
        total += match (depth, over) {
            (1, _) => 1,
            (_, true) => 0,
            _ => naive_perft(&child, rules, depth - 1),
        };
    }
    total
}

/// Random positions: a king, up to 8 attackers and up to 4 defenders, either side to move.
fn random_positions(count: usize) -> Vec<Position> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = Vec::new();
    while out.len() < count {
        let pick = |r: u64| Square::from_index((r % 49) as usize).unwrap();
        let king = pick(next());
        let mut att = brandubh::rules::Bitboard::EMPTY;
        let mut def = brandubh::rules::Bitboard::EMPTY;
        for i in 0..(next() % 13) {
            let s = pick(next());
            if s == king || s.is_corner() || s.is_throne() {
                continue;
            }
            if i % 3 == 0 && def.count() < 4 {
                def = def.with(s);
            } else if att.count() < 8 {
                att |= s.bit() & !def;
            }
        }
        let side = if next() % 2 == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        if king.is_corner() {
            continue;
        }
        if let Ok(p) = Position::from_parts(att, def, Some(king), side) {
            out.push(p);
        }
    }
    out
}

#[test]
fn perft_agrees_with_a_naive_implementation_from_random_positions() {
    for (i, position) in random_positions(150).into_iter().enumerate() {
        let preset = Preset::ALL[i % 5];
        let rules = preset.rules();
        let state = GameState::new(rules, position);
        if state.is_over() {
            continue;
        }
        let naive = Naive::from_position(&position);
        for depth in 1..=3 {
            assert_eq!(
                perft(&state, depth),
                naive_perft(&naive, &rules, depth),
                "{preset} {position} depth {depth}"
            );
        }
    }
}
