//! Text and layout helpers shared by every view of the terminal game, and the status message
//! type: the lowest module of `src/tui` but the theme, so that the panels, screens, dialogs
//! and the app all point down to it.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use crate::game::{EngineKind, Level, Player};
use crate::quote;
use crate::rules::Side;

/// Whether a status message reports a problem.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Tone {
    /// Information.
    Info,
    /// A danger in the game: a threat to the king, an open line, a repetition.
    Warning,
    /// Something could not be done.
    Error,
}

/// The line at the bottom of the screen.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Info or error.
    pub tone: Tone,
}

/// A rectangle of `width`×`height` centred in `area` (clipped to it).
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// Greedy word wrap of `text` into lines of at most `width` characters. A word wider than
/// `width` (a path) is broken after a `/` where it can be, else at the edge.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_rows(text.split_whitespace(), width, usize::MAX)
}

/// The first `max_rows` lines [`wrap`] makes of `words`: the words after those are not read,
/// so that the work is that of the rows made, however long the text.
pub fn wrap_rows<'a>(
    words: impl Iterator<Item = &'a str>,
    width: usize,
    max_rows: usize,
) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in words.flat_map(|w| pieces(w, width)) {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
            if lines.len() >= max_rows {
                return lines;
            }
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() && lines.len() < max_rows {
        lines.push(line);
    }
    lines
}

/// `word` in pieces of at most `width` characters, each ending after a `/` where one is;
/// cut as they are read.
fn pieces(word: &str, width: usize) -> impl Iterator<Item = &str> {
    let mut rest = word;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some((edge, _)) = rest.char_indices().nth(width) else {
            return Some(std::mem::take(&mut rest));
        };
        let cut = rest[..edge]
            .rfind('/')
            .map_or(edge, |slash| slash + 1)
            .max(rest[..edge].chars().next().map_or(1, char::len_utf8));
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// As much of `text` as fits in `width` characters, cut between its ` · `-separated parts
/// (a title's extras go first), else between the first part's words: never mid-word but for
/// a first word wider than `width`, cut with `…`.
pub fn fit_parts(text: &str, width: usize) -> String {
    let chars = |t: &str| t.chars().count();
    if chars(text) <= width {
        return text.to_owned();
    }
    let mut fitted = String::new();
    for part in text.split(" · ") {
        let joined = if fitted.is_empty() {
            part.to_owned()
        } else {
            format!("{fitted} · {part}")
        };
        if chars(&joined) > width {
            break;
        }
        fitted = joined;
    }
    if fitted.is_empty() {
        let first = text.split(" · ").next().unwrap_or_default();
        for word in first.split_whitespace() {
            let joined = if fitted.is_empty() {
                word.to_owned()
            } else {
                format!("{fitted} {word}")
            };
            if chars(&joined) > width {
                break;
            }
            fitted = joined;
        }
        if fitted.is_empty() {
            fitted = truncate(first, width);
        }
    }
    fitted
}

/// A line of keys (` · `-separated parts) wrapped in `width` columns within `rows` rows if it
/// can be: the parts before the last (which says how to leave or get help) are dropped from
/// the end until it fits.
pub fn fit_keys(keys: &str, width: usize, rows: usize) -> Vec<String> {
    let mut parts: Vec<&str> = keys.split(" · ").collect();
    loop {
        let lines = wrap_parts(&parts, width);
        if lines.len() <= rows.max(1) || parts.len() < 2 {
            return lines;
        }
        parts.remove(parts.len() - 2);
    }
}

/// `parts` joined by ` · ` in lines of `width` columns, broken between parts (a part wider
/// than `width` is wrapped by words).
fn wrap_parts(parts: &[&str], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + part.chars().count() <= width => {
                line.push_str(" · ");
                line.push_str(part);
            }
            _ => lines.extend(wrap(part, width)),
        }
    }
    lines
}

/// The first of `texts` that fits in `width` characters, else the last cut to fit.
pub fn first_fitting(texts: &[&str], width: usize) -> String {
    texts
        .iter()
        .find(|t| t.chars().count() <= width)
        .map_or_else(
            || truncate(texts.last().copied().unwrap_or_default(), width),
            |t| (*t).to_owned(),
        )
}

/// A text field's `text` in `width` characters, scrolled to its end where the typing happens:
/// `…` and the end if it is too long.
pub fn field_end(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    let kept = width.saturating_sub(1);
    let mut shown = String::from("…");
    shown.extend(text.chars().skip(count - kept));
    shown
}

