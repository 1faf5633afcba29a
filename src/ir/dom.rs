//! Reverse post-order and dominators of a function's CFG
//! (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm").

use super::{Block, Function};
use crate::entity::{EntityRef, SecondaryMap};

#[derive(Debug, PartialEq)]
pub struct DomTree {
    /// Reachable blocks in reverse post-order; the entry first.
    pub rpo: Vec<Block>,
    rpo_number: SecondaryMap<Block, u32>,
    /// The rest by reverse post-order number, in plain vectors: each
    /// immediate dominator's number (the entry's own), and pre- and
    /// post-order numbers in the dominator tree: `a` dominates `b` iff
    /// `b`'s interval lies inside `a`'s (constant-time queries).
    idom: Vec<u32>,
    pre: Vec<u32>,
    post: Vec<u32>,
    /// No edge goes back in reverse post-order: the CFG has no cycle.
    acyclic: bool,
}

const UNREACHED: u32 = u32::MAX;

/// Reachable blocks in reverse post-order, found without recursion.
pub fn reverse_post_order(f: &Function) -> Vec<Block> {
    let mut visited = vec![false; f.blocks.len()];
    let mut post = Vec::with_capacity(f.layout.len());
    // (block, the index of its next successor to visit)
    let mut stack = Vec::with_capacity(f.layout.len());
    stack.push((f.entry(), 0usize));
    visited[f.entry().index()] = true;
    while let Some((block, next)) = stack.last_mut() {
        let term = f.blocks[*block].term.as_ref();
        if let Some(succ) = term.and_then(|t| t.successor(*next)) {
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
fn numbered(f: &Function, rpo: &[Block]) -> SecondaryMap<Block, u32> {
    let mut number = SecondaryMap::with_capacity(f.blocks.len(), UNREACHED);
    for (i, &b) in rpo.iter().enumerate() {
        number[b] = i as u32;
    }
    number
}

impl DomTree {
    pub fn compute(f: &Function) -> DomTree {
        let rpo = reverse_post_order(f);
        let rpo_number = numbered(f, &rpo);
        let (idom, acyclic) = immediate_dominators(f, &rpo, &rpo_number);
        let (pre, post) = number_tree(&idom);
        DomTree {
            rpo,
            rpo_number,
            idom,
            pre,
            post,
            acyclic,
        }
    }

    /// Whether the CFG has no cycle (so no loop).
    pub fn is_acyclic(&self) -> bool {
        self.acyclic
    }

    /// `b`'s position in [`DomTree::rpo`] (`u32::MAX` if unreachable).
    pub fn rpo_number(&self, b: Block) -> u32 {
        self.rpo_number[b]
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_number[b] != UNREACHED
    }

    pub fn idom(&self, b: Block) -> Option<Block> {
        match self.rpo_number[b] {
            0 | UNREACHED => None,
            n => Some(self.rpo[self.idom[n as usize] as usize]),
        }
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (a, b) = (self.rpo_number[a], self.rpo_number[b]);
        a != UNREACHED && b != UNREACHED && {
            let (a, b) = (a as usize, b as usize);
            self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
        }
    }
}

/// Cooper, Harvey and Kennedy's iteration, on reverse post-order numbers:
/// by number, the immediate dominator's number (the entry's own); and
/// whether no edge goes back in reverse post-order.
fn immediate_dominators(
    f: &Function,
    rpo: &[Block],
    number: &SecondaryMap<Block, u32>,
) -> (Vec<u32>, bool) {
    let mut idom = vec![UNREACHED; rpo.len()];
    idom[0] = 0;
    // A predecessor not processed yet in the first pass lies at or after
    // its block in reverse post-order: the source of a retreating edge.
    // Without one, the first pass saw every predecessor, and its answer
    // is final.
    let mut retreating = false;
    loop {
        let mut changed = false;
        for (i, &b) in rpo.iter().enumerate().skip(1) {
            let mut new_idom = UNREACHED;
            for &p in &f.blocks[b].preds {
                let p = number[p];
                if p == UNREACHED {
                    continue;
                }
                if idom[p as usize] == UNREACHED {
                    retreating = true;
                    continue;
                }
                new_idom = match new_idom {
                    UNREACHED => p,
                    cur => intersect(&idom, p, cur),
                };
            }
            if new_idom != UNREACHED && idom[i] != new_idom {
                idom[i] = new_idom;
                changed = true;
            }
        }
        if !retreating || !changed {
            return (idom, !retreating);
        }
    }
}

/// Numbers the dominator tree (`idom` by reverse post-order number) in
/// pre- and post-order, without recursion. Each node's children, in
/// reverse post-order, are a list threaded through two vectors: no
/// allocation per block.
fn number_tree(idom: &[u32]) -> (Vec<u32>, Vec<u32>) {
    const NONE: u32 = u32::MAX;
    let n = idom.len();
    let (mut first_child, mut next_sibling) = (vec![NONE; n], vec![NONE; n]);
    for i in (1..n).rev() {
        let d = idom[i] as usize;
        next_sibling[i] = first_child[d];
        first_child[d] = i as u32;
    }
    let (mut pre, mut post) = (vec![0; n], vec![0; n]);
    let (mut pre_n, mut post_n) = (0, 0);
    // (node, its next child to visit)
    let mut stack = vec![(0u32, first_child[0])];
    while let Some((node, next)) = stack.last_mut() {
        if *next != NONE {
            let child = *next as usize;
            *next = next_sibling[child];
            pre_n += 1;
            pre[child] = pre_n;
            stack.push((child as u32, first_child[child]));
        } else {
            post[*node as usize] = post_n;
            post_n += 1;
            stack.pop();
        }
    }
    (pre, post)
}

/// The nearest common dominator of the nodes numbered `a` and `b`.
fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{self, Emit, Options};
    use crate::entity::EntityRef;

    /// The functions of `src` at -O1.
    fn functions(src: &str) -> Vec<Function> {
        let opts = Options {
            opt_level: driver::OptLevel::O1,
            emit: Some(Emit::Ssa),
            ..Options::default()
        };
        let module = driver::compile(src, &opts).expect("compiles").ssa;
        module.functions.into_iter().chain([module.main]).collect()
    }

    /// Whether `b` is reachable from the entry on paths avoiding `a`.
    fn reachable_without(f: &Function, a: Block, b: Block) -> bool {
        let mut seen = vec![false; f.blocks.len()];
        let mut work = vec![f.entry()];
        while let Some(x) = work.pop() {
            if x == a || std::mem::replace(&mut seen[x.index()], true) {
                continue;
            }
            if x == b {
                return true;
            }
            work.extend(f.successors(x));
        }
        false
    }

    const PROGRAMS: &str = "
        fn straight(n: int) -> int {
            let s = 0;
            if n > 1 { s = 1; } else { s = 2; }
            if s > n { return s; }
            return n;
        }
        fn nested(n: int) -> int {
            let s = 0;
            for i in 0..n {
                for j in 0..i { if j > 3 { break; } s += j; }
                while s > 100 { s -= 7; }
            }
            return s;
        }
        print(straight(3) + nested(4));
    ";

    #[test]
    fn dominators_are_the_blocks_every_path_passes() {
        for f in functions(PROGRAMS) {
            let dom = DomTree::compute(&f);
            for &a in &f.layout {
                for &b in &f.layout {
                    let by_paths = a == b || !reachable_without(&f, a, b);
                    assert_eq!(dom.dominates(a, b), by_paths, "{}: {a} {b}", f.name);
                }
                // The immediate dominator: a strict dominator that every
                // other strict dominator dominates.
                if let Some(d) = dom.idom(a) {
                    assert!(d != a && dom.dominates(d, a));
                    for &c in &f.layout {
                        if c != a && dom.dominates(c, a) {
                            assert!(dom.dominates(c, d), "{}: {c} {d} {a}", f.name);
                        }
                    }
                } else {
                    assert_eq!(a, f.entry());
                }
            }
        }
    }

    #[test]
    fn only_functions_without_loops_are_acyclic() {
        let acyclic: Vec<(String, bool)> = functions(PROGRAMS)
            .iter()
            .map(|f| (f.name.clone(), DomTree::compute(f).is_acyclic()))
            .collect();
        assert_eq!(acyclic[0], ("straight".to_string(), true));
        assert_eq!(acyclic[1], ("nested".to_string(), false));
    }
}
