//! Warnings in the app: after moves, on selection, for typed moves, and the `w` toggle.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::game::{Game, Player};
use crate::rules::{Position, Preset, Side, Square};
use crate::tui::input::Action;
use crate::tui::local_game::tests::type_in;
use crate::tui::runtime::Runtime;
use crate::tui::session::Session;
use crate::tui::text::Tone;
use crate::tui::warnings::{decision, third_time};
use crate::tui::{App, Config};

/// A hot-seat game under `preset` from the position string `start`.
fn from_position(preset: Preset, start: &str) -> App {
    let start: Position = start.parse().unwrap();
    let game = Game::new(preset.rules(), start, Player::Human, Player::Human);
    App::new(Config {
        resume: Some(Session::from_game(game)),
        ..Config::default()
    })
}

fn hot_seat(preset: Preset) -> App {
    App::new(Config {
        preset,
        skip_setup: true,
        ..Config::default()
    })
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn type_move(app: &mut App, text: &str) {
    app.update(Action::StartTyping);
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm);
}

/// Selects the piece on `from` and chooses `to`, with the keyboard cursor.
fn choose(app: &mut App, from: &str, to: &str) {
    app.choose(sq(from));
    app.board.cursor = sq(to);
    app.update(Action::Confirm);
}

fn status(app: &App) -> (Tone, String) {
    let s = app.status().unwrap();
    (s.tone, s.text.clone())
}

fn screen(app: &mut App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    format!("{}", terminal.backend())
}

#[test]
fn after_a_move_the_status_warns_of_open_lines() {
    // The king on c3 steps onto the bottom edge, open both ways.
    let mut app = from_position(Preset::Standard, "/7/7/2K4/7/7/1t5/7/ d");
    type_move(&mut app, "c3-c1");
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "the king threatens a1 and g1 · played c3-c1; the attackers to move".to_owned()
        )
    );
    // The attackers close one line; the other stays open, now for the defenders to use.
    type_move(&mut app, "b6-b1");
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "the king can escape to g1 · played b6-b1; the defenders to move".to_owned()
        )
    );
    // A quiet move says nothing more.
    let mut app = hot_seat(Preset::Standard);
    type_move(&mut app, "d2-e2");
    assert_eq!(status(&app).0, Tone::Info);
}

#[test]
fn after_a_move_the_status_warns_when_the_king_can_be_captured() {
    // King on e6 beside the attacker on d6; the attacker on f1 can close the sandwich on f6.
    let mut app = from_position(Preset::Standard, "/5t1/t6/6T/7/7/3tK2/7/ a");
    type_move(&mut app, "a2-a3");
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "the king can be captured next move · played a2-a3; the defenders to move".to_owned()
        )
    );
    // The defenders leave it so: now the attackers can.
    type_move(&mut app, "g3-g2");
    assert_eq!(
        status(&app).1,
        "the attackers can capture the king · played g3-g2; the attackers to move"
    );
    // On the edge, the same threat is none under nielsen; the open line is left.
    let edge = "/5t1/t6/7/7/7/7/3tK2/ a";
    let mut app = from_position(Preset::Standard, edge);
    type_move(&mut app, "a2-a3");
    assert_eq!(
        status(&app).1,
        "the king can escape to g7 · the king can be captured next move · played a2-a3; \
         the defenders to move"
    );
    let mut app = from_position(Preset::Nielsen, edge);
    type_move(&mut app, "a2-a3");
    assert_eq!(
        status(&app).1,
        "the king can escape to g7 · played a2-a3; the defenders to move"
    );
}

#[test]
fn w_turns_the_warnings_off_and_on() {
    let start = "/5t1/t6/7/7/7/3tK2/7/ a";
    let mut app = from_position(Preset::Standard, start);
    assert!(screen(&mut app).contains("w: warnings on"));
    app.update(Action::ToggleWarnings);
    assert_eq!(
        status(&app),
        (Tone::Info, "warnings off: w turns them on".to_owned())
    );
    assert!(screen(&mut app).contains("w: warnings off"));
    app.update(Action::Help);
    assert!(screen(&mut app).contains("Keys · warnings off"));
    app.update(Action::Cancel);
    type_move(&mut app, "a2-a3");
    assert_eq!(
        status(&app),
        (Tone::Info, "played a2-a3; the defenders to move".to_owned())
    );
    app.update(Action::ToggleWarnings);
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "the king can be captured next move · warnings on: w turns them off".to_owned()
        )
    );
}

/// The start position occurs for the second time after these.
const CYCLE: [&str; 4] = ["d1-c1", "e4-e5", "c1-d1", "e5-e4"];

#[test]
fn selecting_a_piece_marks_the_moves_that_repeat_a_position() {
    let mut app = hot_seat(Preset::Standard);
    for text in &CYCLE[..3] {
        type_move(&mut app, text);
    }
    app.choose(sq("e5"));
    assert_eq!(app.marks().repeats, sq("e4").bit(), "back to the start");
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "! repeats a position: a 3rd time loses for the side that repeats (defenders)"
                .to_owned()
        )
    );
    // Warned at selection, the second occurrence is played when chosen.
    app.board.cursor = sq("e4");
    app.update(Action::Confirm);
    assert_eq!(app.session.moves().len(), 4);
    assert_eq!(app.session.state().occurrences(), 2);
    assert!(app.marks().repeats.is_empty(), "nothing selected");
}

