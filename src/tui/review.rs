//! Review mode: stepping through a game without changing it. [`Review`] is the state (which
//! ply is shown), [`ReviewLayout`] splits the side panel, and [`ReviewPanel`] draws it: the
//! players and their losses at that ply, the ply and its move, the result at the end, and the
//! move list with the ply highlighted and scrolled into view. Positions and captures come
//! from the game record ([`Ply`]); nothing here computes them.
//!
//! Once the game has an analysis (or one is under way), the panel shows it: each side's
//! summary in place of its losses, the ply's class, evaluation and best line, the evaluation
//! graph of the whole game between the ply and the move list, and the marks in the list.
//!
//! The panel is built in sections, each with its own rows in [`ReviewLayout`] (computed from
//! the panel's area and whether the analysis is shown, so that a click is mapped back to a
//! move without the last frame).

use std::borrow::Cow;
use std::sync::LazyLock;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Padding, Paragraph, Widget};

use super::analysis_text::{class_style, mark_span, summary_spans};
use super::graph::EvalGraph;
use super::input::{Action, Direction, REVIEW_KEYS};
use super::legend::Legend;
use super::panels::{self, MoveListView, Seats};
use super::text::{printable, title, wrap};
use super::theme::{Look, Themed};
use super::tree_list::{COMMENT_MARK, TreeList};
use crate::game::{Fork, MoveClass, Place, Ply, PlyAnalysis, Summary, Tag};
use crate::rules::{AnnotatedMove, Outcome, Position, Side};

/// How many plies Page Up and Page Down go back and forward.
pub const PAGE: usize = 10;

/// The keys of the review, on the status line while no message is shown (from the review's
/// key table).
pub static KEY_LINE: LazyLock<String> = LazyLock::new(|| REVIEW_KEYS.key_line());

/// The fewest rows of the panel (with its borders) that show the tags' header.
const HEADER_MIN_ROWS: u16 = 16;

/// Where a step goes.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Step {
    /// This many plies back.
    Back(usize),
    /// This many plies forward.
    Forward(usize),
    /// The start position.
    Start,
    /// The position after the last move.
    End,
    /// The position after this many plies.
    To(usize),
}

impl Step {
    /// The step a key asks for in review, if any: Left/Up back one ply, Right/Down forward,
    /// PgUp/PgDn ten plies, Home/End to the start or end.
    pub const fn for_action(action: Action) -> Option<Step> {
        Some(match action {
            Action::Move(Direction::Left | Direction::Up) => Step::Back(1),
            Action::Move(Direction::Right | Direction::Down) => Step::Forward(1),
            Action::PageUp => Step::Back(PAGE),
            Action::PageDown => Step::Forward(PAGE),
            Action::ToStart => Step::Start,
            Action::ToEnd => Step::End,
            _ => return None,
        })
    }
}

/// What the review's update comes to.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ReviewHandled {
    /// Nothing for the review.
    Stay,
    /// It stepped through the game (a key, a click on a move).
    Stepped,
    /// Back to the game (Esc, `v`).
    Leave,
    /// Play on from this ply (Enter).
    PlayFrom(usize),
    /// A key the game takes in review too (help, rules, save, analyze, the panel, quit).
    Game(Action),
    /// A key about the side lines: type a move, into or out of a side line, promote or
    /// delete the line (the app knows the tree).
    Lines(Action),
    /// To the next (`true`) or previous mistake or blunder: the app knows the analysis.
    Mistake {
        /// Whether forward.
        next: bool,
    },
}

/// The review of a line of `plies` moves from the start (the main line, or a side line
/// reached through `forks`): the ply shown (0 is the start position, `plies` the position
/// after the line's last move).
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Review {
    forks: Vec<Fork>,
    ply: usize,
    plies: usize,
}

impl Review {
    /// The review of a game of `plies` moves, at its end.
    pub const fn new(plies: usize) -> Review {
        Review {
            forks: Vec::new(),
            ply: plies,
            plies,
        }
    }

    /// The review of the line through `forks`, `plies` moves long from the start, at `ply`.
    pub fn on_line(forks: Vec<Fork>, ply: usize, plies: usize) -> Review {
        Review {
            forks,
            ply: ply.min(plies),
            plies,
        }
    }

    /// The side lines taken to the line reviewed, from the main line down (none for the
    /// main line).
    pub fn forks(&self) -> &[Fork] {
        &self.forks
    }

