//! The IR verifier: runs after SSA construction and after every IR pass
//! (`passes::run`) in debug builds and whenever `--verify` is given
//! (every test does).
//!
//! Checks: every laid-out block is reachable and terminated; predecessor
//! lists match the terminators' edges; every phi has one operand per
//! predecessor, of its own type; no removed phi is still referenced; and
//! every definition dominates its uses.

use super::dom::DomTree;
use super::*;
use crate::entity::SecondaryMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("IR verifier: function `{function}`: {message}")]
pub struct VerifyError {
    pub function: String,
    pub message: String,
}

pub fn verify_module(module: &Module) -> Result<(), VerifyError> {
    module.all_functions().try_for_each(verify_function)
}

pub fn verify_function(f: &Function) -> Result<(), VerifyError> {
    Verifier::new(f).run().map_err(|message| VerifyError {
        function: f.name.clone(),
        message,
    })
}

/// Where a value is defined: its block and position (phis and params
/// come before every instruction).
#[derive(Clone, Copy, Default)]
struct DefSite {
    block: Option<Block>,
    pos: usize,
}

struct Verifier<'a> {
    f: &'a Function,
    dom: DomTree,
    defs: SecondaryMap<Value, DefSite>,
}

impl<'a> Verifier<'a> {
    fn new(f: &'a Function) -> Self {
        Verifier {
            f,
            dom: DomTree::compute(f),
            defs: SecondaryMap::new(),
        }
    }

    fn run(mut self) -> Result<(), String> {
        self.check_blocks()?;
        self.record_defs()?;
        for &b in &self.f.layout {
            self.check_uses(b)?;
        }
        Ok(())
    }

    fn check_blocks(&self) -> Result<(), String> {
        let f = self.f;
        for &b in &f.layout {
            if !self.dom.is_reachable(b) {
                return Err(format!("{b} is laid out but unreachable"));
            }
            let Some(term) = &f.blocks[b].term else {
                return Err(format!("{b} has no terminator"));
            };
            for s in term.successors() {
                if !f.blocks[s].preds.contains(&b) {
                    return Err(format!(
                        "{b} jumps to {s}, which does not list it as predecessor"
                    ));
                }
            }
            if let Terminator::Switch { value, cases, .. } = term {
                check_switch(f, b, term.successors(), *value, cases)?;
            }
            for &p in &f.blocks[b].preds {
                let jumps = f.blocks[p].term.as_ref().map(|t| t.successors());
                if !jumps.is_some_and(|s| s.contains(&b)) {
                    return Err(format!(
                        "{b} lists {p} as predecessor, but {p} does not jump to it"
                    ));
                }
            }
        }
        Ok(())
    }

    fn record_defs(&mut self) -> Result<(), String> {
        let f = self.f;
        let entry = f.entry();
        for &p in &f.params {
            self.defs[p] = DefSite {
                block: Some(entry),
                pos: 0,
            };
        }
        for &b in &f.layout {
            for &phi in &f.blocks[b].phis {
                match &f.values[phi].def {
                    &ValueDef::Phi(p) => {
                        let PhiData { block, args } = &f.phis[p];
                        if *block != b {
                            return Err(format!("phi {phi} sits in {b} but belongs to {block}"));
                        }
                        if args.len() != f.blocks[b].preds.len() {
                            return Err(format!(
                                "phi {phi} has {} operands for {} predecessors",
                                args.len(),
                                f.blocks[b].preds.len()
                            ));
                        }
                    }
                    other => return Err(format!("{phi} in the phi list of {b} is {other:?}")),
                }
                self.defs[phi] = DefSite {
                    block: Some(b),
                    pos: 0,
                };
            }
            for (i, &inst) in f.blocks[b].insts.iter().enumerate() {
                if f.insts[inst].loc.inlined as usize > f.inline_sites.len() {
                    return Err(format!("{inst} names an inline site that does not exist"));
                }
                if let Some(r) = f.insts[inst].result {
                    if f.values[r].def != ValueDef::Inst(inst) {
                        return Err(format!(
                            "{r} is not defined by the instruction producing it"
                        ));
                    }
                    self.defs[r] = DefSite {
                        block: Some(b),
                        pos: i + 1,
                    };
                }
            }
        }
        Ok(())
    }

    /// Checks that `v` is available at position `pos` of `block`.
    fn check_available(
        &self,
        v: Value,
        block: Block,
        pos: usize,
        user: &str,
    ) -> Result<(), String> {
        if matches!(self.f.values[v].def, ValueDef::Undef) {
            return Ok(());
        }
        if let ValueDef::Alias(_) = self.f.values[v].def {
            return Err(format!("{user} uses {v}, a removed phi"));
        }
        let site = self.defs[v];
        let Some(def_block) = site.block else {
            return Err(format!(
                "{user} uses {v}, which is defined nowhere in the layout"
            ));
        };
        let ok = if def_block == block {
            site.pos < pos
        } else {
            self.dom.dominates(def_block, block)
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{user} in {block} uses {v}, whose definition does not dominate it"
            ))
        }
    }

    fn check_uses(&self, b: Block) -> Result<(), String> {
        let f = self.f;
        let data = &f.blocks[b];
        for &phi in &data.phis {
            for (&arg, &pred) in f.phi_args(phi).iter().zip(&data.preds) {
                if f.value_ty(arg) != f.value_ty(phi) {
                    return Err(format!("phi {phi} has operand {arg} of another type"));
                }
                self.check_available(arg, pred, usize::MAX, &format!("phi {phi}"))?;
            }
        }
        for (i, &inst) in data.insts.iter().enumerate() {
            let mut result = Ok(());
            f.insts[inst].kind.for_each_operand(|v| {
                if result.is_ok() {
                    result = self.check_available(v, b, i + 1, &format!("{inst}"));
                }
            });
            result?;
        }
        if let Some(v) = data.term.as_ref().and_then(|t| t.operand()) {
            self.check_available(v, b, usize::MAX, "the terminator")?;
        }
        Ok(())
    }
}

/// A switch's invariant (`Terminator::Switch`): an int value, distinct
/// dense constants, distinct targets without phis.
fn check_switch(
    f: &Function,
    b: Block,
    targets: SmallVec<[Block; 2]>,
    value: Value,
    cases: &[(i64, Block)],
) -> Result<(), String> {
    if f.value_ty(value) != Ty::Int {
        return Err(format!("{b} switches on {value}, which is not an int"));
    }
    for (k, &to) in targets.iter().enumerate() {
        if targets[..k].contains(&to) {
            return Err(format!("{b} switches to {to} twice"));
        }
        if !f.blocks[to].phis.is_empty() {
            return Err(format!("{b} switches to {to}, which has phis"));
        }
    }
    for (k, &(n, _)) in cases.iter().enumerate() {
        if cases[..k].iter().any(|&(m, _)| m == n) {
            return Err(format!("{b} has two cases for {n}"));
        }
    }
    if !super::switch::are_dense(cases.iter().map(|&(n, _)| n)) {
        return Err(format!(
            "{b} switches over constants too sparse for one table"
        ));
    }
    Ok(())
}
