//! The checks of the text a player sends: names (their characters, their form, no mix of
//! look-alike scripts) and chat lines.

use std::fmt;

use super::{MAX_CHAT_CHARS, MAX_NAME_CHARS};
use crate::quote::is_invisible;

/// Why a name or a chat line is refused.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum TextError {
    /// Empty (or only spaces).
    Empty,
    /// Longer than allowed.
    TooLong(usize),
    /// Holds control characters (ANSI escapes among them) or invisible ones.
    Control,
    /// A name with spaces at its ends.
    Padded,
    /// A name with a character outside [the set names may hold](normalize_name).
    NotAllowed(char),
    /// A name with punctuation (or a space) first, last, or two in a row.
    Punctuation,
    /// A name with a combining mark first, or more than [`MAX_MARKS_IN_A_ROW`] in a row.
    Marks,
    /// A name that mixes scripts whose letters look alike (Latin and Cyrillic, say).
    MixedScripts,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Empty => f.write_str("is empty"),
            TextError::TooLong(max) => write!(f, "is longer than {max} characters"),
            TextError::Control => f.write_str("holds control or invisible characters"),
            TextError::Padded => f.write_str("begins or ends with a space"),
            TextError::NotAllowed(c) => write!(
                f,
                "holds {}, which names may not (letters, digits, and the punctuation {:?} \
                 between them)",
                c.escape_unicode(),
                NAME_PUNCTUATION.iter().collect::<String>()
            ),
            TextError::Punctuation => f.write_str(
                "must begin and end with a letter or digit, with one punctuation mark or space \
                 at a time between them",
            ),
            TextError::Marks => write!(
                f,
                "holds a combining mark that follows no letter, or more than \
                 {MAX_MARKS_IN_A_ROW} in a row"
            ),
            TextError::MixedScripts => {
                f.write_str("mixes scripts whose letters look alike (such as Latin and Cyrillic)")
            }
        }
    }
}

impl std::error::Error for TextError {}

/// The punctuation a name may hold between its letters and digits, one at a time.
pub const NAME_PUNCTUATION: [char; 5] = [' ', '-', '_', '.', '\''];

/// The most combining marks in a row in a name (accents that have no precomposed form,
/// vowel signs), so that no name is a tower of them.
pub const MAX_MARKS_IN_A_ROW: usize = 2;

/// A player's name as the server keeps it, or why it is refused: put in Unicode's
/// composed form (NFC), then 1 to [`MAX_NAME_CHARS`] characters, each a letter, digit or
/// combining mark that Unicode's identifier profile allows (UTS #39, `Identifier_Status=
/// Allowed`) or one of [`NAME_PUNCTUATION`]; it begins and ends with a letter or digit (a
/// mark may follow the last one), holds punctuation one at a time, at most
/// [`MAX_MARKS_IN_A_ROW`] marks in a row, and no mix of scripts beyond UTS #39's "highly
/// restrictive" level (Latin with Han, kana or Hangul, but not with Cyrillic or Greek).
pub fn normalize_name(name: &str) -> Result<String, TextError> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.nfc().collect();
    check_text(&name, MAX_NAME_CHARS)?;
    if name.trim() != name {
        return Err(TextError::Padded);
    }
    check_name_characters(&name)?;
    Ok(name)
}

/// Checks a player's name as [`normalize_name`] does.
pub fn check_name(name: &str) -> Result<(), TextError> {
    normalize_name(name).map(drop)
}

/// The characters of a name in NFC, and their order.
fn check_name_characters(name: &str) -> Result<(), TextError> {
    use unicode_normalization::char::is_combining_mark;
    use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};
    // Whether the last character was punctuation (as if one stood before the first).
    let mut after_punctuation = true;
    let mut marks = 0;
    for c in name.chars() {
        if NAME_PUNCTUATION.contains(&c) {
            if after_punctuation {
                return Err(TextError::Punctuation);
            }
            after_punctuation = true;
            marks = 0;
        } else if !c.identifier_allowed() {
            return Err(TextError::NotAllowed(c));
        } else if is_combining_mark(c) {
            marks += 1;
            if after_punctuation || marks > MAX_MARKS_IN_A_ROW {
                return Err(TextError::Marks);
            }
        } else if c.is_alphanumeric() {
            after_punctuation = false;
            marks = 0;
        } else {
            return Err(TextError::NotAllowed(c));
        }
    }
    if after_punctuation {
        return Err(TextError::Punctuation);
    }
    let letters: String = name
        .chars()
        .filter(|c| !NAME_PUNCTUATION.contains(c))
        .collect();
    if letters
        .as_str()
        .check_restriction_level(RestrictionLevel::HighlyRestrictive)
    {
        Ok(())
    } else {
        Err(TextError::MixedScripts)
    }
}

/// Checks a chat line: 1 to [`MAX_CHAT_CHARS`] characters, none of them control or
/// invisible ones.
pub fn check_chat(text: &str) -> Result<(), TextError> {
    check_text(text, MAX_CHAT_CHARS)
}

fn check_text(text: &str, max: usize) -> Result<(), TextError> {
    if text.trim().is_empty() {
        Err(TextError::Empty)
    } else if text.chars().count() > max {
        Err(TextError::TooLong(max))
    } else if text.chars().any(|c| c.is_control() || is_invisible(c)) {
        Err(TextError::Control)
    } else {
        Ok(())
    }
}
