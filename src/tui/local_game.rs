//! The local game as a component: the game in play (its session, board, AI, clock,
//! warnings, hint, files, analysis and review), its new-game screen, the puzzle trainer it
//! opens and the dialogs over them. Every [`Action`] changes the state here, without a
//! terminal, so that all of it can be tested directly; what the world must do (search, ring
//! the bell) is returned as [`Effect`]s, for the runtime to carry out.

mod ai;
mod analysis_job;
mod clock;
mod component;
mod draw;
mod files;
#[cfg(test)]
mod fitting_tests;
mod notes;
mod play;
mod review;
pub(super) mod setup;
mod side_lines;
#[cfg(test)]
pub(super) mod tests;
mod toggles;
pub(super) mod trainer;
#[cfg(test)]
mod trainer_tests;
mod warnings;

use std::path::PathBuf;
use std::time::Instant;

use ratatui::layout::Rect;

use self::ai::AiState;
use self::files::{FileCopy, Waiting};
use self::trainer::TrainerExit;
use super::board_screen::{BoardScreen, start_cursor};
use super::component::{Component, Context, JobIds, Request};
use super::dialogs::{Leaving, Question};
use super::effect::Effect;
use super::help::Help;
use super::input::{Action, Mode};
use super::input::{BOARD_KEYS, REVIEW_KEYS};
use super::layout::GameLayout;
use super::legend;
use super::online::OnlineStart;
use super::online_memory::OnlineMemory;
use super::overlay::{Handled, Overlay};
use super::review::Review;
use super::rules_screen::RulesScreen;
use super::saves_list::LIST_KEYS;
use super::screens::SetupForm;
use super::session::{Session, Storage};
use super::settings::{Settings, SettingsFile};
use super::storage_jobs::GameId;
use super::text::{Status, Tone};
use super::theme::Look;
use super::warnings::Warnings;
use crate::ai::Budget;
use crate::game::{Player, TimeControl};
use crate::rules::{Move, Position, Preset, Square};

/// How the game starts: the settings the command line gives.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rule preset.
    pub preset: Preset,
    /// The position the game starts from.
    pub start: Position,
    /// Who plays the attackers.
    pub attackers: Player,
    /// Who plays the defenders.
    pub defenders: Player,
    /// The time control, or `None` for no clock.
    pub clock: Option<TimeControl>,
    /// Start playing at once instead of showing the new-game screen.
    pub skip_setup: bool,
    /// A game to continue (loaded from a file); it skips the new-game screen.
    pub resume: Option<Session>,
    /// Where games are saved and autosaved.
    pub storage: Storage,
    /// Colours and glyphs.
    pub look: Look,
    /// The budgets an analysis of the game is offered at, first selected: quick, normal and
    /// deep ([`Budget::PRESETS`]) unless a caller (a test) wants others.
    pub analysis_budgets: Vec<Budget>,
    /// The remembered choices: the bell and the warnings are taken from them, and the new-game
    /// screen's choices and the toggles are written back to `settings_file` as they change.
    pub settings: Settings,
    /// Where the settings are remembered (the runtime's storage thread writes them).
    pub settings_file: SettingsFile,
    /// Why the settings file was not used, shown on the status line at the start.
    pub settings_warning: Option<String>,
    /// A note shown on the status line at the start, if nothing else is (the game the command
    /// line started, and that it is remembered).
    pub start_note: Option<String>,
    /// Online play instead of a local game (`brandubh online HOST`).
    pub online: Option<OnlineStart>,
    /// The config folder and what online play remembers there, for "online" on the
    /// new-game screen (`None`: not offered).
    pub online_home: Option<(PathBuf, OnlineMemory)>,
    /// Start in the puzzle trainer on these rules' puzzles (`brandubh puzzles`); leaving it
    /// quits.
    pub trainer: Option<Preset>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            preset: Preset::default(),
            start: Position::start(),
            attackers: Player::Human,
            defenders: Player::Human,
            clock: None,
            skip_setup: false,
            resume: None,
            storage: Storage::default(),
            look: Look::default(),
            analysis_budgets: Budget::PRESETS.to_vec(),
            settings: Settings::default(),
            settings_file: SettingsFile::none(),
            settings_warning: None,
            start_note: None,
            online: None,
            online_home: None,
            trainer: None,
        }
    }
}

