//! `brandubh play` (and `brandubh` alone): the terminal game.

use clap::Args;

use super::CliError;
use crate::game::Player;
use crate::rules::Preset;
use crate::tui::{self, Config, Look, ThemeName};

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
    /// Plain ASCII glyphs, for terminals without good Unicode.
    #[arg(long)]
    pub ascii: bool,
    /// Colour theme (colours are off when `NO_COLOR` is set).
    #[arg(long, value_enum, default_value_t = ThemeName::Default)]
    pub theme: ThemeName,
}

impl PlayArgs {
    /// The game's settings; `no_color` is whether `NO_COLOR` asks for no colours.
    pub fn config(&self, no_color: bool) -> Config {
        Config {
            preset: self.rules.unwrap_or_default(),
            attackers: self.attackers.unwrap_or(Player::Human),
            defenders: self.defenders.unwrap_or(Player::Human),
            skip_setup: self.rules.is_some()
                || self.attackers.is_some()
                || self.defenders.is_some(),
            look: Look::new(self.theme, !no_color, self.ascii),
        }
    }
}

/// Whether the environment asks for no colours (`NO_COLOR` set and not empty).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

pub(super) fn run(args: &PlayArgs) -> Result<(), CliError> {
    tui::run(args.config(no_color())).map_err(|e| CliError::new(e.to_string()))
}
