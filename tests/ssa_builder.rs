//! The SSA builder as a library, without the Toy front end: arbitrary CFGs
//! built block by block, checked with the IR verifier.

use jitrun::ir::verify::verify_function;
use jitrun::ir::{BinaryOp, Cmp, InstKind, SrcLoc, Ty, Value, ValueDef};
use jitrun::ssa::builder::SsaBuilder;

fn binary(b: &mut SsaBuilder, op: BinaryOp, x: Value, y: Value, ty: Ty) -> Value {
    b.ins(InstKind::Binary(op, x, y), Some(ty), SrcLoc::default())
        .unwrap()
}

fn int_param_builder(n_params: usize) -> SsaBuilder {
    SsaBuilder::new("t", &vec![Ty::Int; n_params], Some(Ty::Int), false)
}

/// Ullrich §7: a chain of 100 000 blocks between a definition and a use.
/// The lookup walks it without recursing on the (2 MiB) test stack.
#[test]
fn lookup_through_100_000_single_predecessor_blocks() {
    let mut b = int_param_builder(1);
    let x = b.declare_var(Ty::Int);
    let p = b.params()[0];
    b.write_variable(x, p);
    for _ in 0..100_000 {
        let next = b.create_block();
        b.jump(next);
        b.seal_block(next);
        b.switch_to_block(next);
    }
    let v = b.read_variable(x);
    assert_eq!(v, p);
    b.ret(Some(v));
    let (f, stats) = b.finish();
    verify_function(&f).unwrap();
    assert_eq!(stats.phis_created, 0);
}

/// 100 000 sequential diamonds (`if c {} else {}`) and one read at the end:
/// every phi placed on the way is trivial and removed.
#[test]
fn lookup_through_100_000_diamonds_leaves_no_phi() {
    let mut b = int_param_builder(2);
    let x = b.declare_var(Ty::Int);
    let (p, q) = (b.params()[0], b.params()[1]);
    b.write_variable(x, p);
    let cond = binary(&mut b, BinaryOp::ICmp(Cmp::Gt), q, p, Ty::Bool);
    for _ in 0..100_000 {
        let (then_b, else_b, join) = (b.create_block(), b.create_block(), b.create_block());
        b.branch(cond, then_b, else_b);
        b.seal_block(then_b);
        b.seal_block(else_b);
        b.switch_to_block(then_b);
        b.jump(join);
        b.switch_to_block(else_b);
        b.jump(join);
        b.seal_block(join);
        b.switch_to_block(join);
    }
    let v = b.read_variable(x);
    assert_eq!(v, p);
    b.ret(Some(v));
    let (f, stats) = b.finish();
    verify_function(&f).unwrap();
    assert_eq!(stats.phis_created, stats.phis_removed_trivial);
    assert_eq!(f.counts().0, 0);
}

/// A loop whose body redefines `x`: the header (sealed after the back edge,
/// Algorithm 4) keeps exactly one phi; an unchanged variable gets none.
#[test]
fn loop_phi_is_completed_when_the_header_is_sealed() {
    let mut b = int_param_builder(1);
    let (x, y) = (b.declare_var(Ty::Int), b.declare_var(Ty::Int));
    let p = b.params()[0];
    b.write_variable(x, p);
    b.write_variable(y, p);
    let header = b.create_block();
    b.jump(header);
    b.switch_to_block(header);
    let xv = b.read_variable(x);
    let yv = b.read_variable(y);
    let cond = binary(&mut b, BinaryOp::ICmp(Cmp::Lt), xv, yv, Ty::Bool);
    let (body, exit) = (b.create_block(), b.create_block());
    b.branch(cond, body, exit);
    b.seal_block(body);
    b.switch_to_block(body);
    let one = b.constant(jitrun::ir::semantics::Const::Int(1));
    let x1 = b.read_variable(x);
    let next = binary(&mut b, BinaryOp::IAdd, x1, one, Ty::Int);
    b.write_variable(x, next);
    b.jump(header);
    b.seal_block(header);
    b.seal_block(exit);
    b.switch_to_block(exit);
    let out = b.read_variable(x);
    b.ret(Some(out));
    let (f, stats) = b.finish();
    verify_function(&f).unwrap();
    assert_eq!(
        stats.phis_created, 2,
        "x and y got proxy phis in the unsealed header"
    );
    assert_eq!(f.counts().0, 1, "only x's phi survives");
    assert!(matches!(f.values[out].def, ValueDef::Phi(_)));
}

