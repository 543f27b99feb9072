//! The app: a stack of layers and a router. At the bottom the local game (with its new-game
//! screen, review, trainer and dialogs); over it the layers it opens (online play). Every
//! [`Action`] goes to the layer on top, every report of the world to the layer it belongs
//! to; what they return is carried out here (layers pushed and closed, requests handed
//! down) or handed to the [`Runtime`](super::Runtime) as [`Effect`]s.

mod online;

use std::path::PathBuf;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use self::online::OnlineLayer;
use super::ascii;
use super::component::{Component, Context, JobIds, Outcome, Request, Routed, RuntimeEvent};
use super::effect::Effect;
use super::input::{Action, Mode};
use super::local_game::{Config, LocalGame};
use super::online_memory::OnlineMemory;
use super::session::Session;
use super::settings::Settings;
use super::storage_jobs::{Done, Job};
use super::text::Status;
use super::theme::Look;
use crate::ai::Report;
use crate::net::client;
use crate::puzzle::Verdict;
use crate::rules::Square;

/// The whole state of the terminal game.
pub struct App {
    /// The local game, under every layer.
    game: LocalGame,
    /// What every layer (the game too) is given.
    world: Surroundings,
    /// The layers over the game, the top one last: it takes the keys (unless the game shows
    /// a dialog, which goes over everything).
    layers: Vec<Box<dyn Component>>,
    /// What the world is to do, from the start and from what was routed since last asked.
    effects: Vec<Effect>,
    /// The config folder and the online memories, for online play from the new-game screen.
    online_home: Option<(PathBuf, OnlineMemory)>,
}

impl App {
    /// A new app as `config` asks: the new-game screen, a game at once, the trainer or
    /// online play.
    pub fn new(mut config: Config) -> App {
        let online = config.online.take();
        let online_home = config.online_home.take();
        let (look, settings) = (config.look.clone(), config.settings);
        let jobs = JobIds::default();
        let game = LocalGame::new(config, online.is_some(), jobs.clone());
        let world = Surroundings {
            look,
            settings,
            size: game.size(),
            now: game.now(),
            jobs,
        };
        let mut app = App {
            game,
            world,
            layers: Vec::new(),
            effects: Vec::new(),
            online_home,
        };
        if let Some(start) = online {
            app.open_online(OnlineLayer::new(start, app.world.now));
        }
        // The trainer, if the command line opens it.
        app.take_game_requests();
        app
    }

    /// Whether the player asked to quit.
    pub const fn should_quit(&self) -> bool {
        self.game.should_quit()
    }

    /// The game in play.
    pub const fn session(&self) -> &Session {
        self.game.session()
    }

    /// The status line, if any.
    pub const fn status(&self) -> Option<&Status> {
        self.game.status()
    }

    /// The keyboard cursor.
    pub const fn cursor(&self) -> Square {
        self.game.cursor()
    }

    /// The selected piece.
    pub const fn selected(&self) -> Option<Square> {
        self.game.selected()
    }

    /// Whether the game changed since it was last saved to (or loaded from) a file.
    pub fn is_dirty(&self) -> bool {
        self.game.is_dirty()
    }

    /// The save folder, if there is one.
    pub fn save_dir(&self) -> Option<&std::path::Path> {
        self.game.save_dir()
    }

    /// The size of the screen the app was last told of (80×24 until then).
    pub const fn size(&self) -> Rect {
        self.world.size
    }

    /// Whether the app waits for an answer of the storage thread before it reads the next key.
    pub fn awaits_storage(&self) -> bool {
        Component::awaits_storage(&self.game) || self.layers.iter().any(|l| l.awaits_storage())
    }

    /// The AI's thread could not be started (`why`).
    pub fn ai_unavailable(&mut self, why: &str) {
        self.game.ai_unavailable(why);
    }

    /// How keys are read now.
    pub fn mode(&self) -> Mode {
        match self.top_layer() {
            Some(layer) => layer.mode(),
            None => Component::mode(&self.game),
        }
    }

    /// What the world is to do since last asked (after [`App::new`], what the start asks).
    pub fn take_effects(&mut self) -> Vec<Effect> {
        self.take_game_requests();
        let mut effects = std::mem::take(&mut self.effects);
        effects.extend(self.game.take_effects());
        self.note_settings(&effects);
        effects
    }

