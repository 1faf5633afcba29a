//! SSA construction after Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau:
//! "Simple and Efficient Construction of Static Single Assignment Form"
//! (CC 2013; `../shared/seeds/001_*`).
//!
//! The builder is a library: a client creates blocks, adds edges through
//! terminators, writes and reads variables, emits instructions and seals
//! blocks; it hands back a finished [`Function`] in SSA form. The Toy front
//! end (`ssa::lower`) is one client.
//!
//! * Algorithm 1 (local value numbering): [`SsaBuilder::write_variable`] and
//!   [`SsaBuilder::read_variable`] through `BlockStates`.
//! * Algorithm 2 (global value numbering): [`SsaBuilder::lookup`], with
//!   operandless phis placed *before* recursing to break cycles. The
//!   recursion runs on an explicit stack of frames, so a chain of 100 000
//!   blocks (Ullrich §7) costs heap, not native stack.
//! * Algorithm 3 (trivial phi removal): [`SsaBuilder::try_remove_trivial_phi`],
//!   re-checking the phi users of a removed phi with a worklist; triviality
//!   checks use witness caching (§3.1).
//! * Algorithm 5 (§3.2, redundant phi SCCs): `ssa::minimize`, run by
//!   [`SsaBuilder::finish`].
//! * §3.3's marker algorithm: [`SsaMode::Marker`], selected with
//!   [`SsaBuilder::set_mode`].
//! * Algorithm 4 (incomplete CFGs): [`SsaBuilder::seal_block`] and
//!   `incomplete_phis`.
//! * §3.1 on-the-fly optimizations (constant folding, arithmetic
//!   simplification, CSE by hash-consing within a block, copy propagation,
//!   branches on constants): [`SsaBuilder::ins`], [`SsaBuilder::branch`],
//!   with the rules in `ssa::peephole`. Off at `-O0`.

use super::peephole::{self, Simplified};
use crate::entity::{Arena, EntityRef};
use crate::ir::*;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

crate::entity!(
    /// A source variable of the program being translated (Braun et al.'s
    /// "variable"): its values become SSA values, never memory.
    Var,
    "var"
);

/// Counters of what construction did, for `--stats` and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    pub phis_created: usize,
    pub phis_removed_trivial: usize,
    /// Phis removed by Algorithm 5 (redundant SCCs).
    pub phis_removed_scc: usize,
    pub folded: usize,
    pub simplified: usize,
    pub cse_hits: usize,
}

/// One pending `addPhiOperands` of Algorithm 2, kept on the heap.
struct Frame {
    /// The phi being filled: placed before recursing (Algorithm 2), or in
    /// marker mode (§3.3) only once the lookup cycles back to `block`.
    phi: Option<Value>,
    block: Block,
    /// Where the values found in the predecessors so far begin on
    /// [`LookupStacks::operands`] (they run to its top).
    operands_from: usize,
    /// The predecessor whose value is read next.
    next: usize,
    /// Where the single-predecessor blocks walked on the way to `block`
    /// begin on [`LookupStacks::chain`]; they get the phi's final value as
    /// their current definition (Algorithm 2, case 2).
    chain_from: usize,
    /// Whether the block's current definition is set to the result
    /// (Algorithm 2 does; sealing, Algorithm 4, does not).
    write_result: bool,
}

/// The explicit recursion of a lookup: frames, and two stacks their
/// operands and walked chains live on (frames close in LIFO order, so each
/// frame's part is a suffix when it closes).
#[derive(Default)]
struct LookupStacks {
    frames: Vec<Frame>,
    operands: Vec<Value>,
    chain: Vec<Block>,
}

/// What the builder keeps per block while building: one entry per block,
/// pushed when the block is created (flags and definitions side by side,
/// so that a lookup touches one cache line per block).
#[derive(Default)]
struct BlockState {
    /// Algorithm 1's `currentDef` for this block, unless `spilled`.
    defs: SmallVec<[(Var, Value); 2]>,
    /// The definitions moved to [`BlockStates::spilled_defs`].
    spilled: bool,
    sealed: bool,
    laid_out: bool,
    /// Marker mode (§3.3): while the block's frame is open in the current
    /// lookup, 1 + the frame's index; 0 otherwise.
    mark: u32,
}

