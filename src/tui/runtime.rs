//! The app with what carries out its effects (the AI worker, the storage thread, the bell) and
//! the one channel every event comes in on. The event loop runs it with a terminal
//! (`tui::run`); tests drive it the same way without one.
//!
//! While the app waits for an answer of the storage thread (a save, the list of saves), the
//! keys that come are held back and taken once it has come, as they would be by a program
//! busy writing; everything else (the clock, the AI, drawing) goes on.

use std::collections::VecDeque;
use std::io;
use std::process::ExitCode;
use std::sync::mpsc::Sender;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ratatui::Frame;
use ratatui::layout::Size;

use super::app::App;
use super::effect::Effect;
use super::events::{Event, Events};
use super::input::{self, Action};
use super::local_game::Config;
use super::net_request::NetRequest;
use super::settings::SettingsFile;
use super::storage::StorageWorker;
use super::storage_jobs::{Done, Job};
use crate::ai::{Report, Worker};
use crate::net::client::Client;
use crate::puzzle::{Solver, judge};

/// How the terminal game ended.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Ending {
    /// The player quit.
    Quit,
    /// An ending signal (its number) stopped the game, after the autosave.
    Signal(i32),
    /// The terminal hung up without a signal, and the game stopped after the autosave.
    HungUp,
}

impl Ending {
    /// The exit code to end the program with: success, or 128 + the signal's number as for a
    /// program the signal killed.
    pub fn exit_code(self) -> ExitCode {
        match self {
            Ending::Quit => ExitCode::SUCCESS,
            Ending::Signal(n) => ExitCode::from(u8::try_from(128 + n).unwrap_or(u8::MAX)),
            // As for a hangup signal (SIGHUP is 1).
            Ending::HungUp => ExitCode::from(129),
        }
    }
}

/// The terminal game's app, its workers and its events.
pub struct Runtime {
    pub(super) app: App,
    events: Events,
    /// The AI's thread, started when first needed, and again after it failed.
    worker: Option<Worker>,
    /// The storage thread.
    storage: StorageWorker,
    /// The connection to a game server, in online play.
    client: Option<Client>,
    /// What the engines are seeded with.
    seed: u64,
    /// Whether the bell is to ring once the next frame is drawn.
    bell: bool,
    /// Whether the terminal is to be given back and the program stopped (Ctrl-z, SIGTSTP).
    suspend: bool,
    /// Whether everything is to be drawn again (the program was continued).
    redraw: bool,
    /// Events held back: keys while the app waits for the storage thread, and anything but
    /// the storage thread's answers while [`Runtime::settle`] waits for them.
    held: VecDeque<Event>,
    /// Whether jobs were asked of the storage thread since the last [`Runtime::settle`].
    unsettled: bool,
    /// The number of the last flush asked of the storage thread.
    flushes: u64,
}

