//! `brandubh play` (and `brandubh` alone): the terminal game.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::CliError;
use crate::game::storage::{SAVE_DIR_ENV, latest_unfinished};
use crate::game::{Player, parse_start};
use crate::quote::excerpt;
use crate::rules::{Position, Preset};
use crate::tui::{self, Config, Ending, Look, Session, Storage, ThemeName};

/// Arguments of `brandubh play`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayArgs {
    /// Rule preset (skips the new-game screen).
    #[arg(long, value_enum)]
    pub rules: Option<Preset>,
    /// Who plays the attackers: human, ai, ai:LEVEL (easy|medium|hard|max) or random.
    #[arg(long, value_name = "PLAYER")]
    pub attackers: Option<Player>,
    /// Who plays the defenders: human, ai, ai:LEVEL (easy|medium|hard|max) or random.
    #[arg(long, value_name = "PLAYER")]
    pub defenders: Option<Player>,
    /// Start from this position (skips the new-game screen): rank 1 first, then the side to
    /// move, e.g. "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// Continue the game in FILE (a saved game, an OpenTafl `.otg` record or a move record).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "rules", "attackers", "defenders", "position"])]
    pub load: Option<PathBuf>,
    /// Continue the latest unfinished game in the save folder (autosaved or saved).
    #[arg(long, conflicts_with_all = ["rules", "attackers", "defenders", "position"])]
    pub resume: bool,
    /// Folder for saves and autosaves (instead of `BRANDUBH_SAVE_DIR` or the data folder).
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// Plain ASCII glyphs, for terminals without good Unicode.
    #[arg(long)]
    pub ascii: bool,
    /// Colour theme (colours are off when `NO_COLOR` is set).
    #[arg(long, value_enum, default_value_t = ThemeName::Default)]
    pub theme: ThemeName,
    /// Ring the terminal's bell when the AI has moved and when a game ends (`b` toggles it).
    #[arg(long)]
    pub bell: bool,
}

impl PlayArgs {
    /// The game's settings, with games saved in `storage`; `no_color` is whether `NO_COLOR`
    /// asks for no colours. A game to load that cannot be loaded is an error.
    pub fn config(&self, storage: Storage, no_color: bool) -> Result<Config, CliError> {
        let resume = match (&self.load, self.resume) {
            (Some(path), _) => Some(Session::load(path).map_err(|e| CliError::new(e.to_string()))?),
            (None, true) => Some(resume_latest(&storage)?),
            (None, false) => None,
        };
        let preset = self.rules.unwrap_or_default();
        let start = match &self.position {
            Some(text) => parse_start(&preset.rules(), text)
                .map_err(|e| CliError::new(format!("--position \"{}\": {e}", excerpt(text))))?,
            None => Position::start(),
        };
        Ok(Config {
            preset,
            start,
            attackers: self.attackers.unwrap_or(Player::Human),
            defenders: self.defenders.unwrap_or(Player::Human),
            skip_setup: self.rules.is_some()
                || self.position.is_some()
                || self.attackers.is_some()
                || self.defenders.is_some(),
            resume,
            storage,
            look: Look::new(self.theme, !no_color, self.ascii),
            bell: self.bell,
            ..Config::default()
        })
    }
}

/// The latest unfinished game in the save folder, autosaved or saved, for `--resume`.
fn resume_latest(storage: &Storage) -> Result<Session, CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::new(format!("--resume: {e}"));
    let dir = storage.save_dir.as_deref().ok_or_else(|| {
        fail(&format!(
            "no save folder (set {SAVE_DIR_ENV} or HOME, or use --save-dir)"
        ))
    })?;
    let entry = latest_unfinished(dir, &[])
        .map_err(|e| fail(&e))?
        .ok_or_else(|| fail(&format!("no unfinished game in {}", dir.display())))?;
    Session::open(&entry).map_err(|e| fail(&e))
}

/// Whether the environment asks for no colours (`NO_COLOR` set and not empty).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

pub(super) fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let storage = args
        .save_dir
        .clone()
        .map_or_else(Storage::default_places, Storage::in_dir);
    let config = args.config(storage, no_color())?;
    tui::run(config)
        .map(Ending::exit_code)
        .map_err(|e| CliError::new(e.to_string()))
}
