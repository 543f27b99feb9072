//! The dialogs over a screen as components: each takes the player's actions itself and says
//! what comes of them ([`Handled`]: it stays, it closes, or it closes and asks the app for
//! something), without reaching into the app; and each is drawn by a widget that only draws.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::comment_editor::{CommentEditor, EditorHandled};
use super::component::Request;
use super::dialogs::{BudgetChoice, Question, SavePrompt};
use super::help::Help;
use super::input::{Action, Direction, Mode};
use super::rules_screen::RulesScreen;
use super::saves_list::{RenamePrompt, SavesList};
use super::tags_form::{TagsForm, TagsHandled};
use super::theme::{Look, Themed};

/// A dialog shown over the screen.
#[derive(Debug)]
pub enum Overlay {
    /// The keys.
    Help(Help),
    /// The rules in play.
    Rules(RulesScreen),
    /// A yes/no question.
    Question(Question),
    /// The save prompt.
    Save(SavePrompt),
    /// The saved games to load.
    Load(SavesList),
    /// The new name of a listed save.
    Rename(RenamePrompt),
    /// The budget of an analysis.
    Budget(BudgetChoice),
    /// The comment on a move being written.
    Comment(CommentEditor),
    /// The game's tags being edited.
    Tags(TagsForm),
}

/// What an overlay's update comes to.
#[derive(Debug)]
pub enum Handled {
    /// The overlay stays (as it is now).
    Stay(Overlay),
    /// The overlay closes.
    Close,
    /// The overlay closes and asks the app for something.
    Ask(Request),
}

impl Overlay {
    /// Takes `action` on a screen of `size`.
    pub fn update(self, action: Action, size: Rect) -> Handled {
        match self {
            Overlay::Help(mut help) => match action {
                Action::Cancel | Action::Confirm | Action::Help | Action::Quit => Handled::Close,
                other => {
                    help.scroll(other, size);
                    Handled::Stay(Overlay::Help(help))
                }
            },
            Overlay::Rules(mut rules) => match action {
                Action::Cancel | Action::Confirm | Action::Rules | Action::Quit => Handled::Close,
                Action::Help => Handled::Ask(Request::Help),
                other => {
                    rules.scroll(other);
                    Handled::Stay(Overlay::Rules(rules))
                }
            },
            Overlay::Question(question) => match (action, question) {
                (Action::Yes, question) => Handled::Ask(Request::Answer(question, true)),
                (Action::No | Action::Cancel, question) => {
                    Handled::Ask(Request::Answer(question, false))
                }
                (Action::Save, Question::Leave { to, .. }) => {
                    Handled::Ask(Request::SaveThenLeave(to))
                }
                (_, question) => Handled::Stay(Overlay::Question(question)),
            },
            Overlay::Save(mut prompt) => {
                match action {
                    Action::Type(c) => prompt.push(c),
                    Action::Backspace => prompt.pop(),
                    Action::Move(Direction::Up | Direction::Down) => prompt.switch_field(),
                    Action::Confirm => return Handled::Ask(Request::Save(prompt)),
                    Action::Cancel => return Handled::Close,
                    _ => {}
                }
                Handled::Stay(Overlay::Save(prompt))
            }
            Overlay::Load(mut list) => {
                match action {
                    Action::Move(dir) => list.move_selection(dir),
                    Action::PageUp | Action::PageDown => {
                        list.page(size, action == Action::PageDown);
                    }
                    Action::ToStart | Action::ToEnd => list.jump(action == Action::ToEnd),
                    Action::Click { row, .. } if list.click(size, row) => return open(&list),
                    Action::Confirm => return open(&list),
                    Action::Delete if list.selected().is_some() => {
                        return Handled::Ask(Request::ConfirmDelete(list));
                    }
                    Action::Rename if list.selected().is_some() => {
                        return Handled::Ask(Request::AskRename(list));
                    }
                    Action::Help => return Handled::Ask(Request::ListHelp(list)),
                    Action::Cancel | Action::Load => return Handled::Close,
                    _ => {}
                }
                Handled::Stay(Overlay::Load(list))
            }
            Overlay::Rename(mut prompt) => {
                match action {
                    Action::Type(c) => prompt.push(c),
                    Action::Backspace => prompt.pop(),
                    Action::Confirm => match prompt.destination() {
                        Ok(_) => return Handled::Ask(Request::Rename(prompt)),
                        Err(why) => prompt.set_failure(why),
                    },
                    Action::Cancel => return Handled::Close,
                    _ => {}
                }
                Handled::Stay(Overlay::Rename(prompt))
            }
            Overlay::Budget(mut choice) => match action {
                Action::Move(dir) => {
                    choice.move_selection(dir);
                    Handled::Stay(Overlay::Budget(choice))
                }
                Action::Click { row, .. } if choice.click(size, row) => analyze(&choice),
                Action::Confirm => analyze(&choice),
                Action::Cancel => Handled::Close,
                _ => Handled::Stay(Overlay::Budget(choice)),
            },
            Overlay::Comment(mut editor) => match editor.update(action, size) {
                EditorHandled::Stay => Handled::Stay(Overlay::Comment(editor)),
                EditorHandled::Close => Handled::Close,
                EditorHandled::Keep(text) => Handled::Ask(Request::SetComment {
                    place: editor.place().clone(),
                    text,
                }),
            },
            Overlay::Tags(mut form) => match form.update(action) {
                TagsHandled::Stay => Handled::Stay(Overlay::Tags(form)),
                TagsHandled::Close => Handled::Close,
                TagsHandled::Keep(tags) => Handled::Ask(Request::SetTags(tags)),
            },
        }
    }