    /// The ply shown: the number of moves played to reach the position on the board.
    pub const fn ply(&self) -> usize {
        self.ply
    }

    /// The number of moves of the line reviewed, from the start.
    pub const fn plies(&self) -> usize {
        self.plies
    }

    /// Takes `action`, with the panel laid out as `layout` (if it is on screen, for clicks
    /// on its moves): steps through the game, or says what the app is to do.
    pub fn update(&mut self, action: Action, layout: Option<ReviewLayout>) -> ReviewHandled {
        match action {
            Action::Review | Action::Cancel => ReviewHandled::Leave,
            Action::Confirm => ReviewHandled::PlayFrom(self.ply),
            Action::Click { column, row } => {
                match layout.and_then(|l| l.ply_at(self, column, row)) {
                    Some(ply) => {
                        self.go(Step::To(ply));
                        ReviewHandled::Stepped
                    }
                    None => ReviewHandled::Stay,
                }
            }
            Action::Quit
            | Action::Help
            | Action::Rules
            | Action::Save
            | Action::Analyze
            | Action::Comment
            | Action::Tags
            | Action::Puzzles
            | Action::TogglePanel => ReviewHandled::Game(action),
            Action::StartTyping
            | Action::IntoLine
            | Action::OutOfLine
            | Action::Promote
            | Action::Delete => ReviewHandled::Lines(action),
            Action::NextMistake => ReviewHandled::Mistake { next: true },
            Action::PreviousMistake => ReviewHandled::Mistake { next: false },
            other => match Step::for_action(other) {
                Some(step) => {
                    self.go(step);
                    ReviewHandled::Stepped
                }
                None => ReviewHandled::Stay,
            },
        }
    }

    /// Goes to the ply after the next (`next`) or previous mistake or blunder of the line,
    /// given each move's class (`None`: not analysed); returns whether there was one.
    pub fn go_to_mistake(&mut self, classes: &[Option<MoveClass>], next: bool) -> bool {
        let bad = |(i, class): (usize, &Option<MoveClass>)| {
            class
                .is_some_and(|c| c >= MoveClass::Mistake)
                .then_some(i + 1)
        };
        let mut plies = classes.iter().enumerate().filter_map(bad);
        let found = if next {
            plies.find(|&ply| ply > self.ply)
        } else {
            plies.rfind(|&ply| ply < self.ply)
        };
        found.inspect(|&ply| self.go(Step::To(ply))).is_some()
    }

    /// Goes where `step` says, never past the start or the end.
    pub fn go(&mut self, step: Step) {
        self.ply = match step {
            Step::Back(n) => self.ply.saturating_sub(n),
            Step::Forward(n) => self.ply.saturating_add(n),
            Step::Start => 0,
            Step::End => self.plies,
            Step::To(ply) => ply,
        }
        .min(self.plies);
    }
}

/// Rows of the panel above the move list: players and losses (4), a blank, the ply and its
/// move (2), the result (a headline and the reason in up to 2 lines), a blank.
const INFO_ROWS: u16 = 11;
/// Rows above the graph when the analysis is shown: players and summaries (4), and the ply
/// ([`ANALYSED_PLY_ROWS`]).
const ANALYSED_INFO_ROWS: u16 = 4 + ANALYSED_PLY_ROWS;
/// Rows about the ply when the analysis is shown: its number, its move, its class, the
/// evaluation, and the best line in 2 rows (or, where the game ended, the result).
const ANALYSED_PLY_ROWS: u16 = 6;
/// The fewest rows the graph is drawn in.
const GRAPH_MIN_ROWS: u16 = 3;
/// The most rows the graph takes.
const GRAPH_MAX_ROWS: u16 = 10;
/// The fewest rows the move list keeps before the graph is drawn: a heading and 3 rows.
const LIST_MIN_ROWS: u16 = 4;

/// The parts of the review panel, from its area and whether the analysis is shown.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct ReviewLayout {
    /// The panel with its border.
    pub frame: Rect,
    /// The players, the ply, its move and the result (and the analysis of the ply).
    pub info: Rect,
    /// The evaluation graph, when the analysis is shown and there is room.
    pub graph: Option<Rect>,
    /// The move list.
    pub list: Rect,
    /// The rows the comment on the ply may take.
    pub comment_rows: u16,
}

