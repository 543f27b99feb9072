//! The app's update and AI handling, tested without a terminal.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use std::time::{Duration, Instant};

use super::ai::{Pace, Purpose, Thinking};
use super::*;
use crate::ai::{JobId, Report};
use crate::ai::{Score, SearchInfo};
use crate::game::{EngineKind, Level};
use crate::rules::{Move, Piece};
use crate::rules::{Reason, Side};
use crate::tui::App;
use crate::tui::effect::Effect;
use crate::tui::input::Direction;
use crate::tui::input::typed_move;
use crate::tui::runtime::Runtime;

/// The random mover, for games the AI plays on both sides.
pub(super) const RANDOM: Player = Player::Ai {
    engine: EngineKind::Random,
    level: Level::Easy,
    time: None,
};

/// The AI defenders' search for their move, job `id`, begun at `started`.
fn defenders_search(app: &App, id: JobId, started: Instant) -> Thinking {
    let player = app.session.player(Side::Defenders);
    Thinking {
        started,
        ..Thinking::new(id, Side::Defenders, Purpose::Move, player)
    }
}

fn against_ai() -> App {
    App::new(against_ai_config())
}

/// A person (the attackers) against the AI (hard).
fn against_ai_config() -> Config {
    Config {
        attackers: Player::Human,
        defenders: Player::Ai {
            engine: EngineKind::Search,
            level: Level::Hard,
            time: None,
        },
        skip_setup: true,
        ..Config::default()
    }
}

#[test]
fn ai_thinking_shows_its_search() {
    let mut app = against_ai();
    app.session.play_text("d2-e2").unwrap();
    let mv = |t: &str| t.parse::<Move>().unwrap();
    app.ai.thinking = Some(Thinking {
        id: 1,
        side: Side::Defenders,
        purpose: Purpose::Move,
        player: app.session.player(Side::Defenders),
        info: Some(SearchInfo {
            depth: 6,
            score: Score::Eval(-35),
            nodes: 1_234_567,
            nps: 850_000,
            elapsed: Duration::from_millis(1450),
            pv: vec![mv("d5-e5"), mv("d1-d2"), mv("c4-c1")],
            partial: false,
        }),
        started: app.ai.now.checked_sub(Duration::from_millis(1450)).unwrap(),
        shown_tenths: 14,
    });
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    insta::assert_snapshot!(terminal.backend());
    // Keys still work while it thinks: the person cannot move for the AI, but may look.
    app.update(Action::Confirm);
    assert!(app.status().unwrap().text.contains("played by the AI"));
    app.update(Action::Help);
    assert_eq!(app.mode(), Mode::Menu);
}

