//! Files under hostile conditions: saves larger than the old 1 MiB limit, files of other
//! programs beside ours, outputs that are links or devices, a file size limit, a FIFO where a
//! file should be, a file where a folder should be.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use brandubh::game::storage::{self, Autosave, load, save_atomic};
use brandubh::game::{Game, Player};
use brandubh::rules::{Position, Preset};
use common::cli::{failure, success};

/// A hot-seat game of up to `plies` moves, each picked from the legal ones by a fixed rule.
fn long_game(plies: usize) -> Game {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    for i in 0..plies {
        let legal = game.state().legal_moves();
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play(legal[(i * 7 + 3) % legal.len()]).unwrap();
    }
    game
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The game as its save writes it, without white space: the size of a hand-made save.
fn minified(game: &Game) -> String {
    let value: serde_json::Value = serde_json::from_str(&game.to_json()).unwrap();
    value.to_string()
}

#[test]
fn a_save_with_a_long_comment_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = long_game(40);
    // 600,000 characters of two bytes each: more than the old limit of 1 MiB.
    game.set_comment(3, Some("é".repeat(600_000)));
    let path = dir.path().join("long.json");
    save_atomic(&path, &game).unwrap();
    assert_eq!(load(&path).unwrap(), game);
}

#[test]
fn an_autosaved_game_with_a_long_comment_is_found_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = long_game(40);
    game.set_comment(0, Some("é".repeat(600_000)));
    let mut autosave = Autosave::new();
    autosave.write(dir.path(), &game).unwrap();
    let latest = storage::latest_unfinished(dir.path(), &[]).unwrap();
    let entry = latest.expect("the autosave is there to resume");
    assert_eq!(load(&entry.path).unwrap(), game);
}

#[test]
fn a_minified_save_under_the_old_limit_exports_as_json_that_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = long_game(60);
    // A comment that brings the minified save to just under 1 MiB.
    game.set_comment(1, Some("x".into()));
    let base = minified(&game).len();
    let length = (1 << 20) - 200 - base + 1;
    game.set_comment(1, Some("x".repeat(length)));
    let small = minified(&game);
    assert!(small.len() < 1 << 20, "{}", small.len());
    let input = dir.path().join("minified.json");
    fs::write(&input, &small).unwrap();
    assert_eq!(load(&input).unwrap(), game);
    let output = dir.path().join("pretty.json");
    success(&[
        "export",
        text(&input),
        "--format",
        "json",
        "--output",
        text(&output),
    ]);
    assert!(fs::metadata(&output).unwrap().len() > 1 << 20);
    assert_eq!(load(&output).unwrap(), game);
}

/// Creates `name` in `dir`, last written `age` ago.
fn aged(dir: &Path, name: &str, age: Duration) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, "not ours").unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(SystemTime::now() - age)
        .unwrap();
    path
}

/// Hidden files of other programs that look like temporary files of a save.
const OTHERS: [&str; 2] = [".important.db.1234-7.tmp", ".vimrc.99999-1.tmp"];

#[test]
fn files_of_other_programs_that_look_like_temporary_files_are_never_removed() {
    let dir = tempfile::tempdir().unwrap();
    let two_minutes = Duration::from_secs(120);
    // In a folder an export writes to.
    let exports = dir.path().join("exports");
    fs::create_dir(&exports).unwrap();
    let mut theirs: Vec<PathBuf> = OTHERS
        .iter()
        .map(|name| aged(&exports, name, two_minutes))
        .collect();
    let game = dir.path().join("game.json");
    save_atomic(&game, &long_game(10)).unwrap();
    let out = exports.join("game.otg");
    success(&[
        "export",
        text(&game),
        "--format",
        "otg",
        "--output",
        text(&out),
    ]);
    // In the save folder and its autosave folder.
    let saves = dir.path().join("saves");
    let autosaves = saves.join(storage::AUTOSAVE_DIR);
    fs::create_dir_all(&autosaves).unwrap();
    for folder in [&saves, &autosaves] {
        theirs.extend(OTHERS.iter().map(|name| aged(folder, name, two_minutes)));
    }
    save_atomic(&saves.join("named.json"), &long_game(4)).unwrap();
    Autosave::new().write(&saves, &long_game(6)).unwrap();
    for path in &theirs {
        assert!(path.exists(), "{} was removed", path.display());
    }
}

