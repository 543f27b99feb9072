//! The lobby screen: its keys (join, watch, create, an invite code, leave, the pages) and
//! its drawing around the list of games ([`LobbyList`](super::lobby::LobbyList)).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::create::CreateForm;
use super::lobby::{Kind, LOBBY_KEYS};
use super::standings::Standings;
use super::{Online, Prompt, View};
use crate::net::protocol::{ClientMessage, GameId, GameSetup};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::rules::Preset;
use crate::tui::help::Help;
use crate::tui::input::Action;
use crate::tui::text::{Tone, fit_keys};
use crate::tui::theme::{Look, Themed};

impl Online {
    pub(super) fn create_game(&mut self, setup: GameSetup) {
        if let Some(name) = self.challenging.take() {
            self.send_challenge(name, setup);
            return;
        }
        self.last_create = Some(setup.clone());
        self.send(ClientMessage::Create(setup));
        self.info("creating…");
    }

    pub(super) fn update_lobby(&mut self, action: Action) {
        self.landing = false;
        if self.club_key(action) {
            return;
        }
        match action {
            Action::Move(dir) => self.lobby.move_selection(dir),
            Action::Confirm => self.open_selected(),
            Action::Cancel | Action::Quit | Action::Type('q') => self.closed = true,
            Action::Help | Action::Type('?') => {
                self.help = Some(Help::new("Lobby keys".to_owned(), &LOBBY_KEYS));
            }
            Action::Type('c') if self.connected => {
                let last = self.last_create.clone();
                let setup = last
                    .or_else(|| self.start.create.clone())
                    .unwrap_or_else(|| GameSetup {
                        rules: self
                            .lobby
                            .selected()
                            .map_or(Preset::Standard, |(g, _)| g.setup.rules),
                        rated: true,
                        ..GameSetup::default()
                    });
                self.create = Some(CreateForm::new(setup));
            }
            Action::Type('C') if self.connected => self.ask_whom(),
            Action::Type('a') if self.connected => self.answer_challenge_key(true),
            Action::Type('d') if self.connected => self.answer_challenge_key(false),
            Action::Type('i') if self.connected => {
                self.prompt = Some((Prompt::Code, String::new()));
                self.info("the invite code, then Enter");
            }
            Action::Type('w') => {
                if let Some((game, _)) = self.lobby.selected() {
                    let game = game.id;
                    self.watch(game);
                }
            }
            Action::Type('x') => self.leave_selected(),
            Action::Type('L') if self.connected => self.show_leaderboard(),
            Action::Type('P') if self.connected => self.ask_profile(),
            Action::Type('g') if self.connected => self.open_your_games(),
            Action::Type('f') if self.connected => {
                if let Some((game, _)) = self.lobby.selected() {
                    let game = game.id;
                    self.ask_details(game, false);
                }
            }
            Action::Type('r') => self.refresh(self.now),
            Action::PageDown | Action::Type('n') => self.turn_page(true),
            Action::PageUp | Action::Type('p') => self.turn_page(false),
            Action::Type(_) if !self.connected => self.error("not connected"),
            _ => {}
        }
    }

    /// Shows the leaderboard of the selected game's pool (live standard games' if none is
    /// selected) and asks for it.
    fn show_leaderboard(&mut self) {
        let pool = self
            .lobby
            .selected()
            .map(|(g, _)| g.setup.pool())
            .unwrap_or_default();
        let (screen, ask) = Standings::leaderboard(pool);
        self.standings = Some(screen);
        self.send(ask);
    }

    /// Asks whose profile to show, the selected game's other player offered.
    fn ask_profile(&mut self) {
        let offered = self
            .lobby
            .selected()
            .and_then(|(g, _)| self.lobby.other_player(g))
            .unwrap_or_default();
        self.offer_name(Prompt::Profile, offered);
        self.info("whose profile? a name, then Enter");
    }

    /// Shows `name`'s profile and asks for it.
    pub(super) fn show_profile(&mut self, name: &str) {
        let (screen, ask) = Standings::profile(name);
        self.standings = Some(screen);
        self.status = None;
        self.send(ask);
    }

    /// Asks for the next page of the lobby (`forward`) or the previous one, if there is one.
    pub(super) fn turn_page(&mut self, forward: bool) {
        if self.lobby.turn_page(forward) {
            self.refresh(self.now);
        } else {
            self.info(if forward {
                "the last page"
            } else {
                "the first page"
            });
        }
    }

    pub(super) fn watch(&mut self, game: GameId) {
        self.to_show = Some(game);
        self.send(ClientMessage::Watch { game });
    }