    /// Applies one action; returns what the world is to do.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        // What the game asked outside an action (a test changed it directly) comes first.
        self.take_game_requests();
        if let Action::Resize { width, height } = action {
            self.world.size = Rect::new(0, 0, width, height);
            self.update_game(action);
            let cx = self.world.context();
            for layer in &mut self.layers {
                layer.resized(&cx);
            }
        } else if action != Action::Interrupt
            && !self.game.takes_keys_over_layers()
            && let Some(layer) = self.layers.last_mut()
        {
            let outcome = layer.update(action, &self.world.context());
            self.carry_out(outcome);
        } else {
            self.update_game(action);
        }
        self.take_effects()
    }

    /// Asks for the autosave now if the game has changes that are in no file (before the
    /// program ends on a signal); returns what to do.
    pub fn autosave_now(&mut self) -> Vec<Effect> {
        let effects = self.game.autosave_now();
        self.effects.extend(effects);
        self.take_effects()
    }

    /// Lets time pass until `now`, in the game and in every layer.
    pub fn tick(&mut self, now: Instant) -> Vec<Effect> {
        self.world.now = now;
        let outcome = Component::tick(&mut self.game, &self.world.context());
        self.carry_out_game(outcome);
        // A layer's outcome may close layers or push others: the stack is measured anew each
        // time (a layer shifted past is ticked at the next tick).
        let mut i = 0;
        while let Some(layer) = self.layers.get_mut(i) {
            let outcome = layer.tick(&self.world.context());
            self.carry_out_at(i, outcome);
            i += 1;
        }
        self.take_effects()
    }

    /// When the screen changes next with no event (see [`LocalGame::next_tick`]).
    pub fn next_tick(&self) -> Option<Instant> {
        let layers = self.layers.iter().filter_map(|l| l.next_tick());
        layers.chain(Component::next_tick(&self.game)).min()
    }

    /// Takes one report of the engine worker, at `now`.
    pub fn on_report(&mut self, report: Report, now: Instant) -> Vec<Effect> {
        self.world.now = now;
        // Nothing listens once the job's asker has closed.
        let _ = self.route(RuntimeEvent::Engine(report));
        self.take_effects()
    }

    /// Takes one answer of the storage thread.
    pub fn on_stored(&mut self, done: Done) -> Vec<Effect> {
        // The game takes every answer no layer over it asked for.
        let _ = self.route(RuntimeEvent::Stored(done));
        self.take_effects()
    }

    /// What the online client reports, at `now`.
    pub fn on_net(&mut self, event: client::Event, now: Instant) -> Vec<Effect> {
        self.world.now = now;
        // Nothing listens once online play has closed.
        let _ = self.route(RuntimeEvent::Net(event));
        self.take_effects()
    }

    /// The exact solver's judgement of the trainer's check `id`.
    pub fn on_judged(&mut self, id: u64, verdict: Verdict) -> Vec<Effect> {
        // Nothing listens once the trainer has closed.
        let _ = self.route(RuntimeEvent::Judged { id, verdict });
        self.take_effects()
    }

    /// Draws the whole screen (in ASCII alone with `--ascii`); changes nothing.
    pub fn draw(&self, frame: &mut Frame) {
        let (area, buf) = (frame.area(), frame.buffer_mut());
        let cx = self.world.context();
        if self.layers.is_empty() || self.game.too_small() {
            Component::draw(&self.game, area, buf, &cx);
            return;
        }
        // From the top layer that covers the screen (else from the game) up.
        let covering = self.layers.iter().rposition(|l| l.covers_screen());
        if covering.is_none() {
            self.game.draw_views(area, buf);
        }
        for layer in &self.layers[covering.unwrap_or(0)..] {
            layer.draw(area, buf, &cx);
        }
        if self.layers.last().is_some_and(|l| l.shows_game_status()) {
            self.game.draw_status_row(area, buf);
        }
        // The game's dialogs (a question before quitting) go over everything.
        self.game.draw_dialogs(area, buf);
        if cx.look.glyphs.ascii {
            ascii::transliterate(buf);
        }
    }

    /// The layer on top, if one is over the game and takes the keys: not while the game is
    /// too small to draw or shows a dialog, which take them.
    fn top_layer(&self) -> Option<&dyn Component> {
        if self.game.takes_keys_over_layers() {
            return None;
        }
        self.layers.last().map(AsRef::as_ref)
    }

    /// Offers `event` to the layers, top first; returns it if none took it (it is the
    /// game's).
    fn route(&mut self, mut event: RuntimeEvent) -> Option<RuntimeEvent> {
        for i in (0..self.layers.len()).rev() {
            let cx = self.world.context();
            match self.layers[i].on_event(event, &cx) {
                Routed::Taken(outcome) => {
                    self.carry_out_at(i, outcome);
                    return None;
                }
                Routed::Passed(back) => event = back,
            }
        }
        match self.game.on_event(event, &self.world.context()) {
            Routed::Taken(outcome) => {
                self.carry_out_game(outcome);
                None
            }
            Routed::Passed(back) => Some(back),
        }
    }

    /// Carries out what the top layer's update came to.
    fn carry_out(&mut self, outcome: Outcome) {
        let top = self.layers.len().saturating_sub(1);
        self.carry_out_at(top, outcome);
    }

    /// Carries out what layer `i` came to: its effects for the world, itself closed, the
    /// layers it pushes over it (or in its place), its requests to the game.
    fn carry_out_at(&mut self, i: usize, outcome: Outcome) {
        let Outcome {
            effects,
            close,
            push,
            requests,
        } = outcome;
        self.effects.extend(effects);
        if close && i < self.layers.len() {
            self.layers.remove(i);
        }
        let at = (i + usize::from(!close)).min(self.layers.len());
        self.layers.splice(at..at, push);
        self.game.set_covered(!self.layers.is_empty());
        for request in requests {
            self.on_request(request);
        }
    }

    /// Gives `action` to the game, under the layers; carries out what comes of it.
    fn update_game(&mut self, action: Action) {
        let outcome = Component::update(&mut self.game, action, &self.world.context());
        self.carry_out_game(outcome);
    }

    /// Carries out what the game's update (or event, request, tick) came to: the layers it
    /// opened go on the stack, its requests are carried out (the game never closes).
    fn carry_out_game(&mut self, outcome: Outcome) {
        let Outcome {
            effects,
            close: _,
            push,
            requests,
        } = outcome;
        self.effects.extend(effects);
        if !push.is_empty() {
            self.layers.extend(push);
            self.game.set_covered(true);
        }
        for request in requests {
            self.on_request(request);
        }
    }

    /// The choices sent to be remembered in `effects` are those every layer is given next.
    fn note_settings(&mut self, effects: &[Effect]) {
        for effect in effects {
            if let Effect::Store(Job::Remember(settings)) = effect {
                self.world.settings = *settings;
            }
        }
    }

    /// Carries out what the game asked of the app, and puts on the stack what it opened.
    fn take_game_requests(&mut self) {
        let opened = self.game.take_opened();
        if !opened.is_empty() {
            self.layers.extend(opened);
            self.game.set_covered(true);
        }
        for request in self.game.take_requests() {
            self.on_request(request);
        }
    }

    /// Carries out a request: online play is the app's; the rest goes to the game.
    fn on_request(&mut self, request: Request) {
        match request {
            Request::PlayOnline => self.online_from_setup(),
            Request::Uncover => {
                self.layers.clear();
                self.game.set_covered(false);
            }
            other => {
                let outcome = self.game.on_request(other, &self.world.context());
                self.carry_out_game(outcome);
            }
        }
        self.take_game_requests();
    }

    /// "Online" on the new-game screen: asks for a server; leaving comes back to the form.
    fn online_from_setup(&mut self) {
        let Some((dir, memory)) = self.online_home.clone() else {
            self.game
                .say_error("no config folder: online play needs one (set BRANDUBH_CONFIG_DIR)");
            return;
        };
        let save_dir = self.game.save_dir().map(std::path::Path::to_path_buf);
        let layer = OnlineLayer::from_setup(dir, save_dir, memory, self.world.now);
        self.open_online(layer);
    }

    /// Puts online play over the game, with what it asks at its start.
    fn open_online(&mut self, mut layer: OnlineLayer) {
        let cx = self.world.context();
        let outcome = layer.started(&cx);
        self.layers.push(Box::new(layer));
        self.game.set_covered(true);
        self.carry_out(outcome);
    }
}

