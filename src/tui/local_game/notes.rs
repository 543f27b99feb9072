//! Comments and tags in the app: `c` opens the comment editor on the move shown in review (on
//! the last move in a game in play, before the first move at ply 0), `t` in review the form of
//! the game's tags. What they keep is a change of the game like a move: autosaved, and
//! written to the game's file when it is saved.

use super::LocalGame;
use super::side_lines::numbered;
use crate::game::{Game, Place, Tags};
use crate::tui::comment_editor::CommentEditor;
use crate::tui::overlay::Overlay;
use crate::tui::review::Review;
use crate::tui::tags_form::TagsForm;

/// Whether each move of the line `review` walks has a comment.
pub(super) fn commented_moves(game: &Game, review: &Review) -> Vec<bool> {
    (1..=review.plies())
        .map(|n| {
            game.place_along(review.forks(), n)
                .is_some_and(|place| game.comment_at(&place).is_some())
        })
        .collect()
}

impl LocalGame {
    /// `c`: the comment editor on the move reviewed, or on the last move of the game in play.
    pub(super) fn edit_comment(&mut self) {
        let game = self.session.game();
        let place = self
            .place_reviewed()
            .unwrap_or_else(|| Place::main(game.moves().len()));
        let title = match game.moves_to(&place).as_deref() {
            Some([.., last]) => {
                let index = place.depth_in_moves() - 1;
                format!("Comment on {}", numbered(index, last))
            }
            _ => "Comment before the first move".to_owned(),
        };
        let text = game.comment_at(&place).unwrap_or_default().to_owned();
        self.board.selected = None;
        self.show(Overlay::Comment(CommentEditor::new(place, title, &text)));
    }

    /// Keeps `text` as the comment on the move leading to `place` (empty: none).
    pub(super) fn set_comment(&mut self, place: &Place, text: String) {
        let game = self.session.game();
        if game.comment_at(place).unwrap_or_default() == text {
            self.info("the comment is unchanged".to_owned());
            return;
        }
        let removed = text.trim().is_empty();
        if !self.session.game_mut().set_comment_at(place, Some(text)) {
            self.error("the move commented on is gone".to_owned());
            return;
        }
        self.changed();
        self.info(if removed {
            "comment removed".to_owned()
        } else {
            "comment kept (s saves it to the game's file)".to_owned()
        });
    }

    /// `t` in review: the form of the game's tags.
    pub(super) fn edit_tags(&mut self) {
        let form = TagsForm::new(self.session.game().tags());
        self.show(Overlay::Tags(form));
    }