impl ReviewLayout {
    /// The layout of a review panel drawn in `panel`, with the analysis if `analyzed`,
    /// `extra` rows about the ply (names too long for their line, the tags' header, the side
    /// lines) and `comment` rows of the record's comment. Where the graph has moves to show
    /// (`graphed`) and would fit without the comment, the comment is cut to leave it its rows.
    /// The graph gets half the rows left under the ply (at most [`GRAPH_MAX_ROWS`]); it is
    /// dropped when the move list would keep fewer than [`LIST_MIN_ROWS`].
    pub fn new(
        panel: Rect,
        analyzed: bool,
        extra: u16,
        comment: u16,
        graphed: bool,
    ) -> ReviewLayout {
        let inner = ReviewPanel::block().inner(panel);
        let base = if analyzed {
            ANALYSED_INFO_ROWS
        } else {
            INFO_ROWS
        }
        .saturating_add(extra);
        let room = inner
            .height
            .saturating_sub(base.saturating_add(GRAPH_MIN_ROWS + LIST_MIN_ROWS));
        let comment_rows = if analyzed && graphed && room > 0 {
            comment.min(room)
        } else {
            comment
        };
        let info_rows = base.saturating_add(comment_rows).min(inner.height);
        let left = inner.height - info_rows;
        let graph_rows = (left / 2).min(GRAPH_MAX_ROWS);
        let graph_rows =
            if analyzed && graph_rows >= GRAPH_MIN_ROWS && left - graph_rows >= LIST_MIN_ROWS {
                graph_rows
            } else {
                0
            };
        let row = |top: u16, height: u16| Rect {
            y: inner.y + top,
            height,
            ..inner
        };
        ReviewLayout {
            frame: panel,
            info: row(0, info_rows),
            graph: (graph_rows > 0).then(|| row(info_rows, graph_rows)),
            list: row(info_rows + graph_rows, left - graph_rows),
            comment_rows,
        }
    }

    /// The move list of `review` as drawn: scrolled so that its ply's move is in view.
    fn move_list(self, review: &Review) -> MoveListView {
        MoveListView::around(self.list, review.plies, review.ply.saturating_sub(1))
    }

    /// The ply a click at (`column`, `row`) goes to: the one after the move clicked.
    pub fn ply_at(self, review: &Review, column: u16, row: u16) -> Option<usize> {
        self.move_list(review)
            .move_at(column, row)
            .map(|index| index + 1)
    }
}

/// What the review panel shows.
pub struct ReviewPanel<'a> {
    /// The rules' name.
    pub rules: &'static str,
    /// Who plays each side, and their names.
    pub seats: Seats<'a>,
    /// The record's comment on the ply's move (at the start, before the first move).
    pub comment: Option<&'a str>,
    /// The game's start position (losses are counted from it).
    pub start: &'a Position,
    /// The ply shown.
    pub ply: Ply,
    /// Every move of the line reviewed, from the start.
    pub moves: Cow<'a, [AnnotatedMove]>,
    /// The game's result, shown at its last ply.
    pub outcome: Option<Outcome>,
    /// The analysis of each move (`None` where a move is not analyzed; empty if none is).
    pub analysis: Cow<'a, [Option<PlyAnalysis>]>,
    /// Both sides' summaries of the analysis, when the analysis is shown.
    pub summary: Option<Summary>,
    /// Where the review is (its move list is scrolled to its ply).
    pub review: &'a Review,
    /// Rows about the side lines: the line reviewed and those leaving it here.
    pub lines: Vec<String>,
    /// Whether the legend of the marks takes the place of the graph and the move list.
    pub legend: bool,
    /// The game's whole tree, listed in place of the line's moves when it has side lines,
    /// and the place shown in it.
    pub tree: Option<(TreeList<'a>, Place)>,
    /// Whether each move of the line has a comment (marked [`COMMENT_MARK`] in the list).
    pub commented: Vec<bool>,
}

