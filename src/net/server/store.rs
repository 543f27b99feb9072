//! The server's `SQLite` database (WAL): players' keys and names, games, moves and clocks.
//! A move is written here before anyone is told of it.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::{Connection, params};

use super::names::look_alike_forms;
use crate::game::{Clocks, Game, Player, Tag, Tags};
use crate::net::protocol::{ARCHIVE_PAGE, GameId, GameSetup, GameSummary, pages};
use crate::rules::{Outcome, Position, Reason, Side};

/// The database's file in the server's data folder.
pub const DB_FILE: &str = "server.sqlite3";

/// A game's stage.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) enum Stage {
    /// Waiting for an opponent.
    Open,
    /// Being played.
    Playing,
    /// Over.
    Over,
}

impl Stage {
    const fn name(self) -> &'static str {
        match self {
            Stage::Open => "open",
            Stage::Playing => "playing",
            Stage::Over => "over",
        }
    }
}

/// A player's key and name.
#[derive(Clone, Eq, PartialEq, Debug)]
pub(super) struct Seat {
    pub key: String,
    pub name: String,
}

/// A game as stored: who, how, and the record (moves, clocks, result).
#[derive(Clone, Debug)]
pub(super) struct StoredGame {
    pub id: GameId,
    pub setup: GameSetup,
    pub creator: Seat,
    pub code: Option<String>,
    pub attackers: Option<Seat>,
    pub defenders: Option<Seat>,
    pub stage: Stage,
    pub game: Game,
}

impl StoredGame {
    /// The seat of `side`.
    pub fn seat(&self, side: Side) -> Option<&Seat> {
        match side {
            Side::Attackers => self.attackers.as_ref(),
            Side::Defenders => self.defenders.as_ref(),
        }
    }

    /// The side `key` plays, if any.
    pub fn side_of(&self, key: &str) -> Option<Side> {
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .find(|&side| self.seat(side).is_some_and(|seat| seat.key == key))
    }

    /// The game's summary for lobbies and archives.
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            id: self.id,
            setup: self.setup.clone(),
            attackers: self.attackers.as_ref().map(|s| s.name.clone()),
            defenders: self.defenders.as_ref().map(|s| s.name.clone()),
            creator: self.creator.name.clone(),
            plies: self.game.moves().len(),
            outcome: self.game.outcome(),
        }
    }

    /// The record as a save file, the players' names in its tags.
    pub fn save_json(&self) -> String {
        let mut game = self.game.clone();
        let mut tags = Tags::default();
        for side in [Side::Attackers, Side::Defenders] {
            if let Some(seat) = self.seat(side) {
                tags.set_fitted(Tag::name_of(side), &seat.name);
            }
        }
        tags.set_fitted(Tag::Event, &format!("online game {}", self.id));
        game.set_tags(tags);
        game.to_json()
    }
}

/// The finished games of the player named `?1` in all, counted from the indexes.
const ARCHIVE_COUNT: &str = "
    SELECT (SELECT COUNT(*) FROM games WHERE stage = 'over' AND attackers_name = ?1)
         + (SELECT COUNT(*) FROM games WHERE stage = 'over' AND defenders_name = ?1)";

/// `?2` finished games of the player named `?1` from the `?3`th newest on, each with its
/// moves counted: the page's numbers read from the indexes, then only its games.
const ARCHIVE_PAGE_QUERY: &str = "
    WITH page (id) AS (
        SELECT id FROM games WHERE stage = 'over' AND attackers_name = ?1
        UNION ALL
        SELECT id FROM games WHERE stage = 'over' AND defenders_name = ?1
        ORDER BY id DESC LIMIT ?2 OFFSET ?3)
    SELECT g.id, g.setup, g.creator_name, g.attackers_name, g.defenders_name, g.outcome,
           COUNT(m.ply)
    FROM page JOIN games g ON g.id = page.id
         LEFT JOIN moves m ON m.game = g.id
    GROUP BY g.id ORDER BY g.id DESC";

/// How often the log (WAL) is copied into the database, beside the writer.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The size of the log (WAL) past which the writer checkpoints too (the thread beside it
/// cannot keep up: a flood of writes), and to which `SQLite` cuts the log back when it
/// starts it again.
const WAL_LIMIT: u64 = 16 << 20;

