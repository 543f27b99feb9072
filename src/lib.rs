//! Brandubh, the Irish 7×7 tafl game.
//!
//! Layers, bottom to top: [`rules`] (the pure engine), [`game`] (game records), [`tui`] (the
//! terminal game) and [`cli`] (the command-line tools built on them).

pub mod cli;
pub mod game;
pub mod rules;
pub mod tui;
