//! The evaluation graph of a whole game: the score of every analyzed position from the
//! attackers' side (their advantage above the axis, the defenders' below), one column per
//! position or less, with the reviewed position's column highlighted.
//!
//! Scores are capped as the classes cap them ([`THRESHOLDS`]: a forced win is drawn at the
//! edge) and drawn on a scale that flattens towards the edges, so that the usual evaluations of
//! a few soldiers are not lost beside the wins and losses.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Widget};

use super::theme::Themed;
use crate::game::{PlyAnalysis, Score, THRESHOLDS};
use crate::rules::{Piece, Side};

/// The score drawn halfway to the edge, in the evaluation's units.
const HALFWAY: f64 = 250.0;

/// The points of a dataset: (ply, height).
type Points = Vec<(f64, f64)>;

/// The graph of a game's analysis.
pub struct EvalGraph<'a> {
    /// The side that made the first move.
    pub first: Side,
    /// The analysis of each move (`None` where a move is not analyzed).
    pub analysis: &'a [Option<PlyAnalysis>],
    /// The position highlighted: the number of moves played to reach it.
    pub ply: usize,
}

impl EvalGraph<'_> {
    /// The side that moves in the position after `ply` moves.
    fn to_move(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            self.first.opponent()
        }
    }

    /// The score of the position after `ply` moves, for the attackers, if it is analyzed: the
    /// score before the next move, or after the last one.
    pub fn score(&self, ply: usize) -> Option<Score> {
        let for_attackers = |side: Side, score: Score| match side {
            Side::Attackers => score,
            Side::Defenders => score.negated(),
        };
        let before = self.analysis.get(ply).and_then(Option::as_ref);
        let after = ply
            .checked_sub(1)
            .and_then(|previous| self.analysis.get(previous)?.as_ref());
        match (before, after) {
            (Some(next), _) => Some(for_attackers(self.to_move(ply), next.score_before)),
            (None, Some(last)) => Some(for_attackers(
                self.to_move(ply).opponent(),
                last.score_after,
            )),
            (None, None) => None,
        }
    }

    /// The height of a score on the graph, from -1 (the defenders win) to 1 (the attackers
    /// win).
    pub fn height(score: Score) -> f64 {
        let cap = f64::from(THRESHOLDS.cap);
        let value = f64::from(score.value()).clamp(-cap, cap);
        value * (cap + HALFWAY) / (cap * (value.abs() + HALFWAY))
    }

    /// The column of `area` where the position after `ply` of `plies` moves is drawn.
    fn column(area: Rect, ply: usize, plies: usize) -> u16 {
        if plies == 0 {
            return area.x;
        }
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let offset =
            (ply as f64 * f64::from(area.width.saturating_sub(1)) / plies as f64).round() as u16;
        area.x + offset
    }

    /// The position (the number of moves played to reach it) drawn at the screen cell
    /// (`column`, `row`) of the graph of `plies` moves drawn in `area`, if the cell is on its
    /// scores: the nearest column's.
    pub fn ply_at(area: Rect, plies: usize, column: u16, row: u16) -> Option<usize> {
        let graph = EvalGraph::scores_area(area)?;
        if !graph.contains(ratatui::layout::Position::new(column, row)) {
            return None;
        }
        let span = usize::from(graph.width - 1);
        if span == 0 {
            return Some(0);
        }
        let offset = usize::from(column - graph.x);
        // The inverse of [`EvalGraph::column`], rounded to the nearest ply.
        Some(((offset * plies * 2 + span) / (span * 2)).min(plies))
    }

    /// Where the scores are drawn in `area`: right of the column of labels; `None` if the
    /// area is too small to draw the graph.
    fn scores_area(area: Rect) -> Option<Rect> {
        (area.width >= 3 && area.height > 0).then(|| Rect {
            x: area.x + 2,
            width: area.width - 2,
            ..area
        })
    }
}

