//! Movement (RULES.md §2.1–2.2) and move notation with checked annotations (§1).

use crate::common;

use brandubh::rules::{
    Bitboard, GameState, IllegalMove, Move, MoveError, Position, Preset, SetupError, Side, Square,
};
use common::{diagram, mv, sq, squares};

fn destinations(position: &Position, from: &str) -> Vec<String> {
    position
        .destinations(sq(from))
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn the_start_position_has_forty_attacker_moves() {
    let start = Position::start();
    assert_eq!(start.side_to_move(), Side::Attackers);
    assert_eq!(start.legal_moves().len(), 40);
    assert_eq!(start.count_moves(), 40);
    assert!(
        start
            .legal_moves()
            .iter()
            .all(|m| start.attackers().contains(m.from()))
    );
    assert_eq!(destinations(&start, "d1"), ["b1", "c1", "e1", "f1"]);
    assert_eq!(destinations(&start, "a4"), ["a2", "a3", "a5", "a6"]);
    assert!(
        destinations(&start, "d4").is_empty(),
        "not the attackers' king"
    );
}

#[test]
fn soldiers_pass_the_empty_throne_but_do_not_stop_on_it() {
    let position = diagram(
        "
        .......
        .......
        .......
        t......
        .......
        .......
        .K.....",
        Side::Attackers,
    );
    assert_eq!(
        destinations(&position, "a4"),
        ["a2", "a3", "b4", "c4", "e4", "f4", "g4", "a5", "a6"]
    );
}

#[test]
fn an_occupied_throne_blocks() {
    let position = diagram(
        "
        .......
        .......
        .......
        t..K...
        .......
        .......
        .......",
        Side::Attackers,
    );
    assert_eq!(
        destinations(&position, "a4"),
        ["a2", "a3", "b4", "c4", "a5", "a6"]
    );
    assert_eq!(
        position.check_move(mv("a4-e4")),
        Err(IllegalMove::Blocked(mv("a4-e4"), sq("d4")))
    );
}

#[test]
fn only_the_king_stops_on_corners_and_the_throne_and_he_may_reenter_it() {
    let position = diagram(
        "
        .T.....
        .......
        ...K...
        .......
        ......t
        .......
        .......",
        Side::Defenders,
    );
    assert_eq!(
        destinations(&position, "b7"),
        ["b1", "b2", "b3", "b4", "b5", "b6", "c7", "d7", "e7", "f7"]
    );
    assert!(position.destinations(sq("d5")).contains(Square::THRONE));
    let mut state = GameState::new(Preset::Standard.rules(), position);
    for text in ["d5-d4", "g3-g2", "d4-d5", "g2-g3", "d5-d4"] {
        state.play(mv(text)).unwrap();
    }
    assert_eq!(state.position().king(), Some(Square::THRONE));
    let on_edge = diagram(
        "
        ...K...
        .......
        .......
        .......
        ......t
        .......
        .......",
        Side::Defenders,
    );
    assert_eq!(
        destinations(&on_edge, "d7"),
        [
            "d1", "d2", "d3", "d4", "d5", "d6", "a7", "b7", "c7", "e7", "f7", "g7"
        ]
    );
}

#[test]
fn soldiers_may_not_stop_on_a_corner() {
    let position = diagram(
        "
        .......
        .......
        .......
        ...K...
        .......
        T......
        .t.....",
        Side::Attackers,
    );
    assert_eq!(
        destinations(&position, "b1"),
        ["c1", "d1", "e1", "f1", "b2", "b3", "b4", "b5", "b6", "b7"]
    );
    assert_eq!(
        position.check_move(mv("b1-a1")),
        Err(IllegalMove::RestrictedSquare(sq("a1")))
    );
    let defenders = Position::from_parts(
        position.attackers(),
        position.defenders(),
        position.king(),
        Side::Defenders,
    )
    .unwrap();
    assert_eq!(
        defenders.check_move(mv("a2-a1")),
        Err(IllegalMove::RestrictedSquare(sq("a1")))
    );
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::start();
    let cases = [
        ("c3-c5", IllegalMove::NoPiece(sq("c3"))),
        ("d3-c3", IllegalMove::NotYourPiece(sq("d3"))),
        ("d1-d1", IllegalMove::NullMove(sq("d1"))),
        ("d1-e2", IllegalMove::NotStraight(mv("d1-e2"))),
        ("d1-d3", IllegalMove::Blocked(mv("d1-d3"), sq("d2"))),
        ("d2-d3", IllegalMove::Blocked(mv("d2-d3"), sq("d3"))),
        ("d1-a1", IllegalMove::RestrictedSquare(sq("a1"))),
    ];
    for (text, expected) in cases {
        assert_eq!(start.check_move(mv(text)), Err(expected), "{text}");
    }
    assert_eq!(
        IllegalMove::RestrictedSquare(sq("a1")).to_string(),
        "only the king may stop on the corner a1"
    );
}

#[test]
fn every_generated_move_checks_as_legal_and_nothing_else_does() {
    let mut state = GameState::start(Preset::Standard.rules());
    for text in ["d2-c2", "d3-e3", "b4-b6", "c4-c3", "d1-d3"] {
        state.play(mv(text)).unwrap();
    }
    let position = *state.position();
    let legal = position.legal_moves();
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::new(from, to);
            assert_eq!(position.check_move(m).is_ok(), legal.contains(&m), "{m}");
        }
    }
}

