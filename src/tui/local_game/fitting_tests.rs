//! Every screen and message fits the terminal or wraps, at every size: no text is cut at the
//! right edge (a sentence ends with its last word whole).

use std::io::ErrorKind;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::Config;
use super::tests::type_in;
use crate::tui::App;
use crate::tui::input::Action;
use crate::tui::layout::{GameLayout, minimum_size};
use crate::tui::panels::NOT_SAVED;
use crate::tui::review::KEY_LINE;
use crate::tui::runtime::Runtime;
use crate::tui::session::Storage;
use crate::tui::settings::SettingsFile;
use ratatui::layout::Rect;

/// The sizes every screen is drawn at, from the smallest.
const SIZES: [(u16, u16); 11] = [
    (20, 6),
    (25, 10),
    (30, 12),
    (36, 14),
    (40, 15),
    (50, 18),
    (65, 16),
    (72, 20),
    (80, 24),
    (100, 30),
    (120, 40),
];

/// The words on the screen of `app` at `width`×`height`, row after row: what is between
/// blanks and the lines of borders.
fn words_on_screen(app: &App, width: u16, height: u16) -> (Vec<String>, String) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| app.draw(f)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut words = Vec::new();
    let mut rows = String::new();
    for y in 0..height {
        let row: String = (0..width)
            .map(|x| buffer[(x, y)].symbol().to_owned())
            .collect();
        words.extend(
            row.split(|c: char| c.is_whitespace() || "│─┌┐└┘├┤".contains(c))
                .filter(|w| !w.is_empty())
                .map(str::to_owned),
        );
        rows.push_str(&row);
        rows.push('\n');
    }
    (words, rows)
}

/// Whether the words of `text` are on the screen in order, each whole: on one row, or (a
/// word wider than the screen, a path) in pieces on rows one after the other.
fn shows(words: &[String], text: &str) -> bool {
    let mut from = 0;
    text.split_whitespace().all(|word| {
        let found = (from..words.len()).find_map(|i| {
            let mut joined = String::new();
            for (k, piece) in words[i..].iter().enumerate() {
                joined.push_str(piece);
                if joined == word {
                    return Some(i + k + 1);
                }
                if !word.starts_with(&joined) {
                    return None;
                }
            }
            None
        });
        found.is_some_and(|next| {
            from = next;
            true
        })
    })
}

/// A state of the game to draw, and the texts it must show whole.
struct Case {
    name: &'static str,
    rt: Runtime,
    texts: Vec<String>,
    /// Whether the texts are in the side panel, which the compact layout shows only on Tab.
    in_panel: bool,
}

/// A game in `dir`'s save folder, the new-game screen skipped unless `setup`.
fn runtime(dir: &std::path::Path, setup: bool) -> Runtime {
    Runtime::new(Config {
        skip_setup: !setup,
        storage: Storage::in_dir(dir.join("saves")),
        ..Config::default()
    })
    .unwrap()
}

/// The status line's text.
fn status(rt: &Runtime) -> String {
    rt.app.status().map(|s| s.text.clone()).unwrap_or_default()
}

/// The broken settings' warning on the new-game screen and on the game's.
fn settings_cases(dir: &std::path::Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let settings = dir
        .join("a-folder-with-a-rather-long-name")
        .join("settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{ bell: yes").unwrap();
    for setup in [true, false] {
        let (settings_file, settings, settings_warning) = SettingsFile::load(settings.clone());
        let rt = Runtime::new(Config {
            skip_setup: !setup,
            settings,
            settings_file,
            settings_warning,
            storage: Storage::in_dir(dir.join("saves")),
            ..Config::default()
        })
        .unwrap();
        let text = status(&rt);
        assert!(text.contains("settings.json"), "names the file: {text}");
        cases.push(Case {
            name: if setup {
                "broken settings, new game"
            } else {
                "broken settings, game"
            },
            rt,
            texts: vec![text],
            in_panel: false,
        });
    }
    cases
}