impl Runtime {
    /// The app `config` asks for, with what its start asks carried out (the settings
    /// remembered, the game to continue found), and the saves' summaries being read ahead:
    /// fails if a thread cannot be started.
    pub fn new(mut config: Config) -> io::Result<Runtime> {
        let settings = std::mem::replace(&mut config.settings_file, SettingsFile::none());
        let summaries = config.storage.summaries_index.clone();
        let mut app = App::new(config);
        let effects = app.take_effects();
        let events = Events::new();
        let storage = StorageWorker::spawn(settings, summaries, events.sender())?;
        // A different game every time; the engines are deterministic for a given seed.
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
            u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
        });
        let mut runtime = Runtime {
            app,
            events,
            worker: None,
            storage,
            client: None,
            seed,
            bell: false,
            suspend: false,
            redraw: false,
            held: VecDeque::new(),
            unsettled: false,
            flushes: 0,
        };
        // Not waited for: the first frame is drawn at once, and the game to continue offered
        // once found (keys wait for it).
        runtime.carry_out(effects);
        // Nobody waits for it: the list of saves opens at once later.
        if let Some(dir) = runtime.app.save_dir() {
            runtime.storage.ask(Job::ReadAhead(dir.to_owned()));
        }
        Ok(runtime)
    }

    /// The app's state.
    pub const fn app(&self) -> &App {
        &self.app
    }

    /// Applies one action of the player and carries out what it asks, then waits for the
    /// storage thread to have done it ([`Runtime::settle`]): what a test wants before it looks.
    /// (The event loop does not wait: it holds the next keys back while the app waits.)
    pub fn update(&mut self, action: Action) {
        self.act(action);
        self.settle();
    }

    /// Waits until the storage thread has done every job asked so far, and takes its answers
    /// (and those of the jobs they lead to); other events wait.
    pub fn settle(&mut self) {
        while std::mem::take(&mut self.unsettled) {
            self.flushes += 1;
            let flush = self.flushes;
            self.storage.ask(Job::Flush(flush));
            loop {
                let Some(event) = self.events.wait() else {
                    return;
                };
                match event {
                    Event::Stored(Done::Flushed(n)) if n == flush => break,
                    Event::Stored(done) => {
                        let effects = self.app.on_stored(done);
                        self.carry_out(effects);
                    }
                    other => self.held.push_back(other),
                }
            }
        }
    }

    /// Takes every event ready (the AI's reports, the storage thread's answers; a key, a
    /// signal in the terminal), then lets time pass until `now`. Returns how the game ended if
    /// an event ended it, and fails if the terminal's input did.
    pub fn tick(&mut self, now: Instant) -> io::Result<Option<Ending>> {
        while !self.app.should_quit()
            && let Some(event) = self.next_ready()
        {
            if let Some(ending) = self.handle(event, now)? {
                return Ok(Some(ending));
            }
        }
        let effects = self.app.tick(now);
        self.carry_out(effects);
        Ok(None)
    }

    /// The next event to take now, if any: one held back first, unless it is a key and the
    /// app still waits for the storage thread.
    fn next_ready(&mut self) -> Option<Event> {
        let key_waits =
            matches!(self.held.front(), Some(Event::Terminal(_))) && self.app.awaits_storage();
        match self.held.pop_front() {
            Some(event) if !key_waits => Some(event),
            Some(event) => {
                self.held.push_front(event);
                self.events.try_next()
            }
            None => self.events.try_next(),
        }
    }

    /// Waits for the next event until `deadline`, and takes it.
    pub(super) fn wait(&mut self, deadline: Instant) -> io::Result<Option<Ending>> {
        match self.events.next(deadline) {
            Some(event) => self.handle(event, Instant::now()),
            None => Ok(None),
        }
    }

    /// When the screen changes next with no event (see [`App::next_tick`]).
    pub(super) fn next_tick(&self) -> Option<Instant> {
        self.app.next_tick()
    }

    /// A sender of events, for a source of them (the terminal, the signals).
    pub(super) fn sender(&self) -> Sender<Event> {
        self.events.sender()
    }

    /// Draws the whole screen.
    pub fn draw(&self, frame: &mut Frame) {
        self.app.draw(frame);
    }

    /// Tells the app the terminal's size, if it is not the one it knows (at the start, or a
    /// resize whose event was missed).
    pub(super) fn fit(&mut self, size: Size) {
        if self.app.size().as_size() != size {
            self.act(Action::Resize {
                width: size.width,
                height: size.height,
            });
        }
    }

    /// Whether the terminal is to be given back and the program stopped (Ctrl-z, SIGTSTP);
    /// asking clears it.
    pub(super) fn take_suspend(&mut self) -> bool {
        std::mem::take(&mut self.suspend)
    }

    /// Whether everything is to be drawn again, not only what changed (the program was
    /// continued after a stop); asking clears it.
    pub(super) fn take_redraw(&mut self) -> bool {
        std::mem::take(&mut self.redraw)
    }

    /// Whether the bell is to ring now that the frame is drawn; asking clears it.
    pub(super) fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.bell)
    }

    /// Keeps the game before the program ends on a signal or a hangup: autosaves its
    /// changes, and waits until they are written.
    pub(super) fn keep_game(&mut self) {
        let effects = self.app.autosave_now();
        self.carry_out(effects);
        self.settle();
    }

    /// Applies one action of the player and carries out what it asks. Ctrl-z is the loop's
    /// own: the app does not see it.
    fn act(&mut self, action: Action) {
        if action == Action::Suspend {
            self.suspend = true;
            return;
        }
        let effects = self.app.update(action);
        self.carry_out(effects);
    }

    /// Takes one event; returns how the game ended if it ended it.
    fn handle(&mut self, event: Event, now: Instant) -> io::Result<Option<Ending>> {
        match event {
            // Keys wait for the answer the app waits for, in the order they came.
            Event::Terminal(_) if self.app.awaits_storage() => self.held.push_back(event),
            Event::Terminal(event) => {
                for action in input::actions(&event, self.app.mode()) {
                    self.act(action);
                }
            }
            Event::Engine(report) => {
                if report == Report::Gone {
                    // Joins the thread, which has ended; the next search starts another.
                    self.worker = None;
                }
                let effects = self.app.on_report(report, now);
                self.carry_out(effects);
            }
            Event::Stored(done) => {
                let effects = self.app.on_stored(done);
                self.carry_out(effects);
            }
            Event::Net(event) => {
                let effects = self.app.on_net(event, now);
                self.carry_out(effects);
            }
            Event::Judged { id, verdict } => {
                let effects = self.app.on_judged(id, verdict);
                self.carry_out(effects);
            }
            Event::Signal(signal) => {
                self.keep_game();
                return Ok(Some(Ending::Signal(signal)));
            }
            Event::Suspend => self.suspend = true,
            Event::Continued => self.redraw = true,
            Event::InputFailed(e) => return Err(e),
        }
        Ok(None)
    }

    /// Carries out what the app asked.
    fn carry_out(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Search {
                    id,
                    engine,
                    level,
                    state,
                    limits,
                } => {
                    if let Some(worker) = self.worker() {
                        worker.start(id, engine, level, &state, limits);
                    }
                }
                Effect::Analyze { id, game, budget } => {
                    if let Some(worker) = self.worker() {
                        worker.analyze(id, &game, budget);
                    }
                }
                Effect::Stop(id) => {
                    if let Some(worker) = self.worker.as_mut() {
                        worker.stop(id);
                    }
                }
                Effect::Judge {
                    id,
                    state,
                    mv,
                    goal,
                    moves,
                } => {
                    let events = self.events.sender();
                    if let Some(worker) = self.worker() {
                        worker.call(Box::new(move || {
                            let verdict = judge(&mut Solver::new(), &state, mv, goal, moves);
                            // Nobody listens once the game has ended.
                            let _ = events.send(Event::Judged { id, verdict });
                        }));
                    }
                }
                Effect::Bell => self.bell = true,
                Effect::Store(job) => {
                    self.storage.ask(job);
                    self.unsettled = true;
                }
                Effect::Net(request) => self.net(request),
            }
        }
    }

    /// Carries out what online play asked.
    fn net(&mut self, request: NetRequest) {
        match request {
            NetRequest::Connect(config) => {
                // The old connection (if any) closes first.
                self.client = None;
                self.client = Some(Client::start(*config, self.events.sender()));
            }
            NetRequest::Send(message) => {
                if let Some(client) = &self.client {
                    client.send(message);
                }
            }
            // Written on the storage thread, as every file; how it went comes back.
            NetRequest::Remember { dir, server, name } => {
                self.storage.ask(Job::RememberOnline { dir, server, name });
                self.unsettled = true;
            }
            NetRequest::RememberMuted { dir, server, names } => {
                self.storage.ask(Job::RememberMuted { dir, server, names });
                self.unsettled = true;
            }
            NetRequest::SaveFinished {
                game,
                server,
                dir,
                json,
            } => {
                self.storage.ask(Job::SaveOnline {
                    game,
                    server,
                    dir,
                    json,
                });
                self.unsettled = true;
            }
        }
    }

    /// The AI's thread, started if it is not running; if it cannot be, the app is told why.
    fn worker(&mut self) -> Option<&mut Worker> {
        if self.worker.is_none() {
            match Worker::spawn(self.seed, self.events.sender()) {
                Ok(worker) => self.worker = Some(worker),
                Err(e) => self.app.ai_unavailable(&e.to_string()),
            }
        }
        self.worker.as_mut()
    }
}

