//! Review mode in the app: opening and closing it, its keys, drawing it, and playing on from
//! the reviewed position. Stepping through the game never changes it, its file or the
//! autosave; an analysis started from the review (`a`, see `analysis`), side lines (`lines`),
//! comments and tags (`notes`) add to the record.

use ratatui::buffer::Buffer;
use ratatui::widgets::Widget;

use super::ai::Purpose;
use super::notes::commented_moves;
use super::side_lines::{lines_rows, review_at, review_place};
use super::{LocalGame, Screen, rules_name};
use crate::game::{MoveClass, Summary, check_start};
use crate::rules::Bitboard;
use crate::tui::board_view::{BoardView, Marks};
use crate::tui::dialogs::Leaving;
use crate::tui::graph::EvalGraph;
use crate::tui::input::Action;
use crate::tui::layout::GameLayout;
use crate::tui::panels::{Seats, StatusLine, TurnLine};
use crate::tui::review::{KEY_LINE, Review, ReviewHandled, ReviewPanel, Step};
use crate::tui::screens::SetupForm;
use crate::tui::text::Tone;
use crate::tui::tree_list::TreeList;

impl LocalGame {
    /// Opens the review at the last ply. Not while the AI thinks in a game a person plays (its
    /// move would land in the middle of the review); an AI-vs-AI game waits while reviewed,
    /// and a hint being looked for is given up.
    pub(super) fn open_review(&mut self) {
        if let Some(thinking) = &self.ai.thinking {
            if self.has_human() && thinking.purpose == Purpose::Move {
                self.error("wait: the AI is thinking (then v to review)".to_owned());
                return;
            }
            self.cancel_thinking();
        }
        self.board.selected = None;
        self.status = None;
        self.screen = Screen::Review(Review::new(self.session.moves().len()));
    }

    /// Back to the game, as it was.
    fn close_review(&mut self) {
        self.screen = Screen::Game;
        self.status = None;
    }

    pub(super) fn update_review(&mut self, action: Action) {
        if self.board.typing.is_some() {
            self.type_in_review(action);
            return;
        }
        if action == Action::ToggleLegend {
            self.legend = !self.legend;
            return;
        }
        if let Action::Click { column, row } = action
            && (self.click_graph(column, row) || self.click_tree(column, row))
        {
            return;
        }
        let Screen::Review(review) = &self.screen else {
            return;
        };
        if let Action::Click { column, row } = action
            && let Some(square) = self.square_clicked(column, row)
        {
            self.choose_in_review(square);
            return;
        }
        // The legend covers the move list: nothing there to click.
        let layout = self
            .panel_on_screen()
            .zip(self.review_panel(review))
            .filter(|_| !self.legend)
            .map(|(l, panel)| panel.layout(l.panel));
        let Screen::Review(review) = &mut self.screen else {
            return;
        };
        match review.update(action, layout) {
            ReviewHandled::Stay => {}
            ReviewHandled::Stepped => self.status = None,
            // Esc stops an analysis first; leaving the review stops it too.
            ReviewHandled::Leave if action == Action::Cancel && self.ai.analysis.is_some() => {
                self.stop_analysis();
            }
            ReviewHandled::Leave => {
                self.close_review();
                self.stop_analysis();
            }
            ReviewHandled::PlayFrom(ply) => {
                self.stop_analysis();
                self.ask_play_from_here(ply);
            }
            ReviewHandled::Game(Action::Quit) => {
                self.stop_analysis();
                self.update_game(Action::Quit);
            }
            ReviewHandled::Game(action) => self.update_game(action),
            ReviewHandled::Lines(action) => self.update_lines(action),
            ReviewHandled::Mistake { next } => self.go_to_mistake(next),
        }
    }

    /// The review's panel and the layout it is drawn in, when the panel is on screen and shows
    /// the graph and the moves (not the legend): what a click on the panel may land on.
    fn review_panel_clickable(&self) -> Option<(GameLayout, ReviewPanel<'_>)> {
        let Screen::Review(review) = &self.screen else {
            return None;
        };
        self.panel_on_screen()
            .zip(self.review_panel(review))
            .filter(|_| !self.legend)
    }

    /// A click at (`column`, `row`) on the evaluation graph, if it is on screen: the review
    /// goes to the position drawn there. Returns whether the click was on the graph.
    fn click_graph(&mut self, column: u16, row: u16) -> bool {
        let Some((layout, panel)) = self.review_panel_clickable() else {
            return false;
        };
        let plies = panel.analysis.len();
        let Some(ply) = panel
            .layout(layout.panel)
            .graph
            .and_then(|area| EvalGraph::ply_at(area, plies, column, row))
        else {
            return false;
        };
        if let Screen::Review(review) = &mut self.screen {
            review.go(Step::To(ply));
            self.status = None;
        }
        true
    }

