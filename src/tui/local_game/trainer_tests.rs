//! The puzzle trainer as a screen of the app: opened, played and left over the one event
//! loop, its judgements and its progress carried out as effects.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::tui::App;
use crate::tui::input::Direction;
use crate::tui::puzzle_trainer::Trainer;
use crate::tui::runtime::Runtime;

/// The screen of `app` drawn at `width`×`height`.
fn screen_at(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    format!("{}", terminal.backend())
}

#[test]
fn z_on_the_new_game_screen_opens_the_trainer_inside_the_app() {
    let mut app = App::new(Config::default());
    app.update(Action::Puzzles);
    assert!(!app.should_quit(), "the trainer is a screen of the app");
    assert!(screen_at(&app, 80, 24).contains("to play"));
}

#[test]
fn z_with_a_game_in_play_opens_the_trainer_and_keeps_the_game() {
    let mut app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    app.session.play_text("d2-c2").unwrap();
    app.leave(Leaving::NewGame);
    app.update(Action::Puzzles);
    assert!(screen_at(&app, 80, 24).contains("to play"));
    assert_eq!(app.session.moves().len(), 1);
}

/// An app started in the trainer (as `brandubh puzzles`), its progress kept at `progress`.
fn trainer_config(progress: Option<std::path::PathBuf>) -> Config {
    Config {
        trainer: Some(Preset::Standard),
        storage: Storage {
            puzzle_progress: progress,
            ..Storage::default()
        },
        ..Config::default()
    }
}

/// The trainer on screen.
fn trainer(app: &App) -> &Trainer {
    app.trainer().expect("the trainer is on screen")
}

#[test]
fn started_in_the_trainer_leaving_it_quits() {
    let mut app = App::new(trainer_config(None));
    assert_eq!(app.mode(), Mode::Trainer);
    app.update(Action::Quit);
    assert!(app.should_quit());
}

#[test]
fn leaving_the_trainer_opened_by_z_returns_to_the_new_game_screen_and_its_game() {
    let mut app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    app.session.play_text("d2-c2").unwrap();
    app.leave(Leaving::NewGame);
    app.update(Action::Puzzles);
    assert_eq!(app.mode(), Mode::Trainer);
    app.update(Action::Quit);
    assert!(!app.should_quit());
    assert_eq!(app.mode(), Mode::Menu, "the new-game screen again");
    app.update(Action::Cancel);
    assert_eq!(app.mode(), Mode::Board, "back to the game kept");
    assert_eq!(app.session.moves().len(), 1);
}

/// The effect that judges a move, if `effects` hold one: the move.
fn judged_move(effects: &[Effect]) -> Option<Move> {
    effects.iter().find_map(|e| match e {
        Effect::Judge { mv, .. } => Some(*mv),
        _ => None,
    })
}

#[test]
fn a_move_chosen_with_the_cursor_is_sent_to_the_engine_thread() {
    let mut app = App::new(trainer_config(None));
    let solution = trainer(&app).puzzle().solution_move().unwrap();
    let from = trainer(&app).cursor();
    // To the piece, select it, to its square, move it.
    let mut effects = Vec::new();
    for (at, to) in [(from, solution.from()), (solution.from(), solution.to())] {
        let (df, dr) = (
            i16::from(to.file()) - i16::from(at.file()),
            i16::from(to.rank()) - i16::from(at.rank()),
        );
        let steps = |n: i16, plus, minus| {
            std::iter::repeat_n(if n > 0 { plus } else { minus }, n.unsigned_abs().into())
        };
        for dir in steps(df, Direction::Right, Direction::Left).chain(steps(
            dr,
            Direction::Up,
            Direction::Down,
        )) {
            app.update(Action::Move(dir));
        }
        effects = app.update(Action::Confirm);
    }
    assert_eq!(judged_move(&effects), Some(solution));
}

#[test]
fn a_move_clicked_with_the_mouse_is_sent_to_the_engine_thread() {
    let mut app = App::new(trainer_config(None));
    let solution = trainer(&app).puzzle().solution_move().unwrap();
    let board = GameLayout::new(app.size()).unwrap().board;
    let click = |sq| {
        let cell = board.cell(sq);
        Action::Click {
            column: cell.x + cell.width / 2,
            row: cell.y + cell.height / 2,
        }
    };
    app.update(click(solution.from()));
    let effects = app.update(click(solution.to()));
    assert_eq!(judged_move(&effects), Some(solution));
}

#[test]
fn a_typed_move_is_sent_to_the_engine_thread_and_a_bad_one_is_explained() {
    let mut app = App::new(trainer_config(None));
    let solution = trainer(&app).puzzle().solution_move().unwrap();
    app.update(Action::StartTyping);
    assert_eq!(app.mode(), Mode::Text);
    for c in "zz".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(judged_move(&app.update(Action::Confirm)), None);
    assert!(trainer(&app).message().unwrap().contains("zz"));
    app.update(Action::StartTyping);
    for c in solution.to_string().chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(judged_move(&app.update(Action::Confirm)), Some(solution));
}

