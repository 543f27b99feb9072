//! The comment editor: a pop-up to write or edit the comment on a move (or the one before the
//! first move), several paragraphs long. Enter starts a new line, Ctrl-S or Alt-Enter keeps
//! the text, Esc cancels (asking first if the text changed); the arrows, Home, End, Page Up
//! and Page Down move the cursor through the text as it is wrapped on screen. A comment holds at most
//! [`MAX_TYPED_CHARS`] characters here; text pasted is typed (bracketed paste, see
//! [`super::input::pasted`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::dialogs::{popup, popup_inner};
use super::input::{Action, Direction};
use super::text::{centered, wrap};
use super::theme::Themed;
use crate::game::Place;

/// The most characters a comment written here holds.
pub const MAX_TYPED_CHARS: usize = 4000;

/// The widest the pop-up is drawn.
const MAX_WIDTH: u16 = 72;
/// The tallest the pop-up is drawn.
const MAX_HEIGHT: u16 = 20;
/// From this inner width on, the footer says every key.
const WIDE_FOOTER: usize = 56;

/// What the editor's update comes to.
#[derive(Debug, PartialEq, Eq)]
pub enum EditorHandled {
    /// The editor stays open.
    Stay,
    /// The editor closes, the comment unchanged.
    Close,
    /// The editor closes and the comment becomes this text (empty: no comment).
    Keep(String),
}

/// A comment being written: its text, the cursor, and the comment as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommentEditor {
    place: Place,
    title: String,
    text: Vec<char>,
    /// Where the cursor is, in characters from the start.
    cursor: usize,
    original: String,
    /// Esc was pressed on a changed text: the editor asks whether to drop the changes.
    asking: bool,
    /// A character was refused: the comment is full.
    full: bool,
}

impl CommentEditor {
    /// An editor of the comment `text` on the move leading to `place`, titled `title`
    /// ("Comment on 3… c4-c6"), the cursor at the end.
    pub fn new(place: Place, title: String, text: &str) -> CommentEditor {
        let text: Vec<char> = text.chars().collect();
        CommentEditor {
            place,
            title,
            cursor: text.len(),
            original: text.iter().collect(),
            text,
            asking: false,
            full: false,
        }
    }

    /// The place of the move whose comment this is.
    pub const fn place(&self) -> &Place {
        &self.place
    }

    /// The text as it is now.
    pub fn text(&self) -> String {
        self.text.iter().collect()
    }

    /// Whether the editor asks about dropping the changes (its keys are a question's).
    pub const fn is_asking(&self) -> bool {
        self.asking
    }

    /// Takes `action` on a screen of `size` (the text is wrapped as it is drawn there).
    pub fn update(&mut self, action: Action, size: Rect) -> EditorHandled {
        if self.asking {
            return match action {
                Action::Yes => EditorHandled::Close,
                Action::Save => self.keep(),
                Action::No | Action::Cancel => {
                    self.asking = false;
                    EditorHandled::Stay
                }
                _ => EditorHandled::Stay,
            };
        }
        let width = text_width(size);
        match action {
            Action::Save => return self.keep(),
            Action::Cancel if self.text() == self.original => return EditorHandled::Close,
            Action::Cancel => self.asking = true,
            Action::Type(c) => self.insert(c),
            Action::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.text.remove(self.cursor);
                self.full = false;
            }
            Action::DeleteForward if self.cursor < self.text.len() => {
                self.text.remove(self.cursor);
                self.full = false;
            }
            Action::Move(Direction::Left) => self.cursor = self.cursor.saturating_sub(1),
            Action::Move(Direction::Right) => self.cursor = (self.cursor + 1).min(self.text.len()),
            Action::Move(Direction::Up) => self.go_rows(width, -1),
            Action::Move(Direction::Down) => self.go_rows(width, 1),
            Action::PageUp => self.go_rows(width, -page(size)),
            Action::PageDown => self.go_rows(width, page(size)),
            Action::ToStart | Action::ToEnd => {
                let rows = rows(&self.text, width);
                let (start, end) = rows[row_of(&rows, self.cursor)];
                self.cursor = if action == Action::ToStart {
                    start
                } else {
                    end
                };
            }
            _ => {}
        }
        EditorHandled::Stay
    }

    fn keep(&self) -> EditorHandled {
        EditorHandled::Keep(self.text().trim_end().to_owned())
    }

    /// Types `c` at the cursor, unless the comment is full.
    fn insert(&mut self, c: char) {
        if self.text.len() >= MAX_TYPED_CHARS {
            self.full = true;
            return;
        }
        self.text.insert(self.cursor, c);
        self.cursor += 1;
    }

    /// Moves the cursor `by` rows of the text wrapped in `width` columns, to the same column
    /// as far as the row goes.
    fn go_rows(&mut self, width: usize, by: isize) {
        let rows = rows(&self.text, width);
        let here = row_of(&rows, self.cursor);
        let column = self.cursor - rows[here].0;
        let target = here.saturating_add_signed(by).min(rows.len() - 1);
        let (start, end) = rows[target];
        let mut cursor = (start + column).min(end);
        // A row cut inside a word ends where the next begins: stay on this one.
        if cursor > start && row_of(&rows, cursor) != target {
            cursor -= 1;
        }
        self.cursor = cursor;
    }
}

