//! The terminal game rendered into a `TestBackend`: snapshots of every screen, and colour checks
//! on buffer cells (text snapshots do not carry colours).

use brandubh::ai::{Budget, Limits};
use brandubh::game::Game;
use brandubh::game::Player;
use brandubh::rules::{Preset, Reason, Side};
use std::path::Path;

use brandubh::tui::{
    Action, Config, Direction, Glyphs, Look, Mode, Runtime, Storage, ThemeName, Tone,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

fn hot_seat() -> Config {
    Config {
        skip_setup: true,
        ..Config::default()
    }
}

/// The screen of `app` on a terminal of `width` × `height` (the app told of the size first,
/// as the event loop tells it).
fn render(app: &mut Runtime, width: u16, height: u16) -> Terminal<TestBackend> {
    app.update(Action::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.draw(frame)).unwrap();
    terminal
}

fn type_move(app: &mut Runtime, text: &str) {
    app.update(Action::StartTyping);
    for c in text.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm);
}

fn play_all(app: &mut Runtime, moves: &str) {
    for mv in moves.split_whitespace() {
        type_move(app, mv);
        assert!(
            matches!(
                app.app().status().map(|s| s.tone),
                Some(Tone::Info | Tone::Warning)
            ),
            "{mv}: {:?}",
            app.app().status()
        );
    }
}

/// Every cell whose symbol is `symbol`.
fn cells_with(buf: &Buffer, symbol: &str) -> Vec<(u16, u16)> {
    let area = buf.area;
    (area.y..area.bottom())
        .flat_map(|y| (area.x..area.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].symbol() == symbol)
        .collect()
}

#[test]
fn new_game_screen() {
    let mut app = Runtime::new(Config::default()).unwrap();
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn start_position() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn start_position_in_ascii_on_a_big_terminal() {
    let mut app = Runtime::new(Config {
        look: Look::new(ThemeName::HighContrast, true, true),
        ..hot_seat()
    })
    .unwrap();
    let terminal = render(&mut app, 120, 40);
    assert_eq!(non_ascii(terminal.backend().buffer()), []);
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_selected_piece_shows_its_destinations() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    // The cursor starts on a piece of the side to move: the attacker on d2, nearest the
    // throne.
    assert_eq!(app.app().cursor(), "d2".parse().unwrap());
    app.update(Action::Confirm);
    assert_eq!(app.app().selected(), Some("d2".parse().unwrap()));
    // Move the cursor away (onto the defender on d3) so that the selection shows on its own.
    app.update(Action::Move(Direction::Up));
    let terminal = render(&mut app, 80, 24);
    insta::assert_snapshot!(terminal.backend());

    let look = Look::default();
    let buf = terminal.backend().buffer();
    let dots = cells_with(buf, look.glyphs.destination);
    assert_eq!(dots.len(), 6, "a2 b2 c2 e2 f2 g2");
    for (x, y) in dots {
        assert_eq!(buf[(x, y)].bg, look.theme.destination.bg.unwrap());
    }
    let open = cells_with(buf, "<");
    assert_eq!(open.len(), 1);
    let (x, y) = open[0];
    assert_eq!(buf[(x + 1, y)].symbol(), look.glyphs.attacker);
    assert_eq!(buf[(x + 1, y)].bg, look.theme.selected.bg.unwrap());
    assert_eq!(buf[(x + 1, y)].fg, look.theme.attacker.fg.unwrap());
    let cursor = cells_with(buf, "[");
    assert_eq!(cursor.len(), 1);
    assert_eq!(buf[cursor[0]].bg, look.theme.cursor.bg.unwrap());
}

#[test]
fn the_last_move_and_its_captures_are_marked() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "d2-b2 c4-c2 d1-d2xc2");
    // The cursor off d2 (where it started), so that the last move's mark shows.
    app.update(Action::Move(Direction::Up));
    let look = Look::default();
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let crosses = cells_with(buf, look.glyphs.captured);
    assert_eq!(crosses.len(), 1, "c2 was captured");
    assert_eq!(buf[crosses[0]].bg, look.theme.captured.bg.unwrap());
    let last = look.theme.last_move.bg.unwrap();
    let marked = cells_with(buf, look.glyphs.attacker)
        .into_iter()
        .filter(|&c| buf[c].bg == last)
        .count();
    assert_eq!(marked, 1, "the attacker that moved to d2");
    assert!(
        buf.content().iter().any(|c| c.symbol() == "x"),
        "move list shows xc2"
    );
}

#[test]
fn illegal_attempts_are_explained() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    // The attacker on d2 selected, then the defender on d3 in its way.
    app.update(Action::Confirm);
    app.update(Action::Move(Direction::Up));
    app.update(Action::Confirm);
    assert_eq!(
        app.app().status().unwrap().text,
        "cannot move d2-d3: d3 is occupied"
    );
    app.update(Action::Cancel);
    app.update(Action::Confirm);
    assert_eq!(
        app.app().status().unwrap().text,
        "the attackers are to move, not the defender on d3"
    );
    type_move(&mut app, "a4-a1");
    assert!(
        app.app().status().unwrap().text.contains("corner a1"),
        "{:?}",
        app.app().status()
    );
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let row = buf.area.bottom() - 1;
    assert_eq!(buf[(0, row)].fg, Look::default().theme.error.fg.unwrap());
}

#[test]
fn opentafl_notation_is_read_at_the_move_prompt() {
    // Piece letters keep their case (`T` a defender, `K` the king); squares may be upper case,
    // joined or spaced.
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "a4-a3 Te4-e6 A3A2 Kd4e4");
    type_move(&mut app, "ta2 a3");
    type_move(&mut app, "Ke4-e1");
    let moves: Vec<String> = app
        .app()
        .session()
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        moves,
        ["a4-a3", "e4-e6", "a3-a2", "d4-e4", "a2-a3", "e4-e1"]
    );
    // A letter that names the wrong piece is refused by the move, not read as a square.
    type_move(&mut app, "Ta3-a2");
    let status = app.app().status().unwrap();
    assert_eq!(status.tone, Tone::Error);
    assert!(!status.text.contains("not a square"), "{}", status.text);
}

#[test]
fn game_over_banner() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "a4-a3 e4-e6 a3-a2 d4-e4 a2-a3 e4-e1 a3-a2 e1-g1");
    let outcome = app.app().session().outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Defenders));
    assert_eq!(outcome.reason, Reason::KingEscaped);
    let terminal = render(&mut app, 80, 24);
    insta::assert_snapshot!(terminal.backend());
    let look = Look::default();
    let buf = terminal.backend().buffer();
    let stars: Vec<_> = cells_with(buf, "★");
    assert_eq!(stars.len(), 2, "the banner");
    for c in stars {
        assert_eq!(buf[c].bg, look.theme.banner.bg.unwrap());
    }
}

#[test]
fn resigning_asks_first_and_ends_the_game() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "d2-e2");
    app.update(Action::Resign);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
    app.update(Action::No);
    assert_eq!(app.app().session().outcome(), None);
    app.update(Action::Resign);
    app.update(Action::Yes);
    let outcome = app.app().session().outcome().unwrap();
    assert_eq!(
        outcome.winner,
        Some(Side::Attackers),
        "the defenders were to move"
    );
    assert_eq!(outcome.reason, Reason::Resignation);
}

#[test]
fn a_draw_offer_needs_the_other_side() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    app.update(Action::OfferDraw);
    app.update(Action::No);
    assert_eq!(app.app().session().outcome(), None);
    app.update(Action::OfferDraw);
    app.update(Action::Yes);
    assert_eq!(
        app.app().session().outcome().map(|o| o.reason),
        Some(Reason::Agreement)
    );
}

#[test]
fn help_overlay() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    app.update(Action::Help);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
    assert_eq!(app.app().mode(), Mode::Menu);
    app.update(Action::Cancel);
    assert_eq!(app.app().mode(), Mode::Board);
}

