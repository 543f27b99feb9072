//! The trainer's judgement, by exact search: whether a move keeps the puzzle's goal within
//! the moves left, the other side's longest resistance, and why a wrong move is wrong.

use super::record::Goal;
use super::solve::Solver;
use crate::rules::{GameState, Move, Outcome, Reason};

/// The furthest a refutation is looked for, in moves of the side that refutes.
const REFUTATION_MOVES: u8 = 3;

/// What a move in a puzzle comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The goal is reached: the game won, or (for a hold) the move that keeps it.
    Solved,
    /// The move keeps the win within the moves left; the other side answers with `reply`,
    /// its longest resistance.
    Good {
        /// The other side's answer.
        reply: Move,
    },
    /// The move loses the goal: why, in words.
    Wrong {
        /// "this lets the king reach g7 in 3", or what holds against it.
        why: String,
        /// The line that shows it, the other side's move first.
        refutation: Vec<Move>,
    },
}

/// Judges `mv` by the side to move in `state`, which should reach `goal` within `moves` of
/// its own moves (this one included).
pub fn judge(solver: &mut Solver, state: &GameState, mv: Move, goal: Goal, moves: u8) -> Verdict {
    let player = state.position().side_to_move();
    let mut after = state.clone();
    if after.play(mv).is_err() {
        return Verdict::Wrong {
            why: format!("{mv} is not a legal move"),
            refutation: Vec::new(),
        };
    }
    let keeps = match goal {
        Goal::Win => solver.move_wins_within(state, mv, moves),
        Goal::Hold => after.outcome().map_or_else(
            || !solver.wins_within(&after, moves),
            |o| o.winner != Some(player.opponent()),
        ),
    };
    if !keeps {
        return wrong(solver, &after, moves);
    }
    if goal == Goal::Hold || after.is_over() {
        return Verdict::Solved;
    }
    let resistance = solver.longest_resistance(&after, moves - 1);
    resistance
        .replies
        .first()
        .map_or(Verdict::Solved, |&reply| Verdict::Good { reply })
}

/// Why the move that led to `after` loses the goal of reaching it within `moves`.
fn wrong(solver: &mut Solver, after: &GameState, moves: u8) -> Verdict {
    if let Some(outcome) = after.outcome() {
        return Verdict::Wrong {
            why: format!("this ends the game: {}", outcome_words(outcome, None)),
            refutation: Vec::new(),
        };
    }
    if let Some(n) = solver.shortest_win(after, REFUTATION_MOVES) {
        let line = winning_line(solver, after, n);
        let mut end = after.clone();
        for &m in &line {
            end.play_unchecked(m);
        }
        let last = line.last().copied();
        let words = end
            .outcome()
            .map_or_else(String::new, |o| outcome_words(o, last));
        return Verdict::Wrong {
            why: format!("this lets {words} in {n}"),
            refutation: line,
        };
    }
    let left = moves.saturating_sub(1);
    if left == 0 {
        return Verdict::Wrong {
            why: "this does not end the game".to_owned(),
            refutation: Vec::new(),
        };
    }
    let reply = solver
        .longest_resistance(after, left)
        .replies
        .first()
        .copied();
    Verdict::Wrong {
        why: reply.map_or_else(
            || "no win is left".to_owned(),
            |r| {
                let left = if left == 1 {
                    "the move left".to_owned()
                } else {
                    format!("the {left} moves left")
                };
                format!("{r} holds: no win is forced in {left}")
            },
        ),
        refutation: reply.into_iter().collect(),
    }
}

/// The main line of a forced win in `n` for the side to move: its first winning move, the
/// longest resistance, and so on to the end.
pub fn winning_line(solver: &mut Solver, state: &GameState, n: u8) -> Vec<Move> {
    let mut line = Vec::new();
    let mut work = state.clone();
    for left in (1..=n).rev() {
        let Some(&first) = solver.winning_moves(&work, left).first() else {
            break;
        };
        work.play_unchecked(first);
        line.push(first);
        if work.is_over() {
            break;
        }
        let Some(&reply) = solver.longest_resistance(&work, left - 1).replies.first() else {
            break;
        };
        work.play_unchecked(reply);
        line.push(reply);
        if work.is_over() {
            break;
        }
    }
    line
}

/// The end of a game in a player's words: "the king reach g7", "the attackers take the king
/// by e2-e5"; `last` is the move that ended it.
fn outcome_words(outcome: Outcome, last: Option<Move>) -> String {
    match (outcome.winner, outcome.reason) {
        (_, Reason::KingEscaped) => match last {
            Some(mv) => format!("the king reach {}", mv.to()),
            None => "the king escape".to_owned(),
        },
        (_, Reason::KingCaptured) => match last {
            Some(mv) => format!("the attackers take the king by {mv}"),
            None => "the attackers take the king".to_owned(),
        },
        (Some(side), Reason::Encircled) => format!("the {side} encircle the defenders"),
        (Some(side), Reason::NoMoves) => format!("the {side} leave no move"),
        (Some(side), _) => format!("the {side} win"),
        (None, _) => "a draw".to_owned(),
    }
}
