//! Ratings in the database: each player's Glicko-2 rating per pool (`ratings`), one row per
//! rated game per player with the rating before and after (`rating_history`), the update
//! made in the same transaction as a game's result, and the reads of a pool's leaderboard
//! and a player's profile (on any connection: the readers' beside the hub).

use rusqlite::{Connection, OptionalExtension, params};

use super::read;
use super::sql::{StoreResult, count, id};
use crate::net::protocol::{
    GameId, GameSetup, LEADERBOARD_PAGE, Leaderboard, PROFILE_HISTORY, PROFILE_RECENT, PoolRecord,
    Profile, Ranked, RatingPoint, pages,
};
use crate::net::ratings::{Change, Pool, Rating, Score, Shown, Speed, is_rated, rate_game};
use crate::rules::{Outcome, Preset, Side};

/// The tables and indexes of ratings (migration 4), each pool's rows marked with whether it
/// is a bots' pool (`bots`).
const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS ratings (
        name TEXT NOT NULL, rules TEXT NOT NULL, speed TEXT NOT NULL,
        rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
        wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0, bots INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (name, rules, speed, bots));
    CREATE TABLE IF NOT EXISTS rating_history (
        game INTEGER NOT NULL, name TEXT NOT NULL, rules TEXT NOT NULL, speed TEXT NOT NULL,
        before REAL NOT NULL, before_deviation REAL NOT NULL,
        after REAL NOT NULL, after_deviation REAL NOT NULL, volatility REAL NOT NULL,
        played TEXT NOT NULL, bots INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, name));
    CREATE INDEX IF NOT EXISTS rating_history_by_name ON rating_history (name, game);";

/// Makes the ratings' tables and indexes, at every start (each step makes only what is
/// missing): tables made before the bots' pools get their `bots` mark, 0 for every row (the
/// ratings' key, which takes it in, by copying the table).
pub(super) fn migrate(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(SCHEMA)?;
    if !has_bots_mark(tx, "rating_history")? {
        tx.execute_batch("ALTER TABLE rating_history ADD COLUMN bots INTEGER NOT NULL DEFAULT 0")?;
    }
    if !has_bots_mark(tx, "ratings")? {
        tx.execute_batch(
            "ALTER TABLE ratings RENAME TO ratings_before_bots;
             DROP INDEX IF EXISTS ratings_by_pool;
             CREATE TABLE ratings (
                 name TEXT NOT NULL, rules TEXT NOT NULL, speed TEXT NOT NULL,
                 rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
                 wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,
                 losses INTEGER NOT NULL DEFAULT 0, bots INTEGER NOT NULL DEFAULT 0,
                 PRIMARY KEY (name, rules, speed, bots));
             INSERT INTO ratings (name, rules, speed, rating, deviation, volatility, wins,
                 draws, losses, bots)
                 SELECT name, rules, speed, rating, deviation, volatility, wins, draws,
                     losses, 0 FROM ratings_before_bots;
             DROP TABLE ratings_before_bots;",
        )?;
    }
    tx.execute_batch(
        "CREATE INDEX IF NOT EXISTS ratings_by_pool
             ON ratings (rules, speed, bots, rating DESC, name);",
    )
}

/// Whether `table` has its `bots` mark.
fn has_bots_mark(tx: &rusqlite::Transaction<'_>, table: &str) -> rusqlite::Result<bool> {
    tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = 'bots')",
        [table],
        |r| r.get(0),
    )
}

/// The pool a game of `setup` between `players` counts for: the bots' pool of its rules and
/// speed if one of them is a bot and bots are not rated with people (`bots_with_humans`).
pub(super) fn pool_of(
    db: &Connection,
    setup: &GameSetup,
    players: &[Option<&str>],
    bots_with_humans: bool,
) -> StoreResult<Pool> {
    let mut bots = false;
    if !bots_with_humans {
        for name in players.iter().flatten() {
            bots |= db
                .prepare_cached("SELECT bot FROM names WHERE name = ?1")?
                .query_row([name], |r| r.get::<_, bool>(0))
                .optional()?
                .unwrap_or(false);
        }
    }
    Ok(Pool {
        bots,
        ..setup.pool()
    })
}

