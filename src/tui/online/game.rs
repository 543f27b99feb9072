//! An online game as this client sees it: the record rebuilt from the server's `state` and
//! grown by its `moved`, both clocks as the server last sent them, the players' names and
//! connections, the offer waiting, the chat; and the screen that shows it: the same board
//! as a local game, with a panel of its own.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use crate::game::{Clocks, Game, Tag, Tags};
use crate::net::protocol::{
    Channel, ChatEntry, ClockView, GameId, GameView, Offer, Role, bot_marked,
};
use crate::net::ratings::{Change, Shown};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::{Outcome, Side};
use crate::tui::board_screen::BoardScreen;
use crate::tui::board_screen::start_cursor;
use crate::tui::board_view::{BoardView, Marks};
use crate::tui::layout::GameLayout;
use crate::tui::panels::{self, AiView, MoveListView, Search};
use crate::tui::text::{title, wrap};
use crate::tui::theme::Look;

use super::assist::{Assist, GameRef};
use super::lag::Lag;
use super::standings::rated_name;

/// The most chat lines kept.
const MAX_CHAT: usize = 100;

/// A chat line as shown: its author and text escaped, never raw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Players' or spectators' chat.
    pub channel: Channel,
    /// The line, escaped: `name: text`.
    pub text: String,
}

/// A chat line as shown, `name: text`, both escaped (never sent raw to the terminal).
pub fn chat_text(from: &str, text: &str) -> String {
    format!("{}: {}", excerpt(from), escaped(text, MESSAGE_CHARS))
}

/// A player's connection as the server last said.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Connected (or not heard otherwise).
    Here,
    /// Gone since then, with no deadline to come back (a correspondence or untimed game).
    Gone(Instant),
    /// Gone, and the game is lost unless the player is back by then (as the server said).
    Due(Instant),
}

impl Presence {
    /// The panel's line under a player who is gone, at `now`: since when, or the time left
    /// to return (`disconnected, 0:41 to return`).
    fn gone_line(self, now: Instant) -> Option<String> {
        let minutes = |d: Duration| {
            let s = d.as_secs();
            format!("{}:{:02}", s / 60, s % 60)
        };
        match self {
            Presence::Here => None,
            Presence::Gone(since) => Some(format!(
                "  disconnected {} ago",
                minutes(now.saturating_duration_since(since))
            )),
            Presence::Due(by) => Some(format!(
                "  disconnected, {} to return",
                // Shown rounded up: 0:00 only once the time is out.
                minutes(by.saturating_duration_since(now) + Duration::from_millis(999))
            )),
        }
    }
}

/// The moment `left` after `now`, in `zone`: `Thu 10 Dec 14:05` (the minute it falls in).
pub(super) fn deadline_text(
    now: jiff::Timestamp,
    left: Duration,
    zone: &jiff::tz::TimeZone,
) -> String {
    let left = jiff::SignedDuration::try_from(left).unwrap_or(jiff::SignedDuration::MAX);
    let at = now.saturating_add(left).unwrap_or(now);
    at.to_zoned_datetime(zone.clone())
        .strftime("%a %-d %b %H:%M")
        .to_string()
}

/// An online game.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    id: GameId,
    /// The side this client plays, `None` for a spectator.
    you: Option<Side>,
    /// The players' names, attackers first.
    names: [Option<String>; 2],
    /// The players' ratings in the game's pool, when it was sent.
    ratings: [Option<Shown>; 2],
    /// Whether the game is rated.
    rated: bool,
    /// How many watch it.
    spectators: usize,
    /// The players' rating changes, once a rated game ended.
    changes: Option<[Change; 2]>,
    /// Whether each is a bot's, attackers first.
    bots: [bool; 2],
    engine_allowed: bool,
    record: Game,
    clocks: Option<(ClockView, Instant)>,
    outcome: Option<Outcome>,
    pending: Option<(Offer, Side)>,
    presence: [Presence; 2],
    chat: Vec<ChatLine>,
    /// The move sent and not yet played by the server.
    sending: Option<String>,
    /// The opponent is gone past the return window: the win may be claimed until the
    /// server ends the game itself, then.
    claimable: Option<Instant>,
    /// The move sending was sent while the connection was down: the client holds it and
    /// sends it after the reconnect, so the state that comes then does not send it again.
    queued: bool,
    /// The board's cursor, selection and prompt.
    pub board: BoardScreen,
}

