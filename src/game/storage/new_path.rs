//! The path of a new save, named after a moment (`game-20261129-141339.json`) so that names
//! sort by time and never collide.

use std::fs;
use std::path::{Path, PathBuf};

use crate::game::record::Game;
use crate::game::time::Timestamp;

/// A moment as `20261129-141339`, for file names.
pub(super) fn compact_stamp(time: Timestamp) -> String {
    let stamp = time.to_string();
    let (date, time) = stamp.split_once('T').unwrap_or((&stamp, ""));
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    format!("{}-{}", digits(date), digits(time))
}

/// A path for a new save of `game` in `dir`, named after its creation time
/// (`game-20261129-141339.json`), with `-2`, `-3`... added if that name is taken. Another
/// program may take the name before the save: save with [`save_new`](super::save_new).
pub fn new_save_path(dir: &Path, game: &Game) -> PathBuf {
    let base = format!("game-{}", compact_stamp(game.created()));
    let mut path = dir.join(format!("{base}.json"));
    let mut n = 2;
    while fs::symlink_metadata(&path).is_ok() {
        path = dir.join(format!("{base}-{n}.json"));
        n += 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::storage::save_new;
    use crate::game::storage::tests::game;

    #[test]
    fn default_names_never_collide() {
        let dir = tempfile::tempdir().unwrap();
        let mut g = game(&["d2-c2", "d3-e3"]);
        let created = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        g.set_timestamps(created, created);
        let first = new_save_path(dir.path(), &g);
        assert_eq!(first, dir.path().join("game-20231114-221320.json"));
        save_new(&first, &g).unwrap();
        let second = new_save_path(dir.path(), &g);
        assert_eq!(second, dir.path().join("game-20231114-221320-2.json"));
        save_new(&second, &g).unwrap();
        let third = new_save_path(dir.path(), &g);
        assert_eq!(third, dir.path().join("game-20231114-221320-3.json"));
    }
}
