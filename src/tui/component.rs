//! The one contract every screen and dialog of the terminal game keeps, and what goes between
//! a component and the app: the [`Context`] it is given, the [`Outcome`] it returns (effects,
//! a change of the layer stack, requests), the [`RuntimeEvent`]s routed to it and the
//! [`Request`]s a layer makes (as it closes, mostly).
//!
//! The app is a stack of layers (helix's compositor): the top one takes the actions; a layer
//! asks to be closed, or to put another over itself, through its outcome, and what it asks
//! travels as a [`Request`] to the app, which carries out its own (online play, uncovering the
//! game) and hands the rest to the local game at the bottom: no layer reaches into another. Components are boxed (`Box<dyn Component>`), so that the app holds no enum of every
//! screen: a new dialog is a new file implementing this trait, nothing more.

use std::cell::Cell;
use std::fmt;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::dialogs::{Leaving, Question, SavePrompt};
use super::effect::Effect;
use super::input::{Action, Mode};
use super::saves_list::RenamePrompt;
use super::session::Session;
use super::settings::Settings;
use super::storage_jobs::{Done, SaveRef};
use super::theme::{Look, Themed};
use crate::ai::{Budget, JobId, Report};
use crate::game::{Place, Tags};
use crate::puzzle::Verdict;
use crate::rules::Preset;

/// A screen or a dialog: its own state, changed by [`Component::update`] without I/O, and
/// drawn by [`Component::draw`], which changes nothing.
pub trait Component {
    /// Takes the player's `action` (the component is on top); says what comes of it.
    fn update(&mut self, action: Action, cx: &Context) -> Outcome;

    /// Draws the component in `area` (the whole screen) of `buf`.
    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context);

    /// How keys are read while it is on top.
    fn mode(&self) -> Mode;

    /// Takes `event` if it is its own (an engine's report on its job, a storage answer to
    /// what it asked, a message of its server); else hands it back for the layer below.
    fn on_event(&mut self, event: RuntimeEvent, _cx: &Context) -> Routed {
        Routed::Passed(event)
    }

    /// Lets time pass until `cx.now` (every layer, covered or not).
    fn tick(&mut self, _cx: &Context) -> Outcome {
        Outcome::default()
    }

    /// When it changes next by itself (a clock, a pace), if it does.
    fn next_tick(&self) -> Option<Instant> {
        None
    }

    /// The screen is now `cx.size`: what it keeps of the screen's size (a scroll) is fitted.
    fn resized(&mut self, _cx: &Context) {}

    /// Whether it waits for an answer of the storage thread (the next key waits for it).
    fn awaits_storage(&self) -> bool {
        false
    }

    /// Whether the game's status line shows on its last row (the new-game screen: a settings
    /// file not used, a save that would not load).
    fn shows_game_status(&self) -> bool {
        false
    }

    /// Whether it covers the whole screen, so that the layers under it need not be drawn.
    fn covers_screen(&self) -> bool {
        false
    }

    /// Itself, for a test to look into.
    #[cfg(test)]
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }

    /// Itself, for a test to change.
    #[cfg(test)]
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        None
    }
}

/// What a component is given besides its own state: the screen, the look, the time, the
/// remembered choices, and the numbers of the engine's jobs.
pub struct Context<'a> {
    /// The screen's size.
    pub size: Rect,
    /// Colours and glyphs.
    pub look: &'a Look,
    /// The time as last told (by a tick or an event).
    pub now: Instant,
    /// The choices remembered (bell, warnings, the new game's players).
    pub settings: &'a Settings,
    /// The engine's job numbers, shared by every component that asks for a search.
    pub jobs: &'a JobIds,
}

impl<'a> Context<'a> {
    /// `of` drawn in the look.
    pub const fn themed<T>(&self, of: &'a T) -> Themed<'a, T> {
        Themed {
            of,
            look: self.look,
        }
    }
}

/// The numbers of the engine worker's jobs: one sequence for the whole app, so that a report
/// names the job, and so the component, it belongs to. A clone is the same sequence (the
/// app's, held by the game that asks for searches between the app's calls).
#[derive(Clone, Debug, Default)]
pub struct JobIds(Rc<Cell<JobId>>);

impl JobIds {
    /// A number no job had.
    pub fn next(&self) -> JobId {
        let id = self.0.get() + 1;
        self.0.set(id);
        id
    }
}

/// What a component's update (or event, request, tick) comes to.
#[derive(Default)]
pub struct Outcome {
    /// What the world is to do.
    pub effects: Vec<Effect>,
    /// Whether the component closes (is taken off the stack).
    pub close: bool,
    /// The layers to put on the stack, over it (or, if it closes, in its place), in order.
    pub push: Vec<Box<dyn Component>>,
    /// What it asks of the layer under it (as it closes) or of the app.
    pub requests: Vec<Request>,
}

impl Outcome {
    /// Nothing comes of it: the component stays as it is.
    pub fn stay() -> Outcome {
        Outcome::default()
    }

