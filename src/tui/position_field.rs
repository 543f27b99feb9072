//! The position field of the new-game form: a position string typed by the player (empty for
//! the standard start), checked as it is typed, with the reason shown below it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::field_end;
use super::theme::Look;
use crate::game::{StartError, check_start, parse_start};
use crate::rules::{Position, Rules};

/// The longest text the field takes: a position string is at most 36 characters; the rest is
/// room for stray spaces.
const MAX_CHARS: usize = 64;

/// How to type a position, under the empty field.
const HELP: &str = "rank 1 first: t T K, 1-7 empties, / between, a/d";

/// A typed start position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionField {
    text: String,
}

impl PositionField {
    /// The field filled in with `position` (left empty for the standard start).
    pub fn new(position: &Position) -> PositionField {
        let text = if *position == Position::start() {
            String::new()
        } else {
            position.to_string()
        };
        PositionField { text }
    }

    /// Adds a typed character (control characters and anything past the length cap are
    /// ignored).
    pub fn push(&mut self, c: char) {
        if !c.is_control() && self.text.chars().count() < MAX_CHARS {
            self.text.push(c);
        }
    }

    /// Deletes the last character.
    pub fn pop(&mut self) {
        self.text.pop();
    }

    /// Clears the text typed.
    pub fn clear(&mut self) {
        self.text.clear();
    }

    /// The position a game under `rules` starts from: the standard start when the field is
    /// empty, else the typed one if it is a position where the game is not over yet.
    pub fn start(&self, rules: &Rules) -> Result<Position, StartError> {
        let text = self.text.trim();
        if text.is_empty() {
            check_start(rules, Position::start())
        } else {
            parse_start(rules, text)
        }
    }

    /// Draws the field on the first row of `area` after `label`, and on the second row what
    /// the text means under `rules`: the side to move, or why it cannot start a game.
    pub fn render(
        &self,
        label: Span,
        focused: bool,
        rules: &Rules,
        look: &Look,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let theme = &look.theme;
        let indent = label.width();
        let room = usize::from(area.width).saturating_sub(indent + 2);
        let shown = field_end(&self.text, room);
        let field = match (shown.is_empty(), focused) {
            (true, false) => Span::styled("the standard start", theme.label),
            (_, true) => Span::styled(format!("{shown}_"), theme.focus),
            (false, false) => Span::raw(shown),
        };
        Line::from(vec![label, field]).render(Rect { height: 1, ..area }, buf);
        if area.height < 2 {
            return;
        }
        let note = match self.start(rules) {
            Err(e) => Span::styled(e.to_string(), theme.error),
            // The help, where it fits whole.
            Ok(_) if self.text.trim().is_empty() => {
                if HELP.chars().count() + indent > usize::from(area.width) {
                    return;
                }
                Span::styled(HELP, theme.label)
            }
            Ok(position) => Span::styled(
                format!("the {} to move", position.side_to_move()),
                theme.label,
            ),
        };
        let note_area = Rect::new(
            area.x + u16::try_from(indent).unwrap_or(0),
            area.y + 1,
            area.width
                .saturating_sub(u16::try_from(indent).unwrap_or(u16::MAX)),
            1,
        );
        Line::from(note).render(note_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, START, Side};

    #[test]
    fn empty_is_the_standard_start_and_typed_text_is_checked() {
        let rules = Preset::Standard.rules();
        let mut field = PositionField::new(&Position::start());
        assert_eq!(field.start(&rules), Ok(Position::start()));
        for c in "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".chars() {
            field.push(c);
        }
        assert_eq!(
            field.start(&rules),
            Ok(Position::start()),
            "attackers by default"
        );
        field.push(' ');
        field.push('d');
        assert_eq!(field.start(&rules).unwrap().side_to_move(), Side::Defenders);
        for _ in 0..4 {
            field.pop();
        }
        assert!(matches!(field.start(&rules), Err(StartError::Setup(_))));
        field.push('\u{1b}');
        assert!(
            !field.text.contains('\u{1b}'),
            "control characters are not typed"
        );
    }

    #[test]
    fn a_position_fills_the_field_and_a_decided_one_is_refused() {
        let rules = Preset::Standard.rules();
        let position: Position = "/7/7/7/3K3/7/t6/7/ d".parse().unwrap();
        let field = PositionField::new(&position);
        assert_eq!(field.text, position.to_string());
        assert_eq!(field.start(&rules), Ok(position));
        assert_eq!(PositionField::new(&START.parse().unwrap()).text, "");
        let mut over = PositionField::default();
        for c in "/7/7/7/7/7/7/7/".chars() {
            over.push(c);
        }
        assert!(matches!(over.start(&rules), Err(StartError::Over(_))));
    }
}
