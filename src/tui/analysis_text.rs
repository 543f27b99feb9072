//! The analysis as the terminal game shows it: budgets and times in words, the progress bar of
//! an analysis under way, the marks and classes of moves, a side's summary. The analysis
//! itself comes from the library ([`crate::ai::Analyzer`], [`PlyAnalysis`], [`SideSummary`]);
//! nothing here computes it.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{LineGauge, Widget};

use super::theme::{Look, Themed};
use crate::ai::{Budget, Progress};
use crate::game::{MoveClass, PlyAnalysis, SideSummary};

/// A duration for people: `0.1 s`, `2.5 s`, `13 s`, `1 min 40 s`, `2 min`.
pub fn duration_text(duration: Duration) -> String {
    let tenths = (duration.as_millis() + 50) / 100;
    if tenths < 100 {
        let text = format!("{}.{}", tenths / 10, tenths % 10);
        return format!("{} s", text.trim_end_matches(".0"));
    }
    let seconds = (tenths + 5) / 10;
    match (seconds / 60, seconds % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// A budget's limits per position in words: `0.1 s`, `depth 4`, `depth 4, 0.5 s`.
pub fn budget_text(budget: Budget) -> String {
    let limits = budget.limits();
    let parts: Vec<String> = [
        limits.depth.map(|depth| format!("depth {depth}")),
        limits.nodes.map(|nodes| format!("{nodes} nodes")),
        limits.time.map(duration_text),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "no limit".to_owned()
    } else {
        parts.join(", ")
    }
}

/// An analysis under way: its budget and how far it has come.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Underway {
    /// The budget of each position.
    pub budget: Budget,
    /// Positions searched so far, of all.
    pub progress: Progress,
}

impl Underway {
    /// `analyzing (quick) 12/41 positions · 2.9 s left · Esc cancels`: the time left is what
    /// the budget allows for the positions left (proven positions take less).
    pub fn label(&self) -> String {
        let Progress { done, total } = self.progress;
        let left = self
            .budget
            .time_for(total.saturating_sub(done))
            .map(|t| format!(" · {} left", duration_text(t)))
            .unwrap_or_default();
        format!(
            "analyzing ({}) {done}/{total} positions{left} · Esc cancels",
            self.budget.name()
        )
    }
}

impl Widget for Themed<'_, Underway> {
    /// Draws the progress bar, its label first, in the one row of `area`.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let Progress { done, total } = of.progress;
        #[allow(clippy::cast_precision_loss)]
        let ratio = if total == 0 {
            0.0
        } else {
            (done as f64 / total as f64).min(1.0)
        };
        LineGauge::default()
            .label(Line::styled(of.label(), look.theme.heading))
            .ratio(ratio)
            .filled_symbol("━")
            .unfilled_symbol("─")
            .filled_style(look.theme.heading)
            .unfilled_style(look.theme.label)
            .render(area, buf);
    }
}

/// The style of a class's name and mark: `blunder` as an error, `mistake` as a heading,
/// `inaccuracy` as a label, `best` as something done well, `good` plain.
pub const fn class_style(class: MoveClass, look: &Look) -> Style {
    match class {
        MoveClass::Best => look.theme.good,
        MoveClass::Good => Style::new(),
        MoveClass::Inaccuracy => look.theme.label,
        MoveClass::Mistake => look.theme.heading,
        MoveClass::Blunder => look.theme.error,
    }
}

/// A move's mark (`!`, `?!`, `?`, `??` or nothing) in its style.
pub fn mark_span(ply: &PlyAnalysis, look: &Look) -> Span<'static> {
    let style = if ply.only_move {
        look.theme.good
    } else {
        class_style(ply.class, look)
    };
    Span::styled(ply.mark(), style)
}

/// `1?! 0? 2?? · avg 202`: a side's inaccuracies, mistakes and blunders, and its average loss
/// per move; `not analyzed` before any of its moves is.
pub fn summary_spans(summary: &SideSummary, look: &Look) -> Vec<Span<'static>> {
    let Some(average) = summary.average_loss() else {
        return vec![Span::styled("not analyzed", look.theme.label)];
    };
    let count = |n: usize, class: MoveClass| {
        [
            Span::raw(n.to_string()),
            Span::styled(class.mark(), class_style(class, look)),
            Span::raw(" "),
        ]
    };
    let mut spans = Vec::new();
    spans.extend(count(summary.inaccuracies, MoveClass::Inaccuracy));
    spans.extend(count(summary.mistakes, MoveClass::Mistake));
    spans.extend(count(summary.blunders, MoveClass::Blunder));
    spans.push(Span::styled(
        format!("· avg {average:.0}"),
        look.theme.label,
    ));
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Limits;

    #[test]
    fn durations_read_as_people_say_them() {
        let ms = Duration::from_millis;
        let texts = [
            ms(0),
            ms(100),
            ms(2_500),
            ms(9_960),
            ms(13_000),
            ms(100_000),
            ms(120_000),
        ]
        .map(duration_text);
        assert_eq!(
            texts,
            [
                "0 s",
                "0.1 s",
                "2.5 s",
                "10 s",
                "13 s",
                "1 min 40 s",
                "2 min"
            ]
        );
    }

    #[test]
    fn budgets_and_progress_in_words() {
        assert_eq!(budget_text(Budget::Quick), "0.1 s");
        assert_eq!(budget_text(Budget::Deep), "2 s");
        assert_eq!(budget_text(Budget::Limits(Limits::depth(4))), "depth 4");
        let underway = Underway {
            budget: Budget::Normal,
            progress: Progress { done: 5, total: 25 },
        };
        assert_eq!(
            underway.label(),
            "analyzing (normal) 5/25 positions · 10 s left · Esc cancels"
        );
        let custom = Underway {
            budget: Budget::Limits(Limits::depth(3)),
            ..underway
        };
        assert_eq!(
            custom.label(),
            "analyzing (custom) 5/25 positions · Esc cancels"
        );
    }

    #[test]
    fn the_bar_fills_with_the_positions_done() {
        let look = Look::default();
        let area = Rect::new(0, 0, 80, 1);
        let filled = |done| {
            let mut buf = Buffer::empty(area);
            let underway = Underway {
                budget: Budget::Quick,
                progress: Progress { done, total: 10 },
            };
            Themed {
                of: &underway,
                look: &look,
            }
            .render(area, &mut buf);
            buf.content().iter().filter(|c| c.symbol() == "━").count()
        };
        let (none, half, all) = (filled(0), filled(5), filled(10));
        assert_eq!(none, 0);
        assert!(0 < half && half < all, "{half} of {all}");
    }
}