/// The schema's version, in `PRAGMA user_version`: 1 the `names` table (a database of the
/// first schema, version 0 with a `players` table, is moved to it), 2 the names' look-alike
/// forms and last use, 3 the indexes of finished games by player (the archive's pages).
const SCHEMA_VERSION: i64 = 3;

/// The database.
pub(super) struct Store {
    db: Connection,
    /// Ends the checkpoint thread when the store goes (its channel closes).
    _checkpoints: mpsc::Sender<()>,
    /// Every write fails while set: the hub's commit-before-apply is tested, not assumed.
    #[cfg(test)]
    fail_writes: std::cell::Cell<bool>,
}

/// A stored game that cannot be read back (a setup, clocks, result or move it cannot
/// have): its number and why.
#[derive(Debug)]
pub(super) struct Unreadable {
    pub id: GameId,
    pub why: String,
}

/// A database error, in words.
pub(super) type StoreResult<T> = Result<T, rusqlite::Error>;

impl Store {
    /// Opens (and makes, the first time) the database in `dir`.
    pub fn open(dir: &Path) -> Result<Store, Box<dyn std::error::Error + Send + Sync>> {
        let mut db = Connection::open(dir.join(DB_FILE))?;
        // WAL with NORMAL sync: a committed move survives the process being killed
        // (kill -9); only a power cut can lose the last commits. The writer checkpoints
        // only past the log's limit: a checkpoint syncs the database to disk (tens of
        // milliseconds on a busy disk), which would hold up every move behind it; a thread
        // beside it does, but cannot start the log again under a writer that never pauses.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "NORMAL")?;
        let page: i64 = db.pragma_query_value(None, "page_size", |r| r.get(0))?;
        let pages = WAL_LIMIT.cast_signed() / page.max(1);
        db.pragma_update(None, "wal_autocheckpoint", pages)?;
        db.pragma_update(None, "journal_size_limit", WAL_LIMIT.cast_signed())?;
        migrate(&mut db)?;
        let checkpoints = checkpoint_beside(&dir.join(DB_FILE))?;
        Ok(Store {
            db,
            _checkpoints: checkpoints,
            #[cfg(test)]
            fail_writes: std::cell::Cell::new(false),
        })
    }