/// A record's names and comments, in play and in review.
fn record_cases(dir: &std::path::Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let record = dir.join("club.otg");
    std::fs::write(
        &record,
        "[attackers:Alice Pleasance Liddell of Oxford]\n[defenders:Bob]\n\
         [rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
         start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n\
         1. d2-e2 c4-c5\n[|A reply on the left wing, where the attackers are thin]\n",
    )
    .unwrap();
    for review in [false, true] {
        let mut rt = Runtime::new(Config {
            resume: Some(crate::tui::session::Session::load(&record).unwrap()),
            storage: Storage::in_dir(dir.join("saves")),
            ..Config::default()
        })
        .unwrap();
        if review {
            rt.update(Action::Review);
        }
        cases.push(Case {
            name: if review { "record, review" } else { "record" },
            rt,
            texts: vec![
                "Alice Pleasance Liddell of Oxford".to_owned(),
                "A reply on the left wing, where the attackers are thin".to_owned(),
            ],
            in_panel: true,
        });
    }

    cases
}

/// The game's screens, dialogs and messages.
fn cases(dir: &std::path::Path) -> Vec<Case> {
    let mut cases = settings_cases(dir);
    cases.extend(record_cases(dir));
    let mut rt = runtime(dir, false);
    type_in(&mut rt, "d2-e2");
    let texts = vec![status(&rt)];
    cases.push(Case {
        name: "a move",
        rt,
        texts,
        in_panel: false,
    });

    let mut rt = runtime(dir, false);
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Resign);
    rt.update(Action::Yes);
    let texts = vec![status(&rt)];
    cases.push(Case {
        name: "game over",
        rt,
        texts,
        in_panel: false,
    });

    let mut rt = runtime(dir, false);
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Review);
    assert!(rt.app.status().is_none(), "the keys show");
    // The keys drop whole parts to fit, the first and the last (how to leave) stay.
    let first = KEY_LINE.split(" · ").next().unwrap().to_owned();
    let last = KEY_LINE.rsplit(" · ").next().unwrap().to_owned();
    cases.push(Case {
        name: "review",
        rt,
        texts: vec![first, last],
        in_panel: false,
    });

    for in_panel in [false, true] {
        let mut rt = runtime(dir, false);
        type_in(&mut rt, "d2-e2");
        rt.fail_writes(Some(ErrorKind::StorageFull));
        type_in(&mut rt, "c4-c5");
        // The failure said on the status line.
        rt.app.status = None;
        rt.app.changed();
        rt.carry_out_asked();
        assert!(
            status(&rt).starts_with("autosave failed"),
            "{}",
            status(&rt)
        );
        let texts = if in_panel {
            vec!["Not saved: autosave failed".to_owned()]
        } else {
            vec![NOT_SAVED.trim().to_owned(), status(&rt)]
        };
        cases.push(Case {
            name: if in_panel {
                "autosave failed, panel"
            } else {
                "autosave failed"
            },
            rt,
            texts,
            in_panel,
        });
    }

    let mut rt = runtime(dir, false);
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Quit);
    let texts = vec![
        "Quit anyway?".to_owned(),
        "The game is not saved to a file;".to_owned(),
    ];
    cases.push(Case {
        name: "quit question",
        rt,
        texts,
        in_panel: false,
    });

    let mut rt = runtime(dir, false);
    type_in(&mut rt, "d2-e2");
    rt.update(Action::Save);
    let texts = vec!["Esc cancel".to_owned()];
    cases.push(Case {
        name: "save prompt",
        rt,
        texts,
        in_panel: false,
    });

    cases
}

#[test]
fn every_screen_and_message_fits_or_wraps_at_every_size() {
    let dir = tempfile::tempdir().unwrap();
    let (min_width, min_height) = minimum_size();
    let mut cut = Vec::new();
    for mut case in cases(dir.path()) {
        for (width, height) in SIZES {
            case.rt.update(Action::Resize { width, height });
            let (words, rows) = words_on_screen(&case.rt.app, width, height);
            let too_small = width < min_width || height < min_height;
            let texts = if too_small {
                vec![
                    format!("enlarge the terminal to {min_width}×{min_height}"),
                    format!("now {width}×{height}"),
                ]
            } else if case.in_panel
                && GameLayout::new(Rect::new(0, 0, width, height)).is_some_and(|l| l.is_compact())
            {
                Vec::new()
            } else {
                case.texts.clone()
            };
            for text in texts {
                if !shows(&words, &text) {
                    cut.push(format!(
                        "{} at {width}x{height}: {text:?} not whole in\n{rows}",
                        case.name
                    ));
                }
            }
        }
    }
    assert!(cut.is_empty(), "{} cut:\n{}", cut.len(), cut.join("\n"));
}
