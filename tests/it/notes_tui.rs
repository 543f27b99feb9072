//! Comments and tags in the terminal game: the comment editor and the tags form in snapshots
//! (at 80×24 and at the smallest size), the review showing them, and a game's comments and
//! tags kept through a save and a load.

use brandubh::game::{Game, Place, Tag};
use brandubh::tui::{Action, Config, Direction, Mode, Runtime, Session, Storage};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const TWO_PARAGRAPHS: &str = "The defenders give up c2 to open the b file.\n\nA second \
                              paragraph: the king heads for a7.";

/// A hot-seat game of a few moves saved in `dir`.
fn game_in(dir: &std::path::Path) -> Runtime {
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.to_owned()),
        ..Config::default()
    })
    .unwrap();
    for mv in ["d2-b2", "c4-c2", "d1-d2xc2", "d3-e3"] {
        rt.update(Action::StartTyping);
        for c in mv.chars() {
            rt.update(Action::Type(c));
        }
        rt.update(Action::Confirm);
    }
    rt
}

fn write(rt: &mut Runtime, text: &str) {
    for c in text.chars() {
        rt.update(Action::Type(c));
    }
}

fn render(rt: &mut Runtime, width: u16, height: u16) -> Terminal<TestBackend> {
    rt.update(Action::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| rt.draw(frame)).unwrap();
    terminal
}

/// The review at ply 3 with a comment being written on it.
fn writing(dir: &std::path::Path) -> Runtime {
    let mut rt = game_in(dir);
    rt.update(Action::Review);
    rt.update(Action::Move(Direction::Left));
    rt.update(Action::Comment);
    write(&mut rt, TWO_PARAGRAPHS);
    rt
}

/// Writes the tags: event, date, both names, annotator.
fn fill_tags(rt: &mut Runtime) {
    rt.update(Action::Tags);
    write(rt, "Club night");
    rt.update(Action::Move(Direction::Down));
    write(rt, "Dublin");
    rt.update(Action::Move(Direction::Down));
    write(rt, "2026.12.02");
    rt.update(Action::Move(Direction::Down));
    write(rt, "Alice");
    rt.update(Action::Move(Direction::Down));
    write(rt, "Bob");
    rt.update(Action::Move(Direction::Down));
    write(rt, "Carol");
}

#[test]
fn the_comment_editor_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = writing(dir.path());
    let text = format!("{}", render(&mut rt, 80, 24).backend());
    assert!(text.contains("Comment on 2. d1-d2xc2"), "{text}");
    assert!(text.contains("Ctrl-S or Alt-Enter save"), "{text}");
    assert!(text.contains(&format!("{}/4000", TWO_PARAGRAPHS.chars().count())));
    insta::assert_snapshot!(text);
}

#[test]
fn the_comment_editor_at_the_minimum_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = writing(dir.path());
    let (w, h) = brandubh::tui::minimum_size();
    let text = format!("{}", render(&mut rt, w, h).backend());
    assert!(text.contains("Ctrl-S save"), "{text}");
    assert!(
        text.contains("king heads"),
        "the cursor's row in view: {text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn the_tags_form_at_80x24_and_at_the_minimum_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = game_in(dir.path());
    rt.update(Action::Review);
    fill_tags(&mut rt);
    assert_eq!(rt.app().mode(), Mode::Text);
    let text = format!("{}", render(&mut rt, 80, 24).backend());
    assert!(text.contains("annotator: Carol_"), "{text}");
    insta::assert_snapshot!("the_tags_form_at_80x24", text);
    let (w, h) = brandubh::tui::minimum_size();
    let text = format!("{}", render(&mut rt, w, h).backend());
    assert!(text.contains("Esc cancel"), "{text}");
    insta::assert_snapshot!("the_tags_form_at_the_minimum_size", text);
}

#[test]
fn the_review_shows_the_tags_the_comment_and_marks_commented_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = writing(dir.path());
    rt.update(Action::Save);
    fill_tags(&mut rt);
    rt.update(Action::Confirm);
    assert_eq!(rt.app().mode(), Mode::Review);
    let text = format!("{}", render(&mut rt, 80, 24).backend());
    for shown in [
        "Club night · Dublin ·",
        "2026.12.02",
        "notes by Carol",
        "Alice",
        "The defenders give up",
        "¶d1-d2xc2",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
    insta::assert_snapshot!("review_with_tags_and_a_comment_at_80x24", text);
    let (w, h) = brandubh::tui::minimum_size();
    rt.update(Action::Resize {
        width: w,
        height: h,
    });
    rt.update(Action::TogglePanel);
    let text = format!("{}", render(&mut rt, w, h).backend());
    assert!(
        !text.contains("Club night"),
        "no room for the header: {text}"
    );
    assert!(text.contains("Ply 3 of 4"), "the ply first: {text}");
    insta::assert_snapshot!("review_with_tags_and_a_comment_at_the_minimum_size", text);
}

#[test]
fn comments_and_tags_written_in_the_game_are_saved_and_loaded_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = writing(dir.path());
    rt.update(Action::Save);
    rt.update(Action::ToStart);
    rt.update(Action::Comment);
    write(&mut rt, "Before the first move.");
    rt.update(Action::Save);
    fill_tags(&mut rt);
    rt.update(Action::Confirm);
    let game = rt.app().session().game().clone();
    // Our JSON keeps them...
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.comment_at(&Place::main(3)), Some(TWO_PARAGRAPHS));
    assert_eq!(back.start_comment(), Some("Before the first move."));
    assert_eq!(back.tags(), game.tags());
    for (tag, value) in [
        (Tag::Event, "Club night"),
        (Tag::Site, "Dublin"),
        (Tag::Date, "2026.12.02"),
        (Tag::Attackers, "Alice"),
        (Tag::Defenders, "Bob"),
        (Tag::Annotator, "Carol"),
    ] {
        assert_eq!(back.tags().get(tag), Some(value), "{tag}");
    }
    // ...and so does a file written with it and loaded again.
    let file = dir.path().join("noted.json");
    brandubh::game::storage::save_atomic(&file, &game).unwrap();
    let loaded = Session::load(&file).unwrap();
    assert_eq!(loaded.game().to_json(), game.to_json());
}

#[test]
fn opentafls_2015_record_opens_in_review_with_its_result_and_its_tags() {
    let dir = tempfile::tempdir().unwrap();
    let record =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/otg/triathlon-2015.otg");
    let mut rt = Runtime::new(Config {
        skip_setup: true,
        storage: Storage::in_dir(dir.path().to_owned()),
        resume: Some(Session::load(&record).unwrap()),
        ..Config::default()
    })
    .unwrap();
    assert_eq!(rt.app().mode(), Mode::Review);
    let text = format!("{}", render(&mut rt, 100, 32).backend());
    for shown in [
        "2015 Tafl Triathlon",
        "2015.08.15",
        "round: 2",
        "Black resigns",
        "Defenders win",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
}
