//! How games end (RULES.md §2.6–2.8 and the encirclement and repetition rows of §3).

use crate::common;

use brandubh::rules::{GameState, IllegalMove, Outcome, Position, Preset, Reason, Side};
use common::naive::Naive;
use common::{diagram, mv, play};

const ATT: Option<Side> = Some(Side::Attackers);
const DEF: Option<Side> = Some(Side::Defenders);

#[test]
fn the_king_escapes_to_a_corner_in_every_preset() {
    let position = diagram(
        "
        ...K...
        .......
        ...t...
        .......
        .......
        .......
        .......",
        Side::Defenders,
    );
    for preset in Preset::ALL {
        let (done, outcome) = play(preset, position, "d7-a7");
        assert_eq!(done.to_string(), "d7-a7--");
        assert_eq!(
            outcome,
            Some(Outcome::win(Side::Defenders, Reason::KingEscaped))
        );
    }
}

#[test]
fn encirclement_completed_by_a_capture() {
    let position = diagram(
        "
        ...t...
        ..t.t..
        ..tTt..
        ..tKt..
        ...t...
        tT.....
        ..t....",
        Side::Attackers,
    );
    for preset in [Preset::Standard, Preset::Fellhuhn] {
        let (done, outcome) = play(preset, position, "c1-c2");
        assert_eq!(done.to_string(), "c1-c2xb2");
        assert_eq!(
            outcome,
            Some(Outcome::win(Side::Attackers, Reason::Encircled))
        );
    }
    let (_, outcome) = play(Preset::Walker, position, "c1-c2");
    assert_eq!(outcome, None);
}

/// An attackers' move and whether it leaves every defender and the king shut off from the
/// edge.
struct Ring {
    name: &'static str,
    board: &'static str,
    mv: &'static str,
    encircled: bool,
}

const RINGS: &[Ring] = &[
    Ring {
        name: "the king on the throne and a defender shut in (d4-d6); they can still move",
        board: "
            .t.....
            ..t.t..
            ..tTt..
            ..tKt..
            ...t...
            .......
            .......",
        mv: "b7-d7",
        encircled: true,
    },
    Ring {
        name: "a defender on the edge breaks the ring",
        board: "
            .t.....
            ..t.t..
            ..tTt..
            ..tKt..
            ...t...
            T......
            .......",
        mv: "b7-d7",
        encircled: false,
    },
    Ring {
        name: "the king and a defender shut in with the empty throne (d4-d6)",
        board: "
            .t.....
            ..tKt..
            ..tTt..
            ..t.t..
            ...t...
            .......
            .......",
        mv: "b7-d7",
        encircled: true,
    },
    Ring {
        name: "the empty throne does not block: d5-d6 leak out through d4 to d3 \
               (/7/7/7/2t1t2/2tTt2/2tKt2/1t5/ a)",
        board: "
            .t.....
            ..tKt..
            ..tTt..
            ..t.t..
            .......
            .......
            .......",
        mv: "b7-d7",
        encircled: false,
    },
    Ring {
        name: "two separate pockets (b2 and d2), closed by capturing the last free defender",
        board: "
            .T..t..
            .......
            .......
            .......
            .t.t...
            tKtTt..
            .t.t...",
        mv: "e7-c7",
        encircled: true,
    },
    Ring {
        name: "two pockets, but the one of d2 is open at d1",
        board: "
            .T..t..
            .......
            .......
            .......
            .t.t...
            tKtTt..
            .t.....",
        mv: "e7-c7",
        encircled: false,
    },
];

/// Encirclement wins where the preset has it, and only when the naive flood fill agrees.
#[test]
fn encirclement_table() {
    assert_eq!(
        Preset::ALL.map(|p| p.rules().encirclement),
        [true, false, false, true, false]
    );
    for ring in RINGS {
        let position = diagram(ring.board, Side::Attackers);
        let mut naive = Naive::from_position(&position);
        let mv = mv(ring.mv);
        naive.play(mv.from(), mv.to(), &Preset::Standard.rules());
        assert_eq!(naive.encircled(), ring.encircled, "naive: {}", ring.name);
        for preset in Preset::ALL {
            let (_, outcome) = play(preset, position, ring.mv);
            let won = outcome == Some(Outcome::win(Side::Attackers, Reason::Encircled));
            assert_eq!(
                won,
                ring.encircled && preset.rules().encirclement,
                "{preset}: {}",
                ring.name
            );
        }
    }
}