#[test]
fn the_help_overlay_scrolls_on_the_smallest_terminal() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    app.update(Action::Help);
    let (width, height) = brandubh::tui::wide_size();
    let top = format!("{}", render(&mut app, width, height).backend());
    insta::assert_snapshot!("help_overlay_65x16_top", top);
    assert!(
        top.contains("↓ more · ↑↓ scroll") && !top.contains("Ctrl-c"),
        "{top}"
    );
    // Further down than the end shows the end, and one line up from there moves at once.
    for _ in 0..5 {
        app.update(Action::PageDown);
    }
    let end = format!("{}", render(&mut app, width, height).backend());
    insta::assert_snapshot!("help_overlay_65x16_end", end);
    assert!(end.contains("Ctrl-c") && !end.contains("arrows"), "{end}");
    assert!(end.contains("↑ more") && !end.contains("↓ more"), "{end}");
    app.update(Action::Move(Direction::Up));
    assert_ne!(
        format!("{}", render(&mut app, width, height).backend()),
        end
    );
    assert_eq!(app.app().mode(), Mode::Menu);
    app.update(Action::Cancel);
    assert_eq!(app.app().mode(), Mode::Board);
}

#[test]
fn rules_screen() {
    let mut app = Runtime::new(Config {
        preset: Preset::Nielsen,
        ..hot_seat()
    })
    .unwrap();
    app.update(Action::Rules);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn rules_texts_describe_the_pieces_as_the_board_draws_them() {
    // The board draws pieces by glyph, each side in a dark colour: no text may call a side
    // black or white, and each names the glyphs it is drawn with, and their ASCII letters.
    let ascii = Glyphs::ASCII;
    for preset in Preset::ALL {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/rules")
            .join(format!("{}.md", preset.name()));
        let text = std::fs::read_to_string(&path).unwrap();
        let words = text.to_lowercase().replace("(\"black raven\")", "");
        for colour in ["white", "black"] {
            assert!(!words.contains(colour), "{}: {colour}", path.display());
        }
        for (side, glyph, letter) in [
            ("attackers (8 soldiers, ", "solid discs", ascii.attacker),
            ("defenders (4 soldiers, ", "rings", ascii.defender),
            ("king (", "a chess king", ascii.king),
        ] {
            let named = format!("{side}drawn as {glyph}, {letter} in ASCII)");
            assert!(text.contains(&named), "{}: {named}", path.display());
        }
    }
}

#[test]
fn too_small_terminal_and_recovery() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    let (w, h) = brandubh::tui::minimum_size();
    let small = render(&mut app, w - 1, h);
    insta::assert_snapshot!(small.backend());
    let fits = render(&mut app, w, h);
    let look = Look::default();
    assert!(!cells_with(fits.backend().buffer(), look.glyphs.king).is_empty());
}

#[test]
fn no_color_draws_without_colours() {
    let mut app = Runtime::new(Config {
        look: Look::new(ThemeName::Default, false, false),
        ..hot_seat()
    })
    .unwrap();
    app.update(Action::Move(Direction::Down));
    app.update(Action::Move(Direction::Down));
    app.update(Action::Confirm);
    let terminal = render(&mut app, 80, 24);
    for cell in terminal.backend().buffer().content() {
        assert_eq!(cell.fg, Color::Reset);
        assert_eq!(cell.bg, Color::Reset);
    }
}

#[test]
fn clicks_select_and_move() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let look = Look::default();
    // The attackers in the bottom rows of the board: d1 and d2; d2 is the upper one.
    let mut attackers = cells_with(buf, look.glyphs.attacker);
    attackers.sort_by_key(|&(x, y)| (y, x));
    let d2 = attackers[attackers.len() - 2];
    app.update(Action::Click {
        column: d2.0,
        row: d2.1,
    });
    assert_eq!(app.app().selected(), Some("d2".parse().unwrap()));
    let terminal = render(&mut app, 80, 24);
    let dots = cells_with(terminal.backend().buffer(), look.glyphs.destination);
    let leftmost = *dots.iter().min_by_key(|&&(x, _)| x).unwrap();
    app.update(Action::Click {
        column: leftmost.0,
        row: leftmost.1,
    });
    assert_eq!(app.app().session().moves().len(), 1);
    assert_eq!(app.app().session().moves()[0].to_string(), "d2-a2");
}

#[test]
fn undo_and_redo_from_the_keyboard() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "d2-e2 c4-c5");
    app.update(Action::Undo);
    assert_eq!(app.app().session().moves().len(), 1);
    app.update(Action::Redo);
    assert_eq!(app.app().session().moves().len(), 2);
    app.update(Action::Redo);
    assert!(app.app().status().unwrap().text.contains("nothing to redo"));
}

#[test]
fn the_new_game_screen_starts_the_chosen_game() {
    let mut app = Runtime::new(Config::default()).unwrap();
    // Focus starts on Start: go up to Rules and pick the next preset.
    for _ in 0..5 {
        app.update(Action::Move(Direction::Up));
    }
    app.update(Action::Move(Direction::Right));
    for _ in 0..5 {
        app.update(Action::Move(Direction::Down));
    }
    app.update(Action::Confirm);
    assert_eq!(app.app().session().preset(), Some(Preset::Walker));
    assert_eq!(app.app().session().player(Side::Attackers), Player::Human);
    assert_eq!(app.app().mode(), Mode::Board);
}

#[test]
fn quitting_asks_only_with_unsaved_moves() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    app.update(Action::Quit);
    assert!(app.app().should_quit());
    let mut app = Runtime::new(hot_seat()).unwrap();
    play_all(&mut app, "d2-e2");
    app.update(Action::Quit);
    assert!(!app.app().should_quit());
    assert_eq!(app.app().mode(), Mode::Question);
    app.update(Action::Yes);
    assert!(app.app().should_quit());
}

#[test]
fn the_captured_king_is_marked_where_he_stood() {
    let mut app = Runtime::new(Config {
        preset: Preset::Fellhuhn,
        ..hot_seat()
    })
    .unwrap();
    play_all(&mut app, "a4-a5 c4-c2 b4-b5 d4-b4 a5-a4 e4-e6 f4-c4");
    let outcome = app.app().session().outcome().unwrap();
    assert_eq!(outcome.reason, Reason::KingCaptured);
    let look = Look::default();
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let crosses = cells_with(buf, look.glyphs.captured);
    assert_eq!(crosses.len(), 1, "b4");
    // b4 lies between the attackers on a4 and c4, on the same row.
    let row: Vec<_> = cells_with(buf, look.glyphs.attacker)
        .into_iter()
        .filter(|&(_, y)| y == crosses[0].1)
        .collect();
    assert_eq!(row.len(), 3, "a4, c4 and g4");
    assert!(row[0].0 < crosses[0].0 && crosses[0].0 < row[1].0);
    assert!(
        cells_with(buf, look.glyphs.king)
            .iter()
            .all(|&(_, y)| y == 3),
        "only in the panel"
    );
}

fn with_storage(dir: &Path) -> Config {
    Config {
        storage: Storage::in_dir(dir.join("saves")),
        ..hot_seat()
    }
}

/// The files of the autosave folder of the save folder in `dir`.
fn autosaves(dir: &Path) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(dir.join("saves").join("autosave")) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

fn plies_in(path: &Path) -> usize {
    Game::from_json(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .moves()
        .len()
}

fn screen_text(app: &mut Runtime) -> String {
    format!("{}", render(app, 100, 30).backend())
}

/// Opens the save prompt, replaces the offered name with `name` and presses Enter.
fn save_as(app: &mut Runtime, name: &str) {
    app.update(Action::Save);
    assert_eq!(app.app().mode(), Mode::Text);
    for _ in 0..60 {
        app.update(Action::Backspace);
    }
    for c in name.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm);
}

