//! The rules screen: the rules of the game in words (a preset's text from `assets/rules/`,
//! or custom rules' parameters in words), scrollable.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::input::{Action, Direction};
use super::text::wrap;
use super::theme::Themed;
use crate::rules::{KingBesideThrone, KingOnThrone, Preset, Repetition, Rules};

/// The rules of a preset in words, from `assets/rules/`.
pub const fn rules_text(preset: Preset) -> &'static str {
    match preset {
        Preset::Standard => include_str!("../../assets/rules/standard.md"),
        Preset::Walker => include_str!("../../assets/rules/walker.md"),
        Preset::Nielsen => include_str!("../../assets/rules/nielsen.md"),
        Preset::Fellhuhn => include_str!("../../assets/rules/fellhuhn.md"),
        Preset::OpenTafl => include_str!("../../assets/rules/opentafl.md"),
    }
}

/// The rules in words for parameters that match no preset (a loaded game with custom rules).
pub fn custom_rules_text(rules: &Rules) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let king_on_throne = match rules.king_on_throne {
        KingOnThrone::FourAttackers => "by attackers on all four sides",
        KingOnThrone::Sandwich => "by two attackers on opposite sides",
    };
    let king_beside_throne = match rules.king_beside_throne {
        KingBesideThrone::ThreeAttackers => "by attackers on his three other sides",
        KingBesideThrone::SandwichAgainstThrone => {
            "by two attackers, or one against the empty throne"
        }
        KingBesideThrone::Sandwich => "by two attackers; the throne does not count",
        KingBesideThrone::Uncapturable => {
            "by no one: of his four sides, the empty throne is not hostile to him"
        }
    };
    let repetition = match rules.repetition {
        Repetition::MoverLoses => "the player who makes it loses",
        Repetition::SideToMoveLoses => "the side to move in it (who began the cycle) loses",
        Repetition::DefendersLose => "the defenders lose",
        Repetition::Draw => "the game is drawn",
    };
    format!(
        "# Custom rules\n\nThis game uses rules that match no preset. Pieces move like rooks, \
         capture by sandwiching, the king escapes to a corner, and a side without moves loses.\n\n\
         - Empty throne hostile to attackers: {}\n\
         - Empty throne hostile to defenders: {}\n\
         - Corners hostile to soldiers: {}\n\
         - Corners hostile to the king: {}\n\
         - The king on the throne is captured {king_on_throne}.\n\
         - The king beside the throne is captured {king_beside_throne}.\n\
         - The king on an edge square can be captured: {}\n\
         - Attackers win by encirclement: {}\n\
         - Repetition: at the third occurrence of a position, {repetition}.\n",
        yes(rules.throne_hostile_to_attackers),
        yes(rules.throne_hostile_to_defenders),
        yes(rules.corners_hostile),
        yes(rules.corners_hostile_to_king),
        yes(!rules.king_safe_on_edge),
        yes(rules.encirclement),
    )
}

/// The rules screen: the rules of the game in words, scrollable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesScreen {
    title: &'static str,
    text: Cow<'static, str>,
    scroll: usize,
}

/// A line of the rules text and how it is drawn.
enum TextLine {
    Heading(String),
    Body(String),
}

impl RulesScreen {
    /// The text of `rules` from the top: its preset's text, or the parameters in words.
    pub fn new(rules: &Rules) -> RulesScreen {
        let (title, text) = match rules.preset() {
            Some(preset) => (preset.name(), Cow::Borrowed(rules_text(preset))),
            None => ("custom", Cow::Owned(custom_rules_text(rules))),
        };
        RulesScreen {
            title,
            text,
            scroll: 0,
        }
    }

    /// Scrolls by a line (Up/Down) or a page (PageUp/PageDown).
    pub fn scroll(&mut self, action: Action) {
        self.scroll = match action {
            Action::Move(Direction::Up) => self.scroll.saturating_sub(1),
            Action::Move(Direction::Down) => self.scroll + 1,
            Action::PageUp => self.scroll.saturating_sub(10),
            Action::PageDown => self.scroll + 10,
            _ => self.scroll,
        };
    }

    /// The text laid out in lines of at most `width` characters: paragraphs and list items
    /// are joined and rewrapped; `#` headings are kept apart.
    fn lines(&self, width: usize) -> Vec<TextLine> {
        let mut out = Vec::new();
        let mut block = String::new();
        let flush = |block: &mut String, out: &mut Vec<TextLine>| {
            if block.is_empty() {
                return;
            }
            let (first, rest) = if let Some(item) = block.strip_prefix("- ") {
                ("• ", item)
            } else {
                ("", block.as_str())
            };
            let indent = first.chars().count();
            for (i, l) in wrap(rest, width.saturating_sub(indent))
                .into_iter()
                .enumerate()
            {
                let lead = if i == 0 || indent == 0 { first } else { "  " };
                out.push(TextLine::Body(format!("{lead}{l}")));
            }
            block.clear();
        };
        let blank = |out: &mut Vec<TextLine>| {
            if out
                .last()
                .is_some_and(|l| !matches!(l, TextLine::Body(t) if t.is_empty()))
            {
                out.push(TextLine::Body(String::new()));
            }
        };
        for raw in self.text.lines() {
            let line = raw.trim_end();
            if let Some(heading) = line.strip_prefix('#') {
                flush(&mut block, &mut out);
                blank(&mut out);
                out.push(TextLine::Heading(
                    heading.trim_start_matches('#').trim().to_owned(),
                ));
            } else if line.is_empty() {
                flush(&mut block, &mut out);
                blank(&mut out);
            } else if line.starts_with("- ") {
                flush(&mut block, &mut out);
                block.push_str(line);
            } else {
                if !block.is_empty() {
                    block.push(' ');
                }
                block.push_str(line.trim_start());
            }
        }
        flush(&mut block, &mut out);
        out
    }
}

impl Widget for Themed<'_, RulesScreen> {
    /// Draws the rules over the whole `area`.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        Clear.render(area, buf);
        let block = look
            .block()
            .title(Line::from(format!(" Rules: {} ", of.title)).style(look.theme.heading))
            .title_bottom(Line::from(" ↑↓ PgUp PgDn scroll · Esc close ").style(look.theme.label));
        let inner = block.inner(area);
        block.render(area, buf);
        let text = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let lines = of.lines(usize::from(text.width));
        let visible = usize::from(text.height);
        let top = of.scroll.min(lines.len().saturating_sub(visible));
        let shown: Vec<Line> = lines
            .into_iter()
            .skip(top)
            .take(visible)
            .map(|l| match l {
                TextLine::Heading(t) => Line::styled(t, look.theme.heading),
                TextLine::Body(t) => Line::raw(t),
            })
            .collect();
        Paragraph::new(shown).render(text, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rules_text_names_its_repetition_rule() {
        let custom = Rules {
            encirclement: false,
            ..Preset::Standard.rules()
        };
        for rules in Preset::ALL.map(Preset::rules).into_iter().chain([custom]) {
            let screen = RulesScreen::new(&rules);
            let lines = screen.lines(60);
            assert!(
                lines
                    .iter()
                    .any(|l| matches!(l, TextLine::Body(t) if t.contains("Repetition"))),
                "{rules:?}"
            );
            assert!(lines.iter().all(|l| match l {
                TextLine::Body(t) | TextLine::Heading(t) => t.chars().count() <= 60,
            }));
        }
    }
}
