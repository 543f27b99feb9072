//! The game screen's own state as a component: the keyboard cursor, the piece selected, the
//! move being typed at the `:` prompt, the move list's scroll, and whether the panel covers
//! the board in the compact layout. Its update takes the keys that only move these; the rest
//! it hands to the app ([`BoardHandled`]), which plays the moves.

use ratatui::layout::Rect;

use super::input::{Action, Direction};
use super::layout::GameLayout;
use crate::rules::{GameState, IllegalMove, Move, Piece, Position, Square};

/// The game screen's own state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardScreen {
    /// The keyboard cursor.
    pub cursor: Square,
    /// The piece selected.
    pub selected: Option<Square>,
    /// The move being typed, if the prompt is open.
    pub typing: Option<String>,
    /// First move-list row shown, or `None` to follow the last move.
    pub list_scroll: Option<usize>,
    /// In the compact layout, whether the panel is shown over the board.
    pub panel_shown: bool,
}

/// What the game screen's update comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardHandled {
    /// Taken by the screen (the cursor moved, a letter typed), or nothing for it.
    Stay,
    /// Enter, Space or a click on this square: select a piece, move the selected one.
    Choose(Square),
    /// Esc: the selection is dropped.
    Cancelled,
    /// The prompt was closed with this text entered.
    Typed(String),
    /// The prompt was closed without a move.
    StoppedTyping,
    /// A key the app takes.
    Game(Action),
}

/// What choosing a square (Enter, Space, a click) means, with a piece selected or not: the
/// same on every board a piece is moved on (the game, the puzzle trainer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The selected piece chosen again: the selection is dropped.
    Deselect,
    /// Move the selected piece to the square chosen.
    Play(Move),
    /// Select this piece, which can move.
    Select(Square, Piece),
    /// Nothing to do: why, in words; and whether the selection is dropped.
    Refused {
        /// What is wrong.
        why: String,
        /// Whether the selection is dropped.
        deselect: bool,
    },
}

/// What choosing `sq` in `state` means with `selected` selected.
pub fn choice(state: &GameState, selected: Option<Square>, sq: Square) -> Choice {
    let position = state.position();
    let side = position.side_to_move();
    if let Some(from) = selected {
        if from == sq {
            return Choice::Deselect;
        }
        let mv = Move::new(from, sq);
        match state.check_move(mv) {
            Ok(()) => return Choice::Play(mv),
            Err(IllegalMove::NotYourPiece(_) | IllegalMove::NoPiece(_)) => {}
            Err(e) if position.piece_at(sq).is_none_or(|p| p.side() != side) => {
                return Choice::Refused {
                    why: format!("cannot move {mv}: {e}"),
                    deselect: false,
                };
            }
            // Another piece of the side to move: it is selected instead.
            Err(_) => {}
        }
    }
    match position.piece_at(sq) {
        Some(piece) if piece.side() == side => {
            if position.destinations(sq).is_empty() {
                Choice::Refused {
                    why: format!("the {} on {sq} has no move", piece_name(piece)),
                    deselect: true,
                }
            } else {
                Choice::Select(sq, piece)
            }
        }
        Some(piece) => Choice::Refused {
            why: format!(
                "the {side} are to move, not the {} on {sq}",
                piece_name(piece)
            ),
            deselect: false,
        },
        None => Choice::Refused {
            why: format!("no piece on {sq}: select one of the {side}"),
            deselect: false,
        },
    }
}

/// What the status line says when `piece` on `sq` is selected.
pub fn selected_text(sq: Square, piece: Piece) -> String {
    format!(
        "{} on {sq} selected: choose a highlighted square",
        piece_name(piece)
    )
}

/// The name of a kind of piece in messages.
pub const fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Attacker => "attacker",
        Piece::Defender => "defender",
        Piece::King => "king",
    }
}

/// Where the cursor starts on `position`: on the piece of the side to move nearest the
/// throne that can move (the throne if none can).
pub fn start_cursor(position: &Position) -> Square {
    let side = position.side_to_move();
    let distance = |sq: Square| {
        let (file, rank) = (Square::THRONE.file(), Square::THRONE.rank());
        sq.file().abs_diff(file) + sq.rank().abs_diff(rank)
    };
    Square::all()
        .filter(|&sq| position.piece_at(sq).is_some_and(|p| p.side() == side))
        .filter(|&sq| !position.destinations(sq).is_empty())
        .min_by_key(|&sq| distance(sq))
        .unwrap_or(Square::THRONE)
}

impl BoardScreen {
    /// The screen with the cursor on `cursor`, nothing selected.
    pub const fn new(cursor: Square) -> BoardScreen {
        BoardScreen {
            cursor,
            selected: None,
            typing: None,
            list_scroll: None,
            panel_shown: false,
        }
    }

