//! OpenTafl's puzzle records and ours: an `.otg` game record with a `puzzle-mode` tag
//! (`loose` or `strict`) is a puzzle at the position its `puzzle-start` tag names, and is
//! read as one of ours; ours are written back so.
//!
//! `puzzle-start` (and `puzzle-prestart`) name a move of the main line (`2b`: turn 2, its
//! second move): the puzzle's position is the one after it, `0a` (or no tag) the record's
//! start. The solution is the main line's next move. Without our own tags the goal is a win:
//! the main line from there must end with the side to play winning on the board, and the
//! puzzle's length is that side's moves to it; the engine grades it. Our export adds tags
//! of its own (`puzzle-goal`, `puzzle-id`, `puzzle-grade`, ...; OpenTafl keeps or ignores
//! unknown tags) so that a puzzle reads back whole. Every puzzle read is verified by the
//! exact solver.

use std::fmt::{self, Write as _};

use super::coach::winning_line;
use super::generate::{grade, grader};
use super::record::{Difficulty, Goal, Grade, Puzzle, PuzzleError, stored_position};
use super::solve::Solver;
use crate::game::{Game, LoadError, Player, import};
use crate::quote::excerpt;
use crate::rules::{GameState, Reason};

/// Why a file gives no puzzle, or a puzzle no record.
#[derive(Debug)]
pub enum OtgPuzzleError {
    /// Not a game record we read.
    Record(LoadError),
    /// No `puzzle-mode` tag, or `none`.
    NotAPuzzle,
    /// The rules are no preset's (puzzles are kept per preset).
    CustomRules,
    /// The `puzzle-start` tag names no move of the main line.
    Start(String),
    /// One of our puzzle tags cannot be read.
    Tag(&'static str, String),
    /// The main line does not end with the side to play winning.
    NoWin,
    /// The puzzle does not verify.
    Puzzle(PuzzleError),
    /// OpenTafl cannot express the puzzle's rules.
    Export(import::ExportError),
}

impl fmt::Display for OtgPuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Record(e) => write!(f, "{e}"),
            Self::NotAPuzzle => f.write_str("no puzzle-mode tag (or puzzle-mode:none)"),
            Self::CustomRules => f.write_str("its rules are no preset's"),
            Self::Start(tag) => write!(
                f,
                "puzzle-start \"{}\" names no move of the main line",
                excerpt(tag)
            ),
            Self::Tag(name, value) => write!(f, "tag {name} \"{}\" cannot be read", excerpt(value)),
            Self::NoWin => f.write_str(
                "the main line after the puzzle's start does not end with the side to play winning",
            ),
            Self::Puzzle(e) => write!(f, "the solution does not verify: {e}"),
            Self::Export(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OtgPuzzleError {}

/// Our tags: the goal and length (`win 3`, `hold 2`), and what a set keeps of a puzzle.
const GOAL: &str = "puzzle-goal";
const ID: &str = "puzzle-id";
const GRADE: &str = "puzzle-grade";
const RATING: &str = "puzzle-rating";
const TEMPTING: &str = "puzzle-tempting";
const ENGINE_DEPTH: &str = "puzzle-engine-depth";
const SOURCE: &str = "puzzle-source";

/// The puzzle of an OpenTafl record (the file's bytes); `name` gives its id and source
/// when our tags do not.
pub fn puzzle_from_otg(bytes: &[u8], name: &str) -> Result<Puzzle, OtgPuzzleError> {
    let (game, _) = import::read(bytes).map_err(OtgPuzzleError::Record)?;
    let tags = import::otg_tags(bytes).map_err(OtgPuzzleError::Record)?;
    let tag = |name: &str| {
        tags.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
    };
    if tag("puzzle-mode").is_none_or(|mode| mode == "none") {
        return Err(OtgPuzzleError::NotAPuzzle);
    }
    let preset = game.preset().ok_or(OtgPuzzleError::CustomRules)?;
    let start_tag = tag("puzzle-start").unwrap_or("0a");
    let plies = plies_before(start_tag)
        .filter(|&p| p < game.moves().len())
        .ok_or_else(|| OtgPuzzleError::Start(start_tag.to_owned()))?;
    let ply = game
        .at_ply(plies)
        .ok_or_else(|| OtgPuzzleError::Start(start_tag.to_owned()))?;
    let solution = game.moves()[plies].mv;
    let (goal, moves) = if let Some(text) = tag(GOAL) {
        goal_of(text).ok_or_else(|| OtgPuzzleError::Tag(GOAL, text.to_owned()))?
    } else {
        won_in(&game, plies)?
    };
    let (position, side) = stored_position(&ply.position);
    let mut puzzle = Puzzle {
        id: tag(ID)
            .filter(|id| !id.is_empty())
            .unwrap_or(name)
            .to_owned(),
        preset,
        position,
        side,
        goal,
        moves,
        solution: solution.to_string(),
        grade: Grade::Easy,
        rating: 0,
        tempting: 0,
        engine_depth: 0,
        source: tag(SOURCE).map_or_else(|| format!("OpenTafl record {name}"), str::to_owned),
    };
    puzzle
        .verify(&mut Solver::new())
        .map_err(OtgPuzzleError::Puzzle)?;
    let number = |name: &'static str| {
        tag(name).map(|v| {
            v.parse()
                .map_err(|_| OtgPuzzleError::Tag(name, v.to_owned()))
        })
    };
    let kept = (
        tag(GRADE),
        number(RATING),
        number(TEMPTING),
        number(ENGINE_DEPTH),
    );
    if let (Some(grade), Some(rating), Some(tempting), Some(depth)) = kept {
        puzzle.grade =
            grade_named(grade).ok_or_else(|| OtgPuzzleError::Tag(GRADE, grade.to_owned()))?;
        puzzle.rating = rating?;
        puzzle.tempting = u8::try_from(tempting?).unwrap_or(u8::MAX);
        puzzle.engine_depth = u8::try_from(depth?).unwrap_or(u8::MAX);
    } else {
        let state = GameState::new(preset.rules(), ply.position);
        let difficulty: Difficulty = grade(&state, solution, moves, &mut grader());
        puzzle.grade = difficulty.grade();
        puzzle.rating = difficulty.rating();
        puzzle.tempting = difficulty.tempting;
        puzzle.engine_depth = difficulty.engine_depth;
    }
    Ok(puzzle)
}

/// The puzzle as an OpenTafl puzzle record: its position, the solution's main line (for a
/// win, the winning line against the longest resistance; for a hold, the one move), the
/// puzzle tags and ours.
pub fn puzzle_to_otg(puzzle: &Puzzle) -> Result<String, OtgPuzzleError> {
    let state = puzzle.start().map_err(OtgPuzzleError::Puzzle)?;
    let solution = puzzle.solution_move().map_err(OtgPuzzleError::Puzzle)?;
    let line = match puzzle.goal {
        Goal::Win => winning_line(&mut Solver::new(), &state, puzzle.moves),
        Goal::Hold => vec![solution],
    };
    let mut game = Game::new(
        puzzle.preset.rules(),
        *state.position(),
        Player::Human,
        Player::Human,
    );
    for mv in line {
        game.play(mv)
            .map_err(|e| OtgPuzzleError::Puzzle(PuzzleError::Solution(e.to_string())))?;
    }
    let record = import::to_otg(&game).map_err(OtgPuzzleError::Export)?;
    let goal = match puzzle.goal {
        Goal::Win => "win",
        Goal::Hold => "hold",
    };
    let ours = [
        ("puzzle-mode", "strict".to_owned()),
        ("puzzle-prestart", "0a".to_owned()),
        ("puzzle-start", "0a".to_owned()),
        (GOAL, format!("{goal} {}", puzzle.moves)),
        (ID, puzzle.id.clone()),
        (GRADE, puzzle.grade.name().to_owned()),
        (RATING, puzzle.rating.to_string()),
        (TEMPTING, puzzle.tempting.to_string()),
        (ENGINE_DEPTH, puzzle.engine_depth.to_string()),
        (SOURCE, puzzle.source.replace(['[', ']', '\n'], " ")),
    ];
    let mut tags = String::new();
    for (name, value) in ours {
        let _ = writeln!(tags, "[{name}:{value}]");
    }
    // The rules tag is the last tag: ours go before it.
    let at = record.find("[rules:").unwrap_or(0);
    Ok(format!("{}{tags}{}", &record[..at], &record[at..]))
}

/// A win in the main line's moves from `plies` on, for the side to play there: the goal and
/// that side's moves to the end, if the main line ends with it winning on the board.
fn won_in(game: &Game, plies: usize) -> Result<(Goal, u8), OtgPuzzleError> {
    let side = game.state().history()[plies].side_to_move();
    let won = game.outcome().is_some_and(|o| {
        o.winner == Some(side)
            && matches!(
                o.reason,
                Reason::KingEscaped | Reason::KingCaptured | Reason::Encircled | Reason::NoMoves
            )
    });
    if !won {
        return Err(OtgPuzzleError::NoWin);
    }
    let to_play = (game.moves().len() - plies).div_ceil(2);
    Ok((Goal::Win, u8::try_from(to_play).unwrap_or(u8::MAX)))
}

/// The main line's moves before the position after the move `address` names (`2b`), `0a`
/// the start.
fn plies_before(address: &str) -> Option<usize> {
    let (digits, letter) = address.split_at(address.len().checked_sub(1)?);
    let turn: usize = digits.parse().ok()?;
    let second = match letter {
        "a" => false,
        "b" => true,
        _ => return None,
    };
    match (turn, second) {
        (0, false) => Some(0),
        (0, true) => None,
        _ => Some(2 * (turn - 1) + usize::from(second) + 1),
    }
}

/// A `puzzle-goal` value: `win N` or `hold N`.
fn goal_of(text: &str) -> Option<(Goal, u8)> {
    let (goal, moves) = text.split_once(' ')?;
    let goal = match goal {
        "win" => Goal::Win,
        "hold" => Goal::Hold,
        _ => return None,
    };
    Some((goal, moves.trim().parse().ok()?))
}

/// The grade of a name.
fn grade_named(name: &str) -> Option<Grade> {
    [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Expert]
        .into_iter()
        .find(|g| g.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_starts_name_moves_of_the_main_line() {
        assert_eq!(plies_before("0a"), Some(0));
        assert_eq!(plies_before("1a"), Some(1));
        assert_eq!(plies_before("2b"), Some(4));
        for bad in ["0b", "", "a", "2c", "x1a"] {
            assert_eq!(plies_before(bad), None, "{bad}");
        }
        assert_eq!(goal_of("win 3"), Some((Goal::Win, 3)));
        assert_eq!(goal_of("hold 2"), Some((Goal::Hold, 2)));
        assert_eq!(goal_of("draw 2"), None);
    }
}
