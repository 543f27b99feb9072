//! Saving and loading games: the example games, a corpus of hostile files, round trips of
//! random games, fuzzing of the loader, and `brandubh replay FILE.json`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use brandubh::game::storage::{self, load, save_atomic};
use brandubh::game::{
    AnalysisError, EngineKind, Game, Level, LoadError, LoadErrorKind, MAX_PLIES, MAX_SAVE_BYTES,
    MoveTime, Place, Player, Timestamp,
};
use brandubh::rules::{
    IllegalMove, MoveError, Outcome, ParseMoveError, Position, Preset, Reason, Repetition, Rules,
    SetupError, Side,
};
use proptest::prelude::*;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/games")
        .join(name)
}

#[test]
fn every_example_game_loads_with_its_ending_and_saves_back_identically() {
    let expected = [
        ("escape.json", Side::Defenders, Reason::KingEscaped),
        ("king-capture.json", Side::Attackers, Reason::KingCaptured),
        ("encirclement.json", Side::Attackers, Reason::Encircled),
        ("repetition.json", Side::Defenders, Reason::Repetition),
        (
            "custom-rules-resignation.json",
            Side::Defenders,
            Reason::Resignation,
        ),
    ];
    let mut names: Vec<String> = fs::read_dir(asset(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut listed: Vec<&str> = expected.iter().map(|(n, ..)| *n).collect();
    listed.sort_unstable();
    assert_eq!(names, listed, "every example is checked here");
    for (name, winner, reason) in expected {
        let path = asset(name);
        let game = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.outcome(), Some(Outcome::win(winner, reason)), "{name}");
        assert!(game.moves().len() >= 10, "{name}: a whole game");
        assert_eq!(
            as_written_by_0_1_0(&game.to_json()),
            fs::read_to_string(&path).unwrap(),
            "{name}"
        );
    }
    let repetition = load(&asset("repetition.json")).unwrap();
    assert_eq!(repetition.state().occurrences(), 3);
    let custom = load(&asset("custom-rules-resignation.json")).unwrap();
    assert_eq!(custom.preset(), None);
    assert!(custom.rules().encirclement && !custom.rules().corners_hostile_to_king);
}

/// A save written now, as version 0.1.0 (which wrote the examples) would have written it.
fn as_written_by_0_1_0(text: &str) -> String {
    let ours = format!(
        "\"program\": \"brandubh\",\n    \"version\": \"{}\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(text.contains(&ours), "{text}");
    text.replacen(
        &ours,
        "\"program\": \"brandubh\",\n    \"version\": \"0.1.0\"",
        1,
    )
}

/// This program, as the `generator` of the saves it writes.
fn our_generator() -> Value {
    serde_json::json!({"program": "brandubh", "version": env!("CARGO_PKG_VERSION")})
}

#[test]
fn the_generator_is_optional_and_a_save_written_again_names_this_program() {
    let mut save: Value =
        serde_json::from_str(&fs::read_to_string(asset("escape.json")).unwrap()).unwrap();
    assert_eq!(save["generator"]["program"], "brandubh");
    let expected = load(&asset("escape.json")).unwrap();
    let foreign = serde_json::json!({"program": "other tafl", "version": "7.2-beta"});
    for generator in [None, Some(Value::Null), Some(foreign)] {
        match &generator {
            Some(value) => save["generator"] = value.clone(),
            None => {
                save.as_object_mut().unwrap().remove("generator");
            }
        }
        let game =
            Game::from_json(&save.to_string()).unwrap_or_else(|e| panic!("{generator:?}: {e}"));
        assert_eq!(game, expected, "{generator:?}");
        let written: Value = serde_json::from_str(&game.to_json()).unwrap();
        assert_eq!(written["generator"], our_generator(), "{generator:?}");
    }
}

type Check = fn(&LoadErrorKind) -> bool;

/// Each hostile file, what its error must be, and words its message must contain.
#[rustfmt::skip]
const CORPUS: &[(&str, Check, &str)] = &[
    ("empty.json", |k| matches!(k, LoadErrorKind::Empty), "the file is empty"),
    ("whitespace-only.json", |k| matches!(k, LoadErrorKind::Empty), "empty"),
    ("not-json.json", |k| matches!(k, LoadErrorKind::Unrecognised { line: 1, column: 1, .. }), "not a saved game, an OpenTafl record or a move record: line 1 column 1: \"brandubh\" starts none of them"),
    ("truncated.json", |k| matches!(k, LoadErrorKind::Truncated { line: 21, .. }), "line 21 column 10: the JSON ends too early"),
    ("trailing-garbage.json", |k| matches!(k, LoadErrorKind::Syntax { line: 41, .. }), "trailing characters"),
    ("single-quotes.json", |k| matches!(k, LoadErrorKind::Syntax { line: 2, column: 3, .. }), "key must be a string"),
    ("array.json", |k| matches!(k, LoadErrorKind::NotAnObject("an array")), "expected a JSON object, found an array"),
    ("null.json", |k| matches!(k, LoadErrorKind::NotAnObject("null")), "found null"),
    ("string.json", |k| matches!(k, LoadErrorKind::NotAnObject("a string")), "found a string"),
    ("missing-format.json", |k| matches!(k, LoadErrorKind::Format(None)), "\"format\" is missing"),
    ("wrong-format.json", |k| matches!(k, LoadErrorKind::Format(Some(f)) if f == "\"chess-game\""), "\"format\" is \"chess-game\", expected \"brandubh-game\""),
    ("format-number.json", |k| matches!(k, LoadErrorKind::Format(Some(f)) if f == "1"), "\"format\" is 1"),
    ("newer-version.json", |k| matches!(k, LoadErrorKind::NewerVersion(2)), "version 2 is newer than this program reads (version 1)"),
    ("version-string.json", |k| matches!(k, LoadErrorKind::BadVersion(Some(v)) if v == "\"1\""), "\"version\" is \"1\", expected the number 1"),
    ("version-zero.json", |k| matches!(k, LoadErrorKind::BadVersion(Some(v)) if v == "0"), "\"version\" is 0"),
    ("version-negative.json", |k| matches!(k, LoadErrorKind::BadVersion(Some(v)) if v == "-1"), "\"version\" is -1"),
    ("version-fraction.json", |k| matches!(k, LoadErrorKind::BadVersion(Some(v)) if v == "1.5"), "\"version\" is 1.5"),
    ("missing-version.json", |k| matches!(k, LoadErrorKind::BadVersion(None)), "\"version\" is missing"),
    ("version-overflow.json", |k| matches!(k, LoadErrorKind::Syntax { line: 3, .. }), "number out of range"),
    ("generator-not-object.json", |k| matches!(k, LoadErrorKind::Field { line: 4, .. }), "invalid type: string \"brandubh 0.1.0\", expected struct Generator"),
    ("generator-unknown-field.json", |k| matches!(k, LoadErrorKind::Field { line: 7, .. }), "unknown field `url`, expected `program` or `version`"),
    ("generator-missing-version.json", |k| matches!(k, LoadErrorKind::Field { line: 6, .. }), "missing field `version`"),
    ("missing-moves.json", |k| matches!(k, LoadErrorKind::Field { line: 22, .. }), "missing field `moves`"),
    ("moves-not-array.json", |k| matches!(k, LoadErrorKind::Field { line: 6, .. }), "expected a sequence"),
    ("move-number.json", |k| matches!(k, LoadErrorKind::Field { line: 9, .. }), "invalid type: integer `42`, expected a string"),
    ("unknown-field.json", |k| matches!(k, LoadErrorKind::Field { line: 40, .. }), "unknown field `comment`"),
    ("duplicate-field.json", |k| matches!(k, LoadErrorKind::Field { line: 5, .. }), "duplicate field `rules`"),
    ("duplicate-version.json", |k| matches!(k, LoadErrorKind::Field { line: 4, .. }), "line 4 column 11: duplicate field `version`"),
    ("duplicate-format.json", |k| matches!(k, LoadErrorKind::Field { line: 3, .. }), "line 3 column 10: duplicate field `format`"),
    ("duplicate-rules-parameter.json", |k| matches!(k, LoadErrorKind::Field { line: 17, .. }), "line 17 column 18: duplicate field `encirclement`"),
    ("unknown-preset.json", |k| matches!(k, LoadErrorKind::UnknownPreset(p) if p == "brandub"), "rules: unknown preset \"brandub\""),
    ("rules-number.json", |k| matches!(k, LoadErrorKind::BadRules(_)), "rules: expected a preset name or an object of parameters, found a number"),
    ("rules-incomplete.json", |k| matches!(k, LoadErrorKind::BadRules(_)), "rules: missing field `encirclement`"),
    ("rules-bad-value.json", |k| matches!(k, LoadErrorKind::BadRules(_)), "rules: unknown variant `sometimes`"),
    ("rules-unknown-parameter.json", |k| matches!(k, LoadErrorKind::BadRules(_)), "rules: unknown field `king_flies`"),
    ("bad-start.json", |k| matches!(k, LoadErrorKind::Start { error: SetupError::RankLength { rank: 4, squares: 8 }, .. }), "rank 4 describes 8 squares"),
    ("start-two-kings.json", |k| matches!(k, LoadErrorKind::Start { error: SetupError::SecondKing(_), .. }), "a second king on e4"),
    ("bad-square.json", |k| matches!(k, LoadErrorKind::Move { number: 12, error: MoveError::Parse(ParseMoveError::Square(_)), .. }), "move 12 \"e4-e9\": e9 is not on the board"),
    ("not-a-move.json", |k| matches!(k, LoadErrorKind::Move { number: 4, error: MoveError::Parse(ParseMoveError::Malformed(_)), .. }), "move 4 \"king to d5\": \"king to d5\" is not a move"),
    ("control-characters.json", |k| matches!(k, LoadErrorKind::Move { number: 4, .. }), "move 4 \"d4-d5\\0\\u{1b}[2J\""),
    ("illegal-move.json", |k| matches!(k, LoadErrorKind::Move { number: 1, error: MoveError::Illegal(IllegalMove::NotYourPiece(_)), .. }), "move 1 \"d4-d6\": illegal move: the piece on d4 belongs to the other side"),
    ("blocked-move.json", |k| matches!(k, LoadErrorKind::Move { number: 1, error: MoveError::Illegal(IllegalMove::Blocked(..)), .. }), "d7-d5 is blocked by the piece on d6"),
    ("wrong-capture.json", |k| matches!(k, LoadErrorKind::Move { number: 1, error: MoveError::WrongCaptures { .. }, .. }), "captures e7 listed, but the move captures nothing"),
    ("missing-listed-capture.json", |k| matches!(k, LoadErrorKind::Move { number: 5, error: MoveError::WrongCaptures { .. }, .. }), "captures e4/e5 listed, but the move is f7-f4xe4"),
    ("duplicate-capture.json", |k| matches!(k, LoadErrorKind::Move { number: 5, error: MoveError::Parse(ParseMoveError::DuplicateCapture(_)), .. }), "capture e4 is listed twice"),
    ("wrong-end-mark.json", |k| matches!(k, LoadErrorKind::Move { number: 16, error: MoveError::WrongMark(_), .. }), "wrong end mark: the move is c7-a7--"),
    ("false-end-mark.json", |k| matches!(k, LoadErrorKind::Move { number: 14, error: MoveError::WrongMark(_), .. }), "end mark given, but the move c4-c7 does not end the game"),
    ("move-after-end.json", |k| matches!(k, LoadErrorKind::Move { number: 17, error: MoveError::Illegal(IllegalMove::GameOver), .. }), "move 17 \"e4-e5\": illegal move: the game is over"),
    ("result-disagrees.json", |k| matches!(k, LoadErrorKind::ResultMismatch { recorded: Some(_), replayed: Some(_) }), "the file says \"attackers king-captured\", but the moves end the game with \"defenders king-escaped\""),
    ("result-null-but-over.json", |k| matches!(k, LoadErrorKind::ResultMismatch { recorded: None, replayed: Some(_) }), "the file says null (ongoing), but the moves end the game"),
    ("result-claimed-not-over.json", |k| matches!(k, LoadErrorKind::ResultMismatch { recorded: Some(_), replayed: None }), "after the moves the game is not over"),
    ("impossible-resignation.json", |k| matches!(k, LoadErrorKind::ImpossibleResult(Outcome { winner: None, reason: Reason::Resignation })), "a resignation has a winner"),
    ("impossible-timeout.json", |k| matches!(k, LoadErrorKind::ImpossibleResult(Outcome { winner: None, reason: Reason::Time })), "result \"draw time\" is impossible: a loss on time has a winner"),
    ("impossible-agreement.json", |k| matches!(k, LoadErrorKind::ImpossibleResult(Outcome { winner: Some(_), reason: Reason::Agreement })), "it is a draw, with no winner"),
    ("resigned-after-the-end.json", |k| matches!(k, LoadErrorKind::ResultMismatch { recorded: Some(Outcome { reason: Reason::Resignation, .. }), replayed: Some(_) }), "\"attackers resignation\", but the moves end the game"),
    ("result-unknown-reason.json", |k| matches!(k, LoadErrorKind::Field { line: 36, .. }), "unknown variant `checkmate`"),
    ("result-missing-winner.json", |k| matches!(k, LoadErrorKind::Field { line: 36, .. }), "missing field `winner`"),
    ("missing-result.json", |k| matches!(k, LoadErrorKind::Field { .. }), "missing field `result`"),
    ("bad-timestamp.json", |k| matches!(k, LoadErrorKind::Timestamp { field: "created", .. }), "created: \"yesterday\" is not an RFC 3339 time"),
    ("impossible-date.json", |k| matches!(k, LoadErrorKind::Timestamp { field: "updated", .. }), "updated: \"2026-02-30T12:00:00Z\""),
    ("bad-player.json", |k| matches!(k, LoadErrorKind::Field { line: 31, .. }), "unknown variant `robot`, expected one of `human`, `ai`, `program`"),
    ("bad-level.json", |k| matches!(k, LoadErrorKind::Field { line: 29, .. }), "unknown variant `godlike`"),
    ("bad-move-time.json", |k| matches!(k, LoadErrorKind::Field { .. }), "unknown variant `5s`, expected one of `1s`, `3s`, `10s`"),
    ("move-time-for-hard.json", |k| matches!(k, LoadErrorKind::Field { .. }), "a move time is only for the search engine at level max"),
    ("human-with-fields.json", |k| matches!(k, LoadErrorKind::Field { line: 35, .. }), "unknown field `level`, there are no fields"),
    ("missing-player.json", |k| matches!(k, LoadErrorKind::Field { line: 30, .. }), "missing field `defenders`"),
    ("deeply-nested.json", |k| matches!(k, LoadErrorKind::TooDeep { line: 1, .. }), "nested too deeply"),
    ("deeply-nested-unclosed.json", |k| matches!(k, LoadErrorKind::TooDeep { line: 1, .. }), "nested too deeply"),
    ("invalid-utf8.json", |k| matches!(k, LoadErrorKind::NotUtf8 { line: 8, column: 6 }), "line 8 column 6: not UTF-8 text"),
    ("utf16.json", |k| matches!(k, LoadErrorKind::NotUtf8 { line: 1, column: 1 }), "not UTF-8 text"),
    ("tags-control-character.json", |k| matches!(k, LoadErrorKind::Field { line: 41, .. }), "site: \"Dublin\\u{1b}[2J\" holds a control character"),
    ("clock-overtime-no-periods.json", |k| matches!(k, LoadErrorKind::Field { line: 45, .. }), "the attackers' clock has no overtime period left but 20000 ms in it"),
    ("clock-zero-main-time.json", |k| matches!(k, LoadErrorKind::Field { line: 33, .. }), "the main time must be more than zero"),
    ("analysis-length.json", |k| matches!(k, LoadErrorKind::AnalysisLength { entries: 2, moves: 16 }), "analysis: 2 entries for 16 moves"),
    ("analysis-not-an-array.json", |k| matches!(k, LoadErrorKind::Field { line: 40, .. }), "invalid type: map, expected a sequence"),
    ("analysis-unknown-class.json", |k| matches!(k, LoadErrorKind::Field { line: 42, .. }), "unknown variant `brilliant`"),
    ("analysis-missing-field.json", |k| matches!(k, LoadErrorKind::Field { line: 51, .. }), "missing field `depth`"),
    ("analysis-score-out-of-range.json", |k| matches!(k, LoadErrorKind::Analysis { number: 2, error: AnalysisError::ScoreOutOfRange { field: "score_before", value: 40_000 } }), "analysis of move 2: score_before 40000 is out of range (-30000 to 30000)"),
    ("analysis-illegal-best.json", |k| matches!(k, LoadErrorKind::Analysis { number: 3, error: AnalysisError::Best { error: MoveError::Illegal(IllegalMove::NotYourPiece(_)), .. } }), "analysis of move 3: best move \"d4-d5\": illegal move: the piece on d4 belongs to the other side"),
    ("analysis-wrong-capture.json", |k| matches!(k, LoadErrorKind::Analysis { number: 1, error: AnalysisError::Best { error: MoveError::WrongCaptures { .. }, .. } }), "best move \"d7-f7xf6\": captures f6 listed, but the move captures nothing"),
    ("analysis-bad-line.json", |k| matches!(k, LoadErrorKind::Analysis { number: 1, error: AnalysisError::Line { number: 2, .. } }), "analysis of move 1: pv move 2 \"d7-d6\": illegal move: there is no piece on d7"),
    ("analysis-line-past-the-end.json", |k| matches!(k, LoadErrorKind::Analysis { number: 16, error: AnalysisError::Line { number: 2, error: MoveError::Illegal(IllegalMove::GameOver), .. } }), "pv move 2 \"f4-f5\": illegal move: the game is over"),
];

#[test]
fn hostile_files_each_get_their_own_one_line_error() {
    assert!(CORPUS.len() >= 30);
    for (name, check, words) in CORPUS {
        let path = data(name);
        let err = match load(&path) {
            Ok(game) => panic!("{name} loaded: {}", game.summary()),
            Err(e) => e,
        };
        assert!(check(err.kind()), "{name}: {:?}", err.kind());
        assert_eq!(err.path(), Some(path.as_path()), "{name}");
        let text = err.to_string();
        assert!(text.starts_with(&format!("{}: ", path.display())), "{text}");
        assert!(text.contains(words), "{name}: {text:?} lacks {words:?}");
        assert!(!text.contains('\n') && !text.contains('\u{1b}'), "{text:?}");
        assert!(text.chars().count() < 600, "{name}: {} chars", text.len());
        // The same bytes in memory give the same problem, without the path.
        let bytes = fs::read(&path).unwrap();
        let in_memory = brandubh::game::import::read(&bytes).unwrap_err();
        assert!(check(in_memory.kind()) && in_memory.path().is_none());
    }
}

#[test]
fn every_file_of_the_corpus_is_checked() {
    // Folders hold other programs' records (tests/it/import.rs).
    let mut names: Vec<String> = fs::read_dir(data(""))
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut checked: Vec<&str> = CORPUS.iter().map(|(n, ..)| *n).collect();
    checked.push("utf8-bom.json");
    checked.sort_unstable();
    assert_eq!(names, checked);
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let game = load(&data("utf8-bom.json")).unwrap();
    assert_eq!(game, load(&asset("escape.json")).unwrap());
}

#[test]
fn a_huge_file_is_refused_by_its_size_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    // Sparse: 100 MB on paper, nothing on disk.
    fs::File::create(&path)
        .unwrap()
        .set_len(100_000_000)
        .unwrap();
    let err = load(&path).unwrap_err();
    assert!(
        matches!(err.kind(), LoadErrorKind::TooLarge(100_000_000)),
        "{err}"
    );
    assert!(err.to_string().contains("100000000 bytes"), "{err}");
    fs::File::create(&path)
        .unwrap()
        .set_len(MAX_SAVE_BYTES + 1)
        .unwrap();
    assert!(matches!(
        load(&path).unwrap_err().kind(),
        LoadErrorKind::TooLarge(_)
    ));
    // The same limit holds for text in memory.
    let mut text = fs::read_to_string(asset("escape.json")).unwrap();
    text.push_str(&" ".repeat(usize::try_from(MAX_SAVE_BYTES).unwrap()));
    assert!(matches!(
        Game::from_json(&text).unwrap_err().kind(),
        LoadErrorKind::TooLarge(n) if *n == text.len() as u64
    ));
}

#[test]
fn a_save_of_exactly_the_size_limit_loads() {
    let expected = load(&asset("escape.json")).unwrap();
    let mut text = fs::read_to_string(asset("escape.json")).unwrap();
    let limit = usize::try_from(MAX_SAVE_BYTES).unwrap();
    text.push_str(&" ".repeat(limit - text.len()));
    assert_eq!(text.len(), limit);
    assert_eq!(Game::from_json(&text).unwrap(), expected);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("padded.json");
    fs::write(&path, &text).unwrap();
    assert_eq!(load(&path).unwrap(), expected);
    // One byte more is too many, in memory and in a file.
    text.push(' ');
    assert!(matches!(
        Game::from_json(&text).unwrap_err().kind(),
        LoadErrorKind::TooLarge(n) if *n == MAX_SAVE_BYTES + 1
    ));
    fs::write(&path, &text).unwrap();
    assert!(matches!(
        load(&path).unwrap_err().kind(),
        LoadErrorKind::TooLarge(n) if *n == MAX_SAVE_BYTES + 1
    ));
}

#[test]
fn folders_and_missing_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = load(dir.path()).unwrap_err();
    assert!(matches!(err.kind(), LoadErrorKind::NotAFile), "{err}");
    let err = load(&dir.path().join("nowhere.json")).unwrap_err();
    assert!(matches!(err.kind(), LoadErrorKind::Unreadable(_)), "{err}");
    assert!(
        err.to_string()
            .contains("nowhere.json: cannot read the file")
    );
}

