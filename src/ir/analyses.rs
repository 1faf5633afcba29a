//! The dominator tree and loop forest of a function, kept with it until
//! its CFG changes. Most passes change instructions and leave the CFG as
//! it is, so most passes can take the analyses the pass before them made
//! ([`Function::dom_tree`], [`Function::dom_and_loops`]) instead of
//! computing them again. Code that holds a function read-only, the
//! translator's `FunctionPlan` among it, takes the kept ones when they
//! are current ([`Function::current_dom_tree`],
//! [`Function::current_dom_and_loops`]). Only the verifier makes its own:
//! it checks the IR, so it trusts nothing kept.
//!
//! Whether the CFG changed is decided by comparing it with the CFG the
//! analyses were made of, kept as a key: each laid-out block, its
//! successors and its predecessors, in order. That is everything
//! `DomTree::compute` and `Forest::compute` read, so a kept analysis is
//! the one they would compute; debug builds check that it is.
//!
//! Architecture Invariant: what is kept depends on the CFG alone. What a
//! loop forest finds of instructions (`Loops::block_of`) is made afresh
//! for each pass that asks.

use super::dom::DomTree;
use super::loops::{Forest, Loops};
use super::{Block, Function};
use crate::entity::EntityRef;
use std::sync::Arc;

/// The analyses last made of a function, and the CFG they are of (its
/// key means nothing while no tree is kept).
#[derive(Clone, Default)]
pub struct Cached {
    key: Vec<u32>,
    dom: Option<Arc<DomTree>>,
    forest: Option<Arc<Forest>>,
}

impl std::fmt::Debug for Cached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cached")
    }
}

/// Separates a block's successors from its predecessors in a key.
const END: u32 = u32::MAX;

/// Visits `f`'s CFG as the words of a key, for each laid-out block the
/// block, its successors and its predecessors, while `visit` says go on;
/// whether it went to the end.
fn visit_cfg_words(f: &Function, mut visit: impl FnMut(u32) -> bool) -> bool {
    let word = |b: Block| b.index() as u32;
    f.layout.iter().all(|&b| {
        let data = &f.blocks[b];
        let term = data.term.as_ref();
        let mut successors = (0..).map_while(|k| term?.successor(k));
        visit(word(b))
            && successors.all(|s| visit(word(s)))
            && visit(END)
            && data.preds.iter().all(|&p| visit(word(p)))
            && visit(END)
    })
}

/// `f`'s CFG as a key.
fn cfg_key(f: &Function) -> Vec<u32> {
    let mut key = Vec::new();
    visit_cfg_words(f, |w| {
        key.push(w);
        true
    });
    key
}

/// Whether `key` is `f`'s CFG's, compared word by word (nothing built).
fn is_cfg_key(f: &Function, key: &[u32]) -> bool {
    let mut words = key.iter();
    visit_cfg_words(f, |w| words.next() == Some(&w)) && words.next().is_none()
}

impl Function {
    /// The dominator tree of the current CFG: the kept one while the CFG
    /// is the one it was made of.
    pub fn dom_tree(&mut self) -> Arc<DomTree> {
        self.keep_analyses(false).0
    }

    /// The dominator tree and loop forest of the current CFG: the kept
    /// ones while the CFG is the one they were made of.
    pub fn dom_and_loops(&mut self) -> (Arc<DomTree>, Loops) {
        let (dom, forest) = self.keep_analyses(true);
        (dom, Loops::of(forest.expect("asked for")))
    }

    /// The loop forest of the current CFG ([`Function::dom_and_loops`]).
    pub fn loops(&mut self) -> Loops {
        self.dom_and_loops().1
    }

    /// [`Function::dom_tree`] for a function that cannot keep it: the
    /// kept one if it is of the current CFG, else made afresh.
    pub fn current_dom_tree(&self) -> Arc<DomTree> {
        self.analyses_from(self.current_analyses(), false).0
    }

    /// [`Function::dom_and_loops`] for a function that cannot keep them:
    /// the kept ones if they are of the current CFG, else made afresh.
    pub fn current_dom_and_loops(&self) -> (Arc<DomTree>, Loops) {
        let (dom, forest) = self.analyses_from(self.current_analyses(), true);
        (dom, Loops::of(forest.expect("asked for")))
    }

    /// The kept analyses, if there are any and they are of the current
    /// CFG (compared word by word, nothing built).
    fn current_analyses(&self) -> Option<&Cached> {
        let kept = &self.analyses;
        let current = kept.dom.is_some() && is_cfg_key(self, &kept.key);
        current.then_some(kept)
    }

