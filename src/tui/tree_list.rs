//! The move list of a game with side lines, in review: the whole tree as text that flows
//! from row to row, each side line in brackets after the move it is played instead of
//! (`5. f6-f1?? (5. e6-d6 d3-f3 6. b2-e2) 5… d3-d2`), with the analysis' marks and
//! [`COMMENT_MARK`] before a move that has a comment (`5. ¶f6-f1??`). The move
//! shown is highlighted wherever it is, the rows scroll to keep it in view, and a click on
//! a move names its place in the tree.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::analysis_text::mark_span;
use super::theme::{Look, Themed};
use crate::game::{Fork, Game, Node, Place, PlyAnalysis};
use crate::rules::AnnotatedMove;

/// The mark before a move of a move list that has a comment.
pub const COMMENT_MARK: &str = "¶";

/// One move of the tree as the list writes it.
#[derive(Clone, Debug)]
struct Item<'a> {
    /// Where the move leads.
    place: Place,
    /// `12.` or `12…`, where the move needs its number.
    number: Option<String>,
    /// The move.
    played: AnnotatedMove,
    /// Whether it has a comment.
    commented: bool,
    /// Its analysis, if analyzed.
    analysis: Option<&'a PlyAnalysis>,
    /// Side lines opened before it (it is their first move).
    opens: usize,
    /// Side lines closed after it (it is their last move).
    closes: usize,
}

impl Item<'_> {
    /// Its text: brackets, number, move and mark.
    fn spans(&self, highlighted: bool, look: &Look) -> Vec<Span<'static>> {
        let theme = &look.theme;
        let mut spans = Vec::new();
        if self.opens > 0 {
            spans.push(Span::styled("(".repeat(self.opens), theme.label));
        }
        if let Some(number) = &self.number {
            spans.push(Span::styled(format!("{number} "), theme.label));
        }
        let style = if highlighted {
            theme.focus
        } else {
            ratatui::style::Style::new()
        };
        if self.commented {
            spans.push(Span::styled(COMMENT_MARK, theme.heading));
        }
        spans.push(Span::styled(self.played.to_string(), style));
        if let Some(analysis) = self.analysis {
            let mark = mark_span(analysis, look);
            // The highlight wins: the mark still shows by its characters.
            spans.push(Span::styled(mark.content, mark.style.patch(style)));
        }
        if self.closes > 0 {
            spans.push(Span::styled(")".repeat(self.closes), theme.label));
        }
        spans
    }

    /// Its width in columns.
    fn width(&self) -> usize {
        let number = self.number.as_ref().map_or(0, |n| n.chars().count() + 1);
        let mark = self.analysis.map_or(0, |a| a.mark().chars().count());
        let comment = if self.commented {
            COMMENT_MARK.chars().count()
        } else {
            0
        };
        self.opens + number + comment + self.played.to_string().chars().count() + mark + self.closes
    }
}

/// `12.` before an attackers' move (the move at `index` from 0, an even one), `12…` before
/// a defenders' one.
fn number(index: usize) -> String {
    let dots = if index.is_multiple_of(2) { "." } else { "…" };
    format!("{}{dots}", index / 2 + 1)
}

/// The moves of a game's tree in the order the list writes them.
#[derive(Clone, Debug)]
pub struct TreeList<'a> {
    items: Vec<Item<'a>>,
}