#[test]
fn a_side_without_a_legal_move_loses() {
    let king_boxed = diagram(
        "
        .......
        .......
        .......
        .......
        .......
        ......t
        ..tKt..",
        Side::Attackers,
    );
    let attackers_boxed = diagram(
        "
        .......
        ...K...
        .......
        .......
        .......
        TT.....
        .tT....",
        Side::Defenders,
    );
    for preset in Preset::ALL {
        let (_, outcome) = play(preset, king_boxed, "g2-d2");
        assert_eq!(
            outcome,
            Some(Outcome::win(Side::Attackers, Reason::NoMoves))
        );
        let (_, outcome) = play(preset, attackers_boxed, "d6-d5");
        assert_eq!(
            outcome,
            Some(Outcome::win(Side::Defenders, Reason::NoMoves))
        );
    }
}

/// Plays `moves` from the start and returns the ply at which the game ended and how.
fn play_out(preset: Preset, moves: &[&str]) -> (usize, Option<Outcome>) {
    let mut state = GameState::start(preset.rules());
    for text in moves {
        if state.is_over() {
            break;
        }
        state.play(mv(text)).unwrap();
    }
    (state.ply(), state.outcome())
}

/// Plays `moves` under every preset and checks that a repetition ends the game at `ply`
/// with the winner `winners` gives for each preset (in the order of `Preset::ALL`).
fn assert_repetition(moves: &[&str], ply: usize, winners: [Option<Side>; 5]) {
    for (preset, winner) in Preset::ALL.into_iter().zip(winners) {
        let expected = Outcome {
            winner,
            reason: Reason::Repetition,
        };
        assert_eq!(play_out(preset, moves), (ply, Some(expected)), "{preset}");
    }
}

#[test]
fn third_occurrence_made_by_the_defenders() {
    // The start position recurs after plies 4 and 8; the defenders make the third occurrence.
    let cycle = ["d1-c1", "e4-e5", "c1-d1", "e5-e4"];
    let moves: Vec<&str> = cycle.iter().chain(&cycle).chain(&cycle).copied().collect();
    assert_repetition(&moves, 8, [ATT, ATT, ATT, DEF, None]);
}

#[test]
fn third_occurrence_made_by_the_attackers() {
    // After the one-way first move, the position with the defenders to move recurs after
    // plies 5 and 9, made by the attackers each time.
    let cycle = ["e4-e5", "c1-b1", "e5-e4", "b1-c1"];
    let mut moves = vec!["d1-c1"];
    moves.extend(cycle.iter().chain(&cycle).chain(&cycle));
    assert_repetition(&moves, 9, [DEF, DEF, ATT, ATT, None]);
}

#[test]
fn a_second_occurrence_decides_nothing() {
    let (ply, outcome) = play_out(
        Preset::Standard,
        &["d1-c1", "e4-e5", "c1-d1", "e5-e4", "d1-c1", "e4-e5"],
    );
    assert_eq!((ply, outcome), (6, None));
    let mut state = GameState::start(Preset::Standard.rules());
    for text in ["d1-c1", "e4-e5", "c1-d1", "e5-e4"] {
        state.play(mv(text)).unwrap();
    }
    assert_eq!(state.occurrences(), 2);
}

#[test]
fn a_finished_game_takes_no_moves_and_undo_reopens_it() {
    let (_, outcome) = play_out(Preset::Standard, &[]);
    assert_eq!(outcome, None);
    let position = diagram(
        "
        ...K...
        .......
        ...t...
        .......
        .......
        .......
        .......",
        Side::Defenders,
    );
    let mut state = GameState::new(Preset::Standard.rules(), position);
    state.play(mv("d7-a7")).unwrap();
    assert_eq!(state.start_position(), &position);
    assert_eq!(state.history(), [position, *state.position()]);
    assert_eq!(state.ply(), 1);
    assert!(state.is_over());
    assert!(state.legal_moves().is_empty());
    assert_eq!(state.play(mv("d5-d4")), Err(IllegalMove::GameOver));
    assert_eq!(state.undo(), Some(&position));
    assert!(!state.is_over());
    assert!(state.undo().is_none());
}

#[test]
fn set_up_positions_that_are_already_decided() {
    let rules = Preset::Standard.rules();
    let cases = [
        (
            "/7/7/7/2t4/7/7/7/ a",
            Outcome::win(Side::Attackers, Reason::KingCaptured),
        ),
        (
            "K6/7/7/2t4/7/7/7/ a",
            Outcome::win(Side::Defenders, Reason::KingEscaped),
        ),
        (
            "/7/2t4/1tKt3/2t4/7/7/7/ d",
            Outcome::win(Side::Attackers, Reason::Encircled),
        ),
        (
            "/3K3/7/7/7/7/7/7/ a",
            Outcome::win(Side::Defenders, Reason::NoMoves),
        ),
    ];
    for (text, expected) in cases {
        let position: Position = text.parse().unwrap();
        assert_eq!(
            GameState::new(rules, position).outcome(),
            Some(expected),
            "{text}"
        );
    }
}
