//! "Your games" (`g` in the lobby): the player's finished games on this server, a page at a
//! time, newest first (the server's archive), each with its date, opponent, result and
//! rules; Enter downloads the record and opens it in the local game's review (analysis, side
//! lines, comments), over online play, which stays connected under it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::create::timing_text;
use super::{Online, View};
use crate::game::Game;
use crate::net::protocol::{ARCHIVE_PAGE, ClientMessage, GameId, GameSummary, Role, pages};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::Side;
use crate::tui::help::Help;
use crate::tui::input::{Action, Direction, Key, KeyTable};
use crate::tui::panels::outcome_text;
use crate::tui::theme::Look;

/// Every key of the list of the player's games, as its help lists them.
pub const YOUR_GAMES_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("↑ ↓", "select a game"),
        Key::new(
            "Enter",
            "open it in review (analysis, side lines, comments)",
        ),
        Key::new("n / PgDn", "the next page (older games)"),
        Key::new("p / PgUp", "the previous page"),
        Key::new("r", "ask for the page again"),
        Key::new("q / Esc", "back to the lobby"),
    ],
    notes: &["In review, q or Esc comes back here; the connection stays open meanwhile."],
};

/// The player's finished games as the server last listed them, and the one being opened.
#[derive(Clone, Debug, Default)]
pub(super) struct YourGames {
    /// The page shown (or asked for), from 0.
    page: u32,
    /// Its games, newest first.
    games: Vec<GameSummary>,
    /// The player's finished games in all.
    total: usize,
    /// Index into `games`.
    selected: usize,
    /// The game whose record was asked for, to review.
    opening: Option<GameId>,
    /// A record downloaded, to be opened in review (taken by the layer online play is).
    ready: Option<Box<Game>>,
}

impl Online {
    /// `g` in the lobby: the list of the player's games, its first page asked for.
    pub(super) fn open_your_games(&mut self) {
        self.your_games = YourGames::default();
        self.view = View::YourGames;
        self.ask_your_games();
    }

    /// Asks for the page of the player's games the list is at.
    fn ask_your_games(&mut self) {
        let Some(name) = self.lobby_name() else {
            return;
        };
        let page = self.your_games.page;
        self.send(ClientMessage::Archive { name, page });
        self.info("asking for your games…");
    }

    /// A page of a player's archive: the list's, if it is the player's.
    pub(super) fn archive_page(
        &mut self,
        name: &str,
        games: Vec<GameSummary>,
        page: u32,
        total: usize,
    ) {
        if self.lobby_name().as_deref() != Some(name) {
            return;
        }
        let list = &mut self.your_games;
        (list.games, list.page, list.total) = (games, page, total);
        list.selected = list.selected.min(list.games.len().saturating_sub(1));
        let pages = pages(total, ARCHIVE_PAGE);
        self.info(&format!(
            "{total} finished · page {} of {pages}: Enter reviews, n/p pages, q lobby",
            page.saturating_add(1)
        ));
    }

    /// The server sent game `game`'s record: opened in review if it was asked for that;
    /// whether it was.
    pub(super) fn review_downloaded(&mut self, game: GameId, json: &str) -> bool {
        if self.your_games.opening != Some(game) {
            return false;
        }
        self.your_games.opening = None;
        match Game::from_json(json) {
            Ok(record) => {
                self.your_games.ready = Some(Box::new(record));
                self.info(&format!(
                    "game #{game} in review: q or Esc back to your games"
                ));
            }
            Err(e) => self.error(&format!(
                "the server sent a bad game #{game}: {}",
                escaped(&e.to_string(), MESSAGE_CHARS)
            )),
        }
        true
    }

    /// A finished game downloaded to open in review, once (the layer takes it).
    pub fn take_review(&mut self) -> Option<Game> {
        self.your_games.ready.take().map(|game| *game)
    }

