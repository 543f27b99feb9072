//! The club's tables (migration 9): the lobby's chat, its last lines kept, and the players
//! each key blocks. Written on the hub's connection, as every change.

use rusqlite::params;

use super::Store;
use super::sql::{StoreResult, count, execute};
use crate::net::protocol::club::{LOBBY_CHAT_KEPT, LobbyLine};

/// The club's tables, made by migration 9 (idempotent).
pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS lobby_chat (
        id INTEGER PRIMARY KEY, key TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,
        said TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS blocks (
        blocker TEXT NOT NULL, blocked TEXT NOT NULL, name TEXT NOT NULL,
        PRIMARY KEY (blocker, blocked));";

/// A block: who blocks (a key), whom (a key), and the name it was blocked by.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(in crate::net::server) struct Block {
    pub blocker: String,
    pub blocked: String,
    pub name: String,
}

impl Store {
    /// Stores a line of the lobby's chat said by `key` (as `line.from`), and keeps only
    /// the last [`LOBBY_CHAT_KEPT`].
    pub fn add_lobby_line(&mut self, key: &str, line: &LobbyLine) -> StoreResult<()> {
        self.writable()?;
        let tx = self.db.transaction()?;
        execute(
            &tx,
            "INSERT INTO lobby_chat (key, name, text, said) VALUES (?1, ?2, ?3, ?4)",
            params![
                key,
                line.from,
                line.text,
                jiff::Timestamp::now().to_string()
            ],
        )?;
        execute(
            &tx,
            "DELETE FROM lobby_chat WHERE id <= (SELECT MAX(id) FROM lobby_chat) - ?1",
            [count(LOBBY_CHAT_KEPT)],
        )?;
        tx.commit()
    }

    /// The lobby's chat kept, oldest first, each with its author's key.
    pub fn lobby_lines(&self) -> StoreResult<Vec<(String, LobbyLine)>> {
        self.db
            .prepare_cached("SELECT key, name, text FROM lobby_chat ORDER BY id DESC LIMIT ?1")?
            .query_map([count(LOBBY_CHAT_KEPT)], |r| {
                Ok((
                    r.get(0)?,
                    LobbyLine {
                        from: r.get(1)?,
                        text: r.get(2)?,
                    },
                ))
            })?
            .collect::<Result<Vec<_>, _>>()
            .map(|mut lines| {
                lines.reverse();
                lines
            })
    }

    /// The key holding `name`, if one does.
    pub fn key_of(&self, name: &str) -> StoreResult<Option<String>> {
        let mut query = self
            .db
            .prepare_cached("SELECT key FROM names WHERE name = ?1")?;
        let mut rows = query.query([name])?;
        rows.next()?.map(|r| r.get(0)).transpose()
    }

    /// Stores `block`, or lifts it (`on` false).
    pub fn set_block(&self, block: &Block, on: bool) -> StoreResult<()> {
        self.writable()?;
        if on {
            execute(
                &self.db,
                "INSERT INTO blocks (blocker, blocked, name) VALUES (?1, ?2, ?3)
                 ON CONFLICT (blocker, blocked) DO UPDATE SET name = excluded.name",
                params![block.blocker, block.blocked, block.name],
            )?;
        } else {
            execute(
                &self.db,
                "DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2",
                params![block.blocker, block.blocked],
            )?;
        }
        Ok(())
    }

    /// Every block stored.
    pub fn blocks(&self) -> StoreResult<Vec<Block>> {
        self.db
            .prepare_cached("SELECT blocker, blocked, name FROM blocks")?
            .query_map([], |r| {
                Ok(Block {
                    blocker: r.get(0)?,
                    blocked: r.get(1)?,
                    name: r.get(2)?,
                })
            })?
            .collect()
    }
}