/// What the app gives every layer, the game too: the screen, the look, the time, the
/// remembered choices and the engine's job numbers.
struct Surroundings {
    look: Look,
    /// The choices as last sent to be remembered.
    settings: Settings,
    size: Rect,
    /// The time as last told (by a tick or an event).
    now: Instant,
    jobs: JobIds,
}

impl Surroundings {
    /// Lent to a layer for one call.
    const fn context(&self) -> Context<'_> {
        Context {
            size: self.size,
            look: &self.look,
            now: self.now,
            settings: &self.settings,
            jobs: &self.jobs,
        }
    }
}

/// Tests reach the local game's state through the app, as they did when the app held it.
#[cfg(test)]
impl std::ops::Deref for App {
    type Target = LocalGame;

    fn deref(&self) -> &LocalGame {
        &self.game
    }
}

#[cfg(test)]
impl std::ops::DerefMut for App {
    fn deref_mut(&mut self) -> &mut LocalGame {
        &mut self.game
    }
}

#[cfg(test)]
impl App {
    /// Opens online play as the command line does.
    pub(super) fn start_online(&mut self, start: super::online::OnlineStart) {
        self.open_online(OnlineLayer::new(start, self.world.now));
    }

    /// The new-game screen, if it is on the stack.
    pub(super) fn setup(&self) -> Option<&super::local_game::setup::SetupLayer> {
        self.layers
            .iter()
            .rev()
            .find_map(|l| l.as_any()?.downcast_ref())
    }

    /// The puzzle trainer, if it is on the stack.
    pub(super) fn trainer(&self) -> Option<&super::puzzle_trainer::Trainer> {
        let layer = self
            .layers
            .iter()
            .rev()
            .find_map(|l| l.as_any()?.downcast_ref());
        layer.map(super::local_game::trainer::TrainerLayer::trainer)
    }

    /// Online play, if it is on the stack.
    pub(super) fn online(&self) -> Option<&super::online::Online> {
        let layer = self
            .layers
            .iter()
            .rev()
            .find_map(|l| l.as_any()?.downcast_ref());
        layer.map(OnlineLayer::online)
    }

    /// The same, to change.
    pub(super) fn online_mut(&mut self) -> Option<&mut super::online::Online> {
        let layer = (self.layers.iter_mut().rev())
            .find_map(|l| l.as_any_mut()?.downcast_mut::<OnlineLayer>());
        layer.map(OnlineLayer::online_mut)
    }
}
