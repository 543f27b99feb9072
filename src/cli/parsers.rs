//! The parsers of the options that name a rule preset (`--rules`) or an engine's level
//! (`--level`): each choice listed in the help with its line.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::game::Level;
use crate::rules::Preset;

/// The parser of `--rules`: a preset by its name, each listed in the help with what sets it
/// apart. The rules engine knows nothing of the command line; this is its view of [`Preset`].
pub fn preset_parser() -> impl TypedValueParser<Value = Preset> {
    choice_parser(Preset::ALL, Preset::name, preset_help)
}

/// The parser of an engine's level (`otep --level`): a level by its name, each listed in the
/// help with what it is for. The game layer knows nothing of the command line; this is its
/// view of [`Level`].
pub fn level_parser() -> impl TypedValueParser<Value = Level> {
    choice_parser(Level::ALL, Level::name, level_help)
}

/// The parser of one of `all`, each given by its `name` and listed in the help with its line
/// of `help`; another name is refused with the list of names (as clap's `ValueEnum` does).
fn choice_parser<T, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Default + Send + Sync + 'static,
{
    let values = all.map(|choice| PossibleValue::new(name(choice)).help(help(choice)));
    // The names were checked against the possible values: every one is found.
    PossibleValuesParser::new(values).map(move |given| {
        all.into_iter()
            .find(|choice| name(*choice) == given)
            .unwrap_or_default()
    })
}

/// A level's line in the help of `--level`.
const fn level_help(level: Level) -> &'static str {
    match level {
        Level::Easy => "For beginners: shallow and a little random",
        Level::Medium => "For casual players",
        Level::Hard => "For strong players",
        Level::Max => "Everything the engine has, using the full time given",
    }
}

/// A preset's line in the help of `--rules`.
const fn preset_help(preset: Preset) -> &'static str {
    match preset {
        Preset::Standard => "The weak-king rules of the common English rules page (the default)",
        Preset::Walker => {
            "Damian Walker's 2011 rules, based on Fetlar: the king taken by two anywhere"
        }
        Preset::Nielsen => "Aage Nielsen's reconstruction: the king safe on the edge",
        Preset::Fellhuhn => "The Fellhuhn Brandubh app: the king taken by two, surrounding wins",
        Preset::OpenTafl => "OpenTafl's built-in Brandub rules: repetition draws",
    }
}