impl Widget for Themed<'_, EvalGraph<'_>> {
    /// Draws the graph in `area`: a column of labels (the attackers' glyph at the top, the
    /// king's at the bottom), then the scores.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let Some(graph) = EvalGraph::scores_area(area) else {
            return;
        };
        let theme = &look.theme;
        buf.set_string(
            area.x,
            area.y,
            look.glyphs.attacker,
            theme.chip(Piece::Attacker),
        );
        buf.set_string(
            area.x,
            area.bottom() - 1,
            look.glyphs.king,
            theme.chip(Piece::King),
        );
        // The axis, under what the scores cover.
        let middle = graph.y + graph.height / 2;
        for x in graph.left()..graph.right() {
            buf[(x, middle)].set_symbol("─").set_style(theme.label);
        }
        let plies = of.analysis.len();
        let points: Vec<Option<(f64, f64)>> = (0..=plies)
            .map(|ply| {
                #[allow(clippy::cast_precision_loss)]
                of.score(ply).map(|s| (ply as f64, EvalGraph::height(s)))
            })
            .collect();
        // One pair of datasets for each run of analyzed positions: the attackers' side of the
        // axis and the defenders'.
        let runs: Vec<(Points, Points)> = points
            .split(Option::is_none)
            .filter(|run| !run.is_empty())
            .map(|run| {
                let run = run.iter().flatten();
                (
                    run.clone().map(|&(x, y)| (x, y.max(0.0))).collect(),
                    run.map(|&(x, y)| (x, y.min(0.0))).collect(),
                )
            })
            .collect();
        let side = |data, style: Style| {
            Dataset::default()
                .marker(Marker::HalfBlock)
                .graph_type(GraphType::Area)
                .fill_to_y(0.0)
                .style(style)
                .data(data)
        };
        let datasets = runs
            .iter()
            .flat_map(|(above, below)| [side(above, theme.label), side(below, theme.heading)])
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let right = plies.max(1) as f64;
        Chart::new(datasets)
            .x_axis(Axis::default().bounds([0.0, right]))
            .y_axis(Axis::default().bounds([-1.0, 1.0]))
            .render(graph, buf);
        let highlight = match theme.focus.bg {
            Some(bg) => Style::new().bg(bg),
            None => theme.focus,
        };
        let x = EvalGraph::column(graph, of.ply.min(plies), plies);
        buf.set_style(
            Rect {
                x,
                width: 1,
                ..graph
            },
            highlight,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnnotatedMove, Bitboard};
    use crate::tui::theme::Look;

    fn ply(before: Score, after: Score) -> PlyAnalysis {
        let best = AnnotatedMove {
            mv: "d2-c2".parse().unwrap(),
            captured: Bitboard::EMPTY,
            mark: None,
        };
        PlyAnalysis {
            score_before: before,
            score_after: after,
            best,
            pv: vec![best],
            class: crate::game::classify(before, after, false),
            only_move: false,
            depth: 3,
        }
    }

    #[test]
    fn every_position_is_scored_for_the_attackers() {
        // The attackers move first, at +40 for them; the defenders then stand at +30 (-30 for
        // the attackers); the third position, whose move is not analyzed, is scored after the
        // second move: -60 for the defenders, +60 for the attackers; the defenders' last move
        // wins.
        let analysis = [
            Some(ply(Score::Eval(40), Score::Eval(-30))),
            Some(ply(Score::Eval(30), Score::Eval(-60))),
            None,
            Some(ply(Score::Win(1), Score::Win(0))),
        ];
        let graph = EvalGraph {
            first: Side::Attackers,
            analysis: &analysis,
            ply: 0,
        };
        let scores: Vec<Option<Score>> = (0..=4).map(|p| graph.score(p)).collect();
        assert_eq!(
            scores,
            [
                Some(Score::Eval(40)),
                Some(Score::Eval(-30)),
                Some(Score::Eval(60)),
                Some(Score::Loss(1)),
                Some(Score::Loss(0)),
            ]
        );
        assert_eq!(graph.score(5), None);
        let defenders_first = EvalGraph {
            first: Side::Defenders,
            ..graph
        };
        assert_eq!(defenders_first.score(0), Some(Score::Eval(-40)));
        assert_eq!(defenders_first.score(4), Some(Score::Win(0)));
        let gap = [None, Some(ply(Score::Eval(5), Score::Eval(5)))];
        let graph = EvalGraph {
            analysis: &gap,
            ..graph
        };
        assert_eq!(graph.score(0), None);
    }

    #[test]
    fn heights_grow_with_the_score_and_stop_at_the_edges() {
        let h = |v| EvalGraph::height(Score::Eval(v));
        assert!(h(0).abs() < 1e-9);
        assert!((h(250) - 0.5 * 1250.0 / 1000.0).abs() < 1e-9);
        assert!(0.0 < h(50) && h(50) < h(100) && h(100) < h(300) && h(300) < 1.0);
        assert!((h(1000) - 1.0).abs() < 1e-9);
        assert!((EvalGraph::height(Score::Win(3)) - 1.0).abs() < 1e-9);
        assert!((EvalGraph::height(Score::Loss(0)) + 1.0).abs() < 1e-9);
        assert!((h(-120) + h(120)).abs() < 1e-9);
    }

    #[test]
    fn the_reviewed_position_is_highlighted_where_it_is_drawn() {
        let analysis: Vec<Option<PlyAnalysis>> = (0..10)
            .map(|i| Some(ply(Score::Eval(20 * i), Score::Eval(-20 * i - 10))))
            .collect();
        let look = Look::default();
        let area = Rect::new(0, 0, 24, 5);
        for reviewed in [0, 4, 10] {
            let mut buf = Buffer::empty(area);
            let graph = EvalGraph {
                first: Side::Attackers,
                analysis: &analysis,
                ply: reviewed,
            };
            Themed {
                of: &graph,
                look: &look,
            }
            .render(area, &mut buf);
            let focus = look.theme.focus.bg.unwrap();
            let columns: Vec<u16> = (0..area.width)
                .filter(|&x| (0..area.height).all(|y| buf[(x, y)].bg == focus))
                .collect();
            let graph = Rect::new(2, 0, 22, 5);
            assert_eq!(columns, [EvalGraph::column(graph, reviewed, 10)]);
        }
        assert_eq!(EvalGraph::column(Rect::new(2, 0, 22, 5), 0, 10), 2);
        assert_eq!(EvalGraph::column(Rect::new(2, 0, 22, 5), 10, 10), 23);
    }

    #[test]
    fn a_click_on_a_column_names_the_position_drawn_there() {
        let area = Rect::new(40, 10, 24, 5);
        let scores = Rect::new(42, 10, 22, 5);
        for plies in [1, 7, 10, 40] {
            for ply in 0..=plies {
                let x = EvalGraph::column(scores, ply, plies);
                let found = EvalGraph::ply_at(area, plies, x, 12).unwrap();
                // Several plies may share a column: the one found is drawn there.
                assert_eq!(EvalGraph::column(scores, found, plies), x, "{ply}/{plies}");
                if plies <= 21 {
                    assert_eq!(found, ply);
                }
            }
        }
        assert_eq!(EvalGraph::ply_at(area, 10, 40, 12), None, "the labels");
        assert_eq!(EvalGraph::ply_at(area, 10, 45, 9), None, "above");
        assert_eq!(EvalGraph::ply_at(area, 10, 45, 15), None, "below");
        assert_eq!(EvalGraph::ply_at(area, 10, 64, 12), None, "right of it");
        assert_eq!(EvalGraph::ply_at(area, 0, 50, 12), Some(0), "no moves");
    }
}
