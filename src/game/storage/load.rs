//! Loading a game from a file: a saved game, an OpenTafl game record or a move record, read
//! with a size cap and told apart by content.

use std::path::Path;

use super::read::{ReadError, read_regular_file};
use super::version::FileVersion;
use crate::game::import::{self, Format};
use crate::game::load_error::{LoadError, LoadErrorKind};
use crate::game::record::Game;
use crate::game::save_format::MAX_SAVE_BYTES;

/// Loads the game at `path`: a saved game, an OpenTafl game record or a move record, told
/// apart by content (see [`import::detect`]). Only a regular file of at most
/// [`MAX_SAVE_BYTES`] is read (see [`read_regular_file`]).
pub fn load(path: &Path) -> Result<Game, LoadError> {
    load_with_format(path).map(|loaded| loaded.game)
}

/// A game read from a file, with what the file was.
#[derive(Debug)]
pub struct Loaded {
    /// The game.
    pub game: Game,
    /// Which kind of file it was (a game read from another program's record is saved in a
    /// file of its own, never over the record).
    pub format: Format,
    /// The version of the file read (a save over it asks if another program wrote it since).
    pub version: FileVersion,
}

/// [`load`], also saying which kind of file it was and which version of it was read.
pub fn load_with_format(path: &Path) -> Result<Loaded, LoadError> {
    let in_file = |kind: LoadErrorKind| LoadError::from(kind).in_file(path);
    let (bytes, version) = read_regular_file(path, MAX_SAVE_BYTES).map_err(|e| {
        in_file(match e {
            ReadError::Io(e) => LoadErrorKind::Unreadable(e),
            ReadError::NotAFile => LoadErrorKind::NotAFile,
            ReadError::TooLarge { len, .. } => LoadErrorKind::TooLarge(len),
        })
    })?;
    let (game, format) = import::read(&bytes).map_err(|e| e.in_file(path))?;
    Ok(Loaded {
        game,
        format,
        version,
    })
}
