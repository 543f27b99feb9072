//! The dialogs over a screen as components: each takes the player's actions itself and says
//! what comes of them ([`Handled`]: it stays, it closes, or it closes and asks the app for
//! something), without reaching into the app; and each is drawn by a widget that only draws.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::dialogs::{BudgetChoice, Leaving, Question, SavePrompt, SavesList};
use super::help::Help;
use super::input::{Action, Direction, Mode};
use super::screens::RulesScreen;
use super::storage::SaveRef;
use super::theme::{Look, Themed};
use crate::ai::Budget;

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
    /// The budget of an analysis.
    Budget(BudgetChoice),
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

/// What an overlay asks of the app as it closes.
#[derive(Debug)]
pub enum Request {
    /// The keys of the screen in play (from the rules).
    Help,
    /// The player answered the question: yes if `true`.
    Answer(Question, bool),
    /// Save the game first, then leave it for where the question was leaving to.
    SaveThenLeave(Leaving),
    /// Save under the name and in the folder of the prompt.
    Save(SavePrompt),
    /// Load the save chosen.
    Open(SaveRef),
    /// Analyse the game at the budget chosen.
    Analyze(Budget),
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
            Overlay::Load(mut list) => match action {
                Action::Move(dir) => {
                    list.move_selection(dir);
                    Handled::Stay(Overlay::Load(list))
                }
                Action::Click { row, .. } if list.click(size, row) => open(&list),
                Action::Confirm => open(&list),
                Action::Cancel | Action::Load => Handled::Close,
                _ => Handled::Stay(Overlay::Load(list)),
            },
            Overlay::Budget(mut choice) => match action {
                Action::Move(dir) => {
                    choice.move_selection(dir);
                    Handled::Stay(Overlay::Budget(choice))
                }
                Action::Click { row, .. } if choice.click(size, row) => analyse(&choice),
                Action::Confirm => analyse(&choice),
                Action::Cancel => Handled::Close,
                _ => Handled::Stay(Overlay::Budget(choice)),
            },
        }
    }

    /// How keys are read while it is shown.
    pub const fn mode(&self) -> Mode {
        match self {
            Overlay::Question(_) => Mode::Question,
            Overlay::Save(_) => Mode::Text,
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

/// The choice closes and the game is analysed at the selected budget.
fn analyse(choice: &BudgetChoice) -> Handled {
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
            Overlay::Budget(of) => Themed { of, look }.render(area, buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::rules::Side;

    const SIZE: Rect = Rect::new(0, 0, 80, 24);

    fn leave() -> Overlay {
        Overlay::Question(Question::Leave {
            to: Leaving::Quit,
            lost: None,
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
}
