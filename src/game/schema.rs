//! The save format as a JSON Schema (draft 2020-12), generated from the types the loader reads,
//! for other programs that read or write saved games. The committed copy is
//! `assets/schema/brandubh-game-v1.schema.json`; `tests/it/schema.rs` keeps it current.

use schemars::Schema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use serde_json::Value;

use super::save::SaveIn;

/// The `$id` of the schema of save format version 1.
pub const SCHEMA_ID: &str = "urn:brandubh:schema:brandubh-game-v1";

const TITLE: &str = "brandubh saved game, format version 1";

const DESCRIPTION: &str = "A game of Brandubh (7x7 tafl) saved by the brandubh program: \
the rules, the start position, the moves, who plays each side, the result and timestamps, \
and optionally comments and an analysis of the moves. Every field but generator, \
start_comment, comments and analysis is required and no other field is allowed. The schema checks the \
structure; loading also replays every move under the rules and checks the result, so a file \
can fit the schema and still be refused (an illegal move, a wrong result).";

/// The JSON Schema of the save format, pretty-printed with a final newline.
pub fn save_schema() -> String {
    let mut schema = SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(RecursiveTransform(unwrap_lines))
        .into_generator()
        .into_root_schema_for::<SaveIn>();
    for (key, value) in [
        ("$id", SCHEMA_ID),
        ("title", TITLE),
        ("description", DESCRIPTION),
        (
            "$comment",
            "Generated from the serde types of brandubh (src/game/save.rs); do not edit. \
             Regenerate with BRANDUBH_UPDATE_SCHEMA=1 cargo test --test it schema::.",
        ),
    ] {
        schema.insert(key.to_owned(), Value::from(value));
    }
    // Writing a JSON value to a string cannot fail.
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Joins the lines of each paragraph of a description (doc comments wrap at 100 columns).
fn unwrap_lines(schema: &mut Schema) {
    if let Some(Value::String(text)) = schema.get_mut("description") {
        let paragraphs: Vec<String> = text.split("\n\n").map(|p| p.replace('\n', " ")).collect();
        *text = paragraphs.join("\n\n");
    }
}
