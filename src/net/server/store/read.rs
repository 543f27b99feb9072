//! Reads of the database, on any connection to it (the hub's at start, a reader's beside
//! it): the games open or in play, a finished game, a page of a player's archive. A row
//! that cannot be read back is never dropped unsaid: it comes back as [`Unreadable`], with
//! its number and why, for the caller to log or set aside.

use rusqlite::{Connection, params};

pub use super::memory::saved_chat;
use super::sql::{StoreResult, count, id, parse};
use super::stored::{Seat, Stage, StoredGame, Unreadable, rebuild};
use crate::game::Clocks;
use crate::net::protocol::{
    ARCHIVE_PAGE, GameId, GameSetup, GameSummary, Role, SeatRatings, pages,
};
use crate::rules::Outcome;

/// The finished games of the player named `?1` in all, counted from the indexes.
pub(super) const ARCHIVE_COUNT: &str = "
    SELECT (SELECT COUNT(*) FROM games WHERE stage = 'over' AND attackers_name = ?1)
         + (SELECT COUNT(*) FROM games WHERE stage = 'over' AND defenders_name = ?1)";

/// `?2` finished games of the player named `?1` from the `?3`th newest on, each with its
/// moves counted and whether its creator's, attackers' and defenders' names are bots': the
/// page's numbers read from the indexes, then only its games.
pub(super) const ARCHIVE_PAGE_QUERY: &str = "
    WITH page (id) AS (
        SELECT id FROM games WHERE stage = 'over' AND attackers_name = ?1
        UNION ALL
        SELECT id FROM games WHERE stage = 'over' AND defenders_name = ?1
        ORDER BY id DESC LIMIT ?2 OFFSET ?3)
    SELECT g.id, g.setup, g.creator_name, g.attackers_name, g.defenders_name, g.outcome,
           COUNT(m.ply), substr(g.created, 1, 10),
           (SELECT bot FROM names WHERE name = g.creator_name),
           (SELECT bot FROM names WHERE name = g.attackers_name),
           (SELECT bot FROM names WHERE name = g.defenders_name)
    FROM page JOIN games g ON g.id = page.id
         LEFT JOIN moves m ON m.game = g.id
    GROUP BY g.id ORDER BY g.id DESC";

/// A page of a player's archive.
#[derive(Debug, Default)]
pub struct ArchivePage {
    /// Its games, newest first.
    pub games: Vec<GameSummary>,
    /// Its number (the last one if the page asked for is past it).
    pub page: u32,
    /// The player's finished games in all.
    pub total: usize,
    /// The games of the page that cannot be read back, left out of `games`.
    pub unreadable: Vec<Unreadable>,
}

/// Every game open or in play, for a server that starts again, each read back or not.
pub fn unfinished(db: &Connection) -> StoreResult<Vec<Result<StoredGame, Unreadable>>> {
    games(db, "stage IN ('open', 'playing')", params![])
}

/// Finished game `game`, read back or not; `None` if there is no such finished game.
pub fn finished(
    db: &Connection,
    game: GameId,
) -> StoreResult<Option<Result<StoredGame, Unreadable>>> {
    Ok(games(db, "stage = 'over' AND id = ?1", params![id(game)])?.pop())
}

/// Page `page` of the finished games of the player named `name`, newest first (the last
/// page if there are fewer), with the player's finished games in all. Read from the
/// indexes, each game's moves counted, none replayed.
pub fn archive(db: &Connection, name: &str, page: u32) -> StoreResult<ArchivePage> {
    let total: i64 = db
        .prepare_cached(ARCHIVE_COUNT)?
        .query_row([name], |r| r.get(0))?;
    let total = usize::try_from(total).unwrap_or(0);
    let page = page.min(pages(total, ARCHIVE_PAGE) - 1);
    let offset = u64::from(page).saturating_mul(ARCHIVE_PAGE as u64);
    let mut query = db.prepare_cached(ARCHIVE_PAGE_QUERY)?;
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
                r.get::<_, Option<String>>(5)?,
                GameSummary {
                    id: 0,
                    setup: GameSetup::default(),
                    creator: r.get(2)?,
                    attackers: r.get(3)?,
                    defenders: r.get(4)?,
                    outcome: None,
                    ratings: SeatRatings::default(),
                    spectators: 0,
                    plies: usize::try_from(r.get::<_, i64>(6)?).unwrap_or(0),
                    date: r.get(7)?,
                    bots: bot_roles([r.get(8)?, r.get(9)?, r.get(10)?]),
                },
            ))
        },
    )?;
    let mut archive = ArchivePage {
        page,
        total,
        ..ArchivePage::default()
    };
    for row in rows {
        let (id, setup, outcome, summary) = row?;
        let read = || -> Result<GameSummary, String> {
            let outcome = outcome.ok_or("no result")?;
            Ok(GameSummary {
                id,
                setup: parse("setup", &setup)?,
                outcome: Some(parse::<Outcome>("result", &outcome)?),
                ..summary
            })
        };
        match read() {
            Ok(game) => archive.games.push(game),
            Err(why) => archive.unreadable.push(Unreadable { id, why }),
        }
    }
    Ok(archive)
}

/// The roles whose names are bots', from the marks of the creator's, the attackers' and the
/// defenders' names (`None`: no such name).
fn bot_roles(marks: [Option<bool>; 3]) -> Vec<Role> {
    [Role::Creator, Role::Attackers, Role::Defenders]
        .into_iter()
        .zip(marks)
        .filter(|(_, bot)| *bot == Some(true))
        .map(|(role, _)| role)
        .collect()
}

/// The games matching `filter`, oldest first, each rebuilt by replaying its moves.
fn games(
    db: &Connection,
    filter: &str,
    args: &[&dyn rusqlite::ToSql],
) -> StoreResult<Vec<Result<StoredGame, Unreadable>>> {
    let sql = format!(
        "SELECT id, setup, creator_key, creator_name, code, attackers_key, attackers_name,
                defenders_key, defenders_name, stage, clocks, outcome, created
         FROM games WHERE {filter} ORDER BY id"
    );
    let mut query = db.prepare_cached(&sql)?;
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
            r.get::<_, String>(12)?,
        ))
    })?;
    let mut games = Vec::new();
    for row in rows {
        let (id, setup, creator, code, attackers, defenders, stage, clocks, outcome, created) =
            row?;
        let moves = moves(db, id)?;
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
            let mut game = rebuild(&setup, &moves, clocks, outcome)?;
            // The record keeps the day the game was made, not the day it was rebuilt (a
            // download is named by it); a date that cannot be read leaves the rebuild's.
            if let Ok(created) = created.parse::<crate::game::Timestamp>() {
                game.set_created(created);
            }
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

/// The moves of `game`, in order.
fn moves(db: &Connection, game: GameId) -> StoreResult<Vec<String>> {
    let mut query = db.prepare_cached("SELECT mv FROM moves WHERE game = ?1 ORDER BY ply")?;
    let rows = query.query_map([id(game)], |r| r.get(0))?;
    rows.collect()
}
