//! The side panel (players, captures, the move list, the game-over banner) and the status line.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Padding, Paragraph, Widget};

use std::time::Duration;

use super::analysis_text::mark_span;
use super::text::{
    Status, Tone, field_end, fit_keys, player_text, printable, printable_words, title, truncate,
    wrap, wrap_rows,
};
use super::theme::{Look, Themed};
use crate::ai::SearchInfo;
use crate::game::{Clocks, Player, Players, PlyAnalysis, Tags, format_duration};
use crate::rules::{AnnotatedMove, Bitboard, Outcome, Piece, Position, Reason, Side};

/// What the side panel shows.
pub struct PanelData<'a> {
    /// The rules' name.
    pub rules: &'static str,
    /// The side to move.
    pub to_move: Side,
    /// Who plays the attackers.
    pub attackers: Player,
    /// Who plays the defenders.
    pub defenders: Player,
    /// The start position.
    pub start: &'a Position,
    /// The current position.
    pub position: &'a Position,
    /// The moves so far.
    pub moves: &'a [AnnotatedMove],
    /// Their analysis (`None` where a move is not analyzed; empty if none is).
    pub analysis: &'a [Option<PlyAnalysis>],
    /// The first move-list row to show, or `None` to show the last ones.
    pub scroll: Option<usize>,
    /// The outcome, once the game is over.
    pub outcome: Option<Outcome>,
    /// Whether warnings are on (shown while the game goes on).
    pub warnings: bool,
    /// What the AI is doing.
    pub ai: AiView<'a>,
    /// Why the last autosave failed, until a save succeeds.
    pub autosave_error: Option<&'a str>,
    /// The clocks, if the game is played on a time control.
    pub clocks: Option<&'a Clocks>,
    /// The game's tags: the players' names a record gave.
    pub names: &'a Tags,
    /// The record's comment on the last move (before the first, if none is played).
    pub comment: Option<&'a str>,
}

/// What the panel shows of the AI.
pub struct AiView<'a> {
    /// The search in progress, if any.
    pub thinking: Option<Search<'a>>,
    /// Whether AI moves are paused.
    pub paused: bool,
    /// In an AI-vs-AI game, the delay between moves.
    pub watching: Option<Duration>,
}

/// A search in progress, as the panel shows it.
pub struct Search<'a> {
    /// What the search is: `AI hard thinking…`, `Looking for a hint…`.
    pub title: String,
    /// Whether the search can be told to move now.
    pub can_hurry: bool,
    /// The last progress report.
    pub info: Option<&'a SearchInfo>,
    /// The side searching, whose point of view the report's score is.
    pub side: Side,
    /// How long it has run.
    pub elapsed: Duration,
}

/// `950`, `1.2k`, `123k`, `4.56M`.
fn count_text(n: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let x = n as f64;
    if n < 1_000 {
        n.to_string()
    } else if n < 10_000 {
        format!("{:.1}k", x / 1e3)
    } else if n < 1_000_000 {
        format!("{:.0}k", x / 1e3)
    } else {
        format!("{:.2}M", x / 1e6)
    }
}

/// The lines about the AI: watch mode, pause, and the search in progress (the online game
/// shows its live evaluation so too).
pub fn ai_lines<'a>(ai: &AiView<'a>, look: &Look, width: usize) -> Vec<Line<'a>> {
    let theme = &look.theme;
    let mut lines = Vec::new();
    if let Some(delay) = ai.watching {
        lines.push(Line::styled("Watching AI vs AI", theme.heading));
        lines.push(Line::styled(
            format!("p pause · +/- pace {}", format_duration(delay)),
            theme.label,
        ));
    }
    if ai.paused {
        lines.push(Line::styled("AI paused: p to resume", theme.error));
    }
    let Some(search) = &ai.thinking else {
        return lines;
    };
    let elapsed = format!(" {:.1}s", search.elapsed.as_secs_f64());
    lines.push(Line::from(vec![
        Span::styled(search.title.clone(), theme.heading),
        Span::raw(elapsed),
    ]));
    if let Some(info) = search.info {
        let depth = format!("depth {}", info.depth);
        let score = info.score.text(search.side);
        let both = format!("{depth} · {score}");
        if both.chars().count() <= width {
            lines.push(Line::raw(both));
        } else {
            lines.extend([Line::raw(depth), Line::raw(score)]);
        }
        lines.push(Line::raw(format!(
            "nodes {} · {}/s",
            count_text(info.nodes),
            count_text(info.nps)
        )));
        let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
        let best = wrap(&format!("best {}", pv.join(" ")), width);
        lines.extend(best.into_iter().take(2).map(Line::raw));
    }
    if search.can_hurry {
        lines.push(Line::styled("m: move now", theme.label));
    }
    lines
}