/// Rates game `game`, which has just ended with `outcome`, if it is rated ([`is_rated`]):
/// both players' ratings in its pool updated, a history row for each. In the caller's
/// transaction (the one storing the result). The two changes, attackers first.
pub(super) fn rate_finished(
    db: &Connection,
    game: GameId,
    outcome: Outcome,
    bots_with_humans: bool,
) -> StoreResult<Option<[Change; 2]>> {
    let row = db
        .prepare_cached(
            "SELECT setup, attackers_name, defenders_name,
                    (SELECT COUNT(*) FROM moves WHERE game = ?1)
             FROM games WHERE id = ?1",
        )?
        .query_row([id(game)], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })
        .optional()?;
    let Some((setup, Some(attackers), Some(defenders), plies)) = row else {
        return Ok(None);
    };
    let Ok(setup) = serde_json::from_str::<GameSetup>(&setup) else {
        return Ok(None);
    };
    if !is_rated(
        setup.rated,
        usize::try_from(plies).unwrap_or(0),
        outcome.reason,
    ) {
        return Ok(None);
    }
    let pool = pool_of(
        db,
        &setup,
        &[Some(&attackers), Some(&defenders)],
        bots_with_humans,
    )?;
    let before = [rating(db, &attackers, pool)?, rating(db, &defenders, pool)?];
    let after = rate_game(before[0], before[1], outcome.winner);
    let played = jiff::Timestamp::now().to_string();
    for (n, (name, side)) in [(&attackers, Side::Attackers), (&defenders, Side::Defenders)]
        .into_iter()
        .enumerate()
    {
        let score = Score::of(side, outcome.winner);
        store_rating(db, name, pool, after[n], score)?;
        db.prepare_cached(
            "INSERT OR REPLACE INTO rating_history (game, name, rules, speed, before,
                 before_deviation, after, after_deviation, volatility, played, bots)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            id(game),
            name,
            pool.rules.name(),
            pool.speed.name(),
            before[n].rating,
            before[n].deviation,
            after[n].rating,
            after[n].deviation,
            after[n].volatility,
            played,
            pool.bots,
        ])?;
    }
    let change = |n: usize| Change {
        before: before[n].shown(),
        after: after[n].shown(),
    };
    Ok(Some([change(0), change(1)]))
}

/// `name`'s rating in `pool` (a newcomer's if not rated there yet).
fn rating(db: &Connection, name: &str, pool: Pool) -> StoreResult<Rating> {
    Ok(stored_rating(db, name, pool)?.unwrap_or_default())
}

/// `name`'s rating in `pool`, if rated there.
fn stored_rating(db: &Connection, name: &str, pool: Pool) -> StoreResult<Option<Rating>> {
    db.prepare_cached(
        "SELECT rating, deviation, volatility FROM ratings
         WHERE name = ?1 AND rules = ?2 AND speed = ?3 AND bots = ?4",
    )?
    .query_row(
        params![name, pool.rules.name(), pool.speed.name(), pool.bots],
        |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        },
    )
    .optional()
}

/// Stores `name`'s new rating in `pool` and counts the game's `score`.
fn store_rating(
    db: &Connection,
    name: &str,
    pool: Pool,
    rating: Rating,
    score: Score,
) -> StoreResult<()> {
    let [wins, draws, losses] = match score {
        Score::Win => [1, 0, 0],
        Score::Draw => [0, 1, 0],
        Score::Loss => [0, 0, 1],
    };
    db.prepare_cached(
        "INSERT INTO ratings (name, rules, speed, rating, deviation, volatility, wins, draws,
             losses, bots) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (name, rules, speed, bots) DO UPDATE SET rating = ?4, deviation = ?5,
             volatility = ?6, wins = wins + ?7, draws = draws + ?8, losses = losses + ?9",
    )?
    .execute(params![
        name,
        pool.rules.name(),
        pool.speed.name(),
        rating.rating,
        rating.deviation,
        rating.volatility,
        wins,
        draws,
        losses,
        pool.bots
    ])?;
    Ok(())
}

