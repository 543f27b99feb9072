//! The dialogs over a screen on the [`Component`] contract: the help, the rules, the yes/no
//! questions, the save prompt, the list of saves and its rename prompt, the choice of an
//! analysis's budget, the comment editor and the tags form. Each takes the player's actions
//! itself and says what comes of them (it stays, it closes, or it asks for something as a
//! [`Request`]), without reaching into the game; and each draws itself, changing nothing.
//!
//! The local game keeps its dialogs as [`Overlay`]s, so that it can hand a dialog what the
//! storage thread answered (a save deleted from the list, a name taken); the dialogs'
//! contract is the trait, to which [`Overlay::dialog`] gives access.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::comment_editor::{CommentEditor, EditorHandled};
use super::component::{Component, Context, Outcome, Request};
use super::dialogs::{BudgetChoice, Question, SavePrompt};
use super::help::Help;
use super::input::{Action, Direction, Mode};
use super::rules_screen::RulesScreen;
use super::saves_list::{RenamePrompt, SavesList};
use super::storage_jobs::SaveRef;
use super::tags_form::{TagsForm, TagsHandled};

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
    /// The overlay stays and asks the game for something.
    StayAsking(Overlay, Request),
    /// The overlay closes.
    Close,
    /// The overlay closes and asks the game for something.
    Ask(Request),
}

impl Overlay {
    /// The dialog, on the components' contract.
    pub fn dialog(&self) -> &dyn Component {
        match self {
            Overlay::Help(of) => of,
            Overlay::Rules(of) => of,
            Overlay::Question(of) => of,
            Overlay::Save(of) => of,
            Overlay::Load(of) => of,
            Overlay::Rename(of) => of,
            Overlay::Budget(of) => of,
            Overlay::Comment(of) => of,
            Overlay::Tags(of) => of,
        }
    }

    /// The same, to change.
    fn dialog_mut(&mut self) -> &mut dyn Component {
        match self {
            Overlay::Help(of) => of,
            Overlay::Rules(of) => of,
            Overlay::Question(of) => of,
            Overlay::Save(of) => of,
            Overlay::Load(of) => of,
            Overlay::Rename(of) => of,
            Overlay::Budget(of) => of,
            Overlay::Comment(of) => of,
            Overlay::Tags(of) => of,
        }
    }

    /// Takes `action`: what the dialog's update comes to.
    pub fn update(mut self, action: Action, cx: &Context) -> Handled {
        let Outcome {
            close,
            mut requests,
            ..
        } = self.dialog_mut().update(action, cx);
        match (close, requests.pop()) {
            (false, None) => Handled::Stay(self),
            (false, Some(request)) => Handled::StayAsking(self, request),
            (true, None) => Handled::Close,
            (true, Some(request)) => Handled::Ask(request),
        }
    }

    /// How keys are read while it is shown.
    pub fn mode(&self) -> Mode {
        self.dialog().mode()
    }
}

impl Component for Help {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        match action {
            Action::Cancel | Action::Confirm | Action::Help | Action::Quit => Outcome::close(),
            other => {
                self.scroll(other, cx.size);
                Outcome::stay()
            }
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        self.view(cx.look).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Menu
    }

    fn resized(&mut self, cx: &Context) {
        self.fit(cx.size);
    }
}

impl Component for RulesScreen {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        match action {
            Action::Cancel | Action::Confirm | Action::Rules | Action::Quit => Outcome::close(),
            Action::Help => Outcome::ask(Request::Help),
            other => {
                self.scroll(other);
                Outcome::stay()
            }
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Menu
    }

    fn covers_screen(&self) -> bool {
        true
    }
}

impl Component for Question {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        match (action, &*self) {
            (Action::Yes, _) => Outcome::ask(Request::Answer(self.clone(), true)),
            (Action::No | Action::Cancel, _) => Outcome::ask(Request::Answer(self.clone(), false)),
            (Action::Save, Question::Leave { to, .. }) => Outcome::ask(Request::SaveThenLeave(*to)),
            _ => Outcome::stay(),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Question
    }
}

impl Component for SavePrompt {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        match action {
            Action::Type(c) => self.push(c),
            Action::Backspace => self.pop(),
            Action::ClearField => self.clear(),
            Action::Move(Direction::Up | Direction::Down) => self.switch_field(),
            Action::Confirm => return Outcome::ask(Request::Save(self.clone())),
            Action::Cancel => return Outcome::close(),
            _ => {}
        }
        Outcome::stay()
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Text
    }
}

impl Component for SavesList {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        match action {
            Action::Move(dir) => self.move_selection(dir),
            Action::PageUp | Action::PageDown => self.page(cx.size, action == Action::PageDown),
            Action::ToStart | Action::ToEnd => self.jump(action == Action::ToEnd),
            Action::Click { row, .. } if self.click(cx.size, row) => return open(self),
            Action::Confirm => return open(self),
            Action::Delete | Action::Rename => {
                if let Some(entry) = self.selected() {
                    let save = SaveRef::from(entry);
                    let in_play = self.selected_in_play();
                    let request = if action == Action::Delete {
                        Request::ConfirmDelete { save, in_play }
                    } else {
                        let dir = self.dir().to_owned();
                        Request::AskRename { save, in_play, dir }
                    };
                    return Outcome::stay().and_ask(request);
                }
            }
            Action::Help => return Outcome::stay().and_ask(Request::ListHelp),
            Action::Cancel | Action::Load => return Outcome::close(),
            _ => {}
        }
        Outcome::stay()
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Menu
    }

    fn covers_screen(&self) -> bool {
        true
    }
}

