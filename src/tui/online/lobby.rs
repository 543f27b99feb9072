//! The lobby as a list: the player's own games ("your move" first), a page of the open games
//! and one of the games in progress to watch, each counted, and the players online; one game
//! selected at a time, the pages turned with n and p.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::create::{side_text, timing_text};
use std::collections::BTreeSet;

use super::standings::rated_name;
use crate::net::protocol::{GameId, GameSummary, Lobby, Role, bot_marked};
use crate::rules::Side;
use crate::tui::input::{Direction, Key, KeyTable};
use crate::tui::theme::{Look, Themed};

/// Every key of the lobby, as its help lists them: (keys, what they do).
pub const LOBBY_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("↑ ↓", "select a game"),
        Key::new("Enter", "join an open game, play yours, watch another"),
        Key::new("c", "create a game"),
        Key::new("C", "challenge a player online (a name, then the terms)"),
        Key::new(
            "a / d",
            "accept / decline the challenge received (d: withdraw yours)",
        ),
        Key::new("i", "join a private game by its invite code"),
        Key::new("w", "watch the game selected"),
        Key::new("x", "withdraw your open game / stop watching"),
        Key::new(
            "f",
            "the players' key fingerprints (tells look-alike names apart)",
        ),
        Key::new("r", "refresh the lists"),
        Key::new(
            "L",
            "the leaderboard (of the selected game's rules and speed)",
        ),
        Key::new(
            "P",
            "a player's profile (the selected game's other player, or a name)",
        ),
        Key::new("n / PgDn", "the next page of open games and games to watch"),
        Key::new("g", "your finished games, to review"),
        Key::new("Tab", "write a line in the lobby's chat"),
        Key::new(
            "m",
            "mute a player (their chat hidden here), or hear them again",
        ),
        Key::new(
            "b",
            "block a player (cannot join your games, chat hidden), or lift it",
        ),
        Key::new("p / PgUp", "the previous page"),
        Key::new("?", "these keys"),
        Key::new("q / Esc", "leave the server"),
    ],
    notes: &[],
};

/// What a selected game is to the player.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Kind {
    /// A game the player plays in.
    Mine,
    /// A game the player created, waiting for an opponent.
    Waiting,
    /// A game waiting for an opponent.
    Open,
    /// A game of others in progress.
    Watch,
}

/// The lobby and the game selected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LobbyList {
    lobby: Lobby,
    /// The player's name.
    me: String,
    /// Index into [`LobbyList::games`].
    selected: usize,
    /// The page to ask the server for.
    page: u32,
    /// The player's games where a move came while they were not on screen, until opened.
    alerts: BTreeSet<GameId>,
}

impl LobbyList {
    /// An empty lobby of the player `me`.
    pub fn new(me: &str) -> LobbyList {
        LobbyList {
            me: me.to_owned(),
            ..LobbyList::default()
        }
    }

    /// The lobby as the server sent it now; the selection stays on its game if it is there.
    pub fn set(&mut self, lobby: Lobby) {
        let was = self.selected().map(|(g, _)| g.id);
        self.page = lobby.page;
        self.lobby = lobby;
        let games = self.games();
        self.selected = was
            .and_then(|id| games.iter().position(|(g, _)| g.id == id))
            .unwrap_or(0);
    }

    /// A move came in the player's game `game` while it was not on screen: its row is marked.
    pub fn alert(&mut self, game: GameId) {
        self.alerts.insert(game);
    }

    /// Game `game` is on screen: its mark goes.
    pub fn seen(&mut self, game: GameId) {
        self.alerts.remove(&game);
    }

    /// Whether game `game`'s row is marked.
    pub fn alerted(&self, game: GameId) -> bool {
        self.alerts.contains(&game)
    }

    /// The page to ask the server for.
    pub const fn page(&self) -> u32 {
        self.page
    }

