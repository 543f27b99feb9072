//! The online protocol's messages: versioned, line-delimited JSON, one message per line
//! (at most [`MAX_LINE_BYTES`]), shared by the client and the server. Pure: no I/O. The
//! protocol is described for other programs in docs/protocol.md.
//!
//! Positions travel as OpenTafl position records (rank 1 first) and moves in our notation
//! (`d2-c2`, annotated by the server: `e2-d2xd3`).

use std::fmt;

use serde::{Deserialize, Serialize};

pub use self::chat::{CHAT_LOG_BYTES, CHAT_LOG_LINES, ChatEntry};
pub use crate::capped_lines::MAX_LINE_BYTES;
use crate::game::{Clocks, TimeControl};
use crate::quote::excerpt;
use crate::rules::{Outcome, Preset, Side};
pub use views::{Role, bot_marked};

mod challenge;
mod chat;
mod standings;
pub use standings::{
    LEADERBOARD_PAGE, Leaderboard, LeaderboardAsk, PROFILE_HISTORY, PROFILE_RECENT, PlayerStatus,
    PoolRecord, Profile, Ranked, RatedGame, RatingPoint, SeatRatings,
};
pub mod club;
mod text;
pub use challenge::{ChallengeEnd, ChallengeId, ChallengeView, GIVEN_TIME};
pub use text::{
    MAX_MARKS_IN_A_ROW, NAME_PUNCTUATION, TextError, check_chat, check_name, normalize_name,
};

/// The protocol's version: a client and a server speak only the same one. Version 2 added
/// the time left to return to a game (`return_ms` in [`ServerMessage::Presence`]) and the
/// result `abandoned`; version 3 binds the signed identity to the TLS session
/// ([`challenge_bytes`]), restricts names ([`normalize_name`]), adds the notice
/// [`ServerMessage::GoingDown`] and pages the lobby and the archive; version 4 is the
/// club: lobby chat, blocks and the games' dates ([`club`]), a game's details on demand
/// ([`ClientMessage::Details`]), challenges, rematches ([`Offer::Rematch`]), aborting,
/// claiming the win and giving time; bots ([`ClientMessage::Identify`]'s `bot`,
/// [`GameSummary::bots`]); ratings ([`standings`]). The server's memory of chat, games ended while away and clocks:
/// docs/protocol.md, "Version 4".
pub const VERSION: u32 = 4;

/// The most games of each list in a lobby page: the receiver's own, the open ones, the
/// ones to watch.
pub const LOBBY_PAGE: usize = 20;

/// The most players named in a lobby (all are counted).
pub const LOBBY_PLAYERS: usize = 50;

/// The most games in an archive page.
pub const ARCHIVE_PAGE: usize = 50;

/// The port a server listens on and a client calls when none is given.
pub const DEFAULT_PORT: u16 = 7343;

/// The most characters of a player's name.
pub const MAX_NAME_CHARS: usize = 24;

/// The most characters of a chat line.
pub const MAX_CHAT_CHARS: usize = 500;

/// A game's number on its server.
pub type GameId = u64;

