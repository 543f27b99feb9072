//! The legend of the review's marks: what each mark on the board, in the move list and on
//! the graph means. `l` shows it in the review panel, and the review's help lists it; both
//! read [`MARKS`], and draw each mark as the board and the list draw it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::board_view::{BEST_BRACKETS, PLAYED_BRACKETS};
use super::text::wrap;
use super::theme::{Glyphs, Look};
use crate::game::MoveClass;

/// A mark the review draws.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Mark {
    /// The squares of the move played, bracketed.
    Played,
    /// The squares of the engine's best move, bracketed otherwise.
    Best,
    /// A square whose piece the move captured.
    Captured,
    /// The piece selected to try a move, and where it can go.
    Selected,
    /// The move list's mark of an only move.
    OnlyMove,
    /// The move list's mark of a class of moves.
    Class(MoveClass),
    /// The graph's sides.
    Graph,
}

/// Every mark of the review, with what it means.
pub const MARKS: &[(Mark, &str)] = &[
    (Mark::Played, "move played"),
    (Mark::Best, "engine's best move"),
    (Mark::Captured, "piece captured"),
    (Mark::Selected, "selected, its moves"),
    (Mark::OnlyMove, "only move"),
    (Mark::Class(MoveClass::Inaccuracy), "inaccuracy"),
    (Mark::Class(MoveClass::Mistake), "mistake"),
    (Mark::Class(MoveClass::Blunder), "blunder"),
    (Mark::Graph, "graph: who leads"),
];

/// The title above the legend in the panel.
const TITLE: &str = "Marks · l hides";

impl Mark {
    /// The mark as drawn, in `look`: its characters and their styles.
    fn spans(self, look: &Look) -> Vec<Span<'static>> {
        let (theme, glyphs) = (&look.theme, &look.glyphs);
        let bracketed = |(open, close): (&str, &str), style: Style| {
            let cell = style.patch(theme.bracket);
            vec![
                Span::styled(open.to_owned(), cell),
                Span::styled(glyphs.attacker, style.patch(theme.attacker)),
                Span::styled(close.to_owned(), cell),
            ]
        };
        match self {
            Mark::Played => bracketed(PLAYED_BRACKETS, theme.last_move),
            Mark::Best => bracketed(BEST_BRACKETS, theme.best),
            Mark::Captured => vec![Span::styled(
                format!(" {} ", glyphs.captured),
                theme.captured,
            )],
            Mark::Selected => {
                let mut spans = bracketed(("<", ">"), theme.selected);
                spans.push(Span::styled(glyphs.destination, theme.destination));
                spans
            }
            Mark::OnlyMove => vec![Span::styled("!", theme.good)],
            Mark::Class(class) => vec![Span::styled(
                class.mark(),
                super::analysis_text::class_style(class, look),
            )],
            Mark::Graph => vec![
                Span::styled(glyphs.attacker, theme.chip(crate::rules::Piece::Attacker)),
                Span::raw("/"),
                Span::styled(glyphs.king, theme.chip(crate::rules::Piece::King)),
            ],
        }
    }

    /// The mark's characters alone, in `glyphs`.
    fn text(self, glyphs: &Glyphs) -> String {
        let look = Look {
            glyphs: *glyphs,
            ..Look::default()
        };
        self.spans(&look)
            .iter()
            .map(|s| s.content.as_ref())
            .collect()
    }
}

/// The legend as the review's help says it, in `glyphs`: one sentence, a mark and its meaning
/// after another.
pub fn help_note(glyphs: &Glyphs) -> String {
    let marks: Vec<String> = MARKS
        .iter()
        .map(|&(mark, meaning)| format!("{} {meaning}", mark.text(glyphs).trim()))
        .collect();
    format!("Marks (l shows them in the panel): {}.", marks.join("; "))
}

/// The legend drawn in an area of the review panel.
pub struct Legend<'a> {
    /// In what colours and glyphs.
    pub look: &'a Look,
}

impl Widget for Legend<'_> {
    /// Draws the title, then a row for each mark (its meaning wrapped beside it), as many as
    /// fit.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let look = self.look;
        let mut lines = vec![Line::styled(TITLE, look.theme.heading)];
        let width = usize::from(area.width);
        for &(mark, meaning) in MARKS {
            let spans = mark.spans(look);
            let sample = Line::from(spans.clone()).width();
            let indent = sample.max(SAMPLE_WIDTH) + 1;
            for (i, part) in wrap(meaning, width.saturating_sub(indent))
                .into_iter()
                .enumerate()
            {
                let mut row = if i == 0 {
                    let mut row = spans.clone();
                    row.push(Span::raw(" ".repeat(indent - sample)));
                    row
                } else {
                    vec![Span::raw(" ".repeat(indent))]
                };
                row.push(Span::styled(part, look.theme.label));
                lines.push(Line::from(row));
            }
        }
        Paragraph::new(lines).render(area, buf);
    }
}

/// The columns the samples take at least, so that the meanings line up.
const SAMPLE_WIDTH: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_names_every_mark_in_its_own_characters() {
        let note = help_note(&Glyphs::UNICODE);
        for (_, meaning) in MARKS {
            assert!(note.contains(meaning), "{note}");
        }
        assert!(note.contains("(●) move played;"), "{note}");
        assert!(note.contains("{●} engine's best move;"), "{note}");
        assert!(note.contains("× piece captured;"), "{note}");
        let ascii = help_note(&Glyphs::ASCII);
        assert!(ascii.contains("(A) move played;"), "{ascii}");
        assert!(ascii.contains("?? blunder;"), "{ascii}");
    }
}