    /// Closes the database whole: the log copied into the database file and emptied, so
    /// that the file alone holds everything (a copy of it is a backup).
    pub fn close(self) {
        let Store {
            db,
            _checkpoints: checkpoint_thread,
            ..
        } = self;
        drop(checkpoint_thread);
        let checkpoint = db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            r.get::<_, i64>(0)
        });
        match checkpoint {
            Ok(0) => {}
            Ok(_) => tracing::warn!("closing the database: its log is busy, kept beside it"),
            Err(e) => tracing::warn!("closing the database: {e}"),
        }
        if let Err((_, e)) = db.close() {
            tracing::warn!("closing the database: {e}");
        }
    }

    /// Makes every write fail (or succeed again), for tests.
    #[cfg(test)]
    pub fn fail_writes(&self, fail: bool) {
        self.fail_writes.set(fail);
    }

    /// An error if writes are made to fail ([`Store::fail_writes`]); nothing otherwise.
    #[allow(clippy::unused_self, clippy::unnecessary_wraps)]
    fn writable(&self) -> StoreResult<()> {
        #[cfg(test)]
        if self.fail_writes.get() {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR),
                Some("injected failure".into()),
            ));
        }
        Ok(())
    }

    /// Gives `claim.name` to `claim.key` if it may have it: the key's own already (then
    /// marked used now), or free, unlike any name another key holds (same name, skeleton or
    /// lowercase skeleton, [`look_alike_forms`]), within the key's cap and the caller's
    /// leave to add one. A name in the way is released first if it has gone unused for
    /// [`UNUSED_NAME_KEPT_SECS`] and its key is in no game at all.
    pub fn claim_name(&mut self, claim: &NameClaim) -> StoreResult<Claim> {
        self.writable()?;
        let tx = self.db.transaction()?;
        let updated = tx.execute(
            "UPDATE names SET used = ?3 WHERE name = ?1 AND key = ?2",
            params![claim.name, claim.key, claim.now],
        )?;
        let outcome = if updated > 0 {
            Claim::Yours
        } else {
            claim_new_name(&tx, claim)?
        };
        tx.commit()?;
        Ok(outcome)
    }

    /// Stores a new open game; returns its number.
    pub fn create(
        &self,
        setup: &GameSetup,
        creator: &Seat,
        code: Option<&str>,
    ) -> StoreResult<GameId> {
        self.writable()?;
        self.db.execute(
            "INSERT INTO games (setup, creator_key, creator_name, code, stage, created)
             VALUES (?1, ?2, ?3, ?4, 'open', ?5)",
            params![
                json(setup)?,
                creator.key,
                creator.name,
                code,
                jiff::Timestamp::now().to_string()
            ],
        )?;
        Ok(self.db.last_insert_rowid().unsigned_abs())
    }

    /// Stores the players of a game that begins, and its clocks.
    pub fn start(&self, game: &StoredGame) -> StoreResult<()> {
        self.writable()?;
        let seat = |side| game.seat(side).cloned().map(|s| (s.key, s.name));
        let (ak, an) = seat(Side::Attackers).unzip();
        let (dk, dn) = seat(Side::Defenders).unzip();
        self.db.execute(
            "UPDATE games SET attackers_key = ?2, attackers_name = ?3, defenders_key = ?4,
             defenders_name = ?5, stage = 'playing', clocks = ?6 WHERE id = ?1",
            params![
                id(game.id),
                ak,
                an,
                dk,
                dn,
                optional_json(game.game.clocks())?
            ],
        )?;
        Ok(())
    }

    /// Stores a move and the clocks after it, in one transaction.
    pub fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        mv: &str,
        clocks: Option<&Clocks>,
        outcome: Option<Outcome>,
    ) -> StoreResult<()> {
        self.writable()?;
        let tx = self.db.transaction()?;
        tx.execute(
            "INSERT INTO moves (game, ply, mv) VALUES (?1, ?2, ?3)",
            params![id(game), count(ply), mv],
        )?;
        tx.execute(
            "UPDATE games SET clocks = ?2 WHERE id = ?1",
            params![id(game), optional_json(clocks)?],
        )?;
        if let Some(outcome) = outcome {
            finish(&tx, game, outcome, clocks)?;
        }
        tx.commit()
    }

    /// Drops the moves from `ply` on (a takeback) and stores the clocks.
    pub fn take_back(
        &mut self,
        game: GameId,
        ply: usize,
        clocks: Option<&Clocks>,
    ) -> StoreResult<()> {
        self.writable()?;
        let tx = self.db.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![id(game), count(ply)],
        )?;
        tx.execute(
            "UPDATE games SET clocks = ?2 WHERE id = ?1",
            params![id(game), optional_json(clocks)?],
        )?;
        tx.commit()
    }

    /// Stores a game's end.
    pub fn finish(
        &self,
        game: GameId,
        outcome: Outcome,
        clocks: Option<&Clocks>,
    ) -> StoreResult<()> {
        self.writable()?;
        finish(&self.db, game, outcome, clocks)
    }

    /// Sets a game aside: the server could not handle it (or read it back), so it is
    /// neither resumed nor archived, but kept for its host to look at.
    pub fn set_aside(&self, game: GameId) -> StoreResult<()> {
        self.writable()?;
        self.db
            .execute("UPDATE games SET stage = 'aside' WHERE id = ?1", [id(game)])?;
        Ok(())
    }

    /// Removes an open game its creator withdrew.
    pub fn withdraw(&self, game: GameId) -> StoreResult<()> {
        self.writable()?;
        self.db.execute(
            "DELETE FROM games WHERE id = ?1 AND stage = 'open'",
            [id(game)],
        )?;
        Ok(())
    }

    /// Every game open or in play, for a server that starts again, each read back or not.
    pub fn unfinished(&self) -> StoreResult<Vec<Result<StoredGame, Unreadable>>> {
        self.games("stage IN ('open', 'playing')", params![])
    }

    /// A finished game.
    pub fn finished(&self, game: GameId) -> StoreResult<Option<StoredGame>> {
        let games = self.games("stage = 'over' AND id = ?1", params![id(game)])?;
        Ok(readable(games).pop())
    }

    /// Page `page` of the finished games of the player named `name`, newest first (the
    /// last page if there are fewer), with the page and the player's finished games in all.
    /// Read from the indexes, each game's moves counted, none replayed.
    pub fn archive(&self, name: &str, page: u32) -> StoreResult<(Vec<GameSummary>, u32, usize)> {
        let total: i64 = self
            .db
            .prepare_cached(ARCHIVE_COUNT)?
            .query_row([name], |r| r.get(0))?;
        let total = usize::try_from(total).unwrap_or(0);
        let page = page.min(pages(total, ARCHIVE_PAGE) - 1);
        let offset = u64::from(page).saturating_mul(ARCHIVE_PAGE as u64);
        let mut query = self.db.prepare_cached(ARCHIVE_PAGE_QUERY)?;
        let rows = query.query_map(
            params![
                name,
                count(ARCHIVE_PAGE),
                i64::try_from(offset).unwrap_or(i64::MAX)
            ],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?.unsigned_abs(),
                    r.get::<_, String>(1)?,
                    GameSummary {
                        id: 0,
                        setup: GameSetup::default(),
                        creator: r.get(2)?,
                        attackers: r.get(3)?,
                        defenders: r.get(4)?,
                        outcome: r
                            .get::<_, Option<String>>(5)?
                            .and_then(|o| serde_json::from_str(&o).ok()),
                        plies: usize::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
                    },
                ))
            },
        )?;
        let mut games = Vec::new();
        for row in rows {
            let (id, setup, summary) = row?;
            match parse("setup", &setup) {
                Ok(setup) => games.push(GameSummary {
                    id,
                    setup,
                    ..summary
                }),
                Err(why) => tracing::warn!("game {id} cannot be read back, left out: {why}"),
            }
        }
        Ok((games, page, total))
    }

    /// The games matching `filter`, oldest first, each rebuilt by replaying its moves.
    fn games(
        &self,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> StoreResult<Vec<Result<StoredGame, Unreadable>>> {
        let sql = format!(
            "SELECT id, setup, creator_key, creator_name, code, attackers_key, attackers_name,
                    defenders_key, defenders_name, stage, clocks, outcome
             FROM games WHERE {filter} ORDER BY id"
        );
        let mut query = self.db.prepare(&sql)?;
        let rows = query.query_map(args, |r| {
            let seat = |key: Option<String>, name: Option<String>| {
                key.zip(name).map(|(key, name)| Seat { key, name })
            };
            Ok((
                r.get::<_, i64>(0)?.unsigned_abs(),
                r.get::<_, String>(1)?,
                Seat {
                    key: r.get(2)?,
                    name: r.get(3)?,
                },
                r.get::<_, Option<String>>(4)?,
                seat(r.get(5)?, r.get(6)?),
                seat(r.get(7)?, r.get(8)?),
                r.get::<_, String>(9)?,
                r.get::<_, Option<String>>(10)?,
                r.get::<_, Option<String>>(11)?,
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (id, setup, creator, code, attackers, defenders, stage, clocks, outcome) = row?;
            let moves = self.moves(id)?;
            let read = || -> Result<StoredGame, String> {
                let setup = parse::<GameSetup>("setup", &setup)?;
                let stage = [Stage::Open, Stage::Playing, Stage::Over]
                    .into_iter()
                    .find(|s| s.name() == stage)
                    .ok_or_else(|| format!("the stage {stage:?} is not one"))?;
                let clocks = clocks.map(|c| parse::<Clocks>("clocks", &c)).transpose()?;
                let outcome = outcome
                    .map(|o| parse::<Outcome>("result", &o))
                    .transpose()?;
                let game = rebuild(&setup, &moves, clocks, outcome)?;
                Ok(StoredGame {
                    id,
                    setup,
                    creator,
                    code,
                    attackers,
                    defenders,
                    stage,
                    game,
                })
            };
            games.push(read().map_err(|why| Unreadable { id, why }));
        }
        Ok(games)
    }

    fn moves(&self, game: GameId) -> StoreResult<Vec<String>> {
        let mut query = self
            .db
            .prepare_cached("SELECT mv FROM moves WHERE game = ?1 ORDER BY ply")?;
        let rows = query.query_map([id(game)], |r| r.get(0))?;
        rows.collect()
    }
}

/// How long a name unused stays with a key that is in no game (30 days): then another key
/// may claim it, or one like it.
pub(super) const UNUSED_NAME_KEPT_SECS: i64 = 30 * 86_400;

/// A key's claim of a name.
pub(super) struct NameClaim<'a> {
    /// The key.
    pub key: &'a str,
    /// The name, checked and in NFC ([`crate::net::protocol::normalize_name`]).
    pub name: &'a str,
    /// Now, in seconds since 1970.
    pub now: i64,
    /// The most names the key may hold.
    pub most: usize,
    /// Whether the name may be a new one of the key (within the claims per minute).
    pub may_add: bool,
}

/// What became of a claim.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) enum Claim {
    /// The key held the name already.
    Yours,
    /// The name is the key's from now on.
    New,
    /// Another key holds this name, or this one, like it.
    Taken(String),
    /// The key holds as many names as it may.
    TooMany,
    /// The name would be a new one, and no new one may be claimed now.
    TooFast,
}

/// A claim of a name the key does not hold yet.
fn claim_new_name(tx: &rusqlite::Transaction<'_>, claim: &NameClaim) -> StoreResult<Claim> {
    let [skeleton, folded] = look_alike_forms(claim.name);
    let in_the_way: Vec<(String, String, i64)> = tx
        .prepare(
            "SELECT name, key, used FROM names
             WHERE key != ?1 AND (name = ?2 OR skeleton = ?3 OR folded = ?4)",
        )?
        .query_map(params![claim.key, claim.name, skeleton, folded], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    for (name, key, used) in in_the_way {
        let unused = claim.now.saturating_sub(used) >= UNUSED_NAME_KEPT_SECS;
        let in_a_game: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM games
                 WHERE creator_key = ?1 OR attackers_key = ?1 OR defenders_key = ?1)",
            [&key],
            |r| r.get(0),
        )?;
        if !unused || in_a_game {
            return Ok(Claim::Taken(name));
        }
        tx.execute("DELETE FROM names WHERE name = ?1", [&name])?;
    }
    let held: i64 = tx.query_row(
        "SELECT COUNT(*) FROM names WHERE key = ?1",
        [claim.key],
        |r| r.get(0),
    )?;
    if held >= count(claim.most) {
        return Ok(Claim::TooMany);
    }
    if !claim.may_add {
        return Ok(Claim::TooFast);
    }
    tx.execute(
        "INSERT INTO names (name, key, skeleton, folded, used) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![claim.name, claim.key, skeleton, folded, claim.now],
    )?;
    Ok(Claim::New)
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

/// The games readable of `games`, each other one logged.
fn readable(games: Vec<Result<StoredGame, Unreadable>>) -> Vec<StoredGame> {
    games
        .into_iter()
        .filter_map(|game| {
            game.map_err(|Unreadable { id, why }| {
                tracing::warn!("game {id} cannot be read back, left out: {why}");
            })
            .ok()
        })
        .collect()
}

/// `text` read as a `what`, or why not.
fn parse<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("its {what}: {e}"))
}