/// What a client sends.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol version the client speaks.
    Hello {
        /// [`VERSION`] of the client.
        version: u32,
        /// The client program, for the server's log (`brandubh 0.1.0`).
        client: String,
    },
    /// The answer to [`ServerMessage::Challenge`]: the name wanted, the public key and the
    /// signature of [`challenge_bytes`] by its secret key, both in lowercase hex.
    Identify {
        /// The name to play under (first come, first served per key).
        name: String,
        /// The ed25519 public key, 32 bytes in hex.
        key: String,
        /// The ed25519 signature of the challenge, 64 bytes in hex.
        signature: String,
        /// Whether the client is a bot (an engine playing by itself, `brandubh bot`): its
        /// name is marked as a bot's for good when first claimed.
        #[serde(default)]
        bot: bool,
    },
    /// Asks for a page of the lobby (answered with [`ServerMessage::Lobby`]).
    Lobby {
        /// The page of open games and games to watch, from 0 ([`LOBBY_PAGE`] of each).
        #[serde(default)]
        page: u32,
    },
    /// Creates a game and waits in it for an opponent.
    Create(GameSetup),
    /// Joins an open game, by its number or by a private game's invite code.
    Join {
        /// The game (`None` with an invite code).
        game: Option<GameId>,
        /// A private game's invite code.
        code: Option<String>,
    },
    /// Watches a game as a spectator.
    Watch {
        /// The game.
        game: GameId,
    },
    /// Leaves a game: a spectator stops watching; a creator whose game has not begun
    /// withdraws it. A player of a game in progress resigns with [`ClientMessage::Resign`].
    Leave {
        /// The game.
        game: GameId,
    },
    /// Plays a move.
    Move {
        /// The game.
        game: GameId,
        /// The number of moves played before this one (a stale move is refused).
        ply: usize,
        /// The move in our notation, `d2-c2`.
        mv: String,
    },
    /// Offers a draw or asks for a takeback.
    Offer {
        /// The game.
        game: GameId,
        /// What is offered.
        offer: Offer,
    },
    /// Answers the opponent's offer.
    Answer {
        /// The game.
        game: GameId,
        /// What was offered.
        offer: Offer,
        /// Whether it is accepted.
        accept: bool,
    },
    /// Resigns a game.
    Resign {
        /// The game.
        game: GameId,
    },
    /// A chat line: in a player's game it goes to the players, from a spectator to the
    /// spectators.
    Chat {
        /// The game.
        game: GameId,
        /// The line (no control characters, at most [`MAX_CHAT_CHARS`]).
        text: String,
    },
    /// Asks for a pong with the same number (the client measures its lag).
    Ping {
        /// Any number, echoed.
        id: u64,
    },
    /// Answers the server's ping (the server measures the lag it credits back on clocks).
    Pong {
        /// The ping's number.
        id: u64,
    },
    /// Lists a page of a player's finished games.
    Archive {
        /// The player.
        name: String,
        /// The page, from 0 ([`ARCHIVE_PAGE`] games each, newest first).
        #[serde(default)]
        page: u32,
    },
    /// Downloads a finished game as a save file.
    Download {
        /// The game.
        game: GameId,
    },
    /// Asks for a page of a pool's leaderboard (answered with [`ServerMessage::Leaderboard`]).
    Leaderboard(LeaderboardAsk),
    /// Asks for a player's profile (answered with [`ServerMessage::Profile`]).
    Profile {
        /// The player.
        name: String,
    },
    /// Challenges a player online to a game on `setup`'s terms (`private` is ignored).
    ChallengePlayer {
        /// The player challenged.
        name: String,
        /// The terms, the challenger's side among them.
        setup: GameSetup,
    },
    /// Answers a challenge: the player challenged accepts or declines, the challenger withdraws.
    AnswerChallenge {
        /// The challenge.
        challenge: ChallengeId,
        /// Whether it is accepted.
        accept: bool,
    },
    /// Aborts a game in which the sender has not moved yet: no winner, reason `aborted`.
    Abort {
        /// The game.
        game: GameId,
    },
    /// Claims the win of a game whose opponent is gone too long ([`ServerMessage::Claimable`]).
    Claim {
        /// The game.
        game: GameId,
    },
    /// Gives the opponent [`GIVEN_TIME`] more on its clock (a game on a clock).
    GiveTime {
        /// The game.
        game: GameId,
    },
    /// A line of the lobby's chat, to every player on the server (but those who block the
    /// sender).
    LobbyChat {
        /// The line (as [`ClientMessage::Chat`]'s).
        text: String,
    },
    /// Blocks a player (or lifts the block): answered with [`ServerMessage::Blocks`].
    Block {
        /// The player's name.
        name: String,
        /// Blocked (`true`) or no longer (`false`).
        block: bool,
    },
    /// Asks for what a game's list line does not say (answered with
    /// [`ServerMessage::Details`]): its players' key fingerprints, and to its creator the
    /// invite code of a private game.
    Details {
        /// The game.
        game: GameId,
    },
}

/// A player's name and the fingerprint of the key that holds it, to tell look-alike names
/// apart.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerKey {
    /// The name.
    pub name: String,
    /// `SHA256:` and the hex digest of the public key.
    pub fingerprint: String,
}

