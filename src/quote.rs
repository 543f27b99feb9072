//! Input quoted in messages, made safe to print: every message that repeats what a user, a
//! file or another program gave (command-line arguments, OpenTafl protocol lines, saved
//! games) goes through here, so that a control character (ESC, BEL, NUL, ...) never reaches
//! the terminal raw and a huge input never makes a huge message.
//!
//! A leaf module below every layer: it uses nothing else of the crate.

use std::fmt::Write;

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

/// `text` with its control characters written as escapes (`\u{1b}`, `\0`, `\n`), cut after
/// `limit` characters of `text` with `…`. Escaping twice changes nothing more: the escapes
/// are printable.
pub fn escaped(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(text.len().min(limit * 4));
    for (shown, c) in text.chars().enumerate() {
        if shown >= limit {
            out.push('…');
            break;
        }
        if c.is_control() {
            // Writing to a String cannot fail.
            let _ = write!(out, "{}", c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
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