/// A position where d1-d3 captures c3 and e3 (against b3 and f3).
fn double_capture() -> GameState {
    let position = diagram(
        "
        .......
        K......
        .......
        .......
        .tT.Tt.
        .......
        ...t...",
        Side::Attackers,
    );
    GameState::new(Preset::Standard.rules(), position)
}

#[test]
fn annotations_are_printed_and_checked() {
    let mut state = double_capture();
    let done = state.clone().play(mv("d1-d3")).unwrap();
    assert_eq!(done.to_string(), "d1-d3xc3/e3");
    assert_eq!(done.captured, squares(&["c3", "e3"]));
    for accepted in ["d1-d3", "d1-d3xc3/e3", "d1-d3xe3/c3"] {
        assert_eq!(state.clone().play_text(accepted), Ok(done), "{accepted}");
    }
    let wrong = state.clone().play_text("d1-d3xc3");
    assert!(
        matches!(wrong, Err(MoveError::WrongCaptures { .. })),
        "{wrong:?}"
    );
    assert_eq!(
        wrong.unwrap_err().to_string(),
        "captures c3 listed, but the move is d1-d3xc3/e3"
    );
    assert!(matches!(
        state.clone().play_text("d1-d3xc3/e3/d4"),
        Err(MoveError::WrongCaptures { .. })
    ));
    assert!(matches!(
        state.clone().play_text("d1-d3xc3/e3++"),
        Err(MoveError::WrongMark(_))
    ));
    assert!(matches!(
        state.clone().play_text("d1-d2xc2"),
        Err(MoveError::WrongCaptures { .. })
    ));
    let before = state.clone();
    assert!(state.play_text("d1-d3--").is_err());
    assert_eq!(state, before, "a refused move changes nothing");
    assert!(matches!(state.play_text("d1-d9"), Err(MoveError::Parse(_))));
    assert!(matches!(
        state.play_text("c1-c3"),
        Err(MoveError::Illegal(IllegalMove::NoPiece(_)))
    ));
}

#[test]
fn a_line_is_annotated_up_to_its_first_illegal_move() {
    let state = double_capture();
    let line = ["d1-d3", "a6-a5", "c3-c4", "d3-d2"].map(mv);
    let annotated: Vec<String> = state
        .annotate(&line)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(annotated, ["d1-d3xc3/e3", "a6-a5"]);
    assert!(state.annotate(&[]).is_empty());
}

#[test]
fn end_marks_may_be_omitted_but_not_wrong() {
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
    let state = GameState::new(Preset::Standard.rules(), position);
    assert_eq!(
        state.clone().play_text("d7-a7").unwrap().to_string(),
        "d7-a7--"
    );
    assert!(state.clone().play_text("d7-a7--").is_ok());
    assert!(matches!(
        state.clone().play_text("d7-a7++"),
        Err(MoveError::WrongMark(_))
    ));
    assert!(matches!(
        state.clone().play_text("d7-b7--"),
        Err(MoveError::WrongMark(_))
    ));
}

