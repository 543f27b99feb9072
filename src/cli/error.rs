//! The error of a failed command: one line saying what and where, and whether it is only
//! that the reader of our output went away.

use std::fmt;
use std::io;

use crate::quote::{MESSAGE_CHARS, escaped};

/// A failed command: one line saying what and where. The process exits with code 2.
#[derive(Debug)]
pub struct CliError {
    message: String,
    broken_pipe: bool,
}

impl CliError {
    /// An error with this message; control characters in it (from the input it quotes) are
    /// escaped, so that printing it cannot drive the terminal.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError {
            message: escaped(&message.into(), MESSAGE_CHARS),
            broken_pipe: false,
        }
    }

    /// Whether the error is only that the reader of our output went away (`| head`):
    /// nothing to report then.
    pub const fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError {
            broken_pipe: e.kind() == io::ErrorKind::BrokenPipe,
            message: format!("cannot write output: {e}"),
        }
    }
}
