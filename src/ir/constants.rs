//! Globals that are constants (`-O2`, whole programs): Toy has no
//! `const`, so a program's fixed sizes and codes are top-level `let`s —
//! globals, loaded from memory wherever a function reads them. A global
//! is a constant when its one store in the whole program is of a
//! constant, in the top-level code's first block, before anything there
//! calls a function or reads the global: every read anywhere runs after
//! that store and sees its value. Its loads become that constant, which
//! Cranelift then folds into comparisons and addresses (the global stays,
//! stored once and never read).
//!
//! An array global is a *table* when its one store (but the empty
//! array's, which it holds before its `let`) is of a literal of
//! constants (`let dx = [1, 0, -1, 0];`) in the top-level code, before
//! every read of it there and every call of a function that may read it,
//! and every value that holds it anywhere is only indexed or measured:
//! nothing can store into that array or hand it on, so its elements are
//! constants too. The
//! tables are recorded (`Module::tables`), and reads of them at constant
//! indices become constants ([`fold_table_reads`]: here, and after
//! `ir::unroll` has made a loop's counter a constant in each copy).
//!
//! A constant may be computed from others (`let MASK = SIZE - 1;`): the
//! top-level code is folded as constants are found, until no new one
//! appears.
//!
//! An array global's store of the empty array it holds before its `let`
//! is dropped when nothing can read it there: the global's one other
//! store comes before every read and every call of a function that may
//! read it ([`drop_unseen_initial_stores`]). Its alias class (`ir::alias`)
//! then holds only the arrays the program stores, whose length may be
//! known (`let table = [-1; SIZE];`).
//!
//! REPL entries are left alone: a later entry may assign the global.

use super::semantics::Const;
use super::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// Replaces the loads of every constant global of `m` by its value, and
/// records its tables.
pub fn fold_constant_globals(m: &mut Module) {
    // A constant may be computed from others (`let MASK = SIZE - 1;`):
    // once their loads in the top-level code are constants, folding it
    // makes the value stored a constant too.
    let mut constants: FxHashMap<GlobalRef, Const> = FxHashMap::default();
    loop {
        let early = early_stores(m);
        let found: Vec<(GlobalRef, Const)> = (early.iter())
            .filter(|(g, _)| !constants.contains_key(g))
            .filter_map(|(&g, &v)| Some((g, m.main.constant(v)?)))
            .collect();
        if found.is_empty() {
            break;
        }
        constants.extend(found);
        replace_loads(&mut m.main, &constants);
        // After the constants: what the next constant is made of, and a
        // table's elements (`[1, -1, W, -W]`), fold.
        tidy::fold_constants(&mut m.main);
    }
    for f in m.all_functions_mut() {
        replace_loads(f, &constants);
    }
    drop_unseen_initial_stores(m);
    let tables = tables(m);
    for f in m.all_functions_mut() {
        if fold_table_reads(f, &tables) {
            tidy::remove_dead_pure_insts(f);
        }
    }
    m.tables = tables;
}

/// Makes constants of `f`'s reads of `tables` at constant indices in
/// bounds, and of their lengths (an index out of bounds stays a read, to
/// fail as it should). Whether it folded any.
pub fn fold_table_reads(f: &mut Function, tables: &FxHashMap<GlobalRef, Vec<Const>>) -> bool {
    if tables.is_empty() {
        return false;
    }
    let mut any = false;
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let folded = match f.insts[i].kind {
                InstKind::ArrayGet { array, index, .. } => {
                    let elems = table_of(f, tables, array);
                    let at = f.int_constant(index).and_then(|k| usize::try_from(k).ok());
                    elems.zip(at).and_then(|(e, k)| e.get(k).copied())
                }
                InstKind::ArrayLen(array) => {
                    table_of(f, tables, array).map(|e| Const::Int(e.len() as i64))
                }
                _ => None,
            };
            if let Some(c) = folded {
                f.insts[i].kind = InstKind::constant(c);
                any = true;
            }
        }
    }
    any
}

/// The elements of the table `array` is a read of, if it is one.
pub fn table_of<'t>(
    f: &Function,
    tables: &'t FxHashMap<GlobalRef, Vec<Const>>,
    array: Value,
) -> Option<&'t Vec<Const>> {
    match f.def_kind(array)? {
        InstKind::LoadGlobal(g) => tables.get(g),
        _ => None,
    }
}

/// Replaces `f`'s loads of the globals in `constants` by their values.
fn replace_loads(f: &mut Function, constants: &FxHashMap<GlobalRef, Const>) {
    for &b in &f.layout {
        for &i in &f.blocks[b].insts {
            let InstKind::LoadGlobal(g) = f.insts[i].kind else {
                continue;
            };
            if let Some(&c) = constants.get(&g) {
                f.insts[i].kind = InstKind::constant(c);
            }
        }
    }
}

