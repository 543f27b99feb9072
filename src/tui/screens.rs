//! Full-screen pages: the new-game form, the rules text and the "terminal too small" notice.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::input::{Action, Direction};
use super::layout::wide_size;
use super::position_field::PositionField;
use super::text::{centered, fit_keys, player_text, truncate, wrap};
use super::theme::{Look, Themed};
use crate::game::{MoveTime, Player, StartError, TimeControl};
use crate::rules::{Position, Preset, Rules};

/// `player` as the form offers it: `max` at 1 s as `max` at its default, which is the same.
fn offered(player: Player) -> Player {
    match player {
        Player::Ai {
            engine,
            level,
            time: Some(MoveTime::OneSecond),
        } => Player::Ai {
            engine,
            level,
            time: None,
        },
        other => other,
    }
}

/// The fields of the new-game form, top to bottom.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Field {
    Continue,
    Rules,
    Attackers,
    Defenders,
    Clock,
    Position,
    Start,
}

/// Every field; the form without a game to continue starts at the second.
const FIELDS: [Field; 7] = [
    Field::Continue,
    Field::Rules,
    Field::Attackers,
    Field::Defenders,
    Field::Clock,
    Field::Position,
    Field::Start,
];

/// The time controls offered on the new-game screen, after no clock.
const CLOCKS: [&str; 6] = ["1m", "3m+2s", "5m", "5m+3s", "10m/3x30s", "15m+10s"];

/// The clocks to cycle through: none, those offered, and `current` if it is another.
fn clock_choices(current: Option<TimeControl>) -> Vec<Option<TimeControl>> {
    let mut choices = vec![None];
    choices.extend(CLOCKS.iter().map(|text| text.parse().ok()));
    if !choices.contains(&current) {
        choices.push(current);
    }
    choices
}

/// A time control in the form: `5m+3s`, or `no clock`.
fn clock_text(clock: Option<TimeControl>) -> String {
    clock.map_or_else(|| "no clock".to_owned(), |c| c.to_string())
}

/// What the new-game form was left with.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum SetupChoice {
    /// Continue the game offered.
    Continue,
    /// Start a new game with the chosen rules, players and position.
    Start,
}

/// What the new-game form's update comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupHandled {
    /// The form took the action, or had nothing to do with it.
    Stay,
    /// Continue the game offered, or start the one chosen.
    Choose(SetupChoice),
    /// Back to the game in play (out if there is none).
    Back,
    /// Show these rules.
    Rules(Rules),
    /// Show the keys.
    Help,
    /// Show the saved games.
    Load,
    /// Open the puzzle trainer for these rules.
    Puzzles(Preset),
    /// Play online.
    Online,
}

/// The new-game form: a game to continue if there is one, else the rules (a preset, or the
/// custom rules of a game played on from a review), the two players and the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupForm {
    /// Index into [`SetupForm::fields`].
    focus: usize,
    /// The game offered to continue, in words.
    resume: Option<String>,
    preset: Preset,
    /// Rules that match no preset, until a preset is chosen.
    custom: Option<Rules>,
    attackers: Player,
    defenders: Player,
    clock: Option<TimeControl>,
    position: PositionField,
}

/// The screen rows of the form's parts. Wide (from [`wide_size`] up): the presets listed
/// one a row, the chosen one's description beside them. Compact (below it): the rules as
/// one value cycled like the players, without a description (`i` shows the rules).
struct SetupRows {
    frame: Rect,
    compact: bool,
    resume: Option<u16>,
    /// The first preset's row (compact: the one rules row).
    presets: u16,
    attackers: u16,
    defenders: u16,
    clock: u16,
    position: u16,
    start: u16,
    /// The first of the (at most two) rows of keys.
    keys: u16,
}

impl SetupRows {
    /// The wide form's rows, without the Continue entry.
    const HEIGHT: u16 = 16;
    /// The compact form's rows, without the Continue entry.
    const COMPACT_HEIGHT: u16 = 10;
    /// The widest the form gets.
    const WIDTH: u16 = 78;
    /// The rows the Continue entry adds: its own and a blank one below it.
    const RESUME_HEIGHT: u16 = 2;
    /// The columns before a value: the focus marker and the label.
    const LABEL: u16 = 13;

