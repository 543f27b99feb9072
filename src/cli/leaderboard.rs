//! `brandubh online HOST --leaderboard [--rules P] [--correspondence]`: a pool's
//! leaderboard printed for scripts, one line per player (rank, name, rating, rated games,
//! separated by tabs), read a page at a time; no terminal is taken.

use std::io::Write;

use super::error::CliError;
use super::requests::{Requests, unexpected};
use crate::net::protocol::{ClientMessage, LEADERBOARD_PAGE, Ranked, ServerMessage, pages};
use crate::net::ratings::Pool;
use crate::quote::excerpt;

/// Prints `pool`'s leaderboard on `server` (`insecure`: its key not pinned, for tests),
/// every page of it, asked of the server without an identity.
pub(super) fn print(
    server: &str,
    insecure: bool,
    pool: Pool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut requests = Requests::start(server, insecure, None)?;
    let mut page = 0;
    loop {
        let request = ClientMessage::Leaderboard(crate::net::protocol::LeaderboardAsk {
            rules: pool.rules,
            speed: pool.speed,
            page,
            bots: pool.bots,
        });
        let ServerMessage::Leaderboard(board) =
            requests.ask(request, |m| matches!(m, ServerMessage::Leaderboard(_)))?
        else {
            return Err(unexpected());
        };
        for player in &board.players {
            writeln!(out, "{}", line(player))?;
        }
        page += 1;
        if page >= pages(board.total, LEADERBOARD_PAGE) {
            return Ok(());
        }
    }
}

/// A player's line: rank, name, rating (`1500?` while provisional) and rated games, each
/// separated by a tab.
fn line(player: &Ranked) -> String {
    format!(
        "{}\t{}\t{}\t{}",
        player.rank,
        excerpt(&player.name),
        player.rating,
        player.games
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::ratings::Shown;

    #[test]
    fn a_line_is_rank_name_rating_and_games_between_tabs() {
        let player = Ranked {
            rank: 3,
            name: "Brian Boru".into(),
            rating: Shown {
                rating: 1500,
                deviation: 350,
            },
            games: 0,
        };
        assert_eq!(line(&player), "3\tBrian Boru\t1500?\t0");
    }
}