#[test]
fn too_many_moves_are_refused_before_replaying() {
    let mut save: Value =
        serde_json::from_str(&fs::read_to_string(asset("escape.json")).unwrap()).unwrap();
    save["moves"] = Value::Array(vec![Value::from("d2-c2"); MAX_PLIES + 1]);
    save["result"] = Value::Null;
    let err = Game::from_json(&save.to_string()).unwrap_err();
    assert!(
        matches!(err.kind(), LoadErrorKind::TooManyMoves(n) if *n == MAX_PLIES + 1),
        "{err}"
    );
    // At the limit the moves are replayed: the second `d2-c2` finds d2 empty.
    save["moves"] = Value::Array(vec![Value::from("d2-c2"); MAX_PLIES]);
    let err = Game::from_json(&save.to_string()).unwrap_err();
    assert!(
        matches!(err.kind(), LoadErrorKind::Move { number: 2, .. }),
        "{err}"
    );
}

fn player(n: u8) -> Player {
    let level = Level::ALL[usize::from(n / 2) % Level::ALL.len()];
    // The search at max, with one of its move times or none.
    let time = (level == Level::Max)
        .then(|| MoveTime::ALL.get(usize::from(n / 8) % 4).copied())
        .flatten();
    match n % 3 {
        0 => Player::Human,
        1 => Player::Ai {
            engine: EngineKind::Search,
            level,
            time,
        },
        _ => Player::Ai {
            engine: EngineKind::Random,
            level,
            time: None,
        },
    }
}

