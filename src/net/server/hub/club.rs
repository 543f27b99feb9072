//! The club in the hub: the lobby's chat (its last lines kept, in memory and stored, sent
//! to a player on the welcome; each line paced per key, since it goes to everyone) and the
//! players each key blocks (their lobby and game chat not sent to the blocker; a blocked
//! player cannot join the blocker's open game, nor the blocker theirs).

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use super::{Hub, Reply, refusal, refuse, store_error};
use crate::net::protocol::club::{LOBBY_CHAT_KEPT, LobbyLine, MAX_BLOCKS};
use crate::net::protocol::{ErrorCode, ServerMessage, check_chat, normalize_name};
use crate::net::server::conn_id::ConnId;
use crate::net::server::store::{Block, Seat, Store, StoreResult};

/// The window a key's lobby lines are counted in.
const PACE_WINDOW: Duration = Duration::from_secs(60);

/// Keys whose pace is remembered before the stale ones are forgotten.
const PACE_KEYS: usize = 4096;

/// The club's state in memory (what the database holds, read once at start).
#[derive(Debug, Default)]
pub(super) struct Club {
    /// The lobby's last lines, oldest first, each with its author's key.
    lines: VecDeque<(String, LobbyLine)>,
    /// For each key that blocks someone: the keys it blocks, and the name each was
    /// blocked by.
    blocks: HashMap<String, HashMap<String, String>>,
    /// For each key that spoke lately: when its window began and its lines in it.
    pace: HashMap<String, (Instant, u32)>,
}

impl Club {
    /// The club as `store` holds it.
    pub fn load(store: &Store) -> StoreResult<Club> {
        let mut club = Club {
            lines: store.lobby_lines()?.into(),
            ..Club::default()
        };
        for Block {
            blocker,
            blocked,
            name,
        } in store.blocks()?
        {
            club.blocks
                .entry(blocker)
                .or_default()
                .insert(blocked, name);
        }
        Ok(club)
    }

    /// Whether it keeps the same lines and blocks as `other` (the pace is not kept).
    #[cfg(test)]
    pub fn keeps_as(&self, other: &Club) -> bool {
        (&self.lines, &self.blocks) == (&other.lines, &other.blocks)
    }

    /// Whether the key `by` blocks the key `whom`.
    pub fn blocks(&self, by: &str, whom: &str) -> bool {
        self.blocks
            .get(by)
            .is_some_and(|keys| keys.contains_key(whom))
    }

    /// Why `joiner` may not play `creator`'s game, if either blocks the other.
    pub fn block_between(&self, creator: &Seat, joiner: &Seat) -> Option<String> {
        if self.blocks(&creator.key, &joiner.key) {
            Some(format!("{} does not accept your challenges", creator.name))
        } else if self.blocks(&joiner.key, &creator.key) {
            Some(format!(
                "you block {}: b in the lobby lifts it",
                creator.name
            ))
        } else {
            None
        }
    }

    /// The names `key` blocks, in order.
    pub(super) fn names_blocked_by(&self, key: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .blocks
            .get(key)
            .map(|keys| keys.values().cloned().collect())
            .unwrap_or_default();
        names.sort_unstable();
        names
    }

    /// Counts a lobby line of `key` at `now`; whether it is within `per_minute`.
    fn paced(&mut self, key: &str, now: Instant, per_minute: u32) -> bool {
        if self.pace.len() >= PACE_KEYS {
            self.pace
                .retain(|_, (since, _)| now.duration_since(*since) < PACE_WINDOW);
        }
        let (since, lines) = self.pace.entry(key.to_owned()).or_insert((now, 0));
        if now.duration_since(*since) >= PACE_WINDOW {
            (*since, *lines) = (now, 0);
        }
        *lines += 1;
        *lines <= per_minute
    }
}

impl Hub {
    /// Whether the key `by` blocks the key `whom`: a blocked player cannot join the
    /// blocker's game, and their chat is not sent to the blocker.
    pub(super) fn is_blocked(&self, by: &str, whom: &str) -> bool {
        self.club.blocks(by, whom)
    }