/// What a server sends.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to a hello of the same version.
    Hello {
        /// [`VERSION`].
        version: u32,
        /// The server program.
        server: String,
    },
    /// The random text to sign to prove an identity, in hex.
    Challenge {
        /// 32 random bytes in hex.
        nonce: String,
    },
    /// Identified: the name the client plays under. Every game in progress the player plays
    /// in follows as a [`ServerMessage::State`].
    Welcome {
        /// The player's name.
        name: String,
    },
    /// The lobby.
    Lobby(Lobby),
    /// A game was created; the client waits in it.
    Created {
        /// Its summary.
        game: GameSummary,
        /// A private game's invite code, to give the friend.
        code: Option<String>,
    },
    /// A game's whole state: on joining, watching, reconnecting, and after a takeback.
    State(Box<GameView>),
    /// A move was played (and stored).
    Moved {
        /// The game.
        game: GameId,
        /// The number of moves before it.
        ply: usize,
        /// The move, annotated by the server (`e2-d2xd3`).
        mv: String,
        /// The clocks after it.
        clocks: Option<ClockView>,
    },
    /// An offer from a player.
    Offered {
        /// The game.
        game: GameId,
        /// What is offered.
        offer: Offer,
        /// By whom.
        by: Side,
    },
    /// An offer was declined (an accepted one shows in its effect: a result or a state).
    Declined {
        /// The game.
        game: GameId,
        /// What was offered.
        offer: Offer,
    },
    /// A chat line.
    Chat {
        /// The game.
        game: GameId,
        /// Who wrote it.
        from: String,
        /// Players' or spectators' chat.
        channel: Channel,
        /// The line.
        text: String,
    },
    /// The answer to [`ClientMessage::Details`].
    Details {
        /// The game.
        game: GameId,
        /// Its creator and players (at most three), each once.
        players: Vec<PlayerKey>,
        /// The invite code of a private game, to its creator only.
        #[serde(default)]
        code: Option<String>,
    },
    /// A player's connection came or went.
    Presence {
        /// The game.
        game: GameId,
        /// Whose.
        side: Side,
        /// Whether connected.
        connected: bool,
        /// A player gone from a game on a clock: the milliseconds left, when this was sent,
        /// for coming back before the game is lost (`None`: no deadline).
        #[serde(default)]
        return_ms: Option<u64>,
    },
    /// A game ended.
    Result {
        /// The game.
        game: GameId,
        /// How.
        outcome: Outcome,
        /// The clocks as the server ended the game (a flag fallen shows 0), if it had any.
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// A game's chat so far (its newest lines the receiver may see, oldest first): sent
    /// after its [`ServerMessage::State`]; it replaces the lines the receiver holds.
    ChatLog {
        /// The game.
        game: GameId,
        /// The lines (at most [`CHAT_LOG_LINES`], within [`CHAT_LOG_BYTES`]).
        lines: Vec<ChatEntry>,
    },
    /// A game of the receiver's that ended while it was not connected, told once on its next
    /// connection (after the states of its games).
    Finished {
        /// The game, its result in its summary.
        game: GameSummary,
    },
    /// A page of a player's finished games.
    Archive {
        /// The player.
        name: String,
        /// The page's games (at most [`ARCHIVE_PAGE`]), newest first.
        games: Vec<GameSummary>,
        /// The page, from 0.
        page: u32,
        /// The player's finished games in all.
        total: usize,
    },
    /// A rated game's rating changes, to its watchers right after [`ServerMessage::Result`].
    Rated(RatedGame),
    /// How many watch a game now; sent to its players and spectators when it changes.
    Spectators {
        /// The game.
        game: GameId,
        /// The spectators.
        count: usize,
    },
    /// A page of a pool's leaderboard.
    Leaderboard(Leaderboard),
    /// A player's profile.
    Profile(Box<Profile>),
    /// A finished game as a save file (docs/formats.md).
    Save {
        /// The game.
        game: GameId,
        /// The save, JSON.
        json: String,
    },
    /// A request was refused.
    Error {
        /// What kind of error.
        code: ErrorCode,
        /// What, in words.
        message: String,
    },
    /// Asks for a pong with the same number.
    Ping {
        /// Any number, echoed.
        id: u64,
    },
    /// Answers the client's ping.
    Pong {
        /// The ping's number.
        id: u64,
    },
    /// The server is stopping (its host shut it down or restarts it) and closes the
    /// connection after this: nothing is lost, and the client reconnects as after a drop.
    #[serde(deserialize_with = "no_fields")]
    GoingDown,
    /// A challenge waiting for an answer, to the challenger and to the player challenged.
    Challenged(ChallengeView),
    /// A challenge is over (accepted: the new game's `state` was sent before).
    ChallengeEnded {
        /// The challenge.
        challenge: ChallengeId,
        /// How it ended.
        why: ChallengeEnd,
        /// The game it began, when accepted (absent or null otherwise).
        game: Option<GameId>,
    },
    /// `side`'s player is gone past the return window: the receiver may claim the win or wait.
    Claimable {
        /// The game.
        game: GameId,
        /// The side gone.
        side: Side,
        /// The milliseconds, when sent, after which the server ends the game (lost by `side`).
        ends_ms: u64,
    },
    /// A player gave the opponent time.
    TimeGiven {
        /// The game.
        game: GameId,
        /// The side given the time.
        to: Side,
        /// The clocks after it.
        clocks: ClockView,
    },
    /// A line of the lobby's chat: each as it is said, and the last ones kept after the
    /// welcome.
    LobbyChat(club::LobbyLine),
    /// The players the receiver blocks: after the welcome, and after each change.
    Blocks {
        /// Their names (at most [`club::MAX_BLOCKS`]).
        names: Vec<String>,
    },
}

/// A kind of error.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The client speaks another protocol version; the server closes the connection.
    Version,
    /// A line that is not a message of this protocol.
    BadMessage,
    /// A message not allowed now (before hello or identification).
    NotNow,
    /// The signature does not prove the key.
    BadSignature,
    /// The name is taken by another key, or not a valid name.
    BadName,
    /// No such game, or not one this request applies to.
    NoGame,
    /// An illegal or stale move, or not the sender's turn.
    BadMove,
    /// Too many messages: slow down.
    RateLimited,
    /// The server is full, or this address has too many connections.
    Full,
    /// Something else the request asked for cannot be done.
    Refused,
}

/// Which chat a line belongs to.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The two players.
    Players,
    /// The spectators.
    Spectators,
}

/// What a player may offer.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offer {
    /// A draw.
    Draw,
    /// To take back the asker's last move.
    Takeback,
    /// A new game once this one is over, on its terms with the sides swapped.
    Rematch,
}

