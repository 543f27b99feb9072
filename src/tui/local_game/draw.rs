//! Drawing the local game: its screen (the new-game form, the board and its panel, the
//! review, the trainer) and its dialogs over it, or the notice that the terminal is too
//! small. Drawing changes nothing.

use super::{LocalGame, Screen, rules_name};
use crate::rules::{Bitboard, Side};
use crate::tui::ascii;
use crate::tui::board_view::{BoardView, Marks};
use crate::tui::layout::{GameLayout, minimum_size};
use crate::tui::panels::{self, PanelData, StatusLine, TurnLine};
use crate::tui::screens::TooSmall;
use crate::tui::text::title;
use crate::tui::theme::Themed;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

impl LocalGame {
    /// The marks to draw on the board.
    pub(super) fn marks(&self) -> Marks {
        let game = self.session.game();
        let last = game.at_ply(game.moves().len());
        Marks {
            cursor: Some(self.board.cursor),
            selected: self.board.selected,
            destinations: self.board.selected.map_or(Bitboard::EMPTY, |sq| {
                self.session.state().position().destinations(sq)
            }),
            hint: self.hint,
            repeats: self.repeating_destinations(),
            ..last.as_ref().map(Marks::after).unwrap_or_default()
        }
    }

    /// Draws the game's message, if any, on the last row of `area` (under the new-game
    /// screen: a settings file not used, a save that would not load).
    pub(in crate::tui) fn draw_status_row(&self, area: Rect, buf: &mut Buffer) {
        if let Some(status) = &self.status {
            let last = Rect {
                y: area.bottom() - 1,
                height: 1,
                ..area
            };
            let line = StatusLine {
                typing: None,
                status: Some(status),
                not_saved: false,
                keys: None,
            };
            line.draw_at_bottom(last, buf, &self.look);
        }
    }

    /// Draws the dialogs over the screen (and the layers over the game).
    pub(in crate::tui) fn draw_dialogs(&self, area: Rect, buf: &mut Buffer) {
        let cx = self.context();
        for overlay in &self.overlays {
            overlay.dialog().draw(area, buf, &cx);
        }
    }

    /// Draws the whole screen (in ASCII alone with `--ascii`); changes nothing.
    pub(super) fn draw(&self, area: Rect, buf: &mut Buffer) {
        self.draw_views(area, buf);
        if self.look.glyphs.ascii {
            ascii::transliterate(buf);
        }
    }

    pub(in crate::tui) fn draw_views(&self, area: Rect, buf: &mut Buffer) {
        let Some(layout) = GameLayout::new(area) else {
            let (min_width, min_height) = minimum_size();
            let too_small = TooSmall {
                min_width,
                min_height,
                asking: self.asks_to_quit(),
            };
            self.themed(&too_small).render(area, buf);
            return;
        };
        match &self.screen {
            Screen::Game => self.draw_game(layout, buf),
            Screen::Review(review) => self.draw_review(review, layout, buf),
        }
        self.draw_dialogs(area, buf);
    }

    pub(super) fn draw_game(&self, layout: GameLayout, buf: &mut Buffer) {
        let state = self.session.state();
        // In the compact layout the panel, when shown, covers the board.
        let covered = layout.is_compact() && self.board.panel_shown;
        if !covered {
            let view = BoardView::new(state.position(), self.marks(), &self.look, layout.board);
            (&view).render(layout.board.area(), buf);
        }
        if !layout.is_compact() || covered {
            self.draw_panel(layout, buf);
        }
        if let Some(line) = layout.turn_line {
            let side = self.session.side_to_move();
            let turn = match (self.session.outcome(), self.session.clocks()) {
                (Some(outcome), _) => panels::banner_parts(outcome, self.you()).0,
                // The running clock says whose turn it is (the line is short).
                (None, Some(clocks)) => format!("{} {}", title(side), clocks.text(side)),
                (None, None) => format!("{} to move", title(side)),
            };
            let turn = TurnLine {
                text: &turn,
                shown: covered,
            };
            self.themed(&turn).render(line, buf);
        }
        let status = StatusLine {
            typing: self.board.typing.as_deref(),
            status: self.status.as_ref(),
            not_saved: self.autosave_error.is_some(),
            keys: None,
        };
        status.draw_at_bottom(layout.status, buf, &self.look);
    }

    pub(super) fn draw_panel(&self, layout: GameLayout, buf: &mut Buffer) {
        let state = self.session.state();
        let data = PanelData {
            rules: rules_name(&self.session),
            to_move: self.session.side_to_move(),
            attackers: self.session.player(Side::Attackers),
            defenders: self.session.player(Side::Defenders),
            start: state.start_position(),
            position: state.position(),
            moves: self.session.moves(),
            analysis: self.session.game().analysis(),
            scroll: self.board.list_scroll,
            outcome: self.session.outcome(),
            warnings: self.warnings.on(),
            ai: self.ai_view(),
            autosave_error: self.autosave_error.as_deref(),
            clocks: self.session.clocks(),
            names: self.session.game().tags(),
            comment: comment_at(self.session.game(), self.session.moves().len()),
        };
        self.themed(&data).render(layout.panel, buf);
    }

    /// `of` drawn in the app's look.
    pub(super) const fn themed<'a, T>(&'a self, of: &'a T) -> Themed<'a, T> {
        Themed {
            of,
            look: &self.look,
        }
    }
}

/// The record's comment on the move that led to `ply` (0: the comment before the first move).
fn comment_at(game: &crate::game::Game, ply: usize) -> Option<&str> {
    match ply.checked_sub(1) {
        None => game.start_comment(),
        Some(index) => game.comments().get(index)?.as_deref(),
    }
}