#[test]
fn help_lists_the_trainers_keys() {
    let mut app = App::new(trainer_config(None));
    app.update(Action::Help);
    let screen = screen_at(&app, 80, 24);
    assert!(screen.contains("Puzzle trainer keys"), "{screen}");
    assert!(screen.contains("retry the puzzle"), "{screen}");
}

#[test]
fn the_key_line_fits_80_columns_and_the_minimum_size() {
    let app = App::new(trainer_config(None));
    let wide = screen_at(&app, 80, 24);
    assert!(
        wide.contains("? help · q back · r retry · s answer · n next"),
        "{wide}"
    );
    let (w, h) = crate::tui::minimum_size();
    let small = screen_at(&app, w, h);
    assert!(small.contains("? help"), "{small}");
    assert!(small.contains("q back"), "{small}");
}

/// Takes events until the trainer's puzzle is solved or `what` says why not.
fn tick_until(rt: &mut Runtime, done: impl Fn(&App) -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !done(&rt.app) {
        assert!(
            std::time::Instant::now() < deadline,
            "{:?}",
            rt.app.trainer().and_then(Trainer::message)
        );
        rt.tick(std::time::Instant::now()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn the_judgement_comes_from_the_engine_thread_and_the_progress_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles").join("progress.json");
    let mut rt = Runtime::new(trainer_config(Some(path.clone()))).unwrap();
    rt.settle();
    let puzzle = trainer(&rt.app).puzzle().clone();
    let mut solver = crate::puzzle::Solver::new();
    while !trainer(&rt.app).is_solved() {
        // The solution first, then a move the solver proves still wins.
        let state = trainer(&rt.app).state().clone();
        let mv = if state.ply() == 0 {
            puzzle.solution_move().unwrap()
        } else {
            let n = solver
                .shortest_win(&state, crate::puzzle::MAX_MOVES)
                .unwrap();
            solver.winning_moves(&state, n)[0]
        };
        rt.update(Action::StartTyping);
        for c in mv.to_string().chars() {
            rt.update(Action::Type(c));
        }
        rt.update(Action::Confirm);
        tick_until(&mut rt, |app| {
            app.trainer()
                .and_then(Trainer::message)
                .is_some_and(|m| !m.contains("checking"))
        });
        let message = trainer(&rt.app).message().unwrap().to_owned();
        assert!(!message.contains("wrong"), "{message}");
    }
    rt.settle();
    let written: crate::puzzle::Progress =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(written.solved(), 1);
    assert_eq!(
        written.result(&puzzle.id),
        Some(crate::puzzle::Attempt::Solved)
    );
}

#[test]
fn the_progress_read_at_the_start_picks_the_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("progress.json");
    let fresh = App::new(trainer_config(None));
    let first = trainer(&fresh).puzzle().clone();
    let mut progress = crate::puzzle::Progress::default();
    progress.record(&first, crate::puzzle::Attempt::Solved);
    std::fs::write(&path, serde_json::to_string(&progress).unwrap()).unwrap();
    let mut rt = Runtime::new(trainer_config(Some(path))).unwrap();
    rt.settle();
    assert_ne!(trainer(&rt.app).puzzle().id, first.id);
    assert_eq!(trainer(&rt.app).progress(), &progress);
}

#[test]
fn a_progress_file_that_cannot_be_read_is_never_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("progress.json");
    // A newer version's file: one field more, a rating and a count worth keeping.
    let newer = "{\"solved\": 50, \"failed\": 3, \"streak\": 2, \"best_streak\": 9, \
                 \"rating\": 1432.0, \"tried\": {}, \"hints\": 4}\n";
    std::fs::write(&path, newer).unwrap();
    let mut rt = Runtime::new(trainer_config(Some(path.clone()))).unwrap();
    rt.settle();
    rt.update(Action::ShowAnswer);
    rt.settle();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), newer);
    let message = trainer(&rt.app).message().unwrap().to_owned();
    assert!(message.contains("progress.json"), "{message}");
}

#[test]
fn a_failed_progress_write_is_said_on_the_trainers_line() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the folder of the progress file should be: it cannot be written.
    std::fs::write(dir.path().join("puzzles"), "not a folder").unwrap();
    let path = dir.path().join("puzzles").join("progress.json");
    let mut rt = Runtime::new(trainer_config(Some(path))).unwrap();
    rt.settle();
    rt.update(Action::ShowAnswer);
    rt.settle();
    let message = trainer(&rt.app).message().unwrap().to_owned();
    assert!(message.starts_with("puzzle progress not kept"), "{message}");
}

/// A hot-seat game of two moves (the first legal one each time), the first analyzed as a
/// blunder whose best move is the last legal one, scored `before`, shown in review.
fn reviewed_blunder(before: crate::game::Score) -> App {
    blunder_after(before, 0)
}

