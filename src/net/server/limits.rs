//! The limits that keep a hostile client from hurting others, in one place (a leaf: every
//! part of the server reads them, none is read by them).

use std::time::Duration;

/// The limits that keep a hostile client from hurting others, in one place.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once, in all.
    pub connections: usize,
    /// Connections open at once from one address, counted once they said hello; as many
    /// more may be on their way there (a newer one pushes the oldest out), so that sockets
    /// that say nothing cannot lock their address out.
    pub per_address: usize,
    /// Time for the TLS handshake and the hello.
    pub handshake: Duration,
    /// A connection that sends nothing (not even a pong) for this long is closed.
    pub idle: Duration,
    /// How often the server pings each connection (to measure lag and keep it alive).
    pub ping_every: Duration,
    /// Messages a connection may send per second, on average.
    pub messages_per_second: u32,
    /// Messages a connection may send at once, above the average.
    pub burst: u32,
    /// Bad messages (unreadable, too long, too fast) after which a connection is closed.
    pub bad_messages: u32,
    /// The most measured lag credited back to a mover's clock.
    pub max_lag_credit: Duration,
    /// Bytes queued for a connection that reads too slowly before it is cut off.
    pub queue_bytes: usize,
    /// Open games one player may wait in at once.
    pub open_games_per_player: usize,
    /// How long a player who dropped out of a game on a clock (not a correspondence game)
    /// has to come back before the opponent may claim the win (the server ends the game
    /// after ten of these).
    pub return_window: Duration,
    /// Names one key may hold.
    pub names_per_key: usize,
    /// New names that may be claimed from one address in a minute.
    pub new_names_per_minute: usize,
    /// How long a server going down waits for its connections to be told and closed.
    pub going_down: Duration,
    /// Challenges one player may have waiting for an answer at once.
    pub challenges_out: usize,
    /// Challenges waiting for one player's answer at once.
    pub challenges_in: usize,
    /// How long a challenge waits for its answer.
    pub challenge_expiry: Duration,
    /// How often the server notes in its database that it is alive: after a crash, the
    /// player to move is charged the time used up to the last note.
    pub alive_every: Duration,
    /// Lines of the lobby's chat one key may say in a minute (each goes to every player).
    pub lobby_lines_per_minute: u32,
    /// Whether a rated game with a bot in it counts for the people's pool of its rules and
    /// speed (`--bots-rated-with-humans`); otherwise for the bots' pool.
    pub bots_rated_with_humans: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 4096,
            per_address: 16,
            handshake: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            ping_every: Duration::from_secs(15),
            messages_per_second: 20,
            burst: 40,
            bad_messages: 5,
            max_lag_credit: Duration::from_secs(1),
            queue_bytes: 1 << 20,
            open_games_per_player: 5,
            return_window: Duration::from_secs(60),
            names_per_key: 5,
            new_names_per_minute: 10,
            going_down: Duration::from_secs(5),
            challenges_out: 3,
            challenges_in: 20,
            challenge_expiry: Duration::from_secs(5 * 60),
            alive_every: Duration::from_secs(5),
            lobby_lines_per_minute: 10,
            bots_rated_with_humans: false,
        }
    }
}
