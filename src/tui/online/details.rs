//! What a game's lobby line does not say, asked for on demand: the invite code of the
//! player's own private game (Enter on it) and the players' key fingerprints (`f`), which
//! tell look-alike names apart.

use super::Online;
use crate::net::protocol::{ClientMessage, GameId, PlayerKey};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};

/// The hex digits of a fingerprint shown: 64 bits, enough to tell two keys apart by eye.
const SHOWN_DIGITS: usize = 16;

impl Online {
    /// Asks the server for game `game`'s details: for its invite code (`code`), else its
    /// players' keys.
    pub(super) fn ask_details(&mut self, game: GameId, code: bool) {
        self.details_asked = Some((game, code));
        self.send(ClientMessage::Details { game });
        self.info(if code {
            "asking for the invite code…"
        } else {
            "asking for the players' keys…"
        });
    }

    /// The server's answer about game `game`: shown as it was asked for.
    pub(super) fn on_details(&mut self, game: GameId, players: &[PlayerKey], code: Option<&str>) {
        let Some((asked, for_code)) = self.details_asked.take() else {
            return;
        };
        if asked != game {
            self.details_asked = Some((asked, for_code));
            return;
        }
        let text = match code {
            Some(code) if for_code => format!(
                "#{game} invite code {}: give it to your opponent (i joins with it)",
                escaped(code, MESSAGE_CHARS)
            ),
            _ if for_code => format!("#{game} has no invite code: it is open to all"),
            _ => format!("#{game} keys: {}", keys_text(players)),
        };
        self.info(&text);
    }
}

/// Each player's name and the first digits of its key's fingerprint.
fn keys_text(players: &[PlayerKey]) -> String {
    let shown: Vec<String> = players
        .iter()
        .map(|p| {
            let digits: String = p
                .fingerprint
                .chars()
                .take("SHA256:".len() + SHOWN_DIGITS)
                .collect();
            format!("{} {}…", excerpt(&p.name), excerpt(&digits))
        })
        .collect();
    shown.join(" · ")
}