/// The review of a game of `at` moves, a blunder (analyzed so, the move at index `at`) and a
/// reply.
fn blunder_after(before: crate::game::Score, at: usize) -> App {
    use crate::game::{MoveClass, PlyAnalysis, Score};
    let mut app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    let game = app.session.game_mut();
    for _ in 0..at {
        let first = game.state().legal_moves()[0];
        game.play(first).unwrap();
    }
    let moves = game.state().legal_moves();
    let mut trial = game.clone();
    let best = trial.play(*moves.last().unwrap()).unwrap();
    game.play(moves[0]).unwrap();
    let reply = game.state().legal_moves()[0];
    game.play(reply).unwrap();
    let ply = PlyAnalysis {
        score_before: before,
        score_after: Score::Eval(-400),
        best,
        pv: vec![best],
        class: MoveClass::Blunder,
        only_move: false,
        depth: 3,
    };
    game.set_analysis(at, &ply).unwrap();
    app.update(Action::Review);
    assert_eq!(app.mode(), Mode::Review);
    app
}

#[test]
fn z_in_review_plays_the_players_blunders_as_puzzles_kept_with_the_game() {
    let mut app = reviewed_blunder(crate::game::Score::Eval(0));
    let best = app.session.game().analysis()[0].as_ref().unwrap().best.mv;
    let played = app.session.moves()[0].mv;
    app.update(Action::Puzzles);
    assert_eq!(app.mode(), Mode::Trainer);
    assert_eq!(app.session.game().lessons().len(), 1);
    let screen = screen_at(&app, 80, 24);
    assert!(screen.contains("Your mistake at move 1"), "{screen}");
    assert!(screen.contains(&format!("than {played}")), "{screen}");
    // The move played is no answer; the engine's best is, at once (no search).
    assert_eq!(judged_move(&type_move(&mut app, played)), None);
    assert!(
        trainer(&app)
            .message()
            .unwrap()
            .contains("the move played in the game")
    );
    app.update(Action::Retry);
    assert_eq!(judged_move(&type_move(&mut app, best)), None);
    assert!(trainer(&app).is_solved());
    assert!(app.session.game().lessons()[0].solved, "kept with the game");
    assert!(app.session.game().to_json().contains("\"lessons\""));
    app.update(Action::Quit);
    assert_eq!(app.mode(), Mode::Review, "back to the review");
}

/// Types `mv` at the prompt; returns the effects of Enter.
fn type_move(app: &mut App, mv: Move) -> Vec<Effect> {
    app.update(Action::StartTyping);
    for c in mv.to_string().chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm)
}

#[test]
fn another_move_is_refused_unless_the_analysis_found_a_forced_win_for_the_solver_to_check() {
    let other = |app: &App| {
        let lesson = &app.session.game().lessons()[0];
        let played = app.session.moves()[0].mv;
        let state = trainer(app).state().clone();
        *state
            .legal_moves()
            .iter()
            .find(|&&m| m != lesson.best && m != played)
            .unwrap()
    };
    let mut app = reviewed_blunder(crate::game::Score::Eval(0));
    app.update(Action::Puzzles);
    let mv = other(&app);
    assert_eq!(judged_move(&type_move(&mut app, mv)), None);
    assert!(
        trainer(&app)
            .message()
            .unwrap()
            .contains("only the engine's choice")
    );
    // A win in 3 plies is 2 of the player's moves: the solver checks another move.
    let mut app = reviewed_blunder(crate::game::Score::Win(3));
    app.update(Action::Puzzles);
    let mv = other(&app);
    let effects = type_move(&mut app, mv);
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Judge {
                moves: 2,
                goal: crate::puzzle::Goal::Win,
                ..
            }
        )),
        "{effects:?}"
    );
}

#[test]
fn an_answer_shown_is_not_a_lesson_solved_and_the_lesson_has_the_lists_move_number() {
    // The attackers' second move is move 2 in the list.
    let mut app = blunder_after(crate::game::Score::Eval(0), 2);
    let best = app.session.game().analysis()[2].as_ref().unwrap().best.mv;
    app.update(Action::Puzzles);
    let screen = screen_at(&app, 80, 24);
    assert!(screen.contains("Your mistake at move 2"), "{screen}");
    app.update(Action::ShowAnswer);
    app.update(Action::Retry);
    type_move(&mut app, best);
    assert!(trainer(&app).is_solved());
    assert!(
        !app.session.game().lessons()[0].solved,
        "the answer was shown"
    );
    assert!(
        trainer(&app)
            .message()
            .unwrap()
            .contains("answer was shown"),
        "{:?}",
        trainer(&app).message()
    );
    // Found without help on the next round, it is solved.
    app.update(Action::NextPuzzle);
    type_move(&mut app, best);
    assert!(app.session.game().lessons()[0].solved);
}

#[test]
fn z_in_review_without_analysis_says_why() {
    let mut app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    app.session.play_text("d2-c2").unwrap();
    app.update(Action::Review);
    app.update(Action::Puzzles);
    assert_eq!(app.mode(), Mode::Review);
    assert!(app.status().unwrap().text.contains("no analysis"));
}