#[test]
fn games_are_autosaved_saved_and_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2 c4-c5");
    let auto = autosaves(dir.path());
    assert_eq!(auto.len(), 1, "one autosave file for the game");
    assert_eq!(plies_in(&auto[0]), 2, "autosaved after every move");
    assert!(app.app().is_dirty());

    // Save under a typed name in the save folder.
    app.update(Action::Save);
    assert!(screen_text(&mut app).contains("Save game"));
    app.update(Action::Cancel);
    save_as(&mut app, "opening");
    let saved = dir.path().join("saves").join("opening.json");
    assert!(saved.is_file(), "{:?}", app.app().status());
    assert!(!app.app().is_dirty());
    assert_eq!(plies_in(&saved), 2);
    assert!(autosaves(dir.path()).is_empty(), "saved: the autosave goes");
    app.update(Action::Quit);
    assert!(app.app().should_quit(), "saved: no question");

    // A new app lists the file and loads it.
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    app.update(Action::Load);
    assert_eq!(app.app().mode(), Mode::Menu);
    assert!(screen_text(&mut app).contains("opening"));
    app.update(Action::Confirm);
    assert_eq!(
        app.app().session().moves().len(),
        2,
        "{:?}",
        app.app().status()
    );
    assert_eq!(app.app().session().file(), Some(saved.as_path()));
    assert!(!app.app().is_dirty());
    // Played on, the game is autosaved apart; its file changes only when saved.
    play_all(&mut app, "d1-d2");
    assert_eq!(plies_in(&saved), 2);
    assert_eq!(plies_in(&autosaves(dir.path())[0]), 3);
    app.update(Action::Save);
    assert!(screen_text(&mut app).contains("name: opening_"));
    app.update(Action::Confirm);
    assert_eq!(
        plies_in(&saved),
        3,
        "its own file: saved without a question"
    );
    assert_eq!(app.app().mode(), Mode::Board);
}

#[test]
fn saving_over_another_save_asks_first_and_shows_what_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2 c4-c5 d1-d2");
    save_as(&mut app, "mine");
    let mine = dir.path().join("saves").join("mine.json");
    assert_eq!(plies_in(&mine), 3);

    let mut other = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut other, "d2-c2");
    save_as(&mut other, "mine.json");
    assert_eq!(other.app().mode(), Mode::Question);
    let question = screen_text(&mut other);
    assert!(
        question.contains("A save named \"mine\" exists: human vs human, standard, 3")
            && question.contains("plies, ongoing,")
            && question.contains("Replace it with this"),
        "{question}"
    );
    // No: back to the prompt, nothing written.
    other.update(Action::No);
    assert_eq!(other.app().mode(), Mode::Text);
    assert!(screen_text(&mut other).contains("name: mine.json_"));
    assert_eq!(plies_in(&mine), 3);
    other.update(Action::Confirm);
    assert_eq!(other.app().mode(), Mode::Question);
    other.update(Action::Yes);
    assert_eq!(plies_in(&mine), 1, "replaced when the player says so");
    assert_eq!(other.app().session().file(), Some(mine.as_path()));
    assert!(!other.app().is_dirty());
}

#[test]
fn bad_names_are_refused_in_the_prompt_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2");
    for (name, reason) in [
        ("../evil/x", "a name cannot contain /"),
        ("/tmp/x", "a name cannot contain /"),
        ("autosave", "\"autosave\" is a reserved name"),
        ("NUL", "reserved name"),
        (".hidden", "cannot start with a dot"),
        ("", "type a name"),
    ] {
        save_as(&mut app, name);
        assert_eq!(app.app().mode(), Mode::Text, "{name}: the prompt stays");
        let screen = screen_text(&mut app);
        assert!(screen.contains(reason), "{name}: {screen}");
        app.update(Action::Cancel);
    }
    let names: Vec<_> = std::fs::read_dir(dir.path().join("saves"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["autosave"], "only the autosave folder");
    assert!(!dir.path().join("evil").exists());
}

#[test]
fn a_new_game_or_a_load_keeps_the_unfinished_game_and_continue_offers_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2");
    app.update(Action::NewGame);
    assert_eq!(
        app.app().mode(),
        Mode::Menu,
        "no question: the autosave keeps it"
    );
    let screen = screen_text(&mut app);
    assert!(
        !screen.contains("Continue"),
        "not the game in play: {screen}"
    );
    app.update(Action::Confirm);
    play_all(&mut app, "d2-c2");
    assert_eq!(autosaves(dir.path()).len(), 2, "both games kept");
    app.update(Action::Quit);
    app.update(Action::Yes);

    // The next start offers the latest unfinished game first.
    let mut app = Runtime::new(Config {
        skip_setup: false,
        ..with_storage(dir.path())
    })
    .unwrap();
    let screen = screen_text(&mut app);
    assert!(
        screen.contains("Continue   human vs human, standard, 1 ply, ongoing"),
        "{screen}"
    );
    app.update(Action::Confirm);
    assert_eq!(app.app().mode(), Mode::Board);
    assert_eq!(app.app().session().moves()[0].to_string(), "d2-c2");
    assert!(app.app().status().unwrap().text.starts_with("continued"));
    // Continued and played on: the game moves to a file of its own; nothing is lost.
    play_all(&mut app, "c4-c5");
    let mut plies: Vec<usize> = autosaves(dir.path()).iter().map(|p| plies_in(p)).collect();
    plies.sort_unstable();
    assert_eq!(plies, [1, 2]);
}
#[test]
fn the_new_game_screen_with_continue_fits_the_smallest_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2");
    app.update(Action::Quit);
    app.update(Action::Yes);
    let mut app = Runtime::new(Config {
        skip_setup: false,
        ..with_storage(dir.path())
    })
    .unwrap();
    let (width, height) = brandubh::tui::wide_size();
    let terminal = render(&mut app, width, height);
    let text = format!("{}", terminal.backend());
    for part in [
        "Continue   human vs human",
        "Position",
        "[ Start ]",
        "Enter start",
    ] {
        assert!(text.contains(part), "{part} is missing:\n{text}");
    }
    // Down to Start: its row shows the focus marker, and a click on it starts a new game.
    for _ in 0..6 {
        app.update(Action::Move(Direction::Down));
    }
    let buf = render(&mut app, width, height).backend().buffer().clone();
    let [(start_x, start_y)] = find_text(&buf, "[ Start ]")[..] else {
        panic!("one Start button")
    };
    assert_eq!(cells_with(&buf, "›"), [(buf.area.x, start_y)]);
    app.update(Action::Click {
        column: start_x + 2,
        row: start_y,
    });
    assert_eq!(app.app().mode(), Mode::Board);
    assert!(
        app.app().session().moves().is_empty(),
        "a new game, not the one continued"
    );
}

#[test]
fn a_game_read_from_another_programs_record_is_held_by_it() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("saves");
    std::fs::create_dir(&saves).unwrap();
    let record = saves.join("club.otg");
    std::fs::write(
        &record,
        "[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 c4-c5\n",
    )
    .unwrap();
    let open = || {
        Runtime::new(Config {
            resume: Some(brandubh::tui::Session::load(&record).unwrap()),
            ..with_storage(dir.path())
        })
        .unwrap()
    };
    // Unchanged, it is in its record: no autosave, and quitting asks nothing.
    let mut app = open();
    assert!(!app.app().is_dirty());
    app.update(Action::Quit);
    assert!(app.app().should_quit(), "{}", screen_text(&mut app));
    assert!(autosaves(dir.path()).is_empty());
    // It is the game in play: not offered to continue, and marked in the list of saves.
    let mut app = open();
    app.update(Action::NewGame);
    let screen = screen_text(&mut app);
    assert!(!screen.contains("Continue"), "{screen}");
    app.update(Action::Load);
    let screen = screen_text(&mut app);
    assert!(screen.contains("club.otg         in play"), "{screen}");
    // Played on, it is autosaved and quitting asks as for any game.
    let mut app = open();
    play_all(&mut app, "d1-d2");
    assert_eq!(autosaves(dir.path()).len(), 1);
    app.update(Action::Quit);
    let shown = screen_text(&mut app);
    assert!(shown.contains("autosave keeps it"), "{shown}");
    // What the question says is true: one move since the record was read.
    assert!(
        shown.contains("1 move since it was loaded from club.otg"),
        "{shown}"
    );
    assert!(!shown.contains("not saved to a file"), "{shown}");
}