/// An irreducible CFG (two blocks entered from outside that jump to each
/// other), which Toy's structured control flow never produces.
#[test]
fn irreducible_cfg_verifies() {
    let mut b = int_param_builder(2);
    let x = b.declare_var(Ty::Int);
    let (p, q) = (b.params()[0], b.params()[1]);
    b.write_variable(x, p);
    let cond = binary(&mut b, BinaryOp::ICmp(Cmp::Lt), p, q, Ty::Bool);
    let (l, r, exit) = (b.create_block(), b.create_block(), b.create_block());
    b.branch(cond, l, r);
    b.switch_to_block(l);
    let lv = b.read_variable(x);
    b.branch(cond, r, exit);
    b.switch_to_block(r);
    b.write_variable(x, q);
    b.branch(cond, l, exit);
    b.seal_block(l);
    b.seal_block(r);
    b.seal_block(exit);
    b.switch_to_block(exit);
    let out = b.read_variable(x);
    b.ret(Some(out));
    let (f, _) = b.finish();
    verify_function(&f).unwrap();
    assert!(matches!(
        f.values[lv].def,
        ValueDef::Phi(_) | ValueDef::Alias(_)
    ));
}

/// Braun et al. Fig. 5: an irreducible loop with a single definition of
/// `x`. Algorithm 3 leaves a cycle of phis that only reference each other
/// and `x`'s value; Algorithm 5 removes them all (§3.2).
#[test]
fn algorithm_5_removes_redundant_phis_of_an_irreducible_loop() {
    let mut b = int_param_builder(2);
    let x = b.declare_var(Ty::Int);
    let (p, q) = (b.params()[0], b.params()[1]);
    b.write_variable(x, p);
    let cond = binary(&mut b, BinaryOp::ICmp(Cmp::Lt), p, q, Ty::Bool);
    let (l, r, exit) = (b.create_block(), b.create_block(), b.create_block());
    b.branch(cond, l, r);
    b.switch_to_block(l);
    b.read_variable(x);
    b.branch(cond, r, exit);
    b.switch_to_block(r);
    b.read_variable(x);
    b.branch(cond, l, exit);
    b.seal_block(l);
    b.seal_block(r);
    b.seal_block(exit);
    b.switch_to_block(exit);
    let out = b.read_variable(x);
    b.ret(Some(out));
    let (f, stats) = b.finish();
    verify_function(&f).unwrap();
    assert_eq!(f.counts().0, 0, "every phi was redundant");
    assert_eq!(stats.phis_removed_scc, 3, "{stats:?}");
    assert!(matches!(f.blocks[exit].term, Some(jitrun::ir::Terminator::Return(Some(v))) if v == p));
}

/// A block that defines more variables than it keeps in its own short
/// list moves them to the shared table: every variable must still read
/// back its own value there, in its successors, and through a join.
#[test]
fn many_variables_in_one_block_keep_their_values() {
    const N: usize = 40;
    let mut b = int_param_builder(1);
    let p = b.params()[0];
    let vars: Vec<_> = (0..N).map(|_| b.declare_var(Ty::Int)).collect();
    let consts: Vec<Value> = (0..N)
        .map(|k| {
            b.ins(InstKind::IConst(k as i64), Some(Ty::Int), SrcLoc::default())
                .unwrap()
        })
        .collect();
    for (&var, &c) in vars.iter().zip(&consts) {
        b.write_variable(var, c);
    }
    // Overwrite every other variable after the block has spilled.
    for (k, &var) in vars.iter().enumerate().step_by(2) {
        let v = binary(&mut b, BinaryOp::IAdd, consts[k], p, Ty::Int);
        b.write_variable(var, v);
    }
    let after_writes: Vec<Value> = vars.iter().map(|&v| b.read_variable(v)).collect();
    for (k, &v) in after_writes.iter().enumerate() {
        assert_eq!(v == consts[k], k % 2 == 1, "variable {k} in its own block");
    }
    let cond = binary(&mut b, BinaryOp::ICmp(Cmp::Gt), p, consts[0], Ty::Bool);
    let (then_b, join) = (b.create_block(), b.create_block());
    b.branch(cond, then_b, join);
    b.seal_block(then_b);
    b.switch_to_block(then_b);
    b.write_variable(vars[1], p);
    b.jump(join);
    b.seal_block(join);
    b.switch_to_block(join);
    let at_join: Vec<Value> = vars.iter().map(|&v| b.read_variable(v)).collect();
    for (k, &v) in at_join.iter().enumerate().filter(|&(k, _)| k != 1) {
        assert_eq!(v, after_writes[k], "variable {k} at the join");
    }
    b.ret(Some(at_join[1]));
    let (f, _) = b.finish();
    verify_function(&f).unwrap();
    assert_eq!(f.phi_args(at_join[1]), &[after_writes[1], p]);
}
