//! The tags form: one line for each of the game's tags (event, site, date, the attackers' and
//! the defenders' player, annotator), ↑↓ between them, Enter to keep them all, Esc to cancel.
//! A tag holds one line of at most [`MAX_TAG_CHARS`] characters; a date typed is checked
//! ([`check_date`]), a date the game already had is kept as it is.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::dialogs::{popup, popup_inner};
use super::input::{Action, Direction};
use super::text::{centered, field_end, printable, wrap};
use super::theme::{Look, Themed};
use crate::game::{MAX_TAG_CHARS, Tag, Tags, check_date};

/// The widest the form is drawn.
const MAX_WIDTH: u16 = 64;
/// The columns of a field's label, right-aligned: the longest tag's name and `: `.
const LABEL_WIDTH: usize = 11;
/// The keys under the fields.
const KEYS: &str = "Enter save · ↑↓ field · Esc cancel";
/// What the form says while nothing is wrong.
const DATE_HINT: &str = "date: 2016.08.12, 2016-08 or 2016.??.??";

/// What the form's update comes to.
#[derive(Debug, PartialEq, Eq)]
pub enum TagsHandled {
    /// The form stays open.
    Stay,
    /// The form closes, the tags unchanged.
    Close,
    /// The form closes and the game's tags become these.
    Keep(Tags),
}

/// The game's tags being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagsForm {
    /// The text of each tag, in [`Tag::ALL`]'s order.
    fields: Vec<String>,
    original: Tags,
    focus: usize,
    /// Why the tags could not be kept, until a field changes.
    failure: Option<String>,
}

impl TagsForm {
    /// The form filled in with `tags`, on the first field.
    pub fn new(tags: &Tags) -> TagsForm {
        TagsForm {
            fields: Tag::ALL
                .iter()
                .map(|&tag| tags.get(tag).unwrap_or_default().to_owned())
                .collect(),
            original: tags.clone(),
            focus: 0,
            failure: None,
        }
    }

    /// Takes `action`.
    pub fn update(&mut self, action: Action) -> TagsHandled {
        match action {
            Action::Cancel => return TagsHandled::Close,
            Action::Confirm => match self.tags() {
                Ok(tags) => return TagsHandled::Keep(tags),
                Err((focus, why)) => {
                    self.focus = focus;
                    self.failure = Some(why);
                }
            },
            Action::Move(Direction::Up) => {
                self.focus = (self.focus + Tag::ALL.len() - 1) % Tag::ALL.len();
            }
            Action::Move(Direction::Down) => self.focus = (self.focus + 1) % Tag::ALL.len(),
            Action::Type(c) => {
                let field = &mut self.fields[self.focus];
                if field.chars().count() < MAX_TAG_CHARS && !c.is_control() {
                    field.push(c);
                    self.failure = None;
                }
            }
            Action::Backspace => {
                self.fields[self.focus].pop();
                self.failure = None;
            }
            Action::ClearField => {
                self.fields[self.focus].clear();
                self.failure = None;
            }
            _ => {}
        }
        TagsHandled::Stay
    }

    /// The tags typed, or the field that is wrong (its index) and why.
    fn tags(&self) -> Result<Tags, (usize, String)> {
        // The record's other tags are not in the form: they stay as they are.
        let mut tags = self.original.clone();
        for (i, (&tag, text)) in Tag::ALL.iter().zip(&self.fields).enumerate() {
            let typed = text.trim();
            let unchanged = self.original.get(tag).unwrap_or_default() == typed;
            if tag == Tag::Date && !typed.is_empty() && !unchanged {
                check_date(typed).map_err(|e| (i, e.to_string()))?;
            }
            tags.set(tag, typed).map_err(|e| (i, e.to_string()))?;
        }
        Ok(tags)
    }

    /// The lines of the form in `width` columns: the fields, a blank, what is wrong (or the
    /// date's forms), the keys.
    fn lines(&self, look: &Look, width: usize) -> Vec<Line<'static>> {
        let room = width.saturating_sub(LABEL_WIDTH + 1);
        let mut lines: Vec<Line> = Tag::ALL
            .iter()
            .zip(&self.fields)
            .enumerate()
            .map(|(i, (tag, text))| {
                let mut spans = vec![
                    Span::styled(
                        format!("{:>w$}", format!("{tag}: "), w = LABEL_WIDTH),
                        look.theme.heading,
                    ),
                    Span::raw(field_end(&printable(text), room)),
                ];
                if i == self.focus {
                    spans.push(Span::styled("_", look.theme.focus));
                }
                Line::from(spans)
            })
            .collect();
        lines.push(Line::default());
        let (said, style) = match &self.failure {
            Some(why) => (why.as_str(), look.theme.error),
            None => (DATE_HINT, look.theme.label),
        };
        let said = wrap(said, width);
        let keys = wrap(KEYS, width);
        lines.extend(said.into_iter().map(|l| Line::styled(l, style)));
        lines.extend(keys.into_iter().map(|l| Line::styled(l, look.theme.label)));
        lines
    }
}