#[test]
fn the_ai_answers_and_undo_goes_back_to_the_persons_turn() {
    let mut rt = Runtime::new(against_ai_config()).unwrap();
    rt.update(Action::StartTyping);
    for c in "d2-e2".chars() {
        rt.update(Action::Type(c));
    }
    rt.update(Action::Confirm);
    let deadline = Instant::now() + Duration::from_secs(30);
    while rt.app.session.moves().len() < 2 {
        assert!(Instant::now() < deadline, "the AI did not answer");
        rt.tick(Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(rt.app.session.side_to_move(), Side::Attackers);
    assert!(rt.app.status().unwrap().text.starts_with("the AI played"));
    rt.update(Action::Undo);
    assert_eq!(rt.app.session.moves().len(), 0, "both moves taken back");
    assert!(rt.app.ai.thinking.is_none());
}

#[test]
fn a_hint_is_marked_and_undo_cancels_a_search() {
    let mut rt = Runtime::new(against_ai_config()).unwrap();
    rt.update(Action::Hint);
    let deadline = Instant::now() + Duration::from_secs(30);
    while rt.app.hint.is_none() {
        assert!(Instant::now() < deadline, "no hint");
        rt.tick(Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(5));
    }
    let hint = rt.app.hint.unwrap();
    assert!(rt.app.session.state().check_move(hint).is_ok());
    assert_eq!(rt.app.marks().hint, Some(hint));
    // The AI starts thinking after the person's move; undo stops it at once.
    rt.app.session.play(hint).unwrap();
    rt.tick(Instant::now()).unwrap();
    assert!(rt.app.ai.thinking.is_some());
    rt.update(Action::Undo);
    assert!(rt.app.ai.thinking.is_none());
    assert_eq!(rt.app.session.moves().len(), 0);
}

#[test]
fn watching_waits_for_the_pace_and_pauses() {
    let mut app = App::new(Config {
        attackers: RANDOM,
        defenders: RANDOM,
        skip_setup: true,
        ..Config::default()
    });
    // What the start asks: the game's files tracked, the settings remembered.
    let start = app.take_effects();
    assert!(
        start.iter().all(|e| matches!(e, Effect::Store(_))),
        "{start:?}"
    );
    let t0 = Instant::now();
    app.ai.last_move_at = Some(t0);
    assert_eq!(app.tick(t0), [], "not before the pace allows");
    assert!(app.ai.thinking.is_none());
    assert_eq!(app.next_tick(), Some(t0 + app.ai.pace.delay()), "but then");
    let search = app.tick(t0 + app.ai.pace.delay());
    assert!(matches!(search[..], [Effect::Search { .. }]), "{search:?}");
    assert!(app.ai.thinking.is_some());
    let Some(Effect::Search { id, .. }) = search.first() else {
        unreachable!()
    };
    assert_eq!(app.update(Action::Pause), [Effect::Stop(*id)]);
    assert!(app.ai.thinking.is_none());
    assert_eq!(app.tick(t0 + Duration::from_secs(60)), [], "paused");
    assert_eq!(app.next_tick(), None);
    let slower = app.ai.pace.step(false);
    app.update(Action::Slower);
    assert_eq!(app.ai.pace, slower);
    assert!(slower.delay() > Pace::default().delay());
    let fastest = Pace::default().step(true).step(true).step(true);
    assert_eq!(fastest.delay(), Duration::ZERO);
    assert_eq!(
        fastest.next_at(t0),
        t0 + Duration::from_millis(30),
        "each move is seen"
    );
}

#[test]
fn enter_on_any_field_of_the_new_game_form_starts_the_game() {
    let mut app = App::new(Config::default());
    assert!(app.setup().is_some());
    // Up past the position field and the clock to the defenders.
    app.update(Action::Move(Direction::Up));
    app.update(Action::Move(Direction::Up));
    app.update(Action::Move(Direction::Up));
    app.update(Action::Move(Direction::Right));
    app.update(Action::Confirm);
    assert!(matches!(app.screen, Screen::Game));
    assert_ne!(app.session.player(Side::Defenders), Player::Human);
    assert_eq!(app.session.player(Side::Attackers), Player::Human);
}

/// Asks for a hint in a hot-seat game from `start`, searched to `depth` plies (no clock, so
/// the answer is the same on any machine), and returns the status line it gives.
fn hint_from(start: &str, depth: u32) -> (Option<Move>, String) {
    let start: crate::rules::Position = start.parse().unwrap();
    let game = crate::game::Game::new(
        Preset::Standard.rules(),
        start,
        Player::Human,
        Player::Human,
    );
    let mut rt = Runtime::new(Config {
        resume: Some(Session::from_game(game)),
        ..Config::default()
    })
    .unwrap();
    rt.app.ai.hint_limits = crate::ai::Limits::depth(depth);
    rt.update(Action::Hint);
    let deadline = Instant::now() + Duration::from_secs(30);
    while rt.app.hint.is_none() {
        assert!(Instant::now() < deadline, "no hint");
        rt.tick(Instant::now()).unwrap();
        std::thread::sleep(Duration::from_millis(5));
    }
    (rt.app.hint, rt.app.status().unwrap().text.clone())
}

#[test]
fn a_hint_names_a_forced_win() {
    // The king on b3 steps onto the edge with two open lines; one attacker blocks one.
    let (hint, text) = hint_from("/7/7/1K5/7/7/7/3t3/ d", 4);
    let hint = hint.unwrap().to_string();
    assert_eq!(text, format!("hint: win in 3: {hint} (marked with ? ?)"));
}

#[test]
fn a_hint_in_a_lost_position_names_the_longest_resistance() {
    // The king on c1 sees a1; blocking on b1 only delays: he runs up to c7 with two lines.
    // Every other move loses at once.
    let (hint, text) = hint_from("/2KT3/7/7/7/1t5/7/7/ a", 6);
    assert_eq!(hint, Some("b5-b1".parse().unwrap()));
    assert_eq!(
        text,
        "hint: every move loses; longest resistance b5-b1, lost in 4"
    );
}

#[test]
fn hints_search_for_a_second_by_default() {
    let app = against_ai();
    assert_eq!(
        app.ai.hint_limits,
        crate::ai::Limits::time(Duration::from_secs(1))
    );
}

/// Types `text` at the `:` prompt and enters it; returns what the move asks of the world.
fn type_move(app: &mut App, text: &str) -> Vec<Effect> {
    app.update(Action::StartTyping);
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm)
}

/// Types `text` at the `:` prompt of `rt`'s app and enters it.
pub(super) fn type_in(rt: &mut Runtime, text: &str) {
    rt.update(Action::StartTyping);
    for c in text.chars() {
        rt.update(Action::Type(c));
    }
    rt.update(Action::Confirm);
}

fn screen(app: &mut App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    format!("{}", terminal.backend())
}

#[test]
fn a_failed_autosave_stays_visible_until_a_save_succeeds() {
    use crate::tui::panels::NOT_SAVED;
    use std::io::ErrorKind;

    let dir = tempfile::tempdir().unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "d2-e2");
    assert!(rt.app.autosave_error.is_none());
    rt.fail_writes(Some(ErrorKind::StorageFull));
    type_in(&mut rt, "c4-c5");
    // The move's own message follows, yet the failure stays: on the status line and the panel.
    assert!(rt.app.status().unwrap().text.starts_with("played c4-c5"));
    let shown = screen(&mut rt.app);
    assert!(
        shown.contains(NOT_SAVED) && shown.contains("autosave failed"),
        "{shown}"
    );
    type_in(&mut rt, "d1-d2");
    rt.update(Action::Help);
    rt.update(Action::Cancel);
    let shown = screen(&mut rt.app);
    assert!(
        shown.contains(NOT_SAVED) && shown.contains("injected failure"),
        "{shown}"
    );

    // Quitting, a new game and loading say the game is not saved and offer to save it.
    for (key, leave) in [
        (Action::Quit, "Quit anyway?"),
        (Action::NewGame, "Leave it for a new game?"),
        (Action::Load, "Leave it to load another?"),
    ] {
        rt.update(key);
        assert_eq!(rt.app.mode(), Mode::Question);
        let shown = screen(&mut rt.app);
        assert!(
            shown.contains("The game is NOT saved: the autosave"),
            "{shown}"
        );
        assert!(shown.contains(leave) && shown.contains("s save"), "{shown}");
        rt.update(Action::No);
        assert!(!rt.app.should_quit());
    }
    rt.update(Action::Quit);
    rt.update(Action::Save);
    assert_eq!(rt.app.mode(), Mode::Text, "the save prompt");
    // The save fails too while the disk is full: the prompt stays with the reason.
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Text);
    assert!(screen(&mut rt.app).contains(NOT_SAVED));

    rt.fail_writes(None);
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Board, "{:?}", rt.app.status());
    assert!(rt.app.status().unwrap().text.starts_with("saved to"));
    assert!(!screen(&mut rt.app).contains(NOT_SAVED));
    let saved = crate::game::storage::load(rt.app.session().file().unwrap()).unwrap();
    assert_eq!(saved.moves().len(), 3, "every move");
    rt.update(Action::Quit);
    assert!(rt.app.should_quit(), "saved: no question");
}

