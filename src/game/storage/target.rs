//! Where a write goes: the file a path names, through any links to it, or the device or FIFO
//! it is; and the folders on the way, created, with a clear message when a file is in the way.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a path to write names.
#[derive(Clone, Eq, PartialEq, Debug)]
pub(super) enum Target {
    /// A regular file, or none yet: this path, with links followed. It is replaced atomically;
    /// the links stay.
    File(PathBuf),
    /// A device, a FIFO or a socket: written through the path as it is, in place (there is
    /// nothing to replace atomically, and replacing it would destroy it).
    Special,
}

/// The most links followed, as Linux's own limit.
const MAX_LINKS: usize = 40;

/// What `path` names for a write. A folder is refused.
pub(super) fn resolve(path: &Path) -> io::Result<Target> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a folder", path.display()),
        )),
        Ok(meta) if !meta.is_file() => Ok(Target::Special),
        Ok(_) if is_link(path) => Ok(Target::File(fs::canonicalize(path)?)),
        Ok(_) => Ok(Target::File(path.to_owned())),
        // A link to a file not there yet: the file it names is created. (Where a file is in
        // the way of a folder, the write says which.)
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            follow_links(path).map(Target::File)
        }
        // Links in a loop, a folder that cannot be read: the write would fail the same way.
        Err(e) => Err(e),
    }
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

/// `path` with its links followed, one after the other, to a name that is not a link.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        if !is_link(&path) {
            return Ok(path);
        }
        let to = fs::read_link(&path)?;
        // A relative link is relative to its folder; an absolute one replaces the path.
        path = match path.parent() {
            Some(folder) => folder.join(to),
            None => to,
        };
    }
    Err(io::Error::other(format!(
        "{}: more than {MAX_LINKS} links in a row",
        path.display()
    )))
}

/// Creates the folder `dir` and those above it as needed. When a file is where a folder
/// should be, the error says which file, in place of the system's "File exists".
pub fn create_folders(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir).map_err(|e| match file_in_the_way(dir) {
        Some(file) => io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is a file, not a folder", file.display()),
        ),
        None => e,
    })
}

/// The first of `dir` and the folders above it, from the top, that is there but is no folder.
fn file_in_the_way(dir: &Path) -> Option<PathBuf> {
    let mut ancestors: Vec<&Path> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .collect();
    ancestors.reverse();
    ancestors
        .into_iter()
        .find(|a| fs::metadata(a).is_ok_and(|m| !m.is_dir()))
        .map(Path::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_the_file_they_name() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        fs::write(&real, "x").unwrap();
        symlink("real.json", dir.path().join("a")).unwrap();
        symlink(dir.path().join("a"), dir.path().join("b")).unwrap();
        let canonical = fs::canonicalize(&real).unwrap();
        for name in ["a", "b"] {
            assert_eq!(
                resolve(&dir.path().join(name)).unwrap(),
                Target::File(canonical.clone())
            );
        }
        assert_eq!(resolve(&real).unwrap(), Target::File(real.clone()));
        // Dangling: the name the last link gives.
        symlink("sub/new.json", dir.path().join("c")).unwrap();
        assert_eq!(
            resolve(&dir.path().join("c")).unwrap(),
            Target::File(dir.path().join("sub/new.json"))
        );
        // A loop is an error, not a hang.
        symlink("loop2", dir.path().join("loop1")).unwrap();
        symlink("loop1", dir.path().join("loop2")).unwrap();
        assert!(resolve(&dir.path().join("loop1")).is_err());
        let folder = resolve(dir.path()).unwrap_err();
        assert!(folder.to_string().ends_with("is a folder"), "{folder}");
        assert_eq!(resolve(Path::new("/dev/null")).unwrap(), Target::Special);
    }

    #[test]
    fn a_file_in_the_way_of_a_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        fs::write(&file, "x").unwrap();
        for wanted in [file.clone(), file.join("a"), file.join("a").join("b")] {
            let err = create_folders(&wanted).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{} is a file, not a folder", file.display())
            );
        }
        create_folders(&dir.path().join("x").join("y")).unwrap();
        assert!(dir.path().join("x").join("y").is_dir());
    }
}