/// The side a creator takes.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideChoice {
    /// The attackers.
    Attackers,
    /// The defenders.
    Defenders,
    /// Drawn by the server when the opponent joins.
    #[default]
    Random,
}

/// How a game is timed.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Timing {
    /// No clock.
    #[default]
    #[serde(deserialize_with = "no_fields")]
    Untimed,
    /// A clock (main time, increment, overtime periods).
    Clock {
        /// The time control.
        control: TimeControl,
    },
    /// Correspondence: days for each move.
    Correspondence {
        /// Days per move, 1 to [`MAX_CORRESPONDENCE_DAYS`].
        days: u32,
    },
}

/// The most days per move of a correspondence game.
pub const MAX_CORRESPONDENCE_DAYS: u32 = crate::game::MAX_DAYS_PER_MOVE;

impl Timing {
    /// The timing of a time control: correspondence for days per move (`3d/move`), else a
    /// clock.
    pub fn of(control: TimeControl) -> Timing {
        match control.days_per_move() {
            Some(days) => Timing::Correspondence { days },
            None => Timing::Clock { control },
        }
    }
}

impl std::str::FromStr for Timing {
    type Err = crate::game::BadTimeControl;

    /// `no clock` (or `none`, or nothing) for none, else a time control as `--clock` writes
    /// it: `5m+3s`, `10m/3x30s`, or `3d/move` for correspondence.
    fn from_str(text: &str) -> Result<Timing, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "none" | "no clock" | "untimed" => Ok(Timing::Untimed),
            _ => text.parse().map(Timing::of),
        }
    }
}

/// What a creator chooses for a new game.
#[derive(Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSetup {
    /// The rules.
    pub rules: Preset,
    /// The creator's side.
    #[serde(default)]
    pub side: SideChoice,
    /// The clock.
    #[serde(default)]
    pub timing: Timing,
    /// Private: joined only with the invite code the server gives back.
    #[serde(default)]
    pub private: bool,
    /// Whether the players may use hints and the engine (both agree by joining).
    #[serde(default)]
    pub engine_allowed: bool,
    /// Whether it changes its players' ratings (absent: casual, as every game before v4).
    #[serde(default)]
    pub rated: bool,
}

/// A game as the lobby and archives list it.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// Its number.
    pub id: GameId,
    /// How it was set up (a private game's code is not shown).
    pub setup: GameSetup,
    /// The attackers' player, once known.
    pub attackers: Option<String>,
    /// The defenders' player, once known.
    pub defenders: Option<String>,
    /// The creator, waiting in an open game.
    pub creator: String,
    /// Moves played.
    pub plies: usize,
    /// The result, when over.
    pub outcome: Option<Outcome>,
    /// The players' ratings in the game's pool.
    #[serde(default)]
    pub ratings: SeatRatings,
    /// How many watch it.
    #[serde(default)]
    pub spectators: usize,
    /// Whose of them are bots' names (each role once at most).
    #[serde(default)]
    pub bots: Vec<Role>,
    /// The day it was created (`2026-12-07`, UTC), in an archive's pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// A page of the lobby: the receiver's own games, then a page of the open games and one of
/// the games to watch, and the players online; each list with its count in all.
#[derive(Clone, Eq, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lobby {
    /// The receiver's games (at most [`LOBBY_PAGE`]): in progress, those where it is to
    /// move first, then the open ones it waits in.
    pub mine: Vec<GameSummary>,
    /// The receiver's games in all.
    pub mine_total: usize,
    /// The page's games of others waiting for an opponent (public ones), oldest first.
    pub open: Vec<GameSummary>,
    /// The open games of others in all.
    pub open_total: usize,
    /// The page's games of others in progress, to watch, oldest first.
    pub playing: Vec<GameSummary>,
    /// The games of others in progress in all.
    pub playing_total: usize,
    /// The page, from 0.
    pub page: u32,
    /// Names of the players online (the first [`LOBBY_PLAYERS`] in order).
    pub players: Vec<String>,
    /// The players online in all.
    pub players_total: usize,
    /// Whether each player of `players` plays, and their rating, in the same order.
    #[serde(default)]
    pub players_status: Vec<PlayerStatus>,
    /// The positions in `players` of the bots' names.
    #[serde(default)]
    pub bots: Vec<usize>,
}

impl Lobby {
    /// How many pages the open games and the games to watch fill (at least one).
    pub fn pages(&self) -> u32 {
        pages(self.open_total.max(self.playing_total), LOBBY_PAGE)
    }
}

/// How many pages of `per_page` items `total` items fill (at least one).
pub fn pages(total: usize, per_page: usize) -> u32 {
    u32::try_from(total.div_ceil(per_page.max(1)).max(1)).unwrap_or(u32::MAX)
}

/// Both clocks as the server runs them.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockView {
    /// The clocks (time control and each side's time left).
    pub clocks: crate::game::Clocks,
    /// Whose clock runs (`None` when the game is over).
    pub running: Option<Side>,
}