/// An offer in words.
pub(super) const fn offer_text(offer: Offer) -> &'static str {
    match offer {
        Offer::Draw => "a draw",
        Offer::Takeback => "a takeback",
        Offer::Rematch => "a rematch",
    }
}

/// Index of `side` in the per-side arrays.
const fn index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

impl OnlineGame {
    /// The game as the server's `view` has it, received at `now`; a view whose moves do not
    /// replay is refused with the reason.
    pub fn from_view(view: &GameView, now: Instant) -> Result<OnlineGame, String> {
        let record = view.record()?;
        Ok(OnlineGame {
            id: view.summary.id,
            you: view.you,
            names: [
                view.summary.attackers.clone(),
                view.summary.defenders.clone(),
            ],
            ratings: [
                view.summary.ratings.attackers,
                view.summary.ratings.defenders,
            ],
            rated: view.summary.setup.rated,
            spectators: view.summary.spectators,
            changes: None,
            bots: [Role::Attackers, Role::Defenders].map(|role| view.summary.bots.contains(&role)),
            engine_allowed: view.summary.setup.engine_allowed,
            outcome: view.summary.outcome,
            clocks: view.clocks.map(|c| (c, now)),
            pending: view.pending,
            presence: [Presence::Here; 2],
            chat: Vec::new(),
            sending: None,
            claimable: None,
            queued: false,
            board: BoardScreen::new(start_cursor(record.state().position())),
            record,
        })
    }

    /// A new state of the same game (a takeback, a reconnection): the chat stays. A move
    /// sent that the state does not hold stays sending; it is returned, to be sent again, if
    /// it was lost with the connection (not if the client held it while the connection was
    /// down: that copy goes after the reconnect).
    pub fn refresh(&mut self, view: &GameView, now: Instant) -> Result<Option<String>, String> {
        let mut fresh = OnlineGame::from_view(view, now)?;
        fresh.chat = std::mem::take(&mut self.chat);
        fresh.presence = self.presence;
        fresh.changes = self.changes;
        fresh.claimable = self.claimable;
        fresh.board.cursor = self.board.cursor;
        let unchanged = fresh.record.moves().len() == self.record.moves().len();
        if unchanged && fresh.my_turn() {
            fresh.sending = self.sending.take();
        }
        let held = std::mem::take(&mut self.queued);
        *self = fresh;
        Ok(self.sending.clone().filter(|_| !held))
    }