/// The result in words: `Attackers win: the king was captured`; against the AI, for the
/// person (who plays `you`): `You lost: the attackers win, the king was captured`.
pub fn outcome_text(outcome: Outcome, you: Option<Side>) -> String {
    let (headline, why) = outcome_parts(outcome);
    match (you_parts(outcome, you), outcome.winner) {
        (Some(yours), Some(winner)) => format!("{yours}: the {winner} win, {why}"),
        _ => format!("{headline}: {why}"),
    }
}

/// The game-over banner's headline and the line below it: as [`outcome_parts`], but against
/// the AI `You win` or `You lost`, and below it which side won and why.
pub fn banner_parts(outcome: Outcome, you: Option<Side>) -> (String, String) {
    let (headline, why) = outcome_parts(outcome);
    match you_parts(outcome, you) {
        Some(yours) => (yours.to_owned(), format!("{headline}: {why}")),
        None => (headline, why),
    }
}

/// `You win` or `You lost` for the person playing `you`, if the game has a winner.
fn you_parts(outcome: Outcome, you: Option<Side>) -> Option<&'static str> {
    let (you, winner) = (you?, outcome.winner?);
    Some(if winner == you { "You win" } else { "You lost" })
}

/// The side the one person plays against the AI; `None` in hot-seat and AI-vs-AI games.
pub fn you(players: Players) -> Option<Side> {
    match (players.attackers, players.defenders) {
        (Player::Human, Player::Ai { .. }) => Some(Side::Attackers),
        (Player::Ai { .. }, Player::Human) => Some(Side::Defenders),
        _ => None,
    }
}

/// The result as a headline (`Attackers win`, `Draw`) and the reason in words.
pub fn outcome_parts(outcome: Outcome) -> (String, String) {
    let loser = outcome.winner.map_or(Side::Attackers, Side::opponent);
    let why = match outcome.reason {
        Reason::KingEscaped => "the king escaped to a corner".to_owned(),
        Reason::KingCaptured => "the king was captured".to_owned(),
        Reason::Encircled => "the defenders are encircled".to_owned(),
        Reason::NoMoves => format!("the {loser} have no move"),
        Reason::Repetition => "threefold repetition".to_owned(),
        Reason::Agreement => "agreed by both players".to_owned(),
        Reason::Resignation => format!("the {loser} resigned"),
        Reason::Time => format!("the {loser} ran out of time"),
        Reason::Adjudicated => "adjudicated".to_owned(),
        Reason::Abandoned => format!("the {loser} left and did not return"),
        Reason::Aborted => "before both players had moved".to_owned(),
        Reason::Recorded => "as recorded".to_owned(),
    };
    let headline = match outcome.winner {
        Some(side) => format!("{} win", title(side)),
        None if outcome.reason == Reason::Aborted => "Aborted".to_owned(),
        None => "Draw".to_owned(),
    };
    (headline, why)
}

