//! Pop-ups over the game: yes/no questions, the save prompt and the choice of an analysis's
//! budget (the list of saves is in `saves_list`).

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget, Wrap};

use super::analysis_text::{budget_text, duration_text};
use super::input::Direction;
use super::storage_jobs::SaveRef;
use super::text::{centered, field_end, fit_parts, highlight, printable, wrap};
use super::theme::{Look, Themed};
use crate::ai::Budget;
use crate::game::storage::{BadSaveName, SaveName};
use crate::rules::Side;

/// The area inside a pop-up drawn in `rect`.
pub(super) fn popup_inner(rect: Rect) -> Rect {
    Block::bordered().padding(POPUP_PADDING).inner(rect)
}

/// A column of air inside a pop-up's borders, left and right.
const POPUP_PADDING: Padding = Padding::horizontal(1);

/// A cleared, bordered pop-up with `title`; returns its inner area ([`popup_inner`]).
pub(super) fn popup(title: &str, look: &Look, rect: Rect, buf: &mut Buffer) -> Rect {
    Clear.render(rect, buf);
    // The corners and a space either side.
    let title = fit_parts(title, usize::from(rect.width.saturating_sub(4)));
    let block = look
        .block()
        .title(Line::from(format!(" {title} ")).style(look.theme.heading))
        .border_style(look.theme.heading)
        .padding(POPUP_PADDING);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// Where the player is going when leaving the game in play.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Leaving {
    /// Out of the program.
    Quit,
    /// To the new-game screen.
    NewGame,
    /// To the list of saves.
    Load,
    /// To a new game from this ply of the game under review (play from here).
    PlayFromHere(usize),
}

/// A save is about to replace another file: the question keeps the prompt to go back to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overwrite {
    /// The prompt the name was typed in.
    pub prompt: SavePrompt,
    /// The file that exists.
    pub path: PathBuf,
    /// What it holds, in words.
    pub holds: String,
    /// It is the game's own file, which another program (another copy of the game) has
    /// written since this game last read or wrote it.
    pub changed: bool,
}

/// A yes/no question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Leave a game whose moves are not saved to a file?
    Leave {
        /// Where to.
        to: Leaving,
        /// Why the game would be lost (no working autosave), or `None` if the autosave keeps
        /// it.
        lost: Option<String>,
        /// What the game has that no file holds, as a sentence ("The game has 1 move since
        /// it was loaded from club.otg").
        unsaved: String,
        /// Whether the game is over: its autosave is in the list of saves, not offered to
        /// continue.
        finished: bool,
    },
    /// Resign for this side?
    Resign(Side),
    /// This side offers a draw: does the other accept?
    Draw(Side),
    /// Replace another save with this game?
    Overwrite(Box<Overwrite>),
    /// Delete this listed save?
    Delete(SaveRef),
    /// Delete the side line reviewed (starting with this move, of this many moves)?
    DeleteLine {
        /// The line's first move, numbered (`3… c4-c6`).
        first: String,
        /// The moves of the line.
        moves: usize,
    },
}

impl Question {
    /// The question in words.
    pub fn text(&self) -> String {
        match self {
            Question::Leave {
                to: Leaving::Quit,
                lost: None,
                unsaved,
                finished,
            } => {
                let where_kept = if *finished {
                    "in the list of saves"
                } else {
                    "Continue on the new-game screen, or brandubh --resume"
                };
                format!("{unsaved}; its autosave keeps it ({where_kept}). Quit anyway?")
            }
            Question::Leave {
                to,
                lost: Some(why),
                ..
            } => {
                let leave = match to {
                    Leaving::Quit => "Quit anyway",
                    Leaving::NewGame | Leaving::PlayFromHere(_) => "Leave it for a new game",
                    Leaving::Load => "Leave it to load another",
                };
                format!("The game is NOT saved: {why}. {leave}?")
            }
            Question::Leave { lost: None, .. } => "Leave this game?".to_owned(),
            Question::Resign(side) => format!("Resign the game for the {side}?"),
            Question::Draw(side) => format!(
                "The {side} offer a draw. Do the {} accept?",
                side.opponent()
            ),
            Question::Delete(save) => {
                format!("Delete the save \"{}\"? Its file goes for good.", save.name)
            }
            Question::DeleteLine { first, moves } => format!(
                "Delete the side line {first} ({moves} move{}) and the lines in it?",
                if *moves == 1 { "" } else { "s" }
            ),
            Question::Overwrite(o) => {
                let name = o.path.file_stem().unwrap_or_default().to_string_lossy();
                if o.changed {
                    format!(
                        "The save \"{name}\" was written by another program since this game \
                         last saved or loaded it: {}. Replace it with this game?",
                        o.holds
                    )
                } else {
                    format!(
                        "A save named \"{name}\" exists: {}. Replace it with this game?",
                        o.holds
                    )
                }
            }
        }
    }
}