    /// A click at (`column`, `row`) on a move of the tree list, if it is on screen (the game
    /// has side lines): the review goes to that move, on its line. Returns whether the click
    /// was on a move of it.
    fn click_tree(&mut self, column: u16, row: u16) -> bool {
        let Some((layout, panel)) = self.review_panel_clickable() else {
            return false;
        };
        let Some((tree, place)) = &panel.tree else {
            return false;
        };
        let list = panel.layout(layout.panel).list;
        let Some(clicked) = tree.view(list, Some(place)).place_at(column, row) else {
            return false;
        };
        self.screen = Screen::Review(review_at(self.session.game(), &clicked));
        self.status = None;
        true
    }

    /// `n` / `N` in review: to the next or previous mistake or blunder of the line reviewed,
    /// or says why not.
    fn go_to_mistake(&mut self, next: bool) {
        let Screen::Review(review) = &self.screen else {
            return;
        };
        let line = self.line_shown(review);
        let classes: Vec<Option<MoveClass>> = line
            .analysis
            .iter()
            .map(|ply| ply.as_ref().map(|a| a.class))
            .collect();
        let analyzed = classes.iter().any(Option::is_some);
        let Screen::Review(review) = &mut self.screen else {
            return;
        };
        if review.go_to_mistake(&classes, next) {
            self.status = None;
        } else if !analyzed {
            self.error("no analysis to find mistakes in: a analyzes the game".to_owned());
        } else if next {
            self.info("no mistake or blunder after this move".to_owned());
        } else {
            self.info("no mistake or blunder before this move".to_owned());
        }
    }

    /// Enter in review: plays on from the reviewed ply if a game can start there, leaving the
    /// game in play as any new game does (asking first if it would be lost).
    fn ask_play_from_here(&mut self, ply: usize) {
        match self.play_from_here_form(ply) {
            Ok(_) => self.ask_leave(Leaving::PlayFromHere(ply)),
            Err(e) => self.error(e),
        }
    }

    /// The new-game form for playing on from `ply`, offering to continue another game as the
    /// new-game screen does. The game reviewed is left as it is; starting the new game gives
    /// it a record of its own.
    pub(super) fn play_from_here(&mut self, ply: usize) {
        match self.play_from_here_form(ply) {
            Ok(form) => {
                self.show_setup(form);
                self.status = None;
            }
            Err(e) => self.error(e),
        }
    }

    /// The new-game form filled in with this game's rules and players and the position after
    /// `ply`, or why no game can start there.
    fn play_from_here_form(&self, ply: usize) -> Result<SetupForm, String> {
        let game = self.session.game();
        let at = game
            .at_ply(ply)
            .ok_or_else(|| format!("cannot play from here: no ply {ply}"))?;
        let rules = *game.rules();
        check_start(&rules, at.position).map_err(|e| format!("cannot play from here: {e}"))?;
        let players = game.players();
        Ok(SetupForm::new(
            self.session.preset().unwrap_or_default(),
            players.attackers,
            players.defenders,
        )
        .starting_from(rules, &at.position))
    }

    /// The review panel of the game at `review`'s ply, with the line reviewed.
    fn review_panel<'a>(&'a self, review: &'a Review) -> Option<ReviewPanel<'a>> {
        let game = self.session.game();
        let place = review_place(game, review)?;
        let ply = game.ply_at(&place)?;
        let on_main = review.forks().is_empty();
        let line = self.line_shown(review);
        // The analysis of the line reviewed, or of the line being analyzed.
        let analyzed = !line.analysis.is_empty() || self.analyzes_line(review.forks());
        let first = game.state().start_position().side_to_move();
        let summary =
            analyzed.then(|| Summary::new(first, line.analysis.iter().map(Option::as_ref)));
        Some(ReviewPanel {
            rules: rules_name(&self.session),
            seats: Seats {
                players: game.players(),
                names: game.tags(),
            },
            comment: game.comment_at(&place),
            start: game.state().start_position(),
            ply,
            moves: line.moves,
            outcome: on_main.then(|| game.outcome()).flatten(),
            analysis: line.analysis,
            summary,
            review,
            lines: lines_rows(game, review, &place),
            legend: self.legend,
            tree: game
                .has_side_lines()
                .then(|| (TreeList::of(game), place.clone())),
            commented: commented_moves(game, review),
        })
    }

