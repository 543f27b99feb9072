//! Custodian captures (RULES.md §2.3–2.5 and the hostility rows of §3), per preset.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use brandubh::rules::{Preset, Side};
use common::{captured, diagram, squares};

/// Presets in the order of RULES.md §3.
const PRESETS: [Preset; 5] = Preset::ALL;

struct Case {
    name: &'static str,
    board: &'static str,
    side: Side,
    mv: &'static str,
    /// Captured squares per preset: standard, walker, nielsen, fellhuhn, opentafl.
    expect: [&'static [&'static str]; 5],
}

const fn all(squares: &'static [&'static str]) -> [&'static [&'static str]; 5] {
    [squares; 5]
}

const CASES: &[Case] = &[
    Case {
        name: "an attacker closes a sandwich along a rank",
        board: "
            .......
            .....K.
            .......
            .......
            .......
            .tT....
            ...t...",
        side: Side::Attackers,
        mv: "d1-d2",
        expect: all(&["c2"]),
    },
    Case {
        name: "an attacker closes a sandwich along a file",
        board: "
            .......
            .K.....
            ....t..
            ....T..
            t......
            .......
            .......",
        side: Side::Attackers,
        mv: "a3-e3",
        expect: all(&["e4"]),
    },
    Case {
        name: "a defender captures an attacker against another defender",
        board: "
            .......
            .K.....
            .......
            .......
            .....T.
            .....t.
            ..T....",
        side: Side::Defenders,
        mv: "c1-f1",
        expect: all(&["f2"]),
    },
    Case {
        name: "moving into a sandwich is safe",
        board: "
            .......
            .....K.
            .......
            .......
            .......
            .t.t...
            ..T....",
        side: Side::Defenders,
        mv: "c1-c2",
        expect: all(&[]),
    },
    Case {
        name: "a piece already sandwiched is not captured by an unrelated move",
        board: "
            .......
            .....K.
            .......
            .......
            .......
            .tTt..t
            .......",
        side: Side::Attackers,
        mv: "g2-g3",
        expect: all(&[]),
    },
    Case {
        name: "the board edge is never hostile",
        board: "
            .......
            .....K.
            .......
            .......
            T......
            .......
            .t.....",
        side: Side::Attackers,
        mv: "b1-b3",
        expect: all(&[]),
    },
    Case {
        name: "a defender is captured against an empty corner",
        board: "
            .......
            .....K.
            .......
            .......
            .......
            .......
            .T.t...",
        side: Side::Attackers,
        mv: "d1-c1",
        expect: all(&["b1"]),
    },
    Case {
        name: "an attacker is captured against an empty corner",
        board: "
            .......
            .K.....
            .......
            .......
            ....T..
            ......t
            .......",
        side: Side::Defenders,
        mv: "e3-g3",
        expect: all(&["g2"]),
    },
    Case {
        name: "a defender is captured against the empty throne",
        board: "
            .......
            .....K.
            .......
            .......
            ...T...
            .......
            ...t...",
        side: Side::Attackers,
        mv: "d1-d2",
        expect: [&["d3"], &["d3"], &["d3"], &["d3"], &[]],
    },
    Case {
        name: "an attacker is captured against the empty throne",
        board: "
            .......
            .....K.
            .......
            ..t....
            .T.....
            .......
            .......",
        side: Side::Defenders,
        mv: "b3-b4",
        expect: [&["c4"], &["c4"], &["c4"], &["c4"], &[]],
    },
    Case {
        name: "an occupied throne is not hostile to defenders",
        board: "
            .......
            .......
            .......
            ...K...
            ...T...
            .......
            ...t...",
        side: Side::Attackers,
        mv: "d1-d2",
        expect: all(&[]),
    },
    Case {
        name: "the king on the throne is an anvil against attackers",
        board: "
            .......
            .......
            .......
            ...K...
            ...t...
            .T.....
            .......",
        side: Side::Defenders,
        mv: "b2-d2",
        expect: all(&["d3"]),
    },
    Case {
        name: "the king away from the throne is an anvil against attackers",
        board: "
            .......
            .......
            .K.....
            .t.....
            ...T...
            .......
            .......",
        side: Side::Defenders,
        mv: "d3-b3",
        expect: all(&["b4"]),
    },
    Case {
        name: "the king is a hammer",
        board: "
            .......
            .......
            ..K....
            .......
            ..t....
            ..T....
            .......",
        side: Side::Defenders,
        mv: "c5-c4",
        expect: all(&["c3"]),
    },
    Case {
        name: "the king captures against a corner",
        board: "
            .......
            .......
            .......
            .......
            .......
            .......
            .t..K..",
        side: Side::Defenders,
        mv: "e1-c1",
        expect: all(&["b1"]),
    },
    Case {
        name: "the king captures against a defender",
        board: "
            .......
            .......
            .......
            .......
            .....T.
            .....t.
            ...K...",
        side: Side::Defenders,
        mv: "d1-f1",
        expect: all(&["f2"]),
    },
    Case {
        name: "one move captures three pieces",
        board: "
            .......
            K......
            ..t....
            ..T....
            tT.Tt..
            .......
            ..t....",
        side: Side::Attackers,
        mv: "c1-c3",
        expect: all(&["b3", "d3", "c4"]),
    },
    Case {
        name: "one move captures against a corner and against a defender",
        board: "
            .......
            .......
            ...K...
            .......
            ..T....
            ..t....
            .t..T..",
        side: Side::Defenders,
        mv: "e1-c1",
        expect: all(&["b1", "c2"]),
    },
    Case {
        name: "one move captures against a soldier and against the empty throne",
        board: "
            .......
            .....K.
            .......
            .......
            ...T...
            .tT...t
            .......",
        side: Side::Attackers,
        mv: "g2-d2",
        expect: [
            &["c2", "d3"],
            &["c2", "d3"],
            &["c2", "d3"],
            &["c2", "d3"],
            &["c2"],
        ],
    },
];

#[test]
fn capture_table() {
    let mut failures = Vec::new();
    for case in CASES {
        let position = diagram(case.board, case.side);
        for (preset, expected) in PRESETS.into_iter().zip(case.expect) {
            let got = captured(preset, position, case.mv);
            if got != squares(expected) {
                failures.push(format!(
                    "{} [{preset}] {}: expected {expected:?}, got {:?}",
                    case.name,
                    case.mv,
                    got.map(|s| s.to_string()).collect::<Vec<_>>()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
