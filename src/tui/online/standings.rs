//! The lobby's ratings screens: the leaderboard of a pool (`L`: ← → another pool, ↑ ↓ a
//! player, `PgUp` `PgDn` the pages, Enter the player's profile) and a player's profile (`P`:
//! the rating in each pool, its history as a small chart, the results, the last games).
//! Each asks the server for what it shows and draws what came; Esc goes back.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Sparkline, Widget};

use super::create::timing_text;
use crate::net::protocol::{ClientMessage, GameSummary, Leaderboard, Profile};
use crate::net::ratings::{Pool, Shown};
use crate::quote::excerpt;
use crate::rules::Side;
use crate::tui::input::{Action, Direction};
use crate::tui::screens::cycle;
use crate::tui::theme::Look;

/// A ratings screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standings {
    /// A pool's leaderboard.
    Leaderboard(LeaderboardScreen),
    /// A player's profile.
    Profile(ProfileScreen),
}

/// What a key on a ratings screen comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingsHandled {
    /// The screen stays.
    Stay,
    /// The screen stays and asks the server this.
    Ask(ClientMessage),
    /// Back to the lobby.
    Close,
}

/// The leaderboard screen: the pool, the page shown and the player selected on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardScreen {
    pool: Pool,
    page: u32,
    board: Option<Leaderboard>,
    selected: usize,
}

/// The profile screen: the player, the profile once it came, the pool charted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileScreen {
    name: String,
    profile: Option<Profile>,
    pool: usize,
}

/// `name`, with `rating` after it if known: `alice 1523`, `bob 1500?`, `carol`.
pub fn rated_name(name: &str, rating: Option<Shown>) -> String {
    match rating {
        Some(rating) => format!("{name} {rating}"),
        None => name.to_owned(),
    }
}

impl Standings {
    /// The leaderboard of `pool`, and the request for its first page.
    pub fn leaderboard(pool: Pool) -> (Standings, ClientMessage) {
        let screen = LeaderboardScreen {
            pool,
            page: 0,
            board: None,
            selected: 0,
        };
        let ask = screen.request();
        (Standings::Leaderboard(screen), ask)
    }

    /// The profile of `name`, and the request for it.
    pub fn profile(name: &str) -> (Standings, ClientMessage) {
        let screen = ProfileScreen {
            name: name.to_owned(),
            profile: None,
            pool: 0,
        };
        let ask = ClientMessage::Profile {
            name: name.to_owned(),
        };
        (Standings::Profile(screen), ask)
    }

    /// Takes a key.
    pub fn update(&mut self, action: Action) -> StandingsHandled {
        if matches!(action, Action::Cancel | Action::Quit | Action::Type('q')) {
            return StandingsHandled::Close;
        }
        match self {
            Standings::Leaderboard(screen) => match screen.update(action) {
                Some(LeaderboardMove::Ask(ask)) => StandingsHandled::Ask(ask),
                Some(LeaderboardMove::Profile(name)) => {
                    let (profile, ask) = Standings::profile(&name);
                    *self = profile;
                    StandingsHandled::Ask(ask)
                }
                None => StandingsHandled::Stay,
            },
            Standings::Profile(screen) => {
                screen.update(action);
                StandingsHandled::Stay
            }
        }
    }

    /// A leaderboard page came: shown if it is of the pool on screen.
    pub fn take_leaderboard(&mut self, board: Leaderboard) {
        if let Standings::Leaderboard(screen) = self
            && board.rules == screen.pool.rules
            && board.speed == screen.pool.speed
            && board.bots == screen.pool.bots
        {
            screen.page = board.page;
            screen.selected = screen.selected.min(board.players.len().saturating_sub(1));
            screen.board = Some(board);
        }
    }

    /// A profile came: shown if it is of the player on screen.
    pub fn take_profile(&mut self, profile: Profile) {
        if let Standings::Profile(screen) = self
            && profile.name == screen.name
        {
            screen.profile = Some(profile);
        }
    }

    /// Draws the screen over `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        Clear.render(area, buf);
        match self {
            Standings::Leaderboard(screen) => screen.render(area, buf, look),
            Standings::Profile(screen) => screen.render(area, buf, look),
        }
    }
}

