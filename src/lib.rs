//! Brandubh, the Irish 7×7 tafl game.
//!
//! Layers, bottom to top: [`rules`] (the pure engine), [`game`] (game records), [`ai`] (the
//! engines and the match runner), [`net`] (online play: protocol, server, client), [`tui`]
//! (the terminal game), and [`cli`] (the command-line tools built on them); [`otep`] speaks
//! the OpenTafl Engine Protocol. Below them all, `quote`
//! makes input safe to repeat in messages (control characters escaped, long input cut), and
//! `signals` catches the signals that end the program, for the terminal game and matches.

pub mod ai;
mod capped_lines;
pub mod cli;
pub mod folders;
pub mod game;
pub mod net;
pub mod otep;
pub mod puzzle;
mod quote;
pub mod rules;
mod signals;
pub mod tui;
