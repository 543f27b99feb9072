//! What a bot keeps of its games, and what it does on each message of the server: a pure
//! state machine, without a connection or an engine, so that it is tested alone. It holds
//! at most one open game and at most [`Seats::most`] games in all (playing and open), opens
//! one when below, declines every offer, and asks for a move when it is its turn. Its
//! answers to challenges, rematches and a gone opponent are in [`answers`].

mod answers;

use std::collections::{HashMap, VecDeque};

use crate::game::{Clocks, Game};
use crate::net::protocol::{
    ClientMessage, ErrorCode, GameId, GameSetup, GameSummary, GameView, Offer, ServerMessage,
};
use crate::rules::{GameState, Side};

/// What the bot does next, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Do {
    /// Sends a message to the server.
    Send(ClientMessage),
    /// Searches `state` for a move of game `game` at ply `state.ply()`, on `clocks` if any.
    Think {
        /// The game.
        game: GameId,
        /// Its position and history.
        state: Box<GameState>,
        /// Its clocks as the server last sent them.
        clocks: Option<Clocks>,
    },
    /// Game `game` is over or gone: its engine may go.
    Forget(GameId),
    /// Drops the connection, so that the reconnect brings every game's state again.
    Resync,
    /// Everything the bot had to say before it stops has been handled by the server.
    Exit,
}

/// The bot's open game, if any.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Open {
    /// None, and none asked for.
    None,
    /// Asked for (`create` sent), not created yet.
    Asked,
    /// Waiting for an opponent.
    Waiting(GameId),
}

/// A game the bot plays.
#[derive(Debug)]
struct Played {
    record: Game,
    side: Side,
    clocks: Option<Clocks>,
    /// The ply the engine searches a move for, while it does.
    asked: Option<usize>,
}

/// A bot's games.
#[derive(Debug)]
pub(super) struct Seats {
    /// The bot's name (a challenge to it is answered).
    name: String,
    setup: GameSetup,
    most: usize,
    open: Open,
    games: HashMap<GameId, Played>,
    /// Whether the server's view of the bot's games was read since the connection was made
    /// (the lobby's list of its own games): no game is opened before.
    synced: bool,
    /// Stopping: no new game; the open one withdrawn.
    stopping: bool,
    /// The number of the last ping sent while stopping: its pong means the server has
    /// handled everything before it.
    last_ping: u64,
    /// The pings sent after a challenge or a rematch accepted: until each one's pong, the
    /// game it may begin counts as held.
    coming: Vec<u64>,
    /// The games just over (the newest [`answers::OVER_KEPT`]) and the bot's side in each,
    /// whose rematch it may be offered.
    over: VecDeque<(GameId, Side)>,
}

impl Seats {
    /// A bot named `name` that opens games of `setup` and holds at most `most` (at least
    /// one).
    pub fn new(name: &str, setup: GameSetup, most: usize) -> Seats {
        Seats {
            name: name.to_owned(),
            setup,
            most: most.max(1),
            open: Open::None,
            games: HashMap::new(),
            synced: false,
            stopping: false,
            last_ping: 0,
            coming: Vec::new(),
            over: VecDeque::new(),
        }
    }

    /// The games the bot plays.
    pub fn playing(&self) -> usize {
        self.games.len()
    }

    /// Connected (again): the bot's own games are read from the lobby before anything else.
    pub fn connected(&mut self) -> Vec<Do> {
        self.synced = false;
        self.coming.clear();
        vec![Do::Send(ClientMessage::Lobby { page: 0 })]
    }