/// Brings the schema to [`SCHEMA_VERSION`] in one transaction, and writes the version even
/// when it is there already: a database the server cannot write stops it at start, not at
/// the first player.
fn migrate(db: &mut Connection) -> rusqlite::Result<()> {
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

/// Stores a game's end (on the connection or in the transaction `db`).
fn finish(
    db: &Connection,
    game: GameId,
    outcome: Outcome,
    clocks: Option<&Clocks>,
) -> StoreResult<()> {
    db.execute(
        "UPDATE games SET stage = 'over', outcome = ?2, clocks = ?3 WHERE id = ?1",
        params![id(game), json(&outcome)?, optional_json(clocks)?],
    )?;
    Ok(())
}

/// Starts a thread that copies the log into the database file every [`CHECKPOINT_EVERY`]
/// (a passive checkpoint, on a connection of its own: the writer goes on meanwhile), until
/// the returned sender is dropped. A log left past [`WAL_LIMIT`] by a burst of writes is
/// emptied by a truncating checkpoint (which gives up at once if the writer is busy: the
/// writer's own checkpoint then bounds the log).
fn checkpoint_beside(
    file: &Path,
) -> Result<mpsc::Sender<()>, Box<dyn std::error::Error + Send + Sync>> {
    let db = Connection::open(file)?;
    db.pragma_update(None, "journal_size_limit", WAL_LIMIT.cast_signed())?;
    db.busy_timeout(Duration::ZERO)?;
    let wal = file.with_extension("sqlite3-wal");
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("brandubh-checkpoint".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY)
            {
                let over = std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_LIMIT);
                let mode = if over { "TRUNCATE" } else { "PASSIVE" };
                let checkpoint = format!("PRAGMA wal_checkpoint({mode})");
                if let Err(e) = db.query_row(&checkpoint, [], |_| Ok(())) {
                    tracing::warn!("checkpoint: {e}");
                }
            }
        })?;
    Ok(stop)
}