#[test]
fn the_move_that_would_end_the_game_by_repetition_is_chosen_twice() {
    let mut app = hot_seat(Preset::Standard);
    for text in CYCLE.iter().chain(&CYCLE[..3]) {
        choose(&mut app, &text[..2], &text[3..]);
    }
    assert_eq!(app.session.moves().len(), 7);
    app.choose(sq("e5"));
    assert_eq!(
        status(&app).1,
        "! repeats a position a 3rd time: the defenders lose"
    );
    app.board.cursor = sq("e4");
    app.update(Action::Confirm);
    assert_eq!(app.session.moves().len(), 7, "not played yet");
    assert_eq!(
        status(&app),
        (
            Tone::Warning,
            "e5-e4: a 3rd repetition, the defenders lose. Choose e4 again to play it".to_owned()
        )
    );
    app.update(Action::Confirm);
    let outcome = app.session.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Attackers));
}

#[test]
fn a_typed_move_that_repeats_a_position_becomes_the_selection() {
    let mut app = hot_seat(Preset::Fellhuhn);
    for text in &CYCLE[..3] {
        type_move(&mut app, text);
    }
    type_move(&mut app, "e5-e4");
    assert_eq!(app.session.moves().len(), 3, "not played yet");
    assert_eq!((app.selected(), app.cursor()), (Some(sq("e5")), sq("e4")));
    assert_eq!(
        status(&app).1,
        "! repeats a position: a 3rd time loses for the attackers, who began the cycle"
    );
    app.update(Action::Confirm);
    assert_eq!(app.session.moves().len(), 4);
    // The game-ending one asks once more, and Enter plays it.
    for text in &CYCLE[..3] {
        choose(&mut app, &text[..2], &text[3..]);
    }
    type_move(&mut app, "e5-e4");
    assert_eq!(app.session.moves().len(), 7, "not played yet");
    assert!(status(&app).1.ends_with("Choose e4 again to play it"));
    app.update(Action::Confirm);
    assert_eq!(
        app.session.outcome().map(|o| o.winner),
        Some(Some(Side::Defenders)),
        "fellhuhn: the attackers began the cycle"
    );
}

#[test]
fn without_warnings_repetitions_are_played_at_once() {
    let mut app = hot_seat(Preset::Standard);
    app.update(Action::ToggleWarnings);
    for text in CYCLE.iter().chain(&CYCLE[..3]) {
        type_move(&mut app, text);
    }
    app.choose(sq("e5"));
    assert!(app.marks().repeats.is_empty());
    type_move(&mut app, "e5-e4");
    assert!(app.session.outcome().is_some(), "{:?}", app.status());
}

#[test]
fn the_third_occurrence_is_explained_in_each_presets_words() {
    let texts: Vec<(String, String)> = Preset::ALL
        .into_iter()
        .map(|p| {
            let rules = p.rules();
            (
                third_time(&rules, Side::Attackers),
                decision(&rules, Side::Attackers),
            )
        })
        .collect();
    let expected = [
        (
            "a 3rd time loses for the side that repeats (attackers)",
            "the attackers lose",
        ),
        (
            "a 3rd time loses for the side that repeats (attackers)",
            "the attackers lose",
        ),
        ("a 3rd time loses for the defenders", "the defenders lose"),
        (
            "a 3rd time loses for the defenders, who began the cycle",
            "the defenders lose",
        ),
        ("a 3rd time is a draw", "a draw"),
    ];
    for ((preset, got), want) in Preset::ALL.iter().zip(&texts).zip(expected) {
        assert_eq!((got.0.as_str(), got.1.as_str()), want, "{preset}");
    }
    // Every warning fits the status line of an 80-column terminal.
    for (third, decided) in &texts {
        let longest = [
            format!("! repeats a position: {third}"),
            format!("g7-g1: a 3rd repetition, {decided}. Choose g1 again to play it"),
        ];
        for text in longest {
            assert!(text.chars().count() <= 80, "{text}");
        }
    }
}

#[test]
fn a_game_that_starts_under_a_threat_says_so_at_once() {
    // The king on a4 sees a1 and a7; the attackers are to move.
    let start = "/7/7/7/K6/7/7/5t1/ a";
    let app = from_position(Preset::Standard, start);
    assert_eq!(
        status(&app),
        (Tone::Warning, "the king threatens a1 and a7".to_owned())
    );
    // Started from the new-game form (as play from here does) with that position.
    let dir = tempfile::tempdir().unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: crate::tui::session::Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "d2-c2");
    rt.update(Action::Review);
    rt.update(Action::Confirm);
    rt.update(Action::Move(crate::tui::input::Direction::Up));
    for _ in 0..60 {
        rt.update(Action::Backspace);
    }
    for c in start.chars() {
        rt.update(Action::Type(c));
    }
    rt.update(Action::Confirm);
    assert_eq!(rt.app.session.moves().len(), 0, "a new game");
    assert_eq!(
        status(&rt.app),
        (
            Tone::Warning,
            "the king threatens a1 and a7 · standard rules: the attackers to move".to_owned()
        )
    );
}
