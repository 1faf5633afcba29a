//! The verifier holds `Terminator::Switch` to its invariant: an int value,
//! distinct and dense constants, distinct targets without phis.

use jitrun::ir::verify::verify_function;
use jitrun::ir::{Block, BlockData, Function, Terminator, Ty, Value, ValueData, ValueDef};

/// `fn t(x) -> int` whose entry switches on `x` (or on a bool, when
/// `on_bool`) over `cases` (constant, index of a returning block among
/// three) with block `default`; a phi in block `phi_in` when given.
fn switching(
    cases: &[(i64, usize)],
    default: usize,
    on_bool: bool,
    phi_in: Option<usize>,
) -> Function {
    let mut f = Function::new("t", Some(Ty::Int));
    let ty = if on_bool { Ty::Bool } else { Ty::Int };
    let x = f.values.push(ValueData {
        ty,
        def: ValueDef::Param(0),
    });
    f.params.push(x);
    let blocks: Vec<Block> = (0..4)
        .map(|_| f.blocks.push(BlockData::default()))
        .collect();
    f.layout = blocks.clone();
    let zero = f.push_inst(blocks[0], jitrun::ir::InstKind::IConst(0), Ty::Int);
    for &b in &blocks[1..] {
        f.blocks[b].term = Some(Terminator::Return(Some(zero)));
    }
    let term = Terminator::Switch {
        value: x,
        cases: cases.iter().map(|&(k, b)| (k, blocks[b])).collect(),
        default: blocks[default],
    };
    for s in term.successors() {
        f.blocks[s].preds.push(blocks[0]);
    }
    f.blocks[blocks[0]].term = Some(term);
    if let Some(b) = phi_in {
        let args: Vec<Value> = f.blocks[blocks[b]].preds.iter().map(|_| zero).collect();
        f.add_phi(blocks[b], Ty::Int, args.into_iter().collect());
    }
    f
}

fn error(f: &Function) -> String {
    verify_function(f)
        .expect_err("the verifier rejects it")
        .to_string()
}

#[test]
fn a_dense_switch_verifies() {
    verify_function(&switching(&[(0, 1), (1, 2)], 3, false, None)).unwrap();
    verify_function(&switching(&[(-2, 1), (-1, 2)], 3, false, None)).unwrap();
}

#[test]
fn the_verifier_rejects_switches_that_break_the_invariant() {
    assert!(error(&switching(&[(0, 1), (0, 2)], 3, false, None)).contains("two cases for 0"));
    assert!(error(&switching(&[(0, 1), (1, 1)], 3, false, None)).contains("twice"));
    assert!(error(&switching(&[(0, 1), (1, 2)], 2, false, None)).contains("twice"));
    assert!(error(&switching(&[(0, 1), (100, 2)], 3, false, None)).contains("too sparse"));
    assert!(error(&switching(&[(0, 1), (1, 2)], 3, true, None)).contains("not an int"));
    assert!(error(&switching(&[(0, 1), (1, 2)], 3, false, Some(2))).contains("has phis"));
}