    pub(super) fn draw_review(&self, review: &Review, layout: GameLayout, buf: &mut Buffer) {
        let Some(panel) = self.review_panel(review) else {
            return;
        };
        let covered = layout.is_compact() && self.board.panel_shown;
        if !covered {
            let mut marks = Marks::reviewed(&panel.ply, panel.analysis_shown());
            marks.selected = self.board.selected;
            marks.destinations = self
                .board
                .selected
                .map_or(Bitboard::EMPTY, |sq| panel.ply.position.destinations(sq));
            let view = BoardView::new(&panel.ply.position, marks, &self.look, layout.board);
            (&view).render(layout.board.area(), buf);
        }
        if let Some(line) = layout.turn_line {
            let text = format!("Review {}/{}", review.ply(), review.plies());
            let turn = TurnLine {
                text: &text,
                shown: covered,
            };
            self.themed(&turn).render(line, buf);
        }
        if !layout.is_compact() || covered {
            self.themed(&panel).render(layout.panel, buf);
        }
        let not_saved = self.autosave_error.is_some();
        // A running analysis shows its progress, unless something went wrong.
        if let Some(underway) = self.analysis_underway()
            && self.status.as_ref().is_none_or(|s| s.tone != Tone::Error)
        {
            self.themed(&underway).render(layout.status, buf);
            return;
        }
        // A failed autosave stays marked in review too, before the message or the keys.
        let line = StatusLine {
            typing: self.board.typing.as_deref(),
            status: self.status.as_ref(),
            not_saved,
            keys: Some(&KEY_LINE),
        };
        line.draw_at_bottom(layout.status, buf, &self.look);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::Screen;
    use super::super::ai::{Purpose, Thinking};
    use crate::game::storage::{AUTOSAVE_DIR, LEGACY_AUTOSAVE};
    use crate::game::{EngineKind, Game, Level, Player};
    use crate::rules::{Position, Side, Square};
    use crate::tui::board_view::{BEST_BRACKETS, PLAYED_BRACKETS};
    use crate::tui::effect::Effect;
    use crate::tui::input::{Action, Direction, Mode};
    use crate::tui::runtime::Runtime;
    use crate::tui::session::{Session, Storage};
    use crate::tui::{App, Config};

    const ESCAPE: &str = include_str!("../../../assets/games/escape.json");

    fn play(rt: &mut Runtime, moves: &str) {
        for mv in moves.split_whitespace() {
            rt.app.session.play_text(mv).unwrap();
            rt.app.after_move();
            rt.carry_out_asked();
        }
    }

    fn hot_seat(dir: &Path) -> Runtime {
        Runtime::new(Config {
            skip_setup: true,
            storage: Storage::in_dir(dir.to_owned()),
            ..Config::default()
        })
        .unwrap()
    }

    /// The autosave files of the games played with `dir` as the save folder.
    fn autosave_files(dir: &Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir.join(AUTOSAVE_DIR))
            .map(|entries| entries.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default()
    }

    fn review_ply(app: &App) -> Option<usize> {
        match &app.screen {
            Screen::Review(r) => Some(r.ply()),
            Screen::Game => None,
        }
    }

    #[test]
    fn n_and_shift_n_step_through_the_mistakes_of_an_analyzed_game() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analyzed/ai-game.json");
        let mut app = App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            ..Config::default()
        });
        if review_ply(&app).is_none() {
            app.update(Action::Review);
        }
        let bad: Vec<usize> = (app.session.game().analysis().iter().enumerate())
            .filter(|(_, a)| {
                a.as_ref()
                    .is_some_and(|a| a.class >= super::MoveClass::Mistake)
            })
            .map(|(i, _)| i + 1)
            .collect();
        assert!(bad.len() >= 2, "{bad:?}");
        app.update(Action::ToStart);
        for &ply in &bad {
            app.update(Action::NextMistake);
            assert_eq!(review_ply(&app), Some(ply));
        }
        app.update(Action::NextMistake);
        assert_eq!(review_ply(&app), bad.last().copied(), "stays");
        let said = app.status().map(|s| s.text.clone());
        assert_eq!(
            said.as_deref(),
            Some("no mistake or blunder after this move")
        );
        app.update(Action::PreviousMistake);
        assert_eq!(review_ply(&app), Some(bad[bad.len() - 2]));
        // A game with no analysis says how to get one.
        let mut plain = App::new(Config {
            skip_setup: true,
            ..Config::default()
        });
        plain.session.play_text("d2-c2").unwrap();
        plain.update(Action::Review);
        plain.update(Action::NextMistake);
        let said = plain.status().map(|s| s.text.clone()).unwrap_or_default();
        assert!(said.starts_with("no analysis"), "{said}");
    }

    /// The app reviewing the analysed game of tests/data in `look`, on a terminal of 80×24.
    fn analysed(look: crate::tui::theme::Look) -> App {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analyzed/ai-game.json");
        let mut app = App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            look,
            ..Config::default()
        });
        if review_ply(&app).is_none() {
            app.update(Action::Review);
        }
        app
    }

    fn drawn(app: &App) -> ratatui::buffer::Buffer {
        let size = app.size();
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(size.width, size.height))
                .unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn text(buf: &ratatui::buffer::Buffer) -> String {
        buf.content
            .iter()
            .map(ratatui::buffer::Cell::symbol)
            .collect()
    }

    /// The characters left and right of the glyph in the middle of `square`'s cell.
    fn brackets(app: &App, buf: &ratatui::buffer::Buffer, square: Square) -> (String, String) {
        let cell = app
            .board
            .board_shown(app.size())
            .unwrap()
            .board
            .cell(square);
        let (x, y) = (cell.x + cell.width / 2, cell.y + cell.height / 2);
        (
            buf[(x - 1, y)].symbol().to_owned(),
            buf[(x + 1, y)].symbol().to_owned(),
        )
    }

    #[test]
    fn at_a_mistake_the_board_brackets_the_move_played_and_the_best_move_apart_in_every_look() {
        use crate::tui::theme::{Look, ThemeName};
        let looks = [
            Look::default(),
            Look::new(ThemeName::HighContrast, true, false),
            Look::new(ThemeName::Default, false, false),
            Look::new(ThemeName::Default, false, true),
        ];
        for look in looks {
            let mut app = analysed(look.clone());
            app.update(Action::ToStart);
            app.update(Action::NextMistake);
            let ply = review_ply(&app).unwrap();
            let game = app.session.game();
            let played = game.moves()[ply - 1].mv;
            let best = game.analysis()[ply - 1].as_ref().unwrap().best.mv;
            assert_ne!(played, best, "a mistake");
            let buf = drawn(&app);
            let pair = |(a, b): (&str, &str)| (a.to_owned(), b.to_owned());
            for sq in [played.from(), played.to()] {
                assert_eq!(brackets(&app, &buf, sq), pair(PLAYED_BRACKETS), "{look:?}");
            }
            for sq in [best.from(), best.to()] {
                if sq != played.from() && sq != played.to() {
                    assert_eq!(brackets(&app, &buf, sq), pair(BEST_BRACKETS), "{look:?}");
                }
            }
            // A move that was the best has no other mark.
            let best_played = (0..game.moves().len()).find(|&i| {
                game.analysis()[i]
                    .as_ref()
                    .is_some_and(|a| a.best.mv == game.moves()[i].mv)
            });
            let i = best_played.expect("a best move in the game");
            app.update(Action::ToStart);
            for _ in 0..=i {
                app.update(Action::Move(Direction::Right));
            }
            let buf = drawn(&app);
            let marked = Square::all()
                .filter(|&sq| brackets(&app, &buf, sq).0 == BEST_BRACKETS.0)
                .count();
            assert_eq!(marked, 0, "{look:?}");
        }
    }

    #[test]
    fn l_shows_the_legend_of_every_mark_in_the_panel_and_help_lists_them() {
        let mut app = analysed(crate::tui::theme::Look::default());
        let legend = "Marks · l hides";
        assert!(!text(&drawn(&app)).contains(legend));
        app.update(Action::ToggleLegend);
        let shown = text(&drawn(&app));
        assert!(shown.contains(legend), "{shown}");
        for mark in [
            "(●)  move played",
            "{●}  engine's best move",
            "??   blunder",
        ] {
            assert!(shown.contains(mark), "{mark}: {shown}");
        }
        app.update(Action::ToggleLegend);
        assert!(!text(&drawn(&app)).contains(legend));
        // The help ends with the marks.
        app.update(Action::Help);
        for _ in 0..10 {
            app.update(Action::PageDown);
        }
        let help = text(&drawn(&app));
        assert!(help.contains("Marks (l shows them"), "{help}");
    }

    /// The graph's area on screen, and the number of moves it draws.
    fn graph_of(app: &App) -> Option<(ratatui::layout::Rect, usize)> {
        let Screen::Review(review) = &app.screen else {
            return None;
        };
        let panel = app.review_panel(review)?;
        let graph = panel.layout(app.panel_on_screen()?.panel).graph?;
        Some((graph, panel.analysis.len()))
    }

    /// The columns of the graph highlighted from top to bottom.
    fn highlighted(app: &App, graph: ratatui::layout::Rect) -> Vec<u16> {
        let buf = drawn(app);
        let focus = app.look.theme.focus.bg.unwrap();
        (graph.x + 2..graph.right())
            .filter(|&x| (graph.y..graph.bottom()).all(|y| buf[(x, y)].bg == focus))
            .collect()
    }

    #[test]
    fn a_click_on_the_graph_goes_to_the_move_drawn_there() {
        let mut app = analysed(crate::tui::theme::Look::default());
        let (graph, plies) = graph_of(&app).expect("a graph at 80×24");
        let row = graph.y + graph.height / 2;
        app.update(Action::Click {
            column: graph.x + 2,
            row,
        });
        assert_eq!(review_ply(&app), Some(0), "the left edge: the start");
        app.update(Action::Click {
            column: graph.right() - 1,
            row,
        });
        assert_eq!(review_ply(&app), Some(plies), "the right edge: the end");
        let middle = graph.x + 2 + (graph.width - 2) / 2;
        app.update(Action::Click {
            column: middle,
            row,
        });
        let ply = review_ply(&app).unwrap();
        assert!(0 < ply && ply < plies, "{ply}");
        assert_eq!(highlighted(&app, graph), [middle], "drawn where clicked");
        // The labels' column is not a move.
        app.update(Action::Click {
            column: graph.x,
            row,
        });
        assert_eq!(review_ply(&app), Some(ply));
    }

    #[test]
    fn on_a_side_line_the_graph_and_n_show_the_same_mistakes() {
        let mut app = analysed(crate::tui::theme::Look::default());
        let game = app.session.game();
        let bad: Vec<usize> = (game.analysis().iter().enumerate())
            .filter(|(_, a)| {
                a.as_ref()
                    .is_some_and(|a| a.class >= super::MoveClass::Mistake)
            })
            .map(|(i, _)| i + 1)
            .collect();
        // A side line leaving after the second mistake: its first moves are the game's.
        let fork = bad[1] + 1;
        let mut place = crate::game::Place::main(fork);
        let other = game.state_at(&place).unwrap().legal_moves();
        let next = game.moves()[fork].mv;
        let mv = other.iter().copied().find(|&m| m != next).unwrap();
        place = app.session.game_mut().play_at(&place, mv).unwrap();
        app.screen = Screen::Review(super::super::side_lines::review_at(
            app.session.game(),
            &place,
        ));
        let Screen::Review(review) = &app.screen else {
            panic!()
        };
        let forks = review.forks().to_vec();
        assert!(!forks.is_empty());
        let (graph, plies) = graph_of(&app).expect("the side line's graph");
        assert_eq!(plies, fork + 1, "the side line's moves from the start");
        app.update(Action::ToStart);
        for &ply in &bad[..2] {
            app.update(Action::NextMistake);
            assert_eq!(review_ply(&app), Some(ply));
            let [column] = highlighted(&app, graph)[..] else {
                panic!("one column highlighted")
            };
            // A click on the column n went to stays there, on the side line.
            app.update(Action::ToEnd);
            app.update(Action::Click {
                column,
                row: graph.y,
            });
            assert_eq!(review_ply(&app), Some(ply));
            let Screen::Review(review) = &app.screen else {
                panic!()
            };
            assert_eq!(review.forks(), &forks[..], "still on the side line");
        }
    }

    /// Where `word` is drawn in the panel's move list (right of column 52 at 80×24, from
    /// row `from`), if it is.
    fn find_in_list(buf: &ratatui::buffer::Buffer, word: &str, from: u16) -> Option<(u16, u16)> {
        (from..buf.area.height).find_map(|y| {
            let row: String = (52..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            let at = row.find(word)?;
            let column = row[..at].chars().count();
            Some((52 + u16::try_from(column).ok()?, y))
        })
    }

    #[test]
    fn the_move_list_shows_the_side_lines_in_brackets_and_a_click_goes_to_any_move() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/games/escape.json");
        let mut app = App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            storage: crate::tui::session::Storage::default(),
            ..Config::default()
        });
        app.update(Action::ToStart);
        app.update(Action::Move(Direction::Right));
        for mv in ["c4-c6", "d2-b2"] {
            app.update(Action::StartTyping);
            for c in mv.chars() {
                app.update(Action::Type(c));
            }
            app.update(Action::Confirm);
        }
        let buf = drawn(&app);
        let heading = find_in_list(&buf, "Moves", 0).expect("the list").1;
        // The side line after the move it replaces, wrapped between moves.
        find_in_list(&buf, "d7-f7 d5-c5 (1… c4-c6", heading).expect("the side line");
        let (x, y) = find_in_list(&buf, "2. d2-b2)", heading).expect("its end");
        // The move shown, the side line's last, is highlighted.
        let focus = app.look.theme.focus.bg.unwrap();
        let d2_b2 = (x + 3, y);
        assert_eq!(buf[d2_b2].symbol(), "d");
        assert_eq!(buf[d2_b2].bg, focus);
        // A click on a move of the main line goes there, on the main line.
        let (x, y) = find_in_list(&buf, "d5-c5", heading).unwrap();
        app.update(Action::Click { column: x, row: y });
        let Screen::Review(review) = &app.screen else {
            panic!("not in review")
        };
        assert_eq!((review.forks(), review.ply()), (&[][..], 2));
        let buf = drawn(&app);
        let heading = find_in_list(&buf, "Moves", 0).expect("the list").1;
        let (x, y) = find_in_list(&buf, "d5-c5", heading).unwrap();
        assert_eq!(buf[(x, y)].bg, focus, "highlighted there");
        // And one on the side line's first move goes back into it.
        let (x, y) = find_in_list(&buf, "c4-c6", heading).unwrap();
        app.update(Action::Click {
            column: x + 1,
            row: y,
        });
        let Screen::Review(review) = &app.screen else {
            panic!("not in review")
        };
        assert_eq!(review.forks(), &[crate::game::Fork { at: 1, line: 0 }]);
        assert_eq!(review.ply(), 2);
    }

    #[test]
    fn the_new_game_form_opened_from_a_review_shows_the_boards_keys() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path());
        play(&mut rt, "d2-b2 c4-c2");
        rt.update(Action::Review);
        rt.update(Action::Confirm);
        assert!(
            rt.app.setup().is_some(),
            "play from here: the new-game form"
        );
        rt.update(Action::Help);
        let Some(crate::tui::overlay::Overlay::Help(help)) = rt.app.overlays.last() else {
            panic!("no help")
        };
        assert!(format!("{help:?}").contains("Keys · warnings"), "{help:?}");
    }

    #[test]
    fn v_opens_and_closes_the_review_without_touching_the_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path());
        play(&mut rt, "d2-b2 c4-c2 d1-d2xc2 d3-e3");
        let [autosave] = &autosave_files(dir.path())[..] else {
            panic!("one autosave")
        };
        let saved_bytes = std::fs::read(autosave).unwrap();
        let before = rt.app.session.game().to_json();
        let dirty = rt.app.is_dirty();
        assert!(dirty);

        rt.update(Action::Review);
        assert_eq!(rt.app.mode(), Mode::Review);
        assert_eq!(review_ply(&rt.app), Some(4));
        for action in [
            Action::Move(Direction::Left),
            Action::ToStart,
            Action::PageDown,
            Action::Move(Direction::Right),
            Action::Confirm,
        ] {
            rt.update(action);
        }
        // Enter opened the new-game form; Esc goes back to the game, unchanged.
        assert!(rt.app.setup().is_some());
        rt.update(Action::Cancel);
        assert_eq!(rt.app.mode(), Mode::Board);
        rt.update(Action::Review);
        rt.update(Action::ToStart);
        rt.update(Action::Review);
        assert_eq!(rt.app.mode(), Mode::Board, "v closes the review too");
        rt.update(Action::Review);
        rt.update(Action::Cancel);
        assert_eq!(rt.app.mode(), Mode::Board);
        assert_eq!(rt.app.session.game().to_json(), before);
        assert_eq!(rt.app.is_dirty(), dirty);
        assert_eq!(std::fs::read(autosave).unwrap(), saved_bytes);
        assert_eq!(autosave_files(dir.path()).len(), 1, "no other autosave");
    }

    #[test]
    fn the_board_shows_the_reviewed_ply_with_its_move_and_captures() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path());
        play(&mut rt, "d2-b2 c4-c2 d1-d2xc2 d3-e3");
        rt.update(Action::Review);
        rt.update(Action::Move(Direction::Left));
        let Screen::Review(review) = &rt.app.screen else {
            panic!("not in review");
        };
        let ply = rt.app.session.game().at_ply(review.ply()).unwrap();
        assert_eq!(ply.played.unwrap().to_string(), "d1-d2xc2");
        assert_eq!(ply.position, rt.app.session.state().history()[3]);
        let marks = crate::tui::board_view::Marks::after(&ply);
        assert_eq!(
            marks.captured,
            "c2".parse::<crate::rules::Square>().unwrap().bit()
        );
        assert_eq!(marks.last_move, Some("d1-d2".parse().unwrap()));
    }

    #[test]
    fn review_is_refused_while_the_ai_thinks_for_a_persons_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            defenders: Player::Ai {
                engine: EngineKind::Search,
                level: Level::Hard,
                time: None,
            },
            storage: Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        play(&mut rt, "d2-e2");
        rt.app.ai.thinking = Some(Thinking::new(
            1,
            Side::Defenders,
            Purpose::Move,
            rt.app.session.player(Side::Defenders),
        ));
        rt.update(Action::Review);
        assert_eq!(rt.app.mode(), Mode::Board);
        assert!(rt.app.status().unwrap().text.contains("AI is thinking"));
        rt.app.ai.thinking = None;
        rt.update(Action::Review);
        assert_eq!(rt.app.mode(), Mode::Review);
        // While reviewing, the AI does not start on its move.
        assert!(!rt.app.ai_to_move(std::time::Instant::now()));
        rt.update(Action::Cancel);
        assert!(rt.app.ai_to_move(std::time::Instant::now()));
    }

    #[test]
    fn an_ai_game_waits_while_it_is_reviewed() {
        let random = crate::tui::local_game::tests::RANDOM;
        let mut app = App::new(Config {
            skip_setup: true,
            attackers: random,
            defenders: random,
            storage: Storage::default(),
            ..Config::default()
        });
        app.ai.thinking = Some(Thinking::new(1, Side::Attackers, Purpose::Move, random));
        app.update(Action::Review);
        assert_eq!(app.mode(), Mode::Review);
        assert!(app.ai.thinking.is_none(), "the AI's search was stopped");
        let later = std::time::Instant::now() + app.ai.pace.delay();
        assert_eq!(app.tick(later), []);
        assert!(app.ai.thinking.is_none());
        assert_eq!(app.next_tick(), None, "nothing to wait for");
        app.update(Action::Review);
        let searches = app.tick(later);
        assert!(
            matches!(searches[..], [Effect::Search { .. }]),
            "{searches:?}"
        );
        assert!(
            app.ai.thinking.is_some(),
            "the AIs play on after the review"
        );
    }

    #[test]
    fn a_finished_game_loaded_opens_in_review_and_plays_on_from_a_ply() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("escape.json");
        std::fs::write(&file, ESCAPE).unwrap();
        let autosave = dir.path().join(LEGACY_AUTOSAVE);
        std::fs::write(&autosave, "an older autosave").unwrap();
        let mut rt = Runtime::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            storage: Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        let original = rt.app.session.game().to_json();
        assert_eq!(review_ply(&rt.app), Some(16), "opened at the end");
        rt.update(Action::Confirm);
        assert!(
            rt.app.status().unwrap().text.contains("already over"),
            "{:?}",
            rt.app.status()
        );
        rt.update(Action::ToStart);
        for _ in 0..4 {
            rt.update(Action::Move(Direction::Right));
        }
        let reviewed = rt.app.session.game().at_ply(4).unwrap().position;
        rt.update(Action::Confirm);
        let Some(form) = rt
            .app
            .setup()
            .map(crate::tui::local_game::setup::SetupLayer::form)
        else {
            panic!("the new-game form")
        };
        assert_eq!(form.start(), Ok(reviewed));
        let (rules, attackers, defenders) = form.choice();
        assert_eq!(rules, *rt.app.session.state().rules());
        assert_eq!(
            (attackers, defenders),
            (
                rt.app.session.player(Side::Attackers),
                rt.app.session.player(Side::Defenders)
            )
        );
        // The player changes nothing: the new game starts from the reviewed position.
        let old = rt.app.session.game().clone();
        rt.update(Action::Confirm);
        assert_eq!(rt.app.mode(), Mode::Board);
        assert_eq!(rt.app.session.state().start_position(), &reviewed);
        assert_eq!(
            rt.app.session.state().history().len(),
            1,
            "no history before it"
        );
        assert!(rt.app.session.moves().is_empty());
        assert_eq!(rt.app.session.file(), None, "a record of its own");
        assert_eq!(old.to_json(), original, "the original record is untouched");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), ESCAPE);
        assert_eq!(
            std::fs::read_to_string(&autosave).unwrap(),
            "an older autosave"
        );
        // Moves of the new game go to the autosave, never to the original's file.
        rt.tick(std::time::Instant::now()).unwrap();
        let mv = rt.app.session.state().legal_moves()[0];
        rt.app.session.play(mv).unwrap();
        rt.app.after_move();
        rt.carry_out_asked();
        let [own] = &autosave_files(dir.path())[..] else {
            panic!("the new game's own autosave")
        };
        let autosaved = Game::from_json(&std::fs::read_to_string(own).unwrap()).unwrap();
        assert_eq!(autosaved.state().start_position(), &reviewed);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), ESCAPE);
    }

    #[test]
    fn play_from_here_keeps_custom_rules() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("custom.json");
        std::fs::write(
            &file,
            include_str!("../../../assets/games/custom-rules-resignation.json"),
        )
        .unwrap();
        let mut app = App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            ..Config::default()
        });
        assert_eq!(app.session.preset(), None);
        let rules = *app.session.state().rules();
        app.update(Action::ToStart);
        app.update(Action::Confirm);
        app.update(Action::Confirm);
        assert_eq!(app.session.state().rules(), &rules);
        assert_eq!(app.session.state().position(), &Position::start());
    }

    #[test]
    fn play_from_here_offers_the_game_to_continue_and_asks_before_losing_this_one() {
        let dir = tempfile::tempdir().unwrap();
        // An unfinished game left in the save folder.
        let mut other = hot_seat(dir.path());
        play(&mut other, "d2-c2");
        let other_moves = other.app.session.moves().to_vec();
        let mut rt = hot_seat(dir.path());
        play(&mut rt, "d2-b2 c4-c2");
        rt.update(Action::Review);
        rt.update(Action::Move(Direction::Left));
        rt.update(Action::Confirm);
        assert!(rt.app.setup().is_some());
        let offered = rt
            .app
            .setup()
            .and_then(crate::tui::local_game::setup::SetupLayer::offer)
            .map(|e| e.path.clone());
        let offered = crate::game::storage::load(&offered.expect("a game offered")).unwrap();
        assert_eq!(
            offered.moves(),
            &other_moves[..],
            "the other game's autosave"
        );
        // The form offers it first: up to the Continue entry, and Enter continues it.
        for _ in 0..6 {
            rt.update(Action::Move(Direction::Up));
        }
        rt.update(Action::Confirm);
        assert_eq!(rt.app.session.moves(), &other_moves[..]);

        // A game whose autosave failed is not left without a question.
        let mut rt = hot_seat(dir.path());
        rt.fail_writes(Some(std::io::ErrorKind::StorageFull));
        play(&mut rt, "d2-b2 c4-c2");
        rt.fail_writes(None);
        rt.update(Action::Review);
        rt.update(Action::Confirm);
        assert_eq!(rt.app.mode(), Mode::Question);
        rt.update(Action::No);
        assert_eq!(review_ply(&rt.app), Some(2), "still in review");
        rt.update(Action::Confirm);
        rt.update(Action::Yes);
        assert!(rt.app.setup().is_some());
    }

    #[test]
    fn a_failed_autosave_stays_marked_in_review() {
        use crate::tui::panels::NOT_SAVED;
        use ratatui::{Terminal, backend::TestBackend};

        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path());
        rt.fail_writes(Some(std::io::ErrorKind::StorageFull));
        play(&mut rt, "d2-b2 c4-c2");
        rt.fail_writes(None);
        let status_line = |app: &mut App| {
            let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
            terminal.draw(|f| app.draw(f)).unwrap();
            let buf = terminal.backend().buffer();
            (0..80).map(|x| buf[(x, 23)].symbol()).collect::<String>()
        };
        rt.update(Action::Review);
        let line = status_line(&mut rt.app);
        assert!(
            line.starts_with(NOT_SAVED) && line.contains("step"),
            "{line}"
        );
        rt.update(Action::Confirm);
        rt.update(Action::No);
        assert!(status_line(&mut rt.app).starts_with(NOT_SAVED));
    }

    #[test]
    fn a_hint_being_looked_for_does_not_keep_the_review_closed() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path());
        play(&mut rt, "d2-e2");
        rt.update(Action::Hint);
        assert!(rt.app.ai.thinking.is_some());
        rt.update(Action::Review);
        assert_eq!(rt.app.mode(), Mode::Review, "{:?}", rt.app.status());
        assert!(
            rt.app.ai.thinking.is_none(),
            "the hint's search was stopped"
        );
    }
}
