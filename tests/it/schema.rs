//! The save format's JSON Schema (`assets/schema/brandubh-game-v1.schema.json`): the committed
//! file is the one generated from the save types, every example game and every game this
//! program writes fits it, and every file of the corpus that the loader refuses for its
//! structure does not.
//!
//! After a change to the save types, regenerate the committed schema with
//! `BRANDUBH_UPDATE_SCHEMA=1 cargo test --test it schema::`, and review the difference.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use brandubh::ai::{Analyzer, Budget, Limits};
use brandubh::game::{
    Game, Level, MAX_TAG_CHARS, Place, Player, SCHEMA_ID, Tag, Tags, save_schema,
};
use brandubh::rules::{KingOnThrone, Position, Preset, Rules};
use jsonschema::Validator;
use serde_json::Value;

/// Set to rewrite the committed schema from the types instead of comparing.
const UPDATE_ENV: &str = "BRANDUBH_UPDATE_SCHEMA";

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn schema_file() -> PathBuf {
    repo("assets/schema/brandubh-game-v1.schema.json")
}

/// A validator of the schema that also checks `format` (dates). It is the generated schema,
/// which the first test finds equal to the committed file.
fn validator() -> Validator {
    let schema: Value = serde_json::from_str(&save_schema()).unwrap();
    assert_eq!(schema["$id"], SCHEMA_ID);
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn errors(validator: &Validator, text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).unwrap();
    validator
        .iter_errors(&value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn the_committed_schema_is_the_one_generated_from_the_types() {
    let generated = save_schema();
    if std::env::var_os(UPDATE_ENV).is_some() {
        fs::create_dir_all(schema_file().parent().unwrap()).unwrap();
        fs::write(schema_file(), &generated).unwrap();
    }
    let committed = fs::read_to_string(schema_file()).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is not the schema generated from the save types; regenerate it with \
         {UPDATE_ENV}=1 cargo test --test it schema::",
        schema_file().display()
    );
    // A valid draft 2020-12 schema, with a title and a description for readers.
    let schema: Value = serde_json::from_str(&committed).unwrap();
    assert!(jsonschema::meta::is_valid(&schema));
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(
        schema["title"]
            .as_str()
            .unwrap()
            .contains("format version 1")
    );
    assert!(schema["description"].as_str().unwrap().len() > 100);
}

#[test]
fn every_example_game_fits_the_schema() {
    let validator = validator();
    let mut checked = 0;
    for entry in fs::read_dir(repo("assets/games")).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(
            errors(&validator, &text),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 5, "{checked} examples");
}

#[test]
fn games_this_program_writes_fit_the_schema() {
    let validator = validator();
    let custom = Rules {
        king_on_throne: KingOnThrone::Sandwich,
        ..Preset::Walker.rules()
    };
    let ai = |level| Player::Ai {
        engine: brandubh::game::EngineKind::Random,
        level,
        time: None,
    };
    let mut ongoing = Game::new(custom, Position::start(), ai(Level::Easy), Player::Human);
    ongoing.play_text("d2-c2").unwrap();
    ongoing.play_text("c4-c3").unwrap();
    // With an analysis of its second move.
    let stop = AtomicBool::new(false);
    let plies = Analyzer::default()
        .analyze(
            &ongoing,
            Budget::Limits(Limits::depth(2)),
            &stop,
            &mut |_| {},
        )
        .unwrap();
    ongoing.set_analysis(1, &plies[1]).unwrap();
    // And a side line at the second move, commented and analyzed, with one nested in it.
    let side = ongoing
        .play_at(&Place::main(1), "e4-e2".parse().unwrap())
        .unwrap();
    ongoing.set_comment_at(&side, Some("instead:\n\nthe other guard".to_owned()));
    ongoing.set_analysis_at(&side, &plies[1]).unwrap();
    let next = ongoing.play_at(&side, "c2-c3".parse().unwrap()).unwrap();
    ongoing.play_at(&side, "d1-d2".parse().unwrap()).unwrap();
    assert_eq!(ongoing.side_line_depth(), 2, "{next:?}");
    let mut drawn = Game::new(
        Preset::OpenTafl.rules(),
        Position::start(),
        Player::Human,
        // The search at max with a move time of its own.
        Player::Ai {
            engine: brandubh::game::EngineKind::Search,
            level: Level::Max,
            time: Some(brandubh::game::MoveTime::ThreeSeconds),
        },
    );
    drawn.agree_draw().unwrap();
    // With tags, each at its longest.
    let mut tags = Tags::default();
    for tag in Tag::ALL {
        tags.set(tag, &"é".repeat(MAX_TAG_CHARS)).unwrap();
    }
    drawn.set_tags(tags);
    for game in [ongoing, drawn] {
        let text = game.to_json();
        assert_eq!(
            text.contains("\"analysis\""),
            !game.analysis().is_empty(),
            "{text}"
        );
        assert_eq!(errors(&validator, &text), Vec::<String>::new(), "{text}");
    }
}

/// Files of `tests/data` that the loader refuses for their structure (a field missing,
/// unknown or of the wrong type or value); each must break the schema too.
const STRUCTURALLY_INVALID: &[&str] = &[
    "analysis-missing-field.json",
    "analysis-not-an-array.json",
    "analysis-score-out-of-range.json",
    "analysis-unknown-class.json",
    "array.json",
    "bad-level.json",
    "bad-move-time.json",
    "bad-player.json",
    "bad-timestamp.json",
    "clock-zero-main-time.json",
    "duplicate-format.json",
    "duplicate-version.json",
    "format-number.json",
    "generator-missing-version.json",
    "generator-not-object.json",
    "generator-unknown-field.json",
    "human-with-fields.json",
    "impossible-date.json",
    "missing-format.json",
    "missing-moves.json",
    "missing-player.json",
    "missing-result.json",
    "missing-version.json",
    "move-number.json",
    "moves-not-array.json",
    "newer-version.json",
    "null.json",
    "result-missing-winner.json",
    "result-unknown-reason.json",
    "rules-bad-value.json",
    "rules-incomplete.json",
    "rules-number.json",
    "rules-unknown-parameter.json",
    "string.json",
    "tags-control-character.json",
    "unknown-field.json",
    "unknown-preset.json",
    "version-fraction.json",
    "version-negative.json",
    "version-string.json",
    "version-zero.json",
    "wrong-format.json",
];

/// Files of `tests/data` that fit the schema: the loader refuses them for what a schema does
/// not express (the moves under the rules, the result, the position, a duplicate key, an
/// analysis's length and moves, a move time for a level other than max), or
/// loads them (a byte order mark).
const BEYOND_THE_SCHEMA: &[&str] = &[
    "analysis-bad-line.json",
    "analysis-illegal-best.json",
    "analysis-length.json",
    "analysis-line-past-the-end.json",
    "analysis-wrong-capture.json",
    "bad-square.json",
    "bad-start.json",
    "blocked-move.json",
    "clock-overtime-no-periods.json",
    "control-characters.json",
    "duplicate-capture.json",
    "duplicate-field.json",
    "duplicate-rules-parameter.json",
    "false-end-mark.json",
    "illegal-move.json",
    "impossible-agreement.json",
    "impossible-resignation.json",
    "impossible-timeout.json",
    "missing-listed-capture.json",
    "move-after-end.json",
    "move-time-for-hard.json",
    "not-a-move.json",
    "resigned-after-the-end.json",
    "result-claimed-not-over.json",
    "result-disagrees.json",
    "result-null-but-over.json",
    "start-two-kings.json",
    "utf8-bom.json",
    "wrong-capture.json",
    "wrong-end-mark.json",
];

#[test]
fn the_schema_refuses_what_the_loader_refuses_for_its_structure() {
    let validator = validator();
    // Every file of the corpus that is JSON is in one list or the other.
    let mut json_files: Vec<String> = Vec::new();
    for entry in fs::read_dir(repo("tests/data")).unwrap() {
        let path = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let text = text.trim_start_matches('\u{feff}');
        if serde_json::from_str::<Value>(text).is_ok() {
            json_files.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    json_files.sort();
    let mut listed: Vec<String> = STRUCTURALLY_INVALID
        .iter()
        .chain(BEYOND_THE_SCHEMA)
        .map(|name| (*name).to_owned())
        .collect();
    listed.sort();
    assert_eq!(
        json_files, listed,
        "list each JSON file of tests/data in STRUCTURALLY_INVALID or BEYOND_THE_SCHEMA"
    );

    for name in STRUCTURALLY_INVALID {
        let text = fs::read_to_string(repo("tests/data").join(name)).unwrap();
        assert!(
            !errors(&validator, &text).is_empty(),
            "{name} fits the schema"
        );
        assert!(Game::from_json(&text).is_err(), "{name} loads");
    }
    for name in BEYOND_THE_SCHEMA {
        let text = fs::read_to_string(repo("tests/data").join(name)).unwrap();
        let text = text.trim_start_matches('\u{feff}');
        assert_eq!(errors(&validator, text), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn the_schema_and_the_loader_agree_on_timestamps() {
    let validator = validator();
    let mut save: Value =
        serde_json::from_str(&fs::read_to_string(repo("assets/games/escape.json")).unwrap())
            .unwrap();
    let valid = [
        "2023-11-14T22:13:20Z",
        "2023-11-14t22:13:20.5z",
        "2023-11-15T00:13:20+02:00",
        "2023-11-14T20:43:20-01:30",
        "2000-02-29T00:00:00Z",
    ];
    let invalid = [
        "yesterday",
        "2023-11-14",
        "2023-11-14T22:13:20",
        "2023-11-14 22:13:20Z",
        "20231114T221320Z",
        "2023-11-14T22:13:20+02",
        "2023-11-14T22:13Z",
        "2023-11-14T22:13:20Z[Europe/Dublin]",
        "2023-02-29T00:00:00Z",
        "2023-11-14T24:00:00Z",
        "2023-11-14T22:13:20.Z",
    ];
    for (text, fits) in valid
        .iter()
        .map(|t| (t, true))
        .chain(invalid.iter().map(|t| (t, false)))
    {
        save["created"] = Value::from(*text);
        let json = save.to_string();
        assert_eq!(errors(&validator, &json).is_empty(), fits, "schema, {text}");
        assert_eq!(Game::from_json(&json).is_ok(), fits, "loader, {text}");
    }
}
