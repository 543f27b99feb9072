//! The rule preset and start position options (`--rules`, `--position`) several commands
//! share.

use clap::Args;

use super::error::CliError;
use super::parsers::preset_parser;
use crate::quote::excerpt;
use crate::rules::{Position, Preset, Rules};

/// The rule preset and start position shared by several commands.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule preset.
    #[arg(long, value_parser = preset_parser(), default_value_t = Preset::Standard)]
    pub rules: Preset,
    /// Start position string, rank 1 first, e.g. "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
}

impl RulesArgs {
    /// The rules and the parsed start position (the standard one if none was given).
    pub fn resolve(&self) -> Result<(Rules, Position), CliError> {
        let position = match &self.position {
            None => Position::start(),
            Some(text) => text
                .parse()
                .map_err(|e| CliError::new(format!("--position \"{}\": {e}", excerpt(text))))?,
        };
        Ok((self.rules.rules(), position))
    }
}
