//! The list of saves as the player uses it: the list read, then saves deleted and renamed on
//! the storage thread, each after a question or a prompt.

use std::fs::{self, File};
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::super::Overlay;
use crate::game::storage::{AUTOSAVE_DIR, Progress, save_atomic};
use crate::game::{Game, Player};
use crate::rules::{Position, Preset};
use crate::tui::Config;
use crate::tui::dialogs::Question;
use crate::tui::input::Action;
use crate::tui::runtime::Runtime;
use crate::tui::session::Storage;
use crate::tui::storage_jobs::Done;

/// A game of `plies` moves saved at `path`, written `age` seconds ago.
fn saved(path: &Path, plies: usize, age: u64) {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    for mv in ["d2-c2", "d3-e3", "c2-c1"].into_iter().take(plies) {
        game.play_text(mv).unwrap();
    }
    save_atomic(path, &game).unwrap();
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::now() - Duration::from_secs(age))
        .unwrap();
}

fn listed(rt: &Runtime) -> Vec<String> {
    let Some(Overlay::Load(list)) = rt.app.overlays.last() else {
        panic!("the list is on top: {:?}", rt.app.overlays.last())
    };
    list.entries().iter().map(|e| e.name.clone()).collect()
}

fn runtime(dir: &Path) -> Runtime {
    Runtime::new(Config {
        storage: Storage::in_dir(dir.to_owned()),
        ..Config::default()
    })
    .unwrap()
}

fn type_text(rt: &mut Runtime, text: &str) {
    for c in text.chars() {
        rt.update(Action::Type(c));
    }
}

#[test]
fn a_save_is_deleted_after_a_yes_and_renamed_to_a_free_good_name_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(format!("{name}.json"));
    saved(&path("a"), 1, 10);
    saved(&path("b"), 2, 20);
    saved(&path("taken"), 3, 30);
    let mut rt = runtime(dir.path());
    rt.update(Action::Load);
    assert_eq!(listed(&rt), ["a", "b", "taken"]);

    // Delete asks first; no keeps the file.
    rt.update(Action::Delete);
    assert!(matches!(
        rt.app.overlays.last(),
        Some(Overlay::Question(Question::Delete(save))) if save.name == "a"
    ));
    rt.update(Action::No);
    assert!(path("a").exists());
    rt.update(Action::Delete);
    rt.update(Action::Yes);
    assert!(!path("a").exists());
    assert_eq!(listed(&rt), ["b", "taken"]);
    assert_eq!(rt.app.status().unwrap().text, "deleted a");

    // Rename: a bad name is refused as typed, a name taken by the storage thread.
    rt.update(Action::Rename);
    let prompt_text = |rt: &mut Runtime| {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| rt.app.draw(f)).unwrap();
        format!("{}", terminal.backend())
    };
    rt.update(Action::Backspace);
    type_text(&mut rt, "/x");
    rt.update(Action::Confirm);
    assert!(matches!(rt.app.overlays.last(), Some(Overlay::Rename(_))));
    let shown = prompt_text(&mut rt);
    assert!(shown.contains("name: /x_"), "{shown}");
    rt.update(Action::Backspace);
    rt.update(Action::Backspace);
    type_text(&mut rt, "taken");
    rt.update(Action::Confirm);
    let shown = prompt_text(&mut rt);
    assert!(shown.contains("a save named \"taken\" exists"), "{shown}");
    assert!(path("b").exists());
    for _ in "taken".chars() {
        rt.update(Action::Backspace);
    }
    type_text(&mut rt, "kept");
    rt.update(Action::Confirm);
    assert!(!path("b").exists() && path("kept").exists());
    assert_eq!(listed(&rt), ["kept", "taken"]);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn an_autosave_renamed_becomes_a_save_under_a_name_and_the_game_in_play_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let auto = dir.path().join(AUTOSAVE_DIR).join("20260101-000000-1.json");
    saved(&auto, 1, 10);
    let mut rt = runtime(dir.path());
    rt.update(Action::Load);
    rt.update(Action::Rename);
    type_text(&mut rt, "mine");
    rt.update(Action::Confirm);
    assert!(!auto.exists() && dir.path().join("mine.json").exists());
    assert_eq!(listed(&rt), ["mine"]);
    // The game in play is loaded from it: its file is neither deleted nor renamed.
    rt.update(Action::Confirm);
    rt.update(Action::Load);
    rt.update(Action::Delete);
    assert_eq!(listed(&rt), ["mine"], "no question");
    assert!(
        rt.app
            .status()
            .unwrap()
            .text
            .contains("holds the game in play")
    );
}

#[test]
fn the_list_shows_how_far_the_saves_are_read_while_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let mut rt = runtime(dir.path());
    rt.app.ask_load();
    let progress = Progress {
        done: 100,
        total: 300,
    };
    rt.app.on_stored(Done::Reading {
        dir: dir.path().to_owned(),
        progress,
    });
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| rt.app.draw(f)).unwrap();
    let shown = format!("{}", terminal.backend());
    assert!(shown.contains("reading the saves: 100 of 300"), "{shown}");
    // A listing nobody asked for (read ahead at the start) shows nothing.
    let mut quiet = runtime(dir.path());
    quiet.app.on_stored(Done::Reading {
        dir: dir.path().to_owned(),
        progress,
    });
    assert!(quiet.app.overlays.is_empty());
}