    /// Gives the game `tags`.
    pub(super) fn set_tags(&mut self, tags: Tags) {
        if self.session.game().tags() == &tags {
            self.info("the tags are unchanged".to_owned());
            return;
        }
        self.session.game_mut().set_tags(tags);
        self.changed();
        self.info("tags kept (s saves them to the game's file)".to_owned());
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::game::storage::AUTOSAVE_DIR;
    use crate::game::{Game, Place, Tag};
    use crate::tui::input::{Action, Direction, Mode, pasted};
    use crate::tui::runtime::Runtime;
    use crate::tui::session::Storage;
    use crate::tui::{App, Config};

    fn hot_seat(dir: &Path, moves: &str) -> Runtime {
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            storage: Storage::in_dir(dir.to_owned()),
            ..Config::default()
        })
        .unwrap();
        for mv in moves.split_whitespace() {
            rt.app.session.play_text(mv).unwrap();
            rt.app.after_move();
            rt.carry_out_asked();
        }
        rt
    }

    fn write(rt: &mut Runtime, text: &str) {
        for c in text.chars() {
            rt.update(Action::Type(c));
        }
    }

    /// The game as its autosave holds it.
    fn autosaved(dir: &Path) -> Game {
        let entries: Vec<_> = std::fs::read_dir(dir.join(AUTOSAVE_DIR))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let [file] = &entries[..] else {
            panic!("one autosave: {entries:?}")
        };
        Game::from_json(&std::fs::read_to_string(file).unwrap()).unwrap()
    }

    fn said(app: &App) -> String {
        app.status().map(|s| s.text.clone()).unwrap_or_default()
    }

    #[test]
    fn c_in_review_writes_paragraphs_on_the_move_shown_and_autosaves_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path(), "d2-b2 c4-c2 d1-d2xc2");
        rt.update(Action::Review);
        rt.update(Action::Move(Direction::Left));
        rt.update(Action::Comment);
        assert_eq!(rt.app.mode(), Mode::Editor);
        write(&mut rt, "The defenders give up c2.\n\nA second paragraph.");
        rt.update(Action::Save);
        assert_eq!(rt.app.mode(), Mode::Review);
        rt.carry_out_asked();
        let game = rt.app.session.game();
        let kept = "The defenders give up c2.\n\nA second paragraph.";
        assert_eq!(game.comments()[1].as_deref(), Some(kept));
        assert!(rt.app.is_dirty(), "a change no file holds");
        assert_eq!(autosaved(dir.path()).comments()[1].as_deref(), Some(kept));
        assert!(
            said(&rt.app).starts_with("comment kept"),
            "{}",
            said(&rt.app)
        );
        // Edited again: the editor opens with it; emptied, it goes.
        rt.update(Action::Comment);
        for _ in 0..kept.len() {
            rt.update(Action::Backspace);
        }
        rt.update(Action::Save);
        rt.carry_out_asked();
        assert_eq!(rt.app.session.game().comments()[1], None);
        assert_eq!(autosaved(dir.path()).comments()[1], None);
        assert_eq!(said(&rt.app), "comment removed");
    }

    #[test]
    fn at_the_start_c_comments_before_the_first_move_and_in_a_game_on_the_last_move() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path(), "d2-b2 c4-c2");
        rt.update(Action::Chat);
        assert_eq!(
            rt.app.mode(),
            Mode::Editor,
            "c on the board of a local game"
        );
        for action in pasted("pasted\r\nover two lines", Mode::Editor) {
            rt.update(action);
        }
        rt.update(Action::Save);
        assert_eq!(
            rt.app.session.game().comments()[1].as_deref(),
            Some("pasted\nover two lines")
        );
        rt.update(Action::Review);
        rt.update(Action::ToStart);
        rt.update(Action::Comment);
        write(&mut rt, "Before it all.");
        rt.update(Action::Save);
        assert_eq!(
            rt.app.session.game().start_comment(),
            Some("Before it all.")
        );
    }

    #[test]
    fn esc_on_a_changed_comment_asks_and_keeps_nothing_if_told() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path(), "d2-b2");
        rt.update(Action::Review);
        rt.update(Action::Comment);
        write(&mut rt, "draft");
        rt.update(Action::Cancel);
        assert_eq!(rt.app.mode(), Mode::Question);
        rt.update(Action::No);
        assert_eq!(rt.app.mode(), Mode::Editor, "back to writing");
        rt.update(Action::Cancel);
        rt.update(Action::Yes);
        assert_eq!(rt.app.mode(), Mode::Review);
        assert_eq!(rt.app.session.game().comment_at(&Place::main(1)), None);
    }

    #[test]
    fn t_in_review_edits_the_tags_which_are_autosaved() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = hot_seat(dir.path(), "d2-b2");
        rt.update(Action::Review);
        rt.update(Action::Tags);
        assert_eq!(rt.app.mode(), Mode::Text);
        write(&mut rt, "Club night");
        for _ in 0..3 {
            rt.update(Action::Move(Direction::Down));
        }
        write(&mut rt, "Alice");
        rt.update(Action::Confirm);
        rt.carry_out_asked();
        assert_eq!(rt.app.mode(), Mode::Review);
        let tags = rt.app.session.game().tags().clone();
        assert_eq!(tags.get(Tag::Event), Some("Club night"));
        assert_eq!(tags.get(Tag::Attackers), Some("Alice"));
        assert_eq!(autosaved(dir.path()).tags(), &tags);
        assert!(rt.app.is_dirty());
    }
}
