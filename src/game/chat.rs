//! A game's chat as a save keeps it: the lines said in an online game (between its players,
//! and among its spectators), oldest first, bounded as the server bounds them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::quote::is_invisible;

/// The most chat lines a game keeps (the server's bound too).
pub const MAX_CHAT_LINES: usize = 200;

/// The most characters of a chat line (the server's bound too).
pub const MAX_CHAT_LINE_CHARS: usize = 500;

/// The most characters of a chat line's author (a name on a server).
pub const MAX_CHAT_NAME_CHARS: usize = 24;

/// A chat line of an online game.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// Who wrote it: a player's name on the server (1 to 24 characters).
    #[schemars(length(min = 1, max = MAX_CHAT_NAME_CHARS))]
    pub from: String,
    /// The line (1 to 500 characters, no control characters).
    #[schemars(length(min = 1, max = MAX_CHAT_LINE_CHARS))]
    pub text: String,
    /// Optional: written by a spectator to the other spectators (the players did not see
    /// it); absent or `false` for the players' chat.
    #[serde(default, skip_serializing_if = "is_false")]
    pub spectators: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
const fn is_false(flag: &bool) -> bool {
    !*flag
}

impl ChatLine {
    /// Why the line cannot be kept, if it cannot: an author or a text empty, too long, or
    /// with a control or invisible character.
    fn fault(&self) -> Option<String> {
        let bad = |text: &str, max: usize| {
            text.is_empty()
                || text.chars().count() > max
                || text.chars().any(|c| c.is_control() || is_invisible(c))
        };
        if bad(&self.from, MAX_CHAT_NAME_CHARS) {
            Some(format!(
                "an author must have 1 to {MAX_CHAT_NAME_CHARS} characters, none of them control"
            ))
        } else if bad(&self.text, MAX_CHAT_LINE_CHARS) {
            Some(format!(
                "a line must have 1 to {MAX_CHAT_LINE_CHARS} characters, none of them control"
            ))
        } else {
            None
        }
    }
}

/// Why `lines` cannot be a game's chat, if they cannot: more than [`MAX_CHAT_LINES`], or a
/// line (numbered from 1) beyond the bounds of [`ChatLine`].
pub(super) fn check_chat(lines: &[ChatLine]) -> Result<(), String> {
    if lines.len() > MAX_CHAT_LINES {
        return Err(format!(
            "{} lines; a game keeps at most {MAX_CHAT_LINES}",
            lines.len()
        ));
    }
    match lines
        .iter()
        .enumerate()
        .find_map(|(i, line)| line.fault().map(|why| (i + 1, why)))
    {
        Some((number, why)) => Err(format!("line {number}: {why}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Player};
    use crate::rules::{Position, Preset};

    fn line(from: &str, text: &str, spectators: bool) -> ChatLine {
        ChatLine {
            from: from.into(),
            text: text.into(),
            spectators,
        }
    }

    #[test]
    fn the_chat_is_kept_through_a_save_and_a_load_and_bounded() {
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        let chat = vec![line("ann", "good luck", false), line("cat", "psst", true)];
        game.set_chat(chat.clone()).unwrap();
        let json = game.to_json();
        assert!(json.contains(r#""spectators": true"#), "{json}");
        assert_eq!(Game::from_json(&json).unwrap().chat(), chat);
        let refused = |chat: Vec<ChatLine>| {
            let mut save: serde_json::Value = serde_json::from_str(&json).unwrap();
            save["chat"] = serde_json::to_value(chat).unwrap();
            Game::from_json(&save.to_string()).unwrap_err().to_string()
        };
        let too_many = vec![line("ann", "hi", false); MAX_CHAT_LINES + 1];
        assert!(refused(too_many).contains("at most 200"));
        let control = vec![line("ann", "\u{1b}[31mred", false)];
        assert!(refused(control).contains("chat: line 1"));
    }
}