/// `name`'s rating in `pool` as shown, if rated there.
pub(super) fn shown(db: &Connection, name: &str, pool: Pool) -> StoreResult<Option<Shown>> {
    Ok(stored_rating(db, name, pool)?.map(Rating::shown))
}

/// `name`'s rating in the pool of the most rated games, if rated at all.
pub(super) fn main_rating(db: &Connection, name: &str) -> StoreResult<Option<Shown>> {
    db.prepare_cached(
        "SELECT rating, deviation FROM ratings WHERE name = ?1
         ORDER BY wins + draws + losses DESC, rules, speed LIMIT 1",
    )?
    .query_row([name], |r| Ok(shown_of(r.get(0)?, r.get(1)?)))
    .optional()
}

/// A rating and its deviation as shown.
fn shown_of(rating: f64, deviation: f64) -> Shown {
    Rating {
        rating,
        deviation,
        ..Rating::default()
    }
    .shown()
}

/// The pool of the rules and speed named so in the database, a bots' one if `bots`.
fn pool_named(rules: &str, speed: &str, bots: bool) -> Option<Pool> {
    Some(Pool {
        rules: Preset::ALL.into_iter().find(|p| p.name() == rules)?,
        speed: Speed::named(speed)?,
        bots,
    })
}

/// Page `page` of `pool`'s leaderboard (the last if there are fewer), the highest rating
/// first, read from its index.
pub fn leaderboard(db: &Connection, pool: Pool, page: u32) -> StoreResult<Leaderboard> {
    let (rules, speed) = (pool.rules.name(), pool.speed.name());
    let total: i64 = db
        .prepare_cached(
            "SELECT COUNT(*) FROM ratings WHERE rules = ?1 AND speed = ?2 AND bots = ?3",
        )?
        .query_row(params![rules, speed, pool.bots], |r| r.get(0))?;
    let total = usize::try_from(total).unwrap_or(0);
    let page = page.min(pages(total, LEADERBOARD_PAGE) - 1);
    let offset = usize::try_from(page)
        .unwrap_or(usize::MAX)
        .saturating_mul(LEADERBOARD_PAGE);
    let mut query = db.prepare_cached(
        "SELECT name, rating, deviation, wins + draws + losses FROM ratings
         WHERE rules = ?1 AND speed = ?2 AND bots = ?5 ORDER BY rating DESC, name
         LIMIT ?3 OFFSET ?4",
    )?;
    let rows = query.query_map(
        params![
            rules,
            speed,
            count(LEADERBOARD_PAGE),
            count(offset),
            pool.bots
        ],
        |r| {
            Ok((
                r.get::<_, String>(0)?,
                shown_of(r.get(1)?, r.get(2)?),
                u32::try_from(r.get::<_, i64>(3)?).unwrap_or(u32::MAX),
            ))
        },
    )?;
    let mut players = Vec::new();
    for (n, row) in rows.enumerate() {
        let (name, rating, games) = row?;
        players.push(Ranked {
            rank: offset + n + 1,
            name,
            rating,
            games,
        });
    }
    Ok(Leaderboard {
        rules: pool.rules,
        speed: pool.speed,
        bots: pool.bots,
        page,
        total,
        players,
    })
}