#[test]
fn a_game_too_large_to_save_is_not_saved_and_says_so() {
    use crate::tui::panels::NOT_SAVED;

    let dir = tempfile::tempdir().unwrap();
    let mut game = crate::game::Game::new(
        crate::rules::Preset::Standard.rules(),
        crate::rules::Position::start(),
        Player::Human,
        Player::Human,
    );
    game.play_text("d2-e2").unwrap();
    // More comment than a saved game holds (a record of a program without our limits).
    game.set_comment(0, Some("a".repeat(1_100_000)));
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        resume: Some(Session::from_game(game)),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "c4-c5");
    let shown = screen(&mut rt.app);
    assert!(shown.contains(NOT_SAVED), "{shown}");
    assert!(shown.contains("too large"), "{shown}");
    rt.update(Action::Quit);
    let shown = screen(&mut rt.app);
    assert!(
        shown.contains("The game is NOT saved: the autosave"),
        "{shown}"
    );
    assert!(!shown.contains("keeps it"), "{shown}");
    // Nothing that would not load was left behind.
    let autosaves = dir.path().join(crate::game::storage::AUTOSAVE_DIR);
    let left: Vec<_> = std::fs::read_dir(&autosaves)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn saving_over_the_games_file_asks_when_another_copy_wrote_it_since() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Save);
    rt.update(Action::Confirm);
    let file = rt.app.session().file().unwrap().to_owned();
    // Another copy of the game, asked and agreeing, saves its own game under that name.
    let mut other = Session::new(
        crate::rules::Preset::Standard.rules(),
        crate::rules::Position::start(),
        Player::Human,
        Player::Human,
    );
    other.play_text("d2-c2").unwrap();
    crate::game::storage::save_atomic(&file, other.game()).unwrap();
    // This one saves again to what it takes for its own file: it is asked first.
    type_in(&mut rt, "c4-c5");
    rt.update(Action::Save);
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Question);
    let shown = screen(&mut rt.app);
    assert!(shown.contains("was written by another"), "{shown}");
    rt.update(Action::No);
    assert_eq!(rt.app.mode(), Mode::Text, "back to the prompt");
    rt.update(Action::Cancel);
    let load = |file: &std::path::Path| crate::game::storage::load(file).unwrap();
    assert_eq!(load(&file).moves(), other.moves(), "the other game is kept");
    rt.update(Action::Save);
    rt.update(Action::Confirm);
    rt.update(Action::Yes);
    assert_eq!(rt.app.mode(), Mode::Board, "{:?}", rt.app.status());
    assert_eq!(load(&file).moves(), rt.app.session().moves());
    // Its own file again, unchanged since: saved without a question.
    type_in(&mut rt, "d1-d2");
    rt.update(Action::Save);
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Board, "{:?}", rt.app.status());
    assert_eq!(load(&file).moves().len(), 3);
}

