//! Brandubh, the Irish 7×7 tafl game.
//!
//! Layers, bottom to top: [`rules`] (the pure engine) and [`cli`] (the command-line tools
//! built on it).

pub mod cli;
pub mod rules;
