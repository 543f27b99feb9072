//! `brandubh manpage`: the manual pages in roff, made by `clap_mangen` from the command line's
//! own definitions: `brandubh`'s page printed (`brandubh manpage | man -l -` to read it), or
//! with `--dir`, it and one page a command written into a folder.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use super::folder::make_folder;
use crate::quote::quoted_path;

/// Arguments of `brandubh manpage`.
#[derive(Args, Debug)]
pub struct ManpageArgs {
    /// Write `brandubh.1` and a page for each command (`brandubh-play.1`, ...) into DIR,
    /// e.g. ~/.local/share/man/man1, instead of printing `brandubh`'s page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Prints the page of `cli`, the whole command line, or writes its pages into the folder asked
/// for.
pub(super) fn run(
    args: &ManpageArgs,
    cli: clap::Command,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match &args.dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cli).render(&mut page)?;
            out.write_all(&page)?;
        }
        Some(dir) => {
            make_folder(dir, "--dir ")?;
            clap_mangen::generate_to(cli, dir)
                .map_err(|e| CliError::new(format!("--dir {}: {e}", quoted_path(dir))))?;
        }
    }
    Ok(())
}