#[test]
fn a_game_whose_save_folder_fails_is_saved_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    // The save folder is a file: nothing can be written in it.
    let broken = dir.path().join("not-a-folder");
    std::fs::write(&broken, "x").unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(broken.clone()),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "d2-e2");
    let why = rt.app.autosave_error.clone().unwrap();
    assert_eq!(why, format!("{} is a file, not a folder", broken.display()));
    rt.update(Action::Quit);
    let shown = screen(&mut rt.app);
    assert!(
        shown.contains("NOT saved") && shown.contains("s save elsewhere"),
        "{shown}"
    );
    rt.update(Action::Save);
    assert_eq!(rt.app.mode(), Mode::Text);
    let shown = screen(&mut rt.app);
    assert!(
        shown.contains("another folder") && shown.contains("folder: "),
        "{shown}"
    );
    // The folder field is the one typed in: it is replaced by another folder.
    for _ in 0..broken.display().to_string().chars().count() {
        rt.update(Action::Backspace);
    }
    for c in "relative".chars() {
        rt.update(Action::Type(c));
    }
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Text, "a relative folder is refused");
    assert!(screen(&mut rt.app).contains("must be a full path"));
    for _ in 0.."relative".len() {
        rt.update(Action::Backspace);
    }
    for c in elsewhere.display().to_string().chars() {
        rt.update(Action::Type(c));
    }
    // Down goes to the name, which is kept as offered.
    rt.update(Action::Move(Direction::Down));
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Board, "{:?}", rt.app.status());
    let file = rt.app.session().file().unwrap().to_owned();
    assert_eq!(file.parent(), Some(elsewhere.as_path()));
    assert_eq!(crate::game::storage::load(&file).unwrap().moves().len(), 1);
    rt.update(Action::Quit);
    assert!(rt.app.should_quit(), "saved: no question");
}