/// A game record from its setup and stored moves: each move replayed (every stored one was
/// checked when played), then the clocks as they stood and an off-board result; or why it
/// cannot be.
pub(super) fn rebuild(
    setup: &GameSetup,
    moves: &[String],
    clocks: Option<Clocks>,
    outcome: Option<Outcome>,
) -> Result<Game, String> {
    let mut game = Game::new(
        setup.rules.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    if let Some(control) = super::control(setup.timing) {
        game.set_clocks(Clocks::new(control));
    }
    for (ply, mv) in moves.iter().enumerate() {
        game.play_text(mv)
            .map_err(|e| format!("its move {} {mv:?}: {e}", ply + 1))?;
    }
    if let Some(clocks) = clocks {
        game.set_clocks(clocks);
    }
    if let Some(outcome) = outcome.filter(|_| game.outcome().is_none()) {
        let _ = match (outcome.reason, outcome.winner) {
            (Reason::Resignation, Some(winner)) => game.resign(winner.opponent()),
            (Reason::Time, Some(winner)) => game.lose_on_time(winner.opponent()),
            (Reason::Abandoned, Some(winner)) => game.abandon(winner.opponent()),
            (Reason::Agreement, _) => game.agree_draw(),
            _ => game.adjudicate_draw(),
        };
    }
    Ok(game)
}

/// `value` as JSON, or the error that it cannot be.
fn json(value: &impl serde::Serialize) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))
}

