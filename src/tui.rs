//! The terminal game: a ratatui interface over the game record, with the AI on a worker thread.
//!
//! [`run`] owns the terminal through ratatui's `try_init` and `try_restore` (raw mode, alternate
//! screen, restored on quit, error, panic and ending signals). The loop draws, then blocks on
//! the one event channel until an event comes (a key, a click, a resize, the AI's report, a
//! signal) or the screen is due to change by itself (a clock, the AI-vs-AI pace); a key or a
//! click is mapped to an [`Action`] with the pure [`input::action`] and handed to
//! [`App::update`], whose effects the [`Runtime`] carries out.

mod analysis_text;
mod app;
mod ascii;
mod board_screen;
mod board_view;
mod comment_editor;
mod component;
mod dialogs;
mod effect;
mod engine_help;
mod events;
mod graph;
mod help;
pub mod input;
mod layout;
mod legend;
mod local_game;
mod net_request;
pub mod online;
pub mod online_memory;
mod overlay;
mod panels;
mod position_field;
mod progress_file;
pub mod puzzle_trainer;
mod review;
mod rules_screen;
mod runtime;
mod saves_list;
mod screens;
mod session;
pub mod settings;
mod signals;
mod storage;
mod storage_jobs;
mod tags_form;
mod text;
mod theme;
mod tree_list;
mod warnings;

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;
#[cfg(unix)]
use ratatui::crossterm::terminal::EnterAlternateScreen;
use ratatui::crossterm::terminal::{Clear, ClearType};

use self::signals::Signals;

pub use app::App;
pub use effect::Effect;
pub use input::{Action, Direction, Mode};
pub use layout::{minimum_size, wide_size};
pub use local_game::Config;
pub use online::OnlineStart;
pub use progress_file::{load_progress, progress_path};
pub use runtime::{Ending, Runtime};
pub use session::{Session, Storage};
pub use settings::{Settings, SettingsFile};
pub use text::{Status, Tone};
pub use theme::{Glyphs, Look, Theme, ThemeName};

/// The longest time between two frames. A terminal that hangs up without a signal reaching us
/// sends no event (crossterm's reader spins on it, see `events`): the loop looks for itself
/// this often; a missed resize shows by then too.
const REFRESH: Duration = Duration::from_millis(500);

/// Why the terminal game stopped with an error.
#[derive(Debug)]
pub enum TuiError {
    /// Standard output is not a terminal.
    NotATerminal,
    /// Reading from or writing to the terminal failed.
    Io(io::Error),
}

impl fmt::Display for TuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuiError::NotATerminal => {
                f.write_str("the game needs a terminal: standard input and output must be one")
            }
            TuiError::Io(e) => write!(f, "terminal error: {e}"),
        }
    }
}

impl std::error::Error for TuiError {}

impl From<io::Error> for TuiError {
    fn from(e: io::Error) -> Self {
        TuiError::Io(e)
    }
}

/// Plays the game in the terminal until the player quits, an ending signal comes or the
/// terminal is gone.
pub fn run(config: Config) -> Result<Ending, TuiError> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let mut runtime = Runtime::new(config)?;
    let signals = Signals::catch(runtime.sender())?;
    let mut terminal = match ratatui::try_init() {
        Ok(terminal) => terminal,
        Err(e) => {
            let _ = ratatui::try_restore();
            return Err(e.into());
        }
    };
    let played =
        MouseCapture::enable().and_then(|_mouse| event_loop(&mut runtime, &mut terminal, &signals));
    restore(terminal);
    match played {
        Ok(ending) => Ok(ending),
        // A hangup can fail the loop on the terminal before the loop sees it (its signal or
        // the terminal gone): the game is saved all the same.
        Err(e) => {
            let ending = match signals.received() {
                Some(signal) => Ending::Signal(signal),
                None if terminal_gone() => Ending::HungUp,
                None => return Err(e.into()),
            };
            runtime.keep_game();
            Ok(ending)
        }
    }
}

