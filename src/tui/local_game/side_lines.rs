//! Side lines in review: a move other than the line's (typed at `:`, or a piece and its
//! destination clicked) opens a side line there ([`Game::play_at`]) and the review walks it;
//! `]` goes into a side line leaving the line at the ply shown (again, at a side line's first
//! move: the next one there), `[` back out to where it leaves its parent; `P` promotes the
//! line, `D` deletes it after a question. Each change of the tree is a change of the game:
//! it is autosaved and makes quitting ask as any change does.

use std::borrow::Cow;

use super::{LocalGame, Screen};
use crate::game::{Fork, Game, Place, PlyAnalysis};
use crate::rules::{AnnotatedMove, Move, Outcome, Square};
use crate::tui::dialogs::Question;
use crate::tui::input::{Action, typed_move};
use crate::tui::overlay::Overlay;
use crate::tui::panels::outcome_parts;
use crate::tui::review::Review;

/// The place in the game's tree `review` shows.
pub(super) fn review_place(game: &Game, review: &Review) -> Option<Place> {
    game.place_along(review.forks(), review.ply())
}

/// The review of the line `place` is on, at `place`.
pub(super) fn review_at(game: &Game, place: &Place) -> Review {
    let forks = place.forks().to_vec();
    let before: usize = forks.iter().map(|f| f.at).sum();
    let plies = before + game.line_len(&forks).unwrap_or(0);
    Review::on_line(forks, place.depth_in_moves(), plies)
}

/// `3. d2-b2` or `3… c4-c6`: the move at `index` (from 0) of a line from the start, with its
/// turn number.
pub(super) fn numbered(index: usize, mv: &AnnotatedMove) -> String {
    let dots = if index.is_multiple_of(2) { "." } else { "…" };
    format!("{}{dots} {mv}", index / 2 + 1)
}

/// The rows the review panel shows about the side lines at `place`: the side line reviewed
/// (where it leaves its parent), and the other moves played instead of the line's next one.
pub(super) fn lines_rows(game: &Game, review: &Review, place: &Place) -> Vec<String> {
    let mut rows = Vec::new();
    if let Some(first) = first_move(game, review.forks()) {
        let depth = review.forks().len();
        rows.push(format!("side line {first} (depth {depth}) · [ out"));
    }
    let here = place.depth_in_moves();
    let others: Vec<String> = game
        .side_lines_at(place)
        .iter()
        .filter_map(|side| side.nodes().first())
        .map(|node| numbered(here, &node.played()))
        .collect();
    if !others.is_empty() {
        rows.push(format!("( {} ) ] enter", others.join(" · ")));
    }
    rows
}

/// The first move of the side line through `forks`, numbered; `None` on the main line.
fn first_move(game: &Game, forks: &[Fork]) -> Option<String> {
    let last = forks.last()?;
    let before: usize = forks[..forks.len() - 1].iter().map(|f| f.at).sum();
    let index = before + last.at;
    let moves = game.line_moves(forks)?;
    Some(numbered(index, moves.get(index)?))
}

/// The moves of the line reviewed and their analyses, as the review panel lists them.
pub(super) struct LineShown<'a> {
    /// The moves of the line from the start.
    pub moves: Cow<'a, [AnnotatedMove]>,
    /// Their analyses (empty if none is analyzed).
    pub analysis: Cow<'a, [Option<PlyAnalysis>]>,
}

