//! `brandubh help [COMMAND]`: the help of `brandubh` or of one of its commands, the same text
//! as `--help` gives. Ours rather than clap's own, so that `brandubh help --help` explains
//! `help` as every other command explains itself.

use std::io::Write;

use clap::Args;

use super::error::CliError;
use crate::quote::excerpt;

/// Arguments of `brandubh help`.
#[derive(Args, Debug)]
pub struct HelpArgs {
    /// The command to explain; without one, `brandubh` itself.
    ///
    /// `brandubh help COMMAND` prints what `brandubh COMMAND --help` prints.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Writes to `out` the help of `cli`, the whole command line, or of the command asked for.
pub(super) fn run(
    args: &HelpArgs,
    mut cli: clap::Command,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    cli.build();
    let help = match &args.command {
        None => cli.render_long_help(),
        Some(name) => {
            let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
            let refused = CliError::new(format!(
                "help: \"{}\" is not a command ({})",
                excerpt(name),
                names.join(", ")
            ));
            cli.find_subcommand_mut(name)
                .ok_or(refused)?
                .render_long_help()
        }
    };
    write!(out, "{help}")?;
    Ok(())
}
