//! The schema and its migrations: the version in `PRAGMA user_version`, each step from a
//! version to the next in one transaction.

use rusqlite::{Connection, params};

use crate::net::server::names::look_alike_forms;

/// The schema's version, in `PRAGMA user_version`: 1 the `names` table (a database of the
/// first schema, version 0 with a `players` table, is moved to it), 2 the names' look-alike
/// forms and last use, 3 the indexes of finished games by player (the archive's pages),
/// 4 the ratings and their history (`store/ratings.rs`; their bots' pools at every start),
/// 6 the names' bot mark, 7 the chat, the games ended while a player was away, when each
/// turn began and when the server was last alive (`store/memory.rs`), 9 the lobby's chat and
/// the players' blocks (the club, `store/club.rs`).
const SCHEMA_VERSION: i64 = 9;

/// Brings the schema to [`SCHEMA_VERSION`] in one transaction, and writes the version even
/// when it is there already: a database the server cannot write stops it at start, not at
/// the first player.
pub(super) fn migrate(db: &mut Connection) -> rusqlite::Result<()> {
    let version: i64 = db.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let tx = db.transaction()?;
    if version < 1 {
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS names (
                 name TEXT PRIMARY KEY, key TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS games (
                 id INTEGER PRIMARY KEY, setup TEXT NOT NULL,
                 creator_key TEXT NOT NULL, creator_name TEXT NOT NULL, code TEXT UNIQUE,
                 attackers_key TEXT, attackers_name TEXT,
                 defenders_key TEXT, defenders_name TEXT,
                 stage TEXT NOT NULL, clocks TEXT, outcome TEXT, created TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS moves (
                 game INTEGER NOT NULL, ply INTEGER NOT NULL, mv TEXT NOT NULL,
                 PRIMARY KEY (game, ply));",
        )?;
        migrate_players(&tx)?;
    }
    if version < 2 {
        migrate_names(&tx, jiff::Timestamp::now().as_second())?;
    }
    if version < 3 {
        tx.execute_batch(
            "CREATE INDEX IF NOT EXISTS games_over_by_attackers
                 ON games (attackers_name, id) WHERE stage = 'over';
             CREATE INDEX IF NOT EXISTS games_over_by_defenders
                 ON games (defenders_name, id) WHERE stage = 'over';",
        )?;
    }
    // Steps 4, 6 and 7 at every start (each makes only what is missing): a database
    // numbered past them by a build made without them gets them too.
    super::ratings::migrate(&tx)?;
    add_bot_mark(&tx)?;
    super::memory::migrate(&tx)?;
    if version < 9 {
        tx.execute_batch(super::club::SCHEMA)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION.max(version))?;
    tx.commit()
}

/// Moves the names of a database of the first schema (version 0) into `names`: its
/// `players` table held one name per key (a key taking a new name freed its old one). Each
/// name goes to the key that holds it there, then each name its games show to the key that
/// played under it (a name freed but never taken again stays with its first key, as names
/// now do).
fn migrate_players(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let old: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'players')",
        [],
        |r| r.get(0),
    )?;
    if !old {
        return Ok(());
    }
    tx.execute_batch(
        "INSERT INTO names (name, key) SELECT name, key FROM players WHERE true
             ON CONFLICT (name) DO NOTHING;
         INSERT INTO names (name, key)
             SELECT name, key FROM (
                 SELECT id, creator_name AS name, creator_key AS key FROM games
                 UNION ALL SELECT id, attackers_name, attackers_key FROM games
                 UNION ALL SELECT id, defenders_name, defenders_key FROM games)
             WHERE name IS NOT NULL AND key IS NOT NULL ORDER BY id
             ON CONFLICT (name) DO NOTHING;
         DROP TABLE players;",
    )
}

/// Gives each name its bot mark (`bot`: 1 for a name claimed by a bot, `brandubh bot`), 0
/// for the names held before: people's. Idempotent: the column is added once.
fn add_bot_mark(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let marked: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info('names') WHERE name = 'bot')",
        [],
        |r| r.get(0),
    )?;
    if !marked {
        tx.execute_batch("ALTER TABLE names ADD COLUMN bot INTEGER NOT NULL DEFAULT 0")?;
    }
    Ok(())
}

/// Gives the names of a database of an earlier version what this one keeps of each: its
/// look-alike forms, and when it was last used (`now`: each has its whole time from the
/// upgrade on); then the indexes that find them.
fn migrate_names(tx: &rusqlite::Transaction<'_>, now: i64) -> rusqlite::Result<()> {
    let columns: Vec<String> = tx
        .prepare("SELECT name FROM pragma_table_info('names')")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for (column, kind) in [
        ("skeleton", "TEXT NOT NULL DEFAULT ''"),
        ("folded", "TEXT NOT NULL DEFAULT ''"),
        ("used", "INTEGER NOT NULL DEFAULT 0"),
    ] {
        if !columns.iter().any(|c| c == column) {
            tx.execute_batch(&format!("ALTER TABLE names ADD COLUMN {column} {kind}"))?;
        }
    }
    let unformed: Vec<String> = tx
        .prepare("SELECT name FROM names WHERE skeleton = ''")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for name in unformed {
        let [skeleton, folded] = look_alike_forms(&name);
        tx.execute(
            "UPDATE names SET skeleton = ?2, folded = ?3 WHERE name = ?1",
            params![name, skeleton, folded],
        )?;
    }
    tx.execute("UPDATE names SET used = ?1 WHERE used = 0", [now])?;
    tx.execute_batch(
        "CREATE INDEX IF NOT EXISTS names_by_skeleton ON names (skeleton);
         CREATE INDEX IF NOT EXISTS names_by_folded ON names (folded);
         CREATE INDEX IF NOT EXISTS names_by_key ON names (key);",
    )?;
    Ok(())
}