/// The full-screen page.
#[derive(Clone, Debug)]
enum Screen {
    Game,
    Review(Review),
}

impl Screen {
    /// The screen a game is played on: the board, or the review if the game is over.
    fn playing(session: &Session) -> Screen {
        if session.outcome().is_some() {
            Screen::Review(Review::new(session.moves().len()))
        } else {
            Screen::Game
        }
    }
}

/// The whole state of the terminal game.
pub struct LocalGame {
    look: Look,
    screen: Screen,
    /// The dialogs over the screen, the top one last: it takes the keys.
    overlays: Vec<Overlay>,
    session: Session,
    storage: Storage,
    /// The game screen's own state: cursor, selection, typed move, scrolls.
    board: BoardScreen,
    status: Option<Status>,
    hint: Option<Move>,
    /// Whether the game is saved as it is now.
    saved: bool,
    /// The game as the file it was last loaded from or saved to holds it.
    in_file: Option<FileCopy>,
    /// Why the last autosave failed, until a save succeeds.
    autosave_error: Option<String>,
    /// Whether a game has been on screen (the new-game screen can go back to it).
    played: bool,
    ai: AiState,
    warnings: Warnings,
    /// When the side to move's clock was last charged (the last tick).
    clock_from: Option<Instant>,
    /// Whether the bell rings when the AI has moved and when a game ends.
    bell: bool,
    /// The choices remembered, as last asked to be written.
    settings: Settings,
    /// The game in play, among those played since the start (each keeps its own files).
    game_id: GameId,
    /// The game's changes so far: a save or an autosave is of the game as of one of them.
    revision: u64,
    /// What the app waits for from the storage thread.
    waiting: Waiting,
    /// What the world is to do, returned by the handler running.
    effects: Vec<Effect>,
    quit: bool,
    size: Rect,
    /// Whether the review panel shows the legend of the marks (`l`).
    legend: bool,
    /// What the game asks of the app (online play from the new-game screen).
    requests: Vec<Request>,
    /// The layers the game opens over itself (the puzzle trainer), for the app to push.
    opened: Vec<Box<dyn Component>>,
    /// Whether a layer is over the game (online play, the trainer): its AI and clock wait.
    covered: bool,
}

impl LocalGame {
    /// A new game as `config` asks: the new-game screen, or a game at once; `under_online`:
    /// online play opens over it at the start. Its searches are numbered in `jobs` (the
    /// app's sequence).
    pub fn new(config: Config, under_online: bool, jobs: JobIds) -> LocalGame {
        let skip_setup = config.skip_setup || config.resume.is_some();
        // A game loaded from its file (or another program's record) is saved as it is.
        let skip_setup_saved = config
            .resume
            .as_ref()
            .is_some_and(Session::is_held_in_a_file);
        let rules = config.preset.rules();
        let session = config.resume.unwrap_or_else(|| {
            Session::new(rules, config.start, config.attackers, config.defenders)
                .with_clocks(config.clock)
        });
        let screen = Screen::playing(&session);
        let in_file = FileCopy::loaded(&session);
        let cursor = start_cursor(session.state().position());
        let mut app = LocalGame {
            look: config.look,
            screen,
            overlays: Vec::new(),
            session,
            storage: config.storage,
            board: BoardScreen::new(cursor),
            status: None,
            hint: None,
            saved: skip_setup_saved,
            in_file,
            autosave_error: None,
            played: skip_setup,
            ai: AiState {
                budgets: config.analysis_budgets,
                jobs,
                ..AiState::default()
            },
            warnings: Warnings::new(config.settings.warnings),
            clock_from: None,
            bell: config.settings.bell,
            settings: config.settings,
            game_id: 0,
            revision: 0,
            waiting: Waiting::default(),
            effects: Vec::new(),
            quit: false,
            size: Rect::new(0, 0, 80, 24),
            legend: false,
            requests: Vec::new(),
            opened: Vec::new(),
            covered: false,
        };
        app.track();
        if under_online {
            // Online play is opened over the game, which waits under it.
        } else if let Some(preset) = config.trainer {
            app.open_trainer(preset, TrainerExit::Quit);
        } else if skip_setup {
            app.warn_position();
        } else {
            app.show_setup(
                SetupForm::new(config.preset, config.attackers, config.defenders)
                    .starting_from(rules, &config.start)
                    .with_clock(config.clock),
            );
        }
        match config.settings_warning {
            // A file that could not be read is left as it is until something changes.
            Some(warning) => {
                app.status = Some(Status {
                    text: warning,
                    tone: Tone::Warning,
                });
            }
            // The command line's choices (theme, ASCII, bell, a game) are remembered at once.
            None => app.remember(),
        }
        if let (None, Some(note)) = (&app.status, config.start_note) {
            app.status = Some(Status {
                text: note,
                tone: Tone::Info,
            });
        }
        app
    }

