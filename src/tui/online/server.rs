//! What the server says, taken by online play: the client's reports (connected, lost, a
//! failure) and the server's messages about the lobby and each game (a state, a move, an
//! offer, a chat line, a presence, a result); the game awaited is shown when its state comes.

use std::time::{Duration, Instant};

use super::create::timing_text;
use super::game::{OnlineGame, offer_text};
use super::{Online, Prompt, View};
use crate::net::client::{ClientError, Event};
use crate::net::protocol::{ClientMessage, ErrorCode, GameId, Offer, ServerMessage};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::rules::Side;
use crate::tui::net_request::NetRequest;

impl Online {
    /// Takes what the client reports, at `now`.
    pub(super) fn take_net(&mut self, event: Event, now: Instant) {
        self.now = now;
        match event {
            Event::Connected { .. } => {
                self.connected = true;
                self.ping.1 = None;
                match self.view {
                    // Back on the game's board: whose move it is, not the lobby's keys.
                    View::Game(id) => {
                        let text = format!("reconnected: {}", self.turn_text(id));
                        self.info(&text);
                    }
                    _ => self.info("connected: c create, Enter join or watch, ? keys"),
                }
                if let Some(name) = self.lobby_name() {
                    self.requests.push(NetRequest::Remember {
                        dir: self.start.config_dir.clone(),
                        server: crate::net::client::with_port(&self.start.server),
                        name,
                    });
                }
                self.refresh(now);
                if let Some(name) = self.start.challenge.take() {
                    let setup = self.start.create.clone().unwrap_or_default();
                    self.send_challenge(name, setup);
                }
            }
            Event::Disconnected { reason } => {
                self.connected = false;
                self.lag = None;
                self.ping.1 = None;
                // What matters first: a long reason is cut at the screen's edge.
                self.error(&format!(
                    "reconnecting… (connection lost: {})",
                    escaped(&reason, MESSAGE_CHARS)
                ));
            }
            // A restart: said calmly, the client reconnects by itself.
            Event::ServerGoingDown => {
                self.connected = false;
                self.lag = None;
                self.ping.1 = None;
                self.info("the server is restarting: reconnecting…");
            }
            Event::Failed(ClientError::UnknownServer {
                shown,
                trusted: None,
                ..
            }) => self.ask_trust(shown),
            Event::Failed(e) => {
                self.connected = false;
                self.failed = true;
                // A name refused (taken by another key): another may be tried.
                if matches!(e, ClientError::Refused(_)) {
                    self.view = View::Name;
                    // The name tried stays typed, to be edited.
                    let tried = self.start.name.clone().unwrap_or_default();
                    self.prompt = Some((Prompt::Name, tried));
                    self.error(&format!("{}: type another name", failure_text(&e)));
                } else {
                    self.error(&failure_text(&e));
                }
            }
            Event::Unsent(message) => {
                if let ClientMessage::Move { game, .. } = message
                    && let Some(g) = self.games.get_mut(&game)
                {
                    g.refused();
                }
                self.error("not sent: the connection is down and too much waits to be sent");
            }
            Event::Saved { game, path } => {
                self.info(&format!(
                    "game #{game} saved as {}",
                    escaped(&path.display().to_string(), MESSAGE_CHARS)
                ));
            }
            Event::Message(message) => self.on_message(message, now),
        }
    }

    pub(super) fn lobby_name(&self) -> Option<String> {
        self.start.name.clone()
    }

