//! The board: 7×7 cells that grow with the terminal, rank labels on the left and file labels
//! below (a1 bottom-left), pieces, throne and corners, and the marks of the game.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use super::theme::Look;
use crate::game::{Ply, PlyAnalysis};
use crate::rules::{Bitboard, Move, Position, SIZE, Square};

/// Columns taken by the rank labels left of the board.
const LABEL_WIDTH: u16 = 2;
/// Rows taken by the file labels below the board.
const LABEL_HEIGHT: u16 = 1;
const CELLS: u16 = SIZE as u16;

/// The brackets around the glyphs of the move played, in review: they tell it from the
/// engine's best move without colour.
pub const PLAYED_BRACKETS: (&str, &str) = ("(", ")");
/// The brackets around the glyphs of the engine's best move, in review.
pub const BEST_BRACKETS: (&str, &str) = ("{", "}");

/// Where the board sits on the screen and how big its cells are.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct BoardGeometry {
    /// Top-left corner of cell a7 (the board without labels).
    x: u16,
    y: u16,
    cell_width: u16,
    cell_height: u16,
}

impl BoardGeometry {
    /// Cell height for a board of labels and cells fitting in `width`×`height`; cells are
    /// `2h+1` wide so that they look square. Zero if not even the smallest board fits.
    pub fn cell_height_for(width: u16, height: u16) -> u16 {
        let by_height = height.saturating_sub(LABEL_HEIGHT) / CELLS;
        let by_width = (width.saturating_sub(LABEL_WIDTH) / CELLS).saturating_sub(1) / 2;
        by_height.min(by_width)
    }

    /// The size (labels included) of a board with cells `cell_height` high.
    pub const fn size(cell_height: u16) -> (u16, u16) {
        (
            LABEL_WIDTH + CELLS * (2 * cell_height + 1),
            LABEL_HEIGHT + CELLS * cell_height,
        )
    }

    /// The biggest board centred in `area`, if one with cells at least `min_cell_height` fits.
    pub fn fit(area: Rect, min_cell_height: u16) -> Option<BoardGeometry> {
        let h = BoardGeometry::cell_height_for(area.width, area.height);
        if h < min_cell_height.max(1) {
            return None;
        }
        let (w, total_h) = BoardGeometry::size(h);
        let left = area.x + (area.width - w) / 2;
        let top = area.y + (area.height - total_h) / 2;
        Some(BoardGeometry {
            x: left + LABEL_WIDTH,
            y: top,
            cell_width: 2 * h + 1,
            cell_height: h,
        })
    }

    /// The screen rectangle of `sq`'s cell.
    pub fn cell(self, sq: Square) -> Rect {
        let col = u16::from(sq.file());
        let row = CELLS - 1 - u16::from(sq.rank());
        Rect::new(
            self.x + col * self.cell_width,
            self.y + row * self.cell_height,
            self.cell_width,
            self.cell_height,
        )
    }

    /// The square under the screen position (`column`, `row`), if any.
    pub fn square_at(self, column: u16, row: u16) -> Option<Square> {
        let dx = column.checked_sub(self.x)? / self.cell_width;
        let dy = row.checked_sub(self.y)? / self.cell_height;
        if dx >= CELLS || dy >= CELLS {
            return None;
        }
        Square::new(u8::try_from(dx).ok()?, u8::try_from(CELLS - 1 - dy).ok()?)
    }

    /// The whole board with its labels.
    pub fn area(self) -> Rect {
        Rect::new(
            self.x - LABEL_WIDTH,
            self.y,
            LABEL_WIDTH + CELLS * self.cell_width,
            CELLS * self.cell_height + LABEL_HEIGHT,
        )
    }
}

/// What to mark on the board besides the pieces.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The keyboard cursor.
    pub cursor: Option<Square>,
    /// The selected piece.
    pub selected: Option<Square>,
    /// The selected piece's legal destinations.
    pub destinations: Bitboard,
    /// The last move played.
    pub last_move: Option<Move>,
    /// The squares whose pieces the last move captured, the king's included.
    pub captured: Bitboard,
    /// A suggested move.
    pub hint: Option<Move>,
    /// The selected piece's destinations that would repeat a position.
    pub repeats: Bitboard,
    /// The move played, reviewed: its squares coloured as the last move and bracketed
    /// ([`PLAYED_BRACKETS`]).
    pub played: Option<Move>,
    /// The engine's best move where it differs from the move played, in review: coloured
    /// and bracketed ([`BEST_BRACKETS`]) apart from it.
    pub best: Option<Move>,
}

impl Marks {
    /// The move that led to `ply` and what it captured, the king included; nothing else.
    pub fn after(ply: &Ply) -> Marks {
        Marks {
            last_move: ply.played.map(|p| p.mv),
            captured: ply.captured,
            ..Marks::default()
        }
    }

    /// The marks of `ply` in review: the move played, what it captured, and, from the
    /// move's `analysis` (the first move's at the start), the engine's best move where it
    /// is another.
    pub fn reviewed(ply: &Ply, analysis: Option<&PlyAnalysis>) -> Marks {
        let played = ply.played.map(|p| p.mv);
        Marks {
            played,
            best: analysis.map(|a| a.best.mv).filter(|&b| Some(b) != played),
            captured: ply.captured,
            ..Marks::default()
        }
    }
}

/// Whether `sq` is one of the squares of `mv`.
fn on_move(mv: Option<Move>, sq: Square) -> bool {
    mv.is_some_and(|m| m.from() == sq || m.to() == sq)
}