/// The rows of `text` wrapped in `width` columns, each as the range of its characters: a
/// line break ends a row, a row ends before the last space that fits (which no row shows) or,
/// for a word longer than a row, after `width` characters.
fn rows(text: &[char], width: usize) -> Vec<(usize, usize)> {
    let width = width.max(1);
    let mut rows = Vec::new();
    let mut start = 0;
    let end_of_line = |from: usize| {
        text[from..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(text.len(), |i| from + i)
    };
    // The end of the line `start` is in, found once a line: each row reads only its own.
    let mut line_end = end_of_line(0);
    loop {
        if line_end < start {
            line_end = end_of_line(start);
        }
        if line_end - start <= width {
            rows.push((start, line_end));
            if line_end == text.len() {
                return rows;
            }
            start = line_end + 1;
            continue;
        }
        match text[start..=start + width].iter().rposition(|&c| c == ' ') {
            Some(space) if space > 0 => {
                rows.push((start, start + space));
                start += space + 1;
            }
            _ => {
                rows.push((start, start + width));
                start += width;
            }
        }
    }
}

/// The row the cursor at `cursor` is on: the last that starts at or before it.
fn row_of(rows: &[(usize, usize)], cursor: usize) -> usize {
    rows.iter()
        .rposition(|&(start, _)| start <= cursor)
        .unwrap_or(0)
}

/// The pop-up on a screen of `area`.
fn rect(area: Rect) -> Rect {
    centered(area, area.width.min(MAX_WIDTH), area.height.min(MAX_HEIGHT))
}

/// The columns the text is wrapped in on a screen of `size`: the pop-up's inside, less one
/// for the cursor after a full row.
fn text_width(size: Rect) -> usize {
    usize::from(popup_inner(rect(size)).width.saturating_sub(1)).max(1)
}

/// The rows of text a page moves on a screen of `size`.
fn page(size: Rect) -> isize {
    let inner = popup_inner(rect(size));
    let footer = footer(usize::from(inner.width), false).len() + 1;
    isize::try_from(usize::from(inner.height).saturating_sub(footer).max(1)).unwrap_or(1)
}

/// The keys under the text, in `width` columns (the question while `asking`).
fn footer(width: usize, asking: bool) -> Vec<String> {
    let keys = if asking {
        "Drop the changes? y drop · n go on writing · s save"
    } else if width >= WIDE_FOOTER {
        "Enter new line · Ctrl-S or Alt-Enter save · Esc cancel"
    } else {
        "Ctrl-S save · Esc cancel"
    };
    wrap(keys, width)
}

impl Widget for Themed<'_, CommentEditor> {
    /// Draws the editor: the text wrapped, scrolled so that the cursor shows, the keys under
    /// it and the count of characters on the bottom border.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let rect = rect(area);
        let inner = popup(&of.title, look, rect, buf);
        let width = usize::from(inner.width);
        let footer = footer(width, of.asking);
        let text_rows = usize::from(inner.height).saturating_sub(footer.len() + 1);
        let rows = rows(&of.text, text_width(area));
        let here = row_of(&rows, of.cursor);
        let top = here.saturating_sub(text_rows.saturating_sub(1));
        let cursor_style = look.theme.focus.add_modifier(Modifier::REVERSED);
        let mut lines: Vec<Line> = rows
            .iter()
            .enumerate()
            .skip(top)
            .take(text_rows)
            .map(|(i, &(start, end))| {
                let shown: String = of.text[start..end]
                    .iter()
                    .map(|&c| if c.is_control() { ' ' } else { c })
                    .collect();
                if i != here || of.asking {
                    return Line::raw(shown);
                }
                let column = of.cursor - start;
                let (before, after): (String, String) = (
                    shown.chars().take(column).collect(),
                    shown.chars().skip(column).collect(),
                );
                let mut tail = after.chars();
                let under = tail.next().map_or_else(|| " ".to_owned(), String::from);
                Line::from(vec![
                    Span::raw(before),
                    Span::styled(under, cursor_style),
                    Span::raw(tail.collect::<String>()),
                ])
            })
            .collect();
        lines.resize(text_rows, Line::default());
        lines.push(Line::default());
        let footer_style = if of.asking {
            look.theme.error
        } else {
            look.theme.label
        };
        lines.extend(footer.into_iter().map(|l| Line::styled(l, footer_style)));
        Paragraph::new(lines).render(inner, buf);
        // The count, on the bottom border at the right.
        let count = if of.full {
            format!(" full: {MAX_TYPED_CHARS} characters at most ")
        } else {
            format!(" {}/{MAX_TYPED_CHARS} ", of.text.len())
        };
        let count_style = if of.full {
            look.theme.error
        } else {
            look.theme.label
        };
        let len = u16::try_from(count.chars().count()).unwrap_or(u16::MAX);
        if len + 2 <= rect.width {
            let x = rect.right() - len - 1;
            buf.set_string(x, rect.bottom() - 1, count, count_style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::input::REVIEW_NOTES;

    const SIZE: Rect = Rect::new(0, 0, 80, 24);

    fn editor(text: &str) -> CommentEditor {
        CommentEditor::new(Place::main(0), "Comment".to_owned(), text)
    }

    fn type_text(editor: &mut CommentEditor, text: &str) {
        for c in text.chars() {
            assert_eq!(editor.update(Action::Type(c), SIZE), EditorHandled::Stay);
        }
    }

    #[test]
    fn rows_wrap_at_spaces_and_break_long_words_and_lines() {
        let text: Vec<char> = "one two three\n\nfour_five_six".chars().collect();
        let rows = rows(&text, 7);
        let shown: Vec<String> = rows
            .iter()
            .map(|&(s, e)| text[s..e].iter().collect())
            .collect();
        assert_eq!(shown, ["one two", "three", "", "four_fi", "ve_six"]);
        assert_eq!(super::rows(&[], 7), [(0, 0)]);
    }

    #[test]
    fn enter_writes_paragraphs_and_ctrl_s_keeps_them_trimmed() {
        let mut e = editor("");
        type_text(&mut e, "First.\n\nSecond.\n\n");
        assert_eq!(
            e.update(Action::Save, SIZE),
            EditorHandled::Keep("First.\n\nSecond.".to_owned())
        );
    }

    #[test]
    fn the_cursor_moves_through_the_wrapped_text_and_edits_where_it_is() {
        let mut e = editor("ab\ncdef");
        assert_eq!(e.cursor, 7);
        e.update(Action::Move(Direction::Up), SIZE);
        assert_eq!(e.cursor, 2, "the end of the shorter row above");
        e.update(Action::ToStart, SIZE);
        assert_eq!(e.cursor, 0);
        type_text(&mut e, "X");
        e.update(Action::Move(Direction::Down), SIZE);
        assert_eq!(e.cursor, 5, "column 1 of the next row");
        e.update(Action::Backspace, SIZE);
        e.update(Action::DeleteForward, SIZE);
        assert_eq!(e.text(), "Xab\nef");
        e.update(Action::ToEnd, SIZE);
        e.update(Action::Move(Direction::Right), SIZE);
        assert_eq!(e.cursor, 6, "not past the end");
        e.update(Action::PageUp, SIZE);
        assert_eq!(
            e.cursor, 2,
            "a page up from the second row: the first, same column"
        );
    }

    #[test]
    fn esc_closes_an_unchanged_comment_and_asks_about_a_changed_one() {
        let mut e = editor("kept");
        assert_eq!(e.update(Action::Cancel, SIZE), EditorHandled::Close);
        type_text(&mut e, "!");
        assert_eq!(e.update(Action::Cancel, SIZE), EditorHandled::Stay);
        assert!(e.is_asking());
        assert_eq!(e.update(Action::No, SIZE), EditorHandled::Stay);
        assert!(!e.is_asking(), "back to writing");
        let mut dropped = e.clone();
        e.update(Action::Cancel, SIZE);
        assert_eq!(
            e.update(Action::Save, SIZE),
            EditorHandled::Keep("kept!".to_owned()),
            "s at the question saves"
        );
        dropped.update(Action::Cancel, SIZE);
        assert_eq!(dropped.update(Action::Yes, SIZE), EditorHandled::Close);
    }

    #[test]
    fn a_full_comment_takes_no_more_and_says_so() {
        let mut e = editor(&"x".repeat(MAX_TYPED_CHARS - 1));
        type_text(&mut e, "yz");
        assert_eq!(e.text().chars().count(), MAX_TYPED_CHARS);
        assert!(e.text().ends_with('y'));
        assert!(e.full);
        e.update(Action::Backspace, SIZE);
        assert!(!e.full);
        let said = format!("{MAX_TYPED_CHARS} characters");
        assert!(
            REVIEW_NOTES.iter().any(|note| note.contains(&said)),
            "the help says it"
        );
    }
}