    pub(super) fn on_message(&mut self, message: ServerMessage, now: Instant) {
        match message {
            ServerMessage::Lobby(lobby) => self.lobby.set(lobby),
            ServerMessage::Created { game, code } => {
                self.awaited = Some(game.id);
                let code = code.map_or_else(String::new, |c| {
                    format!(" · invite code {}", escaped(&c, MESSAGE_CHARS))
                });
                self.info(&format!(
                    "game #{} created ({}): waiting for an opponent{code}",
                    game.id,
                    timing_text(game.setup.timing)
                ));
                self.refresh(now);
            }
            ServerMessage::State(view) => {
                let id = view.summary.id;
                let offered = self.games.get(&id).and_then(OnlineGame::pending);
                let made = match self.games.get_mut(&id) {
                    Some(game) => game.refresh(&view, now),
                    None => OnlineGame::from_view(&view, now).map(|game| {
                        self.games.insert(id, game);
                        None
                    }),
                };
                match made {
                    Err(e) => {
                        self.error(&e);
                        return;
                    }
                    // Never lost silently: a move the server did not get goes again.
                    Ok(Some(mv)) => {
                        let ply = view.moves.len();
                        self.send(ClientMessage::Move { game: id, ply, mv });
                    }
                    Ok(None) => {}
                }
                self.assist_changed(id);
                let rematch = self.rematch_begun(id);
                let begun = (self.awaited == Some(id) || self.join_by_code || rematch)
                    && view.you.is_some();
                if begun || self.to_show == Some(id) {
                    self.awaited = None;
                    self.join_by_code = false;
                    self.to_show = None;
                    self.show_game(id);
                } else if self.landing {
                    self.land(id);
                }
                // A takeback accepted comes as the state without the move.
                if let (Some((Offer::Takeback, _)), None) = (offered, view.pending)
                    && self.on_screen(id)
                {
                    let text = format!("takeback accepted: {}", self.turn_text(id));
                    self.info(&text);
                }
            }
            ServerMessage::Welcome { .. } => self.welcomed_to_club(),
            ServerMessage::LobbyChat(line) => self.lobby_line(line),
            ServerMessage::Blocks { names } => self.blocks(names),
            ServerMessage::Archive {
                name,
                games,
                page,
                total,
            } => self.archive_page(&name, games, page, total),
            ServerMessage::Hello { .. }
            | ServerMessage::Challenge { .. }
            | ServerMessage::Ping { .. } => {}
            ServerMessage::Leaderboard(board) => {
                if let Some(screen) = self.standings.as_mut() {
                    screen.take_leaderboard(board);
                }
            }
            ServerMessage::Profile(profile) => {
                if let Some(screen) = self.standings.as_mut() {
                    screen.take_profile(*profile);
                }
            }
            ServerMessage::Save { game, json } => {
                if !self.review_downloaded(game, &json) {
                    self.save_finished(game, json);
                }
            }
            ServerMessage::Challenged(view) => self.challenged(view, now),
            ServerMessage::ChallengeEnded {
                challenge,
                why,
                game,
            } => self.challenge_ended(challenge, why, game),
            ServerMessage::Claimable {
                game,
                side,
                ends_ms,
            } => self.claimable(game, side, Duration::from_millis(ends_ms), now),
            ServerMessage::TimeGiven { game, to, clocks } => self.time_given(game, to, clocks, now),
            ServerMessage::Details {
                game,
                players,
                code,
            } => self.on_details(game, &players, code.as_deref()),
            other => self.on_game_message(other, now),
        }
    }