/// A game from random choices: the rules (a preset, or a custom set), a start position
/// reached by `lead` moves, up to `choices.len()` moves, some undone, and maybe an ending.
fn random_game(
    rules_pick: u8,
    lead: u8,
    choices: &[u16],
    undos: u8,
    ending: u8,
    players: (u8, u8),
) -> Game {
    let rules = match usize::from(rules_pick) {
        i if i < Preset::ALL.len() => Preset::ALL[i].rules(),
        _ => Rules {
            encirclement: false,
            repetition: Repetition::SideToMoveLoses,
            ..Preset::OpenTafl.rules()
        },
    };
    let mut opening = Game::new(rules, Position::start(), Player::Human, Player::Human);
    let pick = |game: &Game, choice: u16| {
        let moves = game.state().legal_moves();
        (!moves.is_empty()).then(|| moves[usize::from(choice) % moves.len()])
    };
    for &choice in choices.iter().take(usize::from(lead)) {
        match pick(&opening, choice) {
            Some(mv) if opening.state().ply() < 6 => {
                opening.play(mv).unwrap();
            }
            _ => break,
        }
    }
    let start = *opening.state().position();
    let mut game = Game::new(rules, start, player(players.0), player(players.1));
    for &choice in choices {
        let Some(mv) = pick(&game, choice) else { break };
        game.play(mv).unwrap();
    }
    for _ in 0..undos {
        game.undo();
    }
    let side = game.state().position().side_to_move();
    let _ = match ending {
        0 => game.resign(side),
        1 => game.agree_draw(),
        2 => game.adjudicate_draw(),
        _ => Ok(()),
    };
    game
}

