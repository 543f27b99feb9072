//! The help overlay: the keys of the screen under it and what they do, then notes. On a
//! terminal too small for all of it, what each key does is wrapped under it and the overlay
//! scrolls; the first line shown is its own state, kept within the text by its update (the
//! drawing only draws).

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::dialogs::popup;
use super::input::{Action, Direction, Key, KeyTable};
use super::text::{centered, first_fitting, fit_parts, wrap};
use super::theme::Look;

/// Lines a page up or down scrolls.
const PAGE: usize = 10;
/// The narrowest column of what the keys do beside them: narrower, the help is in one column.
const MIN_TEXT_WIDTH: usize = 20;
/// What the keys do, under them in one column.
const INDENT: &str = "  ";
/// On the top border when lines are above.
const MORE_ABOVE: &str = " ↑ more ";

/// The help overlay, scrolled to a line.
#[derive(Clone, Debug)]
pub struct Help {
    title: String,
    keys: &'static [Key],
    notes: Vec<Cow<'static, str>>,
    /// The first line shown.
    top: usize,
}

/// The help laid out in an area.
struct Laid {
    /// The pop-up's rectangle, borders included.
    rect: Rect,
    /// The width of the keys' column.
    key_width: usize,
    /// Each line: the keys (on the first line of what they do; in one column, on a line of
    /// their own), and the text.
    lines: Vec<(String, String)>,
    /// Where the notes begin among the lines.
    notes_from: usize,
    /// Rows for the lines inside the borders.
    rows: usize,
}

impl Help {
    /// The help titled `title`, with the keys and notes of `table`, from its top.
    pub fn new(title: String, table: &KeyTable) -> Help {
        Help {
            title,
            keys: table.keys,
            notes: table.notes.iter().map(|&n| Cow::Borrowed(n)).collect(),
            top: 0,
        }
    }

    /// The same help with `note` after its notes.
    #[must_use]
    pub fn with_note(mut self, note: String) -> Help {
        self.notes.push(Cow::Owned(note));
        self
    }

    /// Scrolls for `action` (arrows, pages) on a screen of `area`, never past the end;
    /// returns whether it was a scroll.
    pub fn scroll(&mut self, action: Action, area: Rect) -> bool {
        let top = match action {
            Action::Move(Direction::Up) => self.top.saturating_sub(1),
            Action::Move(Direction::Down) => self.top + 1,
            Action::PageUp => self.top.saturating_sub(PAGE),
            Action::PageDown => self.top + PAGE,
            _ => return false,
        };
        self.top = top;
        self.fit(area);
        true
    }

    /// Keeps the first line shown within the text on a screen of `area` (after a resize).
    pub fn fit(&mut self, area: Rect) {
        self.top = self.top.min(self.last_top(area));
    }

    /// The first line shown when the end is in view, on a screen of `area`.
    fn last_top(&self, area: Rect) -> usize {
        let laid = self.lay_out(area);
        laid.lines.len().saturating_sub(laid.rows)
    }

    /// The help laid out on a screen of `area`: the widest key and text side by side if they
    /// fit, else each text wrapped beside its key, and on a screen too narrow for that, in one
    /// column: each key's line, then what it does, indented, every line wrapped by words.
    fn lay_out(&self, area: Rect) -> Laid {
        let chars = |t: &str| t.chars().count();
        let widest_keys = self.keys.iter().map(|k| chars(k.keys)).max().unwrap_or(0);
        let text_width = self.keys.iter().map(|k| chars(k.does)).max().unwrap_or(0);
        // Borders and padding take 4 columns.
        let room = usize::from(area.width.saturating_sub(4));
        let side_by_side = room.saturating_sub(widest_keys + 2) >= MIN_TEXT_WIDTH.min(text_width);
        let mut lines = Vec::new();
        let (key_width, inner_width) = if side_by_side {
            let key_width = widest_keys + 2;
            let inner_width = (key_width + text_width).min(room);
            for &Key { keys, does, .. } in self.keys {
                let wrapped = wrap(does, inner_width.saturating_sub(key_width));
                for (i, part) in wrapped.into_iter().enumerate() {
                    let keys = if i == 0 { keys } else { "" };
                    lines.push((keys.to_owned(), part));
                }
            }
            (key_width, inner_width)
        } else {
            let inner_width = widest_keys.max(text_width + INDENT.len()).min(room);
            for &Key { keys, does, .. } in self.keys {
                lines.extend(
                    wrap(keys, inner_width)
                        .into_iter()
                        .map(|k| (k, String::new())),
                );
                for part in wrap(does, inner_width.saturating_sub(INDENT.len())) {
                    lines.push((String::new(), format!("{INDENT}{part}")));
                }
            }
            (0, inner_width)
        };
        let notes_from = lines.len();
        for note in &self.notes {
            lines.push((String::new(), String::new()));
            lines.extend(
                wrap(note, inner_width)
                    .into_iter()
                    .map(|part| (String::new(), part)),
            );
        }
        let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        let width = u16::try_from(inner_width + 4).unwrap_or(u16::MAX);
        let rect = centered(area, width, rows.saturating_add(2));
        Laid {
            rect,
            key_width,
            lines,
            notes_from,
            rows: usize::from(rect.height.saturating_sub(2)),
        }
    }

