//! What the next move can do, per preset: the king's open lines to the corners, the
//! attackers' moves that capture him, and how often a move would repeat a position.

use crate::common;

use brandubh::rules::{EndMark, GameState, Preset, Side};
use common::{Case, diagram, mv, squares};

#[test]
fn open_lines_to_the_corners() {
    let cases = [
        (
            "on the top edge, both ways open",
            "
            ..K....
            .......
            .......
            .......
            .......
            .......
            .......",
            &["a7", "g7"][..],
        ),
        (
            "a soldier of either side blocks a line",
            "
            .tK..T.
            .......
            .......
            .......
            .......
            .......
            .......",
            &[],
        ),
        (
            "on the a-file, one way blocked",
            "
            .......
            .......
            .......
            K......
            t......
            .......
            .......",
            &["a7"],
        ),
        (
            "on the a-file, both ways open",
            "
            .......
            .......
            .......
            K......
            .......
            .......
            .......",
            &["a1", "a7"],
        ),
        (
            "on the throne, nothing in sight",
            "
            .......
            .......
            .......
            ...K...
            .......
            .......
            .......",
            &[],
        ),
        (
            "next to a corner, the other way blocked",
            "
            .......
            .......
            .......
            .......
            ......t
            ......K
            .......",
            &["g1"],
        ),
    ];
    for (name, board, corners) in cases {
        for side in [Side::Attackers, Side::Defenders] {
            let position = diagram(board, side);
            assert_eq!(
                position.king_open_corners(),
                squares(corners),
                "{name} ({side} to move)"
            );
        }
    }
}

/// The rows of the king-capture table: `mv` is unused, `expect` lists the capturing moves
/// (written `from-to`) per preset.
const CAPTURES: &[Case] = &[
    Case {
        name: "in the open, the second attacker can arrive",
        board: "
            .......
            ...tK..
            .......
            .......
            .......
            .....t.
            .......",
        side: Side::Attackers,
        mv: "",
        expect: [&["f2-f6"]; 5],
    },
    Case {
        name: "a defender blocks the only way in",
        board: "
            .......
            ...tK..
            .....T.
            .......
            .......
            .....t.
            .......",
        side: Side::Attackers,
        mv: "",
        expect: [&[]; 5],
    },
    Case {
        name: "beside a corner: hostile to the king except under walker; nielsen's edge is safe",
        board: "
            .K.....
            .......
            .......
            .......
            ..t....
            .......
            .......",
        side: Side::Attackers,
        mv: "",
        expect: [&["c3-c7"], &[], &[], &["c3-c7"], &["c3-c7"]],
    },
    Case {
        name: "on the edge between two: safe only under nielsen",
        board: "
            .......
            .......
            ....t..
            .......
            .......
            .......
            ..tK...",
        side: Side::Attackers,
        mv: "",
        expect: [&["e5-e1"], &["e5-e1"], &[], &["e5-e1"], &["e5-e1"]],
    },
    Case {
        name: "on the throne with three around, the fourth can arrive",
        board: "
            .......
            .......
            ...t...
            ..tKt..
            t......
            .......
            .......",
        side: Side::Attackers,
        mv: "",
        expect: [&["a3-d3"]; 5],
    },
    Case {
        name: "on the throne with two around: four needed under standard and nielsen",
        board: "
            .......
            .......
            ...t...
            ..tK...
            t......
            .......
            ....t..",
        side: Side::Attackers,
        mv: "",
        expect: [
            &[],
            &["a3-d3", "e1-e4"],
            &[],
            &["a3-d3", "e1-e4"],
            &["a3-d3", "e1-e4"],
        ],
    },
    Case {
        name: "beside the empty throne, one attacker: the throne is hostile under walker and fellhuhn",
        board: "
            .......
            .......
            ..t....
            ..K....
            .......
            .......
            .t.....",
        side: Side::Attackers,
        mv: "",
        expect: [&[], &["b1-b4"], &[], &["b1-b4"], &[]],
    },
    Case {
        name: "the defenders to move face the same threat",
        board: "
            .......
            ...tK..
            .......
            .......
            .......
            .....t.
            .......",
        side: Side::Defenders,
        mv: "",
        expect: [&["f2-f6"]; 5],
    },
];

#[test]
fn moves_that_capture_the_king_per_preset() {
    for case in CAPTURES {
        let position = diagram(case.board, case.side);
        for (preset, expected) in Preset::ALL.into_iter().zip(case.expect) {
            let mut found: Vec<String> = position
                .king_capture_moves(&preset.rules())
                .iter()
                .map(ToString::to_string)
                .collect();
            found.sort();
            assert_eq!(found, expected, "{} ({preset})", case.name);
            let first = position.king_capture_move(&preset.rules());
            assert_eq!(
                first.is_some(),
                !expected.is_empty(),
                "{} ({preset})",
                case.name
            );
            assert!(
                first.is_none_or(|m| found.contains(&m.to_string())),
                "one of them: {} ({preset})",
                case.name
            );
        }
    }
}

#[test]
fn the_found_moves_do_capture_the_king_when_played() {
    for case in CAPTURES.iter().filter(|c| c.side == Side::Attackers) {
        for preset in Preset::ALL {
            let position = diagram(case.board, case.side);
            for found in &position.king_capture_moves(&preset.rules()) {
                let mut state = GameState::new(preset.rules(), position);
                let done = state.play(*found).unwrap();
                assert_eq!(
                    done.mark,
                    Some(EndMark::KingCaptured),
                    "{} ({preset})",
                    case.name
                );
            }
        }
    }
}

#[test]
fn occurrences_after_a_move_count_the_repetitions() {
    for preset in Preset::ALL {
        let mut state = GameState::start(preset.rules());
        let cycle = ["d1-c1", "e4-e5", "c1-d1", "e5-e4"];
        // Each move's count before it is played, then the count it made.
        let mut counts = Vec::new();
        for text in cycle.iter().chain(&cycle) {
            let predicted = state.occurrences_after(mv(text)).unwrap();
            state.play(mv(text)).unwrap();
            assert_eq!(predicted, state.occurrences(), "{preset} {text}");
            counts.push(predicted);
        }
        assert_eq!(counts, [1, 1, 1, 2, 2, 2, 2, 3], "{preset}");
        assert!(state.is_over(), "{preset}: the third occurrence decides");
        assert!(state.occurrences_after(mv("d1-c1")).is_err(), "game over");
    }
}

#[test]
fn counts_from_a_set_up_position_with_the_defenders_to_move() {
    let position = diagram(
        "
        .......
        .......
        .......
        ...K...
        .......
        t......
        .T.....",
        Side::Defenders,
    );
    let mut state = GameState::new(Preset::Nielsen.rules(), position);
    let mut counts = Vec::new();
    for text in ["d4-d5", "a2-a3", "d5-d4", "a3-a2", "d4-d5"] {
        counts.push(state.occurrences_after(mv(text)).unwrap());
        state.play(mv(text)).unwrap();
    }
    assert_eq!(counts, [1, 1, 1, 2, 2]);
    assert!(state.occurrences_after(mv("a2-a1")).is_err(), "a corner");
    assert!(
        state.occurrences_after(mv("b1-b2")).is_err(),
        "not their turn"
    );
}
