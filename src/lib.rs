//! Brandubh, the Irish 7×7 tafl game.
//!
//! Layers, bottom to top: [`rules`] (the pure engine), [`game`] (game records), [`ai`] (the
//! engines and the match runner), and [`cli`] (the command-line tools built on them).

pub mod ai;
pub mod cli;
pub mod game;
pub mod otep;
pub mod rules;
