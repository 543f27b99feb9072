//! The folders a command writes into, made with a clear line when they cannot be.

use std::path::Path;

use super::error::CliError;
use crate::game::storage::create_folders;
use crate::quote::quoted_path;

/// Makes the folder `dir` a command writes into (given as `named`, such as `--save-dir `),
/// and those on the way; a file where one should be is named in one clear line.
pub(super) fn make_folder(dir: &Path, named: &str) -> Result<(), CliError> {
    create_folders(dir).map_err(|e| CliError::new(format!("{named}{}: {e}", quoted_path(dir))))
}
