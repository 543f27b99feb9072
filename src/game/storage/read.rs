//! Reading a file a user names (a saved game, another program's record, the settings): the one
//! way every such file is read. Only a regular file is read, and never more than a size cap;
//! a FIFO, a device or a folder is refused without waiting on it.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use super::version::FileVersion;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The system refused to open or read it (it may not exist: [`io::ErrorKind::NotFound`]).
    Io(io::Error),
    /// It is a folder, a device, a FIFO or a socket, not a regular file.
    NotAFile,
    /// It is larger than the cap.
    TooLarge {
        /// Its size, or the cap and one byte if it grew while it was read.
        len: u64,
        /// The cap.
        max: u64,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read the file: {e}"),
            ReadError::NotAFile => f.write_str("not a file (a folder, a device or a FIFO?)"),
            ReadError::TooLarge { len, max } => {
                write!(f, "the file has {len} bytes, larger than {max} bytes")
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl From<ReadError> for io::Error {
    /// The system's error as it is; a file that is not one, or too large, as invalid data.
    fn from(e: ReadError) -> io::Error {
        match e {
            ReadError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
        }
    }
}

/// Reads the regular file at `path`, at most `max_bytes` long, and says which version of it
/// was read. Anything else at `path` is refused before it is opened, and again on the opened
/// handle (the path may change in between): it is opened without waiting, so that a FIFO
/// without a writer cannot hang the program.
pub fn read_regular_file(path: &Path, max_bytes: u64) -> Result<(Vec<u8>, FileVersion), ReadError> {
    let regular = |meta: &fs::Metadata| {
        if !meta.is_file() {
            return Err(ReadError::NotAFile);
        }
        if meta.len() > max_bytes {
            return Err(ReadError::TooLarge {
                len: meta.len(),
                max: max_bytes,
            });
        }
        Ok(FileVersion::of(meta))
    };
    regular(&fs::metadata(path).map_err(ReadError::Io)?)?;
    let file = open_without_waiting(path).map_err(ReadError::Io)?;
    let version = regular(&file.metadata().map_err(ReadError::Io)?)?;
    let bytes = read_capped(file, max_bytes).map_err(ReadError::Io)?;
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > max_bytes {
        return Err(ReadError::TooLarge {
            len,
            max: max_bytes,
        });
    }
    Ok((bytes, version))
}

/// Opens `path` for reading; on Unix without waiting for a writer, should it be a FIFO.
fn open_without_waiting(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads one byte over `max_bytes` at most: a file may grow after it was measured, and the
/// extra byte tells that it did.
fn read_capped(file: impl Read, max_bytes: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_grows_after_it_was_measured_is_read_one_byte_over_the_cap() {
        let grown = io::repeat(b' ').take(200);
        assert_eq!(read_capped(grown, 100).unwrap().len(), 101);
        assert_eq!(read_capped(&b"{}"[..], 100).unwrap(), b"{}");
    }

    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        fs::write(&path, "0123456789").unwrap();
        let (bytes, version) = read_regular_file(&path, 10).unwrap();
        assert_eq!(bytes, b"0123456789");
        assert_eq!(version, FileVersion::of(&fs::metadata(&path).unwrap()));
        assert!(matches!(
            read_regular_file(&path, 9),
            Err(ReadError::TooLarge { len: 10, max: 9 })
        ));
        assert!(matches!(
            read_regular_file(dir.path(), 10),
            Err(ReadError::NotAFile)
        ));
        let missing = read_regular_file(&dir.path().join("none"), 10);
        assert!(
            matches!(&missing, Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound),
            "{missing:?}"
        );
    }
}