    /// Turns to the next page (`forward`) or the previous one; returns whether there is one
    /// that way.
    pub fn turn_page(&mut self, forward: bool) -> bool {
        let page = if forward {
            self.page.saturating_add(1)
        } else {
            self.page.saturating_sub(1)
        };
        let turned = page != self.page && page < self.lobby.pages();
        if turned {
            self.page = page;
        }
        turned
    }

    /// The games in the order shown, with what each is to the player.
    pub fn games(&self) -> Vec<(&GameSummary, Kind)> {
        // An open game has no players yet, only its creator.
        let open = |g: &&GameSummary| g.attackers.is_none() && g.defenders.is_none();
        // Those where it is the player's move first (a stable sort keeps the server's order
        // within each).
        let mut mine: Vec<&GameSummary> = self.lobby.mine.iter().filter(|g| !open(g)).collect();
        mine.sort_by_key(|g| !self.your_move(g));
        let waiting = self.lobby.mine.iter().filter(open);
        mine.into_iter()
            .map(|g| (g, Kind::Mine))
            .chain(waiting.map(|g| (g, Kind::Waiting)))
            .chain(self.lobby.open.iter().map(|g| (g, Kind::Open)))
            .chain(self.lobby.playing.iter().map(|g| (g, Kind::Watch)))
            .collect()
    }

    /// The counts and the page, in words: `12 open · 340 to watch · page 2 of 17`.
    fn counts(&self) -> String {
        let lobby = &self.lobby;
        let mut text = format!(
            "{} open · {} to watch",
            lobby.open_total, lobby.playing_total
        );
        if lobby.pages() > 1 {
            let page = format!(
                " · page {} of {} (n/p turn)",
                lobby.page.saturating_add(1),
                lobby.pages()
            );
            text.push_str(&page);
        }
        text
    }

    /// The names of the other players online (of those the server named).
    pub fn others(&self) -> Vec<&str> {
        let me = self.me.as_str();
        let names = self.lobby.players.iter().map(String::as_str);
        names.filter(|name| *name != me).collect()
    }

