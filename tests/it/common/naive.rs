//! A deliberately simple second implementation of the rules, written from RULES.md with
//! arrays and loops instead of bitboards and tables, used as an oracle for the engine.
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use brandubh::rules::{KingBesideThrone, KingOnThrone, Piece, Position, Rules, Side, Square};

const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// A board as a plain array, `cells[file][rank]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub cells: [[Option<Piece>; 7]; 7],
    pub side: Side,
}

fn at(f: i8, r: i8) -> Option<(usize, usize)> {
    ((0..7).contains(&f) && (0..7).contains(&r)).then_some((f as usize, r as usize))
}

fn is_throne(c: (usize, usize)) -> bool {
    c == (3, 3)
}

fn is_corner(c: (usize, usize)) -> bool {
    (c.0 == 0 || c.0 == 6) && (c.1 == 0 || c.1 == 6)
}

fn side_of(p: Piece) -> Side {
    if p == Piece::Attacker {
        Side::Attackers
    } else {
        Side::Defenders
    }
}

impl Naive {
    pub fn from_position(p: &Position) -> Naive {
        let mut cells = [[None; 7]; 7];
        for s in Square::all() {
            cells[s.file() as usize][s.rank() as usize] = p.piece_at(s);
        }
        Naive {
            cells,
            side: p.side_to_move(),
        }
    }

    fn get(&self, c: (usize, usize)) -> Option<Piece> {
        self.cells[c.0][c.1]
    }

    fn king(&self) -> Option<(usize, usize)> {
        (0..7)
            .flat_map(|f| (0..7).map(move |r| (f, r)))
            .find(|&c| self.get(c) == Some(Piece::King))
    }

