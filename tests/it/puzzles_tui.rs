//! The puzzle trainer: its update driven by actions, its screen in snapshots.

use brandubh::puzzle::{Goal, Grade, Progress, Puzzle, Verdict};
use brandubh::rules::{Preset, Side};
use brandubh::tui::Look;
use brandubh::tui::puzzles::{Trainer, TrainerAction, TrainerEffect};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

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
    for c in text.chars() {
        trainer.update(TrainerAction::Type(c));
    }
    trainer.update(TrainerAction::Enter)
}

#[test]
fn a_typed_move_is_sent_to_the_solver_and_a_solution_is_recorded() {
    let mut t = trainer();
    let effects = type_move(&mut t, "c7-a7");
    let [TrainerEffect::Check { id, mv, moves, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!((mv.to_string().as_str(), *moves), ("c7-a7", 1));
    let effects = t.update(TrainerAction::Judged {
        id: *id,
        verdict: Verdict::Solved,
    });
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
    let effects = t.update(TrainerAction::Judged {
        id: *id,
        verdict: Verdict::Wrong {
            why: "this does not end the game".to_owned(),
            refutation: Vec::new(),
        },
    });
    assert!(matches!(effects.as_slice(), [TrainerEffect::SaveProgress(p)] if p.failed() == 1));
    // Showing the answer after the failure does not count it twice.
    assert!(t.update(TrainerAction::ShowAnswer).is_empty());
    t.update(TrainerAction::Retry);
    assert_eq!(t.state().ply(), 0);
}

#[test]
fn an_illegal_move_is_refused_without_a_search() {
    let mut t = trainer();
    assert!(type_move(&mut t, "c7-c7").is_empty());
    assert!(type_move(&mut t, "zz").is_empty());
}

fn screen(trainer: &Trainer, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            trainer.render(area, frame.buffer_mut(), &Look::default());
        })
        .unwrap();
    terminal
}

#[test]
fn the_trainer_at_80x24() {
    let mut t = trainer();
    for c in "c7-".chars() {
        t.update(TrainerAction::Type(c));
    }
    insta::assert_snapshot!(screen(&t, 80, 24).backend());
}

#[test]
fn the_trainer_at_the_minimum_size() {
    let (w, h) = brandubh::tui::minimum_size();
    insta::assert_snapshot!(screen(&trainer(), w, h).backend());
}
