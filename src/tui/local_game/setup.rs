//! The local game's new-game screen: its form's actions, and a new game started from it.

use super::trainer::TrainerExit;
use super::{LocalGame, Screen};
use crate::tui::board_screen::start_cursor;
use crate::tui::component::Request;
use crate::tui::input::Action;
use crate::tui::overlay::Overlay;
use crate::tui::rules_screen::RulesScreen;
use crate::tui::screens::{SetupChoice, SetupForm, SetupHandled};
use crate::tui::session::Session;
use crate::tui::storage_jobs::SaveRef;

impl LocalGame {
    pub(super) fn update_setup(&mut self, action: Action) {
        let Screen::Setup(form) = &mut self.screen else {
            return;
        };
        match form.update(action, self.size) {
            SetupHandled::Stay => {}
            SetupHandled::Choose(choice) => self.start_chosen(choice),
            // Back to the game in play, or out if there is none to go back to.
            SetupHandled::Back if self.played => self.screen = Screen::Game,
            SetupHandled::Back => self.quit = true,
            SetupHandled::Rules(rules) => {
                self.show(Overlay::Rules(RulesScreen::new(&rules)));
            }
            SetupHandled::Help => self.show(Overlay::Help(self.help())),
            SetupHandled::Load => self.ask_load(),
            // The game in play, if any, is kept: the new-game screen goes back to it.
            SetupHandled::Puzzles(preset) => {
                self.open_trainer(preset, TrainerExit::Setup);
            }
            SetupHandled::Online => self.requests.push(Request::PlayOnline),
        }
    }

    /// Continues the game the new-game form offers, or starts a new game with its choices;
    /// if its position cannot start a game (the form says why), moves the focus there instead.
    pub(super) fn start_chosen(&mut self, choice: SetupChoice) {
        let Screen::Setup(form) = &mut self.screen else {
            return;
        };
        if let (SetupChoice::Continue, Some(entry)) = (choice, self.offer.take()) {
            self.open(SaveRef::from(&entry));
            return;
        }
        let (rules, attackers, defenders) = form.choice();
        let clock = form.clock();
        let Ok(start) = form.start() else {
            form.focus_position();
            return;
        };
        // Custom rules are not a choice to remember: the preset stays as it was.
        self.settings.preset = rules.preset().unwrap_or(self.settings.preset);
        self.settings.attackers = attackers;
        self.settings.defenders = defenders;
        self.settings.clock = clock;
        self.remember();
        self.start(Session::new(rules, start, attackers, defenders).with_clocks(clock));
    }

    /// Shows the new-game `form`, offering to continue the latest unfinished game other than
    /// the one in play (the first entry, focused at the start) once the storage thread has
    /// found it.
    pub(super) fn show_setup(&mut self, form: SetupForm) {
        self.offer = None;
        self.screen = Screen::Setup(form);
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
        self.offer = None;
        self.played = true;
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