/// [`BlockState`]s, and Algorithm 1's `currentDef` over them.
///
/// Most blocks define a handful of variables, so each block keeps a short
/// list searched linearly — no hashing, and no table that grows and
/// rehashes with the function (a `(var, block)` hash map was a fifth of
/// the construction time of Ullrich's program). A block that comes to
/// define many variables moves its entries to one shared hash map, so a
/// block with thousands of variables does not make each read a long scan.
#[derive(Default)]
struct BlockStates {
    states: Vec<BlockState>,
    spilled_defs: HashMap<(Var, Block), Value>,
}

impl BlockStates {
    /// Definitions a block keeps in its own list before spilling.
    const SHORT_LIMIT: usize = 16;

    fn def(&self, var: Var, block: Block) -> Option<Value> {
        let state = &self.states[block.index()];
        if state.spilled {
            return self.spilled_defs.get(&(var, block)).copied();
        }
        let found = state.defs.iter().find(|(v, _)| *v == var);
        found.map(|&(_, value)| value)
    }

    fn set_def(&mut self, var: Var, block: Block, value: Value) {
        let state = &mut self.states[block.index()];
        if state.spilled {
            self.spilled_defs.insert((var, block), value);
            return;
        }
        if let Some(entry) = state.defs.iter_mut().find(|(v, _)| *v == var) {
            entry.1 = value;
            return;
        }
        state.defs.push((var, value));
        if state.defs.len() > Self::SHORT_LIMIT {
            let defs = std::mem::take(&mut state.defs);
            state.spilled = true;
            let entries = defs.into_iter().map(|(v, value)| ((v, block), value));
            self.spilled_defs.extend(entries);
        }
    }
}

impl std::ops::Index<Block> for BlockStates {
    type Output = BlockState;
    fn index(&self, block: Block) -> &BlockState {
        &self.states[block.index()]
    }
}

impl std::ops::IndexMut<Block> for BlockStates {
    fn index_mut(&mut self, block: Block) -> &mut BlockState {
        &mut self.states[block.index()]
    }
}

/// What the builder keeps per phi while building.
#[derive(Default)]
struct PhiState {
    /// The phi has all its operands (filled and checked once).
    complete: bool,
    /// Handed out by `read_variable`: only the removal of such a phi can
    /// leave an alias in an instruction or terminator.
    escaped: bool,
    /// Indices of two operands proving the phi non-trivial (§3.1).
    witness: Option<(u32, u32)>,
    /// The phis using this one (Algorithm 3 re-checks them; only phis are
    /// ever replaced, so users of other values are not kept).
    users: Vec<Value>,
}

/// How global value numbering places phis at sealed joins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SsaMode {
    /// Algorithm 2: an operandless phi before recursing, removed again if
    /// trivial.
    Braun,
    /// §3.3's marker algorithm: mark the block instead; place a phi only
    /// if the lookup cycles back to it or its predecessors disagree. No
    /// temporary phis in acyclic regions. The default: the same SSA form,
    /// built faster (Ullrich's program: 178 M instead of 223 M
    /// instructions, no 100 000 phis placed and removed).
    #[default]
    Marker,
}

pub struct SsaBuilder {
    func: Function,
    optimize: bool,
    mode: SsaMode,
    current: Option<Block>,
    var_types: Vec<Ty>,
    blocks: BlockStates,
    incomplete_phis: HashMap<Block, Vec<(Var, Value)>>,
    /// Per phi, in step with `func.phis`.
    phi_states: Arena<Phi, PhiState>,
    /// Whether a removed phi had escaped, so that `finish` must rewrite
    /// operands (most removals happen before the phi is ever used).
    escaped_phi_removed: bool,
    /// Hash-consing table of pure instructions, per block.
    cse: HashMap<(Block, InstKind), Value>,
    stats: BuildStats,
    stacks: LookupStacks,
}

