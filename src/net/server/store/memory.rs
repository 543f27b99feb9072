//! What the server remembers for its players beyond the moves (schema version 7): each
//! game's chat (its newest [`CHAT_KEPT`] lines), the games that ended while a player was
//! away and that it has not downloaded yet, when each turn began and when the server was last
//! alive (so that a restart charges the player to move the time used before it).

use rusqlite::{Connection, OptionalExtension, params};

use super::sql::{StoreResult, count, execute, id, json};
use super::{Store, StoredGame, Unreadable};
use crate::game::ChatLine;
use crate::net::protocol::{CHAT_LOG_BYTES, CHAT_LOG_LINES, Channel, ChatEntry, GameId};

/// The most chat lines kept per game (the oldest go).
pub const CHAT_KEPT: usize = CHAT_LOG_LINES;

/// The most games ended while a player was away told on its next connection (the newest).
pub const AWAY_TOLD: usize = 20;

/// The tables and the column of schema version 7, made if missing.
pub(super) fn migrate(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS chat (
             game INTEGER NOT NULL, seq INTEGER NOT NULL, channel TEXT NOT NULL,
             name TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (game, seq));
         CREATE TABLE IF NOT EXISTS undelivered (
             key TEXT NOT NULL, game INTEGER NOT NULL, PRIMARY KEY (key, game));
         CREATE TABLE IF NOT EXISTS alive (
             id INTEGER PRIMARY KEY CHECK (id = 0), at INTEGER NOT NULL);",
    )?;
    let has_turn_began: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info('games') WHERE name = 'turn_began')",
        [],
        |r| r.get(0),
    )?;
    if !has_turn_began {
        tx.execute_batch("ALTER TABLE games ADD COLUMN turn_began INTEGER")?;
    }
    Ok(())
}

/// Now, in milliseconds since the Unix epoch: when a turn began, or the server was alive.
pub fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

const fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Players => "players",
        Channel::Spectators => "spectators",
    }
}

/// The most bytes of chat text (names and lines) a finished game's save carries: the
/// newest lines within it, so that the save stays within a line of the protocol.
pub const CHAT_SAVED_BYTES: usize = 16 * 1024;

/// The chat of `game` as its save keeps it: every line, the newest within
/// [`CHAT_SAVED_BYTES`].
pub fn saved_chat(db: &Connection, game: GameId) -> StoreResult<Vec<ChatLine>> {
    let lines = chat_lines(db, game, false, CHAT_SAVED_BYTES)?;
    Ok(lines
        .into_iter()
        .map(|line| ChatLine {
            from: line.from,
            text: line.text,
            spectators: line.channel == Channel::Spectators,
        })
        .collect())
}

/// The chat of `game` a receiver may see (the players' lines only, or every line), oldest
/// first: its newest lines, at most [`CHAT_LOG_LINES`] and [`CHAT_LOG_BYTES`] of names and
/// text.
pub fn chat_log(db: &Connection, game: GameId, players_only: bool) -> StoreResult<Vec<ChatEntry>> {
    chat_lines(db, game, players_only, CHAT_LOG_BYTES)
}

/// The newest chat lines of `game` (the players' only, or all), at most [`CHAT_LOG_LINES`]
/// and `budget` bytes of names and text, oldest first.
fn chat_lines(
    db: &Connection,
    game: GameId,
    players_only: bool,
    budget: usize,
) -> StoreResult<Vec<ChatEntry>> {
    let mut query = db.prepare_cached(
        "SELECT name, channel, text FROM chat WHERE game = ?1 AND (channel = 'players' OR NOT ?2)
         ORDER BY seq DESC LIMIT ?3",
    )?;
    let rows = query.query_map(
        params![id(game), players_only, count(CHAT_LOG_LINES)],
        |r| {
            let channel = if r.get::<_, String>(1)? == "players" {
                Channel::Players
            } else {
                Channel::Spectators
            };
            Ok(ChatEntry {
                from: r.get(0)?,
                channel,
                text: r.get(2)?,
            })
        },
    )?;
    let mut lines = Vec::new();
    let mut bytes = 0;
    for line in rows {
        let line = line?;
        bytes += line.from.len() + line.text.len();
        if bytes > budget {
            break;
        }
        lines.push(line);
    }
    lines.reverse();
    Ok(lines)
}