#[test]
fn a_save_into_a_file_taken_for_a_folder_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Save);
    // Up to the folder field, which gets the file's name.
    rt.update(Action::Move(Direction::Up));
    for c in "/a-file".chars() {
        rt.update(Action::Type(c));
    }
    rt.update(Action::Confirm);
    assert_eq!(rt.app.mode(), Mode::Text, "the prompt stays");
    let shown = screen(&mut rt.app);
    assert!(shown.contains("is a file, not a folder"), "{shown}");
}

#[test]
fn an_autosave_that_works_again_clears_the_failure() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    rt.fail_writes(Some(std::io::ErrorKind::PermissionDenied));
    type_in(&mut rt, "d2-e2");
    assert!(rt.app.autosave_error.is_some());
    rt.fail_writes(None);
    type_in(&mut rt, "c4-c5");
    assert!(rt.app.autosave_error.is_none());
    rt.update(Action::Quit);
    let shown = screen(&mut rt.app);
    assert!(shown.contains("its autosave keeps it"), "{shown}");
}

#[test]
fn typed_moves_take_joined_spaced_and_upper_case_squares() {
    for (typed, read) in [
        ("c5c6", "c5-c6"),
        ("c5 c6", "c5-c6"),
        ("  C5-C6 ", "c5-c6"),
        ("D1D2XC2", "d1-d2xc2"),
        ("d1-d2xc2", "d1-d2xc2"),
        ("z", "z"),
        ("é5c6", "é5c6"),
    ] {
        assert_eq!(typed_move(typed), read, "{typed}");
    }
    let mut app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    type_move(&mut app, "D2E2");
    type_move(&mut app, "c4 c5");
    assert_eq!(app.session.moves().len(), 2, "{:?}", app.status());
}

#[test]
fn the_cursor_starts_on_a_movable_piece_of_the_side_to_move() {
    let app = App::new(Config {
        skip_setup: true,
        ..Config::default()
    });
    assert_eq!(app.cursor(), "d2".parse().unwrap());
    let defenders: Position = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ d".parse().unwrap();
    let app = App::new(Config {
        skip_setup: true,
        start: defenders,
        ..Config::default()
    });
    let piece = app.session.state().position().piece_at(app.cursor());
    assert_eq!(piece.map(Piece::side), Some(Side::Defenders));
}

#[test]
fn against_the_ai_the_result_is_yours_and_undo_takes_back_a_resignation() {
    let mut app = against_ai();
    app.update(Action::Resign);
    app.update(Action::Yes);
    let text = &app.status().unwrap().text;
    assert!(
        text.starts_with("You lost: the defenders win, the attackers resigned"),
        "{text}"
    );
    assert!(screen(&mut app).contains("★ You lost ★"));
    app.update(Action::Undo);
    assert_eq!(app.session.outcome(), None);
    assert_eq!(
        app.status().unwrap().text,
        "resignation taken back: the game goes on"
    );
}

#[test]
fn declining_a_draw_says_for_whom_and_in_what() {
    let mut app = against_ai();
    app.ai.judgement = Some((Side::Defenders, Score::Win(1)));
    app.update(Action::OfferDraw);
    assert_eq!(
        app.status().unwrap().text,
        "the AI (defenders) declines the draw: it thinks it stands better \
         (defenders win in 1)"
    );
    app.ai.judgement = Some((Side::Defenders, Score::Eval(-35)));
    app.update(Action::OfferDraw);
    assert!(
        app.status().unwrap().text.ends_with("(defenders -0.35)"),
        "{:?}",
        app.status()
    );
    assert_eq!(
        app.session.outcome().map(|o| o.reason),
        Some(Reason::Agreement)
    );
}

#[test]
fn the_search_time_ticks_on_screen() {
    let mut app = against_ai();
    app.session.play_text("d2-e2").unwrap();
    let t0 = Instant::now();
    app.ai.thinking = Some(defenders_search(&app, 1, t0));
    app.tick(t0 + Duration::from_millis(50));
    assert_eq!(
        app.next_tick(),
        Some(t0 + Duration::from_millis(100)),
        "the next tenth"
    );
    app.tick(t0 + Duration::from_millis(520));
    assert_eq!(app.next_tick(), Some(t0 + Duration::from_millis(600)));
    let text = screen(&mut app);
    assert!(text.contains("AI hard thinking… 0.5s"), "{text}");
}

