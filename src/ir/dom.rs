//! Reverse post-order and dominators of a function's CFG
//! (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").

use super::{Block, Function};
use crate::entity::{EntityRef, SecondaryMap};

pub struct DomTree {
    /// Reachable blocks in reverse post-order; the entry first.
    pub rpo: Vec<Block>,
    rpo_number: SecondaryMap<Block, u32>,
    idom: SecondaryMap<Block, Option<Block>>,
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

impl DomTree {
    pub fn compute(f: &Function) -> DomTree {
        let rpo = reverse_post_order(f);
        let mut rpo_number = SecondaryMap::with_default(UNREACHED);
        for (i, &b) in rpo.iter().enumerate() {
            rpo_number[b] = i as u32;
        }
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
        DomTree {
            rpo,
            rpo_number,
            idom,
        }
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_number[b] != UNREACHED
    }

    pub fn idom(&self, b: Block) -> Option<Block> {
        self.idom[b].filter(|&d| d != b)
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, mut b: Block) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom(b) {
                Some(d) if self.rpo_number[d] >= self.rpo_number[a] => b = d,
                _ => return false,
            }
        }
    }
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