    /// The component closes.
    pub fn close() -> Outcome {
        Outcome {
            close: true,
            ..Outcome::default()
        }
    }

    /// The component closes and asks `request` of the layer under it.
    pub fn ask(request: Request) -> Outcome {
        Outcome::close().and_ask(request)
    }

    /// The same, and `layer` goes on the stack too.
    #[must_use]
    pub fn and_push(mut self, layer: impl Component + 'static) -> Outcome {
        self.push.push(Box::new(layer));
        self
    }

    /// The same, and `request` is asked too.
    #[must_use]
    pub fn and_ask(mut self, request: Request) -> Outcome {
        self.requests.push(request);
        self
    }

    /// The same, and the world does `effects` too.
    #[must_use]
    pub fn and_effects(mut self, effects: impl IntoIterator<Item = Effect>) -> Outcome {
        self.effects.extend(effects);
        self
    }

    /// The same, and the component closes.
    #[must_use]
    pub const fn and_close(mut self) -> Outcome {
        self.close = true;
        self
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outcome")
            .field("effects", &self.effects)
            .field("close", &self.close)
            .field("push", &self.push.len())
            .field("requests", &self.requests)
            .finish()
    }
}

/// What comes back to the app from the world, routed to the layer it belongs to.
#[derive(Debug)]
pub enum RuntimeEvent {
    /// A report of the engine worker.
    Engine(Report),
    /// An answer of the storage thread.
    Stored(Done),
    /// What the online client reports.
    Net(crate::net::client::Event),
    /// The exact solver's judgement of the puzzle trainer's check number `id`.
    Judged {
        /// The check's number.
        id: u64,
        /// What the move comes to.
        verdict: Verdict,
    },
}

/// Whether a component took an event.
#[derive(Debug)]
pub enum Routed {
    /// It was its own: what comes of it.
    Taken(Outcome),
    /// Not its own: for the layer below.
    Passed(RuntimeEvent),
}

/// What a dialog asks as it closes, of the layer it uncovers (or of the app).
#[derive(Debug)]
pub enum Request {
    /// The keys of the screen in play (from the rules).
    Help,
    /// The player answered the question: yes if `true`.
    Answer(Question, bool),
    /// Save the game first, then leave it for where the question was leaving to.
    SaveThenLeave(Leaving),
    /// Save under the name and in the folder of the prompt.
    Save(SavePrompt),
    /// Load the save chosen.
    Open(SaveRef),
    /// Show the keys of the list of saves (which stays under them).
    ListHelp,
    /// Ask whether to delete the save selected in the list (which stays under the question).
    ConfirmDelete {
        /// The save.
        save: SaveRef,
        /// Whether it holds the game in play (it is not deleted then).
        in_play: bool,
    },
    /// Ask for a new name of the save selected in the list (which stays under the prompt).
    AskRename {
        /// The save.
        save: SaveRef,
        /// Whether it holds the game in play (it is not renamed then).
        in_play: bool,
        /// The folder of the list.
        dir: PathBuf,
    },
    /// Rename the save of the prompt (which shows while it is renamed).
    Rename(RenamePrompt),
    /// Analyze the game at the budget chosen.
    Analyze(Budget),
    /// Set the comment on the move leading to `place` (empty: remove it).
    SetComment {
        /// The move's place in the game's tree.
        place: Place,
        /// The comment.
        text: String,
    },
    /// Give the game these tags.
    SetTags(Tags),
    /// Remember these choices (written to the settings file).
    Remember(Settings),
    /// Quit the program.
    Quit,
    /// Play this new game (chosen on the new-game screen).
    Start(Box<Session>),
    /// Back to the game in play, on its board (from the new-game screen).
    BackToGame,
    /// Show the saved games to load.
    Load,
    /// Open the puzzle trainer on this preset's puzzles (from the new-game screen).
    Puzzles(Preset),
    /// The game is to be seen: every layer over it closes (a game was started or loaded).
    Uncover,
    /// The trainer solved the lesson of the record's ply (kept with the game).
    LessonSolved(usize),
    /// Play online (from the new-game screen).
    PlayOnline,
    /// Show the new-game form again, looking again for a game to continue (back from
    /// online play).
    SetupAgain,
}