    /// What the bot does on `message`.
    pub fn message(&mut self, message: &ServerMessage) -> Vec<Do> {
        match message {
            ServerMessage::Lobby(lobby) => {
                let (open, playing): (Vec<&GameSummary>, Vec<&GameSummary>) = lobby
                    .mine
                    .iter()
                    .partition(|g| g.attackers.is_none() && g.defenders.is_none());
                let ids = |games: Vec<&GameSummary>| games.iter().map(|g| g.id).collect();
                let open: Vec<GameId> = ids(open);
                let playing: Vec<GameId> = ids(playing);
                self.synced = true;
                let mut todo = self.forget_all_but(&playing);
                todo.extend(self.reconcile(&open));
                todo
            }
            ServerMessage::Created { game, .. } => self.created(game.id),
            ServerMessage::State(view) => self.state(view),
            ServerMessage::Moved {
                game,
                ply,
                mv,
                clocks,
            } => self.moved(*game, *ply, mv, clocks.map(|c| c.clocks)),
            ServerMessage::Offered {
                game,
                offer: Offer::Rematch,
                by,
            } => self.rematch_offered(*game, *by),
            ServerMessage::Offered { game, offer, by } => match self.games.get(game) {
                Some(played) if played.side != *by => vec![Do::Send(ClientMessage::Answer {
                    game: *game,
                    offer: *offer,
                    accept: false,
                })],
                _ => Vec::new(),
            },
            ServerMessage::Result { game, outcome, .. } => {
                if let Some(played) = self.games.remove(game) {
                    tracing::info!(game, result = %outcome, "game ended");
                    self.just_over(*game, played.side);
                }
                let mut todo = vec![Do::Forget(*game)];
                todo.extend(self.fill());
                todo
            }
            ServerMessage::Error { code, message } => self.refused(*code, message),
            ServerMessage::Pong { id } if self.stopping && *id == self.last_ping => {
                vec![Do::Exit]
            }
            ServerMessage::Pong { id } => self.pong(*id),
            ServerMessage::Challenged(challenge) => self.challenged(challenge),
            ServerMessage::Claimable { game, side, .. } => self.claimable(*game, *side),
            _ => Vec::new(),
        }
    }

    /// The engine found `mv` for game `game` at ply `ply`: played if still wanted.
    pub fn thought(&mut self, game: GameId, ply: usize, mv: String) -> Vec<Do> {
        match self.games.get_mut(&game) {
            Some(played) if played.record.moves().len() == ply && played.asked == Some(ply) => {
                played.asked = None;
                vec![Do::Send(ClientMessage::Move { game, ply, mv })]
            }
            _ => Vec::new(),
        }
    }

    /// Stops: no new game, the open one withdrawn, then a ping whose pong says the server
    /// has handled it all ([`Do::Exit`]). The games in progress are left as they are: the
    /// server's rules for a player who leaves apply.
    pub fn stop(&mut self) -> Vec<Do> {
        self.stopping = true;
        let mut todo = Vec::new();
        if let Open::Waiting(game) = self.open {
            todo.push(Do::Send(ClientMessage::Leave { game }));
            self.open = Open::None;
        }
        todo.push(self.ping());
        todo
    }

    /// A ping (a stopping bot ends on the pong of the latest one).
    fn ping(&mut self) -> Do {
        self.last_ping += 1;
        Do::Send(ClientMessage::Ping { id: self.last_ping })
    }

    /// The games the bot plays, and those it accepted that may begin.
    fn held(&self) -> usize {
        self.games.len() + self.coming.len()
    }

    /// Whether it may take one more game: its open game counts.
    fn room(&self) -> bool {
        self.held() + usize::from(self.open != Open::None) < self.most
    }

    /// The lobby lists the bot's games in progress as `playing`: the others it holds ended
    /// while it was away (or were set aside) and are forgotten, so that they no longer count.
    fn forget_all_but(&mut self, playing: &[GameId]) -> Vec<Do> {
        let gone: Vec<GameId> = (self.games.keys())
            .filter(|id| !playing.contains(id))
            .copied()
            .collect();
        gone.into_iter()
            .map(|game| {
                self.games.remove(&game);
                tracing::info!(game, "game ended while away");
                Do::Forget(game)
            })
            .collect()
    }

