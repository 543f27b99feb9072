//! The keys of an online game's board: a piece picked and moved as on every board (the move
//! goes to the server, which plays it), a typed move, chat, offers, resigning, leaving.

use ratatui::layout::Rect;

use super::{Ask, Online, Prompt, View};
use crate::net::protocol::{ClientMessage, GameId, Offer};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::rules::Square;
use crate::tui::board_screen::{BoardHandled, Choice, choice, selected_text};
use crate::tui::help::Help;
use crate::tui::input::{Action, Key, KeyTable, typed_move};

/// Every key of the online game, as its help lists them: (keys, what they do).
pub const ONLINE_GAME_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("arrows / h j k l", "move the cursor"),
        Key::new("Enter / Space / click", "select a piece, then move it"),
        Key::new(":", "type a move, e.g. d2-d5"),
        Key::new("w / b", "warnings (threats, repeats) / bell on or off"),
        Key::new("t", "hint (games made with engine help)"),
        Key::new("a", "engine's evaluation on / off (spectators: always)"),
        Key::new("PgUp / PgDn", "scroll the move list"),
        Key::new("c", "write a chat line"),
        Key::new("d", "offer a draw, or accept the one offered"),
        Key::new("u", "ask to take your last move back"),
        Key::new(
            "y / n",
            "accept / decline the opponent's offer (a move declines it)",
        ),
        Key::new("x", "resign"),
        Key::new("A", "abort the game, before your first move"),
        Key::new("+", "give the opponent 15 s (a game on a clock)"),
        Key::new(
            "y",
            "claim the win: the opponent gone past the return window",
        ),
        Key::new(
            "r",
            "once the game is over: offer a rematch, or accept the one offered",
        ),
        Key::new("s", "save the game watched (spectators)"),
        Key::new("Tab", "small terminal: the panel / the board"),
        Key::new("q / Esc", "back to the lobby (the game goes on)"),
    ],
    notes: &[],
};

impl Online {
    pub(super) fn update_game(&mut self, id: GameId, action: Action, size: Rect) {
        self.landing = false;
        if let (Action::Yes | Action::No, Some((game, offer))) = (action, self.offer_to_answer()) {
            self.send(ClientMessage::Answer {
                game,
                offer,
                accept: action == Action::Yes,
            });
            if let Some(g) = self.games.get_mut(&game) {
                g.offered(None);
            }
            return;
        }
        let Some(game) = self.games.get_mut(&id) else {
            self.view = View::Lobby;
            return;
        };
        let moves = game.record().moves().len();
        match game.board.update(action, size, moves) {
            BoardHandled::Stay => {}
            BoardHandled::Choose(sq) => self.choose(id, sq),
            BoardHandled::Cancelled | BoardHandled::StoppedTyping => self.status = None,
            BoardHandled::Typed(text) => {
                let text = typed_move(&text);
                if !text.is_empty() && !self.holds_typed(id, &text) {
                    self.play(id, &text);
                }
            }
            BoardHandled::Game(Action::TogglePanel) => {
                if !game.board.toggle_panel(size) {
                    self.info(
                        "the panel is beside the board: Tab only switches on a small terminal",
                    );
                }
            }
            BoardHandled::Game(action) => self.game_key(id, action),
        }
    }

    pub(super) fn game_key(&mut self, id: GameId, action: Action) {
        if self.assist_key(id, action) {
            return;
        }
        let Some(game) = self.games.get(&id) else {
            return;
        };
        let over = game.outcome().is_some();
        let player = game.you().is_some();
        match action {
            Action::Chat => {
                self.prompt = Some((Prompt::Chat, String::new()));
                self.info("a chat line, then Enter (Esc: none)");
            }
            Action::Quit | Action::Type('q') => {
                self.assist_left();
                self.view = View::Lobby;
                if over || !player {
                    self.send(ClientMessage::Leave { game: id });
                    self.games.remove(&id);
                }
                self.refresh(self.now);
                self.info("the lobby: ? for the keys");
            }
            Action::Help => {
                self.help = Some(Help::new("Online game keys".to_owned(), &ONLINE_GAME_KEYS));
            }
            Action::Save if !player => self.save_watched(id),
            _ if !player => self.info("watching: only the players play (s saves the game)"),
            Action::Redo if over => self.rematch_key(id),
            _ if over => self.info("the game is over: r rematch, q to the lobby"),
            Action::Abort => self.abort_key(id),
            Action::Faster => self.give_time_key(id),
            Action::Yes => self.claim_key(id),
            Action::OfferDraw => match game.pending() {
                Some((Offer::Draw, by)) if Some(by) != game.you() => {
                    self.send(ClientMessage::Answer {
                        game: id,
                        offer: Offer::Draw,
                        accept: true,
                    });
                }
                _ => {
                    self.send(ClientMessage::Offer {
                        game: id,
                        offer: Offer::Draw,
                    });
                    self.info("draw offered");
                }
            },
            Action::Undo => {
                self.send(ClientMessage::Offer {
                    game: id,
                    offer: Offer::Takeback,
                });
                self.info("takeback asked");
            }
            Action::Resign => {
                self.ask = Some(Ask::Resign(id));
                self.info("resign this game? y/n");
            }
            _ => {}
        }
    }

    /// Enter, Space or a click on `sq`: select one of the player's pieces or move it, as on
    /// every board ([`choice`]); the move goes to the server.
    pub(super) fn choose(&mut self, id: GameId, sq: Square) {
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        if !game.my_turn() || game.sending().is_some() {
            let text = if game.sending().is_some() {
                "sending the move…"
            } else if game.outcome().is_some() {
                "the game is over: q to the lobby"
            } else if game.you().is_none() {
                "watching: only the players play"
            } else {
                "not your move: wait for the opponent's"
            };
            self.info(text);
            return;
        }
        match choice(game.record().state(), game.board.selected, sq) {
            Choice::Deselect => {
                game.board.selected = None;
                self.status = None;
            }
            Choice::Play(mv) => {
                if !self.holds_move(id, mv) {
                    self.play(id, &mv.to_string());
                }
            }
            Choice::Select(sq, piece) => {
                game.board.selected = Some(sq);
                self.info(&selected_text(sq, piece));
                self.warn_selection(id);
            }
            Choice::Refused { why, deselect } => {
                if deselect {
                    game.board.selected = None;
                }
                self.error(&why);
            }
        }
    }

    /// Sends the move `text` if it is legal here; the board changes when the server says.
    pub(super) fn play(&mut self, id: GameId, text: &str) {
        let Some(game) = self.games.get_mut(&id) else {
            return;
        };
        if !game.my_turn() || game.sending().is_some() {
            self.error("not your move");
            return;
        }
        let mut trial = game.record().state().clone();
        match trial.play_text(text) {
            Ok(done) => {
                // Moving declines the opponent's offer, as players expect.
                if let Some((game, offer)) = self.offer_to_answer() {
                    self.send(ClientMessage::Answer {
                        game,
                        offer,
                        accept: false,
                    });
                }
                let Some(game) = self.games.get_mut(&id) else {
                    return;
                };
                game.offered(None);
                let mv = done.mv.to_string();
                let ply = game.record().moves().len();
                game.sent(mv.clone(), !self.connected);
                self.send(ClientMessage::Move {
                    game: id,
                    ply,
                    mv: mv.clone(),
                });
                self.info(&format!("sending {mv}…"));
            }
            Err(e) => self.error(&format!("{}: {e}", escaped(text, MESSAGE_CHARS))),
        }
    }
}