#[test]
fn esc_on_the_new_game_screen_goes_back_to_the_game_or_quits() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    app.update(Action::NewGame);
    assert_eq!(app.app().mode(), Mode::Menu);
    app.update(Action::Cancel);
    assert_eq!(app.app().mode(), Mode::Board);
    assert!(!app.app().should_quit());
    let mut app = Runtime::new(Config::default()).unwrap();
    app.update(Action::Cancel);
    assert!(app.app().should_quit(), "no game to go back to");
}

#[test]
fn the_move_list_scrolls_by_pages() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    // Forty plies of legal moves, picked without randomness.
    for i in 0..40 {
        let moves = app.app().session().state().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(i * 7) % moves.len()];
        type_move(&mut app, &mv.to_string());
    }
    let plies = app.app().session().moves().len();
    assert!(plies > 30, "{plies} plies");
    let text = |app: &mut Runtime| format!("{}", render(app, 80, 24).backend());
    let first = app.app().session().moves()[0].to_string();
    let last = app.app().session().moves()[plies - 1].to_string();
    let bottom = text(&mut app);
    assert!(
        bottom.contains(&last) && !bottom.contains(&format!(" 1 {first}")),
        "{bottom}"
    );
    assert!(bottom.contains("Moves ↑"), "{bottom}");
    app.update(Action::PageUp);
    app.update(Action::PageUp);
    app.update(Action::PageUp);
    let top = text(&mut app);
    assert!(top.contains(&format!(" 1 {first}")), "{top}");
    assert!(top.contains("↓ PgDn"), "{top}");
    for _ in 0..5 {
        app.update(Action::PageDown);
    }
    assert!(text(&mut app).contains(&last));
}

/// The cells where `text` starts on screen, rows top to bottom.
fn find_text(buf: &Buffer, text: &str) -> Vec<(u16, u16)> {
    let area = buf.area;
    let chars: Vec<String> = text.chars().map(String::from).collect();
    (area.y..area.bottom())
        .flat_map(|y| (area.x..area.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            chars.iter().enumerate().all(|(k, c)| {
                let x = x + u16::try_from(k).unwrap();
                x < area.right() && buf[(x, y)].symbol() == c
            })
        })
        .collect()
}

/// The escape game of `assets/games`, loaded from a copy in `dir`; returns the app and the file.
fn review_escape(dir: &std::path::Path) -> (Runtime, std::path::PathBuf) {
    let file = dir.join("escape.json");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/games/escape.json"),
        &file,
    )
    .unwrap();
    let app = Runtime::new(Config {
        resume: Some(brandubh::tui::Session::load(&file).unwrap()),
        storage: Storage::in_dir(dir.join("saves")),
        ..Config::default()
    })
    .unwrap();
    (app, file)
}

#[test]
fn review_of_a_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, file) = review_escape(dir.path());
    let before = std::fs::read(&file).unwrap();
    assert_eq!(
        app.app().mode(),
        brandubh::tui::Mode::Review,
        "opens in review"
    );
    insta::assert_snapshot!("review_at_the_end", render(&mut app, 80, 24).backend());
    // Back to ply 5, f7-f4xe4: the move and its capture are marked.
    for _ in 0..11 {
        app.update(Action::Move(Direction::Left));
    }
    let terminal = render(&mut app, 80, 24);
    insta::assert_snapshot!("review_at_a_capture", terminal.backend());
    let look = Look::default();
    let buf = terminal.backend().buffer();
    let crosses = cells_with(buf, look.glyphs.captured);
    assert_eq!(crosses.len(), 1, "e4 was captured");
    assert_eq!(buf[crosses[0]].bg, look.theme.captured.bg.unwrap());
    let moved = cells_with(buf, look.glyphs.attacker)
        .into_iter()
        .filter(|&c| buf[c].bg == look.theme.last_move.bg.unwrap())
        .count();
    assert_eq!(moved, 1, "the attacker now on f4");
    // Once as the ply's move, once in the move list, highlighted.
    let found = find_text(buf, "f7-f4xe4");
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(
        buf[found[1]].bg,
        look.theme.focus.bg.unwrap(),
        "highlighted"
    );
    assert_ne!(buf[found[0]].bg, look.theme.focus.bg.unwrap());
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn review_at_the_start_and_its_help() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _) = review_escape(dir.path());
    app.update(Action::ToStart);
    let text = format!("{}", render(&mut app, 80, 24).backend());
    assert!(text.contains("Start · ply 0 of 16"), "{text}");
    assert!(text.contains("Attackers to move"), "{text}");
    app.update(Action::Help);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
    app.update(Action::Cancel);
    assert_eq!(app.app().mode(), brandubh::tui::Mode::Review);
}

#[test]
fn a_click_on_a_move_in_the_list_goes_there() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _) = review_escape(dir.path());
    let terminal = render(&mut app, 80, 24);
    let found = find_text(terminal.backend().buffer(), "d2-b2");
    assert_eq!(found.len(), 1, "only in the move list");
    let (x, y) = found[0];
    app.update(Action::Click { column: x, row: y });
    let text = format!("{}", render(&mut app, 80, 24).backend());
    assert!(text.contains("Ply 7 of 16"), "{text}");
    assert!(text.contains("Attackers  d2-b2"), "{text}");
    // A click on the board changes nothing.
    app.update(Action::Click { column: 10, row: 5 });
    assert!(format!("{}", render(&mut app, 80, 24).backend()).contains("Ply 7 of 16"));
}

#[test]
fn a_long_game_reviewed_keeps_its_ply_in_view() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    for i in 0..60 {
        let moves = app.app().session().state().legal_moves();
        if moves.is_empty() {
            break;
        }
        type_move(&mut app, &moves[(i * 7) % moves.len()].to_string());
    }
    let plies = app.app().session().moves().len();
    assert!(plies > 40, "{plies} plies");
    app.update(Action::Review);
    app.update(Action::ToStart);
    app.update(Action::PageDown);
    app.update(Action::PageDown);
    app.update(Action::Move(Direction::Right));
    let text = format!("{}", render(&mut app, 80, 24).backend());
    assert!(text.contains(&format!("Ply 21 of {plies}")), "{text}");
    let mv = app.app().session().moves()[20].to_string();
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let found = find_text(buf, &mv);
    assert_eq!(found.len(), 2, "the ply's move and the list: {found:?}");
    assert_eq!(buf[found[1]].bg, Look::default().theme.focus.bg.unwrap());
    assert!(text.contains("Moves ↑ ↓ PgDn"), "scrolled: {text}");
}

#[test]
fn the_new_game_screen_takes_a_position() {
    let mut app = Runtime::new(Config::default()).unwrap();
    app.update(Action::Move(Direction::Up));
    assert_eq!(
        app.app().mode(),
        brandubh::tui::Mode::Text,
        "typing the position"
    );
    for c in "/7/7/7/3K3/7/t6/7 x".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Confirm);
    assert_eq!(
        app.app().mode(),
        brandubh::tui::Mode::Text,
        "refused: still on the form"
    );
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
    app.update(Action::Backspace);
    app.update(Action::Type('d'));
    app.update(Action::Confirm);
    assert_eq!(app.app().mode(), brandubh::tui::Mode::Board);
    assert_eq!(
        app.app().session().state().position().to_string(),
        "/7/7/7/3K3/7/t6/7/ d"
    );
    assert_eq!(app.app().session().side_to_move(), Side::Defenders);
}

/// A finished game of two AI players (from `brandubh match --attackers search:easy
/// --defenders search:medium --seed 5`, its sixth game) with every move analyzed to depth 4:
/// inaccuracies, mistakes and blunders, and a move an earlier build marked as the only move
/// though it loses (read without the mark). Made by [`write_the_analysed_fixture`].
const ANALYSED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/analyzed/ai-game.json"
);