    /// What a player hears of the club on the welcome: whom it blocks (if anyone), and the
    /// lobby's last lines (but those of the players it blocks).
    pub(super) fn welcome_to_club(&mut self, conn: ConnId, key: &str) {
        let names = self.club.names_blocked_by(key);
        if !names.is_empty() {
            self.send(conn, &ServerMessage::Blocks { names });
        }
        let lines: Vec<ServerMessage> = self
            .club
            .lines
            .iter()
            .filter(|(from, _)| !self.club.blocks(key, from))
            .map(|(_, line)| ServerMessage::LobbyChat(line.clone()))
            .collect();
        for line in &lines {
            self.send(conn, line);
        }
    }

    /// `seat` says `text` in the lobby: stored, kept, and sent to every player but those
    /// who block it.
    pub(super) fn lobby_chat(&mut self, seat: &Seat, text: &str) -> Reply {
        check_chat(text)
            .map_err(|e| refusal(ErrorCode::BadMessage, format!("the chat line {e}")))?;
        let per_minute = self.limits.lobby_lines_per_minute;
        if !self.club.paced(&seat.key, Instant::now(), per_minute) {
            return refuse(
                ErrorCode::RateLimited,
                format!("at most {per_minute} lobby chat lines a minute: wait a little"),
            );
        }
        let line = LobbyLine {
            from: seat.name.clone(),
            text: text.to_owned(),
        };
        self.store
            .add_lobby_line(&seat.key, &line)
            .map_err(|e| store_error(&e))?;
        self.club.lines.push_back((seat.key.clone(), line.clone()));
        while self.club.lines.len() > LOBBY_CHAT_KEPT {
            self.club.lines.pop_front();
        }
        let to: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| {
                c.seat
                    .as_ref()
                    .is_some_and(|s| !self.club.blocks(&s.key, &seat.key))
            })
            .map(|(&id, _)| id)
            .collect();
        let said = ServerMessage::LobbyChat(line);
        for conn in to {
            self.send(conn, &said);
        }
        Ok(())
    }

    /// `seat` blocks the player named `name` (`on`), or lifts the block; every connection
    /// of `seat` is told the list.
    pub(super) fn block(&mut self, seat: &Seat, name: &str, on: bool) -> Reply {
        let name =
            normalize_name(name).map_err(|e| refusal(ErrorCode::BadName, format!("a name {e}")))?;
        let key = self.store.key_of(&name).map_err(|e| store_error(&e))?;
        let Some(key) = key else {
            return refuse(ErrorCode::Refused, format!("no player is named {name}"));
        };
        if key == seat.key {
            return refuse(ErrorCode::Refused, "you cannot block yourself");
        }
        let held = self.club.blocks.get(&seat.key).map_or(0, HashMap::len);
        if on && held >= MAX_BLOCKS && !self.club.blocks(&seat.key, &key) {
            return refuse(
                ErrorCode::Refused,
                format!("at most {MAX_BLOCKS} players may be blocked: lift a block first"),
            );
        }
        let block = Block {
            blocker: seat.key.clone(),
            blocked: key,
            name,
        };
        self.store
            .set_block(&block, on)
            .map_err(|e| store_error(&e))?;
        let keys = self.club.blocks.entry(block.blocker.clone()).or_default();
        if on {
            keys.insert(block.blocked, block.name);
        } else {
            keys.remove(&block.blocked);
            if keys.is_empty() {
                self.club.blocks.remove(&block.blocker);
            }
        }
        let blocks = ServerMessage::Blocks {
            names: self.club.names_blocked_by(&seat.key),
        };
        let mine: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat.as_ref().is_some_and(|s| s.key == seat.key))
            .map(|(&id, _)| id)
            .collect();
        for conn in mine {
            self.send(conn, &blocks);
        }
        Ok(())
    }
}