/// The globals stored once, early in the top-level code (see the
/// module's comment), and the values stored.
fn early_stores(m: &Module) -> FxHashMap<GlobalRef, Value> {
    let mut stores: FxHashMap<GlobalRef, usize> = FxHashMap::default();
    for f in m.all_functions() {
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if let InstKind::StoreGlobal(g, _) = f.insts[i].kind {
                    *stores.entry(g).or_default() += 1;
                }
            }
        }
    }
    let main = &m.main;
    let mut early = FxHashMap::default();
    let mut read: Vec<GlobalRef> = Vec::new();
    for &i in &main.blocks[main.entry()].insts {
        match main.insts[i].kind {
            InstKind::Call(..) => break,
            InstKind::LoadGlobal(g) => read.push(g),
            InstKind::StoreGlobal(g, v) if stores[&g] == 1 && !read.contains(&g) => {
                early.insert(g, v);
            }
            _ => {}
        }
    }
    early
}

/// The tables of `m` (see the module's comment): array globals whose one
/// store (but the empty array's before their `let`) is of a literal of
/// constants in the top-level code, before every read of the global
/// there and every call there of a function that may read it, and every
/// value that holds it (a load of the global, or the literal itself in
/// the top-level code) only indexed or measured.
fn tables(m: &Module) -> FxHashMap<GlobalRef, Vec<Const>> {
    let main = &m.main;
    let mut tables = Candidates::default();
    for (g, (b, k, v)) in stored_once(m) {
        let Some(InstKind::ArrayLit(elems)) = main.def_kind(v) else {
            continue;
        };
        let consts: Option<Vec<Const>> = elems.iter().map(|&e| main.constant(e)).collect();
        if let Some(elems) = consts {
            let store = (b, k);
            tables.insert(
                g,
                Candidate {
                    elems,
                    store,
                    literal: v,
                },
            );
        }
    }
    if tables.is_empty() {
        return FxHashMap::default();
    }
    read_after_store(m, &mut tables);
    only_indexed(m, &mut tables);
    (tables.into_iter()).map(|(g, t)| (g, t.elems)).collect()
}

/// The globals stored once, by the top-level code, besides their initial
/// empty array ([`initial_stores`]): where (block, position) and what.
fn stored_once(m: &Module) -> FxHashMap<GlobalRef, (Block, usize, Value)> {
    let main = &m.main;
    let initial = initial_stores(main);
    let mut stored: FxHashMap<GlobalRef, Vec<(Block, usize, Value)>> = FxHashMap::default();
    let mut stored_in_functions: FxHashSet<GlobalRef> = FxHashSet::default();
    for f in m.all_functions() {
        let in_main = std::ptr::eq(f, main);
        for &b in &f.layout {
            for (k, &i) in f.blocks[b].insts.iter().enumerate() {
                let InstKind::StoreGlobal(g, v) = f.insts[i].kind else {
                    continue;
                };
                if !in_main {
                    stored_in_functions.insert(g);
                } else if !initial.contains(&i) {
                    stored.entry(g).or_default().push((b, k, v));
                }
            }
        }
    }
    (stored.into_iter())
        .filter(|(g, _)| !stored_in_functions.contains(g))
        .filter_map(|(g, stores)| match stores[..] {
            [store] => Some((g, store)),
            _ => None,
        })
        .collect()
}

/// Drops the top-level code's stores of the empty array an array global
/// holds before its `let` where no read can see it: the global's one
/// other store comes before every read of it and every call of a
/// function that may read it. Its class of arrays (`ir::alias`) then
/// holds only the arrays the program stores, whose length may be known
/// (`let table = [-1; SIZE];`). The collector skips the global's zero
/// until the store.
fn drop_unseen_initial_stores(m: &mut Module) {
    let initial = initial_stores(&m.main);
    if initial.is_empty() {
        return;
    }
    let stores: FxHashMap<GlobalRef, (Block, usize)> = (stored_once(m).into_iter())
        .map(|(g, (b, k, _))| (g, (b, k)))
        .collect();
    let seen = read_before_store(m, &stores);
    let unseen = |i: &Inst| match m.main.insts[*i].kind {
        InstKind::StoreGlobal(g, _) => {
            initial.contains(i) && stores.contains_key(&g) && !seen.contains(&g)
        }
        _ => false,
    };
    let main = &m.main;
    let dropped: FxHashSet<Inst> = (main.blocks[main.entry()].insts.iter())
        .copied()
        .filter(unseen)
        .collect();
    if dropped.is_empty() {
        return;
    }
    let main = &mut m.main;
    let entry = main.entry();
    main.blocks[entry].insts.retain(|i| !dropped.contains(i));
    // The empty arrays stored: a runtime call each, and used nowhere else.
    let uses = main.use_counts();
    let unused_empty = |i: Inst| {
        let data = &main.insts[i];
        matches!(data.kind, InstKind::EmptyArray)
            && !data.result.is_some_and(|r| uses.contains_key(&r))
    };
    let gone: FxHashSet<Inst> = (main.blocks[entry].insts.iter().copied())
        .filter(|&i| unused_empty(i))
        .collect();
    main.blocks[entry].insts.retain(|i| !gone.contains(i));
}