    /// The lobby lists the bot's open games `open`: one is kept, the others withdrawn (all
    /// of them when stopping or full); one is opened if none is and there is room.
    fn reconcile(&mut self, open: &[GameId]) -> Vec<Do> {
        let keep = !self.stopping && self.held() < self.most;
        let (kept, extra) = match open.split_first() {
            Some((&first, rest)) if keep => (Some(first), rest),
            _ => (None, open),
        };
        self.open = kept.map_or(Open::None, Open::Waiting);
        let mut todo: Vec<Do> = extra
            .iter()
            .map(|&game| Do::Send(ClientMessage::Leave { game }))
            .collect();
        if self.stopping && !extra.is_empty() {
            todo.push(self.ping());
        }
        todo.extend(self.fill());
        todo
    }

    /// Opens a game if the bot has none open, has room for one more, knows its games and is
    /// not stopping.
    fn fill(&mut self) -> Vec<Do> {
        let room = self.held() < self.most;
        if self.stopping || !self.synced || self.open != Open::None || !room {
            return Vec::new();
        }
        self.open = Open::Asked;
        vec![Do::Send(ClientMessage::Create(self.setup.clone()))]
    }

    /// Game `game` was created for the bot: it waits in it, unless it has one already or
    /// is stopping (then withdrawn).
    fn created(&mut self, game: GameId) -> Vec<Do> {
        let wanted = !self.stopping
            && matches!(self.open, Open::Asked | Open::None)
            && self.held() < self.most;
        if wanted {
            self.open = Open::Waiting(game);
            tracing::info!(game, "game open");
            return Vec::new();
        }
        let mut todo = vec![Do::Send(ClientMessage::Leave { game })];
        if self.stopping {
            todo.push(self.ping());
        }
        todo
    }

    /// The whole state of a game: one the bot plays begins (or comes again after a
    /// reconnect or a takeback).
    fn state(&mut self, view: &GameView) -> Vec<Do> {
        let (Some(side), None) = (view.you, view.summary.outcome) else {
            return Vec::new();
        };
        let game = view.summary.id;
        let record = match view.record() {
            Ok(record) => record,
            Err(why) => {
                tracing::warn!(game, "a state that does not replay: {why}");
                return Vec::new();
            }
        };
        if self.open == Open::Waiting(game) {
            self.open = Open::None;
        }
        let ply = record.moves().len();
        let asked = self.games.get(&game).map(|before| before.asked);
        if asked.is_none() {
            let [attackers, defenders] = [&view.summary.attackers, &view.summary.defenders]
                .map(|name| name.as_deref().unwrap_or("?"));
            tracing::info!(game, attackers, defenders, "game begun");
        }
        // A search running for this very ply still comes back; any other is stale. A move
        // sent for it that the state does not hold yet is searched again: if it was lost
        // (the server went down before storing it) the game goes on, and if it comes after
        // all the second one is refused as stale, which changes nothing.
        let asked = asked.flatten().filter(|&asked| asked == ply);
        let played = Played {
            record,
            side,
            clocks: view.clocks.map(|c| c.clocks),
            asked,
        };
        self.games.insert(game, played);
        let mut todo = self.fill();
        todo.extend(self.think(game));
        todo
    }

    /// A move was played in game `game`.
    fn moved(&mut self, game: GameId, ply: usize, mv: &str, clocks: Option<Clocks>) -> Vec<Do> {
        let Some(played) = self.games.get_mut(&game) else {
            return Vec::new();
        };
        if played.record.moves().len() != ply || played.record.play_text(mv).is_err() {
            tracing::warn!(game, ply, "a move out of step: the states are asked again");
            return vec![Do::Resync];
        }
        played.clocks = clocks;
        self.think(game)
    }

    /// Asks the engine for a move in `game` if it is the bot's turn and none was asked.
    fn think(&mut self, game: GameId) -> Vec<Do> {
        let Some(played) = self.games.get_mut(&game) else {
            return Vec::new();
        };
        let state = played.record.state();
        let ply = played.record.moves().len();
        let turn = state.outcome().is_none() && state.position().side_to_move() == played.side;
        if !turn || played.asked == Some(ply) {
            return Vec::new();
        }
        played.asked = Some(ply);
        vec![Do::Think {
            game,
            state: Box::new(state.clone()),
            clocks: played.clocks,
        }]
    }