    fn new(area: Rect, form: &SetupForm) -> SetupRows {
        let resume = form.resume.is_some();
        let (wide_w, wide_h) = wide_size();
        let compact = area.width < wide_w || area.height < wide_h;
        if compact {
            let extra = u16::from(resume);
            let frame = centered(
                area,
                area.width.min(SetupRows::WIDTH),
                SetupRows::COMPACT_HEIGHT + extra,
            );
            let y = frame.y + extra;
            return SetupRows {
                frame,
                compact,
                resume: resume.then_some(frame.y + 1),
                presets: y + 1,
                attackers: y + 2,
                defenders: y + 3,
                clock: y + 4,
                position: y + 5,
                start: y + 7,
                keys: y + 8,
            };
        }
        // On a short terminal the Continue entry takes the blank row below it and the one
        // above Start, so that the keys stay on screen.
        let tight = resume && area.height < SetupRows::HEIGHT + SetupRows::RESUME_HEIGHT;
        let extra = match (resume, tight) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => SetupRows::RESUME_HEIGHT,
        };
        let gap = u16::from(!tight);
        let frame = centered(area, SetupRows::WIDTH, SetupRows::HEIGHT - 1 + gap + extra);
        let y = frame.y + extra;
        SetupRows {
            frame,
            compact,
            resume: resume.then_some(frame.y + 1),
            presets: y + 1,
            attackers: y + 7,
            defenders: y + 8,
            clock: y + 9,
            position: y + 10,
            start: y + 12 + gap,
            keys: y + 13 + gap,
        }
    }

    /// Row `y` right of the focus marker's columns (two, or one on the compact form).
    fn line(&self, y: u16) -> Rect {
        let marker = if self.compact { 1 } else { 2 };
        Rect::new(
            self.frame.x + marker,
            y,
            self.frame.width.saturating_sub(marker),
            1,
        )
    }

    /// The rows the rules take.
    fn preset_rows(&self) -> usize {
        if self.compact { 1 } else { Preset::ALL.len() }
    }
}

/// Cycles `items` from `current` by one step (forward or back), for a choice shown as
/// `◀ value ▶`.
pub(super) fn cycle<T: Copy + PartialEq>(items: &[T], current: T, forward: bool) -> T {
    let i = items.iter().position(|&x| x == current).unwrap_or(0);
    let n = items.len();
    items[if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    }]
}

impl SetupForm {
    /// The form filled in with these choices, from the standard start, the focus on Start.
    pub fn new(preset: Preset, attackers: Player, defenders: Player) -> SetupForm {
        SetupForm {
            focus: FIELDS.len() - 2,
            resume: None,
            preset,
            custom: None,
            attackers: offered(attackers),
            defenders: offered(defenders),
            clock: None,
            position: PositionField::default(),
        }
    }

    /// The form with the time control `clock` chosen (`None`: no clock).
    #[must_use]
    pub const fn with_clock(mut self, clock: Option<TimeControl>) -> SetupForm {
        self.clock = clock;
        self
    }

    /// The chosen time control, or `None` for no clock.
    pub const fn clock(&self) -> Option<TimeControl> {
        self.clock
    }

    /// The form with `rules` (a preset's, or custom ones) and the start position filled in.
    #[must_use]
    pub fn starting_from(self, rules: Rules, start: &Position) -> SetupForm {
        SetupForm {
            preset: rules.preset().unwrap_or(self.preset),
            custom: rules.preset().is_none().then_some(rules),
            position: PositionField::new(start),
            ..self
        }
    }

    /// The form with a first entry offering to continue the game `text` describes, focused
    /// if `focus` (else the focus stays on Start).
    #[must_use]
    pub fn with_continue(mut self, text: String, focus: bool) -> SetupForm {
        self.resume = Some(text);
        self.focus = if focus { 0 } else { self.fields().len() - 1 };
        self
    }

    /// The chosen rules and players.
    pub fn choice(&self) -> (Rules, Player, Player) {
        (self.rules(), self.attackers, self.defenders)
    }

    fn rules(&self) -> Rules {
        self.custom.unwrap_or_else(|| self.preset.rules())
    }

    /// The chosen start position, checked under the chosen rules.
    pub fn start(&self) -> Result<Position, StartError> {
        self.position.start(&self.rules())
    }