/// The depth the fixture's moves are analyzed to.
const FIXTURE_DEPTH: u32 = 4;

#[test]
#[ignore = "writes tests/data/analyzed/ai-game.json: run it to make the fixture again"]
fn write_the_analysed_fixture() {
    let path = Path::new(ANALYSED);
    let mut game = brandubh::game::storage::load(path).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let plies = brandubh::ai::Analyzer::default()
        .analyze(
            &game,
            Budget::Limits(Limits::depth(FIXTURE_DEPTH)),
            &stop,
            &mut |_| {},
        )
        .unwrap();
    for (ply, analysis) in plies.iter().enumerate() {
        game.set_analysis(ply, analysis).unwrap();
    }
    brandubh::game::storage::save_atomic(path, &game).unwrap();
}

/// The analyzed fixture, loaded from a copy in `dir`, in review.
fn review_analyzed(dir: &Path) -> Runtime {
    review_analysed_in(dir, Look::default())
}

/// The same in `look`.
fn review_analysed_in(dir: &Path, look: Look) -> Runtime {
    let file = dir.join("ai-game.json");
    std::fs::copy(ANALYSED, &file).unwrap();
    Runtime::new(Config {
        resume: Some(brandubh::tui::Session::load(&file).unwrap()),
        storage: Storage::in_dir(dir.join("saves")),
        look,
        ..Config::default()
    })
    .unwrap()
}

/// Applies `action` `times` times.
fn steps(app: &mut Runtime, action: Action, times: usize) {
    for _ in 0..times {
        app.update(action);
    }
}

#[test]
fn review_with_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = review_analyzed(dir.path());
    // Loaded, the game shows its analysis at once, at its end.
    insta::assert_snapshot!(
        "review_with_analysis_at_the_end",
        render(&mut app, 80, 24).backend()
    );
    // Ply 9, f6-f1: a blunder.
    steps(&mut app, Action::Move(Direction::Left), 15);
    let terminal = render(&mut app, 80, 24);
    insta::assert_snapshot!("review_with_analysis_at_a_blunder", terminal.backend());
    let look = Look::default();
    let buf = terminal.backend().buffer();
    let blunder = find_text(buf, "f6-f1??");
    assert_eq!(blunder.len(), 2, "the ply's move and the list: {blunder:?}");
    let (x, y) = blunder[0];
    assert_eq!(
        buf[(x + 5, y)].fg,
        look.theme.error.fg.unwrap(),
        "?? in red"
    );
    // In the list's highlight the mark takes the highlight's colours, to stay readable.
    let (x, y) = blunder[1];
    assert_eq!(
        buf[(x + 5, y)].fg,
        look.theme.focus.fg.unwrap(),
        "?? readable"
    );
    assert_eq!(
        buf[blunder[1]].bg,
        look.theme.focus.bg.unwrap(),
        "the list's highlight"
    );
    // The graph's highlighted column moves with the review.
    let focus = look.theme.focus.bg.unwrap();
    let graph_column = |buf: &Buffer| -> Vec<u16> {
        let panel = 52..80;
        panel
            .filter(|&x| (11..16).all(|y| buf[(x, y)].bg == focus))
            .collect()
    };
    let at_nine = graph_column(buf);
    assert_eq!(at_nine.len(), 1, "{at_nine:?}");
    app.update(Action::PageDown);
    let terminal = render(&mut app, 80, 24);
    let at_nineteen = graph_column(terminal.backend().buffer());
    assert_eq!(at_nineteen.len(), 1);
    assert!(
        at_nineteen[0] > at_nine[0] + 5,
        "{at_nine:?} {at_nineteen:?}"
    );
    // Ply 17, a6-d6: saved as the only move by an earlier build, though it loses in 5; read
    // without the mark (a move that loses is never the only move).
    steps(&mut app, Action::Move(Direction::Left), 2);
    insta::assert_snapshot!(
        "review_with_analysis_at_a_move_once_marked_only",
        render(&mut app, 80, 24).backend()
    );
    // The start: the evaluation of the first position and the engine's choice there.
    app.update(Action::ToStart);
    let start = format!("{}", render(&mut app, 80, 24).backend());
    assert!(
        start.contains("eval attackers -0.02") && start.contains("best a4-a3"),
        "{start}"
    );
    // The smallest terminal drops the graph and keeps the rest.
    steps(&mut app, Action::Move(Direction::Right), 9);
    insta::assert_snapshot!(
        "review_with_analysis_on_the_smallest_terminal",
        render(&mut app, 65, 16).backend()
    );
    // The game's own move list has the marks too.
    app.update(Action::Review);
    let game = format!("{}", render(&mut app, 80, 24).backend());
    assert!(
        game.contains("a6-d6 ") && game.contains("b7-b5??"),
        "{game}"
    );
}

#[test]
fn review_marks_the_move_played_and_the_best_move_with_a_legend() {
    let ascii = Look::new(ThemeName::HighContrast, true, true);
    for (name, look) in [("default", Look::default()), ("ascii", ascii)] {
        let dir = tempfile::tempdir().unwrap();
        let mut app = review_analysed_in(dir.path(), look.clone());
        // Ply 9, f6-f1: a blunder; the engine preferred e6-d6.
        steps(&mut app, Action::Move(Direction::Left), 15);
        app.update(Action::ToggleLegend);
        let terminal = render(&mut app, 80, 24);
        if look.glyphs.ascii {
            assert_eq!(non_ascii(terminal.backend().buffer()), []);
        }
        insta::assert_snapshot!(
            format!("review_marks_and_legend_{name}_80x24"),
            terminal.backend()
        );
        // The smallest terminal: the board with its marks, the panel with the legend (Tab).
        let (w, h) = brandubh::tui::minimum_size();
        let board = render(&mut app, w, h);
        app.update(Action::TogglePanel);
        let panel = render(&mut app, w, h);
        insta::assert_snapshot!(
            format!("review_marks_and_legend_{name}_smallest"),
            format!("{}\n{}", board.backend(), panel.backend())
        );
    }
}

#[test]
fn review_lists_the_side_lines_in_brackets_in_the_move_list() {
    let ascii = Look::new(ThemeName::HighContrast, true, true);
    for (name, look) in [("default", Look::default()), ("ascii", ascii)] {
        let dir = tempfile::tempdir().unwrap();
        let mut app = review_analysed_in(dir.path(), look.clone());
        // Before ply 9's blunder f6-f1, the engine's e6-d6 d3-f3 played instead.
        steps(&mut app, Action::Move(Direction::Left), 16);
        play_all(&mut app, "e6-d6 d3-f3");
        let terminal = render(&mut app, 80, 24);
        if look.glyphs.ascii {
            assert_eq!(non_ascii(terminal.backend().buffer()), []);
        }
        insta::assert_snapshot!(
            format!("review_side_lines_in_the_list_{name}_80x24"),
            terminal.backend()
        );
        let (w, h) = brandubh::tui::minimum_size();
        render(&mut app, w, h);
        app.update(Action::TogglePanel);
        insta::assert_snapshot!(
            format!("review_side_lines_in_the_list_{name}_smallest"),
            render(&mut app, w, h).backend()
        );
    }
}

#[test]
fn review_shows_an_only_move() {
    // The king on a3 sees a1: only e2-a2 stops him.
    let start = "/3t3/4t2/Kt5/T3T1t/2t4/5t1/3t3/ a".parse().unwrap();
    let mut game = Game::new(
        Preset::Standard.rules(),
        start,
        Player::Human,
        Player::Human,
    );
    game.play_text("e2-a2").unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let plies = brandubh::ai::Analyzer::default()
        .analyze(&game, Budget::Limits(Limits::depth(4)), &stop, &mut |_| {})
        .unwrap();
    game.set_analysis(0, &plies[0]).unwrap();
    let mut app = Runtime::new(Config {
        resume: Some(brandubh::tui::Session::from_game(game)),
        ..Config::default()
    })
    .unwrap();
    let board = format!("{}", render(&mut app, 80, 24).backend());
    assert!(board.contains("e2-a2!"), "{board}");
    app.update(Action::Review);
    let review = format!("{}", render(&mut app, 80, 24).backend());
    assert!(review.contains("only move !"), "{review}");
}