/// Gives the terminal back: cursor shown, raw mode off, the main screen. Failures are ignored:
/// after a hangup the terminal is gone and nothing more can be done. (`ratatui::restore` and
/// the terminal's drop would report them with `eprintln!`, which panics when stderr is that
/// gone terminal; so a terminal that cannot show its cursor is forgotten, not dropped.)
fn restore(mut terminal: DefaultTerminal) {
    if terminal.show_cursor().is_err() {
        std::mem::forget(terminal);
    }
    let _ = ratatui::try_restore();
}

/// Mouse reporting and bracketed paste (text pasted comes as one event, typed into the field
/// written in), switched off again when dropped (also while a panic unwinds).
struct MouseCapture;

impl MouseCapture {
    fn enable() -> io::Result<MouseCapture> {
        execute!(io::stdout(), EnableMouseCapture, EnableBracketedPaste)?;
        Ok(MouseCapture)
    }
}

impl Drop for MouseCapture {
    fn drop(&mut self) {
        // Nothing more can be done if the terminal refuses.
        let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture);
    }
}

/// Runs the game until the player quits, an ending signal comes or the terminal is gone; a
/// signal is handled first in every round, before anything more is written to the terminal.
fn event_loop(
    runtime: &mut Runtime,
    terminal: &mut DefaultTerminal,
    signals: &Signals,
) -> io::Result<Ending> {
    events::read_terminal(runtime.sender())?;
    loop {
        // Every event waiting is taken before the next frame.
        if let Some(ending) = runtime.tick(Instant::now())? {
            return Ok(ending);
        }
        if let Some(signal) = signals.received() {
            runtime.keep_game();
            return Ok(Ending::Signal(signal));
        }
        if runtime.app().should_quit() {
            return Ok(Ending::Quit);
        }
        if terminal_gone() {
            runtime.keep_game();
            return Ok(Ending::HungUp);
        }
        if runtime.take_suspend() {
            suspend(terminal)?;
        }
        if runtime.take_redraw() {
            redraw_all(terminal)?;
        }
        runtime.fit(terminal.size()?);
        terminal.draw(|frame| runtime.draw(frame))?;
        if runtime.take_bell() {
            ring_bell()?;
        }
        let refresh = Instant::now() + REFRESH;
        let deadline = runtime
            .next_tick()
            .map_or(refresh, |next| next.min(refresh));
        if let Some(ending) = runtime.wait(deadline)? {
            return Ok(ending);
        }
    }
}

/// Gives the terminal back (mouse reporting off, the main screen, raw mode off, the cursor
/// shown) and stops the program as SIGTSTP would have; once continued (`fg`), takes the
/// terminal again and clears it, so that the next frame draws everything.
#[cfg(unix)]
fn suspend(terminal: &mut DefaultTerminal) -> io::Result<()> {
    execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture)?;
    terminal.show_cursor()?;
    ratatui::try_restore()?;
    signal_hook::low_level::raise(signal_hook::consts::signal::SIGSTOP)?;
    ratatui::crossterm::terminal::enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )?;
    redraw_all(terminal)
}

/// Clears the screen and forgets what is on it, so that the next frame draws everything.
/// (`Terminal::clear` would ask the terminal where its cursor is, an answer the input thread
/// may take.)
fn redraw_all(terminal: &mut DefaultTerminal) -> io::Result<()> {
    execute!(io::stdout(), Clear(ClearType::All))?;
    // The frame drawn last is dropped: the next one is compared with an empty screen.
    terminal.swap_buffers();
    Ok(())
}

/// Elsewhere there is no job control to give the terminal to.
#[cfg(not(unix))]
fn suspend(_terminal: &mut DefaultTerminal) -> io::Result<()> {
    Ok(())
}

/// Rings the terminal's bell (BEL).
fn ring_bell() -> io::Result<()> {
    let mut out = io::stdout();
    out.write_all(b"\x07")?;
    out.flush()
}

/// Whether the terminal hung up without a signal reaching us (our parent ignored it): its
/// size can no longer be asked.
#[cfg(unix)]
fn terminal_gone() -> bool {
    ratatui::crossterm::terminal::window_size().is_err()
}

/// Elsewhere the question cannot be asked this way.
#[cfg(not(unix))]
fn terminal_gone() -> bool {
    false
}
