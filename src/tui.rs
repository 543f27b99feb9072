//! The terminal game: a ratatui interface over the game record, with the AI on a worker thread.
//!
//! [`run`] owns the terminal through [`ratatui::run`] (raw mode, alternate screen, restored on
//! quit, error and panic). The loop draws, waits briefly for a key, a click or a resize, maps
//! it to an [`Action`] with the pure [`input::action`], and hands it to [`App::update`].

mod app;
mod board_view;
mod dialogs;
pub mod input;
mod layout;
mod panels;
mod position_field;
mod review;
mod screens;
mod session;
mod theme;
mod worker;

use std::fmt;
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

pub use app::{App, Config, Status, Tone};
pub use input::{Action, Direction, Mode};
pub use layout::minimum_size;
pub use session::{Session, Storage};
pub use theme::{Glyphs, Look, Theme, ThemeName};

/// How long the loop waits for input before it looks at the AI again.
const POLL: Duration = Duration::from_millis(30);
/// The longest time between two frames, so that a missed resize still shows soon.
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

/// Plays the game in the terminal until the player quits.
pub fn run(config: Config) -> Result<(), TuiError> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let mut app = App::new(config);
    ratatui::run(|terminal| {
        let _mouse = MouseCapture::enable()?;
        event_loop(&mut app, terminal)
    })?;
    Ok(())
}

/// Mouse reporting, switched off again when dropped (also while a panic unwinds).
struct MouseCapture;

impl MouseCapture {
    fn enable() -> io::Result<MouseCapture> {
        execute!(io::stdout(), EnableMouseCapture)?;
        Ok(MouseCapture)
    }
}

impl Drop for MouseCapture {
    fn drop(&mut self) {
        // Nothing more can be done if the terminal refuses.
        let _ = execute!(io::stdout(), DisableMouseCapture);
    }
}

fn event_loop(app: &mut App, terminal: &mut DefaultTerminal) -> io::Result<()> {
    let mut redraw = true;
    let mut drawn = Instant::now();
    loop {
        if redraw || drawn.elapsed() >= REFRESH {
            terminal.draw(|frame| app.draw(frame))?;
            redraw = false;
            drawn = Instant::now();
        }
        if app.should_quit() {
            return Ok(());
        }
        redraw |= app.tick(Instant::now());
        if event::poll(POLL)? {
            // Handle every pending event (a resize too) before drawing again.
            loop {
                let ev = event::read()?;
                if let Some(action) = input::action(&ev, app.mode()) {
                    app.update(action);
                }
                if app.should_quit() || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
            redraw = true;
        }
    }
}