#[test]
fn review_with_analysis_without_colours() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = review_analyzed(dir.path());
    let mut app_plain = Runtime::new(Config {
        look: Look::new(ThemeName::Default, false, false),
        resume: Some(brandubh::tui::Session::load(Path::new(ANALYSED)).unwrap()),
        ..Config::default()
    })
    .unwrap();
    let coloured = render(&mut app, 80, 24);
    let plain = render(&mut app_plain, 80, 24);
    let buf = plain.backend().buffer();
    for cell in buf.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
    }
    let symbols = |t: &Terminal<TestBackend>| -> Vec<String> {
        t.backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol().to_owned())
            .collect()
    };
    assert_eq!(
        symbols(&plain),
        symbols(&coloured),
        "the same graph and marks"
    );
    let reversed = (52..80)
        .filter(|&x| {
            (11..16).all(|y| {
                buf[(x, y)]
                    .modifier
                    .contains(ratatui::style::Modifier::REVERSED)
            })
        })
        .count();
    assert_eq!(reversed, 1, "the reviewed position's column");
}

#[test]
fn the_analysis_asks_its_budget_then_shows_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = review_analyzed(dir.path());
    app.update(Action::ToStart);
    app.update(Action::Analyze);
    assert_eq!(app.app().mode(), Mode::Menu);
    app.update(Action::Move(Direction::Down));
    insta::assert_snapshot!("the_analysis_budgets", render(&mut app, 80, 24).backend());
    app.update(Action::Confirm);
    assert_eq!(app.app().mode(), Mode::Review);
    // Drawn before any report is taken (the app takes them when time passes).
    let terminal = render(&mut app, 80, 24);
    let buf = terminal.backend().buffer();
    let bottom: String = (0..80).map(|x| buf[(x, 23)].symbol().to_owned()).collect();
    assert!(
        bottom.starts_with("analyzing (normal) 0/24 positions · 12 s left · Esc cancels ─"),
        "{bottom}"
    );
    app.update(Action::Cancel);
    assert!(
        app.app()
            .status()
            .unwrap()
            .text
            .starts_with("analysis stopped at 0 of 24 positions"),
        "{:?}",
        app.app().status()
    );
}

#[test]
fn the_compact_layout_plays_on_the_smallest_terminal_with_the_panel_behind_tab() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    let (width, height) = brandubh::tui::minimum_size();
    assert_eq!((width, height), (30, 12));
    let board = format!("{}", render(&mut app, width, height).backend());
    insta::assert_snapshot!("compact_30x12_board", board);
    assert!(board.contains("Attackers to move") && board.contains("Tab panel"));
    // A click on d2 selects the attacker there, as on the wide layout.
    let buf = render(&mut app, width, height).backend().buffer().clone();
    let [(x, y)] = find_text(&buf, "d")[..] else {
        panic!("one file label d")
    };
    app.update(Action::Click {
        column: x,
        row: y - 2,
    });
    assert_eq!(app.app().selected(), Some("d2".parse().unwrap()));
    app.update(Action::Cancel);
    app.update(Action::TogglePanel);
    let panel = format!("{}", render(&mut app, width, height).backend());
    insta::assert_snapshot!("compact_30x12_panel", panel);
    assert!(panel.contains("Tab board") && panel.contains("Attackers"));
    assert!(
        cells_with(
            render(&mut app, width, height).backend().buffer(),
            Look::default().glyphs.king
        )
        .len()
            <= 1
    );
    // Clicks do not reach the covered board.
    app.update(Action::Click {
        column: x,
        row: y - 2,
    });
    assert_eq!(app.app().selected(), None);
    app.update(Action::TogglePanel);
    type_move(&mut app, "d2-e2");
    assert_eq!(app.app().session().moves().len(), 1);
}

#[test]
fn the_new_game_screen_fits_65x16_and_30x12() {
    let mut app = Runtime::new(Config::default()).unwrap();
    let wide = format!("{}", render(&mut app, 65, 16).backend());
    insta::assert_snapshot!("new_game_65x16", wide);
    assert!(
        wide.contains("Esc back") && wide.contains("[ Start ]"),
        "{wide}"
    );
    assert!(!wide.contains('…'), "no summary is cut: {wide}");
    let small = format!("{}", render(&mut app, 30, 12).backend());
    insta::assert_snapshot!("new_game_30x12", small);
    assert!(
        small.contains("[ Start ]") && small.contains("standard"),
        "{small}"
    );
}

#[test]
fn a_big_terminal_caps_the_board_and_the_panel() {
    let mut app = Runtime::new(hot_seat()).unwrap();
    insta::assert_snapshot!("start_position_200x60", render(&mut app, 200, 60).backend());
}

/// The characters of `buf` that are not ASCII, with where they are.
fn non_ascii(buf: &Buffer) -> Vec<(u16, u16, String)> {
    let area = buf.area;
    (area.y..area.bottom())
        .flat_map(|y| (area.x..area.right()).map(move |x| (x, y)))
        .filter(|&(x, y)| !buf[(x, y)].symbol().is_ascii())
        .map(|(x, y)| (x, y, buf[(x, y)].symbol().to_owned()))
        .collect()
}

/// Renders `app` at each size and requires every cell to be ASCII.
fn assert_ascii(app: &mut Runtime, what: &str) {
    for (w, h) in [(80, 24), (30, 12), (65, 16), (200, 60)] {
        let terminal = render(app, w, h);
        let bad = non_ascii(terminal.backend().buffer());
        assert!(
            bad.is_empty(),
            "{what} at {w}x{h}: {bad:?}\n{}",
            terminal.backend()
        );
    }
}

#[test]
fn ascii_draws_ascii_only_on_every_screen() {
    let ascii = Look::new(ThemeName::Default, true, true);
    let dir = tempfile::tempdir().unwrap();
    let mut setup = Runtime::new(Config {
        look: ascii.clone(),
        ..Config::default()
    })
    .unwrap();
    assert_ascii(&mut setup, "the new-game screen");
    setup.update(Action::Rules);
    assert_ascii(&mut setup, "the rules");
    let mut app = Runtime::new(Config {
        look: ascii.clone(),
        ..with_storage(dir.path())
    })
    .unwrap();
    play_all(&mut app, "d2-b2 c4-c2 d1-d2xc2");
    app.update(Action::Confirm);
    assert_ascii(&mut app, "a game with a selection and a capture");
    app.update(Action::TogglePanel);
    assert_ascii(&mut app, "the panel");
    app.update(Action::TogglePanel);
    app.update(Action::Help);
    assert_ascii(&mut app, "the help");
    app.update(Action::PageDown);
    assert_ascii(&mut app, "the help scrolled");
    app.update(Action::Cancel);
    app.update(Action::Quit);
    assert_ascii(&mut app, "a question");
    app.update(Action::Save);
    assert_ascii(&mut app, "the save prompt");
    app.update(Action::Cancel);
    app.update(Action::Load);
    app.update(Action::Yes);
    assert_ascii(&mut app, "the load list");
    let mut review = review_analysed_in(dir.path(), ascii);
    assert_ascii(&mut review, "the review with its graph");
    review.update(Action::Help);
    assert_ascii(&mut review, "the review's help");
    let terminal = render(&mut review, 29, 11);
    assert!(
        non_ascii(terminal.backend().buffer()).is_empty(),
        "too small"
    );
}