    /// A key of the list of the player's games.
    pub(super) fn update_your_games(&mut self, action: Action) {
        let list = &mut self.your_games;
        match action {
            Action::Move(Direction::Up | Direction::Left) => {
                list.selected = list.selected.saturating_sub(1);
            }
            Action::Move(Direction::Down | Direction::Right) => {
                list.selected = (list.selected + 1).min(list.games.len().saturating_sub(1));
            }
            Action::Confirm => self.review_selected(),
            Action::PageDown | Action::Type('n') => self.turn_your_page(true),
            Action::PageUp | Action::Type('p') => self.turn_your_page(false),
            Action::Type('r') => self.ask_your_games(),
            Action::Help | Action::Type('?') => {
                self.help = Some(Help::new("Your games".to_owned(), &YOUR_GAMES_KEYS));
            }
            Action::Cancel | Action::Quit | Action::Type('q') => {
                self.view = View::Lobby;
                self.refresh(self.now);
                self.info("the lobby: ? for the keys");
            }
            _ => {}
        }
    }

    /// Asks for the record of the game selected, to review it.
    fn review_selected(&mut self) {
        let Some(game) = self.your_games.games.get(self.your_games.selected) else {
            self.info("no finished game yet");
            return;
        };
        let id = game.id;
        self.your_games.opening = Some(id);
        self.send(ClientMessage::Download { game: id });
        self.info(&format!("downloading game #{id}…"));
    }

    /// Turns to the next page (older games) or the previous one, if there is one.
    fn turn_your_page(&mut self, forward: bool) {
        let list = &mut self.your_games;
        let last_page = pages(list.total, ARCHIVE_PAGE) - 1;
        let page = if forward {
            list.page.saturating_add(1).min(last_page)
        } else {
            list.page.saturating_sub(1)
        };
        if page == list.page {
            self.info(if forward {
                "the last page"
            } else {
                "the first page"
            });
            return;
        }
        list.page = page;
        list.selected = 0;
        self.ask_your_games();
    }

    /// Draws the list of the player's games in `area`.
    pub(super) fn render_your_games(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let list = &self.your_games;
        let me = self.lobby_name().unwrap_or_default();
        let mut lines = vec![Line::styled(
            format!(
                "Your games · {} finished · page {} of {}",
                list.total,
                list.page.saturating_add(1),
                pages(list.total, ARCHIVE_PAGE)
            ),
            look.theme.heading,
        )];
        if list.games.is_empty() {
            lines.push(Line::styled("  none yet", look.theme.label));
        }
        for (i, game) in list.games.iter().enumerate() {
            let text = game_line(game, &me);
            lines.push(if i == list.selected {
                Line::styled(format!("▶ {text}"), look.theme.focus)
            } else {
                Line::raw(format!("  {text}"))
            });
        }
        // The selected game stays on screen.
        let rows = usize::from(area.height);
        let top = (list.selected + 2).saturating_sub(rows);
        let shown: Vec<Line> = lines.into_iter().skip(top).collect();
        Paragraph::new(shown).render(area, buf);
    }
}

/// One finished game of `me`'s: `#12 2026-12-07 · vs bob (defenders) · You win: … ·
/// standard 5m+3s · 34 plies`.
fn game_line(game: &GameSummary, me: &str) -> String {
    let you = [Side::Attackers, Side::Defenders]
        .into_iter()
        .find(|&side| {
            let name = match side {
                Side::Attackers => &game.attackers,
                Side::Defenders => &game.defenders,
            };
            name.as_deref() == Some(me)
        });
    let opponent = match you {
        Some(Side::Attackers) => Some(Role::Defenders),
        Some(Side::Defenders) => Some(Role::Attackers),
        None => None,
    };
    let against = match (opponent.filter(|&role| game.name(role).is_some()), you) {
        // A bot marked as such.
        (Some(role), Some(side)) => format!("vs {} (you the {side})", game.shown(role)),
        _ => "vs ?".to_owned(),
    };
    let result = game
        .outcome
        .map_or_else(|| "no result".to_owned(), |o| outcome_text(o, you));
    let date = game.date.as_deref().map_or_else(String::new, excerpt);
    format!(
        "#{} {date} · {against} · {result} · {} {} · {} plies",
        game.id,
        game.setup.rules.name(),
        timing_text(game.setup.timing),
        game.plies
    )
}