impl Widget for Themed<'_, TagsForm> {
    /// Draws the form in a pop-up as tall as its lines (the message shortened first on a
    /// small screen).
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let width = area.width.min(MAX_WIDTH);
        let inner_width = usize::from(popup_inner(Rect::new(0, 0, width, 3)).width);
        let mut lines = of.lines(look, inner_width);
        let room = usize::from(area.height.saturating_sub(2));
        if lines.len() > room {
            // The keys stay; the message gives way from its end.
            let keys = wrap(KEYS, inner_width).len();
            let cut = lines.len() - room;
            let end = lines.len() - keys;
            lines.drain(end.saturating_sub(cut)..end);
        }
        let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
        let rect = centered(area, width, height);
        let inner = popup("Tags of the game", look, rect, buf);
        Paragraph::new(lines).render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(form: &mut TagsForm, text: &str) {
        for c in text.chars() {
            form.update(Action::Type(c));
        }
    }

    #[test]
    fn fields_are_typed_in_turn_and_kept_together() {
        let mut tags = Tags::default();
        tags.set(Tag::Site, "Dublin").unwrap();
        let mut form = TagsForm::new(&tags);
        assert_eq!(Tag::ALL[form.focus], Tag::Event);
        typed(&mut form, "Club night");
        form.update(Action::Move(Direction::Up));
        assert_eq!(Tag::ALL[form.focus], Tag::Annotator, "round to the last");
        typed(&mut form, "Bob");
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Down));
        for _ in 0..6 {
            form.update(Action::Backspace);
        }
        let TagsHandled::Keep(kept) = form.update(Action::Confirm) else {
            panic!("kept")
        };
        assert_eq!(kept.get(Tag::Event), Some("Club night"));
        assert_eq!(kept.get(Tag::Annotator), Some("Bob"));
        assert_eq!(kept.get(Tag::Site), None, "emptied: removed");
        assert_eq!(
            TagsForm::new(&kept).update(Action::Cancel),
            TagsHandled::Close
        );
    }

    #[test]
    fn a_date_typed_is_checked_and_a_date_read_is_kept() {
        let mut form = TagsForm::new(&Tags::default());
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Down));
        assert_eq!(Tag::ALL[form.focus], Tag::Date);
        typed(&mut form, "2016.02.30");
        form.update(Action::Move(Direction::Up));
        assert_eq!(form.update(Action::Confirm), TagsHandled::Stay);
        assert_eq!(Tag::ALL[form.focus], Tag::Date, "back on the date");
        assert!(form.failure.as_deref().unwrap().starts_with("date: "));
        form.update(Action::Backspace);
        form.update(Action::Backspace);
        typed(&mut form, "29");
        assert_eq!(form.failure, None, "said until the field changes");
        assert!(matches!(form.update(Action::Confirm), TagsHandled::Keep(_)));
        let mut read = Tags::default();
        read.set_fitted(Tag::Date, "August 2016");
        let mut form = TagsForm::new(&read);
        let TagsHandled::Keep(kept) = form.update(Action::Confirm) else {
            panic!("kept")
        };
        assert_eq!(kept.get(Tag::Date), Some("August 2016"));
    }

    #[test]
    fn a_records_other_tags_stay_through_the_form() {
        let mut read = Tags::default();
        assert!(read.keep_other("round", "2"));
        let mut form = TagsForm::new(&read);
        typed(&mut form, "Club night");
        let TagsHandled::Keep(kept) = form.update(Action::Confirm) else {
            panic!("kept")
        };
        assert_eq!(kept.other("round"), Some("2"));
        // Ctrl-U clears the field.
        form.update(Action::ClearField);
        let TagsHandled::Keep(cleared) = form.update(Action::Confirm) else {
            panic!("kept")
        };
        assert_eq!(cleared.get(Tag::Event), None);
        assert_eq!(kept.get(Tag::Event), Some("Club night"));
    }
}
