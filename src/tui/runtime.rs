//! The app with what carries out its effects (the AI worker, the bell) and the one channel
//! every event comes in on. The event loop runs it with a terminal (`tui::run`); tests drive it
//! the same way without one.

use std::io;
use std::sync::mpsc::Sender;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use ratatui::Frame;

use super::effect::Effect;
use super::events::{Event, Events};
use super::input::{self, Action};
use super::worker::{Report, Worker};
use super::{App, Config, Ending};

/// The terminal game's app, its workers and its events.
pub struct Runtime {
    pub(super) app: App,
    events: Events,
    /// The AI's thread, started when first needed, and again after it failed.
    worker: Option<Worker>,
    /// What the engines are seeded with.
    seed: u64,
    /// Whether the bell is to ring once the next frame is drawn.
    bell: bool,
}

impl Runtime {
    /// The app `config` asks for, with what its start asks carried out.
    pub fn new(config: Config) -> Runtime {
        let mut app = App::new(config);
        let effects = app.take_effects();
        // A different game every time; the engines are deterministic for a given seed.
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| {
            u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
        });
        let mut runtime = Runtime {
            app,
            events: Events::new(),
            worker: None,
            seed,
            bell: false,
        };
        runtime.carry_out(effects);
        runtime
    }

    /// The app's state.
    pub const fn app(&self) -> &App {
        &self.app
    }

    /// Applies one action of the player and carries out what it asks.
    pub fn update(&mut self, action: Action) {
        let effects = self.app.update(action);
        self.carry_out(effects);
    }

    /// Takes every event waiting (the AI's reports; a key, a signal in the terminal), then
    /// lets time pass until `now`. Returns how the game ended if an event ended it, and fails
    /// if the terminal's input did.
    pub fn tick(&mut self, now: Instant) -> io::Result<Option<Ending>> {
        while !self.app.should_quit()
            && let Some(event) = self.events.try_next()
        {
            if let Some(ending) = self.handle(event, now)? {
                return Ok(Some(ending));
            }
        }
        let effects = self.app.tick(now);
        self.carry_out(effects);
        Ok(None)
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
    pub fn draw(&mut self, frame: &mut Frame) {
        self.app.draw(frame);
    }

    /// Whether the bell is to ring now that the frame is drawn; asking clears it.
    pub(super) fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.bell)
    }

    /// Keeps the game before the program ends on a signal or a hangup: autosaves its changes.
    pub(super) fn keep_game(&mut self) {
        self.app.autosave_now();
    }

    /// Takes one event; returns how the game ended if it ended it.
    fn handle(&mut self, event: Event, now: Instant) -> io::Result<Option<Ending>> {
        match event {
            Event::Terminal(event) => {
                if let Some(action) = input::action(&event, self.app.mode()) {
                    self.update(action);
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
            Event::Signal(signal) => {
                self.keep_game();
                return Ok(Some(Ending::Signal(signal)));
            }
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
                Effect::Analyse { id, game, budget } => {
                    if let Some(worker) = self.worker() {
                        worker.analyse(id, &game, budget);
                    }
                }
                Effect::Stop(id) => {
                    if let Some(worker) = self.worker.as_mut() {
                        worker.stop(id);
                    }
                }
                Effect::Bell => self.bell = true,
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
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::tui::input::Mode;

    #[test]
    fn an_engine_gone_pauses_the_ai_and_a_new_worker_starts_when_asked() {
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            // Still thinking when the report comes.
            defenders: "ai:max:10s".parse::<Player>().unwrap(),
            ..Config::default()
        });
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

    #[test]
    fn a_signal_keeps_the_game_and_ends_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut rt = Runtime::new(Config {
            skip_setup: true,
            storage: crate::tui::Storage::in_dir(dir.path().to_owned()),
            ..Config::default()
        });
        rt.sender().send(Event::Signal(15)).unwrap();
        assert_eq!(rt.tick(Instant::now()).unwrap(), Some(Ending::Signal(15)));
    }
}