impl<'a> TreeList<'a> {
    /// The tree of `game`: its moves, each followed by the side lines played instead of it.
    pub fn of(game: &'a Game) -> TreeList<'a> {
        let mut list = TreeList { items: Vec::new() };
        let mut numbered = true;
        for (i, &played) in game.moves().iter().enumerate() {
            list.push(Item {
                place: Place::main(i + 1),
                number: (numbered || i.is_multiple_of(2)).then(|| number(i)),
                played,
                commented: game.comments().get(i).is_some_and(Option::is_some),
                analysis: game.analysis().get(i).and_then(Option::as_ref),
                opens: 0,
                closes: 0,
            });
            numbered = false;
            for (k, side) in game.side_lines().get(i).into_iter().flatten().enumerate() {
                let forks = vec![Fork { at: i, line: k }];
                list.side_line(&forks, i, side.nodes());
                numbered = true;
            }
        }
        list
    }

    fn push(&mut self, item: Item<'a>) {
        self.items.push(item);
    }

    /// The side line through `forks`, whose first move is the game's move at `first` (from
    /// 0): its moves in brackets, each followed by the side lines played instead of it.
    fn side_line(&mut self, forks: &[Fork], first: usize, nodes: &'a [Node]) {
        let mut numbered = true;
        for (j, node) in nodes.iter().enumerate() {
            let index = first + j;
            self.push(Item {
                place: Place::new(forks.to_vec(), j + 1),
                number: (numbered || index.is_multiple_of(2)).then(|| number(index)),
                played: node.played(),
                commented: node.comment().is_some(),
                analysis: node.analysis(),
                opens: usize::from(j == 0),
                closes: 0,
            });
            numbered = false;
            for (k, side) in node.sides().iter().enumerate() {
                let mut deeper = forks.to_vec();
                deeper.push(Fork { at: j, line: k });
                self.side_line(&deeper, index, side.nodes());
                numbered = true;
            }
        }
        if !nodes.is_empty()
            && let Some(last) = self.items.last_mut()
        {
            last.closes += 1;
        }
    }

    /// The items on each row of `width` columns: (index, column from the left), the items
    /// a space apart, as many on a row as fit (one at least).
    fn rows(&self, width: usize) -> Vec<Vec<(usize, usize)>> {
        let mut rows: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut x = 0;
        for (i, item) in self.items.iter().enumerate() {
            let w = item.width();
            match rows.last_mut() {
                Some(row) if x + 1 + w <= width => {
                    row.push((i, x + 1));
                    x += 1 + w;
                }
                _ => {
                    rows.push(vec![(i, 0)]);
                    x = w;
                }
            }
        }
        rows
    }

    /// The list drawn in `area` with the move leading to `current` highlighted: scrolled so
    /// that its row is in the middle, as far as the ends allow.
    pub fn view(&'a self, area: Rect, current: Option<&Place>) -> TreeListView<'a> {
        let highlighted = current.and_then(|c| self.items.iter().position(|i| &i.place == c));
        let rows = self.rows(usize::from(area.width));
        let visible = usize::from(area.height.saturating_sub(1));
        let row = highlighted
            .and_then(|h| rows.iter().position(|r| r.iter().any(|&(i, _)| i == h)))
            .unwrap_or(0);
        let top = row
            .saturating_sub(visible.saturating_sub(1) / 2)
            .min(rows.len().saturating_sub(visible));
        TreeListView {
            list: self,
            area,
            rows,
            top,
            highlighted,
        }
    }
}

/// The tree list laid out in an area: a heading, then its rows from `top` on.
pub struct TreeListView<'a> {
    list: &'a TreeList<'a>,
    area: Rect,
    rows: Vec<Vec<(usize, usize)>>,
    top: usize,
    highlighted: Option<usize>,
}

impl TreeListView<'_> {
    /// The rows shown, with their screen row.
    fn shown(&self) -> impl Iterator<Item = (u16, &Vec<(usize, usize)>)> {
        let visible = usize::from(self.area.height.saturating_sub(1));
        (self.area.y + 1..)
            .zip(self.rows.iter().skip(self.top))
            .take(visible)
    }

    /// The place of the move drawn at the screen cell (`column`, `row`), if any.
    pub fn place_at(&self, column: u16, row: u16) -> Option<Place> {
        if !self
            .area
            .contains(ratatui::layout::Position::new(column, row))
        {
            return None;
        }
        let x = usize::from(column - self.area.x);
        let (_, items) = self.shown().find(|&(y, _)| y == row)?;
        items
            .iter()
            .find(|&&(i, left)| left <= x && x < left + self.list.items[i].width())
            .map(|&(i, _)| self.list.items[i].place.clone())
    }
}

