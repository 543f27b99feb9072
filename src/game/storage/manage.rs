//! Deleting and renaming a listed save, as the list of saves offers: neither touches a file
//! written since it was listed, and a rename never replaces a file.

use std::fmt;
use std::fs;
use std::io;
use std::path::Path;
use std::time::SystemTime;

use super::atomic::hard_link;

/// Why a save was not deleted or renamed. The file is as it was.
#[derive(Debug)]
pub enum ManageError {
    /// The new name is taken by another file.
    Taken,
    /// The file was written (or removed) since it was listed.
    Changed,
    /// The system refused.
    Io(io::Error),
}

impl fmt::Display for ManageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManageError::Taken => f.write_str("a file of that name exists"),
            ManageError::Changed => f.write_str("the file changed since it was listed"),
            ManageError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ManageError {}

/// Whether the file at `path` is still as listed: last written at `listed`.
fn unchanged(path: &Path, listed: Option<SystemTime>) -> Result<(), ManageError> {
    let now = fs::symlink_metadata(path).and_then(|m| m.modified()).ok();
    if listed.is_some() && now == listed {
        Ok(())
    } else {
        Err(ManageError::Changed)
    }
}

/// Deletes the save at `path`, listed as last written at `listed`, if it still is.
pub fn delete_save(path: &Path, listed: Option<SystemTime>) -> Result<(), ManageError> {
    unchanged(path, listed)?;
    fs::remove_file(path).map_err(ManageError::Io)
}

/// Gives the save at `from`, listed as last written at `listed`, the path `to` (in the same
/// file system), if it is still as listed and `to` names no file, even one created a moment
/// ago: the file is linked at `to`, which fails if the name is taken, then unlinked at `from`.
/// Where there are no hard links, `to` is checked, then the file renamed.
pub fn rename_save(from: &Path, to: &Path, listed: Option<SystemTime>) -> Result<(), ManageError> {
    unchanged(from, listed)?;
    let taken = |e: io::Error| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            ManageError::Taken
        } else {
            ManageError::Io(e)
        }
    };
    match hard_link(from, to) {
        Ok(()) => fs::remove_file(from).map_err(ManageError::Io),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(ManageError::Taken),
        Err(_) => {
            if fs::symlink_metadata(to).is_ok() {
                return Err(ManageError::Taken);
            }
            fs::rename(from, to).map_err(taken)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::storage::fail_writes;

    fn modified(path: &Path) -> Option<SystemTime> {
        fs::metadata(path).and_then(|m| m.modified()).ok()
    }

    #[test]
    fn a_save_is_renamed_only_to_a_free_name_and_only_as_listed() {
        for without_hard_links in [false, true] {
            fail_writes::without_hard_links(without_hard_links);
            let dir = tempfile::tempdir().unwrap();
            let [from, taken, to] = ["a.json", "b.json", "c.json"].map(|n| dir.path().join(n));
            fs::write(&from, "a").unwrap();
            fs::write(&taken, "b").unwrap();
            let listed = modified(&from);
            assert!(matches!(
                rename_save(&from, &taken, listed),
                Err(ManageError::Taken)
            ));
            assert_eq!(fs::read_to_string(&taken).unwrap(), "b", "untouched");
            assert!(matches!(
                rename_save(&from, &to, None),
                Err(ManageError::Changed)
            ));
            rename_save(&from, &to, listed).unwrap();
            assert!(!from.exists());
            assert_eq!(fs::read_to_string(&to).unwrap(), "a");
            fail_writes::without_hard_links(false);
        }
    }

    #[test]
    fn a_save_is_deleted_only_as_listed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        fs::write(&path, "a").unwrap();
        let listed = modified(&path).unwrap();
        let earlier = Some(listed - std::time::Duration::from_secs(5));
        assert!(matches!(
            delete_save(&path, earlier),
            Err(ManageError::Changed)
        ));
        assert!(path.exists());
        delete_save(&path, Some(listed)).unwrap();
        assert!(!path.exists());
        assert!(matches!(
            delete_save(&path, Some(listed)),
            Err(ManageError::Changed)
        ));
    }
}
