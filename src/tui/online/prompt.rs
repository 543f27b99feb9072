//! Online play's bottom line: what is typed there (the server, the name, an invite code, a
//! chat line) and the yes/no questions (resign, accept an offer, trust a new server's key),
//! and the status line that shows them.

use super::game::offer_text;
use super::{Ask, Online, Prompt, View};
use crate::net::client::check_server;
use crate::net::protocol::{ClientMessage, Offer, check_chat, normalize_name};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::tui::input::{Action, Direction};
use crate::tui::text::Tone;

impl Online {
    pub(super) fn type_prompt(&mut self, prompt: Prompt, mut text: String, action: Action) {
        // A name offered goes whole at the first key typed or erased.
        let offered = std::mem::take(&mut self.prompt_offered);
        if offered && matches!(action, Action::Type(_) | Action::Backspace) {
            text.clear();
        }
        match action {
            Action::Type(c) => text.push(c),
            Action::Backspace => {
                text.pop();
            }
            Action::Cancel => {
                if matches!(prompt, Prompt::Name | Prompt::Server) {
                    self.closed = true;
                }
                self.status = None;
                return;
            }
            Action::Move(dir) if prompt == Prompt::Server => {
                if let View::Server(memory) = &self.view {
                    text = cycled(&memory.servers, &text, dir);
                }
            }
            Action::Move(dir) if prompt == Prompt::Challenge => {
                let others: Vec<String> =
                    self.lobby.others().into_iter().map(str::to_owned).collect();
                self.offer_name(prompt, cycled(&others, &text, dir));
                return;
            }
            Action::Confirm => {
                self.prompted(prompt, text);
                return;
            }
            _ => {}
        }
        self.prompt = Some((prompt, text));
    }

    /// Asks at the bottom line for `prompt` with `name` offered: the first key typed replaces
    /// it, Backspace erases it whole, Enter takes it.
    pub(super) fn offer_name(&mut self, prompt: Prompt, name: String) {
        self.prompt_offered = !name.is_empty();
        self.prompt = Some((prompt, name));
    }

    pub(super) fn prompted(&mut self, prompt: Prompt, text: String) {
        match prompt {
            Prompt::Server => {
                let address = match check_server(&text) {
                    Ok(address) => address,
                    Err(e) => {
                        self.error(&escaped(&e, MESSAGE_CHARS));
                        self.prompt = Some((Prompt::Server, text));
                        return;
                    }
                };
                if let View::Server(memory) = &self.view {
                    self.start.name = memory.name_for(&address);
                }
                text.trim().clone_into(&mut self.start.server);
                if let Some(name) = self.start.name.clone() {
                    self.connect(&name);
                } else {
                    self.view = View::Name;
                    self.prompt = Some((Prompt::Name, String::new()));
                    self.info("your name on this server (1 to 24 characters), then Enter");
                }
            }
            Prompt::Name => match normalize_name(&text) {
                Ok(name) => {
                    self.start.name = Some(name.clone());
                    self.failed = false;
                    self.connect(&name);
                }
                Err(e) => {
                    self.error(&format!("a name {e}: type another"));
                    self.prompt = Some((Prompt::Name, text));
                }
            },
            Prompt::Code => {
                let code = text.trim().to_owned();
                if code.is_empty() {
                    self.status = None;
                } else {
                    self.send(ClientMessage::Join {
                        game: None,
                        code: Some(code),
                    });
                    self.join_by_code = true;
                    self.info("joining…");
                }
            }
            Prompt::Profile => match normalize_name(&text) {
                Ok(name) => self.show_profile(&name),
                Err(e) => self.error(&format!("a name {e}")),
            },
            Prompt::Challenge => self.whom_typed(&text),
            Prompt::LobbyChat | Prompt::Mute | Prompt::Block => self.club_prompted(prompt, text),
            Prompt::Chat => {
                let View::Game(game) = self.view else {
                    return;
                };
                match check_chat(&text) {
                    Ok(()) => {
                        self.send(ClientMessage::Chat { game, text });
                        self.status = None;
                    }
                    Err(e) => self.error(&format!("a chat line {e}")),
                }
            }
        }
    }

    /// The server is not known yet: shows its key's fingerprint and asks whether to trust
    /// it, as SSH does.
    pub(super) fn ask_trust(&mut self, shown: String) {
        self.connected = false;
        self.failed = true;
        self.unknown_key = Some(shown);
        self.ask = Some(Ask::Trust);
    }