    /// The server refused something (logged): a refused `create` waits for the next game's
    /// start or end. A move refused was stale (a move sent twice across a reconnect): the
    /// server's `moved` keeps the game in step.
    fn refused(&mut self, code: ErrorCode, message: &str) -> Vec<Do> {
        tracing::warn!(?code, "the server refused: {message}");
        if self.open == Open::Asked {
            self.open = Open::None;
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::Lobby;
    use crate::rules::{Outcome, Position, Reason, position_record};

    /// A bot of untimed standard games holding at most `most`, connected and synced with
    /// no game of its own yet; what it did last (its create).
    pub(super) fn bot(most: usize) -> (Seats, Vec<Do>) {
        let mut seats = Seats::new("bot", GameSetup::default(), most);
        assert_eq!(
            seats.connected(),
            [Do::Send(ClientMessage::Lobby { page: 0 })]
        );
        let todo = seats.message(&ServerMessage::Lobby(Lobby::default()));
        (seats, todo)
    }

    pub(super) fn summary(id: GameId, players: Option<(&str, &str)>) -> GameSummary {
        GameSummary {
            id,
            setup: GameSetup::default(),
            attackers: players.map(|(a, _)| a.to_owned()),
            defenders: players.map(|(_, d)| d.to_owned()),
            creator: "bot".into(),
            plies: 0,
            outcome: None,
            ratings: crate::net::protocol::SeatRatings::default(),
            spectators: 0,
            bots: Vec::new(),
            date: None,
        }
    }

    pub(super) fn created(id: GameId) -> ServerMessage {
        ServerMessage::Created {
            game: summary(id, None),
            code: None,
        }
    }

    /// Game `id` begins at the start, the bot playing `you`.
    pub(super) fn begun(id: GameId, you: Side) -> ServerMessage {
        let start = position_record(&Position::start());
        ServerMessage::State(Box::new(GameView {
            summary: summary(id, Some(("bot", "ann"))),
            start: start.clone(),
            position: start,
            to_move: Side::Attackers,
            moves: Vec::new(),
            clocks: None,
            you: Some(you),
            pending: None,
        }))
    }

    pub(super) fn ended(game: GameId) -> ServerMessage {
        ServerMessage::Result {
            game,
            outcome: Outcome {
                winner: Some(Side::Attackers),
                reason: Reason::Resignation,
            },
            clocks: None,
        }
    }

    pub(super) fn creates(todo: &[Do]) -> usize {
        todo.iter()
            .filter(|d| matches!(d, Do::Send(ClientMessage::Create(_))))
            .count()
    }

    #[test]
    fn a_bot_opens_a_game_as_each_begins_but_never_holds_more_than_its_most() {
        let (mut seats, first) = bot(2);
        assert_eq!(creates(&first), 1, "{first:?}");
        assert_eq!(seats.message(&created(1)), []);
        let todo = seats.message(&begun(1, Side::Defenders));
        assert_eq!(creates(&todo), 1, "one playing, one more open: {todo:?}");
        assert_eq!(seats.message(&created(2)), []);
        let todo = seats.message(&begun(2, Side::Defenders));
        assert_eq!(creates(&todo), 0, "two playing: none more {todo:?}");
        let todo = seats.message(&ended(1));
        assert_eq!(todo[0], Do::Forget(1));
        assert_eq!(creates(&todo), 1, "room again: {todo:?}");
        assert_eq!(seats.playing(), 1);
    }

    #[test]
    fn a_bot_keeps_one_open_game_of_those_the_lobby_lists_and_withdraws_the_rest() {
        let mut seats = Seats::new("bot", GameSetup::default(), 3);
        seats.connected();
        let lobby = Lobby {
            mine: vec![summary(4, None), summary(5, None)],
            ..Lobby::default()
        };
        let todo = seats.message(&ServerMessage::Lobby(lobby));
        assert_eq!(todo, [Do::Send(ClientMessage::Leave { game: 5 })]);
        // A game created that it did not want (asked twice across a refusal) is withdrawn.
        assert_eq!(
            seats.message(&created(6)),
            [Do::Send(ClientMessage::Leave { game: 6 })]
        );
    }

    #[test]
    fn a_game_that_ended_while_the_bot_was_away_no_longer_counts() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        seats.message(&begun(1, Side::Defenders));
        assert_eq!(seats.connected().len(), 1);
        // Game 1 is not among the bot's games any more: it ended while the bot was away.
        let todo = seats.message(&ServerMessage::Lobby(Lobby::default()));
        assert_eq!(todo[0], Do::Forget(1), "{todo:?}");
        assert_eq!(creates(&todo), 1, "{todo:?}");
        assert_eq!(seats.playing(), 0);
    }

    #[test]
    fn a_bot_opens_nothing_before_it_knows_its_games() {
        let mut seats = Seats::new("bot", GameSetup::default(), 2);
        seats.connected();
        let todo = seats.message(&begun(1, Side::Defenders));
        assert_eq!(creates(&todo), 0, "{todo:?}");
    }

    #[test]
    fn a_bot_thinks_on_its_turn_only_and_declines_every_offer() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        let todo = seats.message(&begun(1, Side::Attackers));
        assert!(
            matches!(todo.as_slice(), [Do::Think { game: 1, .. }]),
            "{todo:?}"
        );
        let sent = seats.thought(1, 0, "d2-c2".into());
        let mv = ClientMessage::Move {
            game: 1,
            ply: 0,
            mv: "d2-c2".into(),
        };
        assert_eq!(sent, [Do::Send(mv)]);
        let moved = ServerMessage::Moved {
            game: 1,
            ply: 0,
            mv: "d2-c2".into(),
            clocks: None,
        };
        assert_eq!(seats.message(&moved), [], "the opponent's turn");
        assert_eq!(seats.thought(1, 0, "d2-c2".into()), [], "a stale search");
        let offered = ServerMessage::Offered {
            game: 1,
            offer: Offer::Draw,
            by: Side::Defenders,
        };
        let declined = ClientMessage::Answer {
            game: 1,
            offer: Offer::Draw,
            accept: false,
        };
        assert_eq!(seats.message(&offered), [Do::Send(declined)]);
    }

