//! The server's `SQLite` database (WAL): players' keys and names, games, moves and clocks.
//! A move is written here before anyone is told of it.

mod club;
mod memory;
mod migrate;
pub(in crate::net::server) mod ratings;
pub(super) mod read;
mod sql;
mod stored;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::names::{Claim, NameClaim, UNUSED_NAME_KEPT_SECS, look_alike_forms};
use crate::game::Clocks;
use crate::net::protocol::{GameId, GameSetup};
use crate::net::ratings::{Change, Pool, Shown};
use crate::rules::{Outcome, Side};
pub(super) use club::Block;
pub(super) use memory::now_ms;
use migrate::migrate;
pub(super) use sql::StoreResult;
use sql::{count, execute, id, json, optional_json};
pub(super) use stored::{Seat, Stage, StoredGame, Unreadable, rebuild};

/// The database's file in the server's data folder.
pub const DB_FILE: &str = "server.sqlite3";

/// How often the log (WAL) is copied into the database, beside the writer.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// The size of the log (WAL) past which the writer checkpoints too (the thread beside it
/// cannot keep up: a flood of writes), and to which `SQLite` cuts the log back when it
/// starts it again.
const WAL_LIMIT: u64 = 16 << 20;

/// The database.
pub(super) struct Store {
    db: Connection,
    /// Its file.
    file: PathBuf,
    /// Ends the checkpoint thread when the store goes (its channel closes).
    _checkpoints: mpsc::Sender<()>,
    /// Whether a game with a bot in it is rated in the people's pool (otherwise in the
    /// bots').
    bots_with_humans: bool,
    /// Every write fails while set: the hub's commit-before-apply is tested, not assumed.
    #[cfg(test)]
    fail_writes: std::cell::Cell<bool>,
}

impl Store {
    /// Opens (and makes, the first time) the database in `dir`.
    pub fn open(dir: &Path) -> Result<Store, Box<dyn std::error::Error + Send + Sync>> {
        let file = dir.join(DB_FILE);
        let mut db = Connection::open(&file)?;
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
        let checkpoints = checkpoint_beside(&file)?;
        Ok(Store {
            db,
            file,
            _checkpoints: checkpoints,
            bots_with_humans: false,
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

    /// The database's file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Every game open or in play, for a server that starts again, each read back or not.
    pub fn unfinished(&self) -> StoreResult<Vec<Result<StoredGame, Unreadable>>> {
        read::unfinished(&self.db)
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
    /// [`UNUSED_NAME_KEPT_SECS`] and its key is in no game at all. A name is a bot's or a
    /// person's as first claimed: the key's own name claimed as the other kind is refused
    /// ([`Claim::OtherKind`]).
    pub fn claim_name(&mut self, claim: &NameClaim) -> StoreResult<Claim> {
        self.writable()?;
        let tx = self.db.transaction()?;
        let held_as_bot: Option<bool> = tx
            .prepare_cached("SELECT bot FROM names WHERE name = ?1 AND key = ?2")?
            .query_row(params![claim.name, claim.key], |r| r.get(0))
            .optional()?;
        let outcome = match held_as_bot {
            Some(bot) if bot != claim.bot => Claim::OtherKind(bot),
            Some(_) => {
                execute(
                    &tx,
                    "UPDATE names SET used = ?3 WHERE name = ?1 AND key = ?2",
                    params![claim.name, claim.key, claim.now],
                )?;
                Claim::Yours
            }
            None => claim_new_name(&tx, claim)?,
        };
        tx.commit()?;
        Ok(outcome)
    }

    /// The names claimed by bots.
    pub fn bot_names(&self) -> StoreResult<Vec<String>> {
        self.db
            .prepare("SELECT name FROM names WHERE bot = 1")?
            .query_map([], |r| r.get(0))?
            .collect()
    }

    /// Stores a new open game; returns its number.
    pub fn create(
        &self,
        setup: &GameSetup,
        creator: &Seat,
        code: Option<&str>,
    ) -> StoreResult<GameId> {
        self.writable()?;
        execute(
            &self.db,
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
        execute(
            &self.db,
            "UPDATE games SET attackers_key = ?2, attackers_name = ?3, defenders_key = ?4,
             defenders_name = ?5, stage = 'playing', clocks = ?6, turn_began = ?7 WHERE id = ?1",
            params![
                id(game.id),
                ak,
                an,
                dk,
                dn,
                optional_json(game.game.clocks())?,
                now_ms()
            ],
        )?;
        Ok(())
    }

    /// Stores a move and the clocks after it, in one transaction; a move that ends the game
    /// stores its result and rates it (the players' rating changes, if it is rated).
    pub fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        mv: &str,
        clocks: Option<&Clocks>,
        outcome: Option<Outcome>,
    ) -> StoreResult<Option<[Change; 2]>> {
        self.writable()?;
        let tx = self.db.transaction()?;
        execute(
            &tx,
            "INSERT INTO moves (game, ply, mv) VALUES (?1, ?2, ?3)",
            params![id(game), count(ply), mv],
        )?;
        execute(
            &tx,
            "UPDATE games SET clocks = ?2, turn_began = ?3 WHERE id = ?1",
            params![id(game), optional_json(clocks)?, now_ms()],
        )?;
        let rated = match outcome {
            Some(outcome) => finish(&tx, game, outcome, clocks, self.bots_with_humans)?,
            None => None,
        };
        tx.commit()?;
        Ok(rated)
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
        execute(
            &tx,
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![id(game), count(ply)],
        )?;
        execute(
            &tx,
            "UPDATE games SET clocks = ?2, turn_began = ?3 WHERE id = ?1",
            params![id(game), optional_json(clocks)?, now_ms()],
        )?;
        tx.commit()
    }

    /// Stores a game's clocks (time given to a player).
    pub fn set_clocks(&self, game: GameId, clocks: &Clocks) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "UPDATE games SET clocks = ?2 WHERE id = ?1",
            params![id(game), json(clocks)?],
        )?;
        Ok(())
    }

    /// Stores a game's end and rates it, in one transaction: the players' rating changes,
    /// if it is rated.
    pub fn finish(
        &mut self,
        game: GameId,
        outcome: Outcome,
        clocks: Option<&Clocks>,
    ) -> StoreResult<Option<[Change; 2]>> {
        self.writable()?;
        let tx = self.db.transaction()?;
        let rated = finish(&tx, game, outcome, clocks, self.bots_with_humans)?;
        tx.commit()?;
        Ok(rated)
    }

    /// Rates the games with a bot in them in the people's pools (`yes`) or the bots'.
    pub fn rate_bots_with_humans(&mut self, yes: bool) {
        self.bots_with_humans = yes;
    }

    /// The pool `game` counts for (the bots' if its creator or a player is a bot, unless bots are rated
    /// with people), the people's if that cannot be read (logged).
    pub fn pool_of(&self, game: &StoredGame) -> Pool {
        let players = [
            Some(&game.creator),
            game.attackers.as_ref(),
            game.defenders.as_ref(),
        ]
        .map(|seat| seat.map(|s| s.name.as_str()));
        ratings::pool_of(&self.db, &game.setup, &players, self.bots_with_humans)
            .inspect_err(|e| tracing::error!("database: {e}"))
            .unwrap_or_else(|_| game.setup.pool())
    }

    /// `name`'s rating in `pool`, if rated there.
    pub fn rating(&self, name: &str, pool: Pool) -> StoreResult<Option<Shown>> {
        ratings::shown(&self.db, name, pool)
    }

    /// `name`'s rating in the pool of the most rated games, if rated at all.
    pub fn main_rating(&self, name: &str) -> StoreResult<Option<Shown>> {
        ratings::main_rating(&self.db, name)
    }

    /// Sets a game aside: the server could not handle it (or read it back), so it is
    /// neither resumed nor archived, but kept for its host to look at.
    pub fn set_aside(&self, game: GameId) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "UPDATE games SET stage = 'aside' WHERE id = ?1",
            [id(game)],
        )?;
        Ok(())
    }