fn arb_game() -> impl Strategy<Value = Game> {
    (
        0..7u8,
        0..8u8,
        prop::collection::vec(any::<u16>(), 0..150),
        0..4u8,
        0..6u8,
        (any::<u8>(), any::<u8>()),
    )
        .prop_map(|(rules, lead, choices, undos, ending, players)| {
            random_game(rules, lead, &choices, undos, ending, players)
        })
}

/// A random game with side lines grown on it: each step plays a legal move at a place
/// reached before (a place of the main line, or one a step made), sometimes with a comment,
/// so that lines open, lengthen and nest.
fn arb_tree_game() -> impl Strategy<Value = Game> {
    (
        arb_game(),
        prop::collection::vec((any::<u16>(), any::<u16>(), 0..4u8), 0..40),
    )
        .prop_map(|(mut game, steps)| {
            let mut places: Vec<Place> = (0..=game.moves().len()).map(Place::main).collect();
            for (at, choice, comment) in steps {
                let place = places[usize::from(at) % places.len()].clone();
                let Some(state) = game.state_at(&place) else {
                    continue;
                };
                let moves = state.legal_moves();
                if moves.is_empty() || state.is_over() {
                    continue;
                }
                let mv = moves[usize::from(choice) % moves.len()];
                if let Ok(next) = game.play_at(&place, mv) {
                    if comment == 0 {
                        game.set_comment_at(&next, Some(format!("on {mv}\n\nand more")));
                    }
                    places.push(next);
                }
            }
            game
        })
}