/// Draws the side panel.
impl Widget for Themed<'_, PanelData<'_>> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: data, look } = self;
        let theme = &look.theme;
        let block = look
            .block()
            .title(Line::from(format!(" Brandubh · {} ", data.rules)).style(theme.heading))
            .title_bottom(Line::from(" ? help  i rules  q quit ").style(theme.label))
            .padding(Padding::horizontal(1));
        let inner = block.inner(area);
        block.render(area, buf);

        let marker = data.outcome.is_none().then_some(data.to_move);
        let width = usize::from(inner.width);
        let seats = Seats {
            players: Players {
                attackers: data.attackers,
                defenders: data.defenders,
            },
            names: data.names,
        };
        let mut lines = players_lines(seats, marker, data.start, data.position, look, width);
        if let Some(clocks) = data.clocks {
            lines.push(clock_line(clocks, marker, look));
        }
        lines.push(Line::default());
        match data.outcome {
            Some(outcome) => {
                let players = Players {
                    attackers: data.attackers,
                    defenders: data.defenders,
                };
                let (headline, why) = banner_parts(outcome, you(players));
                let width = usize::from(inner.width);
                lines.push(Line::styled(
                    format!("{:^width$}", format!("★ {headline} ★")),
                    theme.banner,
                ));
                lines.extend(wrap(&why, width).into_iter().map(Line::raw));
                lines.push(Line::styled("v: review  a: analyze", theme.label));
                let undo = if outcome.reason == Reason::Time {
                    ""
                } else {
                    "  u: undo"
                };
                lines.push(Line::styled(format!("n: new game{undo}"), theme.label));
            }
            None => lines.push(Line::from(vec![
                Span::styled(title(data.to_move), theme.heading),
                Span::raw(" to move"),
            ])),
        }
        if data.outcome.is_none() {
            let state = if data.warnings { "on" } else { "off" };
            lines.push(Line::styled(format!("w: warnings {state}"), theme.label));
        }
        lines.extend(
            comment_lines(data.comment, width, usize::from(inner.height))
                .into_iter()
                .map(|l| Line::styled(l, theme.label)),
        );
        if let Some(reason) = data.autosave_error {
            let width = usize::from(inner.width);
            lines.extend(
                wrap("Not saved: autosave failed", width)
                    .into_iter()
                    .map(|l| Line::styled(l, theme.error)),
            );
            lines.extend(
                wrap(reason, width)
                    .into_iter()
                    .map(|l| Line::styled(l, theme.error)),
            );
            lines.push(Line::styled("s: save under a name", theme.label));
        }
        lines.extend(ai_lines(&data.ai, look, usize::from(inner.width)));
        lines.push(Line::default());
        let header = u16::try_from(lines.len()).unwrap_or(u16::MAX);
        Paragraph::new(lines).render(inner, buf);

        let list_area = Rect {
            y: inner.y.saturating_add(header).min(inner.bottom()),
            height: inner.height.saturating_sub(header),
            ..inner
        };
        let last = data.moves.len().checked_sub(1);
        MoveListView::following(list_area, data.moves.len(), data.scroll).render(
            data.moves,
            data.analysis,
            last.map(|i| (i, theme.heading)),
            look,
            buf,
        );
    }
}

/// Who plays each side: the kind of player, and the names a record gave them.
#[derive(Copy, Clone, Debug)]
pub struct Seats<'a> {
    /// Who plays each side.
    pub players: Players,
    /// The game's tags, with the players' names if a record gave them.
    pub names: &'a Tags,
}

impl Seats<'_> {
    /// Who plays `side`, in words: the name a record gave, else the kind of player.
    fn who(self, side: Side) -> String {
        self.names
            .name(side)
            .map_or_else(|| player_text(self.players.side(side)), printable)
    }

    /// The rows who plays `side` takes below its side's line in `width` columns: none where
    /// it fits beside it.
    pub fn rows_below(self, side: Side, width: usize) -> usize {
        let who = self.who(side);
        if PLAYER_HEAD + title(side).len() + 2 + who.chars().count() <= width {
            0
        } else {
            wrap(&who, width.saturating_sub(PLAYER_INDENT.len())).len()
        }
    }
}

/// The columns before a side's name on its player line: the marker, the glyph and a space.
const PLAYER_HEAD: usize = 4;
/// Before a player's name on the rows below its side's line.
const PLAYER_INDENT: &str = "    ";

/// Two lines per side (more where a name is too long to fit `width`): who plays it (`▶`
/// before the side `to_move`, if any), and the soldiers it has lost between `start` and `now`.
pub fn players_lines<'a>(
    seats: Seats<'_>,
    to_move: Option<Side>,
    start: &Position,
    now: &Position,
    look: &'a Look,
    width: usize,
) -> Vec<Line<'a>> {
    [Side::Attackers, Side::Defenders]
        .into_iter()
        .flat_map(|side| {
            let mut lines = player_lines(seats, to_move, side, look, width);
            lines.push(captured_line(start, now, side, look));
            lines
        })
        .collect()
}

