//! The puzzle trainer: its update driven by actions, its screen (inside the app) in
//! snapshots.

use brandubh::puzzle::{Goal, Grade, Progress, Puzzle, Verdict};
use brandubh::rules::{Preset, Side};
use brandubh::tui::puzzle_trainer::{Trainer, TrainerEffect};
use brandubh::tui::{Action, App, Config};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

const SIZE: Rect = Rect::new(0, 0, 80, 24);

/// King c7 and an attacker on e7, the defenders to move: c7-a7 wins at once.
fn puzzle() -> Puzzle {
    Puzzle {
        id: "test-0001".to_owned(),
        preset: Preset::Standard,
        position: "/7/7/7/7/7/7/2K1t2/".to_owned(),
        side: Side::Defenders,
        goal: Goal::Win,
        moves: 1,
        solution: "c7-a7".to_owned(),
        grade: Grade::Easy,
        rating: 800,
        tempting: 0,
        engine_depth: 1,
        source: "hand-made".to_owned(),
    }
}

fn trainer() -> Trainer {
    Trainer::new(vec![puzzle()], Progress::default()).unwrap()
}

fn type_move(trainer: &mut Trainer, text: &str) -> Vec<TrainerEffect> {
    trainer.update(Action::StartTyping, SIZE);
    for c in text.chars() {
        trainer.update(Action::Type(c), SIZE);
    }
    trainer.update(Action::Confirm, SIZE)
}

#[test]
fn a_typed_move_is_sent_to_the_solver_and_a_solution_is_recorded() {
    let mut t = trainer();
    let effects = type_move(&mut t, "c7-a7");
    let [TrainerEffect::Check { id, mv, moves, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!((mv.to_string().as_str(), *moves), ("c7-a7", 1));
    let effects = t.judged(*id, Verdict::Solved);
    let [TrainerEffect::SaveProgress(progress)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!((progress.solved(), progress.streak()), (1, 1));
    assert!(progress.rating() > 1000);
}

#[test]
fn a_wrong_move_fails_once_and_retry_starts_again() {
    let mut t = trainer();
    let effects = type_move(&mut t, "c7-c6");
    let [TrainerEffect::Check { id, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let effects = t.judged(
        *id,
        Verdict::Wrong {
            why: "this does not end the game".to_owned(),
            refutation: Vec::new(),
        },
    );
    assert!(matches!(effects.as_slice(), [TrainerEffect::SaveProgress(p)] if p.failed() == 1));
    // Showing the answer after the failure does not count it twice.
    assert!(t.update(Action::ShowAnswer, SIZE).is_empty());
    t.update(Action::Retry, SIZE);
    assert_eq!(t.state().ply(), 0);
}

#[test]
fn an_illegal_move_is_refused_without_a_search() {
    let mut t = trainer();
    assert!(type_move(&mut t, "c7-c7").is_empty());
    assert!(type_move(&mut t, "zz").is_empty());
}

/// The app started in the trainer (as `brandubh puzzles`), the standard puzzles, no files.
fn app() -> App {
    App::new(Config {
        trainer: Some(Preset::Standard),
        ..Config::default()
    })
}

fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal
}

#[test]
fn the_trainer_at_80x24() {
    let mut app = app();
    // A piece selected: its moves shown.
    app.update(Action::Confirm);
    let shown = format!("{}", screen(&app, 80, 24).backend());
    // The panel is padded, and the rating and streak fit one row.
    assert!(shown.contains("│ Puzzle "), "{shown}");
    assert!(shown.contains("│ rating 1000 · streak 0"), "{shown}");
    insta::assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn the_trainer_at_the_minimum_size() {
    let (w, h) = brandubh::tui::minimum_size();
    insta::assert_snapshot!(screen(&app(), w, h).backend());
}

#[test]
fn the_trainer_typing_a_move_at_the_minimum_size() {
    let (w, h) = brandubh::tui::minimum_size();
    let mut app = app();
    for action in [Action::StartTyping, Action::Type('c'), Action::Type('7')] {
        app.update(action);
    }
    insta::assert_snapshot!(screen(&app, w, h).backend());
}