    /// Whether keys are typed into the position field.
    pub fn is_typing(&self) -> bool {
        self.field() == Field::Position
    }

    /// Types `c` into the position field.
    pub fn type_char(&mut self, c: char) {
        self.position.push(c);
    }

    /// Deletes the last character of the position field.
    pub fn backspace(&mut self) {
        self.position.pop();
    }

    /// Moves the focus to the position field (to correct it).
    pub fn focus_position(&mut self) {
        self.focus_on(Field::Position);
    }

    /// What Enter chooses: continuing if the Continue entry is focused, else a new game.
    pub fn chosen(&self) -> SetupChoice {
        if self.field() == Field::Continue {
            SetupChoice::Continue
        } else {
            SetupChoice::Start
        }
    }

    /// The fields shown, top to bottom.
    fn fields(&self) -> &'static [Field] {
        if self.resume.is_some() {
            &FIELDS
        } else {
            &FIELDS[1..]
        }
    }

    fn field(&self) -> Field {
        self.fields()[self.focus]
    }

    /// Up/Down move between fields; Left/Right change the focused value.
    pub fn move_focus(&mut self, dir: Direction) {
        match dir {
            Direction::Up => self.focus = self.focus.saturating_sub(1),
            Direction::Down => self.focus = (self.focus + 1).min(self.fields().len() - 1),
            Direction::Left | Direction::Right => self.change(dir == Direction::Right),
        }
    }

    fn change(&mut self, forward: bool) {
        match self.field() {
            Field::Rules => {
                self.preset = cycle(&Preset::ALL, self.preset, forward);
                self.custom = None;
            }
            Field::Attackers => self.attackers = cycle(&Player::offered(), self.attackers, forward),
            Field::Defenders => self.defenders = cycle(&Player::offered(), self.defenders, forward),
            Field::Clock => self.clock = cycle(&clock_choices(self.clock), self.clock, forward),
            Field::Continue | Field::Position | Field::Start => {}
        }
    }

    /// Focuses `field`, if it is shown.
    fn focus_on(&mut self, field: Field) {
        if let Some(i) = self.fields().iter().position(|&f| f == field) {
            self.focus = i;
        }
    }

    /// Takes `action` on a screen of `size`: the form's own keys and clicks change it; the
    /// rest says what the app is to do.
    pub fn update(&mut self, action: Action, size: Rect) -> SetupHandled {
        match action {
            // Enter starts from any field: the form shows every choice at once.
            Action::Confirm => return SetupHandled::Choose(self.chosen()),
            Action::Click { column, row } => {
                if let Some(choice) = self.click(size, column, row) {
                    return SetupHandled::Choose(choice);
                }
            }
            Action::Type(c) => self.type_char(c),
            Action::Backspace => self.backspace(),
            Action::ClearField => self.position.clear(),
            Action::Move(dir) => self.move_focus(dir),
            Action::Cancel => return SetupHandled::Back,
            Action::Rules => return SetupHandled::Rules(self.choice().0),
            Action::Help => return SetupHandled::Help,
            Action::Load => return SetupHandled::Load,
            Action::Puzzles => return SetupHandled::Puzzles(self.preset),
            Action::Online => return SetupHandled::Online,
            _ => {}
        }
        SetupHandled::Stay
    }

    /// A click at (`column`, `row`) on a screen of `size`: picks a preset, cycles a player or
    /// focuses the position field, or chooses Continue or Start.
    pub fn click(&mut self, size: Rect, column: u16, row: u16) -> Option<SetupChoice> {
        let rows = SetupRows::new(size, self);
        if !rows
            .frame
            .contains(ratatui::layout::Position::new(column, row))
        {
            return None;
        }
        if let Some(i) = row.checked_sub(rows.presets).map(usize::from)
            && i < rows.preset_rows()
        {
            self.focus_on(Field::Rules);
            if rows.compact {
                self.change(true);
            } else {
                self.preset = Preset::ALL[i];
                self.custom = None;
            }
        } else if row == rows.attackers || row == rows.defenders {
            self.focus_on(if row == rows.attackers {
                Field::Attackers
            } else {
                Field::Defenders
            });
            self.change(true);
        } else if row == rows.clock {
            self.focus_on(Field::Clock);
            self.change(true);
        } else if row == rows.position {
            self.focus_position();
        } else if row == rows.start {
            return Some(SetupChoice::Start);
        } else if Some(row) == rows.resume {
            self.focus_on(Field::Continue);
            return Some(SetupChoice::Continue);
        }
        None
    }
}