/// The board widget.
pub struct BoardView<'a> {
    position: &'a Position,
    marks: Marks,
    look: &'a Look,
    geometry: BoardGeometry,
}

impl<'a> BoardView<'a> {
    /// The view of `position` with `marks`, drawn at `geometry`.
    pub const fn new(
        position: &'a Position,
        marks: Marks,
        look: &'a Look,
        geometry: BoardGeometry,
    ) -> BoardView<'a> {
        BoardView {
            position,
            marks,
            look,
            geometry,
        }
    }

    /// The cell style of `sq`: the strongest mark wins.
    fn style(&self, sq: Square) -> Style {
        let theme = &self.look.theme;
        let m = &self.marks;
        let last = m.last_move;
        if m.cursor == Some(sq) {
            theme.cursor
        } else if m.selected == Some(sq) {
            theme.selected
        } else if m.destinations.contains(sq) {
            theme.destination
        } else if on_move(m.hint, sq) {
            theme.hint
        } else if m.captured.contains(sq) {
            theme.captured
        } else if on_move(last, sq) || on_move(m.played, sq) {
            theme.last_move
        } else if on_move(m.best, sq) {
            theme.best
        } else {
            theme.base(sq)
        }
    }

    /// The glyph in the middle of `sq` and its style.
    fn glyph(&self, sq: Square) -> (&'static str, Style) {
        let (theme, glyphs) = (&self.look.theme, &self.look.glyphs);
        if let Some(piece) = self.position.piece_at(sq) {
            (glyphs.piece(piece), theme.piece(piece))
        } else if self.marks.repeats.contains(sq) {
            (glyphs.repeat, theme.destination)
        } else if self.marks.destinations.contains(sq) {
            (glyphs.destination, theme.destination)
        } else if self.marks.captured.contains(sq) {
            (glyphs.captured, theme.captured)
        } else if sq.is_throne() {
            (glyphs.throne, theme.throne)
        } else if sq.is_corner() {
            (glyphs.corner, theme.corner)
        } else {
            (" ", Style::new())
        }
    }

    fn render_cell(&self, sq: Square, buf: &mut Buffer) {
        let rect = self.geometry.cell(sq).intersection(buf.area);
        if rect.is_empty() {
            return;
        }
        buf.set_style(rect, self.style(sq));
        let mid_x = rect.x + rect.width / 2;
        let mid_y = rect.y + rect.height / 2;
        let (glyph, style) = self.glyph(sq);
        // Without its background, the glyph keeps the cell's.
        buf.set_string(mid_x, mid_y, glyph, Style { bg: None, ..style });
        let brackets = if self.marks.cursor == Some(sq) {
            Some(("[", "]"))
        } else if self.marks.selected == Some(sq) {
            Some(("<", ">"))
        } else if on_move(self.marks.hint, sq) {
            Some(("?", "?"))
        } else if on_move(self.marks.played, sq) {
            Some(PLAYED_BRACKETS)
        } else if on_move(self.marks.best, sq) {
            Some(BEST_BRACKETS)
        } else {
            None
        };
        if let Some((open, close)) = brackets
            && rect.width >= 3
        {
            let bracket = self.look.theme.bracket;
            buf.set_string(mid_x - 1, mid_y, open, bracket);
            buf.set_string(mid_x + 1, mid_y, close, bracket);
        }
    }
}

impl Widget for &BoardView<'_> {
    fn render(self, _area: Rect, buf: &mut Buffer) {
        for sq in Square::all() {
            self.render_cell(sq, buf);
        }
        let g = self.geometry;
        let label = self.look.theme.label;
        for i in 0..CELLS {
            let rank = CELLS - i;
            let y = g.y + i * g.cell_height + g.cell_height / 2;
            if y < buf.area.bottom() {
                buf.set_string(g.x - LABEL_WIDTH, y, rank.to_string(), label);
            }
        }
        let y = g.y + CELLS * g.cell_height;
        if y < buf.area.bottom() {
            for (i, file) in ('a'..='g').enumerate() {
                let x = g.x + u16::try_from(i).unwrap_or(0) * g.cell_width + g.cell_width / 2;
                buf.set_string(x, y, file.to_string(), label);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_grow_with_the_area() {
        assert_eq!(BoardGeometry::cell_height_for(52, 22), 3);
        assert_eq!(BoardGeometry::cell_height_for(80, 36), 5);
        assert_eq!(BoardGeometry::cell_height_for(30, 40), 1);
        assert_eq!(BoardGeometry::cell_height_for(10, 5), 0);
        assert!(BoardGeometry::fit(Rect::new(0, 0, 10, 5), 1).is_none());
    }

    #[test]
    fn screen_positions_map_back_to_squares() {
        let g = BoardGeometry::fit(Rect::new(3, 1, 60, 30), 1).unwrap();
        for sq in Square::all() {
            let cell = g.cell(sq);
            assert_eq!(g.square_at(cell.x, cell.y), Some(sq));
            assert_eq!(g.square_at(cell.right() - 1, cell.bottom() - 1), Some(sq));
        }
        let area = g.area();
        assert_eq!(
            g.square_at(area.x, area.y),
            None,
            "rank labels are not squares"
        );
        assert_eq!(g.square_at(area.right(), area.y), None);
        let a1 = g.cell("a1".parse().unwrap());
        assert_eq!(a1.bottom(), area.bottom() - 1, "a1 is bottom-left");
    }
}