impl LocalGame {
    /// The line `review` walks: the game's own moves, or those of a side line.
    pub(super) fn line_shown(&self, review: &Review) -> LineShown<'_> {
        let game = self.session.game();
        if review.forks().is_empty() {
            return LineShown {
                moves: Cow::Borrowed(game.moves()),
                analysis: Cow::Borrowed(game.analysis()),
            };
        }
        let moves = game.line_moves(review.forks()).unwrap_or_default();
        let analysis: Vec<Option<PlyAnalysis>> = (1..=moves.len())
            .map(|n| {
                game.place_along(review.forks(), n)
                    .and_then(|p| game.analysis_at(&p).cloned())
            })
            .collect();
        let analysis = if analysis.iter().all(Option::is_none) {
            Vec::new()
        } else {
            analysis
        };
        LineShown {
            moves: Cow::Owned(moves),
            analysis: Cow::Owned(analysis),
        }
    }

    /// The review on screen, if it is.
    fn review(&self) -> Option<&Review> {
        match &self.screen {
            Screen::Review(review) => Some(review),
            Screen::Game => None,
        }
    }

    /// The place the review shows.
    pub(super) fn place_reviewed(&self) -> Option<Place> {
        review_place(self.session.game(), self.review()?)
    }

    /// A key about the side lines, in review.
    pub(super) fn update_lines(&mut self, action: Action) {
        match action {
            Action::StartTyping => {
                self.board.selected = None;
                self.board.typing = Some(String::new());
            }
            Action::IntoLine => self.enter_line(),
            Action::OutOfLine => self.leave_line(),
            Action::Promote => self.promote_line(),
            Action::Delete => self.ask_delete_line(),
            _ => {}
        }
    }

    /// A key while a move is typed in review: Enter plays it at the place shown.
    pub(super) fn type_in_review(&mut self, action: Action) {
        let Some(text) = self.board.typing.as_mut() else {
            return;
        };
        match action {
            Action::Type(c) => text.push(c),
            Action::Backspace => {
                text.pop();
            }
            Action::ClearField => text.clear(),
            Action::Cancel => {
                self.board.typing = None;
                self.status = None;
            }
            Action::Confirm => {
                let text = typed_move(&std::mem::take(text));
                self.board.typing = None;
                if text.is_empty() {
                    self.status = None;
                    return;
                }
                match text.parse::<Move>() {
                    Ok(mv) => self.play_in_review(mv),
                    Err(e) => self.error(format!("{text}: {e}")),
                }
            }
            _ => {}
        }
    }

    /// The square of the board under a click, if the board is on screen.
    pub(super) fn square_clicked(&self, column: u16, row: u16) -> Option<Square> {
        self.board
            .board_shown(self.size)
            .and_then(|l| l.board.square_at(column, row))
    }

    /// A square clicked in review: selects a piece of the side to move, or moves the selected
    /// one there.
    pub(super) fn choose_in_review(&mut self, square: Square) {
        let Some(ply) = self
            .place_reviewed()
            .and_then(|p| self.session.game().ply_at(&p))
        else {
            return;
        };
        let to_move = ply.position.side_to_move();
        let own = ply
            .position
            .piece_at(square)
            .is_some_and(|p| p.side() == to_move);
        match self.board.selected {
            Some(from) if from == square => self.board.selected = None,
            _ if own => {
                self.board.selected = Some(square);
                self.status = None;
            }
            Some(from) => {
                self.board.selected = None;
                self.play_in_review(Move::new(from, square));
            }
            None => self.error(format!(
                "select one of the {to_move}: they are to move here"
            )),
        }
    }

    /// Plays `mv` at the place reviewed: along the line, into a side line that starts with
    /// it, or into a new side line.
    fn play_in_review(&mut self, mv: Move) {
        let Some(place) = self.place_reviewed() else {
            return;
        };
        let game = self.session.game();
        let size = |g: &Game| g.moves().len() + g.side_moves();
        let before = size(game);
        match self.session.game_mut().play_at(&place, mv) {
            Ok(next) => {
                let game = self.session.game();
                let grew = size(game) > before;
                self.screen = Screen::Review(review_at(game, &next));
                let said = match first_move(game, next.forks()) {
                    Some(first) if grew && next.ply() == 1 => format!("a new side line: {first}"),
                    Some(first) => format!("side line {first}"),
                    None => "the main line".to_owned(),
                };
                if grew {
                    self.changed();
                }
                self.info(said);
            }
            Err(e) => self.error(format!("{mv}: {e}")),
        }
    }

    /// `]`: at the first move of a side line with others beside it, into the next of them
    /// (round to the first); else into the first side line leaving the line here.
    fn enter_line(&mut self) {
        let Some(place) = self.place_reviewed() else {
            return;
        };
        let game = self.session.game();
        // At a side line's first move with others beside it, `]` again goes to the next of
        // them (round to the first), before any line nested there.
        let sibling = match (place.ply(), place.parent(), place.forks().last()) {
            (1, Some(parent), Some(last)) => {
                let count = game.side_lines_at(&parent).len();
                (count > 1).then(|| {
                    let mut forks = parent.forks().to_vec();
                    forks.push(Fork {
                        at: parent.ply(),
                        line: (last.line + 1) % count,
                    });
                    Place::new(forks, 1)
                })
            }
            _ => None,
        };
        let nested = (!game.side_lines_at(&place).is_empty()).then(|| {
            let mut forks = place.forks().to_vec();
            forks.push(Fork {
                at: place.ply(),
                line: 0,
            });
            Place::new(forks, 1)
        });
        let target = sibling.or(nested);
        match target {
            Some(target) => {
                let game = self.session.game();
                let first = first_move(game, target.forks()).unwrap_or_default();
                self.screen = Screen::Review(review_at(game, &target));
                self.info(format!("side line {first}"));
            }
            None => self.error("no side line leaves the line here".to_owned()),
        }
    }

    /// `[`: out of the side line reviewed, to where it leaves its parent line.
    fn leave_line(&mut self) {
        let Some(review) = self.review() else {
            return;
        };
        let Some(parent) = Place::new(review.forks().to_vec(), 1).parent() else {
            self.error("this is the main line".to_owned());
            return;
        };
        self.screen = Screen::Review(review_at(self.session.game(), &parent));
        let said = if parent.is_main() {
            "the main line"
        } else {
            "the parent line"
        };
        self.info(said.to_owned());
    }

    /// A place on the side line reviewed: the one shown, or the line's first move when the
    /// review shows a ply before the line leaves its parent.
    fn place_on_line(&self) -> Option<Place> {
        let review = self.review()?;
        if review.forks().is_empty() {
            return None;
        }
        let place = self.place_reviewed()?;
        Some(if place.forks() == review.forks() {
            place
        } else {
            Place::new(review.forks().to_vec(), 1)
        })
    }

    /// `P`: the side line reviewed becomes its parent's continuation.
    fn promote_line(&mut self) {
        let Some(place) = self.place_on_line() else {
            self.error("this is the main line: open a side line to promote".to_owned());
            return;
        };
        let result = self.session.game().outcome();
        match self.session.game_mut().promote(&place) {
            Some(now) => {
                let game = self.session.game();
                let change = result_change(result, game.outcome());
                self.screen = Screen::Review(review_at(game, &now));
                self.changed();
                let to = if now.is_main() {
                    "the main line"
                } else {
                    "its parent's line"
                };
                self.info(format!("promoted: the side line is {to}{change}"));
            }
            None => self.error(
                "cannot promote: the old moves would nest too deep (delete a side line first)"
                    .to_owned(),
            ),
        }
    }

    /// `D`: asks whether to delete the side line reviewed.
    fn ask_delete_line(&mut self) {
        let Some(place) = self.place_on_line() else {
            self.error("this is the main line: it cannot be deleted".to_owned());
            return;
        };
        let game = self.session.game();
        let first = first_move(game, place.forks()).unwrap_or_default();
        let moves = game.line_len(place.forks()).unwrap_or(0);
        self.show(Overlay::Question(Question::DeleteLine { first, moves }));
    }

    /// Deletes the side line reviewed (the question was answered yes); the review goes to
    /// where it left its parent.
    pub(super) fn delete_line(&mut self) {
        let Some(place) = self.place_on_line() else {
            return;
        };
        if let Some(parent) = self.session.game_mut().delete_line(&place) {
            self.screen = Screen::Review(review_at(self.session.game(), &parent));
            self.changed();
            self.info("side line deleted".to_owned());
        }
    }
}