/// Draws the new-game form.
impl Widget for Themed<'_, SetupForm> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: form, look } = self;
        let theme = &look.theme;
        let rows = SetupRows::new(area, form);
        let f = rows.frame;
        let focus_style = |field: Field| {
            if form.field() == field {
                theme.focus
            } else {
                Style::new()
            }
        };
        // Two columns on the left for the focus marker.
        let line_at = |y: u16, line: Line, buf: &mut Buffer| {
            if y < f.bottom() {
                line.render(rows.line(y), buf);
            }
        };
        render_heading(form, &rows, look, buf);
        let rules_name = if form.custom.is_some() {
            "custom"
        } else {
            form.preset.name()
        };
        let cycled =
            |name: &str, field: Field| Span::styled(format!("◀ {name:^11} ▶"), focus_style(field));
        if rows.compact {
            line_at(
                rows.presets,
                Line::from(vec![
                    Span::styled("Rules      ", theme.heading),
                    cycled(rules_name, Field::Rules),
                ]),
                buf,
            );
        } else {
            render_presets(form, &rows, look, buf);
        }
        for (y, name, field, player) in [
            (
                rows.attackers,
                "Attackers  ",
                Field::Attackers,
                form.attackers,
            ),
            (
                rows.defenders,
                "Defenders  ",
                Field::Defenders,
                form.defenders,
            ),
        ] {
            line_at(
                y,
                Line::from(vec![
                    Span::styled(name, theme.heading),
                    cycled(&player_text(player), field),
                ]),
                buf,
            );
        }
        line_at(
            rows.clock,
            Line::from(vec![
                Span::styled("Clock      ", theme.heading),
                cycled(&clock_text(form.clock), Field::Clock),
            ]),
            buf,
        );
        render_position(form, &rows, look, buf);
        line_at(
            rows.start,
            Line::from(vec![
                Span::raw("           "),
                Span::styled("[ Start ]", focus_style(Field::Start)),
            ]),
            buf,
        );
        render_focus_marker(form, &rows, look, buf);
        let width = usize::from(rows.line(0).width);
        let keys = if form.is_typing() {
            "type a position · ↑↓ field · Enter start · Esc back"
        } else {
            "↑↓ ←→ choose · Enter start · i rules · o load · g online · z puzzles · Esc back"
        };
        for (i, text) in fit_keys(keys, width, 2).into_iter().enumerate() {
            let y = rows.keys + u16::try_from(i).unwrap_or(0);
            line_at(y, Line::styled(text, theme.label).centered(), buf);
        }
    }
}

/// The wide form's presets, one a row, and beside them the chosen one's description (or
/// what custom rules are).
fn render_presets(form: &SetupForm, rows: &SetupRows, look: &Look, buf: &mut Buffer) {
    let theme = &look.theme;
    let f = rows.frame;
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let chosen = form.custom.is_none() && preset == form.preset;
        let label = if i == 0 { "Rules      " } else { "           " };
        let mark = if chosen { "(•) " } else { "( ) " };
        let style = match (chosen, form.field() == Field::Rules) {
            (true, true) => theme.focus,
            _ => Style::new(),
        };
        let y = rows.presets + u16::try_from(i).unwrap_or(0);
        Line::from(vec![
            Span::styled(label, theme.heading),
            Span::styled(format!("{mark}{}", preset.name()), style),
        ])
        .render(Rect::new(f.x + 2, y, SetupRows::LABEL + 14, 1), buf);
    }
    let description = if form.custom.is_some() {
        "Custom rules: those of the game played on (i shows them; ←→ picks a preset instead)"
    } else {
        form.preset.summary()
    };
    // Right of the presets and of the players, down to the position field.
    let x = f.x + 2 + SetupRows::LABEL + 17;
    let width = f.right().saturating_sub(x);
    let room = usize::from(rows.position - rows.presets);
    for (i, text) in wrap(description, usize::from(width))
        .into_iter()
        .take(room)
        .enumerate()
    {
        let y = rows.presets + u16::try_from(i).unwrap_or(0);
        Line::styled(text, theme.label).render(Rect::new(x, y, width, 1), buf);
    }
}