#[cfg(test)]
impl Runtime {
    /// Carries out what the app asked outside an action (a test changed it directly), and
    /// waits for the storage thread to have done it.
    pub(super) fn carry_out_asked(&mut self) {
        let effects = self.app.take_effects();
        self.carry_out(effects);
        self.settle();
    }

    /// From now on, the storage thread's writes fail with `kind` (`None`: they work again).
    pub(super) fn fail_writes(&mut self, kind: Option<std::io::ErrorKind>) {
        self.carry_out(vec![Effect::Store(Job::FailWrites(kind))]);
        self.settle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::net::client::ClientConfig;
    use crate::tui::input::Mode;

    #[test]
    fn an_engine_gone_pauses_the_ai_and_a_new_worker_starts_when_asked() {
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            // Still thinking when the report comes.
            defenders: "ai:max:10s".parse::<Player>().unwrap(),
            ..Config::default()
        })
        .unwrap();
        rt.update(Action::StartTyping);
        for c in "d2-e2".chars() {
            rt.update(Action::Type(c));
        }
        rt.update(Action::Confirm);
        rt.tick(Instant::now()).unwrap();
        assert!(rt.worker.is_some(), "started for the AI's move");
        rt.sender().send(Event::Engine(Report::Gone)).unwrap();
        rt.tick(Instant::now()).unwrap();
        assert!(rt.worker.is_none());
        assert!(
            rt.app
                .status()
                .unwrap()
                .text
                .contains("the AI stopped working")
        );
        assert_eq!(rt.app.mode(), Mode::Board);
        rt.update(Action::Pause);
        rt.tick(Instant::now()).unwrap();
        assert!(rt.worker.is_some(), "p starts the AI again");
    }

    /// A game of one move saved in `dir` under `name`.
    fn saved_game(dir: &std::path::Path, name: &str) -> crate::game::Game {
        let mut game = crate::game::Game::new(
            crate::rules::Preset::Standard.rules(),
            crate::rules::Position::start(),
            Player::Human,
            Player::Human,
        );
        game.play_text("d2-c2").unwrap();
        crate::game::storage::save_atomic(&dir.join(name), &game).unwrap();
        game
    }

    #[test]
    fn keys_typed_while_the_saves_are_listed_wait_for_the_list() {
        use ratatui::crossterm::event::{self, KeyCode, KeyEvent, KeyModifiers};
        let dir = tempfile::tempdir().unwrap();
        let other = saved_game(dir.path(), "other.json");
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            storage: crate::tui::Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        let key =
            |code| Event::Terminal(event::Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        // `o` and Enter at once: Enter is for the list, which the storage thread reads first.
        rt.sender().send(key(KeyCode::Char('o'))).unwrap();
        rt.sender().send(key(KeyCode::Enter)).unwrap();
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while rt.app.session().moves().is_empty() {
            assert!(Instant::now() < deadline, "{:?}", rt.app.status());
            rt.tick(Instant::now()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(rt.app.session().moves(), other.moves());
        assert!(rt.app.status().unwrap().text.starts_with("loaded other"));
        assert_eq!(rt.app.mode(), Mode::Board);
    }

    #[test]
    fn the_first_frame_is_not_held_up_by_the_search_for_a_game_to_continue() {
        let dir = tempfile::tempdir().unwrap();
        saved_game(dir.path(), "other.json");
        let mut rt = Runtime::new(Config {
            storage: crate::tui::Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        let screen = |rt: &Runtime| {
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
            terminal.draw(|frame| rt.draw(frame)).unwrap();
            format!("{:?}", terminal.backend().buffer())
        };
        // Drawn before the storage thread answers; keys wait for the answer.
        assert!(rt.app.awaits_storage());
        assert!(!screen(&rt).contains("other: "));
        rt.settle();
        assert!(!rt.app.awaits_storage());
        assert!(screen(&rt).contains("other: "), "{}", screen(&rt));
    }

    #[test]
    fn a_connection_whose_lookup_hangs_never_holds_up_the_screen() {
        let dir = tempfile::tempdir().unwrap();
        let (resolver, reached) = crate::net::client::Resolver::stuck();
        let mut stuck = ClientConfig::new("stuck.invalid", Some("ann"), dir.path().to_owned());
        stuck.resolver = resolver;
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut rt = Runtime::new(Config {
                skip_setup: true,
                ..Config::default()
            })
            .unwrap();
            rt.net(NetRequest::Connect(Box::new(stuck.clone())));
            reached
                .recv_timeout(std::time::Duration::from_secs(20))
                .expect("the lookup was asked");
            // Connecting again drops the client stuck in its lookup.
            rt.net(NetRequest::Connect(Box::new(stuck)));
            rt.update(Action::Move(crate::tui::Direction::Up));
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
            let drawn = terminal.draw(|frame| rt.draw(frame)).is_ok();
            let _ = done.send(drawn);
        });
        let drawn = finished.recv_timeout(std::time::Duration::from_secs(20));
        assert_eq!(drawn, Ok(true), "the screen waited for the lookup");
    }

    #[test]
    fn a_signal_keeps_the_game_and_ends_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            storage: crate::tui::Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        })
        .unwrap();
        rt.sender().send(Event::Signal(15)).unwrap();
        assert_eq!(rt.tick(Instant::now()).unwrap(), Some(Ending::Signal(15)));
    }
}