    /// A message about one game: a move, an offer, a chat line, a presence, a result.
    pub(super) fn on_game_message(&mut self, message: ServerMessage, now: Instant) {
        match message {
            ServerMessage::Moved {
                game,
                ply,
                mv,
                clocks,
            } => self.on_moved(game, ply, &mv, clocks, now),
            ServerMessage::Offered { game, offer, by } => {
                let Some(g) = self.games.get_mut(&game) else {
                    return;
                };
                g.offered(Some((offer, by)));
                let to_answer = g.you().is_some_and(|you| you != by);
                if to_answer && self.on_screen(game) {
                    // The question stands on the status line (y / n), the board working.
                    self.status = None;
                } else {
                    let what = offer_text(offer);
                    self.info(&format!("the {by} offer {what}"));
                }
            }
            ServerMessage::Declined { game, offer } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.offered(None);
                }
                self.info(&format!("{} declined", offer_text(offer)));
            }
            ServerMessage::Chat {
                game,
                from,
                channel,
                text,
            } => {
                if let Some(g) = self.games.get_mut(&game)
                    && !self.club.hides(&from)
                {
                    g.chat_line(channel, &from, &text);
                }
            }
            ServerMessage::ChatLog { game, lines } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.chat_log(&lines);
                }
            }
            ServerMessage::Finished { game } => self.finished_away(&game),
            ServerMessage::Presence {
                game,
                side,
                connected,
                return_ms,
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.presence(side, connected, return_ms.map(Duration::from_millis), now);
                }
            }
            ServerMessage::Result {
                game,
                outcome,
                clocks,
            } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.ended(outcome, clocks, now);
                    let you = g.you();
                    let text = crate::tui::panels::outcome_text(outcome, you);
                    if you.is_some() {
                        self.assist.ring();
                        self.download_finished(game);
                    }
                    self.ask = None;
                    self.info(&format!("{text} · q to the lobby"));
                }
            }
            message @ (ServerMessage::Rated(_) | ServerMessage::Spectators { .. }) => {
                self.on_watchers_message(&message);
            }
            ServerMessage::Pong { id } => {
                if let Some((waiting, sent)) = self.ping.1
                    && waiting == id
                {
                    self.lag = Some(now.saturating_duration_since(sent));
                    self.ping.1 = None;
                }
            }
            ServerMessage::Error { code, message } => {
                if code == ErrorCode::BadMove
                    && let View::Game(id) = self.view
                    && let Some(g) = self.games.get_mut(&id)
                {
                    g.refused();
                }
                self.error(&format!(
                    "the server says: {}",
                    escaped(&message, MESSAGE_CHARS)
                ));
            }
            _ => {}
        }
    }

    /// A game's rating changes at its end, or its spectators counted anew.
    fn on_watchers_message(&mut self, message: &ServerMessage) {
        match *message {
            ServerMessage::Rated(rated) => {
                if let Some(g) = self.games.get_mut(&rated.game) {
                    g.rated([rated.attackers, rated.defenders]);
                }
            }
            ServerMessage::Spectators { game, count } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.spectators(count);
                }
            }
            _ => {}
        }
    }

    /// The server's `moved` in game `game`: move `mv` after `ply` moves, and the clocks.
    pub(super) fn on_moved(
        &mut self,
        game: GameId,
        ply: usize,
        mv: &str,
        clocks: Option<crate::net::protocol::ClockView>,
        now: Instant,
    ) {
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        if g.moved(ply, mv, clocks, now).is_err() {
            // Out of step: the whole state again.
            self.send(ClientMessage::Watch { game });
            return;
        }
        if g.my_turn() {
            self.assist.ring();
        }
        self.alert_if_elsewhere(game);
        self.assist_changed(game);
        if self.on_screen(game) {
            let g = &self.games[&game];
            let text = if g.my_turn() {
                format!(
                    "{} played {mv}: your move",
                    g.name(g.you().unwrap_or(Side::Attackers).opponent())
                )
            } else {
                format!("played {mv}")
            };
            self.info_warned(game, &text);
        }
    }

    pub(super) fn on_screen(&self, game: GameId) -> bool {
        matches!(self.view, View::Game(id) if id == game)
    }

    pub(super) fn show_game(&mut self, id: GameId) {
        self.view = View::Game(id);
        self.lobby.seen(id);
        if self.games.contains_key(&id) {
            let text = self.turn_text(id);
            self.info_warned(id, &text);
        }
    }

    /// Whose move it is in game `id`, in words for its status line.
    pub(super) fn turn_text(&self, id: GameId) -> String {
        let Some(g) = self.games.get(&id) else {
            return String::new();
        };
        match g.you() {
            Some(_) if g.outcome().is_some() => "the game is over: q to the lobby".to_owned(),
            Some(_) if g.my_turn() => "your move: ? for the keys".to_owned(),
            Some(_) => format!(
                "waiting for {}: ? for the keys",
                g.name(g.record().state().position().side_to_move())
            ),
            None => "watching: a evaluation · c chat with the spectators · q lobby".to_owned(),
        }
    }

    /// Just started: game `id`, whose state came, is shown if it is one of the player's in
    /// progress and nothing else is, or if it is the player's move there and not in the
    /// game shown.
    fn land(&mut self, id: GameId) {
        let Some(g) = self.games.get(&id) else {
            return;
        };
        if g.you().is_none() || g.outcome().is_some() {
            return;
        }
        let shown_waits = match self.view {
            View::Lobby => true,
            View::Game(shown) => {
                shown != id
                    && g.my_turn()
                    && !self.games.get(&shown).is_some_and(OnlineGame::my_turn)
            }
            View::Name | View::Server(_) | View::YourGames => false,
        };
        if shown_waits {
            self.show_game(id);
        }
        if self.games.get(&id).is_some_and(OnlineGame::my_turn) {
            self.landing = false;
        }
    }
}

/// Why the client gave up, in one line (a changed key in the short form that fits).
pub fn failure_text(e: &ClientError) -> String {
    let text = match e {
        ClientError::KeyChanged(changed) => changed.advice(),
        other => other.to_string(),
    };
    escaped(&text, MESSAGE_CHARS)
}