    /// Removes an open game its creator withdrew.
    pub fn withdraw(&self, game: GameId) -> StoreResult<()> {
        self.writable()?;
        execute(
            &self.db,
            "DELETE FROM games WHERE id = ?1 AND stage = 'open'",
            [id(game)],
        )?;
        Ok(())
    }
}

/// A claim of a name the key does not hold yet.
fn claim_new_name(tx: &rusqlite::Transaction<'_>, claim: &NameClaim) -> StoreResult<Claim> {
    let [skeleton, folded] = look_alike_forms(claim.name);
    let in_the_way: Vec<(String, String, i64)> = tx
        .prepare_cached(
            "SELECT name, key, used FROM names
             WHERE key != ?1 AND (name = ?2 OR skeleton = ?3 OR folded = ?4)",
        )?
        .query_map(params![claim.key, claim.name, skeleton, folded], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    for (name, key, used) in in_the_way {
        let unused = claim.now.saturating_sub(used) >= UNUSED_NAME_KEPT_SECS;
        let in_a_game: bool = tx
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM games
                     WHERE creator_key = ?1 OR attackers_key = ?1 OR defenders_key = ?1)",
            )?
            .query_row([&key], |r| r.get(0))?;
        if !unused || in_a_game {
            return Ok(Claim::Taken(name));
        }
        execute(tx, "DELETE FROM names WHERE name = ?1", [&name])?;
    }
    let held: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM names WHERE key = ?1")?
        .query_row([claim.key], |r| r.get(0))?;
    if held >= count(claim.most) {
        return Ok(Claim::TooMany);
    }
    if !claim.may_add {
        return Ok(Claim::TooFast);
    }
    execute(
        tx,
        "INSERT INTO names (name, key, skeleton, folded, used, bot)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            claim.name, claim.key, skeleton, folded, claim.now, claim.bot
        ],
    )?;
    Ok(Claim::New)
}