#[test]
fn position_strings_parse_and_print() {
    let start: Position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".parse().unwrap();
    assert_eq!(start, Position::start());
    assert_eq!(start.to_string(), brandubh::rules::START);
    assert_eq!(
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".parse::<Position>(),
        Ok(start)
    );
    let defenders: Position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d".parse().unwrap();
    assert_eq!(defenders.side_to_move(), Side::Defenders);
    assert_ne!(defenders.key(), start.key());
    let errors = [
        (
            "/3t3/3t3/",
            "the board has 2 ranks, expected 7 separated by /",
        ),
        (
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t4/",
            "rank 7 describes 8 squares, expected 7",
        ),
        (
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3x3/",
            "rank 7: 'x' is not t, T, K or a digit 1-7",
        ),
        ("/3t3/3t3/3T3/ttTKKtt/3T3/3t3/3t3/", "a second king on e4"),
        (
            "/t6/7/7/3K3/7/7/7/",
            "a soldier on a1: only the king may stand on the throne or a corner",
        ),
        (
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ x",
            "side to move \"x\" is not a or d",
        ),
        (
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a b",
            "unexpected \"b\" after the side to move",
        ),
        (
            "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/3t3/",
            "the board has 8 ranks, expected 7 separated by /",
        ),
    ];
    for (text, message) in errors {
        let err = text.parse::<Position>().unwrap_err();
        assert_eq!(err.to_string(), message, "{text}");
    }
}

#[test]
fn setups_refuse_overlaps_and_soldiers_on_restricted_squares() {
    let none = Bitboard::EMPTY;
    let c3 = squares(&["c3"]);
    let overlap = Err(SetupError::Overlap(sq("c3")));
    let cases = [
        (c3, c3, None, overlap.clone()),
        (c3, none, Some("c3"), overlap.clone()),
        (none, c3, Some("c3"), overlap.clone()),
        (c3, c3, Some("c3"), overlap),
        (
            squares(&["d4"]),
            none,
            None,
            Err(SetupError::SoldierOnRestricted(sq("d4"))),
        ),
        (
            none,
            squares(&["g7"]),
            None,
            Err(SetupError::SoldierOnRestricted(sq("g7"))),
        ),
        (squares(&["b1"]), c3, Some("a1"), Ok(())),
        (squares(&["b1"]), c3, Some("d4"), Ok(())),
    ];
    for (attackers, defenders, king, expected) in cases {
        let king = king.map(sq);
        let position = Position::from_parts(attackers, defenders, king, Side::Attackers);
        assert_eq!(position.clone().map(|_| ()), expected, "{king:?}");
        if let Ok(p) = position {
            assert_eq!(
                (p.attackers(), p.defenders(), p.king()),
                (attackers, defenders, king)
            );
        }
    }
    assert_eq!(
        SetupError::Overlap(sq("c3")).to_string(),
        "two pieces on c3"
    );
}

#[test]
fn opentafl_piece_letters_and_marks_are_checked() {
    let position = diagram(
        "
        ...t...
        ..K....
        .t.....
        .......
        .......
        .......
        .......",
        Side::Defenders,
    );
    let state = GameState::new(Preset::Standard.rules(), position);
    // c5 stands between b5 and d5: d7-d5 would take him. c7 sees a7, and b5-b7 takes him.
    for accepted in ["Kc6-c5", "Kc6-c5+", "c6-c5+", "Kc6-c7-", "Kc6-c7+"] {
        assert!(state.clone().play_text(accepted).is_ok(), "{accepted}");
    }
    let wrong = |text: &str| state.clone().play_text(text).unwrap_err().to_string();
    assert_eq!(
        wrong("Kc6-c5-"),
        "\"-\" written, but after c6-c5 the king has no open line to a corner"
    );
    assert_eq!(
        wrong("Kc6-e6+"),
        "\"+\" written, but after c6-e6 the attackers cannot capture the king with one move"
    );
    assert_eq!(wrong("tc6-c5"), "tc6 written, but the piece on c6 is K");
    let mut after = state.clone();
    after.play_text("Kc6-c5+").unwrap();
    assert!(after.clone().play_text("d7-d5xKc5++").is_ok());
    assert!(after.clone().play_text("td7-d5++").is_ok());
    assert!(matches!(
        after.clone().play_text("d7-d5xKb5"),
        Err(MoveError::WrongPiece { .. })
    ));
    assert!(matches!(
        after.play_text("Td7-d5"),
        Err(MoveError::WrongPiece { .. })
    ));
}