    /// Every legal move as (from, to) squares, walking rays one step at a time.
    pub fn moves(&self) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        for f in 0..7 {
            for r in 0..7 {
                let Some(p) = self.cells[f][r] else { continue };
                if side_of(p) != self.side {
                    continue;
                }
                for (df, dr) in DIRS {
                    let (mut x, mut y) = (f as i8, r as i8);
                    loop {
                        x += df;
                        y += dr;
                        let Some(c) = at(x, y) else { break };
                        if self.get(c).is_some() {
                            break;
                        }
                        let restricted = is_throne(c) || is_corner(c);
                        if !restricted || p == Piece::King {
                            out.push((
                                Square::new(f as u8, r as u8).unwrap(),
                                Square::new(c.0 as u8, c.1 as u8).unwrap(),
                            ));
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Whether square `c` helps capture a piece of `victim` side (soldier victims only).
    fn hostile_to_soldier(&self, c: (usize, usize), victim: Side, rules: &Rules) -> bool {
        match self.get(c) {
            Some(p) => side_of(p) != victim,
            None if is_corner(c) => rules.corners_hostile,
            None if is_throne(c) => match victim {
                Side::Attackers => rules.throne_hostile_to_attackers,
                Side::Defenders => rules.throne_hostile_to_defenders,
            },
            None => false,
        }
    }

    fn king_taken(&self, king: (usize, usize), mover_at: (usize, usize), rules: &Rules) -> bool {
        let on_edge = king.0 == 0 || king.0 == 6 || king.1 == 0 || king.1 == 6;
        if rules.king_safe_on_edge && on_edge {
            return false;
        }
        let attacker =
            |c: Option<(usize, usize)>| c.is_some_and(|c| self.get(c) == Some(Piece::Attacker));
        let (kf, kr) = (king.0 as i8, king.1 as i8);
        let opposite = at(2 * kf - mover_at.0 as i8, 2 * kr - mover_at.1 as i8);
        let neighbours: Vec<(usize, usize)> = DIRS
            .iter()
            .filter_map(|(df, dr)| at(kf + df, kr + dr))
            .collect();
        let beside_throne = neighbours.iter().any(|&c| is_throne(c));
        if is_throne(king) {
            match rules.king_on_throne {
                KingOnThrone::FourAttackers => neighbours.iter().all(|&c| attacker(Some(c))),
                KingOnThrone::Sandwich => attacker(opposite),
            }
        } else if beside_throne {
            match rules.king_beside_throne {
                KingBesideThrone::ThreeAttackers => neighbours
                    .iter()
                    .filter(|&&c| !is_throne(c))
                    .all(|&c| attacker(Some(c))),
                KingBesideThrone::SandwichAgainstThrone => {
                    attacker(opposite) || opposite.is_some_and(is_throne)
                }
                KingBesideThrone::Sandwich => attacker(opposite),
                KingBesideThrone::Uncapturable => false,
            }
        } else {
            attacker(opposite) || (rules.corners_hostile_to_king && opposite.is_some_and(is_corner))
        }
    }

    /// Plays a move and returns the captured squares, sorted.
    pub fn play(&mut self, from: Square, to: Square, rules: &Rules) -> Vec<Square> {
        let (ff, fr) = (from.file() as usize, from.rank() as usize);
        let t = (to.file() as usize, to.rank() as usize);
        let piece = self.cells[ff][fr].take();
        self.cells[t.0][t.1] = piece;
        let mover = self.side;
        let mut taken = Vec::new();
        for (df, dr) in DIRS {
            let Some(n) = at(t.0 as i8 + df, t.1 as i8 + dr) else {
                continue;
            };
            let Some(victim) = self.get(n) else { continue };
            if side_of(victim) == mover {
                continue;
            }
            let beyond = at(t.0 as i8 + 2 * df, t.1 as i8 + 2 * dr);
            let captured = if victim == Piece::King {
                self.king_taken(n, t, rules)
            } else {
                beyond.is_some_and(|b| self.hostile_to_soldier(b, side_of(victim), rules))
            };
            if captured {
                taken.push(n);
            }
        }
        for &(f, r) in &taken {
            self.cells[f][r] = None;
        }
        self.side = mover.opponent();
        let mut out: Vec<Square> = taken
            .into_iter()
            .map(|(f, r)| Square::new(f as u8, r as u8).unwrap())
            .collect();
        out.sort();
        out
    }

    /// Whether every defender and the king is shut off from the edge by attackers (breadth-first search).
    pub fn encircled(&self) -> bool {
        let mut seen = [[false; 7]; 7];
        let mut queue: Vec<(usize, usize)> = (0..7)
            .flat_map(|f| (0..7).map(move |r| (f, r)))
            .filter(|&c| self.get(c).is_some_and(|p| side_of(p) == Side::Defenders))
            .collect();
        if queue.is_empty() {
            return false;
        }
        while let Some(c) = queue.pop() {
            if seen[c.0][c.1] {
                continue;
            }
            seen[c.0][c.1] = true;
            if c.0 == 0 || c.0 == 6 || c.1 == 0 || c.1 == 6 {
                return false;
            }
            for (df, dr) in DIRS {
                if let Some(n) = at(c.0 as i8 + df, c.1 as i8 + dr)
                    && self.get(n) != Some(Piece::Attacker)
                {
                    queue.push(n);
                }
            }
        }
        true
    }

    /// Whether the king stands on a corner.
    pub fn escaped(&self) -> bool {
        self.king().is_some_and(is_corner)
    }

    /// Whether the king is gone.
    pub fn king_gone(&self) -> bool {
        self.king().is_none()
    }

    /// Whether the move that led from a position where `mover` was to move to this one ended
    /// the game on the board: the king captured or escaped, or the defenders encircled.
    pub fn decided_by(&self, mover: Side, rules: &Rules) -> bool {
        match mover {
            Side::Attackers => self.king_gone() || (rules.encirclement && self.encircled()),
            Side::Defenders => self.escaped(),
        }
    }
}

/// Whether the last position of `path` (every position of a game, oldest first) occurs in it
/// for the third time, counting over the whole game.
pub fn third_occurrence(path: &[Naive]) -> bool {
    path.last()
        .is_some_and(|last| path.iter().filter(|p| *p == last).count() >= 3)
}

/// The naive perft from the last position of `path` (every position of the game so far,
/// oldest first): lists every move, plays it, and decides the end by hand, repetition
/// included. The game at the last position of `path` must not be over.
pub fn perft(path: &mut Vec<Naive>, rules: &Rules, depth: u32) -> u64 {
    let Some(board) = path.last().cloned() else {
        return 0;
    };
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for (from, to) in moves {
        let mut child = board.clone();
        child.play(from, to, rules);
        if child.decided_by(board.side, rules) {
            continue;
        }
        path.push(child);
        if !third_occurrence(path) {
            total += perft(path, rules, depth - 1);
        }
        path.pop();
    }
    total
}