/// Who plays `side`, after `▶` if it is the side `to_move`: on its line, or wrapped below it
/// where it does not fit `width`.
pub fn player_lines(
    seats: Seats<'_>,
    to_move: Option<Side>,
    side: Side,
    look: &Look,
    width: usize,
) -> Vec<Line<'static>> {
    let theme = &look.theme;
    let marker = if to_move == Some(side) { "▶ " } else { "  " };
    let glyph = match side {
        Side::Attackers => Span::styled(look.glyphs.attacker, theme.chip(Piece::Attacker)),
        Side::Defenders => Span::styled(look.glyphs.king, theme.chip(Piece::King)),
    };
    let mut head = vec![
        Span::styled(marker, theme.heading),
        glyph,
        Span::raw(" "),
        Span::styled(title(side), theme.heading),
    ];
    let who = seats.who(side);
    if seats.rows_below(side, width) == 0 {
        head.push(Span::raw(format!("  {who}")));
        return vec![Line::from(head)];
    }
    let mut lines = vec![Line::from(head)];
    lines.extend(
        wrap(&who, width.saturating_sub(PLAYER_INDENT.len()))
            .into_iter()
            .map(|part| Line::raw(format!("{PLAYER_INDENT}{part}"))),
    );
    lines
}

/// A comment of the record (on the move, or before the first), wrapped in `width` columns:
/// each of its lines wrapped on its own, one blank line between paragraphs; at most
/// `max_rows` rows, the last one ending in `…` if the comment goes on. Only what those rows
/// show is read: a comment of a million characters costs no more than a short one.
pub fn comment_lines(comment: Option<&str>, width: usize, max_rows: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut blank = false;
    for line in comment.unwrap_or_default().lines() {
        if line.trim().is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if std::mem::take(&mut blank) {
            out.push(String::new());
        }
        let left = (max_rows + 1).saturating_sub(out.len());
        out.extend(
            wrap_rows(printable_words(line), width, left)
                .iter()
                .map(|row| printable(row)),
        );
        if out.len() > max_rows {
            out.truncate(max_rows);
            if let Some(last) = out.last_mut() {
                *last = truncate(&format!("{last} …"), width);
            }
            break;
        }
    }
    out
}

/// `clock ● 4:59  ♚ 5:00`: both sides' time left, the running one (of the side `to_move`, if
/// any) marked.
fn clock_line(clocks: &Clocks, to_move: Option<Side>, look: &Look) -> Line<'static> {
    let theme = &look.theme;
    let mut spans = vec![Span::styled("clock ", theme.label)];
    for (side, piece) in [
        (Side::Attackers, Piece::Attacker),
        (Side::Defenders, Piece::King),
    ] {
        let style = if to_move == Some(side) {
            theme.heading
        } else {
            Style::new()
        };
        spans.push(Span::styled(look.glyphs.piece(piece), theme.chip(piece)));
        spans.push(Span::styled(format!(" {}  ", clocks.text(side)), style));
    }
    Line::from(spans)
}

/// `lost 2 ●●`: the soldiers `side` has lost since the start.
fn captured_line<'a>(start: &Position, now: &Position, side: Side, look: &'a Look) -> Line<'a> {
    let (piece, soldiers): (Piece, fn(&Position) -> Bitboard) = match side {
        Side::Attackers => (Piece::Attacker, Position::attackers),
        Side::Defenders => (Piece::Defender, Position::defenders),
    };
    let lost = soldiers(start)
        .count()
        .saturating_sub(soldiers(now).count());
    let mut spans = vec![Span::styled(format!("    lost {lost} "), look.theme.label)];
    for _ in 0..lost {
        spans.push(Span::styled(
            look.glyphs.piece(piece),
            look.theme.chip(piece),
        ));
    }
    Line::from(spans)
}

/// The widest column of the move list: room for a move with two captures and an end mark.
const MOVE_WIDTH: usize = 14;
/// Columns before the first move of a row: the move number and a space.
const NUMBER_WIDTH: usize = 3;

/// The move list as drawn in `area`: a heading, then one row per full move (the attackers'
/// and the defenders' ply side by side), from row `top` on. Computed from the area and the
/// number of moves alone, so that a click can be mapped back to its move.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct MoveListView {
    area: Rect,
    /// The first row shown.
    top: usize,
    /// The number of moves.
    moves: usize,
}

impl MoveListView {
    /// The list of `moves` moves scrolled to row `scroll`, or showing the last ones.
    pub fn following(area: Rect, moves: usize, scroll: Option<usize>) -> MoveListView {
        let rows = moves.div_ceil(2);
        let visible = MoveListView::visible(area);
        let top = scroll
            .unwrap_or(rows.saturating_sub(visible))
            .min(rows.saturating_sub(1));
        MoveListView { area, top, moves }
    }