impl Widget for Themed<'_, Question> {
    /// Draws the question in a pop-up.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let text = of.text();
        let width = u16::try_from(text.len() + 4)
            .unwrap_or(u16::MAX)
            .clamp(30, 64)
            .min(area.width);
        let text_rows = wrap(&text, usize::from(width.saturating_sub(4))).len();
        let height = u16::try_from(text_rows).unwrap_or(1) + 4;
        let rect = centered(area, width, height);
        let inner = popup("Question", look, rect, buf);
        let mut keys = vec![
            Span::styled("y", look.theme.heading),
            Span::raw(" yes   "),
            Span::styled("n", look.theme.heading),
            Span::raw(" no"),
        ];
        if let Question::Leave { to, .. } = of {
            keys.push(Span::raw("   "));
            keys.push(Span::styled("s", look.theme.heading));
            let save = match of {
                // The save folder does not work: the save prompt asks for another.
                Question::Leave { lost: Some(_), .. } => " save elsewhere",
                _ => " save",
            };
            keys.push(Span::raw(match to {
                Leaving::Quit => format!("{save} and quit"),
                _ => format!("{save} first"),
            }));
        }
        Paragraph::new(vec![Line::raw(text), Line::default(), Line::from(keys)])
            .wrap(Wrap { trim: true })
            .render(inner, buf);
    }
}

/// The prompt for a save: a name, checked as it is typed, in a folder (the save folder, or
/// the folder of the game's own file), which can be changed to save elsewhere (when the save
/// folder cannot be written, say). Up and Down go between the two fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavePrompt {
    folder: String,
    text: String,
    /// Whether the name is still the one offered: drawn as selected, the first character
    /// typed replaces it and Backspace erases it whole.
    offered: bool,
    field: PromptField,
    /// Why the last save failed, until a field changes.
    failure: Option<String>,
    /// Where to go once saved (`s` in a question about leaving), if anywhere.
    then: Option<Leaving>,
}

/// The field of the save prompt being typed in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PromptField {
    Name,
    Folder,
}

impl SavePrompt {
    /// A prompt in `dir` offering the name `default`.
    pub fn new(dir: &Path, default: String) -> SavePrompt {
        SavePrompt {
            folder: dir.display().to_string(),
            text: default,
            offered: true,
            field: PromptField::Name,
            failure: None,
            then: None,
        }
    }

    /// A prompt to save elsewhere than `dir`, where saving failed for `why`: the folder field
    /// is the one typed in.
    pub fn elsewhere(dir: &Path, default: String, why: String) -> SavePrompt {
        SavePrompt {
            field: PromptField::Folder,
            failure: Some(why),
            ..SavePrompt::new(dir, default)
        }
    }

    /// The same prompt, leaving for `to` once the game is saved.
    #[must_use]
    pub const fn then_leave(mut self, to: Leaving) -> SavePrompt {
        self.then = Some(to);
        self
    }

    /// Where to go once the game is saved, if anywhere.
    pub const fn leaving(&self) -> Option<Leaving> {
        self.then
    }