impl ReviewPanel<'_> {
    fn block() -> Block<'static> {
        Block::bordered().padding(Padding::horizontal(1))
    }

    /// How it is laid out drawn in `panel`.
    pub fn layout(&self, panel: Rect) -> ReviewLayout {
        let width = usize::from(ReviewPanel::block().inner(panel).width);
        let extra = self.seats.rows_below(Side::Attackers, width)
            + self.seats.rows_below(Side::Defenders, width)
            + self.lines_rows(width).len()
            + self.header_rows(width, panel.height).len();
        let comment = panels::comment_lines(self.comment, width, usize::from(panel.height)).len();
        let rows = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        let graphed = self.analysis.iter().any(Option::is_some);
        ReviewLayout::new(
            panel,
            self.summary.is_some(),
            rows(extra),
            rows(comment),
            graphed,
        )
    }

    /// The header from the game's tags, each wrapped in `width` columns: the event, site and
    /// date on one line, the annotator on another, the record's other tags (`round: 2`) on a
    /// third (the players' names are on their lines).
    /// None in a panel of fewer than [`HEADER_MIN_ROWS`] rows: the ply and its comment come
    /// first.
    fn header_rows(&self, width: usize, panel_rows: u16) -> Vec<String> {
        if panel_rows < HEADER_MIN_ROWS {
            return Vec::new();
        }
        let tags = self.seats.names;
        let place: Vec<String> = [Tag::Event, Tag::Site, Tag::Date]
            .into_iter()
            .filter_map(|tag| tags.get(tag).map(printable))
            .collect();
        let annotator = tags
            .get(Tag::Annotator)
            .map(|name| format!("notes by {}", printable(name)));
        let others: Vec<String> = tags
            .others()
            .map(|(name, value)| format!("{name}: {}", printable(value)))
            .collect();
        (!place.is_empty())
            .then(|| place.join(" · "))
            .into_iter()
            .chain(annotator)
            .chain((!others.is_empty()).then(|| others.join(" · ")))
            .flat_map(|row| wrap(&row, width))
            .collect()
    }

    /// The header rows in a panel of `panel_rows`, styled.
    fn header_lines(&self, look: &Look, width: usize, panel_rows: u16) -> Vec<Line<'static>> {
        self.header_rows(width, panel_rows)
            .into_iter()
            .map(|l| Line::styled(l, look.theme.label))
            .collect()
    }

    /// The rows about the side lines, styled.
    fn side_line_rows(&self, look: &Look, width: usize) -> Vec<Line<'static>> {
        self.lines_rows(width)
            .into_iter()
            .map(|l| Line::styled(l, look.theme.heading))
            .collect()
    }

    /// The record's comment on the ply, in `width` columns, at most `rows` of it.
    fn comment_lines(&self, look: &Look, width: usize, rows: u16) -> Vec<Line<'static>> {
        panels::comment_lines(self.comment, width, usize::from(rows))
            .into_iter()
            .map(|l| Line::styled(l, look.theme.label))
            .collect()
    }

    /// The rows about the side lines, each wrapped in `width` columns.
    fn lines_rows(&self, width: usize) -> Vec<String> {
        self.lines.iter().flat_map(|l| wrap(l, width)).collect()
    }

    /// The result, if this is the last ply of a game that is over.
    fn result(&self) -> Option<Outcome> {
        self.outcome.filter(|_| self.ply.number == self.moves.len())
    }

    /// Two lines about the ply: its number and who played what, or the start and who moves.
    fn ply_lines(&self, look: &Look) -> Vec<Line<'static>> {
        let theme = &look.theme;
        let total = self.moves.len();
        match (self.ply.played, self.ply.mover()) {
            (Some(played), Some(mover)) => vec![
                Line::styled(format!("Ply {} of {total}", self.ply.number), theme.heading),
                Line::from(vec![
                    Span::raw(format!("{}  ", title(mover))),
                    Span::styled(played.to_string(), theme.heading),
                ]),
            ],
            _ => vec![
                Line::styled(format!("Start · ply 0 of {total}"), theme.heading),
                Line::raw(format!(
                    "{} to move",
                    title(self.ply.position.side_to_move())
                )),
            ],
        }
    }

    /// The result, centred like the game-over banner, and why, if this ply ends the game.
    fn result_lines(&self, look: &Look, width: usize) -> Vec<Line<'static>> {
        let Some(outcome) = self.result() else {
            return Vec::new();
        };
        let (headline, why) = panels::outcome_parts(outcome);
        let mut lines = vec![Line::styled(
            format!("{:^width$}", format!("★ {headline} ★")),
            look.theme.banner,
        )];
        lines.extend(wrap(&why, width).into_iter().take(2).map(Line::raw));
        lines
    }

    /// The analysis of the ply shown: of its move, or, at the start, of the first move (whose
    /// position it is).
    pub fn analysis_shown(&self) -> Option<&PlyAnalysis> {
        let index = self.ply.number.saturating_sub(1);
        self.analysis.get(index)?.as_ref()
    }

    /// The rows about the ply's analysis: its class (and mark), the evaluation before and
    /// after the move for the mover, and the engine's best line; at the start, the evaluation
    /// of the position and the best line. Where the game ended, the result takes the place of
    /// the evaluation and the best line.
    fn analysis_lines(&self, look: &Look, width: usize) -> Vec<Line<'static>> {
        let theme = &look.theme;
        let result = self.result_lines(look, width);
        let Some(analysis) = self.analysis_shown() else {
            let mut lines = vec![Line::styled("not analyzed", theme.label)];
            lines.extend(result);
            return lines;
        };
        if self.ply.number == 0 {
            let mut lines = vec![Line::from(vec![
                Span::styled("eval ", theme.label),
                Span::raw(analysis.score_before.text(self.ply.position.side_to_move())),
            ])];
            lines.extend(best_lines(analysis, look, width));
            return lines;
        }
        let mut class = vec![Span::styled(
            analysis.class.name(),
            class_style(analysis.class, look),
        )];
        if analysis.only_move {
            class.push(Span::raw(" · "));
            class.push(Span::styled("only move !", theme.good));
        }
        // The scores are the mover's.
        let mover = self.ply.mover().unwrap_or(Side::Attackers);
        let (before, after) = (
            analysis.score_before.text(mover),
            analysis.score_after.text(mover),
        );
        let eval = format!("{before} → {after}");
        // `eval ` and the scores on one row if they fit, else the score after on a row of its
        // own.
        let eval_lines = if eval.chars().count() + 5 <= width {
            vec![Line::from(vec![
                Span::styled("eval ", theme.label),
                Span::raw(eval),
            ])]
        } else {
            vec![
                Line::from(vec![Span::styled("eval ", theme.label), Span::raw(before)]),
                Line::raw(format!("   → {after}")),
            ]
        };
        if result.is_empty() {
            let depth = format!(" · depth {}", analysis.depth);
            if Line::from(class.clone()).width() + depth.len() <= width {
                class.push(Span::styled(depth, theme.label));
            }
            let mut lines = vec![Line::from(class)];
            lines.extend(eval_lines);
            lines.extend(best_lines(analysis, look, width));
            lines
        } else {
            // The move ended the game: the result says what the scores would.
            let mut lines = vec![Line::from(class)];
            lines.extend(result);
            lines
        }
    }

    /// Each side's player, with the summary of its moves in place of its losses.
    fn analysed_players_lines(
        &self,
        summary: &Summary,
        look: &Look,
        width: usize,
    ) -> Vec<Line<'static>> {
        let to_move = self
            .result()
            .is_none()
            .then(|| self.ply.position.side_to_move());
        [Side::Attackers, Side::Defenders]
            .into_iter()
            .flat_map(|side| {
                let mut summary_line = vec![Span::raw("    ")];
                summary_line.extend(summary_spans(summary.side(side), look));
                let mut lines = panels::player_lines(self.seats, to_move, side, look, width);
                lines.push(Line::from(summary_line));
                lines
            })
            .collect()
    }

    /// The ply's move with its mark, if analyzed.
    fn move_line(&self, look: &Look) -> Option<Line<'static>> {
        let (played, mover) = (self.ply.played?, self.ply.mover()?);
        let mut spans = vec![
            Span::raw(format!("{}  ", title(mover))),
            Span::styled(played.to_string(), look.theme.heading),
        ];
        if let Some(analysis) = self.analysis_shown() {
            spans.push(mark_span(analysis, look));
        }
        Some(Line::from(spans))
    }
}

