//! The form that creates an online game: rules, side, clock (as `--clock` writes it, or days
//! per move), open or private, engine help allowed, rated or casual. Every field is cycled with ← →, as on
//! the new-game screen; the clock may be typed too, read as `--clock` reads it.

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
    Rated,
    Create,
}

const FIELDS: [Field; 7] = [
    Field::Rules,
    Field::Side,
    Field::Clock,
    Field::Private,
    Field::Engine,
    Field::Rated,
    Field::Create,
];

/// What the form's update comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CreateHandled {
    /// Still filling it in.
    Stay,
    /// Create this game.
    Create(GameSetup),
    /// The clock typed is not one: why, in one line (the form stays).
    BadClock(String),
    /// Closed without creating.
    Cancel,
}

/// The create form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateForm {
    focus: usize,
    setup: GameSetup,
    /// The clock as shown or typed; read when the game is created.
    clock: String,
    /// Whether the clock was typed into: until it is, what it shows is replaced by the
    /// first character typed (and erased whole by Backspace).
    typed: bool,
    /// Why the clock typed is not one, until it changes.
    error: Option<String>,
    /// The player the terms are for (a challenge), escaped; `None`: a game to create.
    challenged: Option<String>,
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
    /// The form filled in as `setup`, the focus on Create.
    pub fn new(setup: GameSetup) -> CreateForm {
        CreateForm {
            focus: FIELDS.len() - 1,
            clock: timing_text(setup.timing),
            typed: false,
            setup,
            error: None,
            challenged: None,
        }
    }

    /// The form giving the terms of a challenge to `name`, filled in as `setup`.
    pub fn challenge(setup: GameSetup, name: &str) -> CreateForm {
        CreateForm {
            challenged: Some(crate::quote::excerpt(name)),
            ..CreateForm::new(setup)
        }
    }

    /// Whether keys are typed into the clock field (it has the focus).
    pub fn typing(&self) -> bool {
        FIELDS[self.focus] == Field::Clock
    }

    /// The game as filled in.
    #[cfg(test)]
    pub const fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// Takes an action.
    pub fn update(&mut self, action: Action) -> CreateHandled {
        match action {
            Action::Confirm => match self.clock.parse::<Timing>() {
                Ok(timing) => {
                    self.setup.timing = timing;
                    return CreateHandled::Create(self.setup.clone());
                }
                Err(e) => {
                    self.focus = FIELDS.iter().position(|&f| f == Field::Clock).unwrap_or(0);
                    self.error = Some(e.to_string());
                    return CreateHandled::BadClock(e.to_string());
                }
            },
            Action::Type(c) if self.typing() => {
                if !self.typed {
                    self.clock.clear();
                }
                self.clock.push(c);
                self.typed = true;
                self.error = None;
            }
            Action::Backspace if self.typing() => {
                if self.typed {
                    self.clock.pop();
                } else {
                    self.clock.clear();
                }
                self.typed = true;
                self.error = None;
            }
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
            Field::Clock => {
                // From the clock typed, if it is one of those offered.
                let now = self.clock.parse().unwrap_or(s.timing);
                s.timing = cycle(&timings(), now, forward);
                self.clock = timing_text(s.timing);
                self.typed = false;
                self.error = None;
            }
            Field::Private => s.private = !s.private,
            Field::Engine => s.engine_allowed = !s.engine_allowed,
            Field::Rated => s.rated = !s.rated,
            Field::Create => {}
        }
    }
}

impl Widget for Themed<'_, CreateForm> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: form, look } = self;
        let rect = centered(area, area.width.min(44), 11.min(area.height));
        Clear.render(rect, buf);
        let (title, create_text) = match &form.challenged {
            Some(name) => (format!(" Challenge {name} "), "Challenge"),
            None => (" Create a game ".to_owned(), "Create"),
        };
        let block = look
            .block()
            .title(Line::from(title).style(look.theme.heading));
        let inner = block.inner(rect);
        block.render(rect, buf);
        let s = &form.setup;
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let values = [
            ("rules", s.rules.name().to_owned()),
            ("side", side_text(s.side).to_owned()),
            ("clock", clock_value(form)),
            ("private", yes_no(s.private).to_owned()),
            ("engine help", yes_no(s.engine_allowed).to_owned()),
            ("rated", yes_no(s.rated).to_owned()),
        ];
        let mut lines: Vec<Line> = values
            .iter()
            .enumerate()
            .map(|(i, (label, value))| field_line(look, i == form.focus, label, value))
            .collect();
        let create = FIELDS.len() - 1;
        lines.push(Line::styled(
            if form.focus == create {
                format!("▶ {create_text}")
            } else {
                format!("  {create_text}")
            },
            focus(look, form.focus == create),
        ));
        // A clock typed that is not one (why: on the status line), in place of the keys
        // until it changes.
        lines.push(match &form.error {
            Some(_) => Line::styled("not a clock: 5m+3s, 10m/3x30s, 3d/move", look.theme.error),
            None => Line::styled(
                format!(
                    "←→ change · Enter {} · Esc back",
                    create_text.to_lowercase()
                ),
                look.theme.label,
            ),
        });
        Paragraph::new(lines).render(inner, buf);
    }
}

