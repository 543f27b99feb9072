//! What online play remembers between runs: the servers the player played on, newest first,
//! the name it goes by on each, and the players muted on each, in a small JSON file in the
//! config folder beside the settings (the identity key and the pinned server keys are the
//! client's own files there).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::storage::{create_folders, read_regular_file, write_json_atomic};

/// The file's name in the config folder.
pub const ONLINE_FILE: &str = "online.json";
/// The most servers remembered.
const MAX_SERVERS: usize = 10;
/// The largest file read.
const MAX_BYTES: u64 = 64 * 1024;

/// The servers, newest first, and the name played under on each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineMemory {
    /// The one name of the files written before names were kept per server: the name on a
    /// server that has none of its own. Read, never written anew.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `HOST:PORT` of the servers played on, the last one first.
    pub servers: Vec<String>,
    /// The name played under on each server (`HOST:PORT`), for the servers listed.
    pub names: BTreeMap<String, String>,
    /// The names muted on each server (`HOST:PORT`): their chat is not shown.
    pub muted: BTreeMap<String, BTreeSet<String>>,
}

impl OnlineMemory {
    /// What the file in `dir` holds; nothing if it is missing or cannot be read (a file
    /// that cannot be read is written anew at the next change).
    pub fn load(dir: &Path) -> OnlineMemory {
        read_regular_file(&file(dir), MAX_BYTES)
            .ok()
            .and_then(|(bytes, _)| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// The name to play under on `server` (`HOST:PORT`): its own, else the one name of an
    /// older file.
    pub fn name_for(&self, server: &str) -> Option<String> {
        self.names.get(server).or(self.name.as_ref()).cloned()
    }

    /// These memories with `server` played on now under `name`: first in the list, once,
    /// with that name.
    #[must_use]
    pub fn played(mut self, server: &str, name: &str) -> OnlineMemory {
        self.servers.retain(|s| s != server);
        self.servers.insert(0, server.to_owned());
        self.servers.truncate(MAX_SERVERS);
        self.names.insert(server.to_owned(), name.to_owned());
        let servers = &self.servers;
        self.names.retain(|s, _| servers.contains(s));
        self
    }

    /// Remembers in the file in `dir` that `name` played on `server` now: what it holds is
    /// read, changed and written again (on the storage thread, never the screen's).
    pub fn remember_played(dir: &Path, server: &str, name: &str) -> Result<(), String> {
        OnlineMemory::load(dir).played(server, name).store(dir)
    }

    /// Remembers in the file in `dir` that `names` are muted on `server` (none: the server
    /// is forgotten there): read, changed and written again, on the storage thread.
    pub fn remember_muted(dir: &Path, server: &str, names: BTreeSet<String>) -> Result<(), String> {
        let mut memory = OnlineMemory::load(dir);
        if names.is_empty() {
            memory.muted.remove(server);
        } else {
            memory.muted.insert(server.to_owned(), names);
        }
        memory.store(dir)
    }

    /// Writes the file in `dir` (atomically, as saves are).
    fn store(&self, dir: &Path) -> Result<(), String> {
        create_folders(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        write_json_atomic(&file(dir), self).map_err(|e| e.to_string())
    }
}

/// The file in `dir`.
fn file(dir: &Path) -> PathBuf {
    dir.join(ONLINE_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_muted_are_remembered_per_server_beside_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        OnlineMemory::remember_played(dir.path(), "a:7343", "ann").unwrap();
        let names = BTreeSet::from(["bob".to_owned()]);
        OnlineMemory::remember_muted(dir.path(), "a:7343", names.clone()).unwrap();
        let memory = OnlineMemory::load(dir.path());
        assert_eq!(memory.muted.get("a:7343"), Some(&names));
        assert_eq!(memory.muted.get("b:7343"), None);
        assert_eq!(
            memory.name_for("a:7343").as_deref(),
            Some("ann"),
            "the rest kept"
        );
        OnlineMemory::remember_muted(dir.path(), "a:7343", BTreeSet::new()).unwrap();
        assert!(OnlineMemory::load(dir.path()).muted.is_empty());
    }

    #[test]
    fn the_last_server_played_on_comes_first_once_and_survives_a_new_run() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(OnlineMemory::load(dir.path()), OnlineMemory::default());
        let memory = OnlineMemory::default()
            .played("a:7343", "ann")
            .played("b:7343", "ann")
            .played("a:7343", "bea");
        assert_eq!(memory.servers, ["a:7343", "b:7343"]);
        assert_eq!(memory.name_for("a:7343").as_deref(), Some("bea"));
        assert_eq!(memory.name_for("b:7343").as_deref(), Some("ann"));
        assert_eq!(memory.name_for("c:7343"), None);
        memory.store(dir.path()).unwrap();
        assert_eq!(OnlineMemory::load(dir.path()), memory);
        OnlineMemory::remember_played(dir.path(), "c:7343", "cy").unwrap();
        let remembered = OnlineMemory::load(dir.path());
        assert_eq!(remembered.servers, ["c:7343", "a:7343", "b:7343"]);
        assert_eq!(remembered.name_for("c:7343").as_deref(), Some("cy"));
        assert_eq!(remembered.name_for("a:7343").as_deref(), Some("bea"));
        // JSON, but not what is remembered.
        write_json_atomic(&dir.path().join(ONLINE_FILE), &"not memories").unwrap();
        assert_eq!(OnlineMemory::load(dir.path()), OnlineMemory::default());
    }

    #[test]
    fn each_server_has_its_own_name_and_an_old_file_s_one_name_is_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let old = r#"{"name": "ann", "servers": ["a:7343", "b:7343"]}"#;
        std::fs::write(dir.path().join(ONLINE_FILE), old).unwrap();
        let memory = OnlineMemory::load(dir.path());
        assert_eq!(memory.name_for("a:7343").as_deref(), Some("ann"));
        OnlineMemory::remember_played(dir.path(), "b:7343", "bob").unwrap();
        let memory = OnlineMemory::load(dir.path());
        assert_eq!(memory.name_for("b:7343").as_deref(), Some("bob"));
        assert_eq!(memory.name_for("a:7343").as_deref(), Some("ann"));
        assert_eq!(memory.name_for("new:7343").as_deref(), Some("ann"));
        // A server dropped from the list takes its name along.
        let mut memory = OnlineMemory::default();
        for n in 0..=MAX_SERVERS {
            memory = memory.played(&format!("s{n}:1"), "x");
        }
        assert_eq!(memory.names.len(), MAX_SERVERS);
        assert_eq!(memory.name_for("s0:1"), None);
    }
}