    /// The field being typed in; the offered name is dropped as the name field is typed in.
    fn typed(&mut self) -> &mut String {
        self.failure = None;
        match self.field {
            PromptField::Name => {
                if std::mem::take(&mut self.offered) {
                    self.text.clear();
                }
                &mut self.text
            }
            PromptField::Folder => &mut self.folder,
        }
    }

    /// Types a character in the field being typed in.
    pub fn push(&mut self, c: char) {
        self.typed().push(c);
    }

    /// Deletes the last character of the field being typed in.
    pub fn pop(&mut self) {
        self.typed().pop();
    }

    /// Clears the field being typed in.
    pub fn clear(&mut self) {
        self.typed().clear();
    }

    /// Goes to the other field.
    pub fn switch_field(&mut self) {
        self.field = match self.field {
            PromptField::Name => PromptField::Folder,
            PromptField::Folder => PromptField::Name,
        };
    }

    /// The folder typed: a full path, `~` standing for the home folder.
    pub fn dir(&self) -> Result<PathBuf, String> {
        let folder = self.folder.trim();
        let home = || directories::BaseDirs::new().map(|b| b.home_dir().to_owned());
        let path = match folder.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                home().map(|h| h.join(rest.trim_start_matches('/')))
            }
            _ => Some(PathBuf::from(folder)),
        };
        match path {
            Some(path) if path.is_absolute() => Ok(path),
            _ => Err("the folder must be a full path (/... or ~/...)".to_owned()),
        }
    }

    /// The name typed, checked.
    pub fn name(&self) -> Result<SaveName, BadSaveName> {
        SaveName::parse(&self.text)
    }

    /// Shows why saving failed.
    pub fn set_failure(&mut self, why: String) {
        self.failure = Some(why);
    }
}

impl Widget for Themed<'_, SavePrompt> {
    /// Draws the prompt: the folder, the name, and what is wrong with them if anything.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let width = area.width.clamp(30, 72);
        // The borders and the padding.
        let inner = popup_inner(Rect::new(0, 0, width.min(area.width), 2));
        let (problem, problem_style) = match (&of.failure, of.dir(), of.name()) {
            (Some(failure), _, _) => (failure.clone(), look.theme.error),
            (None, Err(bad), _) => (bad, look.theme.error),
            (None, Ok(_), Err(bad)) => (bad.to_string(), look.theme.error),
            (None, Ok(_), Ok(name)) => (format!("saves {}", name.file_name()), look.theme.label),
        };
        let field = |label: &'static str, text: &str, focused: bool, selected: bool| {
            // The label, and the cursor after the text (an offered text drawn as selected).
            let room = usize::from(inner.width).saturating_sub(label.len() + 1);
            let text_style = if selected {
                look.theme.focus
            } else {
                Style::new()
            };
            let mut spans = vec![
                Span::styled(label, look.theme.heading),
                Span::styled(field_end(&printable(text), room), text_style),
            ];
            if focused {
                spans.push(Span::styled("_", look.theme.focus));
            }
            Line::from(spans)
        };
        let mut lines = vec![
            field(
                "folder: ",
                &of.folder,
                of.field == PromptField::Folder,
                false,
            ),
            field(
                "  name: ",
                &of.text,
                of.field == PromptField::Name,
                of.offered,
            ),
            Line::default(),
        ];
        let room = usize::from(inner.width.max(1));
        lines.extend(
            wrap(&problem, room)
                .into_iter()
                .take(2)
                .map(|l| Line::styled(l, problem_style)),
        );
        lines.push(Line::default());
        let keys = match of.then {
            None => "Enter save · ↑↓ folder/name · Esc cancel",
            Some(Leaving::Quit) => "Enter save and quit · ↑↓ folder/name · Esc cancel",
            Some(_) => "Enter save and go on · ↑↓ folder/name · Esc cancel",
        };
        lines.extend(
            wrap(keys, room)
                .into_iter()
                .map(|l| Line::styled(l, look.theme.label)),
        );
        let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
        let rect = centered(area, width, height);
        let inner = popup("Save game", look, rect, buf);
        Paragraph::new(lines).render(inner, buf);
    }
}

