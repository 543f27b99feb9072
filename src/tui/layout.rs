//! Where everything goes on the screen, computed from the terminal size alone, so that mouse
//! clicks can be mapped back to squares without remembering the last frame.
//!
//! Two layouts: the wide one, the panel beside the board (from [`wide_size`] up; on a big
//! terminal the cells and the panel stop growing and the whole is centred), and the compact
//! one below it (down to [`minimum_size`]): the board, a line saying whose turn it is, and the
//! status line, with the panel drawn over the board on `Tab`.

use ratatui::layout::Rect;

use super::board_view::BoardGeometry;

/// The side panel's narrowest width.
pub const PANEL_MIN_WIDTH: u16 = 28;
/// The side panel's widest width: more would be empty space.
pub const PANEL_MAX_WIDTH: u16 = 48;
/// The smallest cell height of the wide layout.
const MIN_CELL_HEIGHT: u16 = 2;
/// The biggest cell height: bigger cells only spread the one-character pieces apart.
pub const MAX_CELL_HEIGHT: u16 = 4;
/// Rows below the board in the wide layout: the status line.
const STATUS_HEIGHT: u16 = 1;
/// Rows below the board in the compact layout: the turn line and two of status.
const COMPACT_STATUS_HEIGHT: u16 = 2;
/// The smallest terminal the compact layout is drawn in.
const COMPACT_MIN: (u16, u16) = (30, 12);

/// The smallest terminal the game can be played in (the compact layout).
pub const fn minimum_size() -> (u16, u16) {
    COMPACT_MIN
}

/// The smallest terminal with the panel beside the board (the wide layout).
pub fn wide_size() -> (u16, u16) {
    let (w, h) = BoardGeometry::size(MIN_CELL_HEIGHT);
    (w + PANEL_MIN_WIDTH, h + STATUS_HEIGHT)
}

/// The areas of the game screen.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct GameLayout {
    /// The board and its labels.
    pub board: BoardGeometry,
    /// The side panel: beside the board, or in the compact layout over it (when shown).
    pub panel: Rect,
    /// The status line (two rows in the compact layout).
    pub status: Rect,
    /// In the compact layout, the line between the board and the status line: whose turn it
    /// is and how to see the panel.
    pub turn_line: Option<Rect>,
}

impl GameLayout {
    /// The layout for a terminal of `area`, or `None` if it is too small to play in.
    pub fn new(area: Rect) -> Option<GameLayout> {
        let (wide_w, wide_h) = wide_size();
        let (min_w, min_h) = minimum_size();
        if area.width >= wide_w && area.height >= wide_h {
            GameLayout::wide(area)
        } else if area.width >= min_w && area.height >= min_h {
            GameLayout::compact(area)
        } else {
            None
        }
    }

    /// Whether the panel is drawn over the board (on `Tab`) rather than beside it.
    pub const fn is_compact(&self) -> bool {
        self.turn_line.is_some()
    }

    fn wide(area: Rect) -> Option<GameLayout> {
        let main = Rect::new(area.x, area.y, area.width, area.height - STATUS_HEIGHT);
        let h = BoardGeometry::cell_height_for(main.width - PANEL_MIN_WIDTH, main.height)
            .min(MAX_CELL_HEIGHT);
        let (board_w, _) = BoardGeometry::size(h);
        // One column of air between the board and the panel when there is room.
        let board_pane_w = (board_w + 2).min(main.width - PANEL_MIN_WIDTH);
        let side_w = (main.width - board_pane_w).min(PANEL_MAX_WIDTH);
        // What the caps leave over is shared on both sides.
        let x = main.x + (main.width - board_pane_w - side_w) / 2;
        let board = BoardGeometry::fit(Rect::new(x, main.y, board_pane_w, main.height), h)?;
        Some(GameLayout {
            board,
            panel: Rect::new(x + board_pane_w, main.y, side_w, main.height),
            status: Rect::new(x, main.bottom(), board_pane_w + side_w, STATUS_HEIGHT),
            turn_line: None,
        })
    }

    fn compact(area: Rect) -> Option<GameLayout> {
        let below = COMPACT_STATUS_HEIGHT + 1;
        let main = Rect::new(area.x, area.y, area.width, area.height - below);
        let h = BoardGeometry::cell_height_for(main.width, main.height).min(MAX_CELL_HEIGHT);
        let board = BoardGeometry::fit(main, h)?;
        Some(GameLayout {
            board,
            panel: main,
            status: Rect::new(area.x, main.bottom() + 1, area.width, COMPACT_STATUS_HEIGHT),
            turn_line: Some(Rect::new(area.x, main.bottom(), area.width, 1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eighty_by_twenty_four_is_enough_and_cells_grow() {
        let small = GameLayout::new(Rect::new(0, 0, 80, 24)).unwrap();
        let big = GameLayout::new(Rect::new(0, 0, 120, 50)).unwrap();
        assert!(big.board.area().height > small.board.area().height);
        for l in [small, big] {
            assert!(!l.is_compact());
            assert!(l.board.area().right() <= l.panel.x);
            assert!(l.panel.width >= PANEL_MIN_WIDTH);
            assert!(l.board.area().bottom() <= l.status.y);
        }
    }

    #[test]
    fn a_big_terminal_caps_the_cells_and_the_panel_and_centres_the_whole() {
        let area = Rect::new(0, 0, 200, 60);
        let l = GameLayout::new(area).unwrap();
        let (board_w, board_h) = BoardGeometry::size(MAX_CELL_HEIGHT);
        assert_eq!(l.board.area().width, board_w);
        assert_eq!(l.board.area().height, board_h);
        assert_eq!(l.panel.width, PANEL_MAX_WIDTH);
        let left = l.board.area().x - area.x;
        let right = area.right() - l.panel.right();
        assert!(left.abs_diff(right) <= 2, "{left} left, {right} right");
        assert_eq!(l.status.x, l.status.x.min(l.board.area().x));
        assert_eq!(l.status.right(), l.panel.right());
    }

    #[test]
    fn below_the_wide_size_the_layout_is_compact_down_to_the_minimum() {
        let (w, h) = wide_size();
        assert!(GameLayout::new(Rect::new(0, 0, w, h)).is_some_and(|l| !l.is_compact()));
        for area in [Rect::new(0, 0, w - 1, h), Rect::new(0, 0, w, h - 1)] {
            let l = GameLayout::new(area).unwrap();
            assert!(l.is_compact(), "{area:?}");
        }
        let (w, h) = minimum_size();
        let l = GameLayout::new(Rect::new(0, 0, w, h)).unwrap();
        let turn = l.turn_line.unwrap();
        assert!(l.board.area().bottom() <= turn.y);
        assert_eq!(turn.bottom(), l.status.y);
        assert_eq!(l.status.bottom(), h);
        assert_eq!(l.panel.bottom(), turn.y, "the panel covers the board");
        assert!(GameLayout::new(Rect::new(0, 0, w - 1, h)).is_none());
        assert!(GameLayout::new(Rect::new(0, 0, w, h - 1)).is_none());
    }
}
