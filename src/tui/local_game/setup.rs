//! The new-game screen as a layer over the local game: its form, the game it offers to
//! continue (once the storage thread has found it), and what its choices ask of the game (a
//! new game started, a save opened, the trainer, online play); and the game's side of it:
//! opening it and starting the game chosen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::files::continue_text;
use super::{LocalGame, Screen};
use crate::game::storage::SaveEntry;
use crate::tui::board_screen::start_cursor;
use crate::tui::component::{Component, Context, Outcome, Request, Routed, RuntimeEvent};
use crate::tui::input::{Action, Mode};
use crate::tui::rules_screen::RulesScreen;
use crate::tui::screens::{SetupChoice, SetupForm, SetupHandled};
use crate::tui::session::Session;
use crate::tui::storage_jobs::{Done, SaveRef};

/// The new-game screen on the stack of layers.
pub(in crate::tui) struct SetupLayer {
    form: SetupForm,
    /// The game offered to continue, once found.
    offer: Option<SaveEntry>,
    /// Whether a game is in play under it (Esc goes back to it; else Esc quits).
    played: bool,
}

impl SetupLayer {
    /// The form, for a test to look into.
    #[cfg(test)]
    pub(in crate::tui) const fn form(&self) -> &SetupForm {
        &self.form
    }

    /// The game offered to continue, for a test to look into.
    #[cfg(test)]
    pub(in crate::tui) const fn offer(&self) -> Option<&SaveEntry> {
        self.offer.as_ref()
    }

    /// Continues the game offered, or starts a new game with the form's choices (remembered);
    /// if its position cannot start a game (the form says why), moves the focus there instead.
    fn start_chosen(&mut self, choice: SetupChoice, cx: &Context) -> Outcome {
        if let (SetupChoice::Continue, Some(entry)) = (choice, self.offer.take()) {
            return Outcome::stay().and_ask(Request::Open(SaveRef::from(&entry)));
        }
        let (rules, attackers, defenders) = self.form.choice();
        let clock = self.form.clock();
        let Ok(start) = self.form.start() else {
            self.form.focus_position();
            return Outcome::stay();
        };
        let mut settings = *cx.settings;
        // Custom rules are not a choice to remember: the preset stays as it was.
        settings.preset = rules.preset().unwrap_or(settings.preset);
        settings.attackers = attackers;
        settings.defenders = defenders;
        settings.clock = clock;
        let session = Session::new(rules, start, attackers, defenders).with_clocks(clock);
        Outcome::stay()
            .and_ask(Request::Remember(settings))
            .and_ask(Request::Start(Box::new(session)))
    }
}

impl Component for SetupLayer {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        match self.form.update(action, cx.size) {
            SetupHandled::Stay => Outcome::stay(),
            SetupHandled::Choose(choice) => self.start_chosen(choice, cx),
            // Back to the game in play, or out if there is none to go back to.
            SetupHandled::Back if self.played => Outcome::ask(Request::BackToGame),
            SetupHandled::Back => Outcome::stay().and_ask(Request::Quit),
            SetupHandled::Rules(rules) => Outcome::stay().and_push(RulesScreen::new(&rules)),
            SetupHandled::Help => Outcome::stay().and_ask(Request::Help),
            SetupHandled::Load => Outcome::stay().and_ask(Request::Load),
            // The game in play, if any, is kept: the new-game screen goes back to it.
            SetupHandled::Puzzles(preset) => Outcome::stay().and_ask(Request::Puzzles(preset)),
            SetupHandled::Online => Outcome::stay().and_ask(Request::PlayOnline),
        }
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        cx.themed(&self.form).render(area, buf);
    }

    fn mode(&self) -> Mode {
        if self.form.is_typing() {
            Mode::Text
        } else {
            Mode::Menu
        }
    }

    /// The game to continue, when found, is offered first. The answer is handed on without
    /// it: the game counts the answers it waits for.
    fn on_event(&mut self, event: RuntimeEvent, _cx: &Context) -> Routed {
        let RuntimeEvent::Stored(Done::Unfinished(entry)) = event else {
            return Routed::Passed(event);
        };
        if let Some(entry) = &entry {
            self.form = (self.form.clone()).with_continue(continue_text(entry), !self.played);
        }
        self.offer = entry;
        Routed::Passed(RuntimeEvent::Stored(Done::Unfinished(None)))
    }

    fn covers_screen(&self) -> bool {
        true
    }

    fn shows_game_status(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

impl LocalGame {
    /// Opens the new-game `form` over the game, offering to continue the latest unfinished
    /// game other than the one in play (the first entry, focused at the start) once the
    /// storage thread has found it.
    pub(super) fn show_setup(&mut self, form: SetupForm) {
        self.opened.push(Box::new(SetupLayer {
            form,
            offer: None,
            played: self.played,
        }));
        self.find_unfinished();
    }

    /// Starts playing `session`: a new game, with files of its own.
    pub(super) fn start(&mut self, session: Session) {
        self.cancel_thinking();
        self.stop_analysis();
        self.ai.paused = false;
        self.ai.judgement = None;
        self.session = session;
        self.track();
        self.saved = false;
        self.in_file = None;
        self.autosave_error = None;
        self.played = true;
        // The game is seen: the new-game screen (or any layer) over it closes.
        self.requests.push(Request::Uncover);
        self.screen = Screen::playing(&self.session);
        self.board.cursor = start_cursor(self.session.state().position());
        self.board.selected = None;
        self.hint = None;
        self.board.list_scroll = None;
        // Custom rules are named with what sets them apart ("custom rules: opentafl with
        // ..."), in full here; the panels' titles keep them short.
        let rules = self.session.game().rules();
        let rules = rules
            .preset()
            .map_or_else(|| rules.name(), |p| format!("{p} rules"));
        self.info_warned(format!(
            "{rules}: the {} to move",
            self.session.side_to_move()
        ));
    }
}