impl SsaBuilder {
    /// Starts a function whose entry block is current and sealed, with one
    /// parameter value per entry of `params`.
    pub fn new(name: &str, params: &[Ty], ret: Option<Ty>, optimize: bool) -> Self {
        let mut b = SsaBuilder {
            func: Function::new(name, ret),
            optimize,
            mode: SsaMode::default(),
            current: None,
            var_types: Vec::new(),
            blocks: BlockStates::default(),
            incomplete_phis: HashMap::default(),
            phi_states: Arena::new(),
            escaped_phi_removed: false,
            cse: HashMap::default(),
            stats: BuildStats::default(),
            stacks: LookupStacks::default(),
        };
        let entry = b.create_block();
        b.seal_block(entry);
        b.switch_to_block(entry);
        for (i, &ty) in params.iter().enumerate() {
            let v = b.func.values.push(ValueData {
                ty,
                def: ValueDef::Param(i as u32),
            });
            b.func.params.push(v);
        }
        b
    }

    /// Selects how phis are placed at sealed joins (before any lookup).
    pub fn set_mode(&mut self, mode: SsaMode) {
        self.mode = mode;
    }

    pub fn params(&self) -> &[Value] {
        &self.func.params
    }

    pub fn optimizing(&self) -> bool {
        self.optimize
    }

    pub fn declare_var(&mut self, ty: Ty) -> Var {
        self.var_types.push(ty);
        Var::new(self.var_types.len() - 1)
    }

    /// Makes room for `blocks` more blocks and `insts` more instructions
    /// (and their values), so that the arenas do not grow while building.
    pub fn reserve(&mut self, blocks: usize, insts: usize) {
        self.func.blocks.reserve(blocks);
        self.func.layout.reserve(blocks);
        self.blocks.states.reserve(blocks);
        self.func.insts.reserve(insts);
        self.func.values.reserve(insts);
    }

    pub fn create_block(&mut self) -> Block {
        self.blocks.states.push(BlockState::default());
        self.func.blocks.push(BlockData::default())
    }