impl Component for RenamePrompt {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        match action {
            Action::Type(c) => self.push(c),
            Action::Backspace => self.pop(),
            Action::ClearField => self.clear(),
            Action::Confirm => match self.destination() {
                Ok(_) => return Outcome::ask(Request::Rename(self.clone())),
                Err(why) => self.set_failure(why),
            },
            Action::Cancel => return Outcome::close(),
            _ => {}
        }
        Outcome::stay()
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Text
    }
}

impl Component for BudgetChoice {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        match action {
            Action::Move(dir) => {
                self.move_selection(dir);
                Outcome::stay()
            }
            Action::Click { row, .. } if self.click(cx.size, row) => analyze(self),
            Action::Confirm => analyze(self),
            Action::Cancel => Outcome::close(),
            _ => Outcome::stay(),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Menu
    }
}

impl Component for CommentEditor {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        match CommentEditor::update(self, action, cx.size) {
            EditorHandled::Stay => Outcome::stay(),
            EditorHandled::Close => Outcome::close(),
            EditorHandled::Keep(text) => Outcome::ask(Request::SetComment {
                place: self.place().clone(),
                text,
            }),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        if self.is_asking() {
            Mode::Question
        } else {
            Mode::Editor
        }
    }
}

impl Component for TagsForm {
    fn update(&mut self, action: Action, _cx: &Context) -> Outcome {
        match TagsForm::update(self, action) {
            TagsHandled::Stay => Outcome::stay(),
            TagsHandled::Close => Outcome::close(),
            TagsHandled::Keep(tags) => Outcome::ask(Request::SetTags(tags)),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(self).render(area, buf);
    }

    fn mode(&self) -> Mode {
        Mode::Text
    }
}

/// The list closes and its selected save is loaded (if it has one).
fn open(list: &SavesList) -> Outcome {
    list.selected().map_or_else(Outcome::close, |entry| {
        Outcome::ask(Request::Open(entry.into()))
    })
}

/// The choice closes and the game is analyzed at the selected budget.
fn analyze(choice: &BudgetChoice) -> Outcome {
    choice.selected().map_or_else(Outcome::close, |budget| {
        Outcome::ask(Request::Analyze(budget))
    })
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
    use crate::tui::theme::Look;

    const SIZE: Rect = Rect::new(0, 0, 80, 24);

    /// What a dialog is given, on an 80×24 screen.
    fn cx() -> Context<'static> {
        Context {
            size: SIZE,
            look: Box::leak(Box::default()),
            now: std::time::Instant::now(),
            settings: Box::leak(Box::default()),
            jobs: Box::leak(Box::default()),
        }
    }

    fn leave() -> Overlay {
        Overlay::Question(Question::Leave {
            to: Leaving::Quit,
            lost: None,
            unsaved: "The game is not saved to a file".to_owned(),
            finished: false,
        })
    }

    #[test]
    fn a_question_stays_until_answered_and_a_leave_question_offers_to_save() {
        let Handled::Stay(question) = leave().update(Action::Type('x'), &cx()) else {
            panic!("not an answer")
        };
        assert_eq!(question.mode(), Mode::Question);
        assert!(matches!(
            question.update(Action::Save, &cx()),
            Handled::Ask(Request::SaveThenLeave(Leaving::Quit))
        ));
        assert!(matches!(
            leave().update(Action::Cancel, &cx()),
            Handled::Ask(Request::Answer(Question::Leave { .. }, false))
        ));
        let resign = Overlay::Question(Question::Resign(Side::Attackers));
        assert!(matches!(
            resign.update(Action::Save, &cx()),
            Handled::Stay(Overlay::Question(Question::Resign(Side::Attackers)))
        ));
    }

    #[test]
    fn the_save_prompt_takes_what_is_typed_and_asks_to_save_it() {
        let prompt = Overlay::Save(SavePrompt::new(Path::new("/saves"), "game".to_owned()));
        let Handled::Stay(prompt) = prompt.update(Action::Type('2'), &cx()) else {
            panic!("typing")
        };
        let Handled::Ask(Request::Save(prompt)) = prompt.update(Action::Confirm, &cx()) else {
            panic!("save")
        };
        // The offered name is replaced by what is typed.
        assert_eq!(prompt.name().unwrap().to_string(), "2");
        let closed = Overlay::Save(prompt).update(Action::Cancel, &cx());
        assert!(matches!(closed, Handled::Close));
    }

    #[test]
    fn an_empty_list_of_saves_closes_on_enter_and_the_rules_open_the_keys() {
        let list = Overlay::Load(SavesList::new("/saves".into(), Vec::new(), &[]));
        assert!(matches!(
            list.update(Action::Confirm, &cx()),
            Handled::Close
        ));
        let rules = Overlay::Rules(RulesScreen::new(&crate::rules::Preset::Standard.rules()));
        assert!(matches!(
            rules.update(Action::Help, &cx()),
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
            Overlay::Help(Help::new("Keys".to_owned(), &crate::tui::input::BOARD_KEYS)),
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
                overlay.dialog().draw(
                    area,
                    &mut buf,
                    &Context {
                        size: area,
                        look: &look,
                        ..cx()
                    },
                );
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