/// The choice of how long to analyze each position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BudgetChoice {
    budgets: Vec<Budget>,
    /// The positions the analysis will search.
    positions: usize,
    selected: usize,
    /// Whether the line analyzed is a side line (the review shows one), not the game.
    side_line: bool,
}

impl BudgetChoice {
    /// A choice among `budgets` (the first selected) for an analysis of `positions` positions.
    pub const fn new(budgets: Vec<Budget>, positions: usize) -> BudgetChoice {
        BudgetChoice {
            budgets,
            positions,
            selected: 0,
            side_line: false,
        }
    }

    /// The same choice for the analysis of a side line (its title says so).
    #[must_use]
    pub const fn on_side_line(mut self) -> BudgetChoice {
        self.side_line = true;
        self
    }

    /// Moves the selection up or down.
    pub fn move_selection(&mut self, dir: Direction) {
        let last = self.budgets.len().saturating_sub(1);
        self.selected = match dir {
            Direction::Up | Direction::Left => self.selected.saturating_sub(1),
            Direction::Down | Direction::Right => (self.selected + 1).min(last),
        };
    }

    /// The budget selected.
    pub fn selected(&self) -> Option<Budget> {
        self.budgets.get(self.selected).copied()
    }

    /// Selects the budget drawn at screen `row` of a screen of `area`, if any.
    pub fn click(&mut self, area: Rect, row: u16) -> bool {
        let first = self.rect(area).y + 1 + BudgetChoice::HEADER;
        match row.checked_sub(first).map(usize::from) {
            Some(i) if i < self.budgets.len() => {
                self.selected = i;
                true
            }
            _ => false,
        }
    }

    /// Rows above the budgets: the question and a blank.
    const HEADER: u16 = 2;

    fn rect(&self, area: Rect) -> Rect {
        let rows = u16::try_from(self.budgets.len()).unwrap_or(u16::MAX);
        centered(area, 48, rows.saturating_add(BudgetChoice::HEADER + 4))
    }
}