    /// Takes `action` on a screen of `size`, in a game of `moves` moves.
    pub fn update(&mut self, action: Action, size: Rect, moves: usize) -> BoardHandled {
        if let Some(text) = self.typing.as_mut() {
            match action {
                Action::Type(c) => text.push(c),
                Action::Backspace => {
                    text.pop();
                }
                Action::ClearField => text.clear(),
                Action::Cancel => {
                    self.typing = None;
                    return BoardHandled::StoppedTyping;
                }
                Action::Confirm => {
                    let text = std::mem::take(text);
                    self.typing = None;
                    return BoardHandled::Typed(text);
                }
                _ => {}
            }
            return BoardHandled::Stay;
        }
        match action {
            Action::Move(dir) => self.move_cursor(dir),
            Action::Confirm => return BoardHandled::Choose(self.cursor),
            Action::Click { column, row } => {
                let clicked = self
                    .board_shown(size)
                    .and_then(|l| l.board.square_at(column, row));
                if let Some(sq) = clicked {
                    self.cursor = sq;
                    return BoardHandled::Choose(sq);
                }
            }
            Action::Cancel => {
                self.selected = None;
                return BoardHandled::Cancelled;
            }
            Action::StartTyping => {
                self.selected = None;
                self.typing = Some(String::new());
            }
            Action::PageUp | Action::PageDown => self.scroll_moves(action, size, moves),
            other => return BoardHandled::Game(other),
        }
        BoardHandled::Stay
    }

    fn move_cursor(&mut self, dir: Direction) {
        let (df, dr) = match dir {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        };
        if let Some(sq) = self.cursor.offset(df, dr) {
            self.cursor = sq;
        }
    }

    /// Scrolls the move list of `moves` moves by half a screen of `size`; back to following
    /// the last move once it is in view.
    fn scroll_moves(&mut self, action: Action, size: Rect, moves: usize) {
        let rows = moves.div_ceil(2);
        let page = usize::from(size.height / 2).max(1);
        let top = self.list_scroll.unwrap_or(rows.saturating_sub(page));
        let next = match action {
            Action::PageUp => top.saturating_sub(page),
            _ => top + page,
        };
        self.list_scroll = (next + page < rows).then_some(next);
    }

    /// The layout on a screen of `size`, if the board is on screen (not covered by the
    /// panel).
    pub fn board_shown(&self, size: Rect) -> Option<GameLayout> {
        GameLayout::new(size).filter(|l| !(l.is_compact() && self.panel_shown))
    }

    /// The layout on a screen of `size`, if the panel is on screen (beside the board, or
    /// shown over it).
    pub fn panel_on_screen(&self, size: Rect) -> Option<GameLayout> {
        GameLayout::new(size).filter(|l| !l.is_compact() || self.panel_shown)
    }

    /// Tab: in the compact layout on a screen of `size`, the panel over the board or the
    /// board again; returns whether the layout is compact (else the panel is beside the
    /// board and nothing changes).
    pub fn toggle_panel(&mut self, size: Rect) -> bool {
        let compact = GameLayout::new(size).is_some_and(|l| l.is_compact());
        if compact {
            self.panel_shown = !self.panel_shown;
        }
        compact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    const SIZE: Rect = Rect::new(0, 0, 80, 24);

    #[test]
    fn the_screen_moves_its_cursor_and_hands_the_rest_to_the_app() {
        let mut screen = BoardScreen::new(square("d2"));
        assert_eq!(
            screen.update(Action::Move(Direction::Up), SIZE, 0),
            BoardHandled::Stay
        );
        assert_eq!(screen.cursor, square("d3"));
        assert_eq!(
            screen.update(Action::Confirm, SIZE, 0),
            BoardHandled::Choose(square("d3"))
        );
        screen.selected = Some(square("d3"));
        assert_eq!(
            screen.update(Action::Cancel, SIZE, 0),
            BoardHandled::Cancelled
        );
        assert_eq!(screen.selected, None);
        assert_eq!(
            screen.update(Action::Undo, SIZE, 0),
            BoardHandled::Game(Action::Undo)
        );
    }

    #[test]
    fn the_prompt_takes_the_keys_until_it_is_closed() {
        let mut screen = BoardScreen::new(square("d2"));
        screen.update(Action::StartTyping, SIZE, 0);
        for action in [
            Action::Type('d'),
            Action::Type('x'),
            Action::Backspace,
            Action::Type('2'),
            Action::Undo,
        ] {
            assert_eq!(screen.update(action, SIZE, 0), BoardHandled::Stay);
        }
        assert_eq!(
            screen.update(Action::Confirm, SIZE, 0),
            BoardHandled::Typed("d2".to_owned())
        );
        assert_eq!(screen.typing, None);
        screen.update(Action::StartTyping, SIZE, 0);
        assert_eq!(
            screen.update(Action::Cancel, SIZE, 0),
            BoardHandled::StoppedTyping
        );
    }

    #[test]
    fn the_move_list_scrolls_by_half_a_screen_and_follows_the_end_again() {
        let mut screen = BoardScreen::new(square("d2"));
        // 60 moves: 30 rows; 12 rows a page on 24 rows.
        screen.update(Action::PageUp, SIZE, 60);
        assert_eq!(screen.list_scroll, Some(6));
        screen.update(Action::PageDown, SIZE, 60);
        assert_eq!(screen.list_scroll, None, "the end in view: following it");
    }
}