impl Widget for Themed<'_, TreeListView<'_>> {
    /// Draws the heading (`Moves`, with arrows where rows are hidden above or below), then
    /// the rows.
    fn render(self, _area: Rect, buf: &mut Buffer) {
        let Themed { of: view, look } = self;
        let area = view.area;
        if area.height < 2 {
            return;
        }
        let visible = usize::from(area.height - 1);
        let heading = format!(
            "Moves and side lines{}{}",
            if view.top > 0 { " ↑" } else { "" },
            if view.top + visible < view.rows.len() {
                " ↓"
            } else {
                ""
            }
        );
        Line::styled(heading, look.theme.heading).render(Rect { height: 1, ..area }, buf);
        for (y, items) in view.shown() {
            let mut spans = Vec::new();
            let mut x = 0;
            for &(i, left) in items {
                spans.push(Span::raw(" ".repeat(left - x)));
                let item = &view.list.items[i];
                spans.extend(item.spans(view.highlighted == Some(i), look));
                x = left + item.width();
            }
            Line::from(spans).render(
                Rect {
                    y,
                    height: 1,
                    ..area
                },
                buf,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The escape game with a side line at its second move, two moves long, and one inside
    /// it at its second move.
    fn tree() -> Game {
        let mut game = Game::from_json(include_str!("../../assets/games/escape.json")).unwrap();
        let side = game
            .play_at(&Place::main(1), "c4-c6".parse().unwrap())
            .unwrap();
        let side = game.play_at(&side, "d2-b2".parse().unwrap()).unwrap();
        game.play_at(&side.with_ply(1), "d2-e2".parse().unwrap())
            .unwrap();
        game
    }

    /// The rows as text.
    fn text(view: &TreeListView) -> Vec<String> {
        view.rows
            .iter()
            .map(|row| {
                let mut line = String::new();
                for &(i, left) in row {
                    let item = &view.list.items[i];
                    line.push_str(&" ".repeat(left - line.chars().count()));
                    let spans = item.spans(false, &Look::default());
                    line.extend(spans.iter().map(|s| s.content.as_ref()));
                }
                line
            })
            .collect()
    }

    #[test]
    fn side_lines_are_bracketed_after_the_move_they_replace() {
        let game = tree();
        let list = TreeList::of(&game);
        let view = list.view(Rect::new(0, 0, 200, 10), None);
        let all = text(&view).join("\n");
        assert!(
            all.starts_with("1. d7-f7 d5-c5 (1… c4-c6 2. d2-b2 (2. d2-e2)) 2. f4-f3 "),
            "{all}"
        );
        // Narrow, it wraps between moves, never inside one.
        let narrow = list.view(Rect::new(0, 0, 22, 10), None);
        for row in text(&narrow) {
            assert!(row.chars().count() <= 22, "{row}");
        }
    }

    #[test]
    fn commented_moves_are_marked_on_the_main_line_and_in_side_lines() {
        let mut game = tree();
        game.set_comment(0, Some("opening".into()));
        let nested = Place::new(vec![Fork { at: 1, line: 0 }, Fork { at: 1, line: 0 }], 1);
        assert!(game.set_comment_at(&nested, Some("why not".into())));
        let list = TreeList::of(&game);
        let view = list.view(Rect::new(0, 0, 200, 10), None);
        let all = text(&view).join("\n");
        assert!(
            all.starts_with("1. ¶d7-f7 d5-c5 (1… c4-c6 2. d2-b2 (2. ¶d2-e2)) 2. f4-f3 "),
            "{all}"
        );
    }

    #[test]
    fn the_move_shown_is_highlighted_kept_in_view_and_clicked_back() {
        let game = tree();
        let list = TreeList::of(&game);
        let area = Rect::new(10, 5, 22, 5);
        let nested = Place::new(vec![Fork { at: 1, line: 0 }, Fork { at: 1, line: 0 }], 1);
        let at_end = Place::main(game.moves().len());
        for current in [Place::main(1), nested.clone(), at_end] {
            let view = list.view(area, Some(&current));
            let h = view.highlighted.expect("highlighted");
            assert_eq!(view.list.items[h].place, current);
            // Its row is on screen, and a click on it names its place.
            let (y, items) = view
                .shown()
                .find(|(_, r)| r.iter().any(|&(i, _)| i == h))
                .expect("in view");
            let left = items.iter().find(|&&(i, _)| i == h).unwrap().1;
            let x = area.x + u16::try_from(left + view.list.items[h].width() - 1).unwrap();
            assert_eq!(view.place_at(x, y), Some(current.clone()));
        }
        let view = list.view(area, None);
        assert_eq!(view.place_at(area.x, area.y), None, "the heading");
        assert_eq!(view.place_at(area.x + 30, area.y + 1), None, "beside it");
    }
}