/// `value`, if any, as JSON.
fn optional_json(value: Option<&impl serde::Serialize>) -> StoreResult<Option<String>> {
    value.map(json).transpose()
}

/// A game's number as `SQLite` keeps it (numbers come from its rowids, within `i64`).
fn id(game: GameId) -> i64 {
    i64::try_from(game).unwrap_or(i64::MAX)
}

/// A count as `SQLite` keeps it.
fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    const DAY: i64 = 86_400;

    /// `key` claims `name` at `now` (days), within a cap of 5 names.
    fn claim(store: &mut Store, key: &str, name: &str, now: i64) -> Claim {
        let claim = NameClaim {
            key,
            name,
            now: now * DAY,
            most: 5,
            may_add: true,
        };
        store.claim_name(&claim).unwrap()
    }

    #[test]
    fn a_name_unused_by_a_key_in_no_game_is_released_after_thirty_days() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(claim(&mut store, "a", "alice", 100), Claim::New);
        let taken = Claim::Taken("alice".into());
        assert_eq!(claim(&mut store, "b", "Alice", 129), taken);
        // Used again: its thirty days start again.
        assert_eq!(claim(&mut store, "a", "alice", 129), Claim::Yours);
        assert_eq!(claim(&mut store, "b", "alice", 158), taken);
        assert_eq!(claim(&mut store, "b", "Alice", 159), Claim::New);
        assert_eq!(
            claim(&mut store, "a", "alice", 159),
            Claim::Taken("Alice".into()),
            "released"
        );
        // A key in a game keeps its names however long unused.
        assert_eq!(claim(&mut store, "c", "carol", 0), Claim::New);
        let seat = Seat {
            key: "c".into(),
            name: "carol".into(),
        };
        store.create(&GameSetup::default(), &seat, None).unwrap();
        assert_eq!(
            claim(&mut store, "d", "carol", 1000),
            Claim::Taken("carol".into())
        );
    }

    #[test]
    fn a_key_s_names_are_capped_and_new_ones_need_leave() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        for n in 0..5 {
            assert_eq!(claim(&mut store, "a", &format!("n{n}"), 0), Claim::New);
        }
        assert_eq!(claim(&mut store, "a", "n5", 0), Claim::TooMany);
        assert_eq!(claim(&mut store, "a", "n0", 0), Claim::Yours);
        let mut no_leave = NameClaim {
            key: "b",
            name: "bob",
            now: 0,
            most: 5,
            may_add: false,
        };
        assert_eq!(store.claim_name(&no_leave).unwrap(), Claim::TooFast);
        no_leave.may_add = true;
        assert_eq!(store.claim_name(&no_leave).unwrap(), Claim::New);
        no_leave.may_add = false;
        assert_eq!(store.claim_name(&no_leave).unwrap(), Claim::Yours);
    }

    #[test]
    fn names_of_an_earlier_version_get_their_look_alike_forms() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = Connection::open(dir.path().join(DB_FILE)).unwrap();
            db.execute_batch(
                "CREATE TABLE names (name TEXT PRIMARY KEY, key TEXT NOT NULL);
                 INSERT INTO names VALUES ('alice', 'a');",
            )
            .unwrap();
        }
        let mut store = Store::open(dir.path()).unwrap();
        let now = jiff::Timestamp::now().as_second() / DAY;
        assert_eq!(
            claim(&mut store, "b", "Alice", now),
            Claim::Taken("alice".into())
        );
        assert_eq!(claim(&mut store, "a", "alice", now), Claim::Yours);
    }

    #[test]
    fn the_archive_is_read_from_indexes_a_page_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let seat = |name: &str| Seat {
            key: format!("key of {name}"),
            name: name.into(),
        };
        let outcome = Outcome {
            winner: None,
            reason: Reason::Agreement,
        };
        let games = ARCHIVE_PAGE + 2;
        for n in 0..games {
            let setup = GameSetup::default();
            let id = store.create(&setup, &seat("ann"), None).unwrap();
            let game = StoredGame {
                id,
                game: rebuild(&setup, &[], None, None).unwrap(),
                setup,
                creator: seat("ann"),
                code: None,
                attackers: Some(seat(if n % 2 == 0 { "ann" } else { "bob" })),
                defenders: Some(seat(if n % 2 == 0 { "bob" } else { "ann" })),
                stage: Stage::Playing,
            };
            store.start(&game).unwrap();
            store.add_move(id, 0, "d2-c2", None, None).unwrap();
            store.finish(id, outcome, None).unwrap();
        }
        let (first, page, total) = store.archive("ann", 0).unwrap();
        assert_eq!((first.len(), page, total), (ARCHIVE_PAGE, 0, games));
        assert_eq!(
            first[0].id,
            GameId::try_from(games).unwrap(),
            "newest first"
        );
        assert!(
            first
                .iter()
                .all(|g| g.plies == 1 && g.outcome == Some(outcome))
        );
        let (last, page, _) = store.archive("ann", 7).unwrap();
        assert_eq!((last.len(), page), (2, 1), "past the end: the last page");
        assert_eq!(store.archive("nobody", 0).unwrap(), (Vec::new(), 0, 0));
        // Each query finds the player's games by its indexes.
        let args: [&dyn rusqlite::ToSql; 3] = [&"ann", &50, &0];
        for (sql, used) in [(ARCHIVE_COUNT, 1), (ARCHIVE_PAGE_QUERY, 3)] {
            let mut plan = store
                .db
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let steps: Vec<String> = plan
                .query_map(&args[..used], |r| r.get(3))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            for index in ["games_over_by_attackers", "games_over_by_defenders"] {
                assert!(steps.iter().any(|s| s.contains(index)), "{steps:#?}");
            }
            assert!(!steps.iter().any(|s| s.starts_with("SCAN g")), "{steps:#?}");
        }
    }

    #[test]
    fn the_writer_never_checkpoints_a_thread_beside_it_does() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        // The hub writes: a checkpoint there (an fsync of the database) would hold up every
        // move behind it, so it checkpoints only past the log's limit.
        let every: i64 = store
            .db
            .pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0))
            .unwrap();
        assert_eq!(every, 4096, "the writer's connection checkpoints itself");
        let file = dir.path().join(DB_FILE);
        let before = std::fs::metadata(&file).unwrap().len();
        let seat = Seat {
            key: "k".into(),
            name: "n".into(),
        };
        let game = store.create(&GameSetup::default(), &seat, None).unwrap();
        for ply in 0..50 {
            store.add_move(game, ply, "d2-c2", None, None).unwrap();
        }
        // The moves reach the database file itself, copied from the log by the checkpoints.
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::fs::metadata(&file).unwrap().len() <= before {
            assert!(Instant::now() < deadline, "no checkpoint");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn the_log_is_cut_back_after_a_burst_of_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store
            .db
            .execute_batch(
                "CREATE TABLE burst (x BLOB);
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                 INSERT INTO burst SELECT randomblob(1024) FROM n;",
            )
            .unwrap();
        let wal = dir.path().join(format!("{DB_FILE}-wal"));
        let size = || std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert!(size() > WAL_LIMIT, "the burst is {} bytes", size());
        let deadline = Instant::now() + Duration::from_secs(20);
        while size() > WAL_LIMIT {
            assert!(
                Instant::now() < deadline,
                "the log stays at {} bytes",
                size()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