/// Stores a game's end and rates it (in the transaction `db`): the players' rating
/// changes, if it is rated.
fn finish(
    db: &Connection,
    game: GameId,
    outcome: Outcome,
    clocks: Option<&Clocks>,
    bots_with_humans: bool,
) -> StoreResult<Option<[Change; 2]>> {
    execute(
        db,
        "UPDATE games SET stage = 'over', outcome = ?2, clocks = ?3 WHERE id = ?1",
        params![id(game), json(&outcome)?, optional_json(clocks)?],
    )?;
    ratings::rate_finished(db, game, outcome, bots_with_humans)
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

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::read::{ARCHIVE_COUNT, ARCHIVE_PAGE_QUERY, ArchivePage};
    use super::*;
    use crate::net::protocol::{ARCHIVE_PAGE, GameSummary, Role};
    use crate::rules::Reason;

    /// Page `page` of `name`'s archive: its games, number and total.
    fn archive(store: &Store, name: &str, page: u32) -> (Vec<GameSummary>, u32, usize) {
        let ArchivePage {
            games,
            page,
            total,
            unreadable,
        } = read::archive(&store.db, name, page).unwrap();
        assert!(unreadable.is_empty(), "{unreadable:?}");
        (games, page, total)
    }

    const DAY: i64 = 86_400;

    /// `key` claims `name` at `now` (days), within a cap of 5 names.
    fn claim(store: &mut Store, key: &str, name: &str, now: i64) -> Claim {
        let claim = NameClaim {
            key,
            name,
            now: now * DAY,
            most: 5,
            may_add: true,
            bot: false,
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
            bot: false,
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

    /// The result of the games of [`finish_games`].
    const DRAWN: Outcome = Outcome {
        winner: None,
        reason: Reason::Agreement,
    };

    /// Stores `games` games that `ann` made, ann and bob playing each side in turn, each
    /// drawn after one move.
    #[test]
    fn a_name_is_a_bot_s_or_a_person_s_as_first_claimed_and_marked_in_the_archive() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let mut as_bot = NameClaim {
            key: "key of bob",
            name: "bob",
            now: 0,
            most: 5,
            may_add: true,
            bot: true,
        };
        assert_eq!(store.claim_name(&as_bot).unwrap(), Claim::New);
        assert_eq!(store.claim_name(&as_bot).unwrap(), Claim::Yours);
        as_bot.bot = false;
        assert_eq!(store.claim_name(&as_bot).unwrap(), Claim::OtherKind(true));
        assert_eq!(claim(&mut store, "key of ann", "ann", 0), Claim::New);
        let ann_as_bot = NameClaim {
            key: "key of ann",
            name: "ann",
            bot: true,
            ..as_bot
        };
        assert_eq!(
            store.claim_name(&ann_as_bot).unwrap(),
            Claim::OtherKind(false)
        );
        assert_eq!(store.bot_names().unwrap(), ["bob"]);
        finish_games(&mut store, 2);
        let (games, _, _) = archive(&store, "ann", 0);
        let marks: Vec<&[Role]> = games.iter().map(|g| g.bots.as_slice()).collect();
        // Newest first: bob defended the first game and attacked the second.
        assert_eq!(marks, [&[Role::Attackers][..], &[Role::Defenders][..]]);
    }

    fn finish_games(store: &mut Store, games: usize) {
        let seat = |name: &str| Seat {
            key: format!("key of {name}"),
            name: name.into(),
        };
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
            store.finish(id, DRAWN, None).unwrap();
        }
    }

    #[test]
    fn the_archive_is_read_from_indexes_a_page_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let games = ARCHIVE_PAGE + 2;
        finish_games(&mut store, games);
        let (first, page, total) = archive(&store, "ann", 0);
        assert_eq!((first.len(), page, total), (ARCHIVE_PAGE, 0, games));
        assert_eq!(
            first[0].id,
            GameId::try_from(games).unwrap(),
            "newest first"
        );
        assert!(
            first
                .iter()
                .all(|g| g.plies == 1 && g.outcome == Some(DRAWN))
        );
        let (last, page, _) = archive(&store, "ann", 7);
        assert_eq!((last.len(), page), (2, 1), "past the end: the last page");
        assert_eq!(archive(&store, "nobody", 0), (Vec::new(), 0, 0));
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
    fn a_finished_game_that_cannot_be_read_back_is_reported_not_shown_as_something_else() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        finish_games(&mut store, 3);
        store
            .db
            .execute(
                "UPDATE games SET outcome = 'a broken result' WHERE id = 2",
                [],
            )
            .unwrap();
        let page = read::archive(&store.db, "ann", 0).unwrap();
        let shown: Vec<(GameId, Option<Outcome>)> =
            page.games.iter().map(|g| (g.id, g.outcome)).collect();
        assert_eq!(page.total, 3);
        assert_eq!(shown, [(3, Some(DRAWN)), (1, Some(DRAWN))]);
        let unreadable: Vec<GameId> = page.unreadable.iter().map(|u| u.id).collect();
        assert_eq!(unreadable, [2], "not reported");
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