#[test]
fn an_export_writes_through_a_link_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    save_atomic(&game, &long_game(10)).unwrap();
    let real = dir.path().join("real.otg");
    fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.otg");
    std::os::unix::fs::symlink("real.otg", &link).unwrap();
    success(&[
        "export",
        text(&game),
        "--format",
        "otg",
        "--output",
        text(&link),
    ]);
    assert!(
        fs::symlink_metadata(&link).unwrap().is_symlink(),
        "the link stays"
    );
    let expected = success(&["export", text(&game), "--format", "otg"]);
    assert_eq!(fs::read_to_string(&real).unwrap(), expected);
    // A link to a file not yet there: the file is created, the link kept.
    let dangling = dir.path().join("dangling.otg");
    std::os::unix::fs::symlink("later.otg", &dangling).unwrap();
    success(&[
        "export",
        text(&game),
        "--format",
        "otg",
        "--output",
        text(&dangling),
    ]);
    assert!(fs::symlink_metadata(&dangling).unwrap().is_symlink());
    assert_eq!(
        fs::read_to_string(dir.path().join("later.otg")).unwrap(),
        expected
    );
}

/// Makes a FIFO at `path` with the system's `mkfifo`.
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[test]
fn an_export_writes_into_a_fifo_and_to_standard_output() {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    save_atomic(&game, &long_game(10)).unwrap();
    let expected = success(&["export", text(&game), "--format", "otg"]);
    assert_eq!(
        success(&["export", text(&game), "--format", "otg", "--output", "-"]),
        expected
    );
    assert!(!Path::new("-").exists() && !dir.path().join("-").exists());
    // The reader opens first without waiting, so the export's open finds it.
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let mut reader = fs::File::options()
        .read(true)
        .custom_flags(0o4000) // O_NONBLOCK on Linux
        .open(&fifo)
        .unwrap();
    success(&[
        "export",
        text(&game),
        "--format",
        "otg",
        "--output",
        text(&fifo),
    ]);
    let mut got = String::new();
    reader.read_to_string(&mut got).unwrap();
    assert_eq!(got, expected);
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn an_export_writes_into_a_device_and_keeps_it() {
    use std::os::unix::fs::FileTypeExt;

    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    save_atomic(&game, &long_game(10)).unwrap();
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    let null = if root {
        // A twin of /dev/null of our own: the system's is never at risk.
        let null = dir.path().join("null");
        let made = Command::new("mknod")
            .arg(&null)
            .args(["c", "1", "3"])
            .status();
        assert!(made.unwrap().success());
        null
    } else {
        PathBuf::from("/dev/null")
    };
    success(&[
        "export",
        text(&game),
        "--format",
        "json",
        "--output",
        text(&null),
    ]);
    assert!(
        fs::symlink_metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    if !root {
        // A link to the standard output, as shells offer.
        let out = success(&[
            "export",
            text(&game),
            "--format",
            "otg",
            "--output",
            "/dev/stdout",
        ]);
        assert_eq!(out, success(&["export", text(&game), "--format", "otg"]));
    }
}

#[test]
fn a_file_size_limit_fails_the_export_as_a_full_disk_would() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    let mut big = long_game(60);
    big.set_start_comment(Some("a long note ".repeat(400)));
    save_atomic(&game, &big).unwrap();
    let outputs = dir.path().join("out");
    fs::create_dir(&outputs).unwrap();
    let out = outputs.join("copy.json");
    // One block of 512 or 1024 bytes, as the shell counts: less than the export.
    assert!(fs::metadata(&game).unwrap().len() > 2048);
    let run = Command::new("sh")
        .args(["-c", "ulimit -f 1 && exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_brandubh"))
        .args([
            "export",
            text(&game),
            "--format",
            "json",
            "--output",
            text(&out),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{:?}: {err}", run.status);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("copy.json"), "{err}");
    assert!(names_in(&outputs).is_empty(), "{:?}", names_in(&outputs));
}

#[test]
fn a_fifo_as_the_settings_file_is_refused_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("settings.json");
    mkfifo(&fifo);
    let (done, result) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let loaded = brandubh::tui::SettingsFile::load(path);
        let _ = done.send(loaded.2);
    });
    // A guard against a hang, not a timing: reading a FIFO waits for a writer forever.
    let warning = result.recv_timeout(Duration::from_secs(30));
    if warning.is_err() {
        // Lets the stuck reader go before failing.
        let _ = fs::write(&fifo, "{}");
    }
    let warning = warning.expect("reading the settings waits on the FIFO");
    let warning = warning.expect("a warning");
    assert!(warning.contains("not a file"), "{warning}");
    assert!(fs::symlink_metadata(&fifo).is_ok());
    // A game file that is a FIFO is refused as well.
    let game = dir.path().join("game.json");
    mkfifo(&game);
    let err = load(&game).unwrap_err();
    assert!(err.to_string().contains("not a file"), "{err}");
}