/// The position field of the new-game form and, below it, what the position means.
fn render_position(form: &SetupForm, rows: &SetupRows, look: &Look, buf: &mut Buffer) {
    let f = rows.frame;
    if rows.position < f.bottom() {
        form.position.render(
            Span::styled("Position   ", look.theme.heading),
            form.field() == Field::Position,
            &form.rules(),
            look,
            Rect {
                height: (f.bottom() - rows.position).min(2),
                ..rows.line(rows.position)
            },
            buf,
        );
    }
}

/// The title of the new-game form, and its Continue entry if it has one.
fn render_heading(form: &SetupForm, rows: &SetupRows, look: &Look, buf: &mut Buffer) {
    let f = rows.frame;
    Line::styled("Brandubh: new game", look.theme.heading)
        .centered()
        .render(rows.line(f.y), buf);
    let (Some(y), Some(text)) = (rows.resume, &form.resume) else {
        return;
    };
    let style = if form.field() == Field::Continue {
        look.theme.focus
    } else {
        Style::new()
    };
    let width = usize::from(f.width.saturating_sub(2 + 11));
    Line::from(vec![
        Span::styled("Continue   ", look.theme.heading),
        Span::styled(truncate(text, width), style),
    ])
    .render(rows.line(y), buf);
}

/// The `›` left of the focused field of the new-game form.
fn render_focus_marker(form: &SetupForm, rows: &SetupRows, look: &Look, buf: &mut Buffer) {
    let chosen = Preset::ALL
        .iter()
        .position(|&p| p == form.preset)
        .unwrap_or(0);
    let chosen = if form.custom.is_some() || rows.compact {
        0
    } else {
        chosen
    };
    let focus_row = match form.field() {
        Field::Continue => rows.resume.unwrap_or(rows.start),
        Field::Rules => rows.presets + u16::try_from(chosen).unwrap_or(0),
        Field::Position => rows.position,
        Field::Attackers => rows.attackers,
        Field::Defenders => rows.defenders,
        Field::Clock => rows.clock,
        Field::Start => rows.start,
    };
    if focus_row < rows.frame.bottom() {
        buf.set_string(rows.frame.x, focus_row, "›", look.theme.heading);
    }
}

/// A terminal too small for the game: the size it needs.
pub struct TooSmall {
    /// The fewest columns the game needs.
    pub min_width: u16,
    /// The fewest rows the game needs.
    pub min_height: u16,
    /// Whether `q` asked whether to quit (a change no file holds): `q` again quits.
    pub asking: bool,
}

