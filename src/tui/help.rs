//! The help overlay: the keys of the screen under it and what they do, then notes. On a
//! terminal too small for all of it, what each key does is wrapped under it and the overlay
//! scrolls; the first line shown is its own state, kept within the text by its update (the
//! drawing only draws).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::dialogs::popup;
use super::input::{Action, Direction};
use super::text::{centered, wrap};
use super::theme::Look;

/// Lines a page up or down scrolls.
const PAGE: usize = 10;

/// The help overlay, scrolled to a line.
#[derive(Clone, Debug)]
pub struct Help {
    title: String,
    keys: &'static [(&'static str, &'static str)],
    notes: &'static [&'static str],
    /// The first line shown.
    top: usize,
}

/// The help laid out in an area.
struct Laid {
    /// The pop-up's rectangle, borders included.
    rect: Rect,
    /// The width of the keys' column.
    key_width: usize,
    /// Each line: the keys (on the first line of what they do), and the text.
    lines: Vec<(&'static str, String)>,
    /// Where the notes begin among the lines.
    notes_from: usize,
    /// Rows for the lines inside the borders.
    rows: usize,
}

impl Help {
    /// The help titled `title`, with `keys` (keys, what they do) and `notes`, from its top.
    pub const fn new(
        title: String,
        keys: &'static [(&'static str, &'static str)],
        notes: &'static [&'static str],
    ) -> Help {
        Help {
            title,
            keys,
            notes,
            top: 0,
        }
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
    /// fit, else each text wrapped beside its key.
    fn lay_out(&self, area: Rect) -> Laid {
        let chars = |t: &str| t.chars().count();
        let key_width = self.keys.iter().map(|(k, _)| chars(k)).max().unwrap_or(0) + 2;
        let text_width = self.keys.iter().map(|(_, t)| chars(t)).max().unwrap_or(0);
        // Borders and padding take 4 columns.
        let inner_width = (key_width + text_width).min(usize::from(area.width.saturating_sub(4)));
        let mut lines = Vec::new();
        for (keys, what) in self.keys {
            let wrapped = wrap(what, inner_width.saturating_sub(key_width));
            for (i, part) in wrapped.into_iter().enumerate() {
                lines.push((if i == 0 { *keys } else { "" }, part));
            }
        }
        let notes_from = lines.len();
        for note in self.notes {
            lines.push(("", String::new()));
            lines.extend(wrap(note, inner_width).into_iter().map(|part| ("", part)));
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
        let inner = popup(&self.help.title, self.look, rect, buf);
        let count = lines.len();
        // Within the text, whatever the state says (it is kept so by the update).
        let top = self.help.top.min(count.saturating_sub(rows));
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
        let hint = match (scrolls, more_below) {
            (true, true) => " ↓ more · ↑↓ scroll · Esc or ? to close ",
            (true, false) => " ↑↓ scroll · Esc or ? to close ",
            (false, _) => " Esc or ? to close ",
        };
        Line::styled(hint, theme.label).render(close, buf);
        if top > 0 {
            let above = Rect { y: rect.y, ..close };
            Line::styled(" ↑ more ", theme.label)
                .right_aligned()
                .render(above, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::input::BOARD_KEYS;

    #[test]
    fn the_help_scrolls_within_its_text_and_a_resize_keeps_it_there() {
        let small = Rect::new(0, 0, 30, 12);
        let mut help = Help::new("Keys".to_owned(), BOARD_KEYS, &[]);
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
