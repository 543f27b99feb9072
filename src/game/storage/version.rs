//! What a file was when this program last read or wrote it, to tell whether another program
//! (another copy of the game) has written it since.

use std::fs::{self, Metadata};
use std::path::Path;
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

/// Whether `a` and `b` name the same file, through links and other spellings of the path
/// (on Unix, the same device and inode); `false` if either is not there.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let id = |path: &Path| fs::metadata(path).map(|m| (m.dev(), m.ino()));
        matches!((id(a), id(b)), (Ok(a), Ok(b)) if a == b)
    }
    #[cfg(not(unix))]
    {
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_file_is_told_through_another_spelling_and_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.otg");
        fs::write(&file, "x").unwrap();
        fs::write(dir.path().join("b.otg"), "x").unwrap();
        let other_spelling = dir.path().join(".").join("a.otg");
        assert!(same_file(&file, &other_spelling));
        assert!(!same_file(&file, &dir.path().join("b.otg")));
        assert!(!same_file(&file, &dir.path().join("none")));
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert!(same_file(&file, &link));
        }
    }
}
