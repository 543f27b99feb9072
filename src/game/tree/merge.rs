//! Side lines that repeat a move, merged: a side line whose first move is the very move it
//! would replace is its parent's continuation, and two side lines starting with the same move
//! are one. The review never grows such a tree (playing a move walks into the line that has
//! it), but a save written by hand or by another program can hold one; it is merged on load,
//! keeping every move, comment and analysis, so that what is loaded can be written as an
//! OpenTafl record and read back.

use crate::game::side_line::{Node, SideLine};

/// Where the main line would have to grow to take a repeated line: the index of the first
/// move past its end.
pub(super) struct PastTheEnd(pub(super) usize);

/// Merges the repeated side lines of `line` and of every line under it. `grows` says whether
/// the line may be lengthened by a side line that repeats it to its end and goes on (a side
/// line may; the main line may not: its moves are the game's).
pub(super) fn merge_repeats(line: &mut Vec<Node>, grows: bool) -> Result<(), PastTheEnd> {
    let mut i = 0;
    while i < line.len() {
        for side in std::mem::take(&mut line[i].sides) {
            add_side(line, i, side, grows)?;
        }
        for side in &mut line[i].sides {
            merge_repeats(&mut side.nodes, true)?;
        }
        i += 1;
    }
    Ok(())
}

/// Adds `side`, played instead of the move at index `at` of `line`: into the line itself if
/// it starts with that move, into a side line there that starts with the same move, or else
/// as a new side line there.
fn add_side(
    line: &mut Vec<Node>,
    at: usize,
    side: SideLine,
    grows: bool,
) -> Result<(), PastTheEnd> {
    let Some(first) = side.nodes.first().map(|n| n.mv.mv) else {
        return Ok(());
    };
    if line.get(at).is_some_and(|n| n.mv.mv == first) {
        return merge_into(line, at, side.nodes, grows);
    }
    let Some(node) = line.get_mut(at) else {
        return Ok(());
    };
    if let Some(sibling) = node.sides.iter_mut().find(|s| s.nodes[0].mv.mv == first) {
        return merge_into(&mut sibling.nodes, 0, side.nodes, true);
    }
    node.sides.push(side);
    Ok(())
}

/// Merges `nodes`, played from the position before index `at` of `line`, into it: along the
/// line while the moves are the same, the rest a side line where they part, or the line's
/// continuation where it ends.
fn merge_into(
    line: &mut Vec<Node>,
    at: usize,
    nodes: Vec<Node>,
    grows: bool,
) -> Result<(), PastTheEnd> {
    let mut rest = nodes.into_iter();
    let mut k = at;
    while let Some(node) = rest.next() {
        match line.get_mut(k) {
            Some(same) if same.mv.mv == node.mv.mv => {
                let sides = merge_node(same, node);
                for side in sides {
                    add_side(line, k, side, grows)?;
                }
                k += 1;
            }
            Some(_) => {
                let nodes = std::iter::once(node).chain(rest).collect();
                return add_side(line, k, SideLine::new(nodes), grows);
            }
            None if grows => {
                line.push(node);
                line.extend(rest);
                return Ok(());
            }
            None => return Err(PastTheEnd(k)),
        }
    }
    Ok(())
}

/// Keeps on `target` what `node` (the same move) holds: its comment after the target's
/// own, its analysis if the target has none. Returns the node's side lines, to add.
fn merge_node(target: &mut Node, node: Node) -> Vec<SideLine> {
    target.comment = match (target.comment.take(), node.comment) {
        (Some(mine), Some(theirs)) if mine != theirs => Some(format!("{mine}\n\n{theirs}")),
        (mine, theirs) => mine.or(theirs),
    };
    if target.analysis.is_none() {
        target.analysis = node.analysis;
    }
    node.sides
}