/// What a key on the leaderboard asks for beyond the screen itself.
enum LeaderboardMove {
    Ask(ClientMessage),
    Profile(String),
}

impl LeaderboardScreen {
    fn request(&self) -> ClientMessage {
        ClientMessage::Leaderboard(crate::net::protocol::LeaderboardAsk {
            rules: self.pool.rules,
            speed: self.pool.speed,
            page: self.page,
            bots: self.pool.bots,
        })
    }

    fn update(&mut self, action: Action) -> Option<LeaderboardMove> {
        let shown = self.board.as_ref().map_or(0, |b| b.players.len());
        match action {
            Action::Move(dir @ (Direction::Left | Direction::Right)) => {
                let pools: Vec<Pool> = Pool::all().collect();
                self.pool = cycle(&pools, self.pool, dir == Direction::Right);
                (self.page, self.selected, self.board) = (0, 0, None);
                Some(LeaderboardMove::Ask(self.request()))
            }
            Action::Move(Direction::Up) => {
                self.selected = self.selected.saturating_sub(1);
                None
            }
            Action::Move(Direction::Down) => {
                self.selected = (self.selected + 1).min(shown.saturating_sub(1));
                None
            }
            Action::PageDown | Action::PageUp => {
                let pages = self.board.as_ref().map_or(1, |b| {
                    crate::net::protocol::pages(b.total, crate::net::protocol::LEADERBOARD_PAGE)
                });
                let page = if action == Action::PageDown {
                    self.page.saturating_add(1).min(pages.saturating_sub(1))
                } else {
                    self.page.saturating_sub(1)
                };
                (page != self.page).then(|| {
                    (self.page, self.selected) = (page, 0);
                    LeaderboardMove::Ask(self.request())
                })
            }
            Action::Confirm => {
                let player = self.board.as_ref()?.players.get(self.selected)?;
                Some(LeaderboardMove::Profile(player.name.clone()))
            }
            _ => None,
        }
    }

    fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let [title, body, keys] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let mut heading = vec![Line::styled(
            format!("Leaderboard · {} (← → another)", self.pool),
            look.theme.heading,
        )];
        let Some(board) = &self.board else {
            heading.push(Line::raw("asking the server…"));
            Paragraph::new(heading).render(title, buf);
            return;
        };
        let pages =
            crate::net::protocol::pages(board.total, crate::net::protocol::LEADERBOARD_PAGE);
        heading.push(Line::styled(
            format!(
                "{} rated · page {} of {pages} · ? marks a provisional rating",
                board.total,
                board.page + 1
            ),
            look.theme.label,
        ));
        Paragraph::new(heading).render(title, buf);
        let mut lines: Vec<Line> = board
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let unit = if p.games == 1 { "game" } else { "games" };
                let text = format!(
                    "{:>4}  {:<24} {:>7} {:>5} {unit}",
                    p.rank,
                    excerpt(&p.name),
                    p.rating.to_string(),
                    p.games
                );
                if i == self.selected {
                    Line::styled(format!("▶ {text}"), look.theme.focus)
                } else {
                    Line::raw(format!("  {text}"))
                }
            })
            .collect();
        if lines.is_empty() {
            lines.push(Line::styled("  nobody is rated here yet", look.theme.label));
        }
        let top = (self.selected + 1).saturating_sub(usize::from(body.height));
        Paragraph::new(lines.split_off(top.min(lines.len()))).render(body, buf);
        Paragraph::new("↑↓ select · Enter profile · PgUp/PgDn pages · ←→ pool · Esc back")
            .style(look.theme.label)
            .render(keys, buf);
    }
}

impl ProfileScreen {
    fn update(&mut self, action: Action) {
        let pools = self.profile.as_ref().map_or(0, |p| p.pools.len());
        if let Action::Move(dir @ (Direction::Left | Direction::Right)) = action
            && pools > 0
        {
            self.pool = if dir == Direction::Right {
                (self.pool + 1) % pools
            } else {
                (self.pool + pools - 1) % pools
            };
        }
    }

    fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let name = excerpt(&self.name);
        let Some(profile) = &self.profile else {
            let lines = vec![
                Line::styled(format!("Player · {name}"), look.theme.heading),
                Line::raw("asking the server…"),
            ];
            Paragraph::new(lines).render(area, buf);
            return;
        };
        let [top, chart, bottom, keys] = Layout::vertical([
            Constraint::Length(3 + u16::try_from(profile.pools.len()).unwrap_or(u16::MAX)),
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let presence = match (profile.online, profile.playing) {
            (true, true) => "online, playing",
            (true, false) => "online",
            (false, _) => "offline",
        };
        let mut lines = vec![
            Line::styled(format!("Player · {name} · {presence}"), look.theme.heading),
            Line::styled("Ratings (rated games: won, drawn, lost)", look.theme.label),
        ];
        for (i, record) in profile.pools.iter().enumerate() {
            let mark = if i == self.pool { "▶" } else { " " };
            lines.push(Line::raw(format!(
                "{mark} {:<24} {:>7}  W {} D {} L {}",
                record.pool.to_string(),
                record.rating.to_string(),
                record.wins,
                record.draws,
                record.losses
            )));
        }
        if profile.pools.is_empty() {
            lines.push(Line::raw("  not rated yet"));
        }
        Paragraph::new(lines).render(top, buf);
        self.render_chart(profile, chart, buf, look);
        let mut lines = vec![Line::styled("Last games", look.theme.label)];
        lines.extend(
            profile
                .recent
                .iter()
                .map(|g| Line::raw(format!("  {}", recent_line(g, &self.name)))),
        );
        if profile.recent.is_empty() {
            lines.push(Line::raw("  none"));
        }
        Paragraph::new(lines).render(bottom, buf);
        Paragraph::new("←→ the pool charted · Esc back")
            .style(look.theme.label)
            .render(keys, buf);
    }

    /// The rating history of the pool selected, as a small chart.
    fn render_chart(&self, profile: &Profile, area: Rect, buf: &mut Buffer, look: &Look) {
        let Some(record) = profile.pools.get(self.pool) else {
            return;
        };
        let points: Vec<i32> = profile
            .history
            .iter()
            .filter(|p| p.pool == record.pool)
            .map(|p| p.rating)
            .collect();
        let (low, high) = (
            points.iter().copied().min().unwrap_or(0),
            points.iter().copied().max().unwrap_or(0),
        );
        let [label, spark] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
        let span = match points.len() {
            1 => format!("1 rated game · {low}"),
            n => format!("last {n} rated games · {low} to {high}"),
        };
        Paragraph::new(format!("{} · {span}", record.pool))
            .style(look.theme.label)
            .render(label, buf);
        // Heights above the lowest point, so that the changes show.
        let heights: Vec<u64> = points
            .iter()
            .map(|&r| u64::try_from(r - low).unwrap_or(0) + 1)
            .collect();
        Sparkline::default()
            .data(&heights)
            .style(look.theme.heading)
            .render(spark, buf);
    }
}

/// A finished game in a profile's list, from `name`'s side: `#12 vs bob · won · standard
/// no clock`.
fn recent_line(game: &GameSummary, name: &str) -> String {
    let seat = |side: Side| match side {
        Side::Attackers => game.attackers.as_deref(),
        Side::Defenders => game.defenders.as_deref(),
    };
    let side = [Side::Attackers, Side::Defenders]
        .into_iter()
        .find(|&s| seat(s) == Some(name));
    let opponent = side.and_then(|s| seat(s.opponent())).unwrap_or("?");
    let result = match (game.outcome.map(|o| o.winner), side) {
        (None, _) => "not over",
        (Some(None), _) => "drawn",
        (Some(Some(winner)), Some(side)) if winner == side => "won",
        (Some(Some(_)), _) => "lost",
    };
    let rated = if game.setup.rated { "rated" } else { "casual" };
    format!(
        "#{} vs {} · {result} · {} {} · {rated}",
        game.id,
        excerpt(opponent),
        game.setup.rules.name(),
        timing_text(game.setup.timing)
    )
}
