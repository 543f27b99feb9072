//! Save names: what a player may call a save. A name is a file name inside the save folder and
//! nothing else, so that a save can neither land outside the folder nor take the name of a file
//! the program writes itself, on any system.

use std::fmt;
use std::path::{Path, PathBuf};

use super::paths::{AUTOSAVE_DIR, LEGACY_AUTOSAVE};
use crate::quote::{is_invisible, is_text_direction_control};

/// The longest name, in characters: with `.json` and the temporary file's decorations it stays
/// well under the 255-byte limit of common file systems, whatever the characters.
pub const MAX_NAME_CHARS: usize = 50;

/// Characters no file name may hold on Windows (`/` and `\` are refused as separators).
const NOT_IN_FILE_NAMES: [char; 7] = ['<', '>', ':', '"', '|', '?', '*'];

/// Names Windows keeps for devices, with or without an extension.
const DEVICE_NAMES: [&str; 4] = ["CON", "PRN", "AUX", "NUL"];
const NUMBERED_DEVICES: [&str; 2] = ["COM", "LPT"];

/// A checked save name: the file `NAME.json` in the save folder.
///
/// ```
/// use brandubh::game::storage::SaveName;
///
/// let name: SaveName = " opening.json ".parse().unwrap();
/// assert_eq!(name.as_str(), "opening");
/// assert_eq!(name.file_name(), "opening.json");
/// assert!("../x".parse::<SaveName>().is_err());
/// ```
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct SaveName(String);

/// Why a text is not a save name; the `Display` is a one-line reason for the player.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum BadSaveName {
    /// Nothing but spaces.
    Empty,
    /// A `/` or `\`: a path, not a name.
    Separator(char),
    /// `.` or `..`: folders, not names.
    Dots,
    /// Starts with a dot: a hidden file.
    LeadingDot,
    /// Ends with a dot, which Windows drops.
    TrailingDot,
    /// A control character (such as a tab or an escape).
    Control,
    /// A text-direction control (such as U+202E), which makes a name read as another.
    TextDirection(char),
    /// A line or paragraph separator (U+2028, U+2029), drawn as nothing or as a line break.
    LineBreak(char),
    /// A character drawn as nothing (such as U+200B): a name of them looks empty, or like
    /// another name.
    Invisible(char),
    /// A character some systems refuse in file names.
    Forbidden(char),
    /// Longer than [`MAX_NAME_CHARS`] (the length given).
    TooLong(usize),
    /// A name the program or the system keeps for itself.
    Reserved(String),
}

impl fmt::Display for BadSaveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadSaveName::Empty => f.write_str("type a name for the save"),
            BadSaveName::Separator(c) => write!(
                f,
                "a name cannot contain {c}: saves are files in the save folder"
            ),
            BadSaveName::Dots => f.write_str(". and .. are folders, not names"),
            BadSaveName::LeadingDot => f.write_str("a name cannot start with a dot"),
            BadSaveName::TrailingDot => f.write_str("a name cannot end with a dot"),
            BadSaveName::Control => f.write_str("a name cannot contain control characters"),
            BadSaveName::TextDirection(c) => write!(
                f,
                "a name cannot contain text-direction controls (U+{:04X}): it would not read as \
                 typed",
                u32::from(*c)
            ),
            BadSaveName::LineBreak(c) => write!(
                f,
                "a name cannot contain line or paragraph separators (U+{:04X})",
                u32::from(*c)
            ),
            BadSaveName::Invisible(c) => write!(
                f,
                "a name cannot contain invisible characters (U+{:04X})",
                u32::from(*c)
            ),
            BadSaveName::Forbidden(c) => write!(
                f,
                "a name cannot contain {c} (not allowed in file names on every system)"
            ),
            BadSaveName::TooLong(n) => write!(
                f,
                "a name can have at most {MAX_NAME_CHARS} characters (this one has {n})"
            ),
            BadSaveName::Reserved(name) => write!(f, "\"{name}\" is a reserved name"),
        }
    }
}

impl std::error::Error for BadSaveName {}

/// Whether `stem` (before any extension) names a Windows device: CON, PRN, AUX, NUL, COM1-9
/// or LPT1-9, in any case.
fn is_device_name(stem: &str) -> bool {
    let stem = stem.trim_end().to_ascii_uppercase();
    DEVICE_NAMES.contains(&stem.as_str())
        || NUMBERED_DEVICES.iter().any(|prefix| {
            stem.strip_prefix(prefix)
                .is_some_and(|n| n.len() == 1 && matches!(n.as_bytes()[0], b'1'..=b'9'))
        })
}