/// The stores of the empty array in the top-level code's first block
/// that come before any other store to their global: the value an array
/// global holds before its `let`.
fn initial_stores(main: &Function) -> FxHashSet<Inst> {
    let mut initial = FxHashSet::default();
    let mut stored: FxHashSet<GlobalRef> = FxHashSet::default();
    for &i in &main.blocks[main.entry()].insts {
        if let InstKind::StoreGlobal(g, v) = main.insts[i].kind {
            let empty = matches!(main.def_kind(v), Some(InstKind::EmptyArray));
            if stored.insert(g) && empty {
                initial.insert(i);
            }
        }
    }
    initial
}

/// A global that may be a table: the constants its literal holds, where
/// the top-level code stores it (block, position), and the literal.
struct Candidate {
    elems: Vec<Const>,
    store: (Block, usize),
    literal: Value,
}

type Candidates = FxHashMap<GlobalRef, Candidate>;

/// Drops the candidates a read could see before their store: a read in
/// the top-level code, or a call there of a function that may read the
/// global (itself or through its callees), that the store does not come
/// before on every path.
fn read_after_store(m: &Module, tables: &mut Candidates) {
    let stores = (tables.iter()).map(|(&g, t)| (g, t.store)).collect();
    for g in read_before_store(m, &stores) {
        tables.remove(&g);
    }
}

/// The globals of `stores` (each with where the top-level code stores
/// it: block, position) that a read in the top-level code, or a call
/// there of a function that may read them (itself or through its
/// callees), may see before that store: the store does not come before
/// it on every path.
fn read_before_store(
    m: &Module,
    stores: &FxHashMap<GlobalRef, (Block, usize)>,
) -> FxHashSet<GlobalRef> {
    let main = &m.main;
    let readers = functions_reading(m);
    let dom = main.current_dom_tree();
    let before = |(sb, sk): (Block, usize), b: Block, k: usize| {
        if sb == b {
            sk < k
        } else {
            dom.dominates(sb, b)
        }
    };
    let mut seen = FxHashSet::default();
    for &b in &main.layout {
        for (k, &i) in main.blocks[b].insts.iter().enumerate() {
            let reads = match &main.insts[i].kind {
                InstKind::LoadGlobal(g) => std::slice::from_ref(g),
                InstKind::Call(callee, _) => &readers[*callee as usize][..],
                _ => continue,
            };
            for g in reads {
                if stores.get(g).is_some_and(|&store| !before(store, b, k)) {
                    seen.insert(*g);
                }
            }
        }
    }
    seen
}

/// By function: the globals it or a function it calls reads.
fn functions_reading(m: &Module) -> Vec<Vec<GlobalRef>> {
    let mut reads: Vec<FxHashSet<GlobalRef>> = (m.functions.iter())
        .map(|f| {
            (f.layout.iter().flat_map(|&b| &f.blocks[b].insts))
                .filter_map(|&i| match f.insts[i].kind {
                    InstKind::LoadGlobal(g) => Some(g),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let graph = inliner::call_graph(m);
    inliner::close_over_callees(&mut reads, &graph);
    reads.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// Drops the candidates some value that holds them does more with than
/// index it or take its length.
fn only_indexed(m: &Module, tables: &mut Candidates) {
    let main = &m.main;
    for f in m.all_functions() {
        let in_main = std::ptr::eq(f, main);
        let held = |v: Value| match f.def_kind(v) {
            Some(InstKind::LoadGlobal(g)) => Some(*g),
            _ if in_main => (tables.iter())
                .find(|(_, t)| t.literal == v)
                .map(|(&g, _)| g),
            _ => None,
        };
        let mut escaped = Vec::new();
        let mut escape = |v: Value| escaped.extend(held(v));
        for &b in &f.layout {
            for &p in &f.blocks[b].phis {
                f.phi_args(p).iter().for_each(|&a| escape(a));
            }
            for &i in &f.blocks[b].insts {
                match &f.insts[i].kind {
                    InstKind::ArrayGet { index, .. } => escape(*index),
                    InstKind::ArrayLen(_) => {}
                    &InstKind::StoreGlobal(g, v)
                        if in_main && tables.get(&g).is_some_and(|t| t.literal == v) => {}
                    kind => kind.for_each_operand(&mut escape),
                }
            }
            if let Some(v) = f.blocks[b].term.as_ref().and_then(Terminator::operand) {
                escape(v);
            }
        }
        for g in escaped {
            tables.remove(&g);
        }
    }
}