    /// The dominator tree, and the loop forest when `with_forest`, of the
    /// current CFG: those of `kept` (checked against fresh ones in debug
    /// builds), else made afresh.
    fn analyses_from(
        &self,
        kept: Option<&Cached>,
        with_forest: bool,
    ) -> (Arc<DomTree>, Option<Arc<Forest>>) {
        let dom = match kept.and_then(|kept| kept.dom.clone()) {
            Some(dom) => {
                debug_assert_eq!(*dom, DomTree::compute(self), "a kept dominator tree");
                dom
            }
            None => Arc::new(DomTree::compute(self)),
        };
        let forest = with_forest.then(|| match kept.and_then(|kept| kept.forest.clone()) {
            Some(forest) => {
                debug_assert_eq!(*forest, Forest::compute(self, &dom), "a kept loop forest");
                forest
            }
            None => Arc::new(Forest::compute(self, &dom)),
        });
        (dom, forest)
    }

    /// [`Function::analyses_from`] the kept analyses, keeping what it
    /// made (with the CFG's key when the kept ones were stale).
    fn keep_analyses(&mut self, with_forest: bool) -> (Arc<DomTree>, Option<Arc<Forest>>) {
        let kept = self.current_analyses();
        let current = kept.is_some();
        let (dom, forest) = self.analyses_from(kept, with_forest);
        if !current {
            self.analyses = Cached {
                key: cfg_key(self),
                dom: None,
                forest: None,
            };
        }
        self.analyses.dom = Some(dom.clone());
        if let Some(forest) = &forest {
            self.analyses.forest = Some(forest.clone());
        }
        (dom, forest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::EntityRef;
    use crate::ir::loops::Loop;
    use crate::ir::{InstKind, Terminator};

    fn function_with_a_loop() -> Function {
        let opts = crate::driver::Options {
            emit: Some(crate::driver::Emit::Ssa),
            passes: Some(Vec::new()),
            ..Default::default()
        };
        let src =
            "fn g(n: int) -> int { let s = 0; for i in 0..n { s += i; } return s; } print(g(3));";
        let m = crate::driver::compile(src, &opts).expect("compiles").ssa;
        m.functions[0].clone()
    }

    #[test]
    fn a_kept_tree_tells_a_loop_from_straight_code() {
        let mut f = function_with_a_loop();
        assert!(!f.dom_tree().is_acyclic());
        assert_eq!(f.loops().loops.len(), 1);
        let opts = crate::driver::Options {
            emit: Some(crate::driver::Emit::Ssa),
            passes: Some(Vec::new()),
            ..Default::default()
        };
        let src = "fn g(n: int) -> int { if n > 2 { return n; } let s = n; if s < 0 { s = -s; } return s; } print(g(3));";
        let m = crate::driver::compile(src, &opts).expect("compiles").ssa;
        let mut g = m.functions[0].clone();
        assert!(g.layout.len() > 2, "branches");
        assert!(g.dom_tree().is_acyclic());
        assert!(g.loops().loops.is_empty());
    }

    #[test]
    fn kept_while_only_instructions_change() {
        let mut f = function_with_a_loop();
        let (dom, loops) = f.dom_and_loops();
        assert_eq!(loops.loops.len(), 1);
        // A changed instruction leaves the CFG as it is.
        let (i, _) = (f.insts.iter())
            .find(|(_, d)| matches!(d.kind, InstKind::IConst(_)))
            .expect("a constant");
        f.insts[i].kind = InstKind::IConst(7);
        let (kept_dom, kept_loops) = f.dom_and_loops();
        assert!(Arc::ptr_eq(&dom, &kept_dom));
        assert!(Arc::ptr_eq(loops.forest(), kept_loops.forest()));
        assert!(Arc::ptr_eq(&f.dom_tree(), &dom));
        assert!(Arc::ptr_eq(&f.current_dom_tree(), &dom));
        assert!(Arc::ptr_eq(
            f.current_dom_and_loops().1.forest(),
            loops.forest()
        ));
    }

    #[test]
    fn made_again_when_the_cfg_changes() {
        let mut f = function_with_a_loop();
        let (dom, loops) = f.dom_and_loops();
        assert_eq!(loops.loops.len(), 1);
        // The loop's latch returns instead of jumping back: no loop.
        let header = loops.loops[Loop::new(0)].header;
        let latch = loops.loops[Loop::new(0)].latches[0];
        f.blocks[latch].term = Some(Terminator::Return(Some(f.params[0])));
        f.blocks[header].preds.retain(|p| *p != latch);
        let stale = f.current_dom_and_loops();
        assert_eq!(stale.1.loops.len(), 0);
        let (fresh_dom, fresh_loops) = f.dom_and_loops();
        assert!(!Arc::ptr_eq(&dom, &fresh_dom));
        assert_eq!(*fresh_dom, DomTree::compute(&f));
        assert_eq!(fresh_loops.loops.len(), 0);
        assert!(fresh_dom.is_acyclic());
    }
}