    /// The players online with their ratings, those playing marked, those not named
    /// counted: `alice 1523 (playing), bob 1500?`.
    fn players(&self) -> String {
        let lobby = &self.lobby;
        let names: Vec<String> = lobby
            .players
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let status = lobby.players_status.get(i);
                let shown = bot_marked(n, lobby.bots.contains(&i));
                let name = rated_name(&shown, status.and_then(|s| s.rating));
                if status.is_some_and(|s| s.playing) {
                    format!("{name} (playing)")
                } else {
                    name
                }
            })
            .collect();
        let unnamed = lobby.players_total.saturating_sub(names.len());
        let names = names.join(", ");
        if unnamed > 0 {
            format!("{names} and {unnamed} more")
        } else {
            names
        }
    }

    /// The game selected, if any.
    pub fn selected(&self) -> Option<(&GameSummary, Kind)> {
        self.games().get(self.selected).copied()
    }

    /// Moves the selection.
    pub fn move_selection(&mut self, dir: Direction) {
        let n = self.games().len();
        self.selected = match dir {
            Direction::Up | Direction::Left => self.selected.saturating_sub(1),
            Direction::Down | Direction::Right => (self.selected + 1).min(n.saturating_sub(1)),
        };
    }

    /// Whether it is the player's move in `game` (the attackers move first online).
    fn your_move(&self, game: &GameSummary) -> bool {
        let to_move = if game.plies.is_multiple_of(2) {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let player = match to_move {
            Side::Attackers => &game.attackers,
            Side::Defenders => &game.defenders,
        };
        game.outcome.is_none() && player.as_deref() == Some(self.me.as_str())
    }

    /// The player of `game` other than this one: the opponent in a game of the player's,
    /// the creator of an open game, the attackers' player of another game.
    pub fn other_player(&self, game: &GameSummary) -> Option<String> {
        [&game.attackers, &game.defenders]
            .into_iter()
            .flatten()
            .find(|n| **n != self.me)
            .cloned()
            .or_else(|| (game.creator != self.me).then(|| game.creator.clone()))
    }

    /// One game's line.
    fn line(&self, game: &GameSummary, kind: Kind) -> String {
        let ratings = &game.ratings;
        let name = |role, rating| rated_name(&game.shown(role), rating);
        let setup = &game.setup;
        let engine = if setup.engine_allowed {
            " engine ok"
        } else {
            ""
        };
        let rated = if setup.rated { "rated" } else { "casual" };
        let watching = match game.spectators {
            0 => String::new(),
            n => format!(" · {n} watching"),
        };
        let rules = format!(
            "{} {} {rated}{engine}{watching}",
            setup.rules.name(),
            timing_text(setup.timing)
        );
        match kind {
            Kind::Mine => {
                // A move announced may be newer than this list.
                let turn = match (self.alerted(game.id), self.your_move(game)) {
                    (true, _) => "● your move (a new move)",
                    (false, true) => "your move",
                    (false, false) => "their move",
                };
                format!(
                    "#{} {} vs {} · {turn} · ply {} · {rules}",
                    game.id,
                    name(Role::Attackers, ratings.attackers),
                    name(Role::Defenders, ratings.defenders),
                    game.plies
                )
            }
            Kind::Waiting => format!(
                "#{} you wait ({}){} · {rules}",
                game.id,
                side_text(setup.side),
                if setup.private {
                    " · private (Enter: its code)"
                } else {
                    ""
                }
            ),
            Kind::Open => format!(
                "#{} {} waits ({}) · {rules}",
                game.id,
                name(Role::Creator, ratings.creator),
                side_text(setup.side)
            ),
            Kind::Watch => format!(
                "#{} {} vs {} · ply {} · {rules}",
                game.id,
                name(Role::Attackers, ratings.attackers),
                name(Role::Defenders, ratings.defenders),
                game.plies
            ),
        }
    }

    /// The id of a game of the player, shown as "your move", if any.
    #[cfg(test)]
    pub fn first_your_move(&self) -> Option<GameId> {
        self.games()
            .into_iter()
            .find(|(g, k)| *k == Kind::Mine && self.your_move(g))
            .map(|(g, _)| g.id)
    }
}

impl Widget for Themed<'_, LobbyList> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: list, look } = self;
        let games = list.games();
        let mut lines: Vec<Line> = Vec::new();
        let mut selected_row = 0;
        let lobby = &list.lobby;
        let sections = [
            (
                "Your games",
                lobby.mine_total,
                &[Kind::Mine, Kind::Waiting][..],
            ),
            ("Open games", lobby.open_total, &[Kind::Open][..]),
            ("Games to watch", lobby.playing_total, &[Kind::Watch][..]),
        ];
        lines.push(Line::styled(list.counts(), look.theme.label));
        for (heading, total, kinds) in sections {
            lines.push(Line::styled(
                format!("{heading} · {total}"),
                look.theme.heading,
            ));
            let mut any = false;
            for (i, (game, kind)) in games.iter().enumerate() {
                if !kinds.contains(kind) {
                    continue;
                }
                any = true;
                let on = i == list.selected;
                if on {
                    selected_row = lines.len();
                }
                lines.push(game_line(look, on, &list.line(game, *kind)));
            }
            if !any {
                lines.push(Line::styled("  none", look.theme.label));
            }
        }
        lines.push(Line::styled(
            format!("Players online · {}", lobby.players_total),
            look.theme.heading,
        ));
        lines.push(Line::raw(format!("  {}", list.players())));
        // The selected game stays on screen.
        let rows = usize::from(area.height);
        let top = (selected_row + 1).saturating_sub(rows);
        let shown: Vec<Line> = lines.into_iter().skip(top).collect();
        Paragraph::new(shown).render(area, buf);
    }
}

fn game_line(look: &Look, on: bool, text: &str) -> Line<'static> {
    if on {
        Line::styled(format!("▶ {text}"), look.theme.focus)
    } else {
        Line::raw(format!("  {text}"))
    }
}