    /// The widget that draws it in `look`.
    pub const fn view<'a>(&'a self, look: &'a Look) -> HelpView<'a> {
        HelpView { help: self, look }
    }
}

/// The help drawn in a look.
pub struct HelpView<'a> {
    help: &'a Help,
    look: &'a Look,
}

impl Widget for HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Laid {
            rect,
            key_width,
            lines,
            notes_from,
            rows,
        } = self.help.lay_out(area);
        let theme = &self.look.theme;
        let count = lines.len();
        // Within the text, whatever the state says (it is kept so by the update).
        let top = self.help.top.min(count.saturating_sub(rows));
        // The title leaves room for the mark of lines above.
        let above = if top > 0 { MORE_ABOVE } else { "" };
        let room = usize::from(rect.width.saturating_sub(4)).saturating_sub(above.chars().count());
        let inner = popup(&fit_parts(&self.help.title, room), self.look, rect, buf);
        let shown: Vec<Line> = lines
            .into_iter()
            .enumerate()
            .skip(top)
            .map(|(i, (keys, text))| {
                if i < notes_from {
                    Line::from(vec![
                        Span::styled(format!("{keys:<key_width$}"), theme.heading),
                        Span::raw(text),
                    ])
                } else {
                    Line::raw(text)
                }
            })
            .collect();
        Paragraph::new(shown).render(inner, buf);
        // How to close it (and scroll it), on the bottom border.
        let close = Rect::new(
            rect.x + 1,
            rect.bottom() - 1,
            rect.width.saturating_sub(2),
            1,
        );
        let scrolls = count > rows;
        let more_below = top + rows < count;
        let hints: &[&str] = match (scrolls, more_below) {
            (true, true) => &[
                " ↓ more · ↑↓ scroll · Esc or ? to close ",
                " ↓ more · Esc or ? to close ",
                " ↓ more · Esc closes ",
                " ↓ · Esc closes ",
            ],
            (true, false) => &[" ↑↓ scroll · Esc or ? to close ", " Esc closes "],
            (false, _) => &[" Esc or ? to close ", " Esc closes "],
        };
        let hint = first_fitting(hints, usize::from(close.width));
        Line::styled(hint, theme.label).render(close, buf);
        if top > 0 {
            let above = Rect { y: rect.y, ..close };
            Line::styled(MORE_ABOVE, theme.label)
                .right_aligned()
                .render(above, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::input::BOARD_KEYS;

    /// The words of `lines`, in order.
    fn words<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
        lines.into_iter().flat_map(str::split_whitespace).collect()
    }

    #[test]
    fn on_a_narrow_screen_the_help_keeps_every_word_whole() {
        let table = KeyTable {
            notes: &["a note that is long enough"],
            ..BOARD_KEYS
        };
        let help = Help::new("Keys".to_owned(), &table);
        let expected = words(
            BOARD_KEYS
                .keys
                .iter()
                .flat_map(|k| [k.keys, k.does])
                .chain(["a note that is long enough"]),
        );
        for (width, height) in [(20, 6), (30, 12), (40, 15), (80, 24)] {
            let laid = help.lay_out(Rect::new(0, 0, width, height));
            let inner = usize::from(laid.rect.width - 4);
            let shown: Vec<String> = laid
                .lines
                .iter()
                .map(|(keys, text)| {
                    if keys.is_empty() {
                        text.clone()
                    } else {
                        format!("{keys:<w$}{text}", w = laid.key_width)
                    }
                })
                .collect();
            for line in &shown {
                assert!(
                    line.trim_end().chars().count() <= inner,
                    "{width}x{height}: {line:?} wider than {inner}"
                );
            }
            assert_eq!(
                words(shown.iter().map(String::as_str)),
                expected,
                "{width}x{height}"
            );
        }
    }

    #[test]
    fn the_help_scrolls_within_its_text_and_a_resize_keeps_it_there() {
        let small = Rect::new(0, 0, 30, 12);
        let mut help = Help::new("Keys".to_owned(), &BOARD_KEYS);
        let last = help.last_top(small);
        assert!(last > 0, "too small for all of it");
        for _ in 0..last + 5 {
            assert!(help.scroll(Action::Move(Direction::Down), small));
        }
        assert_eq!(help.top, last, "no further than the end");
        assert!(help.scroll(Action::Move(Direction::Up), small));
        assert_eq!(help.top, last - 1, "one up from the end at once");
        assert!(!help.scroll(Action::Confirm, small));
        help.scroll(Action::PageDown, small);
        let big = Rect::new(0, 0, 200, 60);
        help.fit(big);
        assert_eq!(help.top, 0, "all of it shows");
    }
}