    /// How keys are read while it is shown.
    pub const fn mode(&self) -> Mode {
        match self {
            Overlay::Question(_) => Mode::Question,
            Overlay::Comment(editor) if editor.is_asking() => Mode::Question,
            Overlay::Comment(_) => Mode::Editor,
            Overlay::Save(_) | Overlay::Rename(_) | Overlay::Tags(_) => Mode::Text,
            Overlay::Help(_) | Overlay::Rules(_) | Overlay::Load(_) | Overlay::Budget(_) => {
                Mode::Menu
            }
        }
    }

    /// The widget that draws it in `look`.
    pub const fn view<'a>(&'a self, look: &'a Look) -> OverlayView<'a> {
        OverlayView {
            overlay: self,
            look,
        }
    }
}

/// The list closes and its selected save is loaded (if it has one).
fn open(list: &SavesList) -> Handled {
    list.selected().map_or(Handled::Close, |entry| {
        Handled::Ask(Request::Open(entry.into()))
    })
}

/// The choice closes and the game is analyzed at the selected budget.
fn analyze(choice: &BudgetChoice) -> Handled {
    choice.selected().map_or(Handled::Close, |budget| {
        Handled::Ask(Request::Analyze(budget))
    })
}

/// An overlay drawn in a look.
pub struct OverlayView<'a> {
    overlay: &'a Overlay,
    look: &'a Look,
}

