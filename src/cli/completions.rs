//! `brandubh completions SHELL`: the shell's completions of every command and option, made by
//! `clap_complete` from the command line's own definitions.

use std::io::Write;

use clap::Args;
use clap_complete::Shell;

use super::error::CliError;

/// Arguments of `brandubh completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for (bash: write them to
    /// ~/.local/share/bash-completion/completions/brandubh).
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes to `out` the completions of `cli`, the whole command line, for the shell asked for.
pub(super) fn run(
    args: &CompletionsArgs,
    mut cli: clap::Command,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let name = cli.get_name().to_owned();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, name, &mut script);
    out.write_all(&script)?;
    Ok(())
}