    /// The list of `moves` moves scrolled so that move `index` (0-based) is in the middle,
    /// as far as the ends allow.
    pub fn around(area: Rect, moves: usize, index: usize) -> MoveListView {
        let rows = moves.div_ceil(2);
        let visible = MoveListView::visible(area);
        let top = (index / 2)
            .saturating_sub(visible.saturating_sub(1) / 2)
            .min(rows.saturating_sub(visible));
        MoveListView { area, top, moves }
    }

    /// Rows of moves that fit under the heading.
    fn visible(area: Rect) -> usize {
        usize::from(area.height.saturating_sub(1))
    }

    /// The width of a move's column.
    fn column_width(self) -> usize {
        (usize::from(self.area.width).saturating_sub(NUMBER_WIDTH + 1) / 2).min(MOVE_WIDTH)
    }

    /// The move (0-based) drawn at the screen cell (`column`, `row`), if any.
    pub fn move_at(self, column: u16, row: u16) -> Option<usize> {
        if self.area.height < 2
            || !self
                .area
                .contains(ratatui::layout::Position::new(column, row))
        {
            return None;
        }
        let list_row = usize::from(row.checked_sub(self.area.y + 1)?);
        if list_row >= MoveListView::visible(self.area) {
            return None;
        }
        let x = usize::from(column - self.area.x).checked_sub(NUMBER_WIDTH)?;
        let side = x / (self.column_width() + 1);
        let index = (self.top + list_row) * 2 + side;
        (side < 2 && index < self.moves).then_some(index)
    }

    /// The cell just before move `index` (0-based) as drawn, if it is in view: the space
    /// after the move number, or between the two moves of a row.
    pub fn cell_before(self, index: usize) -> Option<(u16, u16)> {
        let row = (index / 2).checked_sub(self.top)?;
        if index >= self.moves || self.area.height < 2 || row >= MoveListView::visible(self.area) {
            return None;
        }
        let column = if index.is_multiple_of(2) {
            NUMBER_WIDTH - 1
        } else {
            NUMBER_WIDTH + self.column_width()
        };
        Some((
            self.area.x + u16::try_from(column).ok()?,
            self.area.y + 1 + u16::try_from(row).ok()?,
        ))
    }

    /// Draws `moves` (as many as the view was made for), each followed by its mark in
    /// `analysis` (which may be shorter), the move `highlight` (0-based) in `style`.
    pub fn render(
        self,
        moves: &[AnnotatedMove],
        analysis: &[Option<PlyAnalysis>],
        highlight: Option<(usize, Style)>,
        look: &Look,
        buf: &mut Buffer,
    ) {
        let area = self.area;
        if area.height < 2 {
            return;
        }
        let rows = moves.len().div_ceil(2);
        let visible = MoveListView::visible(area);
        let top = self.top;
        let more_above = top > 0;
        let more_below = top + visible < rows;
        let heading = format!(
            "Moves{}{}",
            if more_above { " ↑" } else { "" },
            if more_below { " ↓ PgDn" } else { "" }
        );
        buf.set_string(area.x, area.y, heading, look.theme.heading);
        let width = self.column_width();
        for (row, pair) in moves.chunks(2).enumerate().skip(top).take(visible) {
            let y = area.y + 1 + u16::try_from(row - top).unwrap_or(0);
            let mut spans = vec![Span::styled(
                format!("{:>w$} ", row + 1, w = NUMBER_WIDTH - 1),
                look.theme.label,
            )];
            for (i, mv) in pair.iter().enumerate() {
                let index = row * 2 + i;
                let style = match highlight {
                    Some((highlighted, style)) if highlighted == index => style,
                    _ => Style::new(),
                };
                let mark = analysis
                    .get(index)
                    .and_then(Option::as_ref)
                    .map(|a| mark_span(a, look))
                    .unwrap_or_default();
                let text = mv.to_string();
                let pad = width.saturating_sub(text.chars().count() + mark.width());
                spans.push(Span::styled(text, style));
                // The highlight wins: the mark still shows by its characters.
                spans.push(Span::styled(mark.content, mark.style.patch(style)));
                spans.push(Span::styled(" ".repeat(pad), style));
                spans.push(Span::raw(" "));
            }
            Line::from(spans).render(Rect::new(area.x, y, area.width, 1), buf);
        }
    }
}

/// The mark at the start of the status line while the game is not saved after a failed
/// autosave.
pub const NOT_SAVED: &str = "NOT SAVED ";