/// What a promotion did to the game's result, said after what it did to the lines (empty
/// where the result stayed).
fn result_change(before: Option<Outcome>, after: Option<Outcome>) -> String {
    let words = |outcome| {
        let (headline, why) = outcome_parts(outcome);
        format!("{headline}: {why}")
    };
    match (before, after) {
        (before, after) if before == after => String::new(),
        (Some(before), None) => format!(
            "; the game is unfinished now (its result, {}, stays with the old moves)",
            words(before)
        ),
        (_, Some(after)) => format!("; the game's result is now {}", words(after)),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Screen;
    use crate::game::Fork;
    use crate::tui::input::{Action, Mode};
    use crate::tui::review::Review;
    use crate::tui::session::{Session, Storage};
    use crate::tui::{App, Config};

    const ESCAPE: &str = include_str!("../../../assets/games/escape.json");

    /// The app reviewing escape.json (16 moves, the first `d7-f7 d5-c5`), with its own save
    /// folder.
    fn reviewing(dir: &std::path::Path) -> App {
        let file = dir.join("escape.json");
        std::fs::write(&file, ESCAPE).unwrap();
        App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            storage: Storage::in_dir(dir.to_owned()),
            ..Config::default()
        })
    }

    fn review(app: &App) -> Review {
        match &app.screen {
            Screen::Review(r) => r.clone(),
            Screen::Game => panic!("not in review"),
        }
    }

    fn type_move(app: &mut App, text: &str) {
        app.update(Action::StartTyping);
        assert_eq!(app.mode(), Mode::Text);
        for c in text.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::Confirm);
    }

    #[test]
    fn another_move_in_review_opens_a_side_line_that_the_review_walks() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = reviewing(dir.path());
        assert!(!app.is_dirty());
        app.update(Action::ToStart);
        app.update(Action::Move(crate::tui::input::Direction::Right));
        // The game's own move goes along the main line and changes nothing.
        type_move(&mut app, "d5-c5");
        assert_eq!(review(&app).forks(), &[]);
        assert_eq!(review(&app).ply(), 2);
        assert!(!app.is_dirty());
        app.update(Action::Move(crate::tui::input::Direction::Left));
        type_move(&mut app, "c4-c6");
        let side = review(&app);
        assert_eq!(side.forks(), &[Fork { at: 1, line: 0 }]);
        assert_eq!((side.ply(), side.plies()), (2, 2));
        assert_eq!(app.mode(), Mode::Review, "still reviewing");
        assert!(app.is_dirty(), "the tree changed");
        assert_eq!(
            app.session.game().moves().len(),
            16,
            "the game's line stays"
        );
        // The side line goes on; stepping back walks it to the start.
        type_move(&mut app, "d2-b2");
        assert_eq!((review(&app).ply(), review(&app).plies()), (3, 3));
        // Out to the main line at the branch point, and in again.
        app.update(Action::OutOfLine);
        assert_eq!(review(&app).forks(), &[]);
        assert_eq!(review(&app).ply(), 1);
        app.update(Action::IntoLine);
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }]);
        assert_eq!(review(&app).ply(), 2);
        // An illegal move says why and changes nothing.
        type_move(&mut app, "a1-a2");
        assert!(
            app.status()
                .is_some_and(|s| s.tone == crate::tui::text::Tone::Error)
        );
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }]);
        // Promoting makes it the game's line; the old moves become the side line.
        app.update(Action::Promote);
        let moves: Vec<String> = app
            .session
            .game()
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, ["d7-f7", "c4-c6", "d2-b2"]);
        assert_eq!(review(&app).forks(), &[]);
        assert_eq!(review(&app).ply(), 2);
        assert_eq!(app.session.game().side_moves(), 15);
        // Deleting asks first: no keeps it, yes deletes it.
        app.update(Action::Move(crate::tui::input::Direction::Left));
        app.update(Action::IntoLine);
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }]);
        app.update(Action::Delete);
        assert_eq!(app.mode(), Mode::Question);
        app.update(Action::No);
        assert_eq!(app.session.game().side_moves(), 15);
        app.update(Action::Delete);
        app.update(Action::Yes);
        assert_eq!(app.session.game().side_moves(), 0);
        assert_eq!(review(&app).forks(), &[]);
        assert_eq!(review(&app).ply(), 1);
        // The main line has nothing to promote or delete.
        app.update(Action::Promote);
        assert!(app.status().unwrap().text.contains("main line"));
    }

    #[test]
    fn into_line_again_goes_to_the_next_side_line_of_the_ply_not_into_a_nested_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = reviewing(dir.path());
        let left = || Action::Move(crate::tui::input::Direction::Left);
        app.update(Action::ToStart);
        app.update(Action::Move(crate::tui::input::Direction::Right));
        // A side line with a line nested at its first move, then a second side line.
        type_move(&mut app, "c4-c6");
        type_move(&mut app, "d2-b2");
        app.update(left());
        type_move(&mut app, "d2-e2");
        app.update(Action::ToStart);
        app.update(Action::Move(crate::tui::input::Direction::Right));
        type_move(&mut app, "c4-c5");
        app.update(Action::ToStart);
        app.update(Action::Move(crate::tui::input::Direction::Right));
        app.update(Action::IntoLine);
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }]);
        app.update(Action::IntoLine);
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 1 }]);
        app.update(Action::IntoLine);
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }], "round");
    }

    #[test]
    fn promoting_over_a_resignation_and_back_keeps_the_result_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("wild.otg");
        std::fs::write(&file, include_str!("../../../tests/data/otg/wild.otg")).unwrap();
        let mut app = App::new(Config {
            resume: Some(Session::load(&file).unwrap()),
            storage: Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        });
        let resigned = app.session.game().outcome();
        assert!(resigned.is_some());
        app.update(Action::Move(crate::tui::input::Direction::Left));
        type_move(&mut app, "e4-e5");
        app.update(Action::Promote);
        assert_eq!(app.session.game().outcome(), None);
        let said = app.status().unwrap().text.clone();
        assert!(said.contains("the attackers resigned"), "{said}");
        app.update(Action::Move(crate::tui::input::Direction::Left));
        app.update(Action::IntoLine);
        app.update(Action::Promote);
        assert_eq!(app.session.game().outcome(), resigned);
        let said = app.status().unwrap().text.clone();
        assert!(said.contains("Defenders win"), "{said}");
    }

    #[test]
    fn a_piece_and_its_destination_clicked_in_review_open_a_side_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = reviewing(dir.path());
        app.update(Action::ToStart);
        app.update(Action::Move(crate::tui::input::Direction::Right));
        let layout = app.board.board_shown(app.size()).unwrap();
        let at = |name: &str| {
            let sq: crate::rules::Square = name.parse().unwrap();
            (0..app.size().width)
                .flat_map(|x| (0..app.size().height).map(move |y| (x, y)))
                .find(|&(x, y)| layout.board.square_at(x, y) == Some(sq))
                .unwrap()
        };
        let (from, to) = (at("c4"), at("c6"));
        app.update(Action::Click {
            column: from.0,
            row: from.1,
        });
        assert_eq!(app.selected(), Some("c4".parse().unwrap()));
        app.update(Action::Click {
            column: to.0,
            row: to.1,
        });
        assert_eq!(review(&app).forks(), &[Fork { at: 1, line: 0 }]);
        assert_eq!(app.session.game().side_moves(), 1);
    }
}