/// `text` cut to `width` characters, with `…` if it was cut.
pub fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// `text` with control characters, invisible characters and text-direction controls
/// ([`quote::is_invisible`]) shown as `�`, one column each: typed text reads as it is.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if is_hidden(c) { '\u{fffd}' } else { c })
        .collect()
}

/// Whether [`printable`] shows `c` as `�`.
fn is_hidden(c: char) -> bool {
    c.is_control() || quote::is_invisible(c)
}

/// The words of [`printable`]`(text)`, as `split_whitespace` would find them there, read
/// as they are needed (not yet shown printable: `printable` keeps the columns).
pub fn printable_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() && !is_hidden(c))
        .filter(|word| !word.is_empty())
}

/// `line` drawn in `style` throughout (a selected row): every span's own colours give way,
/// so that none is left the colour of the highlight.
pub fn highlight(mut line: Line<'_>, style: Style) -> Line<'_> {
    for span in &mut line.spans {
        span.style = span.style.patch(style);
    }
    line.style(style)
}

/// `Attackers`, `Defenders`.
pub const fn title(side: Side) -> &'static str {
    match side {
        Side::Attackers => "Attackers",
        Side::Defenders => "Defenders",
    }
}

/// How a player is named: `human`, `AI hard`, `AI max 3s` (the level `max` with its time
/// per move, 1 s unless given another), `AI random`.
pub fn player_text(player: Player) -> String {
    match player {
        Player::Human => "human".to_owned(),
        Player::Program => "program".to_owned(),
        Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time,
        } => format!("AI max {}", time.unwrap_or_default()),
        Player::Ai {
            engine: EngineKind::Search,
            level,
            ..
        } => format!("AI {level}"),
        Player::Ai {
            engine: EngineKind::Random,
            ..
        } => "AI random".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_whole_and_lines_short() {
        let lines = wrap("the quick brown fox jumps over the lazy dog", 10);
        assert_eq!(
            lines,
            ["the quick", "brown fox", "jumps over", "the lazy", "dog"]
        );
        assert_eq!(wrap("", 5), Vec::<String>::new());
        assert_eq!(
            wrap("in /home/someone/settings.json now", 12),
            ["in /home/", "someone/", "settings.jso", "n now"]
        );
    }

    #[test]
    fn printable_text_hides_nothing() {
        assert_eq!(printable("jeu d'été ♚"), "jeu d'été ♚");
        assert_eq!(
            printable("a\u{1b}b\u{202e}c\u{200b}"),
            "a\u{fffd}b\u{fffd}c\u{fffd}"
        );
    }

    #[test]
    fn separators_and_format_characters_are_shown() {
        assert_eq!(printable("ls\u{2029}ep"), "ls\u{fffd}ep");
        assert_eq!(printable("a\u{2028}b\u{fffa}c"), "a\u{fffd}b\u{fffd}c");
    }

    #[test]
    fn fit_parts_drops_whole_parts_then_whole_words() {
        let title = "Keys · warnings on · bell off";
        assert_eq!(fit_parts(title, 40), title);
        assert_eq!(fit_parts(title, 25), "Keys · warnings on");
        assert_eq!(fit_parts(title, 10), "Keys");
        assert_eq!(fit_parts("Save the game · x", 10), "Save the");
        assert_eq!(fit_parts("Unbreakable", 5), "Unbr…");
        assert_eq!(first_fitting(&["a long one", "short"], 6), "short");
        assert_eq!(first_fitting(&["a long one", "shorter"], 3), "sh…");
    }

    #[test]
    fn keys_drop_whole_parts_before_the_last_to_fit() {
        let keys = "a step · b jump · c play from here · v back";
        assert_eq!(fit_keys(keys, 50, 1), [keys]);
        assert_eq!(fit_keys(keys, 20, 1), ["a step · v back"]);
        assert_eq!(fit_keys(keys, 20, 2), ["a step · b jump", "v back"]);
        assert_eq!(fit_keys(keys, 4, 1), ["v", "back"]);
    }

    #[test]
    fn a_field_shows_its_end() {
        assert_eq!(field_end("abc", 3), "abc");
        assert_eq!(field_end("abcdef", 4), "…def");
    }

    #[test]
    fn truncate_marks_a_cut() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdefg", 6), "abcde…");
    }

    #[test]
    fn centered_clips_to_the_area() {
        let area = Rect::new(10, 5, 20, 10);
        assert_eq!(centered(area, 10, 4), Rect::new(15, 8, 10, 4));
        assert_eq!(centered(area, 40, 40), area);
    }
}
