//! Pop-ups over the game: the help overlay and yes/no questions.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::input::BOARD_KEYS;
use super::theme::Look;
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
        .border_style(look.theme.heading);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// Draws the list of keys.
pub fn render_help(look: &Look, area: Rect, buf: &mut Buffer) {
    let key_width = BOARD_KEYS.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 2;
    let text_width = BOARD_KEYS.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let rows = u16::try_from(BOARD_KEYS.len() + 2).unwrap_or(u16::MAX);
    let width = u16::try_from(key_width + text_width + 4).unwrap_or(u16::MAX);
    let rect = centered(area, width, rows + 2);
    let inner = popup("Keys", look, rect, buf);
    let mut lines: Vec<Line> = BOARD_KEYS
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!(" {keys:<key_width$}"), look.theme.heading),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::styled(" Esc or ? to close", look.theme.label));
    Paragraph::new(lines).render(inner, buf);
}

/// A yes/no question.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Question {
    /// Quit with moves not saved?
    Quit,
    /// Resign for this side?
    Resign(Side),
    /// This side offers a draw: does the other accept?
    Draw(Side),
}

impl Question {
    /// The question in words.
    pub fn text(self) -> String {
        match self {
            Question::Quit => "Some moves are not saved. Quit anyway?".to_owned(),
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
            .clamp(30, 60);
        let rect = centered(area, width, 6);
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
