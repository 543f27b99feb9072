//! The lobby as a player sees it, a page at a time, from the games in memory.

use super::{Hub, Live};
use crate::net::protocol::{GameSummary, LOBBY_PAGE, LOBBY_PLAYERS, Lobby, pages};
use crate::net::server::store::Stage;

impl Hub {
    /// Page `page` of the lobby as `key`'s player sees it (the last page if there are
    /// fewer): its own games (its move first, then the others in progress, then the open
    /// ones it waits in), a page of the open games of others and one of their games in
    /// progress, each list counted.
    pub(super) fn lobby(&self, key: &str, page: u32) -> Lobby {
        let mut mine = Vec::new();
        let mut open = Vec::new();
        let mut playing = Vec::new();
        for live in self.games.values() {
            let stored = &live.stored;
            match (stored.stage, stored.side_of(key)) {
                (Stage::Playing, Some(side)) => {
                    let to_move = stored.game.state().position().side_to_move();
                    mine.push((u8::from(side != to_move), live));
                }
                (Stage::Playing, None) => playing.push(live),
                (Stage::Open, _) if stored.creator.key == key => mine.push((2, live)),
                (Stage::Open, _) if !stored.setup.private => open.push(live),
                _ => {}
            }
        }
        mine.sort_by_key(|(rank, g)| (*rank, g.stored.id));
        let mut online = self.online_players();
        let players_total = online.len();
        online.truncate(LOBBY_PLAYERS);
        let names: Vec<&str> = online.iter().map(|(name, _)| name.as_str()).collect();
        let bots = self.bots_among(&names);
        let page = page.min(pages(open.len().max(playing.len()), LOBBY_PAGE) - 1);
        Lobby {
            mine: mine
                .iter()
                .take(LOBBY_PAGE)
                .map(|(_, g)| self.marked(g.summary()))
                .collect(),
            mine_total: mine.len(),
            open_total: open.len(),
            open: self.page_of(open, page),
            playing_total: playing.len(),
            playing: self.page_of(playing, page),
            page,
            players_total,
            players_status: online.iter().map(|(_, status)| *status).collect(),
            players: online.into_iter().map(|(name, _)| name).collect(),
            bots,
        }
    }

    /// Page `page` of `games`, in the order they were made.
    fn page_of(&self, mut games: Vec<&Live>, page: u32) -> Vec<GameSummary> {
        games.sort_unstable_by_key(|g| g.stored.id);
        let skip = usize::try_from(page)
            .unwrap_or(usize::MAX)
            .saturating_mul(LOBBY_PAGE);
        games
            .into_iter()
            .skip(skip)
            .take(LOBBY_PAGE)
            .map(|g| self.marked(g.summary()))
            .collect()
    }
}
