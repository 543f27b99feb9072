//! Review mode: stepping through a game without changing it. [`Review`] is the state (which
//! ply is shown), [`ReviewLayout`] splits the side panel, and [`ReviewPanel`] draws it: the
//! players and their losses at that ply, the ply and its move, the result at the end, and the
//! move list with the ply highlighted and scrolled into view. Positions and captures come
//! from the game record ([`Ply`]); nothing here computes them.
//!
//! The panel is built in sections, each with its own rows in [`ReviewLayout`] (computed from
//! the panel's area alone, so that a click is mapped back to a move without the last frame).
//! Further sections for one ply (its evaluation and class) go after the ply's lines in
//! [`ReviewPanel::ply_lines`]; a section for the whole game (a graph) gets its own rectangle
//! in the layout, between the ply and the move list.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget};

use super::input::{Action, Direction};
use super::panels::{self, MoveListView};
use super::screens::wrap;
use super::theme::Look;
use crate::game::{Players, Ply};
use crate::rules::{AnnotatedMove, Outcome, Position};

/// How many plies Page Up and Page Down go back and forward.
pub const PAGE: usize = 10;

/// The keys of the review, on the status line while no message is shown.
pub const KEY_LINE: &str =
    "←→ step · Home/End start/end · PgUp/PgDn ±10 · Enter play from here · v back";

/// Where a step goes.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Step {
    /// This many plies back.
    Back(usize),
    /// This many plies forward.
    Forward(usize),
    /// The start position.
    Start,
    /// The position after the last move.
    End,
    /// The position after this many plies.
    To(usize),
}

impl Step {
    /// The step a key asks for in review, if any: Left/Up back one ply, Right/Down forward,
    /// PgUp/PgDn ten plies, Home/End to the start or end.
    pub const fn for_action(action: Action) -> Option<Step> {
        Some(match action {
            Action::Move(Direction::Left | Direction::Up) => Step::Back(1),
            Action::Move(Direction::Right | Direction::Down) => Step::Forward(1),
            Action::PageUp => Step::Back(PAGE),
            Action::PageDown => Step::Forward(PAGE),
            Action::ToStart => Step::Start,
            Action::ToEnd => Step::End,
            _ => return None,
        })
    }
}

/// The review of a game of `plies` moves: the ply shown (0 is the start position, `plies`
/// the position after the last move).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Review {
    ply: usize,
    plies: usize,
}

impl Review {
    /// The review of a game of `plies` moves, at its end.
    pub const fn new(plies: usize) -> Review {
        Review { ply: plies, plies }
    }

    /// The ply shown: the number of moves played to reach the position on the board.
    pub const fn ply(self) -> usize {
        self.ply
    }

    /// Goes where `step` says, never past the start or the end.
    pub fn go(&mut self, step: Step) {
        self.ply = match step {
            Step::Back(n) => self.ply.saturating_sub(n),
            Step::Forward(n) => self.ply.saturating_add(n),
            Step::Start => 0,
            Step::End => self.plies,
            Step::To(ply) => ply,
        }
        .min(self.plies);
    }
}

/// Rows of the panel above the move list: players and losses (4), a blank, the ply and its
/// move (2), the result (a headline and the reason in up to 2 lines), a blank.
const INFO_ROWS: u16 = 11;

/// The parts of the review panel, from its area alone.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct ReviewLayout {
    /// The panel with its border.
    pub frame: Rect,
    /// The players, the ply, its move and the result.
    pub info: Rect,
    /// The move list.
    pub list: Rect,
}

impl ReviewLayout {
    /// The layout of a review panel drawn in `panel`.
    pub fn new(panel: Rect) -> ReviewLayout {
        let inner = ReviewPanel::block().inner(panel);
        let info_rows = INFO_ROWS.min(inner.height);
        ReviewLayout {
            frame: panel,
            info: Rect {
                height: info_rows,
                ..inner
            },
            list: Rect {
                y: inner.y + info_rows,
                height: inner.height - info_rows,
                ..inner
            },
        }
    }