/// `name`'s profile: each pool rated in (the most played first), the newest rating history
/// and the last finished games. Whether the player is online or playing is the hub's to
/// say (false here).
pub fn profile(db: &Connection, name: &str) -> StoreResult<Profile> {
    let mut query = db.prepare_cached(
        "SELECT rules, speed, rating, deviation, wins, draws, losses, bots FROM ratings
         WHERE name = ?1 ORDER BY wins + draws + losses DESC, rules, speed, bots",
    )?;
    let rows = query.query_map([name], |r| {
        let games = |i| r.get::<_, i64>(i).map(|n| u32::try_from(n).unwrap_or(0));
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            shown_of(r.get(2)?, r.get(3)?),
            [games(4)?, games(5)?, games(6)?],
            r.get::<_, bool>(7)?,
        ))
    })?;
    let mut pools = Vec::new();
    for row in rows {
        let (rules, speed, rating, [wins, draws, losses], bots) = row?;
        if let Some(pool) = pool_named(&rules, &speed, bots) {
            pools.push(PoolRecord {
                pool,
                rating,
                wins,
                draws,
                losses,
            });
        }
    }
    let mut query = db.prepare_cached(
        "SELECT rules, speed, game, after, bots FROM rating_history WHERE name = ?1
         ORDER BY game DESC LIMIT ?2",
    )?;
    let rows = query.query_map(params![name, count(PROFILE_HISTORY)], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?.unsigned_abs(),
            shown_of(r.get(3)?, 0.0).rating,
            r.get::<_, bool>(4)?,
        ))
    })?;
    let mut history = Vec::new();
    for row in rows {
        let (rules, speed, game, rating, bots) = row?;
        if let Some(pool) = pool_named(&rules, &speed, bots) {
            history.push(RatingPoint { pool, game, rating });
        }
    }
    history.reverse();
    let mut recent = read::archive(db, name, 0)?.games;
    recent.truncate(PROFILE_RECENT);
    Ok(Profile {
        name: name.to_owned(),
        online: false,
        playing: false,
        pools,
        history,
        recent,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Seat, Stage, Store, StoredGame, rebuild};
    use super::*;
    use crate::rules::Reason;

    /// A game of `setup` between ann (attackers) and bob, `plies` moves played, then won by
    /// `winner`; the rating changes stored with its result.
    fn played(
        store: &mut Store,
        setup: &GameSetup,
        plies: usize,
        winner: Side,
    ) -> Option<[Change; 2]> {
        let seat = |name: &str| Seat {
            key: format!("key of {name}"),
            name: name.into(),
        };
        let id = store.create(setup, &seat("ann"), None).unwrap();
        let game = StoredGame {
            id,
            game: rebuild(setup, &[], None, None).unwrap(),
            setup: setup.clone(),
            creator: seat("ann"),
            code: None,
            attackers: Some(seat("ann")),
            defenders: Some(seat("bob")),
            stage: Stage::Playing,
        };
        store.start(&game).unwrap();
        for (ply, mv) in ["d2-c2", "d3-e3"].into_iter().take(plies).enumerate() {
            store.add_move(id, ply, mv, None, None).unwrap();
        }
        let outcome = Outcome {
            winner: Some(winner),
            reason: Reason::Resignation,
        };
        store.finish(id, outcome, None).unwrap()
    }

    #[test]
    fn a_rated_game_is_rated_with_its_result_and_the_leaderboard_read_from_its_index() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let rated = GameSetup {
            rated: true,
            ..GameSetup::default()
        };
        assert_eq!(
            played(&mut store, &GameSetup::default(), 2, Side::Attackers),
            None
        );
        assert_eq!(played(&mut store, &rated, 1, Side::Attackers), None);
        let [ann, bob] = played(&mut store, &rated, 2, Side::Defenders).unwrap();
        assert_eq!((ann.after.rating, bob.after.rating), (1338, 1662));
        let [ann, _] = played(&mut store, &rated, 2, Side::Attackers).unwrap();
        assert_eq!(ann.before.rating, 1338, "rated from the rating before");
        let pool = rated.pool();
        let board = leaderboard(&store.db, pool, 9).unwrap();
        let names: Vec<(&str, u32)> = board
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.games))
            .collect();
        assert_eq!(
            (board.page, board.total),
            (0, 2),
            "past the end: the last page"
        );
        // The upset moved both far (their deviations are still high): ann is ahead again.
        assert_eq!(names, [("ann", 2), ("bob", 2)]);
        let profile = profile(&store.db, "ann").unwrap();
        let record = profile.pools[0];
        assert_eq!((record.wins, record.draws, record.losses), (1, 0, 1));
        assert_eq!(profile.history.len(), 2);
        assert_eq!(profile.recent.len(), 4, "every finished game, rated or not");
        let plan: Vec<String> = store
            .db
            .prepare(
                "EXPLAIN QUERY PLAN SELECT name FROM ratings WHERE rules = 'standard'
                 AND speed = 'live' AND bots = 0 ORDER BY rating DESC, name LIMIT 50",
            )
            .unwrap()
            .query_map([], |r| r.get(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            plan.iter().any(|s| s.contains("ratings_by_pool")),
            "{plan:?}"
        );
        assert!(!plan.iter().any(|s| s.contains("TEMP B-TREE")), "{plan:?}");
        // Opened again (the migration's steps run on a database that has them): the same.
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(leaderboard(&store.db, pool, 0).unwrap().total, 2);
    }

    #[test]
    fn a_game_with_a_bot_is_rated_in_the_bots_pool_unless_bots_are_rated_with_people() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        let bot = super::super::NameClaim {
            key: "key of bob",
            name: "bob",
            now: 0,
            most: 5,
            may_add: true,
            bot: true,
        };
        store.claim_name(&bot).unwrap();
        let rated = GameSetup {
            rated: true,
            ..GameSetup::default()
        };
        let people = rated.pool();
        let bots = Pool {
            bots: true,
            ..people
        };
        played(&mut store, &rated, 2, Side::Attackers).unwrap();
        assert_eq!(store.rating("ann", people).unwrap(), None, "{people}");
        assert_eq!(store.rating("ann", bots).unwrap().unwrap().rating, 1662);
        assert_eq!(leaderboard(&store.db, bots, 0).unwrap().total, 2);
        assert_eq!(leaderboard(&store.db, people, 0).unwrap().total, 0);
        let profile = profile(&store.db, "ann").unwrap();
        assert_eq!(profile.pools[0].pool, bots);
        assert_eq!(profile.history[0].pool, bots);
        assert_eq!(bots.to_string(), "standard live · with bots");
        store.rate_bots_with_humans(true);
        played(&mut store, &rated, 2, Side::Attackers).unwrap();
        assert_eq!(store.rating("ann", people).unwrap().unwrap().rating, 1662);
        assert_eq!(store.rating("ann", bots).unwrap().unwrap().rating, 1662);
    }

    #[test]
    fn ratings_stored_before_the_bots_pools_stay_in_the_people_s_pools() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = Connection::open(dir.path().join(super::super::DB_FILE)).unwrap();
            db.execute_batch(
                "CREATE TABLE ratings (
                     name TEXT NOT NULL, rules TEXT NOT NULL, speed TEXT NOT NULL,
                     rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
                     wins INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0,
                     losses INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (name, rules, speed));
                 CREATE INDEX ratings_by_pool ON ratings (rules, speed, rating DESC, name);
                 INSERT INTO ratings VALUES ('ann', 'standard', 'live', 1600, 100, 0.06, 1, 0, 0);
                 CREATE TABLE rating_history (
                     game INTEGER NOT NULL, name TEXT NOT NULL, rules TEXT NOT NULL,
                     speed TEXT NOT NULL, before REAL NOT NULL, before_deviation REAL NOT NULL,
                     after REAL NOT NULL, after_deviation REAL NOT NULL,
                     volatility REAL NOT NULL, played TEXT NOT NULL, PRIMARY KEY (game, name));",
            )
            .unwrap();
        }
        for _ in 0..2 {
            let store = Store::open(dir.path()).unwrap();
            let people = GameSetup::default().pool();
            assert_eq!(store.rating("ann", people).unwrap().unwrap().rating, 1600);
            let bots = Pool {
                bots: true,
                ..people
            };
            assert_eq!(store.rating("ann", bots).unwrap(), None);
        }
    }
}