/// Any JSON, with keys and strings biased towards those of a saved game.
fn arb_json() -> impl Strategy<Value = Value> {
    let words = prop_oneof![
        Just("format"),
        Just("version"),
        Just("rules"),
        Just("start"),
        Just("moves"),
        Just("players"),
        Just("result"),
        Just("winner"),
        Just("reason"),
        Just("brandubh-game"),
        Just("standard"),
        Just("d2-c2"),
        Just("human"),
        Just("type"),
        Just("2026-11-29T14:13:39Z"),
    ]
    .prop_map(str::to_owned);
    let text = prop_oneof![words.clone(), ".{0,12}"];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        text.prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((prop_oneof![words.clone(), ".{0,6}"], inner), 0..8)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

fn assert_one_line(err: &LoadError) {
    let text = err.to_string();
    assert!(!text.is_empty() && !text.contains('\n'), "{text:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_survive_the_round_trip(game in arb_game()) {
        let text = game.to_json();
        let loaded = Game::from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // The whole state: rules, start, every position since (the repetition history)
        // and the outcome.
        prop_assert_eq!(loaded.state(), game.state());
        prop_assert_eq!(loaded.state().history(), game.state().history());
        prop_assert_eq!(loaded.moves(), game.moves());
        prop_assert_eq!(loaded.players(), game.players());
        prop_assert_eq!(loaded.outcome(), game.outcome());
        prop_assert_eq!((loaded.created(), loaded.updated()), (game.created(), game.updated()));
        prop_assert_eq!(loaded.to_json(), text);
        prop_assert!(!loaded.can_redo());
    }

    #[test]
    fn random_trees_of_side_lines_survive_the_round_trip(game in arb_tree_game()) {
        let text = game.to_json();
        let loaded = Game::from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.moves(), game.moves());
        prop_assert_eq!(loaded.side_lines(), game.side_lines());
        prop_assert_eq!(loaded.comments(), game.comments());
        prop_assert_eq!(loaded.outcome(), game.outcome());
        prop_assert_eq!(loaded.to_json(), text);
    }

    #[test]
    fn timestamps_are_kept_to_the_second(
        created in 0..=Timestamp::MAX.unix_seconds(),
        updated in 0..=Timestamp::MAX.unix_seconds(),
    ) {
        let game = load(&asset("escape.json")).unwrap();
        let mut save: Value = serde_json::from_str(&game.to_json()).unwrap();
        let [created, updated] = [created, updated].map(|s| Timestamp::from_unix_seconds(s).unwrap());
        save["created"] = Value::from(created.to_string());
        save["updated"] = Value::from(updated.to_string());
        let loaded = Game::from_json(&save.to_string()).unwrap();
        prop_assert_eq!((loaded.created(), loaded.updated()), (created, updated));
        let again: Value = serde_json::from_str(&loaded.to_json()).unwrap();
        prop_assert_eq!(again, save);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_loader(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
        if let Err(e) = Game::from_json_bytes(&bytes) {
            assert_one_line(&e);
        }
    }

    #[test]
    fn arbitrary_json_never_panics_the_loader(value in arb_json()) {
        let text = value.to_string();
        if let Err(e) = Game::from_json(&text) {
            assert_one_line(&e);
        }
    }

    #[test]
    fn damaged_saves_are_refused_or_loaded_whole(
        game in arb_game(),
        field in 0..10usize,
        action in 0..3u8,
        replacement in arb_json(),
        text in ".{0,10}",
        index in any::<usize>(),
    ) {
        let mut save: Value = serde_json::from_str(&game.to_json()).unwrap();
        let keys = ["format", "version", "generator", "rules", "start", "moves", "players", "result", "created", "updated"];
        let Value::Object(fields) = &mut save else { panic!("a save is an object") };
        match action {
            0 => { fields.remove(keys[field]); }
            1 => { fields.insert(keys[field].to_owned(), replacement); }
            _ => {
                if let Some(Value::Array(moves)) = fields.get_mut("moves")
                    && !moves.is_empty() {
                        let i = index % moves.len();
                        moves[i] = Value::String(text);
                    }
            }
        }
        let damaged = save.to_string();
        match Game::from_json(&damaged) {
            Err(e) => assert_one_line(&e),
            Ok(loaded) => {
                let again = Game::from_json(&loaded.to_json()).unwrap();
                prop_assert_eq!(again.state(), loaded.state());
            }
        }
    }
}

#[test]
fn a_move_time_of_max_is_saved_when_given_and_omitted_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timed.json");
    let max = |time| Player::Ai {
        engine: EngineKind::Search,
        level: Level::Max,
        time,
    };
    for (time, field) in [
        (Some(MoveTime::ThreeSeconds), Some("\"time\": \"3s\"")),
        (Some(MoveTime::TenSeconds), Some("\"time\": \"10s\"")),
        (None, None),
    ] {
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            max(time),
        );
        game.play_text("d2-c2").unwrap();
        save_atomic(&path, &game).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        match field {
            Some(field) => assert!(text.contains(field), "{text}"),
            None => assert!(!text.contains("\"time\""), "{text}"),
        }
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.players().defenders, max(time));
        assert_eq!(loaded.to_json(), game.to_json());
    }
}