/// A game's whole state.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    /// The game's summary.
    pub summary: GameSummary,
    /// The start position as an OpenTafl position record.
    pub start: String,
    /// The current position as an OpenTafl position record.
    pub position: String,
    /// The side to move.
    pub to_move: Side,
    /// The moves, annotated.
    pub moves: Vec<String>,
    /// The clocks.
    pub clocks: Option<ClockView>,
    /// The side the receiver plays, `None` for a spectator.
    pub you: Option<Side>,
    /// An offer waiting for an answer.
    pub pending: Option<(Offer, Side)>,
}

impl ClientMessage {
    /// Reads a message from one line.
    pub fn parse(line: &str) -> Result<ClientMessage, BadMessage> {
        serde_json::from_str(line).map_err(|e| BadMessage(e.to_string()))
    }

    /// The message as one line, without its end.
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

impl ServerMessage {
    /// Reads a message from one line.
    pub fn parse(line: &str) -> Result<ServerMessage, BadMessage> {
        serde_json::from_str(line).map_err(|e| BadMessage(e.to_string()))
    }

    /// The message as one line, without its end, at most [`MAX_LINE_BYTES`]: a message
    /// longer than that is sent as an error saying so (the other end would skip the line).
    pub fn to_line(&self) -> String {
        let line = to_line(self);
        if line.len() <= MAX_LINE_BYTES {
            return line;
        }
        to_line(&ServerMessage::error(
            ErrorCode::Refused,
            format!(
                "the answer ({} bytes) is longer than a line may be ({MAX_LINE_BYTES} bytes)",
                line.len()
            ),
        ))
    }

    /// An error reply.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
        }
    }
}

/// A message without fields, read strictly: serde lets a unit variant of an internally
/// tagged enum pass whatever fields come with its tag, and every message refuses unknown ones.
fn no_fields<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
    /// Nothing, and nothing else.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoFields {}
    NoFields::deserialize(deserializer).map(|NoFields {}| ())
}

/// JSON on one line (`serde_json` escapes line ends in strings).
fn to_line(message: &impl Serialize) -> String {
    // Serializing these types cannot fail: no maps with non-string keys, no failing impls.
    serde_json::to_string(message).unwrap_or_default()
}

/// A line that is not a message.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct BadMessage(String);

impl BadMessage {
    /// A line refused before it could be parsed, and why.
    pub(crate) fn new(why: impl Into<String>) -> BadMessage {
        BadMessage(why.into())
    }
}

impl fmt::Display for BadMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a message: {}", excerpt(&self.0))
    }
}

impl std::error::Error for BadMessage {}