#[test]
fn a_finished_ai_game_shows_no_pause_and_pause_says_it_is_over() {
    let mut app = App::new(Config {
        attackers: RANDOM,
        defenders: RANDOM,
        skip_setup: true,
        ..Config::default()
    });
    for mv in "a4-a3 e4-e6 a3-a2 d4-e4 a2-a3 e4-e1 a3-a2 e1-g1".split(' ') {
        app.session.play_text(mv).unwrap();
    }
    // Undo stops to look at the position; redo comes back to the end.
    app.update(Action::Undo);
    assert!(screen(&mut app).contains("AI paused: p to resume"));
    app.update(Action::Redo);
    assert!(
        app.status().unwrap().text.starts_with("Defenders win"),
        "{:?}",
        app.status()
    );
    let text = screen(&mut app);
    assert!(
        !text.contains("AI paused") && !text.contains("p pause"),
        "{text}"
    );
    app.update(Action::Pause);
    assert!(app.status().unwrap().text.contains("the game is over"));
}

/// A hot-seat game past the setup, saving into `saves` in `dir`.
fn hot_seat_in(dir: &std::path::Path) -> Runtime {
    Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.join("saves")),
        ..Config::default()
    })
    .unwrap()
}

#[test]
fn quitting_a_finished_game_in_no_file_asks_and_save_and_quit_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = hot_seat_in(dir.path());
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Resign);
    rt.update(Action::Yes);
    rt.update(Action::Quit);
    assert!(
        !rt.app.should_quit(),
        "finished, but in no file: it asks as for any change"
    );
    let shown = screen(&mut rt.app);
    assert!(shown.contains("not saved to a file"), "{shown}");
    // A finished game is not offered to continue: --resume takes only unfinished ones.
    assert!(
        !shown.contains("--resume") && !shown.contains("Continue"),
        "{shown}"
    );
    assert!(shown.contains("the list of saves"), "{shown}");
    rt.update(Action::Yes);
    assert!(rt.app.should_quit());

    let mut rt = hot_seat_in(dir.path());
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Quit);
    assert!(screen(&mut rt.app).contains("s save and quit"));
    rt.update(Action::Save);
    assert_eq!(rt.app.mode(), Mode::Text);
    assert!(screen(&mut rt.app).contains("Enter save and quit"));
    rt.update(Action::Confirm);
    assert!(
        rt.app.should_quit(),
        "saved, then quit: {:?}",
        rt.app.status()
    );
    assert!(!rt.app.is_dirty());
}

#[test]
fn the_bell_rings_when_the_ai_has_moved_and_when_a_game_ends_if_it_is_on() {
    let mut app = against_ai();
    assert!(!app.bell, "off by default");
    type_move(&mut app, "d2-e2");
    let reply = app.session.state().position().legal_moves()[0];
    app.ai.thinking = Some(defenders_search(&app, 7, Instant::now()));
    let rings = |effects: Vec<Effect>| effects.contains(&Effect::Bell);
    assert!(
        !rings(app.on_report(Report::Done(7, Ok(reply)), Instant::now())),
        "off: silent"
    );
    assert!(!rings(app.update(Action::ToggleBell)));
    assert!(app.status().unwrap().text.starts_with("bell on"));
    assert!(
        !rings(type_move(&mut app, "e2-e3")),
        "a person's move is not rung"
    );
    let reply = app.session.state().position().legal_moves()[0];
    app.ai.thinking = Some(defenders_search(&app, 8, Instant::now()));
    let effects = app.on_report(Report::Done(8, Ok(reply)), Instant::now());
    assert_eq!(
        effects.iter().filter(|e| **e == Effect::Bell).count(),
        1,
        "the AI moved: once"
    );
    app.update(Action::Resign);
    assert!(rings(app.update(Action::Yes)), "the game ended");
}

#[test]
fn a_corrupt_settings_file_is_one_warning_and_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, "{ bell: yes").unwrap();
    let (settings_file, settings, settings_warning) = SettingsFile::load(path.clone());
    let app = App::new(Config {
        skip_setup: true,
        settings,
        settings_file,
        settings_warning,
        ..Config::default()
    });
    let status = app.status().unwrap();
    assert_eq!(status.tone, Tone::Warning);
    assert!(status.text.contains("defaults used"), "{status:?}");
    assert!(app.warnings.on() && !app.bell, "the defaults");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{ bell: yes",
        "left alone until something changes"
    );
}

