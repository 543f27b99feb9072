//! The form that creates an online game: rules, side, clock (as `--clock` writes it, or days
//! per move), open or private, engine help allowed. Every field is cycled with ← →, as on
//! the new-game screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget};

use crate::game::TimeControl;
use crate::net::protocol::{GameSetup, SideChoice, Timing};
use crate::rules::Preset;
use crate::tui::input::{Action, Direction};
use crate::tui::screens::cycle;
use crate::tui::text::centered;
use crate::tui::theme::{Look, Themed};

/// The clocks offered after none, in the `--clock` syntax.
const CLOCKS: [&str; 5] = ["3m+2s", "5m", "5m+3s", "10m/3x30s", "15m+10s"];
/// The correspondence choices offered, in days per move.
const DAYS: [u32; 3] = [1, 3, 7];

/// The form's fields, top to bottom.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Field {
    Rules,
    Side,
    Clock,
    Private,
    Engine,
    Create,
}

const FIELDS: [Field; 6] = [
    Field::Rules,
    Field::Side,
    Field::Clock,
    Field::Private,
    Field::Engine,
    Field::Create,
];

/// What the form's update comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CreateHandled {
    /// Still filling it in.
    Stay,
    /// Create this game.
    Create(GameSetup),
    /// Closed without creating.
    Cancel,
}

/// The create form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateForm {
    focus: usize,
    setup: GameSetup,
}

/// Every timing the form offers: none, the clocks, then correspondence.
fn timings() -> Vec<Timing> {
    let clocks = CLOCKS
        .iter()
        .filter_map(|text| text.parse::<TimeControl>().ok())
        .map(|control| Timing::Clock { control });
    let days = DAYS.iter().map(|&days| Timing::Correspondence { days });
    std::iter::once(Timing::Untimed)
        .chain(clocks)
        .chain(days)
        .collect()
}

/// A timing in words: `no clock`, `5m+3s`, `3d/move`.
pub fn timing_text(timing: Timing) -> String {
    match timing {
        Timing::Untimed => "no clock".to_owned(),
        Timing::Clock { control } => control.to_string(),
        Timing::Correspondence { days } => format!("{days}d/move"),
    }
}

/// A side choice in words.
pub const fn side_text(side: SideChoice) -> &'static str {
    match side {
        SideChoice::Attackers => "attackers",
        SideChoice::Defenders => "defenders",
        SideChoice::Random => "random",
    }
}

impl CreateForm {
    /// The form with `rules` and everything else as usual, the focus on Create.
    pub fn new(rules: Preset) -> CreateForm {
        CreateForm {
            focus: FIELDS.len() - 1,
            setup: GameSetup {
                rules,
                ..GameSetup::default()
            },
        }
    }

    /// The game as filled in.
    #[cfg(test)]
    pub const fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// Takes an action.
    pub fn update(&mut self, action: Action) -> CreateHandled {
        match action {
            Action::Confirm => return CreateHandled::Create(self.setup.clone()),
            Action::Cancel | Action::Quit => return CreateHandled::Cancel,
            Action::Move(Direction::Up) => self.focus = self.focus.saturating_sub(1),
            Action::Move(Direction::Down) => self.focus = (self.focus + 1).min(FIELDS.len() - 1),
            Action::Move(dir @ (Direction::Left | Direction::Right)) => {
                self.change(dir == Direction::Right);
            }
            _ => {}
        }
        CreateHandled::Stay
    }

    fn change(&mut self, forward: bool) {
        let s = &mut self.setup;
        match FIELDS[self.focus] {
            Field::Rules => s.rules = cycle(&Preset::ALL, s.rules, forward),
            Field::Side => {
                let sides = [
                    SideChoice::Random,
                    SideChoice::Attackers,
                    SideChoice::Defenders,
                ];
                s.side = cycle(&sides, s.side, forward);
            }
            Field::Clock => s.timing = cycle(&timings(), s.timing, forward),
            Field::Private => s.private = !s.private,
            Field::Engine => s.engine_allowed = !s.engine_allowed,
            Field::Create => {}
        }
    }
}

impl Widget for Themed<'_, CreateForm> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: form, look } = self;
        let rect = centered(area, area.width.min(44), 10.min(area.height));
        Clear.render(rect, buf);
        let block = look
            .block()
            .title(Line::from(" Create a game ").style(look.theme.heading));
        let inner = block.inner(rect);
        block.render(rect, buf);
        let s = &form.setup;
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let values = [
            ("rules", s.rules.name().to_owned()),
            ("side", side_text(s.side).to_owned()),
            ("clock", timing_text(s.timing)),
            ("private", yes_no(s.private).to_owned()),
            ("engine help", yes_no(s.engine_allowed).to_owned()),
        ];
        let mut lines: Vec<Line> = values
            .iter()
            .enumerate()
            .map(|(i, (label, value))| field_line(look, i == form.focus, label, value))
            .collect();
        let create = FIELDS.len() - 1;
        lines.push(Line::styled(
            if form.focus == create {
                "▶ Create"
            } else {
                "  Create"
            },
            focus(look, form.focus == create),
        ));
        lines.push(Line::styled(
            "←→ change · Enter create · Esc back",
            look.theme.label,
        ));
        Paragraph::new(lines).render(inner, buf);
    }
}

fn focus(look: &Look, on: bool) -> Style {
    if on { look.theme.focus } else { Style::new() }
}

fn field_line<'a>(look: &Look, on: bool, label: &str, value: &str) -> Line<'a> {
    let marker = if on { "▶" } else { " " };
    Line::styled(format!("{marker} {label:<12}◀ {value} ▶"), focus(look, on))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_cycles_every_choice_and_creates_what_it_shows() {
        let mut form = CreateForm::new(Preset::Standard);
        for _ in 0..5 {
            form.update(Action::Move(Direction::Up));
        }
        form.update(Action::Move(Direction::Right));
        assert_eq!(form.setup().rules, Preset::Walker);
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Right));
        assert_eq!(form.setup().side, SideChoice::Attackers);
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Left));
        assert_eq!(form.setup().timing, Timing::Correspondence { days: 7 });
        assert_eq!(timing_text(form.setup().timing), "7d/move");
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Right));
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Right));
        let CreateHandled::Create(setup) = form.update(Action::Confirm) else {
            panic!("Enter creates");
        };
        assert!(setup.private && setup.engine_allowed);
        assert_eq!(form.update(Action::Cancel), CreateHandled::Cancel);
    }
}