    #[test]
    fn a_stopping_bot_withdraws_its_open_game_opens_none_and_exits_on_the_last_pong() {
        let (mut seats, _) = bot(2);
        seats.message(&created(1));
        let todo = seats.stop();
        assert_eq!(
            todo,
            [
                Do::Send(ClientMessage::Leave { game: 1 }),
                Do::Send(ClientMessage::Ping { id: 1 })
            ]
        );
        assert_eq!(creates(&seats.message(&begun(2, Side::Attackers))), 0);
        assert_eq!(seats.message(&ServerMessage::Pong { id: 1 }), [Do::Exit]);
    }

    #[test]
    fn a_state_of_the_bot_s_turn_after_its_move_was_sent_asks_the_engine_again() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        let think = |todo: &[Do]| matches!(todo, [Do::Think { game: 1, .. }]);
        assert!(think(&seats.message(&begun(1, Side::Attackers))));
        // The state again while the engine searches: it is not asked twice.
        assert_eq!(seats.message(&begun(1, Side::Attackers)), []);
        assert_eq!(seats.thought(1, 0, "d2-c2".into()).len(), 1);
        // The move sent, then the state again without it (lost with a server that went
        // down): searched again.
        assert!(think(&seats.message(&begun(1, Side::Attackers))));
    }

    #[test]
    fn a_move_out_of_step_asks_for_the_states_again() {
        let (mut seats, _) = bot(1);
        seats.message(&created(1));
        seats.message(&begun(1, Side::Defenders));
        let moved = ServerMessage::Moved {
            game: 1,
            ply: 3,
            mv: "d2-c2".into(),
            clocks: None,
        };
        assert_eq!(seats.message(&moved), [Do::Resync]);
    }
}