impl Widget for OverlayView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let look = self.look;
        match self.overlay {
            Overlay::Help(help) => help.view(look).render(area, buf),
            Overlay::Rules(of) => Themed { of, look }.render(area, buf),
            Overlay::Question(of) => Themed { of, look }.render(area, buf),
            Overlay::Save(of) => Themed { of, look }.render(area, buf),
            Overlay::Load(of) => Themed { of, look }.render(area, buf),
            Overlay::Rename(of) => Themed { of, look }.render(area, buf),
            Overlay::Budget(of) => Themed { of, look }.render(area, buf),
            Overlay::Comment(of) => Themed { of, look }.render(area, buf),
            Overlay::Tags(of) => Themed { of, look }.render(area, buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use ratatui::buffer::Buffer;

    use super::*;
    use crate::ai::Budget;
    use crate::game::{Place, Tags};
    use crate::rules::Side;
    use crate::tui::dialogs::Leaving;
    use crate::tui::storage_jobs::SaveRef;

    const SIZE: Rect = Rect::new(0, 0, 80, 24);

    fn leave() -> Overlay {
        Overlay::Question(Question::Leave {
            to: Leaving::Quit,
            lost: None,
            unsaved: "The game is not saved to a file".to_owned(),
        })
    }

    #[test]
    fn a_question_stays_until_answered_and_a_leave_question_offers_to_save() {
        let Handled::Stay(question) = leave().update(Action::Type('x'), SIZE) else {
            panic!("not an answer")
        };
        assert_eq!(question.mode(), Mode::Question);
        assert!(matches!(
            question.update(Action::Save, SIZE),
            Handled::Ask(Request::SaveThenLeave(Leaving::Quit))
        ));
        assert!(matches!(
            leave().update(Action::Cancel, SIZE),
            Handled::Ask(Request::Answer(Question::Leave { .. }, false))
        ));
        let resign = Overlay::Question(Question::Resign(Side::Attackers));
        assert!(matches!(
            resign.update(Action::Save, SIZE),
            Handled::Stay(Overlay::Question(Question::Resign(Side::Attackers)))
        ));
    }

    #[test]
    fn the_save_prompt_takes_what_is_typed_and_asks_to_save_it() {
        let prompt = Overlay::Save(SavePrompt::new(Path::new("/saves"), "game".to_owned()));
        let Handled::Stay(prompt) = prompt.update(Action::Type('2'), SIZE) else {
            panic!("typing")
        };
        let Handled::Ask(Request::Save(prompt)) = prompt.update(Action::Confirm, SIZE) else {
            panic!("save")
        };
        assert_eq!(prompt.name().unwrap().to_string(), "game2");
        let closed = Overlay::Save(prompt).update(Action::Cancel, SIZE);
        assert!(matches!(closed, Handled::Close));
    }

    #[test]
    fn an_empty_list_of_saves_closes_on_enter_and_the_rules_open_the_keys() {
        let list = Overlay::Load(SavesList::new("/saves".into(), Vec::new(), &[]));
        assert!(matches!(list.update(Action::Confirm, SIZE), Handled::Close));
        let rules = Overlay::Rules(RulesScreen::new(&crate::rules::Preset::Standard.rules()));
        assert!(matches!(
            rules.update(Action::Help, SIZE),
            Handled::Ask(Request::Help)
        ));
    }

    /// One overlay of each kind, with content.
    fn every_overlay() -> Vec<Overlay> {
        use crate::game::storage::{SaveEntry, SaveKind};
        let save = SaveRef {
            path: "/saves/a.json".into(),
            name: "a".to_owned(),
            kind: SaveKind::Named,
            modified: None,
        };
        let entry = SaveEntry {
            path: save.path.clone(),
            name: save.name.clone(),
            kind: SaveKind::Named,
            modified: None,
            summary: Err(crate::game::LoadError::from(
                crate::game::LoadErrorKind::NotAFile,
            )),
        };
        vec![
            Overlay::Help(Help::new(
                "Keys".to_owned(),
                crate::tui::input::BOARD_KEYS,
                &[],
            )),
            Overlay::Rules(RulesScreen::new(&crate::rules::Preset::Standard.rules())),
            leave(),
            Overlay::Question(Question::Delete(save.clone())),
            Overlay::Save(SavePrompt::new(Path::new("/saves"), "game".to_owned())),
            Overlay::Load(SavesList::new("/saves".into(), vec![entry], &[])),
            Overlay::Rename(RenamePrompt::new(save, "/saves".into())),
            Overlay::Budget(BudgetChoice::new(Budget::PRESETS.to_vec(), 25)),
            Overlay::Comment(CommentEditor::new(
                Place::main(3),
                "Comment on 2. d4-d6".to_owned(),
                "A line.\n\nAnother paragraph, long enough to be wrapped on a narrow screen.",
            )),
            Overlay::Tags(TagsForm::new(&Tags::default())),
        ]
    }

    /// The overlays that are pages over the whole screen rather than pop-ups.
    fn full_screen(overlay: &Overlay) -> bool {
        matches!(overlay, Overlay::Rules(_) | Overlay::Load(_))
    }

    #[test]
    fn no_overlay_leaves_a_cell_of_the_screen_under_it() {
        const MARK: &str = "\u{b6}";
        let look = Look::default();
        for (width, height) in [(80, 24), (40, 15), (120, 40)] {
            let area = Rect::new(0, 0, width, height);
            for overlay in every_overlay() {
                let mut buf = Buffer::empty(area);
                for cell in &mut buf.content {
                    cell.set_symbol(MARK);
                }
                overlay.view(&look).render(area, &mut buf);
                let drawn: Vec<(u16, u16)> = area
                    .positions()
                    .filter(|p| buf[(p.x, p.y)].symbol() != MARK)
                    .map(|p| (p.x, p.y))
                    .collect();
                // A pop-up's area is the rectangle it drew in; a page's is the screen.
                let covered = if full_screen(&overlay) {
                    area
                } else {
                    let xs = drawn.iter().map(|p| p.0);
                    let ys = drawn.iter().map(|p| p.1);
                    let (left, top) = (xs.clone().min().unwrap(), ys.clone().min().unwrap());
                    let (right, bottom) = (xs.max().unwrap(), ys.max().unwrap());
                    Rect::new(left, top, right - left + 1, bottom - top + 1)
                };
                let left: Vec<_> = covered
                    .positions()
                    .filter(|p| buf[(p.x, p.y)].symbol() == MARK)
                    .collect();
                assert!(
                    left.is_empty(),
                    "{width}x{height}, {overlay:?}: {} cells of the screen under it, first at {:?}",
                    left.len(),
                    left.first()
                );
            }
        }
    }
}