/// Draws the notice that the terminal is too small.
impl Widget for Themed<'_, TooSmall> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed {
            of:
                &TooSmall {
                    min_width,
                    min_height,
                    asking,
                },
            look,
        } = self;
        Clear.render(area, buf);
        let width = usize::from(area.width);
        let lines = [
            ("Terminal too small".to_owned(), look.theme.heading),
            (
                format!("enlarge the terminal to {min_width}×{min_height}"),
                Style::new(),
            ),
            (
                format!("now {}×{}", area.width, area.height),
                look.theme.label,
            ),
            (
                if asking {
                    "not saved: q again quits"
                } else {
                    "q quits"
                }
                .to_owned(),
                look.theme.label,
            ),
        ];
        // Each wrapped by words; the heading gives way first when the rows are few.
        let mut text: Vec<Line> = lines
            .iter()
            .flat_map(|(line, style)| {
                wrap(line, width)
                    .into_iter()
                    .map(move |part| Line::styled(part, *style))
            })
            .collect();
        let rows = usize::from(area.height);
        if text.len() > rows {
            text.drain(..text.len() - rows);
        }
        let height = u16::try_from(text.len()).unwrap_or(area.height);
        let rect = centered(area, area.width, height);
        Paragraph::new(text).centered().render(rect, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::EngineSpec;
    use crate::game::{EngineKind, Level};

    #[test]
    fn every_engine_of_the_registry_is_offered_and_parses_on_the_command_line_and_in_a_match() {
        // What the form's attackers field cycles through, once round.
        let mut form = SetupForm::new(Preset::Standard, Player::Human, Player::Human);
        form.focus_on(Field::Attackers);
        let mut offered = vec![form.choice().1];
        loop {
            form.move_focus(Direction::Right);
            match form.choice().1 {
                Player::Human => break,
                player => offered.push(player),
            }
        }
        for kind in EngineKind::ALL {
            let levels: &[Level] = if kind.has_levels() {
                &Level::ALL
            } else {
                &[Level::Medium]
            };
            for &level in levels {
                let player = Player::Ai {
                    engine: kind,
                    level,
                    time: None,
                };
                assert!(offered.contains(&player), "{player} is not offered");
                // As the command line writes it (`--attackers`), and as a match does.
                assert_eq!(player.to_string().parse::<Player>(), Ok(player));
                let spec = EngineSpec::BuiltIn { kind, level };
                assert_eq!(spec.to_string().parse::<EngineSpec>(), Ok(spec.clone()));
                assert_eq!(spec.player(), player);
            }
            let usage = crate::game::player_usage();
            assert!(usage.contains(kind.name()) || kind == EngineKind::default());
            assert!(crate::ai::engine_usage().contains(&kind.usage()));
        }
        // And nothing is offered that the command line cannot write.
        for player in offered {
            assert_eq!(player.to_string().parse::<Player>(), Ok(player));
        }
    }

    #[test]
    fn the_form_cycles_values_and_ends_on_start() {
        let mut form = SetupForm::new(Preset::Standard, Player::Human, Player::Human);
        assert_eq!(form.field(), Field::Start);
        form.move_focus(Direction::Up);
        assert!(form.is_typing(), "the position field");
        form.move_focus(Direction::Up);
        form.move_focus(Direction::Right);
        assert_eq!(
            form.clock(),
            Some("1m".parse().unwrap()),
            "the first clock offered"
        );
        form.move_focus(Direction::Left);
        assert_eq!(form.clock(), None, "back to no clock");
        form.move_focus(Direction::Up);
        form.move_focus(Direction::Right);
        assert_eq!(form.choice().2, Player::offered()[1]);
        form.move_focus(Direction::Up);
        form.move_focus(Direction::Up);
        form.move_focus(Direction::Left);
        assert_eq!(form.choice().0, Preset::OpenTafl.rules());
        assert_ne!(form.field(), Field::Start);
    }

    #[test]
    fn a_max_player_is_offered_at_each_move_time_and_shown_with_it() {
        let max = |time| Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time,
        };
        let hard = Player::Ai {
            engine: EngineKind::Search,
            level: Level::Hard,
            time: None,
        };
        let mut form = SetupForm::new(Preset::Standard, hard, Player::Human);
        form.focus_on(Field::Attackers);
        let mut seen = Vec::new();
        for _ in 0..3 {
            form.move_focus(Direction::Right);
            seen.push(form.choice().1);
        }
        assert_eq!(
            seen,
            [
                max(None),
                max(Some(MoveTime::ThreeSeconds)),
                max(Some(MoveTime::TenSeconds))
            ]
        );
        let look = Look::default();
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        Themed {
            of: &form,
            look: &look,
        }
        .render(area, &mut buf);
        let text: String = (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.contains("◀ AI max 10s  ▶"), "{text}");
        form.move_focus(Direction::Left);
        form.move_focus(Direction::Left);
        Themed {
            of: &form,
            look: &look,
        }
        .render(area, &mut buf);
        let row: String = (0..area.width)
            .map(|x| buf[(x, SetupRows::new(area, &form).attackers)].symbol())
            .collect();
        assert!(row.contains("◀  AI max 1s  ▶"), "{row}");
        // `ai:max:1s` from the command line is the first of them, not a fourth.
        let given = SetupForm::new(
            Preset::Standard,
            max(Some(MoveTime::OneSecond)),
            Player::Human,
        );
        assert_eq!(given.choice().1, max(None));
    }

    #[test]
    fn clicks_pick_presets_and_players_and_start() {
        let size = Rect::new(0, 0, 80, 24);
        let mut form = SetupForm::new(Preset::Standard, Player::Human, Player::Human);
        let rows = SetupRows::new(size, &form);
        assert_eq!(form.click(size, rows.frame.x + 15, rows.presets + 2), None);
        assert_eq!(form.choice().0, Preset::Nielsen.rules());
        assert_eq!(form.click(size, rows.frame.x + 15, rows.defenders), None);
        assert_eq!(form.choice().2, Player::offered()[1]);
        assert_eq!(form.click(size, rows.frame.x + 15, rows.keys), None);
        assert_eq!(form.click(size, rows.frame.x + 15, rows.position), None);
        assert!(form.is_typing());
        assert_eq!(
            form.click(size, rows.frame.x + 15, rows.start),
            Some(SetupChoice::Start)
        );
    }

    #[test]
    fn a_game_to_continue_is_the_first_entry() {
        let size = Rect::new(0, 0, 80, 24);
        let plain = SetupForm::new(Preset::Standard, Player::Human, Player::Human);
        let form = plain
            .clone()
            .with_continue("human vs human".to_owned(), true);
        assert_eq!(form.field(), Field::Continue);
        assert_eq!(form.chosen(), SetupChoice::Continue);
        let mut later = plain.with_continue("human vs human".to_owned(), false);
        assert_eq!(later.chosen(), SetupChoice::Start, "focus on Start");
        for _ in 0..6 {
            later.move_focus(Direction::Up);
        }
        assert_eq!(later.chosen(), SetupChoice::Continue);
        later.move_focus(Direction::Down);
        assert_eq!(later.field(), Field::Rules);
        // Clicks: the Continue row continues; the rest moved down by its rows.
        let rows = SetupRows::new(size, &later);
        let resume = rows.resume.unwrap();
        assert!(resume < rows.presets);
        assert_eq!(
            later.click(size, rows.frame.x + 15, rows.start),
            Some(SetupChoice::Start)
        );
        assert_eq!(
            later.click(size, rows.frame.x + 15, resume),
            Some(SetupChoice::Continue)
        );
        assert_eq!(later.field(), Field::Continue);
        let mut buf = Buffer::empty(size);
        Themed {
            of: &later,
            look: &Look::default(),
        }
        .render(size, &mut buf);
        let row: String = (0..size.width)
            .map(|x| buf[(x, resume)].symbol().to_owned())
            .collect();
        assert!(row.contains("Continue   human vs human"), "{row}");
    }

    #[test]
    fn a_game_played_on_keeps_its_custom_rules_until_a_preset_is_chosen() {
        let custom = Rules {
            encirclement: false,
            ..Preset::Standard.rules()
        };
        let start: Position = "/7/7/7/3K3/7/t6/7/ d".parse().unwrap();
        let mut form = SetupForm::new(Preset::Walker, Player::Human, Player::Human)
            .starting_from(custom, &start);
        assert_eq!(form.choice().0, custom);
        assert_eq!(form.start(), Ok(start));
        for _ in 0..5 {
            form.move_focus(Direction::Up);
        }
        assert_eq!(form.field(), Field::Rules);
        form.move_focus(Direction::Right);
        assert_eq!(
            form.choice().0,
            Preset::Nielsen.rules(),
            "next after walker"
        );
        let preset = SetupForm::new(Preset::Standard, Player::Human, Player::Human)
            .starting_from(Preset::OpenTafl.rules(), &start);
        assert_eq!(preset.choice().0, Preset::OpenTafl.rules());
        assert_eq!(preset.custom, None);
    }

    #[test]
    fn the_position_is_typed_and_checked_under_the_chosen_rules() {
        let mut form = SetupForm::new(Preset::Standard, Player::Human, Player::Human);
        form.focus_position();
        // The defenders to move, encircled: over under standard, playable under walker.
        for c in "/7/1ttttt1/1tTKTt1/1t3t1/1ttttt1/7/7/ dx".chars() {
            form.type_char(c);
        }
        assert!(matches!(form.start(), Err(StartError::Setup(_))));
        form.backspace();
        assert!(matches!(form.start(), Err(StartError::Over(_))));
        let size = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(size);
        Themed {
            of: &form,
            look: &Look::default(),
        }
        .render(size, &mut buf);
        let text: String = buf
            .content()
            .iter()
            .map(ratatui::buffer::Cell::symbol)
            .collect();
        assert!(text.contains("already over"), "{text}");
        let rows = SetupRows::new(size, &form);
        form.click(size, rows.frame.x + 15, rows.presets + 1);
        assert_eq!(
            form.start().unwrap().side_to_move(),
            crate::rules::Side::Defenders
        );
    }
}