/// Whether `name` is one the program writes itself: the autosave folder and the autosave file
/// of older versions.
fn is_program_name(name: &str) -> bool {
    let legacy = LEGACY_AUTOSAVE.trim_end_matches(".json");
    name.eq_ignore_ascii_case(AUTOSAVE_DIR) || name.eq_ignore_ascii_case(legacy)
}

impl SaveName {
    /// Checks a typed name: surrounding spaces and a final `.json` are dropped; separators,
    /// `.` and `..`, a leading or final dot, control characters, line and paragraph
    /// separators, invisible characters (format characters among them) and
    /// text-direction controls (a name must read as it is), characters Windows refuses,
    /// over-long names and reserved names (the autosave's, Windows devices) are refused.
    pub fn parse(text: &str) -> Result<SaveName, BadSaveName> {
        let trimmed = text.trim();
        let name = trimmed
            .len()
            .checked_sub(".json".len())
            .filter(|&cut| trimmed.is_char_boundary(cut))
            .filter(|&cut| trimmed[cut..].eq_ignore_ascii_case(".json"))
            .map_or(trimmed, |cut| &trimmed[..cut])
            .trim_end();
        if name.is_empty() {
            return Err(BadSaveName::Empty);
        }
        if name.chars().any(char::is_control) {
            return Err(BadSaveName::Control);
        }
        if let Some(c) = name.chars().find(|&c| is_text_direction_control(c)) {
            return Err(BadSaveName::TextDirection(c));
        }
        if let Some(c) = name.chars().find(|&c| matches!(c, '\u{2028}' | '\u{2029}')) {
            return Err(BadSaveName::LineBreak(c));
        }
        if let Some(c) = name.chars().find(|&c| is_invisible(c)) {
            return Err(BadSaveName::Invisible(c));
        }
        if let Some(c) = name.chars().find(|&c| c == '/' || c == '\\') {
            return Err(BadSaveName::Separator(c));
        }
        if name == "." || name == ".." {
            return Err(BadSaveName::Dots);
        }
        if name.starts_with('.') {
            return Err(BadSaveName::LeadingDot);
        }
        if name.ends_with('.') {
            return Err(BadSaveName::TrailingDot);
        }
        if let Some(c) = name.chars().find(|c| NOT_IN_FILE_NAMES.contains(c)) {
            return Err(BadSaveName::Forbidden(c));
        }
        let chars = name.chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(BadSaveName::TooLong(chars));
        }
        let stem = name.split('.').next().unwrap_or(name);
        if is_program_name(name) || is_device_name(stem) {
            return Err(BadSaveName::Reserved(name.to_owned()));
        }
        Ok(SaveName(name.to_owned()))
    }

    /// The name, without `.json`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The file name: the name and `.json`.
    pub fn file_name(&self) -> String {
        format!("{}.json", self.0)
    }

    /// The file of this name in `dir`.
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        dir.join(self.file_name())
    }
}

impl std::str::FromStr for SaveName {
    type Err = BadSaveName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SaveName::parse(s)
    }
}