/// The keys the status line recalls when it has nothing to say.
const KEYS: &str = "arrows/hjkl move · Enter select · : type a move · ? help";
/// The same on a narrow terminal.
const SHORT_KEYS: &str = "Enter select · : type · ? help";
/// Before the move being typed.
const TYPING: &str = "move: ";
/// After the move being typed, where they fit.
const TYPING_KEYS: &str = "   Enter play · Esc cancel";

/// The status line: the move being typed, or the last message (else the keys); after a
/// failed autosave marked [`NOT_SAVED`] until a save succeeds. A message is wrapped by words:
/// [`StatusLine::rows`] says how many rows it needs.
pub struct StatusLine<'a> {
    /// The move being typed, if the prompt is open.
    pub typing: Option<&'a str>,
    /// The last message, if any.
    pub status: Option<&'a Status>,
    /// Whether the last autosave failed.
    pub not_saved: bool,
    /// The keys recalled when there is nothing to say: the board's unless given.
    pub keys: Option<&'static str>,
}

impl StatusLine<'_> {
    /// Draws the line in `area`, the bottom of the screen, in `look`; a message longer than
    /// the area has rows for takes the rows above it as well, over what is there.
    pub fn draw_at_bottom(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let rows = self.rows(area.width, area.height).min(area.bottom());
        let area = if rows > area.height {
            let rect = Rect {
                y: area.bottom() - rows,
                height: rows,
                ..area
            };
            Clear.render(rect, buf);
            rect
        } else {
            area
        };
        Themed { of: self, look }.render(area, buf);
    }

    /// The rows it needs at `width` to show all its text: a message wraps on as many as it
    /// needs, the keys are fitted to the `rows` of the status line.
    pub fn rows(&self, width: u16, rows: u16) -> u16 {
        let width = self.text_width(width);
        match self.lines(width, rows) {
            Lines::Typing(_) => 1,
            Lines::Wrapped(lines, _) => u16::try_from(lines.len().max(1)).unwrap_or(u16::MAX),
        }
    }

    /// The columns for the text at `width`: less the mark of a failed autosave.
    fn text_width(&self, width: u16) -> u16 {
        if self.not_saved {
            width.saturating_sub(u16::try_from(NOT_SAVED.len() + 1).unwrap_or(u16::MAX))
        } else {
            width
        }
    }

    /// Its text at `width` (of the text's column), the keys fitted to `rows`.
    fn lines(&self, width: u16, rows: u16) -> Lines<'_> {
        let width = usize::from(width);
        match (self.typing, self.status) {
            (Some(text), _) => Lines::Typing(text),
            (None, Some(status)) => Lines::Wrapped(wrap(&status.text, width), Some(status.tone)),
            (None, None) => {
                let keys = self.keys.unwrap_or_else(|| {
                    if width < KEYS.chars().count() {
                        SHORT_KEYS
                    } else {
                        KEYS
                    }
                });
                Lines::Wrapped(fit_keys(keys, width, usize::from(rows)), None)
            }
        }
    }
}

/// What the status line shows.
enum Lines<'a> {
    /// The move being typed.
    Typing(&'a str),
    /// A message of this tone, or the keys (no tone), wrapped.
    Wrapped(Vec<String>, Option<Tone>),
}

impl Widget for Themed<'_, StatusLine<'_>> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let area = if of.not_saved {
            let width = u16::try_from(NOT_SAVED.len()).unwrap_or(0);
            let [mark, rest] =
                Layout::horizontal([Constraint::Length(width + 1), Constraint::Fill(1)])
                    .areas(area);
            Line::styled(NOT_SAVED, look.theme.error.add_modifier(Modifier::REVERSED))
                .render(mark, buf);
            rest
        } else {
            area
        };
        let lines = match of.lines(area.width, area.height) {
            Lines::Typing(text) => {
                // The label and the cursor around the text, then the keys if they fit.
                let room = usize::from(area.width).saturating_sub(TYPING.len() + 1);
                let text = printable(text);
                let keys = if text.chars().count() + TYPING_KEYS.chars().count() <= room {
                    TYPING_KEYS
                } else {
                    ""
                };
                vec![Line::from(vec![
                    Span::styled(TYPING, look.theme.heading),
                    Span::raw(field_end(&text, room)),
                    Span::styled("_", look.theme.focus),
                    Span::styled(keys, look.theme.label),
                ])]
            }
            Lines::Wrapped(lines, tone) => {
                let style = match tone {
                    None => look.theme.label,
                    Some(Tone::Info) => Style::new(),
                    Some(Tone::Warning) => look.theme.heading,
                    Some(Tone::Error) => look.theme.error,
                };
                lines
                    .into_iter()
                    .map(|line| Line::styled(line, style))
                    .collect()
            }
        };
        Paragraph::new(lines).render(area, buf);
    }
}