#[test]
fn a_file_where_a_folder_should_be_is_named_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    save_atomic(&game, &long_game(4)).unwrap();
    let blocker = dir.path().join("blocker");
    fs::write(&blocker, "a file").unwrap();
    for out in [
        blocker.join("out.otg"),
        blocker.join("deeper").join("out.otg"),
    ] {
        let line = failure(&[
            "export",
            text(&game),
            "--format",
            "otg",
            "--output",
            text(&out),
        ]);
        assert_eq!(
            line,
            format!(
                "brandubh: cannot save to {}: {} is a file, not a folder",
                out.display(),
                blocker.display()
            )
        );
    }
    // The save folder's autosave folder.
    let saves = dir.path().join("saves");
    fs::create_dir(&saves).unwrap();
    fs::write(saves.join(storage::AUTOSAVE_DIR), "a file").unwrap();
    let err = Autosave::new().write(&saves, &long_game(2)).unwrap_err();
    let said = err.to_string();
    assert!(
        said.ends_with(&format!(
            "{} is a file, not a folder",
            saves.join(storage::AUTOSAVE_DIR).display()
        )),
        "{said}"
    );
}

#[test]
fn a_record_with_more_comment_than_a_save_holds_is_refused_when_imported() {
    use brandubh::game::{LoadErrorKind, MAX_COMMENT_CHARS};
    let dir = tempfile::tempdir().unwrap();
    let rules = "[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]";
    let record = |comment: usize| {
        format!(
            "[start-comment:{}]\n{rules}\n\n1. d2-e2 c4-c5\n",
            "x".repeat(comment)
        )
    };
    let path = dir.path().join("long.otg");
    fs::write(&path, record(MAX_COMMENT_CHARS)).unwrap();
    assert_eq!(
        load(&path).unwrap().start_comment().map(str::len),
        Some(MAX_COMMENT_CHARS)
    );
    fs::write(&path, record(MAX_COMMENT_CHARS + 1)).unwrap();
    let err = load(&path).unwrap_err();
    assert!(
        matches!(err.kind(), LoadErrorKind::TooMuchComment(n) if *n == MAX_COMMENT_CHARS + 1),
        "{err}"
    );
    assert!(
        err.to_string().ends_with(&format!(
            "long.otg: the comments hold {} characters; a game holds at most {MAX_COMMENT_CHARS} in all",
            MAX_COMMENT_CHARS + 1
        )),
        "{err}"
    );
    // Our own format says the same.
    let mut game = long_game(4);
    game.set_start_comment(Some("x".repeat(MAX_COMMENT_CHARS + 1)));
    let err = Game::from_json(&game.to_json()).unwrap_err();
    assert!(
        matches!(err.kind(), LoadErrorKind::TooMuchComment(_)),
        "{err}"
    );
}