/// Draws the review panel in its area (laid out by [`ReviewLayout`], with the analysis if
/// it has the summaries).
impl Widget for Themed<'_, ReviewPanel<'_>> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of: panel, look } = self;
        let layout = panel.layout(area);
        let theme = &look.theme;
        ReviewPanel::block()
            .border_set(look.glyphs.border)
            .title(Line::from(format!(" Review · {} ", panel.rules)).style(theme.heading))
            .title_bottom(Line::from(" ? keys  v back ").style(theme.label))
            .render(layout.frame, buf);
        let width = usize::from(layout.info.width);
        let mut lines = panel.header_lines(look, width, area.height);
        lines.extend(if let Some(summary) = &panel.summary {
            let mut lines = panel.analysed_players_lines(summary, look, width);
            let mut ply = panel.ply_lines(look);
            if let Some(played) = panel.move_line(look) {
                ply[1] = played;
            }
            lines.extend(ply);
            lines.extend(panel.comment_lines(look, width, layout.comment_rows));
            lines.extend(panel.side_line_rows(look, width));
            lines.extend(panel.analysis_lines(look, width));
            lines
        } else {
            let to_move = panel
                .result()
                .is_none()
                .then(|| panel.ply.position.side_to_move());
            let mut lines = panels::players_lines(
                panel.seats,
                to_move,
                panel.start,
                &panel.ply.position,
                look,
                width,
            );
            lines.push(Line::default());
            lines.extend(panel.ply_lines(look));
            lines.extend(panel.comment_lines(look, width, layout.comment_rows));
            lines.extend(panel.side_line_rows(look, width));
            lines.extend(panel.result_lines(look, width));
            lines
        });
        Paragraph::new(lines).render(layout.info, buf);
        if panel.legend {
            let below = layout.graph.map_or(layout.list, |g| g.union(layout.list));
            Legend { look }.render(below, buf);
            return;
        }
        if let Some(area) = layout.graph {
            let graph = EvalGraph {
                first: panel.start.side_to_move(),
                analysis: &panel.analysis,
                ply: panel.ply.number,
            };
            Themed { of: &graph, look }.render(area, buf);
        }
        if let Some((tree, place)) = &panel.tree {
            let view = tree.view(layout.list, Some(place));
            Themed { of: &view, look }.render(layout.list, buf);
            return;
        }
        let selected = panel.ply.number.checked_sub(1);
        layout.move_list(panel.review).render(
            &panel.moves,
            &panel.analysis,
            selected.map(|i| (i, theme.focus)),
            look,
            buf,
        );
        mark_comments(layout.move_list(panel.review), &panel.commented, look, buf);
    }
}