    /// The move list of `review` as drawn: scrolled so that its ply's move is in view.
    fn move_list(self, review: Review) -> MoveListView {
        MoveListView::around(self.list, review.plies, review.ply.saturating_sub(1))
    }

    /// The ply a click at (`column`, `row`) goes to: the one after the move clicked.
    pub fn ply_at(self, review: Review, column: u16, row: u16) -> Option<usize> {
        self.move_list(review)
            .move_at(column, row)
            .map(|index| index + 1)
    }
}

/// What the review panel shows.
pub struct ReviewPanel<'a> {
    /// The rules' name.
    pub rules: &'static str,
    /// Who plays each side.
    pub players: Players,
    /// The game's start position (losses are counted from it).
    pub start: &'a Position,
    /// The ply shown.
    pub ply: Ply,
    /// Every move of the game.
    pub moves: &'a [AnnotatedMove],
    /// The game's result, shown at its last ply.
    pub outcome: Option<Outcome>,
}

impl ReviewPanel<'_> {
    fn block() -> Block<'static> {
        Block::bordered().padding(Padding::horizontal(1))
    }

    /// The result, if this is the last ply of a game that is over.
    fn result(&self) -> Option<Outcome> {
        self.outcome.filter(|_| self.ply.number == self.moves.len())
    }

    /// Two lines about the ply: its number and who played what, or the start and who moves.
    fn ply_lines(&self, look: &Look) -> Vec<Line<'static>> {
        let theme = &look.theme;
        let total = self.moves.len();
        match (self.ply.played, self.ply.mover()) {
            (Some(played), Some(mover)) => vec![
                Line::styled(format!("Ply {} of {total}", self.ply.number), theme.heading),
                Line::from(vec![
                    Span::raw(format!("{}  ", panels::title(mover))),
                    Span::styled(played.to_string(), theme.heading),
                ]),
            ],
            _ => vec![
                Line::styled(format!("Start · ply 0 of {total}"), theme.heading),
                Line::raw(format!(
                    "{} to move",
                    panels::title(self.ply.position.side_to_move())
                )),
            ],
        }
    }

    /// The result, centred like the game-over banner, and why, if this ply ends the game.
    fn result_lines(&self, look: &Look, width: usize) -> Vec<Line<'static>> {
        let Some(outcome) = self.result() else {
            return Vec::new();
        };
        let (headline, why) = panels::outcome_parts(outcome);
        let mut lines = vec![Line::styled(
            format!("{:^width$}", format!("★ {headline} ★")),
            look.theme.banner,
        )];
        lines.extend(wrap(&why, width).into_iter().take(2).map(Line::raw));
        lines
    }

    /// Draws the panel into the areas of `layout`, for `review`.
    pub fn render(&self, review: Review, layout: ReviewLayout, look: &Look, buf: &mut Buffer) {
        let theme = &look.theme;
        Self::block()
            .title(Line::from(format!(" Review · {} ", self.rules)).style(theme.heading))
            .title_bottom(Line::from(" ? keys  v back ").style(theme.label))
            .render(layout.frame, buf);
        let to_move = self
            .result()
            .is_none()
            .then(|| self.ply.position.side_to_move());
        let mut lines =
            panels::players_lines(self.players, to_move, self.start, &self.ply.position, look);
        lines.push(Line::default());
        lines.extend(self.ply_lines(look));
        lines.extend(self.result_lines(look, usize::from(layout.info.width)));
        Paragraph::new(lines).render(layout.info, buf);
        let selected = self.ply.number.checked_sub(1);
        layout
            .move_list(review)
            .render(self.moves, selected.map(|i| (i, theme.focus)), look, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_stay_between_the_start_and_the_end() {
        let mut r = Review::new(25);
        assert_eq!(r.ply(), 25, "a review opens at the end");
        r.go(Step::Forward(1));
        assert_eq!(r.ply(), 25);
        r.go(Step::Back(1));
        assert_eq!(r.ply(), 24);
        r.go(Step::Start);
        assert_eq!(r.ply(), 0);
        r.go(Step::Back(1));
        assert_eq!(r.ply(), 0);
        r.go(Step::Forward(1));
        r.go(Step::Forward(1));
        assert_eq!(r.ply(), 2);
        r.go(Step::End);
        assert_eq!(r.ply(), 25);
        r.go(Step::To(7));
        assert_eq!(r.ply(), 7);
        r.go(Step::To(99));
        assert_eq!(r.ply(), 25);
        let mut empty = Review::new(0);
        for step in [Step::Forward(1), Step::End, Step::To(3), Step::Back(1)] {
            empty.go(step);
            assert_eq!(empty.ply(), 0);
        }
    }

    #[test]
    fn pages_go_ten_plies_and_stop_at_the_ends() {
        let mut r = Review::new(25);
        let page = |r: &mut Review, action| r.go(Step::for_action(action).unwrap());
        page(&mut r, Action::PageUp);
        assert_eq!(r.ply(), 15);
        page(&mut r, Action::PageUp);
        page(&mut r, Action::PageUp);
        assert_eq!(r.ply(), 0, "clamped at the start");
        page(&mut r, Action::PageDown);
        assert_eq!(r.ply(), 10);
        page(&mut r, Action::PageDown);
        page(&mut r, Action::PageDown);
        assert_eq!(r.ply(), 25, "clamped at the end");
        page(&mut r, Action::ToStart);
        assert_eq!(r.ply(), 0);
        page(&mut r, Action::Move(Direction::Right));
        page(&mut r, Action::Move(Direction::Down));
        assert_eq!(r.ply(), 2);
        page(&mut r, Action::Move(Direction::Up));
        assert_eq!(r.ply(), 1);
        page(&mut r, Action::ToEnd);
        assert_eq!(r.ply(), 25);
        assert_eq!(Step::for_action(Action::Confirm), None);
        assert_eq!(Step::for_action(Action::Undo), None);
    }

    #[test]
    fn clicks_on_the_move_list_go_to_the_move_clicked() {
        // A panel of 30×22 at (50, 0): the list has a heading and 8 rows of two moves.
        let layout = ReviewLayout::new(Rect::new(50, 0, 30, 22));
        assert_eq!(layout.list.height, 9);
        let (x, y) = (layout.list.x, layout.list.y);
        let first_column = x + 3;
        let second_column = first_column + 11 + 1;
        let at_start = Review::new(40);
        let mut at = at_start;
        at.go(Step::Start);
        // At the start the list shows moves 1 to 16 from its top.
        assert_eq!(layout.ply_at(at, first_column, y + 1), Some(1));
        assert_eq!(layout.ply_at(at, second_column, y + 1), Some(2));
        assert_eq!(layout.ply_at(at, first_column + 5, y + 3), Some(5));
        assert_eq!(layout.ply_at(at, x, y + 1), None, "the move number");
        assert_eq!(layout.ply_at(at, first_column, y), None, "the heading");
        assert_eq!(
            layout.ply_at(at, first_column, y + 9),
            None,
            "below the list"
        );
        assert_eq!(layout.ply_at(at, 10, y + 1), None, "the board");
        // At the end the list shows the last rows: moves 25 to 40.
        assert_eq!(layout.ply_at(at_start, first_column, y + 1), Some(25));
        assert_eq!(layout.ply_at(at_start, second_column, y + 8), Some(40));
        // In the middle the ply's row is in the middle.
        at.go(Step::To(20));
        assert_eq!(layout.ply_at(at, second_column, y + 4), Some(20));
        // A short game: no move past the last.
        let short = Review::new(3);
        assert_eq!(layout.ply_at(short, second_column, y + 2), None);
        assert_eq!(layout.ply_at(short, first_column, y + 2), Some(3));
    }
}