/// The bytes a client signs to prove its key: a fixed prefix (so that a signature made for
/// this protocol cannot be taken for anything else), the nonce's text, and the channel
/// binding in hex: a value only this TLS session has ([`crate::net::identity::ChannelBinding`]),
/// so that a proof relayed by a server in the middle is refused by the real one.
pub fn challenge_bytes(nonce: &str, binding: &[u8]) -> Vec<u8> {
    format!("brandubh identity v3\n{nonce}\n{}", hex::encode(binding)).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::ratings::{Change, Speed};

    #[test]
    fn version_4_messages_read_as_documented() {
        let challenge = r#"{"type":"challenge_player","name":"bob","setup":{"rules":"walker"}}"#;
        assert!(matches!(
            ClientMessage::parse(challenge),
            Ok(ClientMessage::ChallengePlayer { name, setup }) if name == "bob" && setup.rules == Preset::Walker
        ));
        let ended = r#"{"type":"challenge_ended","challenge":2,"why":"declined"}"#;
        assert_eq!(
            ServerMessage::parse(ended),
            Ok(ServerMessage::ChallengeEnded {
                challenge: 2,
                why: ChallengeEnd::Declined,
                game: None
            })
        );
        let rematch = r#"{"type":"offer","game":4,"offer":"rematch"}"#;
        assert_eq!(
            ClientMessage::parse(rematch),
            Ok(ClientMessage::Offer {
                game: 4,
                offer: Offer::Rematch
            })
        );
        for line in [
            r#"{"type":"abort","game":1}"#,
            r#"{"type":"claim","game":1}"#,
            r#"{"type":"give_time","game":1}"#,
        ] {
            assert_eq!(ClientMessage::parse(line).unwrap().to_line(), line);
        }
    }

    #[test]
    fn messages_are_one_line_of_tagged_json_read_back_alike() {
        let messages = [
            ClientMessage::Hello {
                version: VERSION,
                client: "test".into(),
            },
            ClientMessage::Create(GameSetup {
                rules: Preset::Walker,
                side: SideChoice::Defenders,
                timing: Timing::Clock {
                    control: "5m+3s".parse().unwrap(),
                },
                private: true,
                engine_allowed: false,
                rated: true,
            }),
            ClientMessage::Chat {
                game: 3,
                text: "line\nbreak".into(),
            },
        ];
        for message in messages {
            let line = message.to_line();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(ClientMessage::parse(&line).unwrap(), message);
        }
        assert_eq!(
            ClientMessage::parse(r#"{"type":"lobby"}"#).unwrap(),
            ClientMessage::Lobby { page: 0 },
            "the documented form"
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"move","game":1,"ply":0,"mv":"d2-c2"}"#).unwrap(),
            ClientMessage::Move {
                game: 1,
                ply: 0,
                mv: "d2-c2".into()
            }
        );
    }

    #[test]
    fn unknown_and_malformed_messages_are_refused_with_their_text_escaped() {
        for bad in [
            "",
            "{}",
            r#"{"type":"fly"}"#,
            r#"{"type":"move","game":-1,"ply":0,"mv":"d2-c2"}"#,
            "\u{1b}[2J",
        ] {
            let e = ClientMessage::parse(bad).unwrap_err().to_string();
            assert!(!e.contains('\u{1b}'), "{e}");
        }
    }

    /// One message of every kind a client sends.
    fn every_client_message() -> Vec<ClientMessage> {
        let game = 7;
        vec![
            ClientMessage::Hello {
                version: VERSION,
                client: "c".into(),
            },
            ClientMessage::Identify {
                name: "n".into(),
                key: "k".into(),
                signature: "s".into(),
                bot: true,
            },
            ClientMessage::Lobby { page: 2 },
            ClientMessage::Create(GameSetup::default()),
            ClientMessage::Join {
                game: Some(game),
                code: None,
            },
            ClientMessage::Watch { game },
            ClientMessage::Leave { game },
            ClientMessage::Move {
                game,
                ply: 0,
                mv: "d2-c2".into(),
            },
            ClientMessage::Offer {
                game,
                offer: Offer::Draw,
            },
            ClientMessage::Answer {
                game,
                offer: Offer::Takeback,
                accept: true,
            },
            ClientMessage::Resign { game },
            ClientMessage::Chat {
                game,
                text: "t".into(),
            },
            ClientMessage::Ping { id: 1 },
            ClientMessage::Pong { id: 1 },
            ClientMessage::Archive {
                name: "n".into(),
                page: 1,
            },
            ClientMessage::Download { game },
            ClientMessage::Leaderboard(LeaderboardAsk {
                rules: Preset::Walker,
                speed: Speed::Correspondence,
                page: 1,
                bots: true,
            }),
            ClientMessage::Profile { name: "n".into() },
            ClientMessage::LobbyChat { text: "t".into() },
            ClientMessage::Block {
                name: "n".into(),
                block: true,
            },
            ClientMessage::Details { game: 7 },
        ]
    }

    /// One message of every kind a server sends.
    fn every_server_message() -> Vec<ServerMessage> {
        let game = 7;
        let summary = GameSummary {
            id: game,
            setup: GameSetup::default(),
            attackers: Some("a".into()),
            defenders: None,
            creator: "a".into(),
            plies: 0,
            outcome: None,
            ratings: SeatRatings::default(),
            spectators: 0,
            bots: vec![Role::Attackers],
            date: Some("2026-12-07".into()),
        };
        let clocks = Some(ClockView {
            clocks: crate::game::Clocks::new("5m".parse().unwrap()),
            running: Some(Side::Attackers),
        });
        vec![
            ServerMessage::Hello {
                version: VERSION,
                server: "s".into(),
            },
            ServerMessage::Challenge { nonce: "n".into() },
            ServerMessage::Welcome { name: "n".into() },
            ServerMessage::Lobby(Lobby::default()),
            ServerMessage::Created {
                game: summary.clone(),
                code: None,
            },
            ServerMessage::State(Box::new(GameView {
                summary: summary.clone(),
                start: "s".into(),
                position: "p".into(),
                to_move: Side::Attackers,
                moves: Vec::new(),
                clocks,
                you: None,
                pending: None,
            })),
            ServerMessage::Moved {
                game,
                ply: 0,
                mv: "d2-c2".into(),
                clocks,
            },
            ServerMessage::Offered {
                game,
                offer: Offer::Draw,
                by: Side::Defenders,
            },
            ServerMessage::Declined {
                game,
                offer: Offer::Draw,
            },
            ServerMessage::Chat {
                game,
                from: "f".into(),
                channel: Channel::Players,
                text: "t".into(),
            },
            ServerMessage::Presence {
                game,
                side: Side::Attackers,
                connected: false,
                return_ms: Some(41_000),
            },
            ServerMessage::Archive {
                name: "n".into(),
                games: vec![summary.clone()],
                page: 0,
                total: 1,
            },
            ServerMessage::Save {
                game,
                json: "{}".into(),
            },
            ServerMessage::error(ErrorCode::Refused, "no"),
            ServerMessage::Ping { id: 1 },
            ServerMessage::Pong { id: 1 },
            ServerMessage::GoingDown,
        ]
        .into_iter()
        .chain(every_version_4_message(summary))
        .collect()
    }

    /// One message of every kind a server sends that version 4 added.
    fn every_version_4_message(summary: GameSummary) -> Vec<ServerMessage> {
        let game = 7;
        let club = [
            ServerMessage::LobbyChat(club::LobbyLine {
                from: "f".into(),
                text: "t".into(),
            }),
            ServerMessage::Blocks {
                names: vec!["n".into()],
            },
            ServerMessage::Details {
                game,
                players: vec![PlayerKey {
                    name: "n".into(),
                    fingerprint: "SHA256:00".into(),
                }],
                code: Some("c".into()),
            },
        ];
        let change = Change {
            before: crate::net::ratings::Rating::default().shown(),
            after: crate::net::ratings::Shown {
                rating: 1662,
                deviation: 290,
            },
        };
        vec![
            ServerMessage::Rated(RatedGame {
                game,
                attackers: change,
                defenders: change,
            }),
            ServerMessage::Spectators { game, count: 2 },
            ServerMessage::Leaderboard(Leaderboard {
                rules: Preset::Standard,
                speed: Speed::Live,
                bots: true,
                page: 0,
                total: 1,
                players: vec![Ranked {
                    rank: 1,
                    name: "n".into(),
                    rating: change.after,
                    games: 1,
                }],
            }),
            ServerMessage::Profile(Box::new(Profile {
                name: "n".into(),
                online: true,
                playing: false,
                pools: vec![PoolRecord {
                    pool: crate::net::ratings::Pool::default(),
                    rating: change.after,
                    wins: 1,
                    draws: 0,
                    losses: 0,
                }],
                history: vec![RatingPoint {
                    pool: crate::net::ratings::Pool::default(),
                    game,
                    rating: 1662,
                }],
                recent: vec![summary.clone()],
            })),
        ]
        .into_iter()
        .chain(club)
        .chain(memory_messages(
            game,
            Outcome::draw(crate::rules::Reason::Agreement),
            summary,
        ))
        .collect()
    }

    /// One of each message of the server's memory (docs/protocol.md, "Version 4"): a result
    /// with its clocks, a game's chat so far, a game ended while away.
    fn memory_messages(game: GameId, outcome: Outcome, summary: GameSummary) -> [ServerMessage; 3] {
        [
            ServerMessage::Result {
                game,
                outcome,
                clocks: Some(crate::game::Clocks::new("5m".parse().unwrap())),
            },
            ServerMessage::ChatLog {
                game,
                lines: vec![ChatEntry {
                    from: "f".into(),
                    channel: Channel::Spectators,
                    text: "t".into(),
                }],
            },
            ServerMessage::Finished { game: summary },
        ]
    }

    /// `line` with a field no message has, at its end.
    fn with_extra_field(line: &str) -> String {
        let open = line.strip_suffix('}').unwrap();
        format!(r#"{open},"extra":0}}"#)
    }

    #[test]
    fn every_message_refuses_unknown_fields() {
        for message in every_client_message() {
            let line = message.to_line();
            assert_eq!(ClientMessage::parse(&line).unwrap(), message, "{line}");
            let extra = with_extra_field(&line);
            assert!(ClientMessage::parse(&extra).is_err(), "accepted {extra}");
        }
        for message in every_server_message() {
            let line = message.to_line();
            assert_eq!(ServerMessage::parse(&line).unwrap(), message, "{line}");
            let extra = with_extra_field(&line);
            assert!(ServerMessage::parse(&extra).is_err(), "accepted {extra}");
        }
        // Inside a message too.
        for line in [
            r#"{"type":"create","rules":"standard","timing":{"kind":"untimed","extra":0}}"#,
            r#"{"type":"create","rules":"standard","timing":{"kind":"correspondence","days":3,"extra":0}}"#,
        ] {
            assert!(ClientMessage::parse(line).is_err(), "accepted {line}");
        }
        let result = r#"{"type":"result","game":1,"outcome":{"winner":null,"reason":"agreement","extra":0}}"#;
        assert!(ServerMessage::parse(result).is_err(), "accepted {result}");
    }

    /// A game summary as long as the protocol lets it be: names of the most characters, each
    /// of four bytes, and every field filled.
    fn longest_summary() -> GameSummary {
        let name = "\u{1F451}".repeat(MAX_NAME_CHARS);
        GameSummary {
            id: GameId::MAX,
            setup: GameSetup {
                rules: Preset::OpenTafl,
                side: SideChoice::Defenders,
                timing: Timing::Clock {
                    control: "100h+100h/100x100h".parse().unwrap(),
                },
                private: true,
                engine_allowed: true,
                rated: true,
            },
            attackers: Some(name.clone()),
            defenders: Some(name.clone()),
            creator: name,
            plies: usize::MAX,
            outcome: Some(Outcome {
                winner: Some(Side::Defenders),
                reason: crate::rules::Reason::KingEscaped,
            }),
            ratings: SeatRatings {
                creator: Some(widest_rating()),
                attackers: Some(widest_rating()),
                defenders: Some(widest_rating()),
            },
            spectators: usize::MAX,
            bots: vec![Role::Creator, Role::Attackers, Role::Defenders],
            date: Some("2026-12-07".into()),
        }
    }

    /// A rating of the most digits.
    fn widest_rating() -> crate::net::ratings::Shown {
        let most = -crate::net::ratings::SHOWN_BOUND;
        crate::net::ratings::Shown {
            rating: most,
            deviation: most,
        }
    }

    #[test]
    fn a_server_message_over_the_line_limit_is_sent_as_an_error_that_fits() {
        let archive = ServerMessage::Archive {
            name: "n".into(),
            games: vec![longest_summary(); 1000],
            page: 0,
            total: 1000,
        };
        let line = archive.to_line();
        assert!(line.len() <= MAX_LINE_BYTES, "{} bytes", line.len());
        let sent = ServerMessage::parse(&line).unwrap();
        assert!(
            matches!(
                sent,
                ServerMessage::Error {
                    code: ErrorCode::Refused,
                    ..
                }
            ),
            "{sent:?}"
        );
    }

    #[test]
    fn the_fullest_lobby_and_archive_pages_fit_in_a_line() {
        let name = "\u{1F451}".repeat(MAX_NAME_CHARS);
        let lobby = ServerMessage::Lobby(Lobby {
            mine: vec![longest_summary(); LOBBY_PAGE],
            mine_total: usize::MAX,
            open: vec![longest_summary(); LOBBY_PAGE],
            open_total: usize::MAX,
            playing: vec![longest_summary(); LOBBY_PAGE],
            playing_total: usize::MAX,
            page: u32::MAX,
            players: vec![name.clone(); LOBBY_PLAYERS],
            players_total: usize::MAX,
            players_status: vec![
                PlayerStatus {
                    playing: true,
                    rating: Some(widest_rating()),
                };
                LOBBY_PLAYERS
            ],
            bots: (0..LOBBY_PLAYERS).collect(),
        });
        let archive = ServerMessage::Archive {
            name,
            games: vec![longest_summary(); ARCHIVE_PAGE],
            page: u32::MAX,
            total: usize::MAX,
        };
        for message in [lobby, archive] {
            let line = super::to_line(&message);
            assert!(line.len() <= MAX_LINE_BYTES, "{} bytes", line.len());
        }
    }

    #[test]
    fn timings_are_read_as_clocks_are_days_per_move_as_correspondence() {
        let timing = |text: &str| text.parse::<Timing>();
        assert_eq!(timing("3d/move"), Ok(Timing::Correspondence { days: 3 }));
        assert_eq!(timing("no clock"), Ok(Timing::Untimed));
        assert_eq!(timing(""), Ok(Timing::Untimed));
        assert_eq!(
            timing("5m+3s"),
            Ok(Timing::Clock {
                control: "5m+3s".parse().unwrap()
            })
        );
        assert!(timing("0d/move").is_err());
        assert!(timing("5 minutes").is_err());
    }

    #[test]
    fn names_outside_the_documented_set_are_refused() {
        for name in [
            "a\u{a0}b",                       // a no-break space
            "\u{301}\u{301}",                 // only combining marks
            "z\u{334}\u{335}\u{336}\u{337}a", // zalgo
            "\u{2800}",                       // the blank braille pattern
            "a\u{2028}b",                     // a line separator
            "\u{430}lice",                    // Cyrillic a among Latin letters
            "a  b",                           // two spaces
            "-x",                             // punctuation first
        ] {
            assert!(check_name(name).is_err(), "{name:?} accepted");
        }
        for name in [
            "alice",
            "Brian Boru",
            "O'Neill",
            "jean-luc",
            "Иван",
            "李小龍",
            "ann_2.0",
        ] {
            assert_eq!(check_name(name), Ok(()), "{name:?}");
        }
        assert_eq!(normalize_name("Zoe\u{301}").as_deref(), Ok("Zoé"), "NFC");
        assert_eq!(normalize_name("Zoé").as_deref(), Ok("Zoé"));
    }

    #[test]
    fn names_and_chat_with_control_characters_are_refused() {
        assert_eq!(check_name("Brian Boru"), Ok(()));
        assert_eq!(check_name("é ♚"), Err(TextError::NotAllowed('♚')));
        assert_eq!(check_name(""), Err(TextError::Empty));
        assert_eq!(check_name(" x"), Err(TextError::Padded));
        assert_eq!(check_name("\u{1b}[31mred"), Err(TextError::Control));
        assert_eq!(check_name("a\u{202e}b"), Err(TextError::Control));
        assert_eq!(
            check_name(&"x".repeat(MAX_NAME_CHARS + 1)),
            Err(TextError::TooLong(MAX_NAME_CHARS))
        );
        assert_eq!(check_chat("good game!"), Ok(()));
        assert_eq!(check_chat("bell\u{7}"), Err(TextError::Control));
        assert_eq!(check_chat("two\nlines"), Err(TextError::Control));
    }
}

mod views;