/// Marks the moves of `list` that have a comment ([`COMMENT_MARK`] before the move).
fn mark_comments(list: MoveListView, commented: &[bool], look: &Look, buf: &mut Buffer) {
    let cells = commented
        .iter()
        .enumerate()
        .filter(|&(_, &has)| has)
        .filter_map(|(index, _)| list.cell_before(index));
    for (x, y) in cells {
        buf.set_string(x, y, COMMENT_MARK, look.theme.heading);
    }
}

/// `best e6-d6 d4-d7 c5-c3 …`: the engine's best move and the line it expects, in up to 2
/// rows of `width`.
fn best_lines(analysis: &PlyAnalysis, look: &Look, width: usize) -> Vec<Line<'static>> {
    let mut words = vec![analysis.best.to_string()];
    let line = analysis.pv.iter().map(ToString::to_string);
    if analysis.pv.first() == Some(&analysis.best) {
        words.extend(line.skip(1));
    } else if !analysis.pv.is_empty() {
        words.push("·".to_owned());
        words.extend(line);
    }
    let text = format!("best {}", words.join(" "));
    let mut rows = wrap(&text, width);
    if rows.len() > 2 {
        rows.truncate(2);
        let last = &mut rows[1];
        while last.chars().count() + 2 > width && last.pop().is_some() {}
        last.push_str(" …");
    }
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| match (i, row.strip_prefix("best ")) {
            (0, Some(rest)) => {
                let (best, rest) = rest.split_once(' ').unwrap_or((rest, ""));
                Line::from(vec![
                    Span::styled("best ", look.theme.label),
                    Span::styled(best.to_owned(), look.theme.heading),
                    Span::styled(format!(" {rest}").trim_end().to_owned(), look.theme.label),
                ])
            }
            _ => Line::styled(row, look.theme.label),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn n_and_shift_n_go_to_the_next_and_previous_mistake_or_blunder() {
        use crate::game::MoveClass::{Best, Blunder, Inaccuracy, Mistake};
        use crate::tui::input::Action;
        let mut review = super::Review::new(6);
        assert_eq!(
            review.update(Action::NextMistake, None),
            super::ReviewHandled::Mistake { next: true }
        );
        // Moves 1 to 6: a mistake is move 2 (the position after it is ply 2), a blunder move 5.
        let classes = [
            Some(Best),
            Some(Mistake),
            Some(Inaccuracy),
            None,
            Some(Blunder),
            Some(Best),
        ];
        review.go(super::Step::Start);
        assert!(review.go_to_mistake(&classes, true));
        assert_eq!(review.ply(), 2);
        assert!(review.go_to_mistake(&classes, true));
        assert_eq!(review.ply(), 5, "the inaccuracy is passed over");
        assert!(!review.go_to_mistake(&classes, true), "none after");
        assert_eq!(review.ply(), 5, "stays");
        review.go(super::Step::End);
        assert!(review.go_to_mistake(&classes, false));
        assert_eq!(review.ply(), 5);
        assert!(review.go_to_mistake(&classes, false));
        assert_eq!(review.ply(), 2);
        assert!(!review.go_to_mistake(&classes, false));
        assert!(
            !super::Review::new(3).go_to_mistake(&[], true),
            "not analysed"
        );
    }

    #[test]
    fn the_review_steps_itself_and_says_what_else_is_asked() {
        use crate::tui::input::{Action, Direction};
        let mut review = super::Review::new(5);
        let step = |review: &mut super::Review, action| review.update(action, None);
        assert_eq!(
            step(&mut review, Action::ToStart),
            super::ReviewHandled::Stepped
        );
        assert_eq!(
            step(&mut review, Action::Move(Direction::Right)),
            super::ReviewHandled::Stepped
        );
        assert_eq!(review.ply(), 1);
        assert_eq!(
            step(&mut review, Action::Confirm),
            super::ReviewHandled::PlayFrom(1)
        );
        assert_eq!(
            step(&mut review, Action::Save),
            super::ReviewHandled::Game(Action::Save)
        );
        assert_eq!(
            step(&mut review, Action::Cancel),
            super::ReviewHandled::Leave
        );
        assert_eq!(
            step(&mut review, Action::Click { column: 1, row: 1 }),
            super::ReviewHandled::Stay,
            "no panel on screen"
        );
        assert_eq!(review.ply(), 1);
    }

    use super::*;

    #[test]
    fn steps_stay_between_the_start_and_the_end() {
        let mut r = Review::new(25);
        assert_eq!(r.ply(), 25, "a review opens at the end");
        r.go(Step::Forward(1));
        assert_eq!(r.ply(), 25);
        r.go(Step::Back(1));
        assert_eq!(r.ply(), 24);
        r.go(Step::Start);
        assert_eq!(r.ply(), 0);
        r.go(Step::Back(1));
        assert_eq!(r.ply(), 0);
        r.go(Step::Forward(1));
        r.go(Step::Forward(1));
        assert_eq!(r.ply(), 2);
        r.go(Step::End);
        assert_eq!(r.ply(), 25);
        r.go(Step::To(7));
        assert_eq!(r.ply(), 7);
        r.go(Step::To(99));
        assert_eq!(r.ply(), 25);
        let mut empty = Review::new(0);
        for step in [Step::Forward(1), Step::End, Step::To(3), Step::Back(1)] {
            empty.go(step);
            assert_eq!(empty.ply(), 0);
        }
    }

    #[test]
    fn pages_go_ten_plies_and_stop_at_the_ends() {
        let mut r = Review::new(25);
        let page = |r: &mut Review, action| r.go(Step::for_action(action).unwrap());
        page(&mut r, Action::PageUp);
        assert_eq!(r.ply(), 15);
        page(&mut r, Action::PageUp);
        page(&mut r, Action::PageUp);
        assert_eq!(r.ply(), 0, "clamped at the start");
        page(&mut r, Action::PageDown);
        assert_eq!(r.ply(), 10);
        page(&mut r, Action::PageDown);
        page(&mut r, Action::PageDown);
        assert_eq!(r.ply(), 25, "clamped at the end");
        page(&mut r, Action::ToStart);
        assert_eq!(r.ply(), 0);
        page(&mut r, Action::Move(Direction::Right));
        page(&mut r, Action::Move(Direction::Down));
        assert_eq!(r.ply(), 2);
        page(&mut r, Action::Move(Direction::Up));
        assert_eq!(r.ply(), 1);
        page(&mut r, Action::ToEnd);
        assert_eq!(r.ply(), 25);
        assert_eq!(Step::for_action(Action::Confirm), None);
        assert_eq!(Step::for_action(Action::Undo), None);
    }

    #[test]
    fn clicks_on_the_move_list_go_to_the_move_clicked() {
        // A panel of 30×22 at (50, 0): the list has a heading and 8 rows of two moves.
        let layout = ReviewLayout::new(Rect::new(50, 0, 30, 22), false, 0, 0, true);
        assert_eq!(layout.list.height, 9);
        let (x, y) = (layout.list.x, layout.list.y);
        let first_column = x + 3;
        let second_column = first_column + 11 + 1;
        let at_start = Review::new(40);
        let mut at = at_start.clone();
        at.go(Step::Start);
        // At the start the list shows moves 1 to 16 from its top.
        assert_eq!(layout.ply_at(&at, first_column, y + 1), Some(1));
        assert_eq!(layout.ply_at(&at, second_column, y + 1), Some(2));
        assert_eq!(layout.ply_at(&at, first_column + 5, y + 3), Some(5));
        assert_eq!(layout.ply_at(&at, x, y + 1), None, "the move number");
        assert_eq!(layout.ply_at(&at, first_column, y), None, "the heading");
        assert_eq!(
            layout.ply_at(&at, first_column, y + 9),
            None,
            "below the list"
        );
        assert_eq!(layout.ply_at(&at, 10, y + 1), None, "the board");
        // At the end the list shows the last rows: moves 25 to 40.
        assert_eq!(layout.ply_at(&at_start, first_column, y + 1), Some(25));
        assert_eq!(layout.ply_at(&at_start, second_column, y + 8), Some(40));
        // In the middle the ply's row is in the middle.
        at.go(Step::To(20));
        assert_eq!(layout.ply_at(&at, second_column, y + 4), Some(20));
        // A short game: no move past the last.
        let short = Review::new(3);
        assert_eq!(layout.ply_at(&short, second_column, y + 2), None);
        assert_eq!(layout.ply_at(&short, first_column, y + 2), Some(3));
    }

    #[test]
    fn the_graph_fits_between_the_ply_and_the_list_or_gives_way() {
        use crate::tui::layout::{GameLayout, wide_size};
        let panel = |w, h| GameLayout::new(Rect::new(0, 0, w, h)).unwrap().panel;
        let plain = ReviewLayout::new(panel(80, 24), false, 0, 0, true);
        assert_eq!(plain.graph, None, "no analysis, no graph");
        let layout = ReviewLayout::new(panel(80, 24), true, 0, 0, true);
        let graph = layout.graph.expect("a graph at 80×24");
        assert_eq!(layout.info.height, ANALYSED_INFO_ROWS);
        assert_eq!(graph.y, layout.info.bottom());
        assert_eq!(layout.list.y, graph.bottom());
        assert!(graph.height >= GRAPH_MIN_ROWS);
        assert!(layout.list.height > LIST_MIN_ROWS, "{layout:?}");
        assert_eq!(layout.list.bottom(), layout.frame.bottom() - 1);
        // The smallest terminal keeps the ply and a list, without the graph.
        let (w, h) = wide_size();
        let small = ReviewLayout::new(panel(w, h), true, 0, 0, true);
        assert_eq!(small.graph, None);
        assert_eq!(small.info.height, ANALYSED_INFO_ROWS);
        assert!(small.list.height >= 3, "{small:?}");
        // A tall terminal gives the graph more rows, up to its most.
        let tall = ReviewLayout::new(panel(200, 60), true, 0, 0, true);
        assert_eq!(tall.graph.map(|g| g.height), Some(GRAPH_MAX_ROWS));
        assert!(tall.list.height > GRAPH_MAX_ROWS);
        // A long comment (with the tags' header) is cut to leave the graph its rows at 80×24.
        let commented = ReviewLayout::new(panel(80, 24), true, 2, 12, true);
        assert!(commented.graph.is_some(), "{commented:?}");
        assert!(commented.comment_rows >= 1 && commented.comment_rows < 12);
        assert!(commented.list.height >= LIST_MIN_ROWS, "{commented:?}");
        // Without moves to graph, or where the graph does not fit anyway, it is whole.
        let ungraphed = ReviewLayout::new(panel(80, 24), true, 2, 12, false);
        assert_eq!(ungraphed.comment_rows, 12);
        let small = ReviewLayout::new(panel(w, h), true, 2, 5, true);
        assert_eq!(small.comment_rows, 5);
        // Clicks follow the list where the layout puts it.
        let review = Review::new(4);
        let (x, y) = (layout.list.x + 3, layout.list.y + 1);
        assert_eq!(layout.ply_at(&review, x, y), Some(1));
        assert_eq!(plain.ply_at(&review, x, y), None, "the graph's place");
    }
}
