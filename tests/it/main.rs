//! The integration tests, in one binary so that the crate is linked once: the rules against
//! the reference tables, the engine, the command line, saves, the terminal game (rendered and
//! through a pseudo-terminal), and the hostile-input suite.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod ai_analysis;
mod ai_bench;
mod ai_external;
mod ai_match;
mod ai_search;
mod cli_ai;
mod cli_analysis;
mod cli_escaping;
mod cli_install;
mod cli_play;
mod cli_rules;
mod e2e;
mod hostile;
mod hostile_tui;
mod import;
mod net;
mod net_bots;
mod net_client_errors;
mod net_ratings;
mod notes_tui;
mod otep;
mod perft;
mod puzzle_solve;
mod puzzles;
mod puzzles_tui;
mod rules_capture;
mod rules_king;
mod rules_moves;
mod rules_outcome;
mod rules_properties;
mod rules_threats;
mod save_load;
mod schema;
mod server_challenges;
mod server_club;
mod server_identity;
mod server_lobby;
mod server_memory;
mod server_ops;
mod server_robustness;
mod storage_faults;
mod tui;
mod tui_analysis;