#[test]
fn games_round_trip_through_files_and_the_save_folder_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = random_game(6, 3, &[7, 1, 99, 4, 12, 5, 8], 1, 0, (1, 2));
    assert_eq!(game.preset(), None, "custom rules");
    let path = dir.path().join("mine.json");
    save_atomic(&path, &game).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\"repetition\": \"side-to-move-loses\""),
        "{text}"
    );
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.state(), game.state());
    game.undo();
    save_atomic(&path, &game).unwrap();
    assert_eq!(load(&path).unwrap().moves(), game.moves());
    let list = storage::list_saves(dir.path()).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].name, "mine");
    assert_eq!(
        list[0].summary.as_ref().ok().map(|s| s.text.as_str()),
        Some(game.summary().as_str())
    );
}

fn brandubh(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn replay_reads_saved_games() {
    let file = asset("king-capture.json");
    let (code, out, err) = brandubh(&["replay", file.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    let game = load(&file).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), game.moves().len() + 1);
    assert_eq!(lines[16], "c1-d1++");
    assert_eq!(lines[17], "result: attackers king-captured");

    let (code, out, _) = brandubh(&["replay", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["rules"], "standard");
    assert_eq!(report["winner"], "attackers");
    assert_eq!(report["reason"], "king-captured");
    assert_eq!(report["moves"].as_array().map(Vec::len), Some(17));
}

#[test]
fn replay_reports_bad_files_in_one_line_with_exit_code_2() {
    let bad = data("bad-square.json");
    let (code, out, err) = brandubh(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad-square.json: move 12 \"e4-e9\": e9 is not on the board"),
        "{err}"
    );
    let file = asset("escape.json");
    let (code, _, err) = brandubh(&["replay", file.to_str().unwrap(), "--moves", "d2-c2"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = brandubh(&["replay", file.to_str().unwrap(), "--rules", "walker"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = brandubh(&["replay"]);
    assert_eq!(
        (code, out.as_str(), err.lines().count()),
        (2, "", 1),
        "{err}"
    );
    assert!(err.contains("--moves") && err.contains("FILE"), "{err}");
    let (code, _, err) = brandubh(&["replay", data("").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a file"), "{err}");
}

#[test]
fn comments_are_an_optional_field_aligned_with_the_moves() {
    let path = asset("escape.json");
    let mut game = load(&path).unwrap();
    assert!(!game.to_json().contains("comment"), "no comments, no field");
    game.set_comment(2, Some("a capture".into()));
    game.set_start_comment(Some("from the book".into()));
    let json = game.to_json();
    let value: Value = serde_json::from_str(&json).unwrap();
    let comments = value["comments"].as_array().unwrap();
    assert_eq!(comments.len(), game.moves().len());
    assert_eq!(comments[2], "a capture");
    assert!(comments[0].is_null());
    assert_eq!(value["start_comment"], "from the book");
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back, game);

    let mut short = value.clone();
    short["comments"] = serde_json::json!(["only one"]);
    let err = Game::from_json(&short.to_string()).unwrap_err();
    assert!(matches!(
        err.kind(),
        LoadErrorKind::Comments {
            comments: 1,
            moves: 16
        }
    ));
    assert_eq!(
        err.to_string(),
        "comments: 1 entries for 16 moves (one per move, null where none)"
    );
    let mut none = value;
    none["comments"] = Value::Null;
    none["start_comment"] = Value::Null;
    let plain = Game::from_json(&none.to_string()).unwrap();
    assert!(plain.comments().iter().all(Option::is_none));
    assert!(!plain.to_json().contains("comment"));
}

#[test]
fn clocks_are_saved_with_the_time_left_and_a_flag_fall_is_a_loss_on_time() {
    use brandubh::game::{Clocks, TimeControl};
    use std::time::Duration;
    let control: TimeControl = "1m+2s/2x10s".parse().unwrap();
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    game.set_clocks(Clocks::new(control));
    assert!(!game.spend_time(Duration::from_secs(5)));
    game.play_text("d2-e2").unwrap();
    let clocks = *game.clocks().unwrap();
    assert_eq!(
        clocks.side(Side::Attackers).left(),
        Duration::from_secs(57),
        "5 s spent, 2 s back"
    );
    let loaded = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(loaded.clocks(), Some(&clocks));

    // The defenders use up their main time and both periods.
    assert!(!game.spend_time(Duration::from_secs(65)));
    assert!(game.spend_time(Duration::from_secs(20)));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Attackers));
    assert_eq!(outcome.reason, Reason::Time);
    let text = game.to_json();
    assert!(text.contains("\"reason\": \"time\""), "{text}");
    assert_eq!(Game::from_json(&text).unwrap().outcome(), Some(outcome));
    assert!(
        !game.spend_time(Duration::from_secs(60)),
        "a game over runs no clock"
    );

    // Times that cannot be the control's are refused.
    let bad = text.replace("\"periods\": 0,", "\"periods\": 7,");
    assert_ne!(bad, text);
    let e = Game::from_json(&bad).unwrap_err().to_string();
    assert!(
        e.contains("the attackers' clock counts 7 overtime periods left while on main time"),
        "{e}"
    );
}

/// A saved game of two moves with a side line at its second move, as JSON to damage.
fn tree_save() -> Value {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    game.play_text("d2-c2").unwrap();
    game.play_text("d3-e3").unwrap();
    let side = game
        .play_at(&Place::main(1), "c4-c3".parse().unwrap())
        .unwrap();
    game.play_at(&side, "d1-d2".parse().unwrap()).unwrap();
    serde_json::from_str(&game.to_json()).unwrap()
}

#[test]
fn games_of_today_s_format_load_without_side_lines_and_trees_load_whole() {
    let save = tree_save();
    assert_eq!(save["side_lines"][0]["at"], 1);
    assert_eq!(save["side_lines"][0]["moves"][1], "d1-d2");
    let loaded = Game::from_json(&save.to_string()).unwrap();
    assert_eq!(loaded.side_moves(), 2);
    let old = load(&asset("escape.json")).unwrap();
    assert!(!old.has_side_lines());
    assert!(!old.to_json().contains("side_lines"));
}

#[test]
fn damaged_side_lines_are_refused_with_a_message_naming_the_move() {
    type Damage = fn(&mut Value);
    let cases: [(&str, Damage, &str); 6] = [
        (
            "past the end",
            |s| s["side_lines"][0]["at"] = 2.into(),
            "side line at move 1: \"at\" is 2, but its parent line has 2 moves",
        ),
        (
            "no moves",
            |s| s["side_lines"][0]["moves"] = Value::Array(vec![]),
            "side line at move 2: a side line has at least one move",
        ),
        (
            "an illegal move",
            |s| s["side_lines"][0]["moves"][1] = "a1-a7".into(),
            "side line at move 3: \"a1-a7\"",
        ),
        (
            "comments misaligned",
            |s| s["side_lines"][0]["comments"] = serde_json::json!([null]),
            "comments: 1 entries for 2 moves",
        ),
        (
            "an unknown field",
            |s| s["side_lines"][0]["colour"] = "red".into(),
            "unknown field `colour`",
        ),
        (
            "nested past the end",
            |s| {
                s["side_lines"][0]["side_lines"] =
                    serde_json::json!([{"at": 5, "moves": ["d1-d2"]}]);
            },
            "side line at move 2: \"at\" is 5",
        ),
    ];
    for (what, damage, message) in cases {
        let mut save = tree_save();
        damage(&mut save);
        let err = Game::from_json(&save.to_string()).unwrap_err();
        assert_one_line(&err);
        assert!(err.to_string().contains(message), "{what}: {err}");
    }
}

#[test]
fn side_lines_nested_too_deep_or_too_many_moves_are_refused() {
    // Nested deeper than a game holds: each line one move, left again at its first move.
    let mut line = serde_json::json!({"at": 0, "moves": ["d2-c2"]});
    for _ in 0..brandubh::game::MAX_LINE_DEPTH {
        line = serde_json::json!({"at": 0, "moves": ["d2-c2"], "side_lines": [line]});
    }
    let mut save = tree_save();
    save["side_lines"] = serde_json::json!([{"at": 0, "moves": ["d1-e1"], "side_lines": [line]}]);
    let err = Game::from_json(&save.to_string()).unwrap_err();
    assert!(err.to_string().contains("nest at most 16 deep"), "{err}");
    // More moves in all than a game holds, the side lines' counted.
    let mut save = tree_save();
    save["side_lines"][0]["moves"] = Value::Array(vec!["d1-d2".into(); MAX_PLIES]);
    let err = Game::from_json(&save.to_string()).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("{} moves", MAX_PLIES + 2)),
        "{err}"
    );
}