#[test]
fn leaving_while_the_autosave_is_written_waits_for_it_and_a_failure_asks() {
    use crate::tui::storage_jobs::{Done, Job};
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        ..Config::default()
    });
    app.take_effects();
    let asked = type_move(&mut app, "d2-e2");
    let Some((game, revision)) = asked.iter().find_map(|e| match e {
        Effect::Store(Job::Autosave { game, revision, .. }) => Some((*game, *revision)),
        _ => None,
    }) else {
        panic!("the move is autosaved: {asked:?}")
    };
    // Whether leaving loses the game depends on the autosave: the question waits for it.
    app.update(Action::NewGame);
    assert!(app.awaits_storage());
    assert_eq!(app.mode(), Mode::Board, "not left yet");
    let file = dir.path().join("a file");
    std::fs::write(&file, "").unwrap();
    let failure =
        crate::game::storage::save_new(&file.join("game.json"), app.session.game()).unwrap_err();
    app.on_stored(Done::Autosaved {
        game,
        revision,
        result: Err(failure),
    });
    assert!(!app.awaits_storage());
    assert_eq!(app.mode(), Mode::Question);
    let shown = screen(&mut app);
    assert!(shown.contains("The game is NOT saved"), "{shown}");
}

#[test]
fn ctrl_c_asks_like_q_when_unsaved_and_a_second_one_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = hot_seat_in(dir.path());
    rt.update(Action::Interrupt);
    assert!(rt.app.should_quit(), "nothing to lose: at once");

    let mut rt = hot_seat_in(dir.path());
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Interrupt);
    assert!(!rt.app.should_quit(), "a move in no file: it asks");
    assert_eq!(rt.app.mode(), Mode::Question);
    assert!(screen(&mut rt.app).contains("Quit anyway?"));
    rt.update(Action::Interrupt);
    assert!(
        rt.app.should_quit(),
        "a second Ctrl-c at the question quits"
    );

    // Over another dialog too; No goes back to it.
    let mut rt = hot_seat_in(dir.path());
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Help);
    rt.update(Action::Interrupt);
    assert_eq!(rt.app.mode(), Mode::Question);
    rt.update(Action::No);
    assert!(!rt.app.should_quit());
    assert!(matches!(rt.app.overlays.last(), Some(Overlay::Help(_))));
}

/// The screen of `app` drawn at `width`×`height`.
fn screen_at(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    format!("{}", terminal.backend())
}

#[test]
fn text_fields_scroll_to_keep_the_cursor_in_view_at_every_width() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().join("saves")),
        ..Config::default()
    })
    .unwrap();
    let long = format!("{}END", "abcdefghij".repeat(9));
    // The move typed at the `:` prompt.
    rt.update(Action::StartTyping);
    for c in long.chars() {
        rt.update(Action::Type(c));
    }
    for (width, height) in [(30, 12), (40, 15), (80, 24), (120, 40)] {
        rt.update(Action::Resize { width, height });
        let text = screen_at(&rt.app, width, height);
        assert!(
            text.contains("END_"),
            "the move at {width}x{height}:\n{text}"
        );
    }
    rt.update(Action::Cancel);
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Save);
    assert_eq!(rt.app.mode(), Mode::Text);
    for c in long.chars() {
        rt.update(Action::Type(c));
    }
    for (width, height) in [(30, 12), (40, 15), (80, 24), (120, 40)] {
        rt.update(Action::Resize { width, height });
        let text = screen_at(&rt.app, width, height);
        assert!(
            text.contains("END_"),
            "the name at {width}x{height}:\n{text}"
        );
    }
    rt.update(Action::Move(Direction::Up));
    for c in "/folder".repeat(12).chars().chain("/LAST".chars()) {
        rt.update(Action::Type(c));
    }
    for (width, height) in [(30, 12), (40, 15), (80, 24), (120, 40)] {
        rt.update(Action::Resize { width, height });
        let text = screen_at(&rt.app, width, height);
        assert!(
            text.contains("/LAST_"),
            "the folder at {width}x{height}:\n{text}"
        );
    }
}