impl fmt::Display for SaveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(text: &str) -> BadSaveName {
        SaveName::parse(text).unwrap_err()
    }

    #[test]
    fn plain_names_are_kept_and_get_json() {
        for (text, name) in [
            ("opening", "opening"),
            ("  my game 2  ", "my game 2"),
            ("final.JSON", "final"),
            ("v1.2 test", "v1.2 test"),
            ("a..b", "a..b"),
            ("contest", "contest"),
            ("com10", "com10"),
            ("lpt", "lpt"),
            ("autosaves", "autosaves"),
            ("jeu d'été ♚", "jeu d'été ♚"),
        ] {
            let parsed = SaveName::parse(text).unwrap();
            assert_eq!(parsed.as_str(), name, "{text:?}");
            assert_eq!(
                parsed.path_in(Path::new("/saves")),
                PathBuf::from(format!("/saves/{name}.json"))
            );
        }
        assert_eq!(
            SaveName::parse(&"x".repeat(MAX_NAME_CHARS))
                .unwrap()
                .as_str(),
            "x".repeat(MAX_NAME_CHARS)
        );
    }

    #[test]
    fn paths_and_hidden_names_are_refused() {
        assert_eq!(bad("../evil/x"), BadSaveName::Separator('/'));
        assert_eq!(bad("/tmp/x"), BadSaveName::Separator('/'));
        assert_eq!(bad("..\\x"), BadSaveName::Separator('\\'));
        assert_eq!(bad("a/b"), BadSaveName::Separator('/'));
        assert_eq!(bad("C:x"), BadSaveName::Forbidden(':'));
        assert_eq!(bad(".."), BadSaveName::Dots);
        assert_eq!(bad("."), BadSaveName::Dots);
        assert_eq!(bad("..json"), BadSaveName::Dots, "the extension is dropped");
        assert_eq!(bad(".hidden"), BadSaveName::LeadingDot);
        assert_eq!(bad("name."), BadSaveName::TrailingDot);
        assert_eq!(bad(""), BadSaveName::Empty);
        assert_eq!(bad("   "), BadSaveName::Empty);
        assert_eq!(bad(".json"), BadSaveName::Empty);
        assert_eq!(bad("a\tb"), BadSaveName::Control);
        assert_eq!(bad("a\u{1b}[2Jb"), BadSaveName::Control);
        assert_eq!(bad("what?"), BadSaveName::Forbidden('?'));
        assert_eq!(bad("a*"), BadSaveName::Forbidden('*'));
        let long = "é".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(bad(&long), BadSaveName::TooLong(MAX_NAME_CHARS + 1));
    }

    #[test]
    fn invisible_names_and_text_direction_controls_are_refused() {
        // Shown as nothing, or as another name: `evil\u{202e}nosj.txt` shows as `eviltxt.json`.
        for (text, c) in [
            ("\u{200b}", '\u{200b}'),
            (" \u{200b}\u{200b} ", '\u{200b}'),
            ("game\u{200b}", '\u{200b}'),
            ("\u{2060}", '\u{2060}'),
            ("\u{feff}opening", '\u{feff}'),
            ("soft\u{ad}hyphen", '\u{ad}'),
        ] {
            assert_eq!(bad(text), BadSaveName::Invisible(c), "{text:?}");
        }
        for (text, c) in [
            ("evil\u{202e}nosj.txt", '\u{202e}'),
            ("\u{2066}a\u{2069}", '\u{2066}'),
            ("a\u{200f}b", '\u{200f}'),
        ] {
            assert_eq!(bad(text), BadSaveName::TextDirection(c), "{text:?}");
        }
        assert_eq!(
            bad("evil\u{202e}nosj.txt").to_string(),
            "a name cannot contain text-direction controls (U+202E): it would not read as typed"
        );
        assert_eq!(
            bad("\u{200b}").to_string(),
            "a name cannot contain invisible characters (U+200B)"
        );
    }

    #[test]
    fn line_separators_and_format_characters_are_refused() {
        // `ls\u{2029}ep` listed as "lsep": a name must read as it is.
        for (text, c) in [("ls\u{2029}ep", '\u{2029}'), ("a\u{2028}b", '\u{2028}')] {
            assert_eq!(bad(text), BadSaveName::LineBreak(c), "{text:?}");
        }
        assert_eq!(
            bad("ls\u{2029}ep").to_string(),
            "a name cannot contain line or paragraph separators (U+2029)"
        );
        // Format characters (Unicode's Cf) drawn as nothing.
        for c in [
            '\u{fff9}',
            '\u{fffb}',
            '\u{110bd}',
            '\u{13430}',
            '\u{e0001}',
        ] {
            let text = format!("a{c}b");
            assert_eq!(bad(&text), BadSaveName::Invisible(c), "{text:?}");
        }
    }

    #[test]
    fn reserved_names_are_refused_in_any_case() {
        for text in [
            "autosave",
            "AutoSave",
            "autosave.json",
            "CON",
            "con",
            "nul.game",
            "Aux",
            "prn",
            "COM1",
            "lpt9",
            "com3.x",
        ] {
            assert!(
                matches!(bad(text), BadSaveName::Reserved(_)),
                "{text}: {:?}",
                SaveName::parse(text)
            );
        }
        assert_eq!(bad("CON").to_string(), "\"CON\" is a reserved name");
    }

    #[test]
    fn every_reason_is_one_line() {
        for text in [
            "",
            "a/b",
            "..",
            ".x",
            "x.",
            "\u{7}",
            "\u{200b}",
            "a\u{202e}b",
            "<",
            &"y".repeat(80),
            "nul",
        ] {
            let reason = bad(text).to_string();
            assert!(!reason.is_empty() && !reason.contains('\n'), "{reason}");
        }
    }
}
