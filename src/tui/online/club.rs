//! The club in the lobby: its chat (a panel under the games; Tab to write a line), the
//! players muted (`m`: their chat hidden on this client, remembered per server) and blocked
//! (`b`: on the server, which then keeps them from joining the player's games and hides their
//! chat). Every name and line from the server is escaped when drawn.

use std::collections::{BTreeSet, VecDeque};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::game::chat_text;
use super::{Online, Prompt};
use crate::net::client::with_port;
use crate::net::protocol::club::{LOBBY_CHAT_KEPT, LobbyLine};
use crate::net::protocol::{ClientMessage, check_chat, normalize_name};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::tui::input::Action;
use crate::tui::net_request::NetRequest;
use crate::tui::theme::Look;

/// The lobby's chat and whom the player mutes and blocks.
#[derive(Clone, Debug, Default)]
pub(super) struct Club {
    /// The lobby's chat as the server sent it, oldest first (at most [`LOBBY_CHAT_KEPT`]).
    chat: VecDeque<LobbyLine>,
    /// The names muted on this server: their chat is not shown here.
    muted: BTreeSet<String>,
    /// The names the player blocks, as the server last said.
    blocked: BTreeSet<String>,
}

impl Club {
    /// The club of a player who mutes `muted` on this server.
    pub fn muting(muted: BTreeSet<String>) -> Club {
        Club {
            muted,
            ..Club::default()
        }
    }

    /// Whether the chat of `name` is hidden (muted or blocked).
    pub fn hides(&self, name: &str) -> bool {
        self.muted.contains(name) || self.blocked.contains(name)
    }

    /// The lines shown, oldest first: those of players neither muted nor blocked.
    fn shown(&self) -> impl DoubleEndedIterator<Item = &LobbyLine> {
        self.chat.iter().filter(|line| !self.hides(&line.from))
    }

    /// The last author of a line shown who is not `me`.
    fn last_speaker(&self, me: &str) -> Option<&str> {
        self.shown()
            .rev()
            .map(|line| line.from.as_str())
            .find(|&from| from != me)
    }
}

impl Online {
    /// The server said the player is welcome: its lobby chat and blocks (if any) come
    /// again after it.
    pub(super) fn welcomed_to_club(&mut self) {
        self.club.chat.clear();
        self.club.blocked.clear();
    }

    /// A line of the lobby's chat.
    pub(super) fn lobby_line(&mut self, line: LobbyLine) {
        self.club.chat.push_back(line);
        while self.club.chat.len() > LOBBY_CHAT_KEPT {
            self.club.chat.pop_front();
        }
    }

    /// The names the player blocks, as the server says.
    pub(super) fn blocks(&mut self, names: Vec<String>) {
        self.club.blocked = names.into_iter().collect();
    }

    /// A key of the club in the lobby (Tab, `m`, `b`); returns whether it was one.
    pub(super) fn club_key(&mut self, action: Action) -> bool {
        let prompt = match action {
            Action::TogglePanel => Prompt::LobbyChat,
            Action::Type('m') => Prompt::Mute,
            Action::Type('b') => Prompt::Block,
            _ => return false,
        };
        if !self.connected && prompt != Prompt::Mute {
            self.error("not connected");
            return true;
        }
        // The prompt says what it is for (`status_text`).
        let text = if prompt == Prompt::LobbyChat {
            String::new()
        } else {
            self.someone()
        };
        self.offer_name(prompt, text);
        true
    }

    /// The player a mute or a block is offered for: the other player of the game selected,
    /// else the last one who spoke in the lobby.
    fn someone(&self) -> String {
        let me = self.lobby_name().unwrap_or_default();
        self.lobby
            .selected()
            .and_then(|(game, _)| self.lobby.other_player(game))
            .or_else(|| self.club.last_speaker(&me).map(str::to_owned))
            .unwrap_or_default()
    }

    /// What was typed at a prompt of the club.
    pub(super) fn club_prompted(&mut self, prompt: Prompt, text: String) {
        if prompt == Prompt::LobbyChat {
            match check_chat(&text) {
                Ok(()) => {
                    self.send(ClientMessage::LobbyChat { text });
                    self.status = None;
                }
                Err(e) => self.error(&format!("a chat line {e}")),
            }
            return;
        }
        let name = match normalize_name(text.trim()) {
            Ok(name) => name,
            Err(e) => {
                self.error(&format!("a name {e}"));
                return;
            }
        };
        let shown = escaped(&name, MESSAGE_CHARS);
        if prompt == Prompt::Mute {
            let muted = !self.club.muted.remove(&name);
            if muted {
                self.club.muted.insert(name);
            }
            self.requests.push(NetRequest::RememberMuted {
                dir: self.start.config_dir.clone(),
                server: with_port(&self.start.server),
                names: self.club.muted.clone(),
            });
            self.info(&if muted {
                format!("{shown} muted: m again to hear them")
            } else {
                format!("{shown} heard again")
            });
        } else {
            let block = !self.club.blocked.contains(&name);
            self.send(ClientMessage::Block { name, block });
            self.info(&if block {
                format!("blocking {shown}: b again lifts it")
            } else {
                format!("{shown} no longer blocked")
            });
        }
    }

    /// The rows the lobby's chat takes, at most `most`: its heading and its lines shown
    /// (none while nothing is shown).
    pub(super) fn lobby_chat_rows(&self, most: u16) -> u16 {
        match u16::try_from(self.club.shown().count()).unwrap_or(u16::MAX) {
            0 => 0,
            lines => lines.saturating_add(1).min(most),
        }
    }

    /// Draws the lobby's chat in `area`: a heading, then the newest lines that fit.
    pub(super) fn render_lobby_chat(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        if area.height == 0 {
            return;
        }
        let muted = self.club.muted.len() + self.club.blocked.len();
        let hidden = if muted > 0 {
            format!(" · {muted} muted or blocked (m, b)")
        } else {
            String::new()
        };
        let heading = format!("Lobby chat (Tab to write){hidden}");
        Paragraph::new(Line::styled(heading, look.theme.heading))
            .render(Rect { height: 1, ..area }, buf);
        let rows = usize::from(area.height - 1);
        let lines: Vec<String> = self
            .club
            .shown()
            .map(|line| chat_text(&line.from, &line.text))
            .collect();
        let newest: Vec<Line> = lines
            .iter()
            .skip(lines.len().saturating_sub(rows))
            .map(|text| Line::raw(text.clone()))
            .collect();
        let body = Rect {
            y: area.y + 1,
            height: area.height - 1,
            ..area
        };
        Paragraph::new(newest).render(body, buf);
    }
}
