//! Reverse post-order and dominators of a function's CFG
//! (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").

use super::{Block, Function};
use crate::entity::{EntityRef, SecondaryMap};

pub struct DomTree {
    /// Reachable blocks in reverse post-order; the entry first.
    pub rpo: Vec<Block>,
    rpo_number: SecondaryMap<Block, u32>,
    idom: SecondaryMap<Block, Option<Block>>,
    /// Pre- and post-order numbers in the dominator tree: `a` dominates `b`
    /// iff `b`'s interval lies inside `a`'s (constant-time queries).
    pre: SecondaryMap<Block, u32>,
    post: SecondaryMap<Block, u32>,
}

const UNREACHED: u32 = u32::MAX;

/// Reachable blocks in reverse post-order, found without recursion.
pub fn reverse_post_order(f: &Function) -> Vec<Block> {
    let mut visited = vec![false; f.blocks.len()];
    let mut post = Vec::with_capacity(f.layout.len());
    let mut stack = vec![(f.entry(), 0usize)];
    visited[f.entry().index()] = true;
    while let Some((block, next)) = stack.last_mut() {
        let succs = f.blocks[*block]
            .term
            .as_ref()
            .map(|t| t.successors())
            .unwrap_or_default();
        if let Some(&succ) = succs.get(*next) {
            *next += 1;
            if !visited[succ.index()] {
                visited[succ.index()] = true;
                stack.push((succ, 0));
            }
        } else {
            post.push(*block);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Each block's position in `rpo` ([`UNREACHED`] for blocks not in it).
fn numbered(rpo: &[Block]) -> SecondaryMap<Block, u32> {
    let mut number = SecondaryMap::with_default(UNREACHED);
    for (i, &b) in rpo.iter().enumerate() {
        number[b] = i as u32;
    }
    number
}

/// The blocks that lie on a cycle of the CFG. Toy's CFGs are reducible,
/// so the cycles are the natural loops of the retreating edges of a
/// reverse post-order: a loop is its header and every block that reaches
/// the edge's source without passing the header.
pub fn blocks_in_loops(f: &Function) -> SecondaryMap<Block, bool> {
    let rpo = reverse_post_order(f);
    let rpo_number = numbered(&rpo);
    let mut in_loop = SecondaryMap::with_default(false);
    // The header whose loop a block was last added to: stops the walk.
    let mut walked_for: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
    let mut stack = Vec::new();
    for &latch in &rpo {
        let succs = f.blocks[latch].term.as_ref().map(|t| t.successors());
        for header in succs.unwrap_or_default() {
            if rpo_number[header] > rpo_number[latch] {
                continue;
            }
            in_loop[header] = true;
            walked_for[header] = Some(header);
            stack.push(latch);
            while let Some(b) = stack.pop() {
                if walked_for[b] == Some(header) || rpo_number[b] == UNREACHED {
                    continue;
                }
                walked_for[b] = Some(header);
                in_loop[b] = true;
                stack.extend(f.blocks[b].preds.iter().copied());
            }
        }
    }
    in_loop
}

impl DomTree {
    pub fn compute(f: &Function) -> DomTree {
        let rpo = reverse_post_order(f);
        let rpo_number = numbered(&rpo);
        let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        let entry = rpo[0];
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &rpo[1..] {
                let mut new_idom: Option<Block> = None;
                for &p in &f.blocks[b].preds {
                    if idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_number, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        let (pre, post) = number_tree(&rpo, &idom);
        DomTree {
            rpo,
            rpo_number,
            idom,
            pre,
            post,
        }
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_number[b] != UNREACHED
    }

    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b].filter(|&d| d != b)
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        self.is_reachable(a)
            && self.is_reachable(b)
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }
}

/// Numbers the dominator tree in pre- and post-order, without recursion.
fn number_tree(
    rpo: &[Block],
    idom: &SecondaryMap<Block, Option<Block>>,
) -> (SecondaryMap<Block, u32>, SecondaryMap<Block, u32>) {
    let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &b in &rpo[1..] {
        if let Some(d) = idom[b] {
            children[d].push(b);
        }
    }
    let (mut pre, mut post) = (SecondaryMap::new(), SecondaryMap::new());
    let (mut pre_n, mut post_n) = (0, 0);
    let mut stack = vec![(rpo[0], 0usize)];
    pre[rpo[0]] = 0;
    while let Some((block, next)) = stack.last_mut() {
        if let Some(&child) = children[*block].get(*next) {
            *next += 1;
            pre_n += 1;
            pre[child] = pre_n;
            stack.push((child, 0));
        } else {
            post[*block] = post_n;
            post_n += 1;
            stack.pop();
        }
    }
    (pre, post)
}

fn intersect(
    idom: &SecondaryMap<Block, Option<Block>>,
    number: &SecondaryMap<Block, u32>,
    mut a: Block,
    mut b: Block,
) -> Block {
    while a != b {
        while number[a] > number[b] {
            a = idom[a].expect("processed block has an idom");
        }
        while number[b] > number[a] {
            b = idom[b].expect("processed block has an idom");
        }
    }
    a
}
