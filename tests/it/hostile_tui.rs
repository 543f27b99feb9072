//! Hostile cases for the terminal game and its records: signals nobody expects, a screen too
//! small to draw on, records at the documented bounds, names that do not read as typed.

/// Signals whose default action ends the program (SIGUSR1, SIGALRM, ...): the game ends on
/// them as on SIGTERM, giving the terminal back and keeping the game, instead of being killed
/// in the alternate screen with mouse reporting on.
#[cfg(unix)]
#[test]
fn sigusr1_restores_the_terminal_and_keeps_the_game() {
    crate::e2e::an_ending_signal_restores_the_terminal_and_keeps_the_game(
        "USR1",
        signal_hook::consts::SIGUSR1,
    );
}

#[cfg(unix)]
#[test]
fn sigalrm_restores_the_terminal_and_keeps_the_game() {
    crate::e2e::an_ending_signal_restores_the_terminal_and_keeps_the_game(
        "ALRM",
        signal_hook::consts::SIGALRM,
    );
}

/// A saved game of `moves` (main line) with `side_lines` (the JSON of the field), as text.
fn game_with_side_lines(moves: &[&str], side_lines: &serde_json::Value) -> String {
    let mut game = brandubh::game::Game::new(
        brandubh::rules::Preset::Standard.rules(),
        brandubh::rules::Position::start(),
        brandubh::game::Player::Human,
        brandubh::game::Player::Human,
    );
    for mv in moves {
        game.play_text(mv).unwrap();
    }
    let mut save: serde_json::Value = serde_json::from_str(&game.to_json()).unwrap();
    save["side_lines"] = side_lines.clone();
    save.to_string()
}

/// The game's tree as text: each side line's moves, nested ones indented under the move
/// they leave, the main line first.
fn tree_text(game: &brandubh::game::Game) -> Vec<String> {
    fn lines(out: &mut Vec<String>, indent: usize, sides: &[brandubh::game::SideLine]) {
        for side in sides {
            let moves: Vec<String> = side
                .nodes()
                .iter()
                .map(|n| n.played().to_string())
                .collect();
            out.push(format!("{:indent$}{}", "", moves.join(" ")));
            for node in side.nodes() {
                lines(out, indent + 2, node.sides());
            }
        }
    }
    let mut out = vec![
        game.moves()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    ];
    for sides in game.side_lines() {
        lines(&mut out, 2, sides);
    }
    out
}

/// Exports `game` as an OpenTafl record and reads it back: the same tree.
fn assert_otg_round_trips(game: &brandubh::game::Game) {
    let otg = brandubh::game::import::to_otg(game).unwrap();
    let (back, _) = brandubh::game::import::read(otg.as_bytes())
        .unwrap_or_else(|e| panic!("the export is refused: {e}\n{otg}"));
    assert_eq!(tree_text(&back), tree_text(game));
}

/// A side line that repeats its parent's move is the parent's continuation: it is merged into
/// it on load (its comments kept), and what we write we read back.
#[test]
fn a_side_line_repeating_its_parents_move_is_merged_on_load() {
    let text = game_with_side_lines(
        &["d2-c2", "d3-e3", "c2-c3"],
        &serde_json::json!([
            {"at": 1, "moves": ["d3-e3", "c2-c1", "c4-c2"], "comments": [null, "mine", null]},
        ]),
    );
    let game = brandubh::game::Game::from_json(&text).unwrap();
    assert_eq!(tree_text(&game), ["d2-c2 d3-e3 c2-c3", "  c2-c1 c4-c2"]);
    assert_otg_round_trips(&game);
    let side = brandubh::game::Place::new(vec![brandubh::game::Fork { at: 2, line: 0 }], 1);
    assert_eq!(game.comment_at(&side), Some("mine"));
    // Saved again, it loads as the same tree.
    let again = brandubh::game::Game::from_json(&game.to_json()).unwrap();
    assert_eq!(tree_text(&again), tree_text(&game));
}

/// Two side lines starting with the same move are one: merged on load, the comments of both
/// kept.
#[test]
fn duplicate_side_lines_are_merged_on_load() {
    let text = game_with_side_lines(
        &["d2-c2", "d3-e3", "c2-c3"],
        &serde_json::json!([
            {"at": 1, "moves": ["c4-c3", "d1-d2"], "comments": ["first", null]},
            {"at": 1, "moves": ["c4-c3", "b4-b3"], "comments": ["second", null]},
            {"at": 1, "moves": ["c4-c3"]},
        ]),
    );
    let game = brandubh::game::Game::from_json(&text).unwrap();
    assert_eq!(
        tree_text(&game),
        ["d2-c2 d3-e3 c2-c3", "  c4-c3 d1-d2", "    b4-b3"]
    );
    assert_otg_round_trips(&game);
    let side = brandubh::game::Place::new(vec![brandubh::game::Fork { at: 1, line: 0 }], 1);
    assert_eq!(game.comment_at(&side), Some("first\n\nsecond"));
}

/// A side line repeating the game's moves past the game's last move has no place in the tree
/// (the game's moves are not lengthened on load): refused, saying where.
#[test]
fn a_side_line_repeating_the_game_past_its_end_is_refused() {
    let text = game_with_side_lines(
        &["d2-c2", "d3-e3"],
        &serde_json::json!([{"at": 1, "moves": ["d3-e3", "c2-c3"]}]),
    );
    let err = brandubh::game::Game::from_json(&text)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("side line at move 3: it repeats the game's moves past its last move"),
        "{err}"
    );
}

/// Keys typed as the terminal sends them, each mapped in the mode the app is in then, as the
/// event loop maps them.
fn type_keys(app: &mut brandubh::tui::Runtime, keys: &str) {
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    for c in keys.chars() {
        let code = if c == '\r' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        let event = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        for action in brandubh::tui::input::actions(&event, app.app().mode()) {
            app.update(action);
        }
    }
}

/// On a screen too small to draw the game, where the player sees none of it, keys other than
/// quitting do nothing: before, `:d1-c1⏎ x y` played a move and resigned, unseen.
#[test]
fn keys_do_nothing_on_a_screen_too_small_but_quit() {
    use brandubh::tui::{Action, Config, Mode, Runtime};
    let mut app = Runtime::new(Config {
        skip_setup: true,
        ..Config::default()
    })
    .unwrap();
    app.update(Action::Resize {
        width: 20,
        height: 6,
    });
    type_keys(&mut app, ":d1-c1\rxy");
    assert!(
        app.app().session().game().moves().is_empty(),
        "a move was played"
    );
    assert_eq!(app.app().session().outcome(), None, "the game was ended");
    // A click lands nowhere either.
    app.update(Action::Click { column: 3, row: 2 });
    assert!(app.app().session().game().moves().is_empty());
    assert_eq!(app.app().mode(), Mode::TooSmall);
    // Back to a size that fits, the keys act again.
    let (width, height) = brandubh::tui::minimum_size();
    app.update(Action::Resize { width, height });
    type_keys(&mut app, ":d1-c1\r");
    assert_eq!(app.app().session().game().moves().len(), 1);
    // Quitting works whatever the size: `q`, and `q` again at the question it asks unseen.
    app.update(Action::Resize {
        width: 20,
        height: 6,
    });
    type_keys(&mut app, "q");
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(20, 6)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect();
    assert!(screen.contains("not saved: q again"), "{screen}");
    assert!(!app.app().should_quit());
    type_keys(&mut app, "q");
    assert!(app.app().should_quit());
}