    pub(super) fn answer(&mut self, ask: Ask, action: Action) {
        let yes = match action {
            Action::Yes => true,
            Action::No | Action::Cancel => false,
            _ => {
                self.ask = Some(ask);
                return;
            }
        };
        match ask {
            Ask::Resign(game) if yes => self.send(ClientMessage::Resign { game }),
            Ask::Abort(game) if yes => self.send(ClientMessage::Abort { game }),
            Ask::Resign(_) | Ask::Abort(_) => self.status = None,
            Ask::Claim(game) if yes => self.send(ClientMessage::Claim { game }),
            Ask::Claim(_) => self.info("waiting for the opponent: y on the board claims the win"),
            Ask::Trust => match self.start.name.clone() {
                Some(name) if yes => {
                    self.failed = false;
                    self.connect(&name);
                }
                _ => {
                    self.unknown_key = None;
                    self.error("not trusted: nothing was remembered; q to leave");
                }
            },
        }
    }

    pub(super) fn status_text(&self) -> String {
        match (&self.prompt, self.ask, &self.status) {
            (Some((Prompt::Server, text)), _, Some(refused)) if refused.tone == Tone::Error => {
                format!(
                    "{} · server: {}▏",
                    refused.text,
                    escaped(text, MESSAGE_CHARS)
                )
            }
            (Some((Prompt::Server, text)), _, _) => {
                format!("server: {}▏", escaped(text, MESSAGE_CHARS))
            }
            // A refused name is typed again beside the reason it was refused.
            (Some((Prompt::Name, text)), _, Some(refused)) if refused.tone == Tone::Error => {
                format!("{} · name: {}▏", refused.text, escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Name, text)), _, _) => {
                format!("name: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Code, text)), _, _) => format!("invite code: {text}▏"),
            (Some((Prompt::Chat, text)), _, _) => {
                format!("chat: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Profile, text)), _, _) => {
                format!("profile of: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Challenge, text)), _, _) => {
                format!(
                    "challenge whom (↑ ↓ those online): {}▏",
                    escaped(text, MESSAGE_CHARS)
                )
            }
            (None, Some(Ask::Abort(_)), _) => "abort this game (no result)? y/n".to_owned(),
            (None, Some(Ask::Claim(_)), _) => {
                "your opponent has not come back: claim the win? y, or n to keep waiting".to_owned()
            }
            (Some((Prompt::LobbyChat, text)), _, _) => {
                format!("lobby chat: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Mute, text)), _, _) => {
                format!("mute or hear again: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (Some((Prompt::Block, text)), _, _) => {
                format!("block or unblock: {}▏", escaped(text, MESSAGE_CHARS))
            }
            (None, Some(Ask::Resign(_)), _) => "resign this game? y/n".to_owned(),
            (None, Some(Ask::Trust), _) => trust_question(self.unknown_key.as_deref()),
            (None, None, status) => {
                let status = status.as_ref().map(|s| s.text.as_str());
                match (self.offer_to_answer(), status) {
                    (Some((_, offer)), Some(text)) => format!("{} · {text}", offer_question(offer)),
                    (Some((_, offer)), None) => offer_question(offer),
                    (None, text) => text.unwrap_or_default().to_owned(),
                }
            }
        }
    }
}

/// The option after (`Down`, `Right`) or before `text` among `options`, round; the first
/// if `text` is none of them; `text` itself if there are none.
fn cycled(options: &[String], text: &str, dir: Direction) -> String {
    if options.is_empty() {
        return text.to_owned();
    }
    let at = options.iter().position(|s| s == text);
    let next = match (at, dir) {
        (Some(i), Direction::Down | Direction::Right) => (i + 1) % options.len(),
        (Some(i), _) => (i + options.len() - 1) % options.len(),
        (None, _) => 0,
    };
    options[next].clone()
}

/// The question standing while the opponent's offer waits.
fn offer_question(offer: Offer) -> String {
    format!("the opponent offers {}: accept? y/n", offer_text(offer))
}

/// The question whether to trust a server's key not met before, with its fingerprint.
pub(super) fn trust_question(shown: Option<&str>) -> String {
    format!(
        "trust this new server's key? y/n (the one `brandubh serve` printed?) {}",
        escaped(shown.unwrap_or("?"), MESSAGE_CHARS)
    )
}