    /// Whether the player asked to quit.
    pub const fn should_quit(&self) -> bool {
        self.quit
    }

    /// The game in play.
    pub const fn session(&self) -> &Session {
        &self.session
    }

    /// The status line, if any.
    pub const fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// The keyboard cursor.
    pub const fn cursor(&self) -> Square {
        self.board.cursor
    }

    /// The selected piece.
    pub const fn selected(&self) -> Option<Square> {
        self.board.selected
    }

    /// Whether the game changed since it was last saved to (or loaded from) a file; a game
    /// without moves has nothing to save.
    pub fn is_dirty(&self) -> bool {
        !self.saved && !self.session.moves().is_empty()
    }

    /// How keys are read now.
    fn mode(&self) -> Mode {
        if self.too_small() {
            return Mode::TooSmall;
        }
        match (self.overlays.last(), &self.screen) {
            (Some(overlay), _) => overlay.mode(),
            (None, Screen::Review(_) | Screen::Game) if self.board.typing.is_some() => Mode::Text,
            (None, Screen::Review(_)) => Mode::Review,
            (None, Screen::Game) => Mode::Board,
        }
    }

    /// What the world is to do since last asked (after [`LocalGame::new`], what the start asks).
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Applies one action; returns what the world is to do.
    fn update(&mut self, action: Action) -> Vec<Effect> {
        self.apply(action);
        self.take_effects()
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Interrupt => {
                self.interrupt();
                return;
            }
            Action::Resize { width, height } => {
                self.resize(Rect::new(0, 0, width, height));
                return;
            }
            // Unseen, `q` quits as Ctrl-C does: the question it may ask first is answered by
            // the same key again. No other action acts on what the player cannot see.
            Action::Quit if self.too_small() => {
                self.interrupt();
                return;
            }
            _ if self.too_small() => return,
            _ => {}
        }
        if let Some(overlay) = self.overlays.pop() {
            match overlay.update(action, &self.context()) {
                Handled::Stay(overlay) => self.show(overlay),
                Handled::StayAsking(overlay, request) => {
                    self.show(overlay);
                    self.grant(request);
                }
                Handled::Close => {}
                Handled::Ask(request) => self.grant(request),
            }
            return;
        }
        match &mut self.screen {
            Screen::Review(_) => self.update_review(action),
            Screen::Game => self.update_board(action),
        }
    }

    /// Ctrl-c, over any screen or dialog: quits as `q` does, asking first if the game has
    /// changes no file holds; a second one at that question quits.
    fn interrupt(&mut self) {
        if self.asks_to_quit() {
            self.quit = true;
        } else {
            self.ask_leave(Leaving::Quit);
        }
    }

    /// Whether the question on top asks whether to quit.
    fn asks_to_quit(&self) -> bool {
        matches!(
            self.overlays.last(),
            Some(Overlay::Question(Question::Leave {
                to: Leaving::Quit,
                ..
            }))
        )
    }

    /// Shows `overlay` over the screen and the dialogs already there.
    fn show(&mut self, overlay: Overlay) {
        self.overlays.push(overlay);
    }

    /// Carries out what an overlay (or a layer over the game) asked as it closed.
    fn grant(&mut self, request: Request) {
        match request {
            Request::Help => self.show(Overlay::Help(self.help())),
            Request::Answer(question, true) => self.answer_yes(question),
            Request::Answer(question, false) => self.answer_no(question),
            Request::SaveThenLeave(to) => self.ask_save(Some(to)),
            Request::Save(prompt) => {
                // The prompt stays on screen while the game is written.
                self.confirm_save(&prompt);
                self.show(Overlay::Save(prompt));
            }
            Request::Open(save) => self.open(save),
            Request::ListHelp => {
                let title = "Keys of the list of saves".to_owned();
                self.show(Overlay::Help(Help::new(title, &LIST_KEYS)));
            }
            Request::ConfirmDelete { save, in_play } => self.manage_save(save, in_play, None),
            Request::AskRename { save, in_play, dir } => {
                self.manage_save(save, in_play, Some(dir));
            }
            Request::Rename(prompt) => self.rename_save(prompt),
            Request::Analyze(budget) => self.start_analysis(budget),
            Request::SetComment { place, text } => self.set_comment(&place, text),
            Request::SetTags(tags) => self.set_tags(tags),
            Request::Remember(settings) => {
                if settings.warnings != self.warnings.on() {
                    self.warnings = Warnings::new(settings.warnings);
                }
                self.bell = settings.bell;
                self.settings = settings;
                self.remember();
            }
            Request::Quit => self.quit = true,
            Request::LessonSolved(at) => self.lesson_solved(at),
            // The app's own: it never passes them on.
            // Back from online play to the new-game form under it: the game to continue is
            // looked for again.
            Request::SetupAgain => self.find_unfinished(),
            Request::Start(session) => self.start(*session),
            Request::BackToGame => self.screen = Screen::Game,
            Request::Load => self.ask_load(),
            Request::Puzzles(preset) => self.open_trainer(preset, TrainerExit::Setup),
            // The app's own: it never passes them on.
            Request::PlayOnline | Request::Uncover => {}
        }
    }

    fn answer_yes(&mut self, question: Question) {
        match question {
            Question::Leave { to, .. } => self.leave(to),
            Question::Overwrite(o) => self.overwrite(*o),
            Question::Delete(save) => self.delete_save(save),
            Question::DeleteLine { .. } => self.delete_line(),
            Question::Resign(side) => {
                self.cancel_thinking();
                if let Err(e) = self.session.resign(side) {
                    self.error(e.to_string());
                    return;
                }
                self.changed();
                self.say_outcome();
            }
            Question::Draw(offered_by) => self.agree_draw(format!(
                "the {} accept the draw offered by the {offered_by}",
                offered_by.opponent()
            )),
        }
    }

    fn answer_no(&mut self, question: Question) {
        match question {
            Question::Draw(offered_by) => self.info(format!(
                "the {} decline the draw offered by the {offered_by}",
                offered_by.opponent()
            )),
            Question::Overwrite(o) => self.show(Overlay::Save(o.prompt)),
            Question::Leave { .. }
            | Question::Resign(_)
            | Question::Delete(_)
            | Question::DeleteLine { .. } => {
                self.status = None;
            }
        }
    }

    /// A key the game takes, on its screen or in review.
    fn update_game(&mut self, action: Action) {
        match action {
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Hint => self.ask_hint(),
            Action::ToggleWarnings => self.toggle_warnings(),
            Action::ToggleBell => self.toggle_bell(),
            Action::MoveNow => self.move_now(),
            Action::Pause => self.toggle_pause(),
            Action::Faster | Action::Slower => {
                self.ai.pace = self.ai.pace.step(action == Action::Faster);
                self.info(format!(
                    "AI-vs-AI pace: {} ms between moves",
                    self.ai.pace.delay().as_millis()
                ));
            }
            Action::OfferDraw => self.offer_draw(),
            Action::Resign => self.ask_resign(),
            Action::NewGame => self.ask_leave(Leaving::NewGame),
            Action::Rules => {
                self.show(Overlay::Rules(RulesScreen::new(
                    self.session.state().rules(),
                )));
            }
            Action::Help => self.show(Overlay::Help(self.help())),
            Action::Save => self.ask_save(None),
            Action::Load => self.ask_leave(Leaving::Load),
            Action::Review => self.open_review(),
            Action::Analyze => self.ask_analysis(),
            Action::Chat | Action::Comment => self.edit_comment(),
            Action::Tags => self.edit_tags(),
            Action::Puzzles => self.open_lessons(),
            Action::TogglePanel => self.toggle_panel(),
            Action::Quit => self.ask_leave(Leaving::Quit),
            _ => {}
        }
    }

    /// Asks for the autosave now if the game has changes that are in no file (before the
    /// program ends on a signal); returns what to do.
    pub fn autosave_now(&mut self) -> Vec<Effect> {
        if self.is_dirty() {
            self.changed();
        }
        self.take_effects()
    }

    /// After every change of the game: it is no longer saved, and it is autosaved.
    fn changed(&mut self) {
        self.saved = false;
        self.revision += 1;
        self.autosave();
    }

    fn info(&mut self, text: String) {
        self.status = Some(Status {
            text,
            tone: Tone::Info,
        });
    }

    fn error(&mut self, text: String) {
        self.status = Some(Status {
            text,
            tone: Tone::Error,
        });
    }

    /// The terminal is of `size` now: clicks and scrolls are taken on that screen.
    fn resize(&mut self, size: Rect) {
        self.size = size;
        for overlay in &mut self.overlays {
            if let Overlay::Help(help) = overlay {
                help.fit(size);
            }
        }
    }

    /// The save folder, if there is one.
    pub fn save_dir(&self) -> Option<&std::path::Path> {
        self.storage.save_dir.as_deref()
    }

    /// Whether the screen is too small to draw the game (a notice is drawn instead).
    pub(super) fn too_small(&self) -> bool {
        GameLayout::new(self.size).is_none()
    }

    /// The size of the screen the app was last told of (80×24 until then).
    pub const fn size(&self) -> Rect {
        self.size
    }

    /// The keys of the screen in play, with the toggles in the title on the board.
    fn help(&self) -> Help {
        // Under the new-game screen (a layer over the game) the keys asked are the board's.
        if let (Screen::Review(_), false) = (&self.screen, self.covered) {
            Help::new("Review keys".to_owned(), &REVIEW_KEYS)
                .with_note(legend::help_note(&self.look.glyphs))
        } else {
            let on = |b: bool| if b { "on" } else { "off" };
            let title = format!(
                "Keys · warnings {} · bell {}",
                on(self.warnings.on()),
                on(self.bell)
            );
            Help::new(title, &BOARD_KEYS)
        }
    }

    /// Whether the game takes the keys even under another layer: when the screen is too
    /// small to draw, and when it shows a dialog (a question before quitting).
    pub(super) fn takes_keys_over_layers(&self) -> bool {
        self.too_small() || !self.overlays.is_empty()
    }

    /// What the layers over the game are given: the screen, the look, the time, the
    /// remembered choices and the engine's job numbers (one sequence with the game's).
    pub(super) fn context(&self) -> Context<'_> {
        Context {
            size: self.size,
            look: &self.look,
            now: self.ai.now,
            settings: &self.settings,
            jobs: &self.ai.jobs,
        }
    }

    /// Whether the bell is on.
    #[cfg(test)]
    pub(super) const fn bell_on(&self) -> bool {
        self.bell
    }

    /// Whether the warnings are on.
    #[cfg(test)]
    pub(super) fn warnings_on(&self) -> bool {
        self.warnings.on()
    }

    /// The time as last told.
    pub(super) const fn now(&self) -> Instant {
        self.ai.now
    }

    /// The time is `now` (an event came).
    pub(super) const fn set_now(&mut self, now: Instant) {
        self.ai.now = now;
    }

    /// What the game asked of the app since last asked.
    pub(super) fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// The layers the game opened over itself since last asked.
    pub(super) fn take_opened(&mut self) -> Vec<Box<dyn Component>> {
        std::mem::take(&mut self.opened)
    }

    /// Whether a layer is over the game: its AI and clock wait while one is.
    pub(super) const fn set_covered(&mut self, covered: bool) {
        self.covered = covered;
    }

    /// The game as it is now is kept elsewhere (a finished online game, kept by its
    /// server): leaving it asks nothing until it changes.
    pub(super) const fn mark_kept(&mut self) {
        self.saved = true;
    }

    /// Says `text` on the status line as an error.
    pub(super) fn say_error(&mut self, text: &str) {
        self.error(text.to_owned());
    }
}

/// The preset's name, or `custom`.
fn rules_name(session: &Session) -> &'static str {
    session.preset().map_or("custom", Preset::name)
}