/// The clock field's text, with a cursor while it is typed into.
fn clock_value(form: &CreateForm) -> String {
    let text = crate::quote::escaped(&form.clock, crate::quote::MESSAGE_CHARS);
    if form.typing() {
        format!("{text}▏")
    } else {
        text
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
        let mut form = CreateForm::new(GameSetup::default());
        for _ in 0..6 {
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
        form.update(Action::Move(Direction::Down));
        form.update(Action::Move(Direction::Right));
        let CreateHandled::Create(setup) = form.update(Action::Confirm) else {
            panic!("Enter creates");
        };
        assert!(setup.private && setup.engine_allowed && setup.rated);
        assert_eq!(form.update(Action::Cancel), CreateHandled::Cancel);
    }

    /// The form with the clock typed in as `text` (the focus on the clock field).
    fn typed(text: &str) -> CreateForm {
        let mut form = CreateForm::new(GameSetup::default());
        for _ in 0..4 {
            form.update(Action::Move(Direction::Up));
        }
        assert!(form.typing());
        while !form.clock.is_empty() {
            form.update(Action::Backspace);
        }
        for c in text.chars() {
            form.update(Action::Type(c));
        }
        form
    }

    #[test]
    fn the_clock_is_typed_as_the_command_line_writes_it_and_checked_on_enter() {
        let mut form = typed("2d/move");
        let CreateHandled::Create(setup) = form.update(Action::Confirm) else {
            panic!("Enter creates");
        };
        assert_eq!(setup.timing, Timing::Correspondence { days: 2 });
        let mut form = typed("4m+2s");
        let CreateHandled::Create(setup) = form.update(Action::Confirm) else {
            panic!("Enter creates");
        };
        assert_eq!(timing_text(setup.timing), "4m+2s");
        // Bad text: one line, the form stays, the clock keeps the focus.
        let mut form = typed("40d/move");
        let CreateHandled::BadClock(error) = form.update(Action::Confirm) else {
            panic!("a bad clock is refused");
        };
        assert!(
            error.contains("days per move") && !error.contains('\n'),
            "{error}"
        );
        assert!(form.typing());
        // The choices still cycle, from the clock typed.
        let mut form = typed("5m");
        form.update(Action::Move(Direction::Right));
        assert_eq!(form.clock, "5m+3s");
    }

    #[test]
    fn typing_in_the_clock_field_replaces_what_it_shows() {
        let mut form = CreateForm::new(GameSetup::default());
        for _ in 0..4 {
            form.update(Action::Move(Direction::Up));
        }
        for c in "1m".chars() {
            form.update(Action::Type(c));
        }
        let CreateHandled::Create(setup) = form.update(Action::Confirm) else {
            panic!("1m is a clock: {}", form.clock);
        };
        assert_eq!(timing_text(setup.timing), "1m");
        // Backspace on the clock shown erases it whole; typed text is erased a character
        // at a time.
        let mut form = CreateForm::new(setup);
        for _ in 0..4 {
            form.update(Action::Move(Direction::Up));
        }
        form.update(Action::Backspace);
        assert_eq!(form.clock, "");
        for c in "5m+3s".chars() {
            form.update(Action::Type(c));
        }
        form.update(Action::Backspace);
        assert_eq!(form.clock, "5m+3");
    }

    #[test]
    fn the_form_starts_as_the_command_line_fills_it() {
        let setup = GameSetup {
            rules: Preset::Walker,
            side: SideChoice::Defenders,
            timing: Timing::Correspondence { days: 3 },
            ..GameSetup::default()
        };
        let mut form = CreateForm::new(setup.clone());
        assert_eq!(form.clock, "3d/move");
        assert_eq!(form.update(Action::Confirm), CreateHandled::Create(setup));
    }
}
