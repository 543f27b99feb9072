//! When a search with time to spare has thought enough: with a target time (main time on a
//! clock, where time not used now is there for later moves), the search plays once its best
//! move has settled and the next depth would likely end past the target; a best move that
//! keeps changing, or a score that falls, earns more time. The hard bound is the caller's.

use std::time::Duration;

use super::engine::SearchInfo;
use crate::game::Score;
use crate::rules::Move;

/// The share of the target past which another depth is not begun: each depth takes about as
/// long as all the depths before it, so one begun later would likely end past the target.
const NEXT_DEPTH_SHARE: f64 = 0.5;
/// A fall of the score between depths at least this large (hundredths of a soldier) means
/// trouble seen late: the search gets more time.
const FALL: i32 = 40;

/// Follows the completed depths of one search and says when to stop it. It reads no clock:
/// its time is the `elapsed` of the reports it is given, so a test decides it by the reports
/// it writes.
#[derive(Clone, Debug)]
pub struct Pacer {
    target: Duration,
    best: Option<Move>,
    /// Completed depths in a row that kept the best move.
    settled: u32,
    score: Option<Score>,
}

impl Pacer {
    /// A pacer for a search that should take about `target` (a move's target on main time,
    /// as [`move_budget`](crate::game::move_budget) gives it for any clock).
    pub const fn new(target: Duration) -> Pacer {
        Pacer {
            target,
            best: None,
            settled: 0,
            score: None,
        }
    }

    /// Takes in a progress report of the search; says whether it should stop now and play
    /// its best move. Reports of unfinished depths change nothing.
    pub fn enough(&mut self, info: &SearchInfo) -> bool {
        if info.partial {
            return false;
        }
        let best = info.pv.first().copied();
        if best == self.best {
            self.settled += 1;
        } else {
            self.best = best;
            self.settled = 0;
        }
        let falling = match (self.score, info.score) {
            (Some(Score::Eval(before)), Score::Eval(now)) => before - now >= FALL,
            (Some(before), now) => now.is_loss() && !before.is_loss(),
            (None, _) => false,
        };
        self.score = Some(info.score);
        let mut scale = match self.settled {
            0 => 1.5,
            1 => 1.2,
            2 | 3 => 1.0,
            _ => 0.75,
        };
        if falling {
            scale *= 1.5;
        }
        info.elapsed.as_secs_f64() >= self.target.as_secs_f64() * scale * NEXT_DEPTH_SHARE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    fn report(depth: u32, best: (&str, &str), score: Score, elapsed_ms: u64) -> SearchInfo {
        let square = |s: &str| s.parse::<Square>().unwrap();
        SearchInfo {
            depth,
            score,
            nodes: 0,
            nps: 0,
            elapsed: Duration::from_millis(elapsed_ms),
            pv: vec![Move::new(square(best.0), square(best.1))],
            partial: false,
        }
    }

    const A: (&str, &str) = ("d2", "c2");
    const B: (&str, &str) = ("d6", "e6");

    #[test]
    fn a_settled_best_move_stops_the_search_early() {
        let mut pacer = Pacer::new(Duration::from_secs(1));
        // Half the target is the bar once settled for two or three depths; 0.375 after four.
        assert!(!pacer.enough(&report(1, A, Score::Eval(10), 100)));
        assert!(!pacer.enough(&report(2, A, Score::Eval(10), 200)));
        assert!(!pacer.enough(&report(3, A, Score::Eval(10), 300)));
        assert!(!pacer.enough(&report(4, A, Score::Eval(10), 360)));
        assert!(pacer.enough(&report(5, A, Score::Eval(10), 380)));
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_earns_more_time() {
        let target = Duration::from_secs(1);
        let mut settled = Pacer::new(target);
        let mut changing = Pacer::new(target);
        let mut falling = Pacer::new(target);
        for (depth, elapsed) in [(1, 100), (2, 200), (3, 300)] {
            settled.enough(&report(depth, A, Score::Eval(10), elapsed));
            changing.enough(&report(depth, A, Score::Eval(10), elapsed));
            falling.enough(&report(depth, A, Score::Eval(10), elapsed));
        }
        assert!(settled.enough(&report(4, A, Score::Eval(10), 600)));
        // A new best move: 0.75 of the target.
        assert!(!changing.enough(&report(4, B, Score::Eval(10), 600)));
        assert!(changing.enough(&report(5, B, Score::Eval(10), 760)));
        // The same move, its score down by 40: 0.75 too.
        assert!(!falling.enough(&report(4, A, Score::Eval(-30), 600)));
        let mut lost = Pacer::new(target);
        lost.enough(&report(1, A, Score::Win(9), 100));
        assert!(!lost.enough(&report(2, A, Score::Loss(8), 600)));
    }

    #[test]
    fn unfinished_depths_are_ignored() {
        let mut pacer = Pacer::new(Duration::from_millis(100));
        let mut info = report(3, A, Score::Eval(0), 5000);
        info.partial = true;
        assert!(!pacer.enough(&info));
        info.partial = false;
        assert!(pacer.enough(&info));
    }
}