impl Widget for Themed<'_, BudgetChoice> {
    /// Draws the choice: each budget's time per position and for the whole game.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let rect = of.rect(area);
        let title = if of.side_line {
            "Analyze the side line"
        } else {
            "Analyze the game"
        };
        let inner = popup(title, look, rect, buf);
        let mut lines = vec![
            Line::raw(format!(
                "Search each of its {} positions for:",
                of.positions
            )),
            Line::default(),
        ];
        for (i, &budget) in of.budgets.iter().enumerate() {
            let whole = budget
                .time_for(of.positions)
                .map(|t| format!("at most {}", duration_text(t)))
                .unwrap_or_default();
            let line = Line::from(vec![
                Span::styled(format!("{:<8}", budget.name()), look.theme.heading),
                Span::raw(format!("{:<10}", budget_text(budget))),
                Span::styled(whole, look.theme.label),
            ]);
            lines.push(if i == of.selected {
                highlight(line, look.theme.focus)
            } else {
                line
            });
        }
        lines.push(Line::default());
        lines.push(Line::styled(
            "↑↓ choose · Enter analyze · Esc cancel",
            look.theme.label,
        ));
        Paragraph::new(lines).render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Limits;

    #[test]
    fn a_budget_is_chosen_by_keys_or_by_a_click_on_its_row() {
        let mut choice = BudgetChoice::new(Budget::PRESETS.to_vec(), 25);
        assert_eq!(choice.selected(), Some(Budget::Quick));
        choice.move_selection(Direction::Down);
        choice.move_selection(Direction::Down);
        choice.move_selection(Direction::Down);
        assert_eq!(choice.selected(), Some(Budget::Deep), "stops at the last");
        choice.move_selection(Direction::Up);
        assert_eq!(choice.selected(), Some(Budget::Normal));
        let area = Rect::new(0, 0, 80, 24);
        let look = Look::default();
        let mut buf = Buffer::empty(area);
        Themed {
            of: &choice,
            look: &look,
        }
        .render(area, &mut buf);
        let row_of = |text: &str| {
            (0..area.height).find(|&y| {
                let line: String = (0..area.width).map(|x| buf[(x, y)].symbol()).collect();
                line.contains(text)
            })
        };
        let quick = row_of("at most 2.5 s").unwrap();
        assert!(row_of("normal  0.5 s     at most 13 s").is_some());
        assert!(choice.click(area, quick));
        assert_eq!(choice.selected(), Some(Budget::Quick));
        assert!(choice.click(area, quick + 2));
        assert_eq!(choice.selected(), Some(Budget::Deep));
        assert!(!choice.click(area, quick + 3), "below the budgets");
        assert!(!choice.click(area, quick - 1), "the blank above them");
        assert_eq!(choice.selected(), Some(Budget::Deep));
        let drawn = |choice: &BudgetChoice| {
            let mut buf = Buffer::empty(area);
            Themed {
                of: choice,
                look: &look,
            }
            .render(area, &mut buf);
            buf.content()
                .iter()
                .map(ratatui::buffer::Cell::symbol)
                .collect::<String>()
        };
        let text = drawn(&BudgetChoice::new(
            vec![Budget::Limits(Limits::depth(3))],
            25,
        ));
        assert!(text.contains("custom  depth 3"), "{text}");
        assert!(text.contains("Analyze the game"), "{text}");
        // On a side line, the line is analyzed, and the title says so.
        let text = drawn(&BudgetChoice::new(Budget::PRESETS.to_vec(), 5).on_side_line());
        assert!(text.contains("Analyze the side line"), "{text}");
    }

    /// The text of a save prompt's name (what `name()` would save under, or why not).
    fn name_of(prompt: &SavePrompt) -> String {
        prompt
            .name()
            .map_or_else(|e| e.to_string(), |n| n.file_name())
    }

    #[test]
    fn the_offered_name_is_replaced_by_what_is_typed_and_erased_whole() {
        let offered = || SavePrompt::new(Path::new("/saves"), "game-20261207".to_owned());
        let mut prompt = offered();
        for c in "mine".chars() {
            prompt.push(c);
        }
        assert_eq!(
            name_of(&prompt),
            "mine.json",
            "typing replaces the offered name"
        );
        prompt.pop();
        assert_eq!(
            name_of(&prompt),
            "min.json",
            "then Backspace erases one character"
        );

        let mut prompt = offered();
        prompt.pop();
        assert!(
            prompt.name().is_err(),
            "Backspace erases the offered name whole"
        );
        prompt.push('x');
        assert_eq!(name_of(&prompt), "x.json");

        // Typing in the folder leaves the offered name offered.
        let mut prompt = offered();
        prompt.switch_field();
        prompt.push('/');
        prompt.switch_field();
        prompt.push('y');
        assert_eq!(name_of(&prompt), "y.json");
    }

    #[test]
    fn the_offered_name_is_drawn_as_selected_until_typed_over() {
        let area = Rect::new(0, 0, 80, 24);
        let look = Look::default();
        let style_of_name = |prompt: &SavePrompt| {
            let mut buf = Buffer::empty(area);
            Themed {
                of: prompt,
                look: &look,
            }
            .render(area, &mut buf);
            let (x, y) = (0..area.height)
                .find_map(|y| {
                    let line: String = (0..area.width).map(|x| buf[(x, y)].symbol()).collect();
                    let column = line.find("name: ")?;
                    let x = line[..column].chars().count() + "name: ".len();
                    Some((u16::try_from(x).unwrap(), y))
                })
                .expect("the name field");
            (buf[(x, y)].symbol().to_owned(), buf[(x, y)].style())
        };
        let mut prompt = SavePrompt::new(Path::new("/saves"), "game".to_owned());
        let (first, style) = style_of_name(&prompt);
        assert_eq!(first, "g");
        assert_eq!(style.bg, look.theme.focus.bg, "offered: drawn as selected");
        prompt.push('m');
        let (first, style) = style_of_name(&prompt);
        assert_eq!(first, "m");
        assert_ne!(style.bg, look.theme.focus.bg, "typed: plain text");
    }
}
