//! Values as the database keeps them: numbers within `i64`, JSON texts written and read
//! back, and its errors.

use rusqlite::{Connection, Params};

use crate::net::protocol::GameId;

/// A database error, in words.
pub(in crate::net::server) type StoreResult<T> = Result<T, rusqlite::Error>;

/// Runs the statement `sql` with `params` on `db`, prepared once per connection; the rows
/// it changed.
pub(super) fn execute(db: &Connection, sql: &str, params: impl Params) -> StoreResult<usize> {
    db.prepare_cached(sql)?.execute(params)
}

/// `value` as JSON, or the error that it cannot be.
pub(super) fn json(value: &impl serde::Serialize) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))
}

/// `value`, if any, as JSON.
pub(super) fn optional_json(value: Option<&impl serde::Serialize>) -> StoreResult<Option<String>> {
    value.map(json).transpose()
}

/// A game's number as `SQLite` keeps it (numbers come from its rowids, within `i64`).
pub(super) fn id(game: GameId) -> i64 {
    i64::try_from(game).unwrap_or(i64::MAX)
}

/// A count as `SQLite` keeps it.
pub(super) fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// `text` read as a `what`, or why not.
pub(super) fn parse<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("its {what}: {e}"))
}