    pub(super) fn open_selected(&mut self) {
        let Some((game, kind)) = self.lobby.selected() else {
            self.info("no game selected: c creates one");
            return;
        };
        let id = game.id;
        match kind {
            Kind::Open => {
                self.awaited = Some(id);
                self.send(ClientMessage::Join {
                    game: Some(id),
                    code: None,
                });
                self.info(&format!("joining #{id}…"));
            }
            Kind::Waiting if game.setup.private => self.ask_details(id, true),
            Kind::Waiting => self.info("your game waits for an opponent (x withdraws it)"),
            Kind::Mine if self.games.contains_key(&id) => self.show_game(id),
            Kind::Mine | Kind::Watch => self.watch(id),
        }
    }

    pub(super) fn leave_selected(&mut self) {
        let Some((game, kind)) = self.lobby.selected() else {
            return;
        };
        let id = game.id;
        match kind {
            Kind::Waiting | Kind::Watch => {
                self.send(ClientMessage::Leave { game: id });
                self.games.remove(&id);
                self.info(&if kind == Kind::Waiting {
                    format!("game #{id} withdrawn: nobody can join it now")
                } else {
                    format!("stopped watching game #{id}")
                });
                self.refresh(self.now);
            }
            Kind::Mine => {
                self.info(
                    "x withdraws an open game; resign this one from its board (Enter, then x)",
                );
            }
            Kind::Open => self.info("x withdraws your own open game; this one is another's"),
        }
    }

    pub(super) fn render_lobby(&self, area: Rect, buf: &mut Buffer, look: &Look, status: &str) {
        let server = escaped(&self.start.server, MESSAGE_CHARS);
        let who = self.start.name.as_deref().map_or_else(String::new, |n| {
            format!(" as {}", escaped(n, MESSAGE_CHARS))
        });
        let state = if self.failed {
            "not connected"
        } else if self.connected {
            "connected"
        } else {
            "connecting"
        };
        let lag = self
            .lag()
            .map_or_else(String::new, |l| format!(" · {}", l.text()));
        let title = format!("Online · {server}{who} · {state}{lag}");
        let status_rows = if area.height > 14 { 2 } else { 1 };
        let keys_rows = 1;
        let challenges = self.challenges.lines(self.now);
        let room = area.height.saturating_sub(1 + status_rows + keys_rows + 4) / 2;
        let challenge_rows = u16::try_from(challenges.len())
            .unwrap_or(u16::MAX)
            .min(room);
        let body_height = area
            .height
            .saturating_sub(1 + status_rows + keys_rows + challenge_rows);
        Paragraph::new(Line::styled(title, look.theme.heading))
            .render(Rect { height: 1, ..area }, buf);
        let body = Rect::new(area.x, area.y + 1, area.width, body_height);
        // The lobby's chat: under the games, at most a third of the lobby.
        let chat_height = if matches!(self.view, View::Lobby) {
            self.lobby_chat_rows(body_height / 3)
        } else {
            0
        };
        let list = Rect {
            height: body_height - chat_height,
            ..body
        };
        match self.view {
            View::Lobby => Themed {
                of: &self.lobby,
                look,
            }
            .render(list, buf),
            View::YourGames => self.render_your_games(list, buf, look),
            _ => {}
        }
        let chat = Rect {
            y: list.bottom(),
            height: chat_height,
            ..body
        };
        self.render_lobby_chat(chat, buf, look);
        let panel = Rect::new(area.x, area.y + 1 + body_height, area.width, challenge_rows);
        let shown = challenges.into_iter().take(usize::from(challenge_rows));
        Paragraph::new(shown.map(Line::raw).collect::<Vec<_>>())
            .style(look.theme.heading)
            .render(panel, buf);
        let keys = Rect::new(area.x, panel.bottom(), area.width, keys_rows);
        let line = if matches!(self.view, View::YourGames) {
            "Enter review · n/p pages · r again · q lobby · ? keys"
        } else {
            "Enter join/watch · c create · g your games · Tab chat · n/p pages · x leave · \
             i code · m mute · b block · L leaderboard · P player · C challenge · r refresh · q quit · \
             ? keys"
        };
        Paragraph::new(fit_keys(line, usize::from(area.width), 1).join(" "))
            .style(look.theme.label)
            .render(keys, buf);
        let status_area = Rect::new(area.x, keys.bottom(), area.width, status_rows);
        let style = match self.status.as_ref().map(|s| s.tone) {
            Some(Tone::Error) => look.theme.error,
            _ => ratatui::style::Style::new(),
        };
        Paragraph::new(status.to_owned())
            .style(style)
            .wrap(Wrap { trim: true })
            .render(status_area, buf);
    }
}