    /// Its number and record, as the help ([`Assist`]) takes them.
    pub const fn as_game_ref(&self) -> GameRef<'_> {
        GameRef {
            id: self.id,
            record: &self.record,
        }
    }

    /// The game's number.
    pub const fn id(&self) -> GameId {
        self.id
    }

    /// The side this client plays, `None` for a spectator.
    pub const fn you(&self) -> Option<Side> {
        self.you
    }

    /// Whether the players may use hints and the engine.
    pub const fn engine_allowed(&self) -> bool {
        self.engine_allowed
    }

    /// The game record so far.
    pub const fn record(&self) -> &Game {
        &self.record
    }

    /// The result, once over.
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The offer waiting for an answer.
    pub const fn pending(&self) -> Option<(Offer, Side)> {
        self.pending
    }

    /// The move sent and not yet played by the server.
    pub fn sending(&self) -> Option<&str> {
        self.sending.as_deref()
    }

    /// The chat so far.
    pub fn chat(&self) -> &[ChatLine] {
        &self.chat
    }

    /// The name of `side`'s player, escaped, marked ` [bot]` if it is a bot's.
    pub fn name(&self, side: Side) -> String {
        self.names[index(side)].as_deref().map_or_else(
            || "?".to_owned(),
            |name| bot_marked(name, self.bots[index(side)]),
        )
    }

    /// The game as a save file, as far as it has come: the players' names in its tags, and
    /// its result if the server gave one off the board (a resignation, time).
    pub fn save_json(&self) -> String {
        let mut game = self.record.clone();
        let mut tags = Tags::default();
        for side in [Side::Attackers, Side::Defenders] {
            if let Some(name) = &self.names[index(side)] {
                tags.set_fitted(Tag::name_of(side), name);
            }
        }
        tags.set_fitted(Tag::Event, &format!("online game {}", self.id));
        game.set_tags(tags);
        if let Some(outcome) = self.outcome.filter(|_| game.outcome().is_none()) {
            let _ = game.end_as_told(outcome);
        }
        game.to_json()
    }

    /// Whether it is this client's turn to move.
    pub fn my_turn(&self) -> bool {
        self.outcome.is_none() && self.you == Some(self.record.state().position().side_to_move())
    }

    /// `mv` was sent to the server (`queued`: while the connection was down, the client
    /// holding it): the board waits for the server's `moved`.
    pub fn sent(&mut self, mv: String, queued: bool) {
        self.sending = Some(mv);
        self.queued = queued;
        self.board.selected = None;
    }

    /// The server's `moved`: the move `mv` after `ply` moves, and the clocks after it. A
    /// move that does not follow the record is refused (the client asks for the state).
    pub fn moved(
        &mut self,
        ply: usize,
        mv: &str,
        clocks: Option<ClockView>,
        now: Instant,
    ) -> Result<(), String> {
        if ply != self.record.moves().len() {
            return Err(format!(
                "move {} came after {} moves",
                ply + 1,
                self.record.moves().len()
            ));
        }
        self.record
            .play_text(mv)
            .map_err(|e| format!("the server's move {}: {e}", excerpt(mv)))?;
        self.sending = None;
        self.queued = false;
        self.pending = None;
        self.board.selected = None;
        if let Some(clocks) = clocks {
            self.clocks = Some((clocks, now));
        }
        Ok(())
    }

    /// The game ended at `now`, with the clocks the server ended it with (if it says): they
    /// stop there, and nobody is waited for any more.
    pub fn ended(&mut self, outcome: Outcome, clocks: Option<Clocks>, now: Instant) {
        self.outcome = Some(outcome);
        self.sending = None;
        self.pending = None;
        self.claimable = None;
        self.presence = [Presence::Here; 2];
        if let Some(clocks) = clocks {
            self.clocks = Some((
                ClockView {
                    clocks,
                    running: None,
                },
                now,
            ));
        }
        if let Some((view, _)) = self.clocks.as_mut() {
            view.running = None;
        }
    }

    /// The players' ratings changed so (attackers first) by this game's end.
    pub fn rated(&mut self, changes: [Change; 2]) {
        self.changes = Some(changes);
    }

    /// `count` watch the game now.
    pub fn spectators(&mut self, count: usize) {
        self.spectators = count;
    }

    /// A move was refused: the board is as before it.
    pub fn refused(&mut self) {
        self.sending = None;
    }

    /// An offer was made; `None` when answered (declined).
    pub fn offered(&mut self, offer: Option<(Offer, Side)>) {
        self.pending = offer;
    }

    /// A player's connection came or went at `now`; gone, it may have `return_within` to
    /// come back.
    pub fn presence(
        &mut self,
        side: Side,
        connected: bool,
        return_within: Option<Duration>,
        now: Instant,
    ) {
        if connected {
            self.claimable = None;
        }
        self.presence[index(side)] = match (connected, return_within) {
            (true, _) => Presence::Here,
            (false, None) => Presence::Gone(now),
            (false, Some(left)) => Presence::Due(now + left),
        };
    }

    /// When the server ends the game itself if the win, claimable now, is not claimed.
    pub const fn claimable(&self) -> Option<Instant> {
        self.claimable
    }

    /// The win may be claimed until `until` (`None`: no longer).
    pub const fn set_claimable(&mut self, until: Option<Instant>) {
        self.claimable = until;
    }

    /// The clocks as the server sent them at `now` (time given).
    pub const fn set_clocks(&mut self, clocks: ClockView, now: Instant) {
        self.clocks = Some((clocks, now));
    }

    /// The chat so far, as the server keeps it: it replaces the lines held (a reconnection
    /// shows each line once, and those said meanwhile).
    pub fn chat_log(&mut self, lines: &[ChatEntry]) {
        self.chat.clear();
        for line in lines {
            self.chat_line(line.channel, &line.from, &line.text);
        }
    }

    /// A chat line came.
    pub fn chat_line(&mut self, channel: Channel, from: &str, text: &str) {
        self.chat.push(ChatLine {
            channel,
            text: chat_text(from, text),
        });
        if self.chat.len() > MAX_CHAT {
            self.chat.remove(0);
        }
    }

    /// `side`'s clock as shown at `now`: the running one counted down since it was sent.
    pub fn clock_text(&self, side: Side, now: Instant) -> Option<String> {
        let (view, at) = self.clocks.as_ref()?;
        let mut clocks = view.clocks;
        if view.running == Some(side) && self.outcome.is_none() {
            clocks.spend(side, now.saturating_duration_since(*at));
        }
        Some(clocks.text(side))
    }

    /// In a correspondence game, when `side` must have moved, if its clock runs at `now`:
    /// a day, date and time in the local time zone.
    fn deadline(&self, side: Side, now: Instant) -> Option<String> {
        let (view, at) = self.clocks.as_ref()?;
        let running = view.running == Some(side) && self.outcome.is_none();
        if !running || view.clocks.control().days_per_move().is_none() {
            return None;
        }
        let mut clocks = view.clocks;
        clocks.spend(side, now.saturating_duration_since(*at));
        let left = clocks.left_to_move(side);
        Some(deadline_text(
            jiff::Timestamp::now(),
            left,
            &jiff::tz::TimeZone::system(),
        ))
    }

    /// Whether a clock runs (the screen changes by itself).
    pub fn clock_runs(&self) -> bool {
        self.outcome.is_none() && self.clocks.is_some_and(|(v, _)| v.running.is_some())
    }

    /// The panel's first lines at `now`, with the opponent's lag `lag`: the game, the
    /// players and their clocks, whose move, the offer waiting, the toggles.
    fn header_lines(&self, now: Instant, lag: Option<Lag>, assist: &Assist) -> Vec<String> {
        let mut lines = vec![format!(
            "Online game #{} · {}",
            self.id,
            self.record
                .preset()
                .map_or("custom", crate::rules::Preset::name)
        )];
        for side in [Side::Attackers, Side::Defenders] {
            let clock = self.clock_text(side, now).unwrap_or_default();
            let mine = if self.you == Some(side) { " (you)" } else { "" };
            let by = self
                .deadline(side, now)
                .map_or_else(String::new, |at| format!(" · by {at}"));
            let name = rated_name(&self.name(side), self.ratings[index(side)]);
            lines.push(format!("{} {name}{mine} {clock}{by}", title(side)));
            lines.extend(self.presence[index(side)].gone_line(now));
            if let Some(ends) = self.claimable.filter(|_| self.you == Some(side.opponent())) {
                let left = ends.saturating_duration_since(now).as_secs();
                lines.push(format!(
                    "  gone too long: y claims the win (or it ends in {}:{:02})",
                    left / 60,
                    left % 60
                ));
            }
        }
        if let Some(lag) = lag {
            lines.push(lag.text());
        }
        let engine = if self.engine_allowed {
            "allowed (t hint, a eval)"
        } else {
            "off"
        };
        // Rated or casual, and the spectators, on the same line (small terminals).
        let rated = if self.rated { "rated" } else { "casual" };
        let watching = match self.spectators {
            0 => String::new(),
            n => format!(" · {n} watching"),
        };
        lines.push(format!("{rated}{watching} · engine help: {engine}"));
        let to_move = self.record.state().position().side_to_move();
        match (self.outcome, &self.sending) {
            (Some(outcome), _) => {
                let (headline, why) = panels::banner_parts(outcome, self.you);
                lines.extend([headline, why]);
                for (side, change) in [Side::Attackers, Side::Defenders]
                    .into_iter()
                    .zip(self.changes.iter().flatten())
                {
                    lines.push(format!("{} {change}", self.name(side)));
                }
            }
            (None, Some(mv)) => lines.push(format!("sending {mv}…")),
            (None, None) if self.my_turn() => lines.push("your move".to_owned()),
            (None, None) => lines.push(format!("the {to_move} to move")),
        }
        if let Some((offer, by)) = self.pending {
            lines.push(format!("the {by} offer {}", offer_text(offer)));
        }
        if self.outcome.is_some() && self.you.is_some() {
            lines.push("r rematch (sides swapped) · q lobby".to_owned());
        }
        if self.outcome.is_none() {
            let on = |on: bool| if on { "on" } else { "off" };
            lines.push(format!(
                "w: warnings {} · b: bell {}",
                on(assist.warnings().on()),
                on(assist.bell())
            ));
        }
        lines
    }

    /// The chat's lines, oldest first, tagged by channel.
    fn chat_lines(&self) -> Vec<String> {
        let mut lines = vec!["chat (c to write):".to_owned()];
        for line in &self.chat {
            let tag = match line.channel {
                Channel::Players => "",
                Channel::Spectators => "[spec] ",
            };
            lines.push(format!("{tag}{}", line.text));
        }
        lines
    }

    /// Draws the panel in `area`: the header, the live evaluation if on, the move list as
    /// the local game's (scrolled by `PgUp` / `PgDn`), and the newest chat lines at the
    /// bottom.
    #[allow(clippy::too_many_arguments)]
    fn render_panel(
        &self,
        area: Rect,
        buf: &mut Buffer,
        look: &Look,
        now: Instant,
        lag: Option<Lag>,
        assist: &Assist,
    ) {
        Clear.render(area, buf);
        let width = usize::from(area.width);
        let rows = usize::from(area.height);
        let mut top: Vec<Line> = self
            .header_lines(now, lag, assist)
            .iter()
            .flat_map(|line| wrap(line, width))
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    Line::styled(l, look.theme.heading)
                } else {
                    Line::raw(l)
                }
            })
            .collect();
        if let Some(eval) = assist.eval_of(self.as_game_ref()) {
            let view = AiView {
                thinking: Some(Search {
                    title: if eval.searching() {
                        "Evaluating…".to_owned()
                    } else {
                        "Evaluation".to_owned()
                    },
                    can_hurry: false,
                    info: eval.info(),
                    side: eval.side(),
                    elapsed: eval.elapsed(),
                }),
                paused: false,
                watching: None,
            };
            top.extend(panels::ai_lines(&view, look, width));
        }
        let chat: Vec<String> = self
            .chat_lines()
            .iter()
            .flat_map(|line| wrap(line, width))
            .collect();
        // The chat keeps at most a third of the panel, its newest lines in view.
        let chat_rows = chat.len().min((rows / 3).max(2)).min(rows);
        let top_rows = top.len().min(rows - chat_rows);
        let list_rows = rows - chat_rows - top_rows;
        top.truncate(top_rows);
        let y = |offset: usize| area.y + u16::try_from(offset).unwrap_or(u16::MAX);
        let height = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        Paragraph::new(top).render(Rect::new(area.x, area.y, area.width, height(top_rows)), buf);
        let list = Rect::new(area.x, y(top_rows), area.width, height(list_rows));
        let moves = self.record.moves();
        let newest = moves.len().checked_sub(1);
        MoveListView::following(list, moves.len(), self.board.list_scroll).render(
            moves,
            &[],
            newest.map(|i| (i, look.theme.heading)),
            look,
            buf,
        );
        let shown: Vec<Line> = chat[chat.len() - chat_rows..]
            .iter()
            .map(|l| Line::raw(l.clone()))
            .collect();
        let chat_area = Rect::new(
            area.x,
            y(top_rows + list_rows),
            area.width,
            height(chat_rows),
        );
        Paragraph::new(shown).render(chat_area, buf);
    }

    /// Draws the game: the board (with the hint and the repeating destinations the help
    /// marks), the panel and the status line.
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &self,
        area: Rect,
        buf: &mut Buffer,
        look: &Look,
        now: Instant,
        lag: Option<Lag>,
        status: &str,
        assist: &Assist,
    ) {
        let Some(layout) = GameLayout::new(area) else {
            return;
        };
        let covered = layout.is_compact() && self.board.panel_shown;
        if !covered {
            let last = self.record.at_ply(self.record.moves().len());
            let state = self.record.state();
            let marks = Marks {
                cursor: Some(self.board.cursor),
                selected: self.board.selected,
                destinations: self
                    .board
                    .selected
                    .map_or(crate::rules::Bitboard::EMPTY, |sq| {
                        state.position().destinations(sq)
                    }),
                hint: assist.hint_on(self.as_game_ref()),
                repeats: assist.warnings().repeating(state, self.board.selected),
                ..last.as_ref().map(Marks::after).unwrap_or_default()
            };
            let view = BoardView::new(state.position(), marks, look, layout.board);
            view.render(layout.board.area(), buf);
        }
        if !layout.is_compact() || covered {
            self.render_panel(layout.panel, buf, look, now, lag, assist);
        }
        if let Some(line) = layout.turn_line {
            let side = self.record.state().position().side_to_move();
            let text = match self.clock_text(side, now) {
                Some(clock) => format!("{} {clock} · Tab panel", title(side)),
                None => format!("{} to move · Tab panel", title(side)),
            };
            Paragraph::new(text).render(line, buf);
        }
        let typing = self.board.typing.as_deref().map(|t| format!(":{t}"));
        let text = typing.as_deref().unwrap_or(status);
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .style(look.theme.label)
            .render(layout.status, buf);
    }
}