/// A colour as sRGB: RGB colours as they are, named ones as xterm's default palette draws
/// them, and the terminal's own colours (`Reset`) as `default`.
fn rgb(color: Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match color {
        Color::Reset => default,
        Color::Black => (0, 0, 0),
        Color::Red => (205, 0, 0),
        Color::Green => (0, 205, 0),
        Color::Yellow => (205, 205, 0),
        Color::Blue => (0, 0, 238),
        Color::Magenta => (205, 0, 205),
        Color::Cyan => (0, 205, 205),
        Color::Gray => (229, 229, 229),
        Color::DarkGray => (127, 127, 127),
        Color::LightRed => (255, 0, 0),
        Color::LightGreen => (0, 255, 0),
        Color::LightYellow => (255, 255, 0),
        Color::LightBlue => (92, 92, 255),
        Color::LightMagenta => (255, 0, 255),
        Color::LightCyan => (0, 255, 255),
        Color::White => (255, 255, 255),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => panic!("indexed colour {i} has no fixed value"),
    }
}

/// WCAG 2 relative luminance.
fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// WCAG 2 contrast ratio of two colours, 1 to 21.
fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// An sRGB colour.
type Rgb = (u8, u8, u8);
/// The (foreground, background) pairs seen, each with a character drawn so.
type Pairs = std::collections::BTreeMap<(Rgb, Rgb), String>;

/// The terminal's own colours assumed for `Reset`: light grey on black.
const TERMINAL_FG: (u8, u8, u8) = (229, 229, 229);
const TERMINAL_BG: (u8, u8, u8) = (0, 0, 0);

/// The (foreground, background) pairs of every visible character of `buf`, with one of the
/// characters drawn so.
fn drawn_pairs(buf: &Buffer, pairs: &mut Pairs) {
    for cell in &buf.content {
        // Blocks are areas (the graph's), not characters on a background.
        let block = cell
            .symbol()
            .chars()
            .all(|c| ('\u{2580}'..='\u{259f}').contains(&c));
        if cell.symbol().trim().is_empty() || block {
            continue;
        }
        let (mut fg, mut bg) = (rgb(cell.fg, TERMINAL_FG), rgb(cell.bg, TERMINAL_BG));
        if cell.modifier.contains(ratatui::style::Modifier::REVERSED) {
            std::mem::swap(&mut fg, &mut bg);
        }
        pairs
            .entry((fg, bg))
            .or_insert_with(|| cell.symbol().to_owned());
    }
}

/// Every screen of the game, with every mark, in `look`: what the contrast test reads.
fn every_screen(look: &Look, dir: &Path) -> Vec<Buffer> {
    let mut shots = Vec::new();
    let mut shoot = |app: &mut Runtime| {
        for (w, h) in [(80, 24), (30, 12)] {
            shots.push(render(app, w, h).backend().buffer().clone());
        }
    };
    let mut setup = Runtime::new(Config {
        look: look.clone(),
        ..Config::default()
    })
    .unwrap();
    shoot(&mut setup);
    setup.update(Action::Move(Direction::Up));
    setup.update(Action::Move(Direction::Up));
    shoot(&mut setup);
    setup.update(Action::Rules);
    shoot(&mut setup);
    let mut app = Runtime::new(Config {
        look: look.clone(),
        ..with_storage(dir)
    })
    .unwrap();
    play_all(&mut app, "d2-b2 c4-c2 d1-d2xc2");
    shoot(&mut app);
    // A selection with its destinations, and the cursor on a piece of each kind.
    app.update(Action::Move(Direction::Down));
    app.update(Action::Move(Direction::Down));
    app.update(Action::Confirm);
    shoot(&mut app);
    for dir in [Direction::Up, Direction::Up, Direction::Left] {
        app.update(Action::Move(dir));
        shoot(&mut app);
    }
    app.update(Action::Cancel);
    app.update(Action::Confirm);
    shoot(&mut app); // An error.
    save_as(&mut app, "first");
    play_all(&mut app, "d5-e5");
    app.update(Action::TogglePanel);
    shoot(&mut app);
    app.update(Action::TogglePanel);
    app.update(Action::Help);
    shoot(&mut app);
    app.update(Action::Cancel);
    app.update(Action::Quit);
    shoot(&mut app);
    app.update(Action::Save);
    shoot(&mut app);
    app.update(Action::Cancel);
    app.update(Action::Load);
    app.update(Action::Yes);
    shoot(&mut app); // The load list: a named save and the autosave, the first selected.
    app.update(Action::Move(Direction::Down));
    shoot(&mut app);
    app.update(Action::Cancel);
    let mut over = Runtime::new(Config {
        look: look.clone(),
        ..hot_seat()
    })
    .unwrap();
    play_all(&mut over, "a4-a3 e4-e6 a3-a2 d4-e4 a2-a3 e4-e1 a3-a2 e1-g1");
    shoot(&mut over);
    let mut review = review_analysed_in(dir, look.clone());
    shoot(&mut review);
    steps(&mut review, Action::Move(Direction::Left), 15);
    shoot(&mut review);
    review.update(Action::Analyze);
    shoot(&mut review);
    shots
}

#[test]
fn every_colour_pair_each_theme_draws_has_a_contrast_of_at_least_4_5() {
    for name in [ThemeName::Default, ThemeName::HighContrast] {
        let look = Look::new(name, true, false);
        let dir = tempfile::tempdir().unwrap();
        let mut pairs = Pairs::new();
        for buf in every_screen(&look, dir.path()) {
            drawn_pairs(&buf, &mut pairs);
        }
        // The board's marks under each piece that can stand there, whether or not a screen
        // above shows them: only the king stops on the throne and the corners, and only the
        // captured king stays on a square marked captured.
        let theme = &look.theme;
        let everyone = [theme.attacker, theme.defender, theme.king];
        let marks = [
            (theme.square[0], &everyone[..]),
            (theme.square[1], &everyone[..]),
            (theme.cursor, &everyone[..]),
            (theme.selected, &everyone[..]),
            (theme.last_move, &everyone[..]),
            (theme.hint, &everyone[..]),
            (theme.best, &everyone[..]),
            (theme.throne, &everyone[2..]),
            (theme.corner, &everyone[2..]),
            (theme.captured, &everyone[2..]),
        ];
        for (mark, pieces) in marks {
            for &piece in pieces {
                let fg = rgb(piece.fg.unwrap_or(Color::Reset), TERMINAL_FG);
                let bg = rgb(mark.bg.unwrap_or(Color::Reset), TERMINAL_BG);
                pairs
                    .entry((fg, bg))
                    .or_insert_with(|| "a piece".to_owned());
            }
        }
        let low: Vec<String> = pairs
            .iter()
            .map(|(&(fg, bg), symbol)| (contrast(fg, bg), fg, bg, symbol))
            .filter(|&(ratio, ..)| ratio < 4.5)
            .map(|(ratio, fg, bg, symbol)| format!("{symbol:?} {fg:?} on {bg:?}: {ratio:.2}"))
            .collect();
        assert!(
            low.is_empty(),
            "{name:?}: {} pairs below 4.5:1:\n{}",
            low.len(),
            low.join("\n")
        );
    }
}

#[test]
fn the_contrast_formula_matches_wcag() {
    assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
    assert!((contrast((118, 118, 118), (255, 255, 255)) - 4.54).abs() < 0.01);
}

#[test]
fn the_load_list_shows_dates_and_whole_summaries_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "a4-a3 e4-e6 a3-a2 d4-e4 a2-a3 e4-e1 a3-a2 e1-g1");
    save_as(&mut app, "escape");
    let mut app = Runtime::new(with_storage(dir.path())).unwrap();
    play_all(&mut app, "d2-e2");
    app.update(Action::Load);
    app.update(Action::Yes);
    let terminal = render(&mut app, 80, 24);
    let text = format!("{}", terminal.backend());
    let summary = "human vs human, standard, 8 plies, defenders king-escaped";
    assert!(text.contains(summary), "{text}");
    let year = jiff_year();
    assert_eq!(
        text.matches(&format!("{year}-")).count(),
        2,
        "a date on each: {text}"
    );
    // A click on the second row of the second entry selects it and loads it.
    let buf = terminal.backend().buffer();
    let [(_, y)] = find_text(buf, summary)[..] else {
        panic!("one named save")
    };
    app.update(Action::Click { column: 10, row: y });
    assert_eq!(
        app.app().mode(),
        Mode::Review,
        "the finished game, loaded: {:?}",
        app.app().status()
    );
    assert_eq!(app.app().session().moves().len(), 8);
}

