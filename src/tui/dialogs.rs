//! Pop-ups over the game: the help overlay, yes/no questions, the save prompt and the list of
//! saved games.

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget, Wrap};

use super::input::Direction;
use super::screens::wrap;
use super::theme::Look;
use crate::game::storage::SaveEntry;
use crate::rules::Side;

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

/// A cleared, bordered pop-up with `title`; returns its inner area.
fn popup(title: &str, look: &Look, rect: Rect, buf: &mut Buffer) -> Rect {
    Clear.render(rect, buf);
    let block = Block::bordered()
        .title(Line::from(format!(" {title} ")).style(look.theme.heading))
        .border_style(look.theme.heading)
        .padding(Padding::horizontal(1));
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// Draws the pop-up `title` with the list of `keys` (keys, what they do), then `notes` wrapped
/// to the width.
pub fn render_help(
    title: &str,
    keys: &[(&str, &str)],
    notes: &[&str],
    look: &Look,
    area: Rect,
    buf: &mut Buffer,
) {
    let chars = |t: &str| t.chars().count();
    let key_width = keys.iter().map(|(k, _)| chars(k)).max().unwrap_or(0) + 2;
    let text_width = keys.iter().map(|(_, t)| chars(t)).max().unwrap_or(0);
    let inner_width = key_width + text_width;
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!("{keys:<key_width$}"), look.theme.heading),
                Span::raw(*what),
            ])
        })
        .collect();
    for note in notes {
        lines.push(Line::default());
        lines.extend(wrap(note, inner_width).into_iter().map(Line::raw));
    }
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let width = u16::try_from(inner_width + 4).unwrap_or(u16::MAX);
    let rect = centered(area, width, rows.saturating_add(2));
    let inner = popup(title, look, rect, buf);
    Paragraph::new(lines).render(inner, buf);
    // How to close it, on the bottom border.
    let close = Rect::new(
        rect.x + 1,
        rect.bottom() - 1,
        rect.width.saturating_sub(2),
        1,
    );
    Line::styled(" Esc or ? to close ", look.theme.label).render(close, buf);
}

/// A yes/no question.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Question {
    /// Quit with moves not saved to a file? (Says whether the autosave keeps them.)
    Quit {
        /// Whether the game is autosaved.
        autosaved: bool,
    },
    /// Resign for this side?
    Resign(Side),
    /// This side offers a draw: does the other accept?
    Draw(Side),
}

impl Question {
    /// The question in words.
    pub fn text(self) -> String {
        match self {
            Question::Quit { autosaved: true } => "The game is not saved to a file (the autosave \
                 keeps it: brandubh --resume). Quit anyway?"
                .to_owned(),
            Question::Quit { autosaved: false } => {
                "The game is not saved to a file. Quit anyway?".to_owned()
            }
            Question::Resign(side) => format!("Resign the game for the {side}?"),
            Question::Draw(side) => format!(
                "The {side} offer a draw. Do the {} accept?",
                side.opponent()
            ),
        }
    }

    /// Draws the question in a pop-up.
    pub fn render(self, look: &Look, area: Rect, buf: &mut Buffer) {
        let text = self.text();
        let width = u16::try_from(text.len() + 4)
            .unwrap_or(u16::MAX)
            .clamp(30, 64)
            .min(area.width);
        let text_rows = wrap(&text, usize::from(width.saturating_sub(4))).len();
        let height = u16::try_from(text_rows).unwrap_or(1) + 4;
        let rect = centered(area, width, height);
        let inner = popup("Question", look, rect, buf);
        Paragraph::new(vec![
            Line::raw(text),
            Line::default(),
            Line::from(vec![
                Span::styled("y", look.theme.heading),
                Span::raw(" yes   "),
                Span::styled("n", look.theme.heading),
                Span::raw(" no"),
            ]),
        ])
        .wrap(Wrap { trim: true })
        .render(inner, buf);
    }
}

/// The prompt for the file to save to: a name in the save folder, or a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavePrompt {
    dir: PathBuf,
    text: String,
}

impl SavePrompt {
    /// A prompt in `dir` offering `default` (shown as a bare name when it lies in `dir`).
    pub fn new(dir: PathBuf, default: &Path) -> SavePrompt {
        let text = match (default.parent(), default.file_name()) {
            (Some(parent), Some(name)) if parent == dir => name.to_string_lossy().into_owned(),
            _ => default.display().to_string(),
        };
        SavePrompt { dir, text }
    }

