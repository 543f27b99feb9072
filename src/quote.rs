//! Input quoted in messages, made safe to print: every message that repeats what a user, a
//! file or another program gave (command-line arguments, OpenTafl protocol lines, saved
//! games, file names) goes through here, so that a control character (ESC, BEL, NUL, ...)
//! never reaches the terminal raw, an invisible one or a text-direction control never makes
//! a text look like another, and a huge input never makes a huge message.
//!
//! A leaf module below every layer: it uses nothing else of the crate.

use std::ffi::OsStr;
use std::fmt::Write;
use std::path::Path;

/// The most characters of an input quoted in a message.
pub const EXCERPT_CHARS: usize = 40;

/// The most characters of a whole message (a hostile file can make a parser quote a lot).
pub const MESSAGE_CHARS: usize = 400;

/// `text` as quoted in a message: at most [`EXCERPT_CHARS`] characters, with `…` when cut,
/// and control characters escaped.
///
/// ```text
/// "d2-d5"             -> d2-d5
/// "\u{1b}[2J/3t3"     -> \u{1b}[2J/3t3   (ESC written as the six characters \u{1b})
/// ```
pub fn excerpt(text: &str) -> String {
    escaped(text, EXCERPT_CHARS)
}

/// `text` with its control characters and its [invisible](is_invisible) ones written as
/// escapes (`\u{1b}`, `\0`, `\n`, `\u{202e}`), cut after `limit` characters of `text` with
/// `…`. Escaping twice changes nothing more: the escapes are printable.
pub fn escaped(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(text.len().min(limit * 4));
    push_escaped(&mut out, text.chars().map(Ok), limit);
    out
}

/// A file name or path as [`escaped`] writes text, each byte that is not UTF-8 written as
/// `\xe9`: every file can be named, and told from the others, whatever its name holds.
pub fn escaped_os(text: &OsStr, limit: usize) -> String {
    let bytes = text.as_encoded_bytes();
    let mut out = String::with_capacity(bytes.len().min(limit * 4));
    let pieces = bytes.utf8_chunks().flat_map(|chunk| {
        let valid = chunk.valid().chars().map(Ok);
        valid.chain(chunk.invalid().iter().map(|&b| Err(b)))
    });
    push_escaped(&mut out, pieces, limit);
    out
}

/// A path as a message shows it: [`escaped_os`], up to [`MESSAGE_CHARS`] characters.
pub fn quoted_path(path: &Path) -> String {
    escaped_os(path.as_os_str(), MESSAGE_CHARS)
}

/// Pushes characters (or bytes that are not UTF-8), escaped, up to `limit` of them.
fn push_escaped(out: &mut String, pieces: impl Iterator<Item = Result<char, u8>>, limit: usize) {
    for (shown, piece) in pieces.enumerate() {
        if shown >= limit {
            out.push('…');
            break;
        }
        // Writing to a String cannot fail.
        let _ = match piece {
            Ok(c) if c.is_control() || is_invisible(c) => write!(out, "{}", c.escape_debug()),
            Ok(c) => write!(out, "{c}"),
            Err(byte) => write!(out, "\\x{byte:02x}"),
        };
    }
}

/// Whether `c` is drawn as nothing while it is there (Unicode's default-ignorable code points:
/// zero-width spaces and joiners, the soft hyphen, variation selectors, the byte order mark,
/// tags; and the other format characters drawn as nothing: interlinear annotation marks,
/// Egyptian and Kaithi format controls), the line and paragraph separators U+2028 and U+2029
/// (drawn as nothing, or as a line break) and text-direction controls included ([`is_text_direction_control`]): a text holding
/// one can look like another, or like none.
pub const fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}'..='\u{1160}' | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}' | '\u{110bd}' | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// Whether `c` changes the direction text is drawn in (Unicode's `Bidi_Control`: marks,
/// embeddings, overrides, isolates): `evil\u{202e}nosj.txt` is drawn `eviltxt.json`.
pub const fn is_text_direction_control(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_printable_text_is_unchanged() {
        assert_eq!(excerpt("d2-d5"), "d2-d5");
        assert_eq!(excerpt("é ✓ \"quoted\" \\"), "é ✓ \"quoted\" \\");
    }

    #[test]
    fn long_text_is_cut_at_forty_characters() {
        let long = "é".repeat(100);
        let shown = excerpt(&long);
        assert_eq!(shown.chars().filter(|&c| c == 'é').count(), EXCERPT_CHARS);
        assert!(shown.ends_with("é…"), "{shown}");
        assert_eq!(
            excerpt(&"x".repeat(EXCERPT_CHARS)),
            "x".repeat(EXCERPT_CHARS)
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        let shown = excerpt("a\u{1b}[2J\u{7}\0\n\r\t\u{7f}\u{9b}z");
        assert_eq!(
            shown, "a\\u{1b}[2J\\u{7}\\0\\n\\r\\t\\u{7f}\\u{9b}z",
            "{shown}"
        );
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }

    #[test]
    fn invisible_characters_and_direction_controls_are_escaped() {
        assert_eq!(
            excerpt("evil\u{202e}nosj.txt\u{200b}"),
            "evil\\u{202e}nosj.txt\\u{200b}"
        );
        assert_eq!(
            excerpt("\u{feff}\u{2066}a\u{2069}"),
            "\\u{feff}\\u{2066}a\\u{2069}"
        );
        // What shows stays: accents, symbols, other scripts.
        assert_eq!(excerpt("é ♚ 東 ش"), "é ♚ 東 ش");
        for c in ['\u{61c}', '\u{200e}', '\u{202e}', '\u{2066}', '\u{2069}'] {
            assert!(is_text_direction_control(c) && is_invisible(c), "{c:?}");
        }
        assert!(!is_text_direction_control('\u{200b}') && !is_invisible('a'));
    }

    #[cfg(unix)]
    #[test]
    fn names_that_are_not_utf8_are_written_byte_by_byte() {
        use std::os::unix::ffi::OsStrExt;
        let name = OsStr::from_bytes(b"caf\xe9\x1b[2J\xff\xfe.json");
        assert_eq!(escaped_os(name, 100), "caf\\xe9\\u{1b}[2J\\xff\\xfe.json");
        assert_eq!(escaped_os(name, 4), "caf\\xe9…");
        assert_eq!(escaped_os(OsStr::new("plain"), 100), "plain");
    }

    #[test]
    fn escaping_twice_is_escaping_once() {
        let once = escaped("\u{1b}]0;title\u{7}", MESSAGE_CHARS);
        assert_eq!(escaped(&once, MESSAGE_CHARS), once);
    }

    #[test]
    fn the_limit_counts_characters_of_the_input() {
        // Three escaped ESCs are still three characters of the input.
        assert_eq!(escaped("\u{1b}\u{1b}\u{1b}x", 3), "\\u{1b}\\u{1b}\\u{1b}…");
    }
}