/// The current year, as the dates in the load list show it.
fn jiff_year() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let stamp = brandubh::game::Timestamp::from_unix_seconds(now)
        .unwrap()
        .to_string();
    stamp[..4].to_owned()
}

/// The text of `buf`, one line a row, without trailing spaces: a screen as the README shows it.
fn screen_lines(buf: &Buffer) -> String {
    let area = buf.area;
    let mut text = String::new();
    for y in area.y..area.bottom() {
        let row: String = (area.x..area.right())
            .map(|x| buf[(x, y)].symbol())
            .collect();
        text.push_str(row.trim_end());
        text.push('\n');
    }
    text
}

/// A game in progress at 80×24: a person against the AI, the attackers to move, a piece
/// selected with its destinations.
fn mid_game_screen() -> String {
    let mut session = brandubh::tui::Session::new(
        Preset::Standard.rules(),
        brandubh::rules::Position::start(),
        Player::Human,
        Player::Ai {
            engine: brandubh::game::EngineKind::Search,
            level: brandubh::game::Level::Hard,
            time: None,
        },
    );
    for mv in "d6-f6 e4-e6 b4-b5 c4-c6 f4-f5 d5-e5 d7-c7 e6-d6 a4-a6 d4-d5".split(' ') {
        session.play_text(mv).unwrap();
    }
    let mut app = Runtime::new(Config {
        resume: Some(session),
        ..Config::default()
    })
    .unwrap();
    app.update(Action::Confirm);
    screen_lines(render(&mut app, 80, 24).backend().buffer())
}

/// The analyzed fixture in review at 80×24, at its blunder, with the evaluation graph.
fn review_screen() -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut app = review_analyzed(dir.path());
    steps(&mut app, Action::Move(Direction::Left), 15);
    screen_lines(render(&mut app, 80, 24).backend().buffer())
}

/// The README's block `name`: the text between the code fences after `<!-- screen: name -->`,
/// as a byte range.
fn readme_block(readme: &str, name: &str) -> std::ops::Range<usize> {
    let marker = format!("<!-- screen: {name} -->\n```text\n");
    let start = readme
        .find(&marker)
        .unwrap_or_else(|| panic!("README has no {marker:?}"))
        + marker.len();
    let end = start
        + readme[start..]
            .find("```\n")
            .expect("the block's closing fence");
    start..end
}

#[test]
fn the_readme_shows_the_game_as_it_is_drawn() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let mut readme = std::fs::read_to_string(path).unwrap();
    let update = std::env::var_os("UPDATE_README").is_some();
    for (name, screen) in [("mid-game", mid_game_screen()), ("review", review_screen())] {
        insta::assert_snapshot!(format!("readme_{name}"), screen);
        let block = readme_block(&readme, name);
        if update {
            readme.replace_range(block, &screen);
        } else {
            assert!(
                readme[block] == screen,
                "the README's {name} screen is not the game's: run \
                 `UPDATE_README=1 cargo test --test it tui::the_readme` and review the diff"
            );
        }
    }
    if update {
        std::fs::write(path, readme).unwrap();
    }
}

#[test]
fn the_review_plays_in_the_compact_layout_with_its_panel_behind_tab() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = review_analyzed(dir.path());
    let board = screen_lines(render(&mut app, 30, 12).backend().buffer());
    assert!(
        board.contains("Review 24/24") && board.contains("Tab panel"),
        "{board}"
    );
    // The keys wrapped on two rows, whole parts dropped to fit: the last (back) stays.
    assert!(
        board.contains("Home/End") && board.contains("v back"),
        "keys wrapped: {board}"
    );
    app.update(Action::Move(Direction::Left));
    app.update(Action::TogglePanel);
    let panel = screen_lines(render(&mut app, 30, 12).backend().buffer());
    assert!(
        panel.contains("Ply 23 of 24") && panel.contains("Tab board"),
        "{panel}"
    );
}

/// How long the load list takes to open (from `o` to the list shown, the saves read on the
/// storage thread) over the saves `brandubh match` writes: 1,000, then 10,000 of them. A
/// measurement, printed, not asserted: `cargo test --test it tui::load_list_timing -- --ignored
/// --nocapture` (with `--release` for the figures of a real build).
#[test]
#[ignore = "a measurement: writes 11,000 saves"]
fn load_list_timing() {
    for games in [1_000, 10_000] {
        let dir = tempfile::tempdir().unwrap();
        let made = std::process::Command::new(env!("CARGO_BIN_EXE_brandubh"))
            .args(["match", "--attackers", "random", "--defenders", "random"])
            .args(["--games", &games.to_string(), "--save-dir"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
        let mut app = Runtime::new(Config {
            skip_setup: true,
            storage: Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        let mut times = Vec::new();
        for _ in 0..3 {
            let start = std::time::Instant::now();
            app.update(Action::Load);
            times.push(start.elapsed());
            assert_eq!(app.app().mode(), Mode::Menu, "the list is open");
            app.update(Action::Cancel);
        }
        println!("{games} saves: the load list opened in {times:?}");
    }
}

/// The words on `app`'s screen at `width`×`height`, between blanks and borders, in order.
fn words_at(app: &mut Runtime, width: u16, height: u16) -> Vec<String> {
    let text = screen_lines(render(app, width, height).backend().buffer());
    text.split(|c: char| c.is_whitespace() || "│─┌┐└┘".contains(c))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether the words of `text` are among `words`, in order and whole.
fn shows_words(words: &[String], text: &str) -> bool {
    let mut on_screen = words.iter();
    text.split_whitespace().all(|w| on_screen.any(|s| s == w))
}

#[test]
fn names_and_comments_of_a_record_show_in_play_and_in_review() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("club.otg");
    std::fs::write(
        &record,
        "[attackers:Alice Liddell]\n[defenders:Bob]\n\
         [start-comment:A quiet opening between old friends.]\n\
         [rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n\
         1. d2-e2 c4-c5\n[The attackers open to the right|A reply on the left wing]\n",
    )
    .unwrap();
    let mut app = Runtime::new(Config {
        resume: Some(brandubh::tui::Session::load(&record).unwrap()),
        ..with_storage(dir.path())
    })
    .unwrap();
    for (width, height) in [(80, 24), (100, 30), (120, 40)] {
        let words = words_at(&mut app, width, height);
        for text in ["Alice Liddell", "Bob", "A reply on the left wing"] {
            assert!(
                shows_words(&words, text),
                "{text} at {width}x{height}: {words:?}"
            );
        }
    }
    // In the compact layout, in the panel behind Tab.
    app.update(Action::Resize {
        width: 30,
        height: 20,
    });
    app.update(Action::TogglePanel);
    let words = words_at(&mut app, 30, 20);
    for text in ["Alice Liddell", "Bob", "A reply on the left wing"] {
        assert!(shows_words(&words, text), "{text} at 30x20: {words:?}");
    }
    app.update(Action::TogglePanel);
    app.update(Action::Resize {
        width: 80,
        height: 24,
    });

    app.update(Action::Review);
    for (ply, comment) in [
        (2, "A reply on the left wing"),
        (1, "The attackers open to the right"),
        (0, "A quiet opening between old friends."),
    ] {
        for (width, height) in [(80, 24), (120, 40)] {
            let words = words_at(&mut app, width, height);
            for text in ["Alice Liddell", "Bob", comment] {
                assert!(
                    shows_words(&words, text),
                    "ply {ply}: {text} at {width}x{height}: {words:?}"
                );
            }
        }
        app.update(Action::Move(Direction::Left));
    }
}
