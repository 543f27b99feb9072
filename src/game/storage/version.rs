//! What a file was when this program last read or wrote it, to tell whether another program
//! (another copy of the game) has written it since.

use std::fs::Metadata;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

/// A file's version: its size, when it was last written, and on Unix which file it is on
/// disk. An atomic save gives its file a new identity, so two saves in the same tick of a
/// coarse clock still differ.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct FileVersion {
    len: u64,
    modified: Option<SystemTime>,
    /// The device and inode numbers.
    #[cfg(unix)]
    id: (u64, u64),
}

impl FileVersion {
    /// The version of the file `meta` describes.
    pub(super) fn of(meta: &Metadata) -> FileVersion {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        FileVersion {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            id: (meta.dev(), meta.ino()),
        }
    }
}
