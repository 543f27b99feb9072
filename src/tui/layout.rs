//! Where everything goes on the screen, computed from the terminal size alone, so that mouse
//! clicks can be mapped back to squares without remembering the last frame.

use ratatui::layout::Rect;

use super::board_view::BoardGeometry;

/// The side panel's narrowest width.
pub const PANEL_MIN_WIDTH: u16 = 28;
/// The smallest cell height the game is played with.
const MIN_CELL_HEIGHT: u16 = 2;
/// Rows below the board: the status line.
const STATUS_HEIGHT: u16 = 1;

/// The smallest terminal the game can be played in.
pub fn minimum_size() -> (u16, u16) {
    let (w, h) = BoardGeometry::size(MIN_CELL_HEIGHT);
    (w + PANEL_MIN_WIDTH, h + STATUS_HEIGHT)
}

/// The areas of the game screen.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct GameLayout {
    /// The board and its labels.
    pub board: BoardGeometry,
    /// The side panel.
    pub panel: Rect,
    /// The status line at the bottom.
    pub status: Rect,
}

impl GameLayout {
    /// The layout for a terminal of `area`, or `None` if it is too small to play in.
    pub fn new(area: Rect) -> Option<GameLayout> {
        let (min_w, min_h) = minimum_size();
        if area.width < min_w || area.height < min_h {
            return None;
        }
        let status = Rect::new(
            area.x,
            area.bottom() - STATUS_HEIGHT,
            area.width,
            STATUS_HEIGHT,
        );
        let main = Rect::new(area.x, area.y, area.width, area.height - STATUS_HEIGHT);
        let h = BoardGeometry::cell_height_for(main.width - PANEL_MIN_WIDTH, main.height);
        let (board_w, _) = BoardGeometry::size(h);
        // One column of air between the board and the panel when there is room.
        let board_pane = Rect::new(
            main.x,
            main.y,
            (board_w + 2).min(main.width - PANEL_MIN_WIDTH),
            main.height,
        );
        let board = BoardGeometry::fit(board_pane, MIN_CELL_HEIGHT)?;
        let panel = Rect::new(
            board_pane.right(),
            main.y,
            main.width - board_pane.width,
            main.height,
        );
        Some(GameLayout {
            board,
            panel,
            status,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eighty_by_twenty_four_is_enough_and_cells_grow() {
        let small = GameLayout::new(Rect::new(0, 0, 80, 24)).unwrap();
        let big = GameLayout::new(Rect::new(0, 0, 160, 50)).unwrap();
        assert!(big.board.area().height > small.board.area().height);
        for l in [small, big] {
            assert!(l.board.area().right() <= l.panel.x);
            assert!(l.panel.width >= PANEL_MIN_WIDTH);
            assert!(l.board.area().bottom() <= l.status.y);
        }
    }

    #[test]
    fn too_small_terminals_have_no_layout() {
        let (w, h) = minimum_size();
        assert!(GameLayout::new(Rect::new(0, 0, w, h)).is_some());
        assert!(GameLayout::new(Rect::new(0, 0, w - 1, h)).is_none());
        assert!(GameLayout::new(Rect::new(0, 0, w, h - 1)).is_none());
        assert!(w <= 80 && h <= 24);
    }
}