/// The compact layout's turn line: the text (whose turn it is, or the result) and, at the
/// right, what `Tab` shows (the board again if the panel is shown).
pub struct TurnLine<'a> {
    /// Whose turn it is, or the result.
    pub text: &'a str,
    /// Whether the panel is shown over the board.
    pub shown: bool,
}

impl Widget for Themed<'_, TurnLine<'_>> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed {
            of: &TurnLine { text, shown },
            look,
        } = self;
        let tab = if shown { "Tab board" } else { "Tab panel" };
        let tab_width = u16::try_from(tab.len()).unwrap_or(0);
        let [left, right] =
            Layout::horizontal([Constraint::Fill(1), Constraint::Length(tab_width)]).areas(area);
        Line::styled(text.to_owned(), look.theme.heading).render(left, buf);
        Line::styled(tab, look.theme.label).render(right, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MAX_COMMENT_CHARS;

    #[test]
    fn a_comment_of_several_paragraphs_keeps_a_blank_line_between_them() {
        assert_eq!(
            comment_lines(Some("first words\r\n\n\nsecond\ttab\u{1b}"), 12, 10),
            ["first words", "", "second\u{fffd}tab\u{fffd}"]
        );
        assert_eq!(comment_lines(Some("one\r\ntwo"), 12, 10), ["one", "two"]);
    }

    #[test]
    fn a_long_comment_is_cut_to_the_rows_shown() {
        // A comment of the most characters a save holds: only the rows shown are made.
        let words = "word ".repeat(MAX_COMMENT_CHARS / 5);
        assert_eq!(
            comment_lines(Some(&words), 12, 3),
            ["word word", "word word", "word word …"]
        );
        let cjk = "漢".repeat(MAX_COMMENT_CHARS);
        assert_eq!(
            comment_lines(Some(&cjk), 10, 2),
            ["漢".repeat(10), format!("{}…", "漢".repeat(9))]
        );
        // Short ones are whole, unmarked.
        assert_eq!(comment_lines(Some("word word"), 12, 1), ["word word"]);
        assert_eq!(
            comment_lines(Some("a\n\nb"), 12, 3),
            ["a", "", "b"],
            "exactly the rows shown"
        );
    }

    #[test]
    fn outcomes_read_as_sentences() {
        assert_eq!(
            outcome_text(Outcome::win(Side::Attackers, Reason::KingCaptured), None),
            "Attackers win: the king was captured"
        );
        assert_eq!(
            outcome_text(Outcome::win(Side::Defenders, Reason::Resignation), None),
            "Defenders win: the attackers resigned"
        );
        assert_eq!(
            outcome_text(Outcome::draw(Reason::Repetition), None),
            "Draw: threefold repetition"
        );
    }

    #[test]
    fn against_the_ai_the_result_is_the_persons_and_keeps_the_side() {
        let captured = Outcome::win(Side::Attackers, Reason::KingCaptured);
        assert_eq!(
            outcome_text(captured, Some(Side::Defenders)),
            "You lost: the attackers win, the king was captured"
        );
        assert_eq!(
            banner_parts(captured, Some(Side::Attackers)),
            (
                "You win".to_owned(),
                "Attackers win: the king was captured".to_owned()
            )
        );
        let draw = Outcome::draw(Reason::Repetition);
        assert_eq!(
            outcome_text(draw, Some(Side::Attackers)),
            "Draw: threefold repetition"
        );
        let human = Player::Human;
        let ai = Player::Ai {
            engine: crate::game::EngineKind::Search,
            level: crate::game::Level::Easy,
            time: None,
        };
        let players = |attackers, defenders| Players {
            attackers,
            defenders,
        };
        assert_eq!(you(players(human, ai)), Some(Side::Attackers));
        assert_eq!(you(players(ai, human)), Some(Side::Defenders));
        assert_eq!(you(players(human, human)), None);
        assert_eq!(you(players(ai, ai)), None);
    }
}