    /// Types a character.
    pub fn push(&mut self, c: char) {
        self.text.push(c);
    }

    /// Deletes the last character.
    pub fn pop(&mut self) {
        self.text.pop();
    }

    /// The file the text names: a bare name goes in the save folder and gets `.json` if it has
    /// no extension; a text with a `/` is a path. `None` when the text is empty.
    pub fn path(&self) -> Option<PathBuf> {
        let text = self.text.trim();
        if text.is_empty() {
            return None;
        }
        let mut path = if text.contains(std::path::MAIN_SEPARATOR) || text.contains('/') {
            PathBuf::from(text)
        } else {
            self.dir.join(text)
        };
        if path.extension().is_none() {
            path.set_extension("json");
        }
        Some(path)
    }

    /// Draws the prompt.
    pub fn render(&self, look: &Look, area: Rect, buf: &mut Buffer) {
        let rect = centered(area, 64, 7);
        let inner = popup("Save game", look, rect, buf);
        Paragraph::new(vec![
            Line::styled(format!("in {}", self.dir.display()), look.theme.label),
            Line::default(),
            Line::from(vec![
                Span::styled("file: ", look.theme.heading),
                Span::raw(self.text.clone()),
                Span::styled("_", look.theme.focus),
            ]),
            Line::default(),
            Line::styled("Enter save · Esc cancel", look.theme.label),
        ])
        .render(inner, buf);
    }
}

/// The list of saved games to load from.
#[derive(Debug)]
pub struct SavesList {
    dir: PathBuf,
    entries: Vec<SaveEntry>,
    selected: usize,
}

impl SavesList {
    /// The saves found in `dir`, newest first, the first one selected.
    pub const fn new(dir: PathBuf, entries: Vec<SaveEntry>) -> SavesList {
        SavesList {
            dir,
            entries,
            selected: 0,
        }
    }

    /// Moves the selection up or down.
    pub fn move_selection(&mut self, dir: Direction) {
        let last = self.entries.len().saturating_sub(1);
        self.selected = match dir {
            Direction::Up | Direction::Left => self.selected.saturating_sub(1),
            Direction::Down | Direction::Right => (self.selected + 1).min(last),
        };
    }

    /// Selects the entry drawn at screen `row` of a screen of `area`, if any.
    pub fn click(&mut self, area: Rect, row: u16) -> bool {
        let first = SavesList::rect(area).y + 1;
        match row.checked_sub(first).map(usize::from) {
            Some(i) if i < self.entries.len() => {
                self.selected = i;
                true
            }
            _ => false,
        }
    }

    /// The selected file.
    pub fn selected(&self) -> Option<&SaveEntry> {
        self.entries.get(self.selected)
    }

    fn rect(area: Rect) -> Rect {
        centered(
            area,
            area.width.saturating_sub(4).min(100),
            area.height.saturating_sub(2),
        )
    }

    /// Draws the list.
    pub fn render(&self, look: &Look, area: Rect, buf: &mut Buffer) {
        let rect = SavesList::rect(area);
        let title = format!("Load a game from {}", self.dir.display());
        let inner = popup(&title, look, rect, buf);
        let rows = usize::from(inner.height.saturating_sub(2));
        let top = self.selected.saturating_sub(rows.saturating_sub(1));
        let mut lines: Vec<Line> = self
            .entries
            .iter()
            .enumerate()
            .skip(top)
            .take(rows)
            .map(|(i, e)| {
                let summary = match &e.summary {
                    Ok(s) => Span::raw(s.clone()),
                    Err(err) => Span::styled(format!("cannot load: {err}"), look.theme.error),
                };
                let name = Span::styled(format!("{:<24} ", e.name), look.theme.heading);
                let line = Line::from(vec![name, summary]);
                if i == self.selected {
                    line.style(look.theme.focus)
                } else {
                    line
                }
            })
            .collect();
        if self.entries.is_empty() {
            lines.push(Line::raw("no saved games yet"));
        }
        let footer = Rect {
            y: inner.bottom().saturating_sub(1),
            height: 1,
            ..inner
        };
        Paragraph::new(lines).render(inner, buf);
        Line::styled("↑↓ choose · Enter load · Esc cancel", look.theme.label).render(footer, buf);
    }
}