    /// The block instructions go to; `None` after a jump or return, until
    /// the client switches to a reachable block.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    pub fn is_unreachable(&self) -> bool {
        self.current.is_none()
    }

    /// Makes `block` current. A block without predecessors (other than the
    /// entry) is dead: code for it is not built.
    pub fn switch_to_block(&mut self, block: Block) {
        let is_entry = self.func.layout.first().is_none_or(|&e| e == block);
        if !is_entry && self.func.blocks[block].preds.is_empty() {
            self.current = None;
            return;
        }
        if !self.blocks[block].laid_out {
            self.blocks[block].laid_out = true;
            self.func.layout.push(block);
        }
        self.current = Some(block);
    }

    fn current(&self) -> Block {
        self.current
            .expect("instruction emitted in unreachable code")
    }

    // ------------------------------------------------------------ Algorithm 1

    pub fn write_variable(&mut self, var: Var, value: Value) {
        let block = self.current();
        let value = self.resolve(value);
        self.blocks.set_def(var, block, value);
    }

    pub fn read_variable(&mut self, var: Var) -> Value {
        let block = self.current();
        self.read_variable_in(var, block)
    }

    pub fn read_variable_in(&mut self, var: Var, block: Block) -> Value {
        let v = match self.local_def(var, block) {
            Some(v) => v,
            None => match self.agreeing_predecessors(var, block) {
                Some(v) => {
                    self.blocks.set_def(var, block, v);
                    v
                }
                None => self.lookup(var, Some(block), None),
            },
        };
        if let Some(p) = self.phi_of(v) {
            self.phi_states[p].escaped = true;
        }
        v
    }

    /// The marker algorithm's answer (§3.3) for the commonest join, without
    /// its frames: `block` is sealed and every predecessor reaches a
    /// definition of `var` within a few sealed single-predecessor blocks,
    /// all the same value — so no phi is needed. `None` sends the read to
    /// the full lookup (which also handles cycles: a walk that comes back
    /// to `block` stops there, at a block with several predecessors).
    /// Algorithm 2 (`SsaMode::Braun`) keeps its temporary phis.
    fn agreeing_predecessors(&self, var: Var, block: Block) -> Option<Value> {
        const MAX_WALK: usize = 8;
        if self.mode != SsaMode::Marker || !self.blocks[block].sealed {
            return None;
        }
        let mut same = None;
        for &pred in &self.func.blocks[block].preds {
            let mut b = pred;
            let mut steps = 0;
            let v = loop {
                if let Some(v) = self.blocks.def(var, b) {
                    break self.resolve(v);
                }
                let preds = &self.func.blocks[b].preds;
                if !self.blocks[b].sealed || preds.len() != 1 || steps == MAX_WALK {
                    return None;
                }
                b = preds[0];
                steps += 1;
            };
            if same.is_some_and(|s| s != v) {
                return None;
            }
            same = Some(v);
        }
        same
    }

    fn local_def(&mut self, var: Var, block: Block) -> Option<Value> {
        let v = self.blocks.def(var, block)?;
        Some(self.resolve(v))
    }

    /// Follows the replacements of removed phis.
    fn resolve(&self, v: Value) -> Value {
        self.func.resolve(v)
    }

    // ------------------------------------------------------------ Algorithms 2 and 4

    fn new_phi(&mut self, var: Var, block: Block) -> Value {
        let ty = self.var_types[var.index()];
        let phi = self.func.add_phi(block, ty, SmallVec::new());
        self.phi_states.push(PhiState::default());
        self.stats.phis_created += 1;
        phi
    }

    fn append_phi_operand(&mut self, phi: Value, operand: Value) {
        let operand = self.resolve(operand);
        let args = self.func.phi_args_mut(phi).expect("operands go to phis");
        args.push(operand);
        if let Some(used) = self.phi_of(operand) {
            self.phi_states[used].users.push(phi);
        }
    }

    /// The phi entity of value `v`, if `v` is a live phi.
    fn phi_of(&self, v: Value) -> Option<Phi> {
        match self.func.values[v].def {
            ValueDef::Phi(p) => Some(p),
            _ => None,
        }
    }

    fn phi_state(&mut self, phi: Value) -> &mut PhiState {
        let p = self.phi_of(phi).expect("a live phi");
        &mut self.phi_states[p]
    }

    /// `readVariableRecursive` (Algorithm 2) for a read in `block`, or
    /// `addPhiOperands` for `phi` when sealing (Algorithm 4). The recursion
    /// of the paper runs on `frames`.
    fn lookup(&mut self, var: Var, block: Option<Block>, phi: Option<Value>) -> Value {
        // The stacks are kept between lookups: most lookups are short,
        // and allocating them anew each time was a large part of the cost.
        let mut stacks = std::mem::take(&mut self.stacks);
        let v = self.lookup_with(var, block, phi, &mut stacks);
        debug_assert!(stacks.frames.is_empty() && stacks.operands.is_empty());
        debug_assert!(stacks.chain.is_empty());
        self.stacks = stacks;
        v
    }

    fn lookup_with(
        &mut self,
        var: Var,
        block: Option<Block>,
        phi: Option<Value>,
        stacks: &mut LookupStacks,
    ) -> Value {
        let mut pending = block;
        if let Some(phi) = phi {
            let block = self
                .func
                .phi_block(phi)
                .expect("sealing completes phis only");
            stacks.frames.push(Frame {
                phi: Some(phi),
                block,
                operands_from: 0,
                next: 0,
                chain_from: 0,
                write_result: false,
            });
        }
        loop {
            let mut found = None;
            let walk_from = stacks.chain.len();
            if let Some(start) = pending.take() {
                found = self.descend(var, start, stacks);
            }
            if let Some(v) = found {
                for b in stacks.chain.drain(walk_from..) {
                    self.blocks.set_def(var, b, v);
                }
                match stacks.frames.last_mut() {
                    None => return v,
                    Some(top) => {
                        top.next += 1;
                        stacks.operands.push(v);
                    }
                }
            }
            // Give the innermost phi its next operand, or finish it.
            loop {
                let top = stacks.frames.last().expect("a phi is being filled");
                let preds = &self.func.blocks[top.block].preds;
                if top.next < preds.len() {
                    pending = Some(preds[top.next]);
                    break;
                }
                let frame = stacks.frames.pop().expect("checked above");
                self.blocks[frame.block].mark = 0;
                let v = self.complete_frame(
                    var,
                    frame.phi,
                    frame.block,
                    &stacks.operands[frame.operands_from..],
                );
                stacks.operands.truncate(frame.operands_from);
                if frame.write_result {
                    self.blocks.set_def(var, frame.block, v);
                }
                for b in stacks.chain.drain(frame.chain_from..) {
                    self.blocks.set_def(var, b, v);
                }
                match stacks.frames.last_mut() {
                    None => return v,
                    Some(parent) => {
                        parent.next += 1;
                        stacks.operands.push(v);
                    }
                }
            }
        }
    }

    /// The value of a block whose predecessors delivered `operands`: the
    /// phi filled and checked (Algorithm 3), or — in marker mode, when no
    /// cycle placed a phi — the one value they agree on, or a new phi.
    fn complete_frame(
        &mut self,
        var: Var,
        phi: Option<Value>,
        block: Block,
        operands: &[Value],
    ) -> Value {
        let phi = match phi {
            Some(phi) => phi,
            None => {
                let first = operands.first().map(|&v| self.resolve(v));
                if let Some(v) = first.filter(|&v| operands.iter().all(|&o| self.resolve(o) == v)) {
                    return v;
                }
                self.new_phi(var, block)
            }
        };
        for &op in operands {
            self.append_phi_operand(phi, op);
        }
        self.phi_state(phi).complete = true;
        self.try_remove_trivial_phi(phi)
    }

    /// Walks single-predecessor blocks from `block` until a definition is
    /// found (returned) or a phi must be placed (pushed as a frame).
    fn descend(&mut self, var: Var, mut block: Block, stacks: &mut LookupStacks) -> Option<Value> {
        let chain_from = stacks.chain.len();
        loop {
            if let Some(v) = self.local_def(var, block) {
                return Some(v);
            }
            if !self.blocks[block].sealed {
                // Incomplete CFG: a proxy phi, completed when sealing.
                let phi = self.new_phi(var, block);
                self.incomplete_phis
                    .entry(block)
                    .or_default()
                    .push((var, phi));
                self.blocks.set_def(var, block, phi);
                return Some(phi);
            }
            let preds = &self.func.blocks[block].preds;
            if preds.len() == 1 {
                stacks.chain.push(block);
                block = preds[0];
                continue;
            }
            if let Some(open) = self.blocks[block].mark.checked_sub(1) {
                // Marker algorithm: the lookup came back to a marked block,
                // so a phi is needed here after all, to break the cycle.
                let phi = self.new_phi(var, block);
                stacks.frames[open as usize].phi = Some(phi);
                self.blocks.set_def(var, block, phi);
                return Some(phi);
            }
            let phi = if self.mode == SsaMode::Marker {
                self.blocks[block].mark = stacks.frames.len() as u32 + 1;
                None
            } else {
                // Break potential cycles with an operandless phi.
                let phi = self.new_phi(var, block);
                self.blocks.set_def(var, block, phi);
                Some(phi)
            };
            stacks.frames.push(Frame {
                phi,
                block,
                operands_from: stacks.operands.len(),
                next: 0,
                chain_from,
                write_result: true,
            });
            return None;
        }
    }

    /// Algorithm 4: no predecessors will be added to `block` any more.
    pub fn seal_block(&mut self, block: Block) {
        if self.blocks[block].sealed {
            return;
        }
        self.blocks[block].sealed = true;
        // Mostly empty (only loop headers get incomplete phis): skip the
        // hash lookup then.
        if self.incomplete_phis.is_empty() {
            return;
        }
        for (var, phi) in self.incomplete_phis.remove(&block).unwrap_or_default() {
            self.lookup(var, None, Some(phi));
        }
    }

    // ------------------------------------------------------------ Algorithm 3

    /// The value a complete phi stands for if it is trivial: the one operand
    /// other than itself, or a fresh `Undef` if there is none.
    ///
    /// Witness caching (§3.1): a non-trivial phi remembers two operands that
    /// differ from each other and from the phi; while they still do (after
    /// replacements), the check costs two lookups instead of a scan.
    fn trivial_value(&mut self, phi: Value) -> Option<Value> {
        let p = self.phi_of(phi).expect("a live phi");
        let args = &self.func.phis[p].args;
        if let Some((i, j)) = self.phi_states[p].witness {
            let (a, b) = (
                self.resolve(args[i as usize]),
                self.resolve(args[j as usize]),
            );
            if a != b && a != phi && b != phi {
                return None;
            }
        }
        let mut same: Option<(usize, Value)> = None;
        for (k, &op) in args.iter().enumerate() {
            let op = self.resolve(op);
            if op == phi {
                continue;
            }
            match same {
                None => same = Some((k, op)),
                Some((i, v)) if v != op => {
                    self.phi_states[p].witness = Some((i as u32, k as u32));
                    return None;
                }
                Some(_) => {}
            }
        }
        Some(match same {
            Some((_, v)) => v,
            None => {
                let ty = self.func.values[phi].ty;
                self.func.values.push(ValueData {
                    ty,
                    def: ValueDef::Undef,
                })
            }
        })
    }

    /// Reroutes every use of `phi` to `same` and removes `phi`; returns the
    /// phis that used it (Algorithm 3's `users`).
    fn replace_phi(&mut self, phi: Value, same: Value) -> Vec<Value> {
        let p = self.phi_of(phi).expect("only phis are replaced");
        self.func.remove_phi(phi, same);
        self.stats.phis_removed_trivial += 1;
        let state = &mut self.phi_states[p];
        self.escaped_phi_removed |= state.escaped;
        let mut users = std::mem::take(&mut state.users);
        users.retain(|&u| u != phi);
        users.dedup();
        for &user in &users {
            if let Some(args) = self.func.phi_args_mut(user) {
                for a in args.iter_mut().filter(|a| **a == phi) {
                    *a = same;
                }
            }
        }
        if let Some(s) = self.phi_of(same).filter(|_| !users.is_empty()) {
            self.phi_states[s].users.extend(users.iter().copied());
        }
        users
    }

    /// Algorithm 3: removes `phi` if trivial, then re-checks every phi that
    /// used it (they may have become trivial), and theirs in turn, with a
    /// worklist instead of recursion. Returns what `phi` stands for.
    pub fn try_remove_trivial_phi(&mut self, phi: Value) -> Value {
        let Some(same) = self.trivial_value(phi) else {
            return phi;
        };
        let mut work = self.replace_phi(phi, same);
        while let Some(user) = work.pop() {
            let complete = self
                .phi_of(user)
                .is_some_and(|u| self.phi_states[u].complete);
            if !complete {
                continue;
            }
            if let Some(s) = self.trivial_value(user) {
                work.extend(self.replace_phi(user, s));
            }
        }
        self.resolve(same)
    }

    // ------------------------------------------------------------ instructions

    /// Emits an instruction in the current block and returns its result.
    /// With optimizations on, pure instructions are first folded,
    /// simplified, or found in the block's hash-consing table (§3.1).
    pub fn ins(&mut self, mut kind: InstKind, ty: Option<Ty>, loc: SrcLoc) -> Option<Value> {
        kind.map_operands(|v| self.resolve(v));
        if !(self.optimize && kind.is_pure()) {
            return self.emit(kind, ty, loc);
        }
        let simplified = peephole::simplify(&self.func, &kind);
        match simplified {
            Simplified::Unchanged => {}
            Simplified::Folded(_) => self.stats.folded += 1,
            _ => self.stats.simplified += 1,
        }
        // A constant is made as constants are (shared within the block,
        // with no source location).
        if let Simplified::Folded(c) | Simplified::Constant(c) = simplified {
            return Some(self.constant(c));
        }
        kind = match simplified.apply(kind, |c| self.constant(c)) {
            Ok(kind) => kind,
            Err(same) => return Some(same),
        };
        let kind = peephole::canonicalize(kind);
        let key = (self.current(), kind);
        if let Some(&v) = self.cse.get(&key) {
            self.stats.cse_hits += 1;
            return Some(v);
        }
        let v = self.emit(key.1.clone(), ty, loc);
        self.cse
            .insert(key, v.expect("pure instructions have results"));
        v
    }

    fn emit(&mut self, kind: InstKind, ty: Option<Ty>, loc: SrcLoc) -> Option<Value> {
        let block = self.current();
        let inst = Inst::new(self.func.insts.len());
        let result = ty.map(|ty| {
            self.func.values.push(ValueData {
                ty,
                def: ValueDef::Inst(inst),
            })
        });
        self.func.insts.push(InstData { kind, result, loc });
        self.func.blocks[block].insts.push(inst);
        result
    }

    /// A constant (shared within the block when optimizing).
    pub fn constant(&mut self, c: semantics::Const) -> Value {
        self.ins(InstKind::constant(c), Some(c.ty()), SrcLoc::default())
            .expect("constants have results")
    }

    /// The constant `v` holds, if it is one.
    pub fn const_value(&self, v: Value) -> Option<semantics::Const> {
        self.func.constant(v)
    }

    // ------------------------------------------------------------ terminators

    fn terminate(&mut self, term: Terminator) {
        let block = self.current();
        for to in term.successors() {
            self.func.blocks[to].preds.push(block);
        }
        self.func.blocks[block].term = Some(term);
        self.current = None;
    }

    pub fn jump(&mut self, target: Block) {
        self.terminate(Terminator::Jump(target));
    }

    /// A conditional branch; on a constant condition (when optimizing) only
    /// the live edge is built (§3.1, Fig. 4), leaving the other target
    /// without this predecessor.
    pub fn branch(&mut self, cond: Value, then_block: Block, else_block: Block) {
        let cond = self.resolve(cond);
        if self.optimize {
            if let Some(semantics::Const::Bool(c)) = self.const_value(cond) {
                self.jump(if c { then_block } else { else_block });
                return;
            }
        }
        self.terminate(Terminator::Branch {
            cond,
            then_block,
            else_block,
        });
    }

    pub fn ret(&mut self, value: Option<Value>) {
        let value = value.map(|v| self.resolve(v));
        self.terminate(Terminator::Return(value));
    }

    pub fn unreachable(&mut self) {
        self.terminate(Terminator::Unreachable);
    }

    pub fn stats(&self) -> BuildStats {
        self.stats
    }

    /// Ends construction: every block must be sealed. Rewrites every use of
    /// a removed phi to its replacement (if any used it before its removal)
    /// and returns the function.
    pub fn finish(mut self) -> (Function, BuildStats) {
        debug_assert!(
            self.incomplete_phis.is_empty(),
            "finish() with unsealed blocks"
        );
        let mut f = std::mem::replace(&mut self.func, Function::new("", None));
        if self.escaped_phi_removed {
            f.resolve_aliases();
        }
        // Algorithm 5 (§3.2): the redundant phi cycles that Algorithm 3
        // cannot see (irreducible control flow, copy propagation).
        // (Only if a phi is left: Algorithm 3 often removes them all.)
        if self.stats.phis_created > self.stats.phis_removed_trivial {
            self.stats.phis_removed_scc = super::minimize::remove_redundant_phi_sccs(&mut f);
        }
        if self.optimize {
            crate::ir::tidy::remove_dead_pure_insts(&mut f);
        }
        (f, self.stats)
    }
}