impl Store {
    /// Stores a chat line of `game`; the oldest beyond [`CHAT_KEPT`] go.
    pub fn add_chat(&mut self, game: GameId, line: &ChatEntry) -> StoreResult<()> {
        self.writable()?;
        let tx = self.db.transaction()?;
        let seq: i64 = tx
            .prepare_cached("SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game = ?1")?
            .query_row([id(game)], |r| r.get(0))?;
        execute(
            &tx,
            "INSERT INTO chat (game, seq, channel, name, text) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                id(game),
                seq,
                channel_name(line.channel),
                line.from,
                line.text
            ],
        )?;
        execute(
            &tx,
            "DELETE FROM chat WHERE game = ?1 AND seq <= ?2",
            params![id(game), seq - count(CHAT_KEPT)],
        )?;
        tx.commit()
    }

    /// The chat of `game` a receiver may see, as [`chat_log`] reads it.
    pub fn chat_log(&self, game: GameId, players_only: bool) -> StoreResult<Vec<ChatEntry>> {
        chat_log(&self.db, game, players_only)
    }

    /// Notes that `game` ended while the player of `key` was away: told on its next
    /// connection.
    pub fn note_away(&self, game: GameId, key: &str) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "INSERT INTO undelivered (key, game) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            params![key, id(game)],
        )?;
        Ok(())
    }

    /// The games that ended while the player of `key` was away and that it has not
    /// downloaded since, the newest [`AWAY_TOLD`] oldest first (the older ones are dropped:
    /// the archive has them).
    pub fn away_games(&mut self, key: &str) -> StoreResult<Vec<GameId>> {
        self.writable()?;
        let tx = self.db.transaction()?;
        let mut games: Vec<GameId> = tx
            .prepare_cached(
                "SELECT game FROM undelivered WHERE key = ?1 ORDER BY game DESC LIMIT ?2",
            )?
            .query_map(params![key, count(AWAY_TOLD)], |r| {
                r.get::<_, i64>(0).map(i64::unsigned_abs)
            })?
            .collect::<Result<_, _>>()?;
        if let Some(&oldest) = games.last() {
            execute(
                &tx,
                "DELETE FROM undelivered WHERE key = ?1 AND game < ?2",
                params![key, id(oldest)],
            )?;
        }
        tx.commit()?;
        games.reverse();
        Ok(games)
    }

    /// The player of `key` downloaded `game`: no longer told it ended while it was away.
    pub fn delivered(&self, key: &str, game: GameId) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "DELETE FROM undelivered WHERE key = ?1 AND game = ?2",
            params![key, id(game)],
        )?;
        Ok(())
    }

    /// Notes that the server is alive now (a cheap write of one row).
    pub fn note_alive(&self, at: i64) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "INSERT INTO alive (id, at) VALUES (0, ?1) ON CONFLICT (id) DO UPDATE SET at = ?1",
            [at],
        )?;
        Ok(())
    }

    /// Finished game `game`, read back or not; `None` if there is no such finished game.
    pub fn finished(&self, game: GameId) -> StoreResult<Option<Result<StoredGame, Unreadable>>> {
        super::read::finished(&self.db, game)
    }

    /// When the server was last noted alive, if ever.
    pub fn last_alive(&self) -> StoreResult<Option<i64>> {
        self.db
            .query_row("SELECT at FROM alive WHERE id = 0", [], |r| r.get(0))
            .optional()
    }

    /// When the turn of `game` began, if stored.
    pub fn turn_began(&self, game: GameId) -> StoreResult<Option<i64>> {
        Ok(self
            .db
            .query_row(
                "SELECT turn_began FROM games WHERE id = ?1",
                [id(game)],
                |r| r.get::<_, Option<i64>>(0),
            )
            .optional()?
            .flatten())
    }

    /// Stores the clocks of `game` charged on a restart, its turn beginning again at `at`.
    pub fn charged(&self, game: GameId, clocks: &crate::game::Clocks, at: i64) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "UPDATE games SET clocks = ?2, turn_began = ?3 WHERE id = ?1",
            params![id(game), json(clocks)?, at],
        )?;
        Ok(())
    }
}