/// A game from random choices: moves, an analysis of some of them (the best move and a line
/// of random length from the position before), comments (any characters, control characters
/// among them, now and then a long one), maybe a clock.
fn random_game(
    choices: &[u16],
    analyzed: &[(u16, i32, i32, u8)],
    comments: &[Option<String>],
    long_comment: Option<usize>,
    clock: bool,
) -> Game {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    if clock {
        game.set_clocks(brandubh::game::Clocks::new("5m+3s".parse().unwrap()));
    }
    for &choice in choices {
        let legal = game.state().legal_moves();
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play(legal[usize::from(choice) % legal.len()]).unwrap();
    }
    let plies = game.moves().len();
    for (i, &(pick, before, after, length)) in analyzed.iter().enumerate().take(plies) {
        let mut state =
            brandubh::rules::GameState::new(*game.rules(), *game.state().start_position());
        for done in &game.moves()[..i] {
            state.play_unchecked(done.mv);
        }
        // A line of random moves from the position before, the best move first.
        let mut line = Vec::new();
        let mut walk = state.clone();
        for step in 0..usize::from(line_len(length)).max(1) {
            let legal = walk.legal_moves();
            if legal.is_empty() || walk.outcome().is_some() {
                break;
            }
            let mv = legal[(usize::from(pick) + step * 5) % legal.len()];
            walk.play_unchecked(mv);
            line.push(mv);
        }
        let annotated = state.annotate(&line);
        let Some(&best) = annotated.first() else {
            continue;
        };
        let analysis = brandubh::game::PlyAnalysis {
            score_before: brandubh::game::Score::from_value(before),
            score_after: brandubh::game::Score::from_value(after),
            best,
            pv: annotated,
            class: brandubh::game::MoveClass::ALL[usize::from(pick) % 5],
            only_move: pick % 2 == 0,
            depth: u32::from(pick),
        };
        game.set_analysis(i, &analysis).unwrap();
    }
    for (i, comment) in comments.iter().enumerate() {
        game.set_comment(i, comment.clone());
    }
    if let Some(chars) = long_comment {
        game.set_start_comment(Some("\u{1}é✓\"\\".chars().cycle().take(chars).collect()));
    }
    game
}

/// The length of an analysis line: up to 40 moves, past the 32 a game keeps.
fn line_len(pick: u8) -> u8 {
    pick % 41
}

/// Runs the command line in this process, as `brandubh ARGS`; its standard output.
fn run_cli(args: &[&str]) -> Result<Vec<u8>, String> {
    use clap::Parser;
    let cli =
        brandubh::cli::Cli::try_parse_from(std::iter::once("brandubh").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    brandubh::cli::run(cli, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// Whatever we write, we read: a save, an autosave and an export in our format each load
    /// back as the very game.
    #[test]
    fn every_save_we_produce_loads_back_equal(
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..80),
        analyzed in proptest::collection::vec(
            (
                proptest::prelude::any::<u16>(),
                -30_000..=30_000i32,
                -30_000..=30_000i32,
                proptest::prelude::any::<u8>(),
            ),
            0..30,
        ),
        comments in proptest::collection::vec(proptest::option::of("\\PC{0,30}|[\\x00-\\x1f\"\\\\]{1,8}"), 0..80),
        long_comment in proptest::option::weighted(0.25, 0..700_000usize),
        clock in proptest::prelude::any::<bool>(),
    ) {
        let game = random_game(&choices, &analyzed, &comments, long_comment, clock);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        save_atomic(&path, &game).unwrap();
        proptest::prop_assert_eq!(&load(&path).unwrap(), &game);
        let mut autosave = Autosave::new();
        autosave.write(&dir.path().join("saves"), &game).unwrap();
        proptest::prop_assert_eq!(&load(autosave.file().unwrap()).unwrap(), &game);
        let exported = dir.path().join("exported.json");
        run_cli(&["export", text(&path), "--format", "json", "--output", text(&exported)]).unwrap();
        proptest::prop_assert_eq!(&load(&exported).unwrap(), &game);
        let printed = run_cli(&["export", text(&path), "--format", "json"]).unwrap();
        proptest::prop_assert_eq!(&Game::from_json_bytes(&printed).unwrap(), &game);
    }
}
