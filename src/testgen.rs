//! A generator of random, well-typed, terminating Toy programs, for
//! differential testing (`tests/differential.rs`, `cargo run --release --bin
//! difftest`). Deterministic from a seed.
//!
//! Termination by construction: loops run a small constant number of times
//! (`while` loops carry their own counter), functions call only functions
//! declared before them, and the one recursive function (now and then a
//! pair calling each other) counts a depth parameter down. Programs exercise every operator on int, float and bool
//! with edge values (`i64::MIN`, `-1`, `0`, NaN, ±inf, `-0.0`), constant
//! sub-expressions (for the folder), globals, arrays (indices in bounds by
//! construction, and now and then out of bounds on purpose), shadowing,
//! `break`/`continue`, `&&`/`||` and early `return`. Division by zero and
//! out-of-bounds accesses end a program with a runtime error — which the
//! back ends must then agree on too.
//!
//! For loop versioning (checking once before an innermost counted loop
//! that its accesses stay in bounds, then running a copy without checks
//! and with invariant rows hoisted), programs have counted loops over
//! arrays (`Gen::counted_loop`): `for i in lo..hi`, and `while i < n`
//! or `while i <= n` stepping by a constant 1 to 4, indexing int, float
//! and bool arrays at `i + d` for small offsets of both signs (now and
//! then after an int `k` the loop does not change, `a[k + i + d]`, the
//! shape whose address the translator splits) and at invariant `a[k +
//! d]` (`a[k]`, `a[k + 1]`, …: one span guard), several arrays in one
//! loop (now and then two names of one, `let b = a;`, written through
//! one and read through the other), reads and writes under `if`, `break` and `continue`, prints
//! and calls, and values computed in the loop printed after it; and a
//! `for j` loop inside a `for i` loop over an array of arrays, reading
//! `m[i][j + d]`, `m[i - 1][j + 1]`, `m[k][j]` and a row taken before it,
//! storing elements, and rarely replacing a row (`m[i] = [v;
//! len(m[i])]`), that row's variable or the whole array. Their bounds —
//! literals, variables, lengths (`len(a) - 1`, `len(a) + 1`,
//! `min(len(a), len(c))`) — keep every access in bounds by construction
//! (arrays of other lengths go into the `min`, or are indexed under a
//! test of their length), so lower bounds are negative when the offsets
//! are positive and ranges now and then empty; but a few loops in a
//! hundred start one below or end one past, so that the access at the
//! boundary fails there. They run at most `MAX_LEN + 1` times, and an
//! array they replace gets one as long.
//!
//! Now and then a loop reads `a[j]` with `j` clamped into `[0 or 1, hi]`
//! by `if`s or by `min` and `max` (`hi` a literal, under a test that `a`
//! is longer than `hi` but for a few in a hundred), for the ranges of
//! joins and of `min`/`max` (`ir::ranges`, `ir::version`'s spans).
//!
//! For groups of checks at offsets from one index (`ir::bounds`),
//! straight-line code reads a record's three fields out of order
//! (`a[at + 2]`, `a[at]`, `a[at + 1]`), the index now and then one before
//! the start or too near the end, where the field that fails first in
//! program order is reported.
//!
//! For the collector (`JITRUN_GC=stress`/`verify`, `tests/gc_generated.rs`),
//! programs also allocate while they hold arrays in every place a root can
//! be: arrays of arrays (`[[int]]`, `[[float]]`, `[[bool]]`, rows read,
//! replaced and shared), temporaries made in loops (up to a few hundred
//! elements) while other arrays stay live in locals and are used after the
//! loop, arrays carried around loops (`c = [c[i] + 1, c[j]]`, `c = f(c)`:
//! only a phi holds the old one), functions that allocate while they still
//! need an array parameter, functions that return fresh arrays, globals of
//! array type replaced in loops and by callees (`g = f(g)`), and grids whose
//! rows only the outer array reaches.
//!
//! Indices into arrays that a call may replace are computed without calls
//! (`abs(e % len(a))`, or the usual form with a pure `e`), so `len(a)` is
//! the length of the array indexed and the index is in bounds; loops that
//! walk an array to its length keep it from being replaced inside them
//! (`frozen`). Variables
//! only ever hold arrays of at most `MAX_LEN` elements, longer
//! temporaries stay out of every scope, and a cost model (the product of
//! the trip counts of enclosing loops times what each allocation and each
//! call may allocate) keeps a program below a few MB of allocation, which
//! `JITRUN_GC=verify` (never reusing memory) needs.

use std::fmt::Write;

/// xorshift64*: small, fast, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const ARRAYS: &[Ty] = &[Ty::IntArr, Ty::FloatArr, Ty::BoolArr];
/// Arrays of arrays, `[[int]]` the most often.
const NESTED: &[Ty] = &[Ty::IntArr2, Ty::IntArr2, Ty::FloatArr2, Ty::BoolArr2];

/// The longest array a variable (or a function's result) ever holds:
/// loops up to an array's length run at most `MAX_LEN + 1` times, and
/// printing any variable prints little. Longer temporaries are never
/// declared in a scope, so no generated statement can reach them.
const MAX_LEN: u64 = 8;
/// What the top level of a program may allocate, in bytes, counting every
/// loop at its largest trip count (verify mode never reuses memory).
const MAIN_BUDGET: u64 = 2 << 20;
/// What one call of a function may allocate.
const FN_BUDGET: u64 = 256 << 10;

/// The bytes of an array of `len` elements, header and length included.
fn array_bytes(len: u64) -> u64 {
    16 + 8 * len
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Float,
    Bool,
    IntArr,
    FloatArr,
    BoolArr,
    IntArr2,
    FloatArr2,
    BoolArr2,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Float => "float",
            Ty::Bool => "bool",
            Ty::IntArr => "[int]",
            Ty::FloatArr => "[float]",
            Ty::BoolArr => "[bool]",
            Ty::IntArr2 => "[[int]]",
            Ty::FloatArr2 => "[[float]]",
            Ty::BoolArr2 => "[[bool]]",
        }
    }

    fn elem(self) -> Option<Ty> {
        match self {
            Ty::IntArr => Some(Ty::Int),
            Ty::FloatArr => Some(Ty::Float),
            Ty::BoolArr => Some(Ty::Bool),
            Ty::IntArr2 => Some(Ty::IntArr),
            Ty::FloatArr2 => Some(Ty::FloatArr),
            Ty::BoolArr2 => Some(Ty::BoolArr),
            _ => None,
        }
    }

    /// The array type whose elements are `self` (for scalars and flat
    /// arrays).
    fn array_of(self) -> Option<Ty> {
        match self {
            Ty::Int => Some(Ty::IntArr),
            Ty::Float => Some(Ty::FloatArr),
            Ty::Bool => Some(Ty::BoolArr),
            Ty::IntArr => Some(Ty::IntArr2),
            Ty::FloatArr => Some(Ty::FloatArr2),
            Ty::BoolArr => Some(Ty::BoolArr2),
            _ => None,
        }
    }

    fn is_array(self) -> bool {
        self.elem().is_some()
    }

    fn is_nested(self) -> bool {
        self.elem().is_some_and(Ty::is_array)
    }

    /// The scalar at the bottom of an array type (the type itself for a
    /// scalar).
    fn scalar_of(self) -> Ty {
        match self.elem() {
            Some(e) => e.scalar_of(),
            None => self,
        }
    }

    /// An array type: flat three times in four.
    fn array(rng: &mut Rng) -> Ty {
        if rng.chance(25) {
            *rng.pick(NESTED)
        } else {
            *rng.pick(ARRAYS)
        }
    }

    fn scalar(rng: &mut Rng) -> Ty {
        *rng.pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Bool])
    }

    fn any(rng: &mut Rng) -> Ty {
        if rng.chance(8) {
            return *rng.pick(NESTED);
        }
        *rng.pick(&[
            Ty::Int,
            Ty::Int,
            Ty::Float,
            Ty::Bool,
            Ty::IntArr,
            Ty::FloatArr,
            Ty::BoolArr,
        ])
    }
}

struct Func {
    name: String,
    params: Vec<Ty>,
    ret: Option<Ty>,
    /// The most one call may allocate, in bytes.
    cost: u64,
    /// Globals a call may replace (assign a new array to), directly or in
    /// its callees.
    replaces: Vec<String>,
}

struct Gen {
    rng: Rng,
    out: String,
    indent: usize,
    /// Visible variables, innermost scope last.
    scopes: Vec<Vec<(String, Ty)>>,
    funcs: Vec<Func>,
    next_name: usize,
    /// Nesting of loops (for `break`/`continue`) and of statements.
    loops: usize,
    depth: usize,
    /// The return type of the function being generated.
    ret: Option<Option<Ty>>,
    /// How many times the statement being generated may run per call of
    /// its function (or per program at the top level): the product of the
    /// largest trip counts of the loops around it.
    mult: u64,
    /// What the function being generated (or the top level) may allocate
    /// so far, in bytes.
    cost: u64,
    /// Above zero while generating an expression that must not call (an
    /// index into an array a callee might replace).
    pure: usize,
    /// Arrays a loop walks to their length: no statement inside may
    /// replace them, and no call that replaces them is made there.
    frozen: Vec<String>,
    /// Globals the function being generated may replace.
    replacing: Vec<String>,
    /// Globals any function generated so far may replace.
    replaced: Vec<String>,
    /// Global arrays made from a literal of constants (tables, unless a
    /// statement stores into or replaces them).
    tables: Vec<(String, Ty)>,
}

const INT_EDGES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "7",
    "-9223372036854775808",
    "9223372036854775807",
    "0x7f",
    "0b101",
    "1_000",
    "63",
    "64",
    "65",
];
const FLOAT_EDGES: &[&str] = &[
    "0.0",
    "-0.0",
    "1.0",
    "-1.5",
    "0.1",
    "2.5e-3",
    "1e300",
    "(0.0 / 0.0)",
    "(1.0 / 0.0)",
    "(-1.0 / 0.0)",
    "3.0E+2",
];

/// What a counted loop indexes: arrays (names, or rows `m[i]`) at `i +
/// d` for offsets `d` in `offsets`, which its bounds keep inside
/// `0..len` (but now and then by one).
#[derive(Clone, Default)]
struct Walk {
    /// The counter (a `for` variable, or a `while` loop's own).
    i: String,
    /// Arrays every `[i + d]` stays inside, with their element types.
    arrays: Vec<(String, Ty)>,
    /// Arrays indexed only under a test of their length.
    guarded: Vec<(String, Ty)>,
    /// The least length of `arrays`: `len(a)`, `min(len(a), len(c))` or
    /// a literal.
    len: String,
    /// The least and the largest `d`.
    offsets: (i64, i64),
    /// Scalars the loop computes, printed after it.
    accs: Vec<(String, Ty)>,
    /// An int the loop sets to the counter before it breaks.
    found: Option<String>,
    /// An array `a` and an index `k` the loop does not change, read and
    /// written at `a[k + d]` for small offsets `d` (one guard of `k` in a
    /// versioned copy), and the element type.
    invariant: Option<(String, String, Ty)>,
    /// The step of a `while` loop (bumped before a `continue` too).
    step: Option<u64>,
    /// Two names of one array (`let b = a;`), when the loop has them.
    alias: Option<(String, String)>,
    /// An int the loop does not change, added to every index (`a[k + i +
    /// d]`): the shape whose address the translator splits into a base
    /// before the loop and the counter.
    base: Option<String>,
}

impl Walk {
    /// The index `i + d`, after the base when the walk has one.
    fn at(&self, d: i64) -> String {
        match &self.base {
            Some(k) => format!("{k} + {}", plus(&self.i, d)),
            None => plus(&self.i, d),
        }
    }
}

/// `base + k` in Toy: `i`, `i + 2`, `len(a) - 1`; folded into a literal
/// and into a constant ending `base` (`plus("len(a) - 3", -1)` is
/// `len(a) - 4`).
fn plus(base: &str, k: i64) -> String {
    if let Ok(n) = base.parse::<i64>() {
        return (n + k).to_string();
    }
    for (op, sign) in [(" - ", -1), (" + ", 1)] {
        if let Some((head, tail)) = base.rsplit_once(op) {
            if let Ok(n) = tail.parse::<i64>() {
                return plus(head, sign * n + k);
            }
        }
    }
    match k.cmp(&0) {
        std::cmp::Ordering::Equal => base.to_string(),
        std::cmp::Ordering::Greater => format!("{base} + {k}"),
        std::cmp::Ordering::Less => format!("{base} - {}", -k),
    }
}

/// Whether a counted loop makes a `to` of a scalar `from`: itself,
/// `int(x)`, `float(x)`, or a comparison (bools only from bools).
fn converts(from: Ty, to: Ty) -> bool {
    from == to || to == Ty::Bool || (from != Ty::Bool && to != Ty::Bool)
}

/// The least of `items` (ints): `min(a, min(b, c))`.
fn min_of(items: &[String]) -> String {
    match items {
        [] => unreachable!("no items"),
        [one] => one.clone(),
        [first, rest @ ..] => format!("min({first}, {})", min_of(rest)),
    }
}

/// Generates the program for `seed`.
pub fn program(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng::new(seed),
        out: String::new(),
        indent: 0,
        scopes: vec![Vec::new()],
        funcs: Vec::new(),
        next_name: 0,
        loops: 0,
        depth: 0,
        ret: None,
        mult: 1,
        cost: 0,
        pure: 0,
        frozen: Vec::new(),
        replacing: Vec::new(),
        replaced: Vec::new(),
        tables: Vec::new(),
    };
    g.program();
    g.out
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next_name += 1;
        format!("{prefix}{}", self.next_name)
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn vars_of(&self, ty: Ty) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for (name, t) in scope.iter().rev() {
                if seen.insert(name.clone()) && *t == ty {
                    out.push(name.clone());
                }
            }
        }
        out
    }

    fn declare(&mut self, name: String, ty: Ty) {
        self.scopes.last_mut().expect("a scope").push((name, ty));
    }

    fn program(&mut self) {
        // Globals first, so that functions can use them.
        for _ in 0..1 + self.rng.below(3) {
            let ty = Ty::any(&mut self.rng);
            let name = self.fresh("g");
            let init = self.expr(ty, 2);
            self.line(&format!("let {name}: {} = {init};", ty.name()));
            self.declare(name, ty);
        }
        // A global array (or array of arrays) for loops and callees to
        // replace.
        if self.rng.chance(60) {
            let ty = Ty::array(&mut self.rng);
            let name = self.fresh("g");
            let init = self.expr(ty, 2);
            self.line(&format!("let {name}: {} = {init};", ty.name()));
            self.declare(name, ty);
        }
        if self.rng.chance(50) {
            self.table_global();
        }
        self.recursive_function();
        for _ in 0..self.rng.below(2) {
            self.gc_function();
        }
        for _ in 0..self.rng.below(4) {
            self.function();
        }
        for _ in 0..self.rng.below(3) {
            self.gc_function();
        }
        let body = 3 + self.rng.below(6);
        for _ in 0..body {
            self.stmt();
        }
        if !self.tables.is_empty() && self.rng.chance(50) {
            self.table_walk();
        }
        if self.rng.chance(50) {
            self.gc_loop();
        }
        self.print_all_visible();
    }

    /// `fn rN(d: int, x: int) -> int`, recursing on `d - 1` down to 0; now
    /// and then through a partner `rM` that `rN` calls and that calls `rN`
    /// (mutual recursion, which `ir::inline` unrolls too). Only `rN` is
    /// called from elsewhere.
    fn recursive_function(&mut self) {
        let name = self.fresh("r");
        let partner = self.rng.chance(40).then(|| self.fresh("r"));
        let callee = partner.clone().unwrap_or_else(|| name.clone());
        let (mut cost, mut replaces) = self.recursive_body(&name, &callee);
        if let Some(partner) = &partner {
            let (more, also) = self.recursive_body(partner, &name);
            cost = cost.saturating_add(more);
            for g in also {
                if !replaces.contains(&g) {
                    replaces.push(g);
                }
            }
        }
        self.funcs.push(Func {
            name,
            params: vec![Ty::Int, Ty::Int],
            ret: Some(Ty::Int),
            cost,
            replaces,
        });
    }

    /// `fn name(d: int, x: int) -> int` returning a value at depth 0 and
    /// `callee(d - 1, …) + x` above it (or the call alone, `x * call`,
    /// `e + call`): its cost and the globals it may replace.
    fn recursive_body(&mut self, name: &str, callee: &str) -> (u64, Vec<String>) {
        self.line(&format!("fn {name}(d: int, x: int) -> int {{"));
        self.indent += 1;
        self.scopes
            .push(vec![("d".into(), Ty::Int), ("x".into(), Ty::Int)]);
        self.ret = Some(Some(Ty::Int));
        let outer = self.enter_function();
        let base = self.expr(Ty::Int, 2);
        self.line(&format!("if d <= 0 {{ return {base}; }}"));
        let step = self.expr(Ty::Int, 2);
        // The shapes of tail calls `ir::tailrec` makes jumps: the call's
        // result returned, or plus or times a value computed before it.
        let call = format!("{callee}(d - 1, {step})");
        let returned = match self.rng.below(4) {
            0 => call,
            1 => format!("x * {call}"),
            2 => format!("({}) + {call}", self.expr(Ty::Int, 1)),
            _ => format!("{call} + x"),
        };
        self.line(&format!("return {returned};"));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        // Calls go at most 5 deep (`call`).
        self.cost = self.cost.saturating_mul(6);
        let own = self.leave_function(outer);
        self.ret = None;
        own
    }

    /// Starts counting what a function body allocates; returns what the
    /// code around it had counted.
    fn enter_function(&mut self) -> (u64, u64, Vec<String>) {
        let mult = std::mem::replace(&mut self.mult, 1);
        let cost = std::mem::replace(&mut self.cost, 0);
        (mult, cost, std::mem::take(&mut self.replacing))
    }

    /// Ends a function body: its cost and the globals it may replace.
    fn leave_function(&mut self, outer: (u64, u64, Vec<String>)) -> (u64, Vec<String>) {
        let (mult, cost, replacing) = outer;
        self.mult = mult;
        let own = std::mem::replace(&mut self.cost, cost);
        let replaces = std::mem::replace(&mut self.replacing, replacing);
        for g in &replaces {
            if !self.replaced.contains(g) {
                self.replaced.push(g.clone());
            }
        }
        (own, replaces)
    }

    /// What the code being generated may allocate at most.
    fn budget(&self) -> u64 {
        if self.ret.is_some() {
            FN_BUDGET
        } else {
            MAIN_BUDGET
        }
    }

    /// Whether `bytes` more, per run of the current statement, stay
    /// within the budget.
    fn affords(&self, bytes: u64) -> bool {
        self.cost.saturating_add(self.mult.saturating_mul(bytes)) <= self.budget()
    }

    /// Counts an allocation of `len` elements by the current statement.
    fn charge(&mut self, len: u64) {
        self.cost = self
            .cost
            .saturating_add(self.mult.saturating_mul(array_bytes(len)));
    }

    /// Whether the current statement may call function `i`: within the
    /// budget, not while calls are ruled out, and not replacing an array
    /// a loop around walks.
    fn callable(&self, i: usize) -> bool {
        let f = &self.funcs[i];
        self.pure == 0
            && self.affords(f.cost)
            && !f.replaces.iter().any(|g| self.frozen.contains(g))
    }

    /// Whether `name` (as seen here) is a global.
    fn is_global(&self, name: &str) -> bool {
        let innermost = self
            .scopes
            .iter()
            .rposition(|scope| scope.iter().any(|(n, _)| n == name));
        innermost == Some(0)
    }

    /// Notes that the current statement assigns a new array to `name`.
    fn replacing_var(&mut self, name: &str) {
        if self.ret.is_some() && self.is_global(name) && !self.replacing.iter().any(|g| g == name) {
            self.replacing.push(name.to_string());
        }
    }

    fn function(&mut self) {
        let name = self.fresh("f");
        let params: Vec<Ty> = (0..self.rng.below(4))
            .map(|_| Ty::any(&mut self.rng))
            .collect();
        let ret = if self.rng.chance(80) {
            Some(Ty::any(&mut self.rng))
        } else {
            None
        };
        let mut scope = Vec::new();
        let mut sig = Vec::new();
        for (i, ty) in params.iter().enumerate() {
            let p = format!("p{i}");
            sig.push(format!("{p}: {}", ty.name()));
            scope.push((p, *ty));
        }
        let arrow = ret.map(|t| format!(" -> {}", t.name())).unwrap_or_default();
        self.line(&format!("fn {name}({}){arrow} {{", sig.join(", ")));
        self.indent += 1;
        self.scopes.push(scope);
        self.ret = Some(ret);
        let outer = self.enter_function();
        for _ in 0..1 + self.rng.below(4) {
            self.stmt();
        }
        if let Some(t) = ret {
            let v = self.expr(t, 2);
            self.line(&format!("return {v};"));
        }
        let (cost, replaces) = self.leave_function(outer);
        self.ret = None;
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        self.funcs.push(Func {
            name,
            params,
            ret,
            cost,
            replaces,
        });
    }

    /// `n` statements one level deeper, in a scope of their own.
    fn inner(&mut self, n: usize) {
        self.indent += 1;
        self.depth += 1;
        self.scopes.push(Vec::new());
        self.stmts(n);
        self.scopes.pop();
        self.depth -= 1;
        self.indent -= 1;
    }

    fn block(&mut self, header: &str, n: usize) {
        self.line(&format!("{header} {{"));
        self.inner(n);
        self.line("}");
    }

    fn stmts(&mut self, n: usize) {
        for _ in 0..n {
            self.stmt();
        }
    }

    fn stmt(&mut self) {
        let nested = self.depth < 3;
        match self.rng.below(if nested { 19 } else { 9 }) {
            8 if !nested => self.array_stmt(),
            15 => self.gc_loop(),
            16 => self.array_stmt(),
            0 | 1 => self.let_stmt(),
            2 | 3 => self.assign(),
            4 => self.print_stmt(),
            5 => self.element_assign(),
            6 => self.call_stmt(),
            7 if self.rng.chance(50) => self.choice(),
            7 => self.control_transfer(),
            8 | 9 => self.if_stmt(),
            10 | 11 => self.for_stmt(),
            12 if self.rng.chance(25) => self.stepped_loop(),
            12 => self.while_stmt(),
            13 if self.rng.chance(30) => self.array_reversal(),
            13 if self.rng.chance(30) => self.strided_fill(),
            13 if self.rng.chance(25) => self.arrays_in_step(),
            13 if self.rng.chance(35) => self.recurrence(),
            13 => self.array_walk(),
            14 if self.rng.chance(40) => self.search(),
            14 if self.rng.chance(50) => self.dispatch(),
            17 if self.rng.chance(30) => self.ring_walk(),
            17 if self.rng.chance(25) => self.span_walk(),
            17 if self.rng.chance(15) => self.small_vector(),
            17 if self.rng.chance(12) => self.vector_field(),
            17 if self.rng.chance(30) => self.aliased_rows(),
            17 | 18 => self.counted_loop(),
            _ => {
                let n = 1 + self.rng.below(3);
                self.block("", n);
            }
        }
    }

    fn let_stmt(&mut self) {
        let ty = Ty::any(&mut self.rng);
        // Shadow an existing name now and then.
        let name = match self.vars_of(ty).first() {
            Some(existing) if self.rng.chance(20) => existing.clone(),
            _ => self.fresh("v"),
        };
        let init = self.expr(ty, 3);
        if self.rng.chance(50) {
            self.line(&format!("let {name}: {} = {init};", ty.name()));
        } else {
            self.line(&format!("let {name} = {init};"));
        }
        self.declare(name, ty);
    }

    fn assign(&mut self) {
        let ty = Ty::scalar(&mut self.rng);
        let vars = self.vars_of(ty);
        if vars.is_empty() {
            return self.let_stmt();
        }
        let name = self.rng.pick(&vars).clone();
        let value = self.expr(ty, 3);
        let ops: &[&str] = match ty {
            Ty::Int => &[
                "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
            ],
            Ty::Float => &["=", "+=", "-=", "*=", "/=", "%="],
            _ => &["="],
        };
        let op = self.rng.pick(ops);
        self.line(&format!("{name} {op} {value};"));
    }

    fn element_assign(&mut self) {
        if self.rng.chance(15) {
            self.record_read();
        }
        let ty = *self.rng.pick(ARRAYS);
        let arrays = self.vars_of(ty);
        let Some(arr) = arrays.first().cloned() else {
            return self.let_stmt();
        };
        let index = self.index_for(&arr);
        let value = self.expr(ty.elem().expect("array type"), 2);
        let op = if ty != Ty::BoolArr && self.rng.chance(30) {
            "+="
        } else {
            "="
        };
        self.line(&format!("{arr}[{index}] {op} {value};"));
    }

    /// Fields of a record read at constant offsets from one index, out of
    /// order (`a[x + 2]`, `a[x]`, `a[x + 1]`: one group check in
    /// `ir::bounds`), now and then from an index before the start or too
    /// near the end, where the first field out of bounds in program order
    /// is reported.
    fn record_read(&mut self) {
        let arrays = self.vars_of(Ty::IntArr);
        let Some(arr) = arrays.first().cloned() else {
            return self.let_stmt();
        };
        let mut offsets = [0, 1, 2];
        offsets.rotate_left(self.rng.below(3));
        let [a, b, c] = offsets.map(|d| format!("{arr}[at + {d}]"));
        let read = format!("print({a} * 3 + {b} - {c});");
        match self.rng.below(8) {
            0 => self.line(&format!("{{ let at = -1; {read} }}")),
            1 => self.line(&format!("{{ let at = len({arr}) - 2; {read} }}")),
            _ => {
                let index = self.index_for(&arr);
                self.line(&format!(
                    "if len({arr}) >= 3 {{ let at = ({index}) % (len({arr}) - 2); {read} }}"
                ));
            }
        }
    }

    fn print_stmt(&mut self) {
        let mut args = Vec::new();
        for _ in 0..self.rng.below(4) {
            if self.rng.chance(15) {
                args.push("\"s\\t\\\"q\\\"\"".to_string());
            } else {
                let ty = Ty::any(&mut self.rng);
                args.push(self.expr(ty, 2));
            }
        }
        self.line(&format!("print({});", args.join(", ")));
    }

    fn call_stmt(&mut self) {
        let callable: Vec<usize> = (0..self.funcs.len())
            .filter(|&i| self.callable(i))
            .collect();
        if callable.is_empty() {
            return self.print_stmt();
        }
        let i = *self.rng.pick(&callable);
        let call = self.call(i);
        self.line(&format!("{call};"));
    }

    fn control_transfer(&mut self) {
        if self.loops > 0 && self.rng.chance(60) {
            let word = if self.rng.chance(50) {
                "break"
            } else {
                "continue"
            };
            let cond = self.expr(Ty::Bool, 2);
            self.line(&format!("if {cond} {{ {word}; }}"));
        } else if let Some(ret) = self.ret {
            let cond = self.expr(Ty::Bool, 2);
            let value = ret
                .map(|t| format!(" {}", self.expr(t, 2)))
                .unwrap_or_default();
            self.line(&format!("if {cond} {{ return{value}; }}"));
        } else {
            self.print_stmt();
        }
    }

    fn if_stmt(&mut self) {
        let cond = if self.rng.chance(20) {
            self.guarded_cond()
        } else {
            self.expr(Ty::Bool, 3)
        };
        self.line(&format!("if {cond} {{"));
        let n = 1 + self.rng.below(3);
        self.inner(n);
        for _ in 0..self.rng.below(3) {
            let cond = self.expr(Ty::Bool, 2);
            self.line(&format!("}} else if {cond} {{"));
            let n = 1 + self.rng.below(2);
            self.inner(n);
        }
        if self.rng.chance(50) {
            self.line("} else {");
            let n = 1 + self.rng.below(2);
            self.inner(n);
        }
        self.line("}");
    }

    /// A branch whose arms only compute, as `ir::select` converts: a
    /// running extreme (`if y > x { x = y; }`), a chain of conditional
    /// steps (`if c { x += 3; } if d { } else { x -= 1; }`, which it takes
    /// apart) or a choice between values computed without reads, calls
    /// or division (`if c { x = a; }`, with an `else` or an `else if`).
    fn choice(&mut self) {
        let ty = *self.rng.pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Bool]);
        // A global's store is not a computation: only locals (a new one
        // if need be).
        let local = self.vars_of(ty).into_iter().find(|v| !self.is_global(v));
        let x = match local {
            Some(x) => x,
            None => {
                let x = self.fresh("c");
                let init = self.pure_value(ty, 1);
                self.line(&format!("let {x} = {init};"));
                self.declare(x.clone(), ty);
                x
            }
        };
        if ty != Ty::Bool && self.rng.chance(40) {
            let y = self.pure_value(ty, 1);
            let op = self.rng.pick(&["<", "<=", ">", ">="]);
            self.line(&format!("if {y} {op} {x} {{ {x} = {y}; }}"));
            return;
        }
        if ty == Ty::Int && self.rng.chance(50) {
            for _ in 0..2 + self.rng.below(3) {
                let cond = self.pure_cond();
                let op = self.rng.pick(&["+=", "-="]);
                let k = 1 + self.rng.below(3);
                let step = format!("{x} {op} {k};");
                if self.rng.chance(70) {
                    self.line(&format!("if {cond} {{ {step} }}"));
                } else {
                    self.line(&format!("if {cond} {{ }} else {{ {step} }}"));
                }
            }
            return;
        }
        let cond = self.pure_cond();
        let value = self.pure_value(ty, 2);
        self.line(&format!("if {cond} {{ {x} = {value}; }}"));
        if self.rng.chance(50) {
            let other = self.pure_value(ty, 2);
            self.line(&format!("else {{ {x} = {other}; }}"));
        } else if self.rng.chance(50) {
            // An `else if` with no final `else`: a triangle in the chain.
            let (cond, other) = (self.pure_cond(), self.pure_value(ty, 2));
            self.line(&format!("else if {cond} {{ {x} = {other}; }}"));
        }
    }

    /// A row built from its own previous entry, as `ir::carry` carries:
    /// `for j in 1..len(a) { a[j] = a[j - 1] op e; }`, or the same with
    /// both indices one or two higher and the counter as many lower
    /// (`a[j + 1] = a[j] op e`), most often after a store to `a[0]` (which
    /// proves the first read before the loop), now and then storing the
    /// element on both sides of a branch.
    fn recurrence(&mut self) {
        let ty = *self.rng.pick(&[Ty::IntArr, Ty::FloatArr]);
        let Some(a) = self.vars_of(ty).first().cloned() else {
            return self.let_stmt();
        };
        let elem = ty.elem().expect("array type");
        if self.rng.chance(60) {
            let first = self.pure_value(elem, 1);
            self.line(&format!("{a}[0] = {first};"));
        }
        let j = self.fresh("j");
        let shift = *self.rng.pick(&[0, 0, 1, 2]);
        let offset = |c: i64| match c {
            0 => j.clone(),
            c if c < 0 => format!("{j} - {}", -c),
            c => format!("{j} + {c}"),
        };
        let (store, read) = (offset(shift), offset(shift - 1));
        let mult = self.enter_loop(4);
        self.line(&format!("for {j} in {}..len({a}) - {shift} {{", 1 - shift));
        self.scopes.push(vec![(j.clone(), Ty::Int)]);
        let e = self.pure_value(elem, 1);
        let op = self.rng.pick(&["+", "-", "*"]);
        if self.rng.chance(40) {
            // Stores to the element on both sides (`ir::sink`).
            let cond = self.pure_cond();
            let other = self.pure_value(elem, 1);
            self.line(&format!(
                "if {cond} {{ {a}[{store}] = {a}[{read}] {op} {e}; }}"
            ));
            self.line(&format!("else {{ {a}[{store}] = {other}; }}"));
        } else {
            self.line(&format!("{a}[{store}] = {a}[{read}] {op} {e};"));
        }
        self.close_loop(mult);
    }

    /// An `if`/`else` chain testing one int against constants, as
    /// `ir::switch` makes a switch of: eight to twelve tests in any order,
    /// usually of consecutive constants (negative ones too), now and then
    /// spaced apart or with a last one far off, a final `else` or none.
    /// Each arm steps a count and may run a statement.
    fn dispatch(&mut self) {
        let n = 8 + self.rng.below(5);
        let base = self.rng.below(9) as i64 - 4;
        let spacing = if self.rng.chance(15) { 7 } else { 1 };
        let mut constants: Vec<i64> = (0..n as i64).map(|k| base + k * spacing).collect();
        for k in (1..n).rev() {
            constants.swap(k, self.rng.below(k + 1));
        }
        if self.rng.chance(20) {
            constants[n - 1] = base + 1000;
        }
        let (d, r) = (self.fresh("d"), self.fresh("r"));
        let value = self.pure_value(Ty::Int, 1);
        let range = n as i64 * spacing + 2;
        self.line(&format!("let {d} = ({value}) % {range} + {base};"));
        self.line(&format!("let {r} = 0;"));
        for (k, c) in constants.iter().enumerate() {
            let test = if k == 0 { "if" } else { "} else if" };
            self.line(&format!("{test} {d} == {c} {{"));
            self.line(&format!("    {r} += {};", k + 1));
            let extra = self.rng.below(2);
            self.inner(extra);
        }
        if self.rng.chance(60) {
            self.line("} else {");
            self.line(&format!("    {r} -= 1;"));
        }
        self.line("}");
        self.line(&format!("print({r});"));
    }

    /// A search that stops at the first element passing a test or at the
    /// array's end, as `ir::thread` makes a counted loop of (whose read
    /// the header's test then proves): `while s < len(a) && a[s] != x {
    /// s += 1; }`, now and then reading one past the counter (which fails
    /// at the last element).
    fn search(&mut self) {
        let ty = *self.rng.pick(&[Ty::IntArr, Ty::FloatArr]);
        let Some(a) = self.vars_of(ty).first().cloned() else {
            return self.let_stmt();
        };
        let elem = ty.elem().expect("array type");
        let s = self.fresh("s");
        let start = self.rng.below(2);
        self.line(&format!("let {s} = {start};"));
        let x = self.pure_value(elem, 1);
        let cmp = self.rng.pick(&["!=", "<", ">="]);
        let index = if self.rng.chance(15) {
            format!("{s} + 1")
        } else {
            s.clone()
        };
        self.line(&format!(
            "while {s} < len({a}) && {a}[{index}] {cmp} {x} {{"
        ));
        let mult = self.enter_loop(4);
        self.scopes.push(Vec::new());
        self.line(&format!("{s} += 1;"));
        self.close_loop(mult);
        self.line(&format!("print({s});"));
        self.declare(s, Ty::Int);
    }

    /// A walk that wraps around, as `ir::version` guards: `for j in
    /// s..n { x = x op a[(j + k) % n]; }`, `n` most often `len(a)` or
    /// less, now and then more (the last read fails) or `s` below zero
    /// (fails unless `k` makes up for it).
    fn ring_walk(&mut self) {
        let ty = *self.rng.pick(&[Ty::IntArr, Ty::FloatArr]);
        let Some(a) = self.vars_of(ty).first().cloned() else {
            return self.let_stmt();
        };
        let elem = ty.elem().expect("array type");
        let (n, j, x) = (self.fresh("n"), self.fresh("j"), self.fresh("r"));
        let size = match self.rng.below(20) {
            0 => format!("len({a}) + 1"),
            1..=6 => format!("max(len({a}) - {}, 1)", 1 + self.rng.below(3)),
            _ => format!("len({a})"),
        };
        self.line(&format!("let {n} = {size};"));
        let init = self.pure_value(elem, 1);
        self.line(&format!("let {x} = {init};"));
        self.declare(x.clone(), elem);
        let start = if self.rng.chance(10) { "-1" } else { "0" };
        let shifts = [
            String::new(),
            " + 1".into(),
            format!(" + {n} - 1"),
            " + 2".into(),
        ];
        let reads: Vec<String> = (0..1 + self.rng.below(3))
            .map(|_| format!("{a}[({j}{}) % {n}]", self.rng.pick(&shifts)))
            .collect();
        self.line(&format!("for {j} in {start}..{n} {{"));
        let mult = self.enter_loop(4);
        self.scopes.push(vec![(j.clone(), Ty::Int)]);
        self.fold_reads(&x, elem, &reads);
        self.close_loop(mult);
        self.line(&format!("print({x});"));
    }

    /// A global table, `let tN: [int] = [3, -1, 0, 2];` (ints or floats,
    /// two to eight constants), as `ir::constants` records and folds the
    /// reads of: the shape of a grid's direction offsets.
    fn table_global(&mut self) {
        let ty = *self.rng.pick(&[Ty::IntArr, Ty::IntArr, Ty::FloatArr]);
        let n = 2 + self.rng.below(7);
        let elems: Vec<String> = (0..n)
            .map(|_| {
                let k = self.rng.below(9) as i64 - 4;
                if ty == Ty::FloatArr {
                    format!("{k}.5")
                } else if self.rng.chance(5) {
                    self.rng.pick(INT_EDGES).to_string()
                } else {
                    k.to_string()
                }
            })
            .collect();
        let name = self.fresh("t");
        self.line(&format!(
            "let {name}: {} = [{}];",
            ty.name(),
            elems.join(", ")
        ));
        // Not among the variables, which other statements store into.
        self.tables.push((name, ty));
    }

    /// A loop over a table (`table_global`) by its counter, the shape
    /// `ir::unroll` copies once per element when its reads fold: to its
    /// length, or now and then to a constant that may lie past it; a
    /// branch on each element, and now and then a call in the body. Now
    /// and then an element is stored first, and the table is none.
    fn table_walk(&mut self) {
        let Some((t, ty)) = self.tables.last().cloned() else {
            return;
        };
        let elem = ty.elem().expect("array type");
        let zero = if elem == Ty::Float { "0.0" } else { "0" };
        let (acc, k, d) = (self.fresh("s"), self.fresh("k"), self.fresh("d"));
        let init = self.pure_value(elem, 1);
        self.line(&format!("let {acc} = {init};"));
        if self.rng.chance(10) {
            self.line(&format!("{t}[0] = {acc};"));
        }
        let bound = if self.rng.chance(80) {
            format!("len({t})")
        } else {
            (1 + self.rng.below(9)).to_string()
        };
        self.line(&format!("for {k} in 0..{bound} {{"));
        let mult = self.enter_loop(9);
        self.scopes.push(vec![(k.clone(), Ty::Int)]);
        let x = self.pure_value(elem, 1);
        self.line(&format!("let {d} = {x} + {t}[{k}];"));
        if self.rng.chance(60) {
            let limit = self.pure_value(elem, 1);
            self.line(&format!(
                "if {d} > {limit} && {t}[{k}] != {zero} {{ {acc} = {acc} + {d}; }} else {{ {acc} = {acc} - {t}[{k}]; }}"
            ));
        } else {
            self.line(&format!("{acc} = {acc} + {d} * {t}[{k}];"));
        }
        if self.rng.chance(30) {
            self.call_stmt();
        }
        self.close_loop(mult);
        self.line(&format!("print({acc});"));
        self.declare(acc, elem);
    }

    /// A small array used as a few variables, the shape `ir::scalars`
    /// replaces: made with a constant length, then read and written at
    /// constant indices in a loop, on both arms of a branch. Now and then
    /// it escapes (printed whole), is made anew in the loop, or an index
    /// lies past its end.
    fn small_vector(&mut self) {
        let elem = *self.rng.pick(&[Ty::Int, Ty::Float]);
        let n = 1 + self.rng.below(4);
        let v = self.fresh("v");
        let init = if self.rng.chance(50) {
            let elems: Vec<String> = (0..n).map(|_| self.pure_value(elem, 1)).collect();
            format!("[{}]", elems.join(", "))
        } else {
            format!("[{}; {n}]", self.pure_value(elem, 1))
        };
        self.line(&format!("let {v} = {init};"));
        let k = self.fresh("k");
        let trips = 1 + self.rng.below(5);
        self.line(&format!("for {k} in 0..{trips} {{"));
        let mult = self.enter_loop(trips as u64);
        self.scopes.push(vec![(k.clone(), Ty::Int)]);
        let op = match elem {
            Ty::Int => *self.rng.pick(&["+", "-", "^"]),
            _ => *self.rng.pick(&["+", "-", "*"]),
        };
        // Now and then made anew on every iteration and printed whole
        // after the loop: the arrays merge in a phi and stay arrays, one
        // garbage per iteration.
        let remade = self.rng.chance(30);
        if remade {
            let elems: Vec<String> = (0..n).map(|_| self.pure_value(elem, 1)).collect();
            self.line(&format!("{v} = [{}];", elems.join(", ")));
        }
        // Now and then every element in a loop of its own, which
        // `ir::unroll` replaces by its iterations.
        if self.rng.chance(35) {
            let c = self.fresh("c");
            let other = self.pure_value(elem, 1);
            self.line(&format!(
                "for {c} in 0..{n} {{ {v}[{c}] = {v}[{c}] {op} {other}; }}"
            ));
        }
        for _ in 0..1 + self.rng.below(3) {
            let i = self.rng.below(n);
            // Past the end now and then: the error must come from this read.
            let j = if self.rng.chance(4) {
                n
            } else {
                self.rng.below(n)
            };
            let other = self.pure_value(elem, 1);
            if self.rng.chance(40) {
                self.line(&format!("if {k} % 2 == 0 {{"));
                self.line(&format!("    {v}[{i}] = {v}[{i}] {op} {v}[{j}];"));
                self.line("} else {");
                self.line(&format!("    {v}[{j}] = {v}[{i}] {op} {other};"));
                self.line("}");
            } else {
                self.line(&format!("{v}[{i}] = {v}[{j}] {op} {other};"));
            }
        }
        self.close_loop(mult);
        if remade || self.rng.chance(20) {
            self.line(&format!("print({v});"));
        } else {
            let i = self.rng.below(n);
            self.line(&format!("print({v}[{i}], len({v}));"));
        }
    }

    /// An array of small vectors replaced one vector at a time, as
    /// `ir::renew` overwrites in place: `f[j] = [f[j][0] + x, …]` in a
    /// loop. Now and then the vector replaced is held and read after the
    /// store (which must then see the old one), a longer vector is stored,
    /// or a vector is shared by two elements.
    fn vector_field(&mut self) {
        let elem = *self.rng.pick(&[Ty::Int, Ty::Float]);
        let ty = match elem {
            Ty::Int => Ty::IntArr2,
            _ => Ty::FloatArr2,
        };
        let (n, w) = (2 + self.rng.below(5), 1 + self.rng.below(3));
        let f = self.fresh("vf");
        let fill: Vec<String> = (0..w).map(|_| self.pure_value(elem, 1)).collect();
        self.line(&format!("let {f} = [[{}]; {n}];", fill.join(", ")));
        let k = self.fresh("k");
        let trips = 1 + self.rng.below(12);
        self.line(&format!("for {k} in 0..{trips} {{"));
        let mult = self.enter_loop(trips as u64);
        self.scopes.push(vec![(k.clone(), Ty::Int)]);
        let j = self.fresh("j");
        let step = 1 + self.rng.below(3);
        self.line(&format!("let {j} = ({k} * {step}) % {n};"));
        let op = match elem {
            Ty::Int => *self.rng.pick(&["+", "-", "^"]),
            _ => *self.rng.pick(&["+", "-", "*"]),
        };
        let held = self.rng.chance(15).then(|| self.fresh("q"));
        if let Some(q) = &held {
            self.line(&format!("let {q} = {f}[{j}];"));
        }
        let elems: Vec<String> = (0..w)
            .map(|i| format!("{f}[{j}][{i}] {op} {}", self.pure_value(elem, 1)))
            .collect();
        self.line(&format!("{f}[{j}] = [{}];", elems.join(", ")));
        if let Some(q) = &held {
            self.line(&format!("print({q}[0], {f}[{j}][0]);"));
        }
        if self.rng.chance(20) {
            let longer: Vec<String> = (0..=w).map(|_| self.pure_value(elem, 1)).collect();
            let at = format!("({j} + 1) % {n}");
            self.line(&format!(
                "if {k} % 3 == 2 {{ {f}[{at}] = [{}]; }}",
                longer.join(", ")
            ));
        }
        if self.rng.chance(15) {
            self.line(&format!("{f}[({j} + 1) % {n}] = {f}[{j}];"));
        }
        self.close_loop(mult);
        self.line(&format!("print({f});"));
        self.declare(f, ty);
    }

    /// Two arrays of rows, a loop writing one (a row, or an element of a
    /// row) and reading the other at a row it does not change, as
    /// `ir::alias` lets `ir::licm` and `ir::version` read it once before
    /// the loop. Now and then the two are one array, share a row, or the
    /// loop stores the row it reads into the array it writes.
    fn aliased_rows(&mut self) {
        let elem = *self.rng.pick(&[Ty::Int, Ty::Float]);
        let ty = match elem {
            Ty::Int => Ty::IntArr2,
            _ => Ty::FloatArr2,
        };
        let (n, w) = (2 + self.rng.below(4), 1 + self.rng.below(3));
        let trips = n as u64;
        let cells = (2 * (n + n * w)) as u64;
        if !self.affords(array_bytes(cells) + trips * array_bytes(w as u64)) {
            return self.let_stmt();
        }
        self.charge(cells);
        let (x, y, r, t) = (
            self.fresh("ax"),
            self.fresh("ay"),
            self.fresh("ar"),
            self.fresh("at"),
        );
        let row = |g: &mut Self| -> String {
            let elems: Vec<String> = (0..w).map(|_| g.pure_value(elem, 1)).collect();
            format!("[{}]", elems.join(", "))
        };
        let rows: Vec<String> = (0..n).map(|_| row(self)).collect();
        self.line(&format!("let {x} = [{}];", rows.join(", ")));
        match self.rng.below(4) {
            0 => self.line(&format!("let {y} = {x};")),
            1 => {
                let fill = row(self);
                self.line(&format!("let {y} = [{fill}; {n}];"));
                let (i, k) = (self.rng.below(n), self.rng.below(n));
                self.line(&format!("{y}[{i}] = {x}[{k}];"));
            }
            _ => {
                let rows: Vec<String> = (0..n).map(|_| row(self)).collect();
                self.line(&format!("let {y} = [{}];", rows.join(", ")));
            }
        }
        let k = self.pure_value(Ty::Int, 2);
        self.line(&format!("let {r} = ({k} & 255) % {n};"));
        let init = self.pure_value(elem, 1);
        self.line(&format!("let {t} = {init};"));
        let j = self.fresh("j");
        self.line(&format!("for {j} in 0..len({x}) {{"));
        let mult = self.enter_loop(trips);
        self.scopes.push(vec![(j.clone(), Ty::Int)]);
        let c = self.rng.below(w);
        let op = match elem {
            Ty::Int => *self.rng.pick(&["+", "-", "^"]),
            _ => *self.rng.pick(&["+", "-"]),
        };
        let value = self.pure_value(elem, 1);
        match self.rng.below(3) {
            0 => self.line(&format!("{x}[{j}][{c}] = {value};")),
            1 => {
                let elems: Vec<String> = (0..w)
                    .map(|i| format!("{x}[{j}][{i}] {op} {y}[{r}][{c}]"))
                    .collect();
                self.line(&format!("{x}[{j}] = [{}];", elems.join(", ")));
            }
            _ => self.line(&format!("{x}[{j}] = {y}[({r} + {j}) % {n}];")),
        }
        self.line(&format!("{t} = {t} {op} {y}[{r}][{c}];"));
        self.close_loop(mult);
        self.line(&format!("print({t}, {x}, {y});"));
        self.declare(t, elem);
        self.declare(x, ty);
        self.declare(y, ty);
    }

    /// A loop over constants through a fresh grid of `GRID` elements, as
    /// `ir::version`'s spans guard: reads (and now and then a store) at
    /// `b + j * 2`, `(b + j / 2) * 2 + j % 2` and `top - b - j * 2`, with
    /// `b` fixed in the loop and small; now and then `b + j * 3`, which
    /// leaves the grid when the loop runs long enough.
    fn span_walk(&mut self) {
        const GRID: u64 = 24;
        let elem = *self.rng.pick(&[Ty::Int, Ty::Float]);
        if !self.affords(array_bytes(GRID)) {
            return self.let_stmt();
        }
        self.charge(GRID);
        let (g, b, j, x) = (
            self.fresh("g"),
            self.fresh("b"),
            self.fresh("j"),
            self.fresh("r"),
        );
        let fill = self.pure_value(elem, 1);
        // Longer than `MAX_LEN`: the grid stays out of every scope.
        self.line(&format!("let {g} = [{fill}; {GRID}];"));
        let k = self.pure_value(Ty::Int, 1);
        self.line(&format!("let {b} = {k} & 3;"));
        let init = self.pure_value(elem, 1);
        self.line(&format!("let {x} = {init};"));
        self.declare(x.clone(), elem);
        let trips = 2 + self.rng.below(9);
        let top = GRID - 1;
        let forms = [
            format!("{b} + {j} * 2"),
            format!("({b} + {j} / 2) * 2 + {j} % 2"),
            format!("{top} - {b} - {j} * 2"),
        ];
        let mut reads: Vec<String> = (0..1 + self.rng.below(3))
            .map(|_| format!("{g}[{}]", self.rng.pick(&forms)))
            .collect();
        if self.rng.chance(8) {
            reads.push(format!("{g}[{b} + {j} * 3]"));
        }
        self.line(&format!("for {j} in 0..{trips} {{"));
        let mult = self.enter_loop(trips as u64);
        self.scopes.push(vec![(j.clone(), Ty::Int)]);
        self.fold_reads(&x, elem, &reads);
        if self.rng.chance(40) {
            let at = self.rng.pick(&forms).clone();
            self.line(&format!("{g}[{at}] = {x};"));
        }
        self.close_loop(mult);
        self.line(&format!("print({x});"));
    }

    /// `x = x op r1 op r2 …` over `reads`, `op` one of `+ ^ -` for ints,
    /// `+` for floats.
    fn fold_reads(&mut self, x: &str, elem: Ty, reads: &[String]) {
        let op = if elem == Ty::Int {
            *self.rng.pick(&["+", "^", "-"])
        } else {
            "+"
        };
        self.line(&format!(
            "{x} = {x} {op} {};",
            reads.join(&format!(" {op} "))
        ));
    }

    /// A value of `ty` from variables and literals by operations that
    /// cannot fail.
    fn pure_value(&mut self, ty: Ty, depth: usize) -> String {
        if depth == 0 || self.rng.chance(30) {
            return self.leaf(ty);
        }
        let (a, b) = (
            self.pure_value(ty, depth - 1),
            self.pure_value(ty, depth - 1),
        );
        match ty {
            Ty::Int => {
                let op = self.rng.pick(&["+", "-", "*", "&", "^", ">>"]);
                format!("({a} {op} {b})")
            }
            Ty::Float => match self.rng.below(4) {
                0 => format!("max({a}, {b})"),
                1 => format!("abs({a})"),
                _ => format!("({a} {} {b})", self.rng.pick(&["+", "-", "*"])),
            },
            _ => format!("({a} {} {b})", self.rng.pick(&["==", "!=", "&&", "||"])),
        }
    }

    /// A short circuit whose second test compares a value with zero or a
    /// constant (`c && x > 0`, `c || y == 2.0`): the shape `ir::thread`
    /// threads when the `if` it guards stores or calls.
    fn guarded_cond(&mut self) -> String {
        let first = self.expr(Ty::Bool, 2);
        let ty = *self.rng.pick(&[Ty::Int, Ty::Float]);
        let x = self.pure_value(ty, 1);
        let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let k = match (ty, self.rng.chance(50)) {
            (Ty::Int, true) => "0".to_string(),
            (_, true) => "0.0".to_string(),
            _ => self.literal(ty),
        };
        let join = self.rng.pick(&["&&", "||"]);
        format!("{first} {join} {x} {op} {k}")
    }

    /// A comparison of two pure values, now and then with `&&` or `||`.
    fn pure_cond(&mut self) -> String {
        let ty = *self.rng.pick(&[Ty::Int, Ty::Float]);
        let (a, b) = (self.pure_value(ty, 1), self.pure_value(ty, 1));
        let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
        let test = format!("{a} {op} {b}");
        if self.rng.chance(25) {
            let other = self.pure_value(Ty::Bool, 1);
            return format!("{test} {} {other}", self.rng.pick(&["&&", "||"]));
        }
        test
    }

    fn for_stmt(&mut self) {
        let var = self.fresh("i");
        let start = self.rng.below(3) as i64 - 1;
        let end = start + self.rng.below(5) as i64;
        let n = 1 + self.rng.below(3);
        self.loops += 1;
        let mult = self.mult;
        self.mult = mult.saturating_mul((end - start).max(1) as u64);
        self.line(&format!("for {var} in {start}..{end} {{"));
        // The loop variable lives in the body's scope.
        self.scopes.push(vec![(var, Ty::Int)]);
        self.inner(n);
        self.scopes.pop();
        self.line("}");
        self.mult = mult;
        self.loops -= 1;
    }

    /// A loop over an array's indices up to its length — the shape whose
    /// bounds checks `ir::bounds` removes — and now and then one past it.
    fn array_walk(&mut self) {
        let ty = *self.rng.pick(ARRAYS);
        let Some(arr) = self.vars_of(ty).first().cloned() else {
            return self.for_stmt();
        };
        let elem = ty.elem().expect("array type");
        let past_end = if self.rng.chance(15) { " + 1" } else { "" };
        let var = self.fresh("i");
        // Nothing in the loop may replace the array (its length bounds
        // the loop).
        self.frozen.push(arr.clone());
        let mult = self.mult;
        self.mult = mult.saturating_mul(MAX_LEN + 1);
        let value = self.expr(elem, 1);
        // `a[i] += v`, or for bools `a[i] = a[i] != v`.
        let update = if elem == Ty::Bool {
            format!("{arr}[{var}] = {arr}[{var}] != {value};")
        } else {
            format!("{arr}[{var}] += {value};")
        };
        self.loops += 1;
        if self.rng.chance(50) {
            let start = self.rng.below(2);
            self.line(&format!("for {var} in {start}..len({arr}){past_end} {{"));
            self.line(&format!("    {update}"));
            self.scopes.push(vec![(var, Ty::Int)]);
            let n = self.rng.below(2);
            self.inner(n);
            self.scopes.pop();
            self.line("}");
        } else {
            // Not in scope for other statements: nothing else assigns it.
            let cmp = if past_end.is_empty() { "<" } else { "<=" };
            self.line(&format!("let {var} = 0;"));
            self.line(&format!("while {var} {cmp} len({arr}) {{"));
            self.line(&format!("    {update}"));
            // On the line of the closing brace: see `Gen::while_stmt`.
            self.line(&format!("    {var} += 1; }}"));
        }
        self.mult = mult;
        self.frozen.pop();
        self.loops -= 1;
    }

    /// `c[j] = a[j] op b[j]` over arrays of one element type (the same
    /// array more than once now and then) — the loop `ir::bounds` checks
    /// on entry and `ir::vector` runs in lanes — mostly up to the shortest
    /// length, now and then from -1 or up to one array's length, which
    /// may run out of another.
    fn arrays_in_step(&mut self) {
        let ty = *self.rng.pick(&[Ty::IntArr, Ty::FloatArr]);
        let vars = self.vars_of(ty);
        if vars.is_empty() {
            return self.for_stmt();
        }
        let mut pick = || vars[self.rng.below(vars.len())].clone();
        let (a, b, c) = (pick(), pick(), pick());
        let op = match ty {
            Ty::IntArr => *self.rng.pick(&["+", "-", "^", "|"]),
            _ => *self.rng.pick(&["+", "-", "*"]),
        };
        let start = if self.rng.chance(10) {
            -1
        } else {
            self.rng.below(2) as i64
        };
        let end = if self.rng.chance(20) {
            format!("len({a})")
        } else {
            format!("min(len({a}), min(len({b}), len({c})))")
        };
        let j = self.fresh("j");
        // Not in scope for other statements: nothing else assigns it.
        self.line(&format!("for {j} in {start}..{end} {{"));
        self.line(&format!("    {c}[{j}] = {a}[{j}] {op} {b}[{j}];"));
        self.line("}");
    }

    /// Reverses (part of) an array between two indices moving towards
    /// each other — the loop whose checks `ir::bounds` moves to its entry
    /// — and now and then starts one of them out of bounds.
    fn array_reversal(&mut self) {
        let ty = *self.rng.pick(ARRAYS);
        let Some(arr) = self.vars_of(ty).first().cloned() else {
            return self.for_stmt();
        };
        let (lo, hi, t) = (self.fresh("lo"), self.fresh("hi"), self.fresh("t"));
        let start = if self.rng.chance(5) {
            -1
        } else {
            self.rng.below(2) as i64
        };
        let end = if self.rng.chance(5) { "" } else { " - 1" };
        // Not in scope for other statements: nothing else assigns them.
        self.line(&format!("let {lo} = {start};"));
        self.line(&format!("let {hi} = len({arr}){end};"));
        self.line(&format!("while {lo} < {hi} {{"));
        self.line(&format!("    let {t} = {arr}[{lo}];"));
        self.line(&format!("    {arr}[{lo}] = {arr}[{hi}];"));
        self.line(&format!("    {arr}[{hi}] = {t};"));
        self.line(&format!("    {lo} += 1;"));
        // On the line of the closing brace: see `Gen::while_stmt`.
        self.line(&format!("    {hi} -= 1; }}"));
    }

    /// Fills every `step`-th element of a fresh `[x; lim + 1]` while the
    /// index is `<= lim` — a strided walk, whose checks `ir::bounds`
    /// moves to its entry — now and then starting out of bounds.
    fn strided_fill(&mut self) {
        let (lim, arr, j) = (self.fresh("lim"), self.fresh("w"), self.fresh("j"));
        let start = if self.rng.chance(10) {
            -1
        } else {
            self.rng.below(3) as i64
        };
        let step = 1 + self.rng.below(3);
        let fill = self.expr(Ty::Int, 1);
        let value = self.expr(Ty::Int, 1);
        // Not in scope for other statements: nothing else assigns them.
        let n = self.expr(Ty::Int, 1);
        self.line(&format!("let {lim} = abs({n}) % 7;"));
        self.line(&format!("let {arr} = [{fill}; {lim} + 1];"));
        self.line(&format!("let {j} = {start};"));
        self.line(&format!("while {j} <= {lim} {{"));
        self.line(&format!("    {arr}[{j}] = {value};"));
        // On the line of the closing brace: see `Gen::while_stmt`.
        self.line(&format!("    {j} += {step}; }}"));
        self.line(&format!("print({arr});"));
    }

    fn while_stmt(&mut self) {
        let counter = self.fresh("w");
        // Not declared in any scope: no statement may assign it.
        self.line(&format!("let {counter} = 0;"));
        let limit = 1 + self.rng.below(4);
        let mult = self.mult;
        // The condition runs once more than the body.
        self.mult = mult.saturating_mul(limit as u64 + 1);
        let cond = self.expr(Ty::Bool, 2);
        let n = 1 + self.rng.below(3);
        self.loops += 1;
        // The counter is bumped first, so `continue` cannot skip it, and
        // on the line of the loop's brace, so that removing lines (as
        // `difftest` does to minimize a program) cannot leave a loop that
        // never ends: without the line the program no longer compiles.
        self.line(&format!(
            "while {counter} < {limit} && ({cond} || {counter} < 2) {{ {counter} += 1;"
        ));
        self.inner(n);
        self.line("}");
        self.mult = mult;
        self.loops -= 1;
    }

    /// A loop whose counter starts at a constant and steps by a constant
    /// operation up or down to a constant bound — doubling, counting
    /// down, halving, `3 * s + 1` — whose trips `ir::loops` finds by
    /// running its test, and which `unroll-small` unrolls when they are
    /// few.
    fn stepped_loop(&mut self) {
        let s = self.fresh("s");
        let (init, cond, step) = match self.rng.below(4) {
            0 => (
                1,
                format!("{s} < {}", 1 << (1 + self.rng.below(9))),
                format!("{s} *= 2;"),
            ),
            1 => (
                1 + self.rng.below(10) as i64,
                format!("{s} > 0"),
                format!("{s} -= 1;"),
            ),
            2 => (
                1 << self.rng.below(11),
                format!("{s} > 1"),
                format!("{s} = {s} / 2;"),
            ),
            _ => (
                1,
                format!("{s} < {}", 2 + self.rng.below(200)),
                format!("{s} = {s} * 3 + 1;"),
            ),
        };
        // Not declared in any scope: no statement may assign it.
        self.line(&format!("let {s} = {init};"));
        let mult = self.mult;
        self.mult = mult.saturating_mul(12);
        self.loops += 1;
        // The step on the line of the loop's brace, as in `while_stmt`.
        self.line(&format!("while {cond} {{ {step}"));
        let n = 1 + self.rng.below(3);
        self.inner(n);
        self.line("}");
        self.mult = mult;
        self.loops -= 1;
    }

    // ------------------------------------------------- counted loops over arrays

    /// A counted loop over arrays — what loop versioning checks once on
    /// entry and then runs without bounds checks: `for i in lo..hi` or
    /// `while i < n { …; i += step; }` indexing flat arrays at `i + d`,
    /// or a `for j` loop inside a `for i` loop reading rows of an array
    /// of arrays (`m[i][j]`, `m[i - 1][j + 1]`, `m[k][j]`).
    fn counted_loop(&mut self) {
        let block = self.open_block();
        match self.rng.below(10) {
            0..=4 => self.affine_walk(false),
            5..=7 => self.affine_walk(true),
            _ => self.grid_walk(),
        }
        self.close_block(block);
    }

    /// Now and then one of a counted loop's bounds one step too far
    /// (`(-1, 0)`: starting one below its first index; `(0, 1)`: ending
    /// one past its last), so that an access runs out of bounds at the
    /// boundary; `percent` is how often.
    fn slack(&mut self, percent: u64) -> (i64, i64) {
        if !self.rng.chance(percent) {
            (0, 0)
        } else if self.rng.chance(50) {
            (-1, 0)
        } else {
            (0, 1)
        }
    }

    /// The flat arrays of a counted loop, declared before it when new: an
    /// array `a` (visible, or new), now and then a second name for it
    /// (`let b = a;`), new arrays as long as `a`, and visible arrays of
    /// other lengths — either in the loop's bound (`min(len(a),
    /// len(c))`) or indexed only under a test of their length.
    fn walked_arrays(&mut self) -> Walk {
        let elem = *self.rng.pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Bool]);
        let ty = elem.array_of().expect("a scalar");
        let visible = self.vars_of(ty);
        // `a`'s length, when a literal says it.
        let mut known = None;
        let a = if !visible.is_empty() && self.rng.chance(60) {
            self.rng.pick(&visible).clone()
        } else {
            let a = self.fresh("a");
            let init = if self.rng.chance(60) {
                let n = 1 + self.rng.below(MAX_LEN as usize) as u64;
                let fill = self.expr(elem, 1);
                self.charge(n);
                known = Some(n);
                format!("[{fill}; {n}]")
            } else {
                self.literal(ty)
            };
            self.line(&format!("let {a} = {init};"));
            self.declare(a.clone(), ty);
            a
        };
        let mut arrays = vec![(a.clone(), elem)];
        // Names of arrays as long as `a`.
        let mut same = vec![a.clone()];
        let mut alias = None;
        if self.rng.chance(30) {
            let b = self.fresh("b");
            self.line(&format!("let {b} = {a};"));
            self.declare(b.clone(), ty);
            arrays.push((b.clone(), elem));
            same.push(b.clone());
            alias = Some((a.clone(), b));
        }
        let mut lens = Vec::new();
        let mut guarded: Vec<(String, Ty)> = Vec::new();
        for _ in 0..self.rng.below(3) {
            let other = *self.rng.pick(ARRAYS);
            let oelem = other.elem().expect("array type");
            let taken = |v: &String| arrays.iter().chain(&guarded).any(|(n, _)| n == v);
            let visible: Vec<String> = self
                .vars_of(other)
                .into_iter()
                .filter(|v| !taken(v))
                .collect();
            if visible.is_empty() || self.rng.chance(40) {
                let c = self.fresh("a");
                let fill = self.expr(oelem, 1);
                let n = known.map_or_else(|| format!("len({a})"), |n| n.to_string());
                self.charge(MAX_LEN);
                self.line(&format!("let {c} = [{fill}; {n}];"));
                self.declare(c.clone(), other);
                arrays.push((c.clone(), oelem));
                same.push(c);
            } else {
                let c = self.rng.pick(&visible).clone();
                if self.rng.chance(50) {
                    lens.push(format!("len({c})"));
                    arrays.push((c, oelem));
                } else {
                    guarded.push((c, oelem));
                }
            }
        }
        let first = match known {
            Some(n) if lens.is_empty() && self.rng.chance(50) => n.to_string(),
            _ => format!("len({})", self.rng.pick(&same)),
        };
        lens.insert(0, first);
        Walk {
            arrays,
            guarded,
            len: min_of(&lens),
            alias,
            ..Walk::default()
        }
    }

    /// Declares what a counted loop computes for after it: one or two
    /// scalars it accumulates into, now and then an int it sets to the
    /// counter before it breaks; and, for flat arrays, now and then an
    /// index `k` the loop does not change (for `a[k]`).
    fn loop_values(&mut self, w: &mut Walk, flat: bool) {
        for _ in 0..1 + self.rng.below(2) {
            let ty = w.arrays[self.rng.below(w.arrays.len())].1;
            let s = self.fresh("s");
            let init = self.leaf(ty);
            self.line(&format!("let {s} = {init};"));
            self.declare(s.clone(), ty);
            w.accs.push((s, ty));
        }
        if self.rng.chance(35) {
            let at = self.fresh("at");
            self.line(&format!("let {at} = -1;"));
            self.declare(at.clone(), Ty::Int);
            w.found = Some(at);
        }
        if flat && self.rng.chance(30) {
            let (x, elem) = w.arrays[self.rng.below(w.arrays.len())].clone();
            // Not in scope for other statements: nothing else assigns it.
            let k = self.fresh("ix");
            let index = if self.rng.chance(2) {
                format!("len({x})")
            } else {
                self.pure_index(&x)
            };
            self.line(&format!("let {k} = {index};"));
            w.invariant = Some((x, k, elem));
        }
    }

    /// `print(…)` of what a counted loop computed, and now and then of
    /// `arr` (an array it wrote).
    fn print_walked(&mut self, w: &Walk, extra: Option<&str>, arr: &str) {
        let mut args: Vec<String> = w.accs.iter().map(|(s, _)| s.clone()).collect();
        args.extend(w.found.clone());
        args.extend(extra.map(str::to_string));
        if self.rng.chance(40) {
            args.push(arr.to_string());
        }
        self.line(&format!("print({});", args.join(", ")));
    }

    /// `for i in lo..hi` (or `while i < hi`, `while i <= hi - 1`, with a
    /// constant step of 1 to 4) over flat arrays indexed at `i + d` for
    /// small offsets `d` of both signs, whose bounds keep every access in
    /// bounds — `lo` is minus the least offset (so negative now and then)
    /// and `hi` the least length less the largest — but now and then one
    /// off at either end, or an empty range. Bounds are literals, lengths
    /// or variables.
    fn affine_walk(&mut self, as_while: bool) {
        let mut w = self.walked_arrays();
        let least = self.rng.below(7) as i64 - 2;
        let most = least + self.rng.below(3) as i64;
        w.offsets = (least, most);
        let (below, past) = self.slack(3);
        let first = -least + below + i64::from(self.rng.chance(15));
        let mut lo = first.to_string();
        let mut hi = plus(&w.len, past - most);
        if self.rng.chance(5) {
            hi = (first - self.rng.below(3) as i64).to_string();
        }
        if !as_while && self.rng.chance(20) {
            // Not in scope for other statements: nothing else assigns it.
            // Between 0 and 2, and not a constant where `e` is not one.
            let k = self.fresh("k");
            let e = self.expr(Ty::Int, 1);
            self.line(&format!("let {k} = min(max({e}, 0), 2);"));
            hi = format!("{hi} - {k}");
            w.base = Some(k);
        }
        if self.rng.chance(25) {
            // Not in scope for other statements: nothing else assigns them.
            let n = self.fresh("n");
            self.line(&format!("let {n} = {hi};"));
            hi = n;
        }
        if self.rng.chance(15) {
            let n = self.fresh("lo");
            self.line(&format!("let {n} = {lo};"));
            lo = n;
        }
        self.loop_values(&mut w, true);
        let names: Vec<String> = w
            .arrays
            .iter()
            .chain(&w.guarded)
            .map(|(n, _)| n.clone())
            .collect();
        // What the loop may replace (by an array as long): not what a loop
        // around walks.
        let replaceable: Vec<(String, Ty)> = w
            .arrays
            .iter()
            .filter(|(n, _)| !self.frozen.contains(n))
            .map(|(n, e)| (n.clone(), e.array_of().expect("a scalar")))
            .collect();
        // Calls in the loop may not replace the arrays it walks.
        self.frozen.extend(names.iter().cloned());
        let i = self.fresh("i");
        w.i = i.clone();
        if as_while {
            let step = 1 + self.rng.below(4) as u64;
            w.step = Some(step);
            // Not in scope for other statements: nothing else assigns it.
            self.line(&format!("let {i} = {lo};"));
            if self.rng.chance(30) {
                let last = plus(&hi, -1);
                self.line(&format!("while {i} <= {last} {{"));
            } else {
                self.line(&format!("while {i} < {hi} {{"));
            }
            self.scopes.push(Vec::new());
            // The condition runs once more than the body.
            let mult = self.enter_loop(MAX_LEN + 2);
            self.walk_body(&w, &replaceable);
            self.leave_loop(mult);
            self.scopes.pop();
            // On the line of the closing brace: see `Gen::while_stmt`.
            self.line(&format!("    {i} += {step}; }}"));
        } else {
            self.line(&format!("for {i} in {lo}..{hi} {{"));
            self.scopes.push(vec![(i.clone(), Ty::Int)]);
            let mult = self.enter_loop(MAX_LEN + 1);
            self.walk_body(&w, &replaceable);
            // Now and then more, last (a `let` there shadows nothing the
            // loop's own statements use).
            if self.rng.chance(20) {
                self.stmt();
            }
            self.close_loop(mult);
        }
        self.frozen.truncate(self.frozen.len() - names.len());
        let extra = as_while.then_some(i.as_str());
        let arr = w.arrays[self.rng.below(w.arrays.len())].0.clone();
        self.print_walked(&w, extra, &arr);
    }

    /// `for i in …` over the rows of an array of arrays (visible, or new:
    /// rectangular, now and then one row shared by all), and in it a `for
    /// j` (or `while j < n`) loop reading `m[i][j + d]`, `m[i - 1][j +
    /// 1]`, `m[k][j]` (`k` invariant) and a row taken before it (`let r =
    /// m[i];`), storing into elements now and then, and rarely replacing
    /// a row (`m[i] = [v; len(m[i])]`), the row variable, or the whole
    /// array by one of the same shape inside the inner loop.
    fn grid_walk(&mut self) {
        let elem = *self.rng.pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Bool]);
        let row = elem.array_of().expect("a scalar");
        let ty = row.array_of().expect("flat");
        let visible = self.vars_of(ty);
        // The number of rows and their length, when new.
        let mut shape = None;
        let m = if !visible.is_empty() && self.rng.chance(50) {
            self.rng.pick(&visible).clone()
        } else {
            let m = self.fresh("m");
            let rows = 1 + self.rng.below(4) as u64;
            let width = 1 + self.rng.below(MAX_LEN as usize) as u64;
            self.charge(rows);
            let init = if self.rng.chance(25) {
                // One row shared by all: a write through one shows in all.
                let v = self.expr(elem, 1);
                self.charge(width);
                format!("[[{v}; {width}]; {rows}]")
            } else {
                let rows: Vec<String> = (0..rows)
                    .map(|_| {
                        let v = self.expr(elem, 1);
                        self.charge(width);
                        format!("[{v}; {width}]")
                    })
                    .collect();
                format!("[{}]", rows.join(", "))
            };
            self.line(&format!("let {m} = {init};"));
            self.declare(m.clone(), ty);
            shape = Some((rows, width));
            m
        };
        let whole = shape.filter(|_| !self.frozen.contains(&m));
        // Rows `m[i + d]` for `d` from `up` to `down`.
        let up = -i64::from(self.rng.chance(35));
        let down = i64::from(self.rng.chance(25));
        let (below, past) = self.slack(2);
        let rows_len = match shape {
            Some((rows, _)) if self.rng.chance(40) => rows.to_string(),
            _ => format!("len({m})"),
        };
        let (lo, hi) = (-up + below, plus(&rows_len, past - down));
        let invariant = if self.rng.chance(30) {
            // Not in scope for other statements: nothing else assigns it.
            let k = self.fresh("ix");
            let index = self.pure_index(&m);
            self.line(&format!("let {k} = {index};"));
            Some(format!("{m}[{k}]"))
        } else {
            None
        };
        let i = self.fresh("i");
        let mut rows: Vec<String> = [up, 0, down]
            .iter()
            .map(|&d| format!("{m}[{}]", plus(&i, d)))
            .collect();
        rows.dedup();
        rows.extend(invariant);
        let mut w = Walk {
            i: self.fresh("j"),
            arrays: rows.iter().map(|r| (r.clone(), elem)).collect(),
            ..Walk::default()
        };
        self.loop_values(&mut w, false);
        self.frozen.push(m.clone());
        self.line(&format!("for {i} in {lo}..{hi} {{"));
        self.scopes.push(vec![(i.clone(), Ty::Int)]);
        let outer = self.enter_loop(MAX_LEN + 1);
        // A row taken before the inner loop, as long as the one it is.
        let taken = if self.rng.chance(25) {
            // Not in scope for other statements: nothing else assigns it.
            let r = self.fresh("r");
            let at = rows[self.rng.below(rows.len())].clone();
            self.line(&format!("let {r} = {at};"));
            w.arrays.push((r.clone(), elem));
            Some(r)
        } else {
            None
        };
        w.len = match shape {
            Some((_, width)) if self.rng.chance(30) => width.to_string(),
            Some(_) if self.rng.chance(20) => format!("len({m}[0])"),
            _ => {
                let lens: Vec<String> = rows.iter().map(|r| format!("len({r})")).collect();
                min_of(&lens)
            }
        };
        let least = self.rng.below(4) as i64 - 1;
        let most = least + self.rng.below(2) as i64;
        w.offsets = (least, most);
        let (below, past) = self.slack(2);
        let (lo, hi) = (-least + below, plus(&w.len, past - most));
        let j = w.i.clone();
        let as_while = self.rng.chance(25);
        if as_while {
            let step = 1 + self.rng.below(2) as u64;
            w.step = Some(step);
            self.line(&format!("let {j} = {lo};"));
            self.line(&format!("while {j} < {hi} {{"));
        } else {
            self.line(&format!("for {j} in {lo}..{hi} {{"));
        }
        self.scopes.push(Vec::new());
        let inner = self.enter_loop(MAX_LEN + 2);
        self.walk_body(&w, &[]);
        // Rarely, what makes rows vary in the loop.
        let replaced_row = format!("{m}[{i}]");
        if self.rng.chance(8) && self.affords(array_bytes(MAX_LEN)) {
            let v = self.expr(elem, 1);
            self.charge(MAX_LEN);
            let store = format!("{replaced_row} = [{v}; len({replaced_row})];");
            if self.rng.chance(50) {
                self.line(&format!("if {j} == {lo} {{ {store} }}"));
            } else {
                self.line(&store);
            }
        }
        if let Some(r) = &taken {
            if self.rng.chance(10) && self.affords(array_bytes(MAX_LEN)) {
                let v = self.expr(elem, 1);
                self.charge(MAX_LEN);
                self.line(&format!("{r} = [{v}; len({r})];"));
            }
        }
        if let Some((rows, width)) = whole {
            let bytes = (rows + 1) * array_bytes(width);
            if self.rng.chance(3) && self.affords(bytes) {
                let v = self.expr(elem, 1);
                self.charge(rows);
                self.charge(width);
                self.replacing_var(&m);
                self.line(&format!("{m} = [[{v}; {width}]; {rows}];"));
            }
        }
        self.leave_loop(inner);
        self.scopes.pop();
        match w.step {
            // On the line of the closing brace: see `Gen::while_stmt`.
            Some(step) => self.line(&format!("    {j} += {step}; }}")),
            None => self.line("}"),
        }
        self.close_loop(outer);
        self.frozen.pop();
        self.print_walked(&w, None, &m);
    }

    /// The statements of a counted loop: accesses at its least and its
    /// largest offset first, then more reads, writes, tests and exits;
    /// rarely it replaces an array of `replaceable` (by one as long).
    fn walk_body(&mut self, w: &Walk, replaceable: &[(String, Ty)]) {
        if let Some((a, b)) = &w.alias {
            // Writes through one name, reads through the other (at
            // another offset now and then: a dependence from one
            // iteration to the next).
            let (to, from) = if self.rng.chance(50) { (a, b) } else { (b, a) };
            let elem = w.arrays[0].1;
            let only = Walk {
                arrays: vec![(from.clone(), elem)],
                ..w.clone()
            };
            let d = self.offset(w);
            let v = self.walk_value(&only, elem, None);
            self.line(&format!("{to}[{}] = {v};", w.at(d)));
        }
        let n = 2 + self.rng.below(4);
        let mut exited = false;
        for k in 0..n {
            let d = match k {
                0 => Some(w.offsets.0),
                1 => Some(w.offsets.1),
                _ => None,
            };
            self.walk_stmt(w, d, &mut exited);
        }
        if !replaceable.is_empty() && self.rng.chance(4) && self.affords(array_bytes(MAX_LEN)) {
            let (x, ty) = replaceable[self.rng.below(replaceable.len())].clone();
            let v = self.expr(ty.elem().expect("array type"), 1);
            self.charge(MAX_LEN);
            self.replacing_var(&x);
            self.line(&format!("{x} = [{v}; len({x})];"));
        }
    }

    /// One statement of a counted loop; `d` is the offset its first
    /// access uses (any when `None`); `exited` whether the loop has its
    /// `break` (or `continue`) already.
    fn walk_stmt(&mut self, w: &Walk, d: Option<i64>, exited: &mut bool) {
        match self.rng.below(14) {
            0..=2 if self.rng.chance(35) => self.clamped_read(w, d),
            0..=2 => {
                let s = self.accumulate(w, d);
                self.line(&s);
            }
            3..=5 => {
                let s = self.walk_store(w, d);
                self.line(&s);
            }
            6 | 7 => {
                let cond = self.walk_cond(w, d);
                self.line(&format!("if {cond} {{"));
                self.indent += 1;
                let then = self.accumulate_or_store(w);
                self.line(&then);
                self.indent -= 1;
                if self.rng.chance(30) {
                    self.line("} else {");
                    self.indent += 1;
                    let other = self.accumulate_or_store(w);
                    self.line(&other);
                    self.indent -= 1;
                }
                self.line("}");
            }
            8 if !w.guarded.is_empty() => {
                let (c, elem) = w.guarded[self.rng.below(w.guarded.len())].clone();
                let at = w.at(d.unwrap_or_else(|| self.offset(w)));
                let read = format!("{c}[{at}]");
                let body = match self.convert(&read, elem, w.accs[0].1) {
                    Some(r) if self.rng.chance(50) => self.accumulate_with(&w.accs[0], &r),
                    _ => {
                        let v = self.walk_value(w, elem, None);
                        format!("{read} = {v};")
                    }
                };
                self.line(&format!("if {at} < len({c}) {{ {body} }}"));
            }
            9 if w.invariant.is_some() => {
                let (a, k, elem) = w.invariant.clone().expect("an invariant access");
                let x = format!("{a}[{}]", plus(&k, *self.rng.pick(&[0, 0, 1, -1, 2, 3])));
                let acc = w.accs[self.rng.below(w.accs.len())].clone();
                let s = match self.convert(&x, elem, acc.1) {
                    Some(r) if self.rng.chance(60) => self.accumulate_with(&acc, &r),
                    _ => {
                        let v = self.walk_value(w, elem, None);
                        format!("{x} = {v};")
                    }
                };
                self.line(&s);
            }
            12 => {
                // Output before an access that fails must be the same.
                let (s, _) = w.accs[self.rng.below(w.accs.len())].clone();
                let ty = *self.rng.pick(&[Ty::Int, Ty::Float, Ty::Bool]);
                let read = self.walk_read(w, ty, d);
                self.line(&format!("print({s}, {read});"));
            }
            13 if self.rng.chance(40) => self.call_stmt(),
            10 | 11 if !*exited => {
                *exited = true;
                let cond = self.walk_cond(w, d);
                let i = &w.i;
                match (w.step, &w.found) {
                    (Some(step), _) if self.rng.chance(30) => {
                        self.line(&format!("if {cond} {{ {i} += {step}; continue; }}"));
                    }
                    (_, Some(at)) => self.line(&format!("if {cond} {{ {at} = {i}; break; }}")),
                    _ => self.line(&format!("if {cond} {{ break; }}")),
                }
            }
            _ => {
                let s = self.accumulate(w, d);
                self.line(&s);
            }
        }
    }

    /// A read of one of the loop's arrays at `i + d` clamped into `[lo,
    /// hi]` by `if`s (a join whose range the conditions on its edges
    /// bound: `ir::ranges`, `ir::version`'s spans), folded into an
    /// accumulator; under a test that the array is longer than `hi`, but
    /// for a few in a hundred, which fail where an array is not.
    fn clamped_read(&mut self, w: &Walk, d: Option<i64>) {
        let acc = w.accs[self.rng.below(w.accs.len())].clone();
        let from: Vec<(String, Ty)> = (w.arrays.iter())
            .filter(|&&(_, e)| converts(e, acc.1))
            .cloned()
            .collect();
        if from.is_empty() {
            let s = self.accumulate(w, d);
            return self.line(&s);
        }
        let (x, elem) = from[self.rng.below(from.len())].clone();
        let (lo, hi) = (self.rng.below(2), *self.rng.pick(&[0, 1, 2, 3, 5, 7]));
        let j = self.fresh("j");
        let at = w.at(d.unwrap_or_else(|| self.offset(w)));
        let read = self
            .convert(&format!("{x}[{j}]"), elem, acc.1)
            .expect("convertible");
        let fold = self.accumulate_with(&acc, &read);
        let tested = !self.rng.chance(3);
        if tested {
            self.line(&format!("if {hi} < len({x}) {{"));
            self.indent += 1;
        }
        if self.rng.chance(50) {
            self.line(&format!("let {j} = {at};"));
            self.line(&format!(
                "if {j} < {lo} {{ {j} = {lo}; }} else if {j} > {hi} {{ {j} = {hi}; }}"
            ));
        } else {
            self.line(&format!("let {j} = min(max({at}, {lo}), {hi});"));
        }
        self.line(&fold);
        if tested {
            self.indent -= 1;
            self.line("}");
        }
    }

    /// An offset of the loop's range, at random.
    fn offset(&mut self, w: &Walk) -> i64 {
        let (least, most) = w.offsets;
        least + self.rng.below((most - least) as usize + 1) as i64
    }

    /// `read` (an element of type `from`) as a `to`, if it [converts].
    fn convert(&mut self, read: &str, from: Ty, to: Ty) -> Option<String> {
        if !converts(from, to) {
            return None;
        }
        Some(match (from, to) {
            _ if from == to => read.to_string(),
            (Ty::Float, Ty::Int) => format!("int({read})"),
            (Ty::Int, Ty::Float) => format!("float({read})"),
            (Ty::Int, Ty::Bool) => format!("({read} > {})", self.leaf(Ty::Int)),
            _ => format!("({read} < {})", self.leaf(Ty::Float)),
        })
    }

    /// A `ty` read from one of the loop's arrays at `i + d` (an offset
    /// at random when `d` is `None`), or computed from the counter.
    fn walk_read(&mut self, w: &Walk, ty: Ty, d: Option<i64>) -> String {
        let from: Vec<(String, Ty)> = w
            .arrays
            .iter()
            .filter(|&&(_, e)| converts(e, ty))
            .cloned()
            .collect();
        if from.is_empty() {
            return match ty {
                Ty::Int => w.i.clone(),
                Ty::Float => format!("float({})", w.i),
                _ => format!("({} % 2 == 0)", w.i),
            };
        }
        let (x, elem) = from[self.rng.below(from.len())].clone();
        let d = d.unwrap_or_else(|| self.offset(w));
        let read = format!("{x}[{}]", w.at(d));
        self.convert(&read, elem, ty).expect("convertible")
    }

    /// A value of type `ty` computed from reads of the loop's arrays.
    fn walk_value(&mut self, w: &Walk, ty: Ty, d: Option<i64>) -> String {
        let r = self.walk_read(w, ty, d);
        let i = &w.i;
        match (ty, self.rng.below(4)) {
            (_, 0) => r,
            (Ty::Int, 1) => format!("({r} + {})", self.leaf(Ty::Int)),
            (Ty::Int, 2) => format!("({r} * 3 - {i})"),
            (Ty::Int, _) => format!("({r} ^ {})", self.walk_read(w, Ty::Int, None)),
            (Ty::Float, 1) => format!("({r} * 0.5 + {})", self.leaf(Ty::Float)),
            (Ty::Float, 2) => format!("({r} + float({i}))"),
            (Ty::Float, _) => format!("min({r}, {})", self.walk_read(w, Ty::Float, None)),
            (_, 1) => format!("!{r}"),
            (_, 2) => format!("({r} != {})", self.walk_read(w, Ty::Bool, None)),
            (_, _) => format!("({r} && {})", self.leaf(Ty::Bool)),
        }
    }

    /// A condition in a counted loop: an element (as a bool), the
    /// counter's parity, or an accumulated value.
    fn walk_cond(&mut self, w: &Walk, d: Option<i64>) -> String {
        match self.rng.below(4) {
            0 | 1 => self.walk_read(w, Ty::Bool, d),
            2 => format!("{} % {} == 0", w.i, 2 + self.rng.below(2)),
            _ => {
                let (s, ty) = w.accs[self.rng.below(w.accs.len())].clone();
                self.convert(&s, ty, Ty::Bool)
                    .unwrap_or_else(|| self.walk_read(w, Ty::Bool, d))
            }
        }
    }

    /// `s op= a[i + d]` into one of the loop's accumulators.
    fn accumulate(&mut self, w: &Walk, d: Option<i64>) -> String {
        let acc = w.accs[self.rng.below(w.accs.len())].clone();
        let r = self.walk_read(w, acc.1, d);
        self.accumulate_with(&acc, &r)
    }

    /// Folds `r` into accumulator `acc`.
    fn accumulate_with(&mut self, acc: &(String, Ty), r: &str) -> String {
        let s = &acc.0;
        // `max(r, s)`, not `max(s, r)`: no line of the form `s = f(s…`,
        // which `tests/gc_generated.rs` counts as an array carried around.
        match (acc.1, self.rng.below(5)) {
            (Ty::Int, 0) => format!("{s} ^= {r};"),
            (Ty::Int, 1) => format!("{s} = {s} * 3 + {r};"),
            (Ty::Float, 0 | 1) => format!("{s} = {s} * 0.5 + {r};"),
            (Ty::Int | Ty::Float, 2) => format!("{s} = max({r}, {s});"),
            (Ty::Int | Ty::Float, 3) => format!("{s} = {r};"),
            (Ty::Int | Ty::Float, _) => format!("{s} += {r};"),
            (_, 0 | 1) => format!("{s} = {s} != {r};"),
            (_, 2) => format!("{s} = {s} || {r};"),
            (_, 3) => format!("{s} = {r} && {s};"),
            (_, _) => format!("{s} = {r};"),
        }
    }

    /// `x[i + d] op= v` into one of the loop's arrays.
    fn walk_store(&mut self, w: &Walk, d: Option<i64>) -> String {
        let (x, elem) = w.arrays[self.rng.below(w.arrays.len())].clone();
        let d = d.unwrap_or_else(|| self.offset(w));
        let v = self.walk_value(w, elem, None);
        let op = self.update_op(elem);
        format!("{x}[{}] {op} {v};", w.at(d))
    }

    fn accumulate_or_store(&mut self, w: &Walk) -> String {
        if self.rng.chance(50) {
            self.walk_store(w, None)
        } else {
            self.accumulate(w, None)
        }
    }

    // ------------------------------------------------- allocation for the collector

    /// A function that allocates while it holds arrays: a transformer
    /// (`[T], int -> [T]`: allocates, in a loop or not, while it still
    /// needs its array parameter, and returns a fresh array computed from
    /// it), a maker (`int -> [T]`: a fresh array filled in a loop, for
    /// arrays of arrays with fresh rows only it holds), or a replacer of a
    /// global array.
    fn gc_function(&mut self) {
        let globals: Vec<(String, Ty)> = self.scopes[0]
            .iter()
            .filter(|(_, t)| t.is_array())
            .cloned()
            .collect();
        match self.rng.below(3) {
            0 => self.maker(),
            1 if !globals.is_empty() => {
                let (g, ty) = self.rng.pick(&globals).clone();
                self.replacer(&g, ty);
            }
            _ => self.transformer(),
        }
    }

    /// Opens a function body: its signature, scope and cost.
    fn open_function(
        &mut self,
        name: &str,
        params: &[Ty],
        ret: Option<Ty>,
    ) -> (u64, u64, Vec<String>) {
        let sig: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("p{i}: {}", t.name()))
            .collect();
        let arrow = ret.map(|t| format!(" -> {}", t.name())).unwrap_or_default();
        self.line(&format!("fn {name}({}){arrow} {{", sig.join(", ")));
        self.indent += 1;
        self.scopes.push(
            params
                .iter()
                .enumerate()
                .map(|(i, &t)| (format!("p{i}"), t))
                .collect(),
        );
        self.ret = Some(ret);
        self.enter_function()
    }

    fn close_function(
        &mut self,
        name: String,
        params: Vec<Ty>,
        ret: Option<Ty>,
        outer: (u64, u64, Vec<String>),
    ) {
        let (cost, replaces) = self.leave_function(outer);
        self.ret = None;
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        self.funcs.push(Func {
            name,
            params,
            ret,
            cost,
            replaces,
        });
    }

    fn transformer(&mut self) {
        let name = self.fresh("t");
        let ty = Ty::array(&mut self.rng);
        let mut params = vec![ty, Ty::Int];
        if self.rng.chance(30) {
            params.push(Ty::any(&mut self.rng));
        }
        let outer = self.open_function(&name, &params, Some(ty));
        let elem = ty.scalar_of();
        let looped = self.rng.chance(70);
        let mult = if looped {
            let trips = 1 + self.rng.below(4) as u64;
            Some(self.open_loop(&trips.to_string(), trips).1)
        } else {
            None
        };
        let read = self.temp_alloc(elem);
        let target = self.element_of("p0", ty);
        let op = self.update_op(elem);
        self.line(&format!("{target} {op} {read};"));
        let n = self.rng.below(2);
        self.stmts(n);
        if let Some(mult) = mult {
            self.close_loop(mult);
        }
        let n = self.rng.below(2);
        self.stmts(n);
        let value = self.derived(ty, "p0");
        self.line(&format!("return {value};"));
        self.close_function(name, params, Some(ty), outer);
    }

    fn maker(&mut self) {
        let name = self.fresh("mk");
        let ty = Ty::array(&mut self.rng);
        let params = vec![Ty::Int];
        let outer = self.open_function(&name, &params, Some(ty));
        let elem = ty.elem().expect("array type");
        let a = self.fresh("a");
        let fill = self.literal(elem);
        self.charge(5);
        self.line(&format!("let {a} = [{fill}; 1 + ((p0 % 5) + 5) % 5];"));
        self.declare(a.clone(), ty);
        self.frozen.push(a.clone());
        let (i, mult) = self.open_loop(&format!("len({a})"), 5);
        let value = if ty.is_nested() {
            match self.rng.below(3) {
                0 => {
                    let v = self.expr(elem.scalar_of(), 1);
                    self.charge(3);
                    format!("[{v}; 1 + {i} % 3]")
                }
                1 => self.derived(elem, &format!("{a}[{i}]")),
                _ => self.expr(elem, 2),
            }
        } else {
            self.expr(elem, 2)
        };
        self.line(&format!("{a}[{i}] = {value};"));
        if self.rng.chance(50) {
            let read = self.temp_alloc(ty.scalar_of());
            let target = self.element_of(&a, ty);
            let op = self.update_op(ty.scalar_of());
            self.line(&format!("{target} {op} {read};"));
        }
        let n = self.rng.below(2);
        self.stmts(n);
        self.close_loop(mult);
        self.frozen.pop();
        self.line(&format!("return {a};"));
        self.close_function(name, params, Some(ty), outer);
    }

    /// Replaces global `g` (now and then in a loop) while the old array
    /// is held only by a local, allocates, and returns the old one or an
    /// array computed from it (or nothing).
    fn replacer(&mut self, g: &str, ty: Ty) {
        let name = self.fresh("s");
        let params = if self.rng.chance(50) {
            vec![ty]
        } else {
            vec![Ty::Int]
        };
        let ret = if self.rng.chance(60) { Some(ty) } else { None };
        let outer = self.open_function(&name, &params, ret);
        let old = self.fresh("o");
        self.line(&format!("let {old} = {g};"));
        self.declare(old.clone(), ty);
        let mult = if self.rng.chance(50) {
            let trips = 1 + self.rng.below(4) as u64;
            Some(self.open_loop(&trips.to_string(), trips).1)
        } else {
            None
        };
        let value = if params[0] == ty && self.rng.chance(40) {
            "p0".to_string()
        } else {
            self.fresh_value(ty, g)
        };
        self.replacing_var(g);
        self.line(&format!("{g} = {value};"));
        if self.rng.chance(60) {
            let read = self.temp_alloc(ty.scalar_of());
            let target = self.element_of(g, ty);
            let op = self.update_op(ty.scalar_of());
            self.line(&format!("{target} {op} {read};"));
        }
        let n = self.rng.below(2);
        self.stmts(n);
        if let Some(mult) = mult {
            self.close_loop(mult);
        }
        if ret.is_some() {
            let value = if self.rng.chance(50) {
                old.clone()
            } else {
                self.derived(ty, &old)
            };
            self.line(&format!("return {value};"));
        }
        self.close_function(name, params, ret, outer);
    }

    /// Opens a loop of at most `trips` iterations up to `bound` — `for i
    /// in 0..bound` or a `while` with its own counter — and returns an
    /// expression for the iteration's number (from 0; right at the start
    /// of the body, before other statements may assign the `for`
    /// variable) and the multiplier to restore.
    fn open_loop(&mut self, bound: &str, trips: u64) -> (String, u64) {
        let index = if self.rng.chance(70) {
            let var = self.fresh("i");
            self.line(&format!("for {var} in 0..{bound} {{"));
            self.scopes.push(vec![(var.clone(), Ty::Int)]);
            var
        } else {
            // Not in scope for other statements: nothing else assigns it.
            let var = self.fresh("w");
            self.line(&format!("let {var} = 0;"));
            // On the line of the loop's brace: see `Gen::while_stmt`.
            self.line(&format!("while {var} < {bound} {{ {var} += 1;"));
            self.scopes.push(Vec::new());
            format!("({var} - 1)")
        };
        (index, self.enter_loop(trips))
    }

    /// Enters the body of a loop of at most `trips` iterations whose
    /// header is written (and whose scope is pushed); returns the
    /// multiplier to restore.
    fn enter_loop(&mut self, trips: u64) -> u64 {
        self.indent += 1;
        self.depth += 1;
        self.loops += 1;
        let mult = self.mult;
        self.mult = mult.saturating_mul(trips.max(1));
        mult
    }

    /// Leaves a loop's body (but not its scope, nor its closing line).
    fn leave_loop(&mut self, mult: u64) {
        self.mult = mult;
        self.loops -= 1;
        self.depth -= 1;
        self.indent -= 1;
    }

    fn close_loop(&mut self, mult: u64) {
        self.leave_loop(mult);
        self.scopes.pop();
        self.line("}");
    }

    /// Opens (and [`Gen::close_block`] closes) a `{ … }` now and then, so
    /// that what a statement declares at the top level is a local.
    fn open_block(&mut self) -> bool {
        let open = self.rng.chance(40);
        if open {
            self.line("{");
            self.indent += 1;
            self.depth += 1;
            self.scopes.push(Vec::new());
        }
        open
    }

    fn close_block(&mut self, open: bool) {
        if open {
            self.scopes.pop();
            self.depth -= 1;
            self.indent -= 1;
            self.line("}");
        }
    }

    /// `a[i]`, or `a[i][j]` for an array of arrays: an element of `a` (a
    /// name) to assign, with indices in bounds.
    fn element_of(&mut self, a: &str, ty: Ty) -> String {
        let i = self.pure_index(a);
        let row = format!("{a}[{i}]");
        if ty.is_nested() {
            let j = self.pure_index(&row);
            format!("{row}[{j}]")
        } else {
            row
        }
    }

    fn update_op(&mut self, elem: Ty) -> &'static str {
        if elem != Ty::Bool && self.rng.chance(50) {
            "+="
        } else {
            "="
        }
    }

    /// A temporary array made in the current statement — `[e; n]` with
    /// `n` up to a few hundred while the budget allows, an array of arrays
    /// `[[e; c]; n]`, or a short literal — with one element assigned
    /// (which may call, while only this local holds it). Declared for
    /// other statements only when it is short. Returns an expression that
    /// reads one of its elements.
    fn temp_alloc(&mut self, elem: Ty) -> String {
        let t = self.fresh("t");
        let mut n = 1 + self.rng.below(MAX_LEN as usize) as u64;
        if self.rng.chance(50) {
            let big = 50 + self.rng.below(451) as u64;
            if self.affords(array_bytes(big) + 1024) {
                n = big;
            }
        }
        let v = self.expr(elem, 1);
        let flat = elem.array_of().expect("a scalar");
        let (init, ty) = if self.rng.chance(25) {
            let c = 1 + self.rng.below(4) as u64;
            self.charge(c);
            self.charge(n);
            (format!("[[{v}; {c}]; {n}]"), flat.array_of().expect("flat"))
        } else if n <= 4 && self.rng.chance(40) {
            self.charge(n);
            let mut elems = vec![v];
            for _ in 1..n {
                elems.push(self.expr(elem, 1));
            }
            (format!("[{}]", elems.join(", ")), flat)
        } else {
            self.charge(n);
            (format!("[{v}; {n}]"), flat)
        };
        self.line(&format!("let {t} = {init};"));
        let target = self.element_of(&t, ty);
        let w = self.expr(elem, 1);
        self.line(&format!("{target} = {w};"));
        if n <= MAX_LEN {
            self.declare(t.clone(), ty);
        }
        self.element_of(&t, ty)
    }

    /// A fresh array to replace `old` (an expression of type `ty` without
    /// side effects): computed from `old`'s elements, returned by a call
    /// (with `old` as its argument where one takes a `ty`), or any.
    fn fresh_value(&mut self, ty: Ty, old: &str) -> String {
        match self.rng.below(10) {
            0..=3 => self.derived(ty, old),
            4..=6 => {
                let calls: Vec<usize> = (0..self.funcs.len())
                    .filter(|&i| self.funcs[i].ret == Some(ty) && self.callable(i))
                    .collect();
                if calls.is_empty() {
                    return self.expr(ty, 2);
                }
                let i = *self.rng.pick(&calls);
                let at = self.funcs[i].params.iter().position(|&p| p == ty);
                self.call_with(i, at.map(|k| (k, old)))
            }
            _ => self.expr(ty, 2),
        }
    }

    /// Visible variables of array type that may be replaced here.
    fn replaceable_arrays(&self) -> Vec<(String, Ty)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for (name, t) in scope.iter().rev() {
                if seen.insert(name.clone()) && t.is_array() && !self.frozen.contains(name) {
                    out.push((name.clone(), *t));
                }
            }
        }
        out
    }

    /// Replaces an array: `a = …` for a local, a parameter or a global;
    /// for arrays of arrays also a row (`m[i] = …`) or an element
    /// (`m[i][j] op= e`).
    fn array_stmt(&mut self) {
        let arrays = self.replaceable_arrays();
        if arrays.is_empty() {
            return self.let_stmt();
        }
        let nested: Vec<(String, Ty)> = arrays
            .iter()
            .filter(|(_, t)| t.is_nested())
            .cloned()
            .collect();
        if !nested.is_empty() && self.rng.chance(40) {
            let (m, ty) = self.rng.pick(&nested).clone();
            let row = ty.elem().expect("array type");
            if self.rng.chance(60) {
                let i = self.pure_index(&m);
                let value = self.fresh_value(row, &format!("{m}[{i}]"));
                self.line(&format!("{m}[{i}] = {value};"));
            } else {
                let target = self.element_of(&m, ty);
                let elem = ty.scalar_of();
                let op = self.update_op(elem);
                let value = self.expr(elem, 2);
                self.line(&format!("{target} {op} {value};"));
            }
            return;
        }
        let (a, ty) = self.rng.pick(&arrays).clone();
        let value = self.fresh_value(ty, &a);
        self.replacing_var(&a);
        self.line(&format!("{a} = {value};"));
    }

    fn gc_loop(&mut self) {
        match self.rng.below(5) {
            0 | 1 => self.alloc_loop(),
            2 | 3 => self.carried_loop(),
            _ => self.grid_loop(),
        }
    }

    /// Temporaries made in a loop (a call in it now and then) while arrays
    /// declared before it stay live: one used in the loop and after it,
    /// now and then one used only after it.
    fn alloc_loop(&mut self) {
        let block = self.open_block();
        let kty = Ty::array(&mut self.rng);
        let k = self.fresh("k");
        let init = self.expr(kty, 2);
        self.line(&format!("let {k} = {init};"));
        self.declare(k.clone(), kty);
        let idle = if self.rng.chance(40) {
            let ty = Ty::array(&mut self.rng);
            // Not in scope for other statements: only the loop's end uses it.
            let name = self.fresh("k");
            let init = self.expr(ty, 2);
            self.line(&format!("let {name} = {init};"));
            Some((name, ty))
        } else {
            None
        };
        let trips = 1 + self.rng.below(6) as u64;
        let (_, mult) = self.open_loop(&trips.to_string(), trips);
        let elem = kty.scalar_of();
        let read = self.temp_alloc(elem);
        let target = self.element_of(&k, kty);
        let op = self.update_op(elem);
        self.line(&format!("{target} {op} {read};"));
        if self.rng.chance(40) {
            let r = self.fresh("r");
            let value = self.fresh_value(kty, &k);
            self.line(&format!("let {r} = {value};"));
            self.declare(r, kty);
        }
        let n = self.rng.below(3);
        self.stmts(n);
        if self.rng.chance(30) {
            self.line(&format!("print({read});"));
        }
        self.close_loop(mult);
        match idle {
            Some((name, ty)) if self.rng.chance(50) => {
                let read = self.element_of(&name, ty);
                self.line(&format!("print({k}, {read});"));
            }
            Some((name, _)) => self.line(&format!("print({name}, {k});")),
            None => self.line(&format!("print({k});")),
        }
        self.close_block(block);
    }

    /// An array carried around a loop: each iteration replaces it with a
    /// fresh one computed from it (`c = [c[i] + 1, c[j]]`, `c = f(c)`), so
    /// that only a phi (or a global's cell) holds it, and allocates more.
    fn carried_loop(&mut self) {
        let block = self.open_block();
        let arrays = self.replaceable_arrays();
        let (c, ty) = if !arrays.is_empty() && self.rng.chance(50) {
            self.rng.pick(&arrays).clone()
        } else {
            let ty = Ty::array(&mut self.rng);
            let c = self.fresh("c");
            let init = self.expr(ty, 2);
            self.line(&format!("let {c} = {init};"));
            self.declare(c.clone(), ty);
            (c, ty)
        };
        let trips = 1 + self.rng.below(6) as u64;
        let (_, mult) = self.open_loop(&trips.to_string(), trips);
        let value = self.fresh_value(ty, &c);
        self.replacing_var(&c);
        self.line(&format!("{c} = {value};"));
        if self.rng.chance(50) {
            let read = self.temp_alloc(ty.scalar_of());
            let target = self.element_of(&c, ty);
            let op = self.update_op(ty.scalar_of());
            self.line(&format!("{target} {op} {read};"));
        }
        let n = self.rng.below(3);
        self.stmts(n);
        self.close_loop(mult);
        if self.rng.chance(60) {
            self.line(&format!("print({c});"));
        }
        self.close_block(block);
    }

    /// An array of arrays whose rows are replaced in a loop by fresh ones
    /// that only it holds, while the loop allocates more.
    fn grid_loop(&mut self) {
        let block = self.open_block();
        let row = *self.rng.pick(ARRAYS);
        let ty = row.array_of().expect("flat");
        let m = self.fresh("m");
        let rows = 2 + self.rng.below(3) as u64;
        let fill = self.literal(row);
        self.charge(rows);
        self.line(&format!("let {m} = [{fill}; {rows}];"));
        self.declare(m.clone(), ty);
        self.frozen.push(m.clone());
        let (i, mult) = self.open_loop(&format!("len({m})"), rows);
        let elem = row.elem().expect("array type");
        let value = match self.rng.below(3) {
            0 => self.derived(row, &format!("{m}[{i}]")),
            _ => {
                let v = self.expr(elem, 1);
                let c = 1 + self.rng.below(4);
                self.charge(c as u64);
                format!("[{v}; 1 + {i} % {c}]")
            }
        };
        self.line(&format!("{m}[{i}] = {value};"));
        if self.rng.chance(60) {
            let read = self.temp_alloc(elem);
            let target = self.element_of(&m, ty);
            let op = self.update_op(elem);
            self.line(&format!("{target} {op} {read};"));
        }
        let n = self.rng.below(2);
        self.stmts(n);
        self.close_loop(mult);
        self.frozen.pop();
        if self.rng.chance(60) {
            self.line(&format!("print({m});"));
        } else {
            let read = self.element_of(&m, ty);
            self.line(&format!("print({read}, len({m}));"));
        }
        self.close_block(block);
    }

    fn call(&mut self, i: usize) -> String {
        self.call_with(i, None)
    }

    /// A call of function `i`, with `fixed` as argument `k` when given
    /// (`f(a)` in `a = f(a)`); counts what it allocates and replaces.
    fn call_with(&mut self, i: usize, fixed: Option<(usize, &str)>) -> String {
        let (name, params) = (self.funcs[i].name.clone(), self.funcs[i].params.clone());
        self.cost = self
            .cost
            .saturating_add(self.mult.saturating_mul(self.funcs[i].cost));
        for g in self.funcs[i].replaces.clone() {
            if self.ret.is_some() && !self.replacing.contains(&g) {
                self.replacing.push(g);
            }
        }
        if name.starts_with('r') {
            let d = self.rng.below(6);
            let x = self.expr(Ty::Int, 1);
            return format!("{name}({d}, {x})");
        }
        let args: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(k, &t)| match fixed {
                Some((at, arg)) if at == k => arg.to_string(),
                _ => self.expr(t, 1),
            })
            .collect();
        format!("{name}({})", args.join(", "))
    }

    /// An index into `arr`: in bounds by construction, except now and then.
    /// Computed without calls when a callee might replace `arr` (so that
    /// `len(arr)` is the length of the array indexed).
    fn index_for(&mut self, arr: &str) -> String {
        let pure = self.replaced.iter().any(|g| g == arr);
        self.pure += usize::from(pure);
        let e = self.expr(Ty::Int, 1);
        self.pure -= usize::from(pure);
        if self.rng.chance(1) {
            return format!("len({arr}) + {}", self.rng.below(2));
        }
        format!("(({e}) % len({arr}) + len({arr})) % len({arr})")
    }

    /// An index into `arr` (a name, or an expression without side
    /// effects), computed without calls: always in bounds.
    fn pure_index(&mut self, arr: &str) -> String {
        self.pure += 1;
        let depth = usize::from(self.rng.chance(30));
        let e = self.expr(Ty::Int, depth);
        self.pure -= 1;
        format!("abs({e} % len({arr}))")
    }

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int if self.rng.chance(50) => self.rng.pick(INT_EDGES).to_string(),
            Ty::Int => (self.rng.below(200) as i64 - 100).to_string(),
            Ty::Float if self.rng.chance(50) => self.rng.pick(FLOAT_EDGES).to_string(),
            Ty::Float => format!("{}.{}", self.rng.below(100), self.rng.below(100)),
            Ty::Bool => self.rng.pick(&["true", "false"]).to_string(),
            _ => {
                let elem = ty.elem().expect("array");
                // Arrays of arrays have up to 3 rows, each made once
                // (`[[0; 2]; 3]` shares its row).
                let most = if ty.is_nested() { 3 } else { 4 };
                if self.rng.chance(50) {
                    let n = 1 + self.rng.below(most);
                    self.charge(n as u64);
                    let elems: Vec<String> = (0..n).map(|_| self.expr(elem, 1)).collect();
                    format!("[{}]", elems.join(", "))
                } else {
                    let v = self.expr(elem, 1);
                    let n = 1 + self.rng.below(most);
                    self.charge(n as u64);
                    format!("[{v}; {n}]")
                }
            }
        }
    }

    fn expr(&mut self, ty: Ty, depth: usize) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        let calls: Vec<usize> = (0..self.funcs.len())
            .filter(|&i| self.funcs[i].ret == Some(ty) && self.callable(i))
            .collect();
        if !calls.is_empty() && self.rng.chance(15) {
            let i = *self.rng.pick(&calls);
            return self.call(i);
        }
        match ty {
            Ty::Int => self.int_expr(d),
            Ty::Float => self.float_expr(d),
            Ty::Bool => self.bool_expr(d),
            _ => self.array_expr(ty),
        }
    }

    /// An array: a row of an array of arrays, a fresh array computed from
    /// a variable's, or a variable or literal.
    fn array_expr(&mut self, ty: Ty) -> String {
        if self.rng.chance(20) {
            if let Some(row) = self.row_read(ty) {
                return row;
            }
        }
        if self.rng.chance(15) {
            if let Some(src) = self.vars_of(ty).first().cloned() {
                return self.derived(ty, &src);
            }
        }
        self.leaf(ty)
    }

    /// `m[i]` for a variable `m` whose rows are `ty`s (shared with `m`).
    fn row_read(&mut self, ty: Ty) -> Option<String> {
        let m = self.vars_of(ty.array_of()?).first()?.clone();
        let i = self.pure_index(&m);
        Some(format!("{m}[{i}]"))
    }

    /// `m[i][j]` for a variable `m` of type `[[elem]]`.
    fn nested_read(&mut self, elem: Ty) -> Option<String> {
        let row = self.row_read(elem.array_of()?)?;
        let j = self.pure_index(&row);
        Some(format!("{row}[{j}]"))
    }

    /// A fresh array of type `ty` computed from `src` (a variable, or a
    /// row of one, read more than once): `[src[i] + e, src[j]]`,
    /// `[src[i]; 2]`; rows of an array of arrays are `src`'s own (shared),
    /// computed from them, or new.
    fn derived(&mut self, ty: Ty, src: &str) -> String {
        if self.rng.chance(20) {
            let i = self.pure_index(src);
            let n = 1 + self.rng.below(3);
            self.charge(n as u64);
            return format!("[{src}[{i}]; {n}]");
        }
        let n = 1 + self.rng.below(if ty.is_nested() { 3 } else { 4 });
        self.charge(n as u64);
        let elem = ty.elem().expect("array type");
        let parts: Vec<String> = (0..n)
            .map(|_| {
                let i = self.pure_index(src);
                let read = format!("{src}[{i}]");
                match (elem, self.rng.below(3)) {
                    (_, 0) => read,
                    (Ty::Int, 1) => format!("({read} + {})", self.expr(Ty::Int, 1)),
                    (Ty::Int, _) => format!("({read} * {})", self.expr(Ty::Int, 1)),
                    (Ty::Float, 1) => format!("({read} + {})", self.expr(Ty::Float, 1)),
                    (Ty::Float, _) => format!("({read} * 0.5)"),
                    (Ty::Bool, 1) => format!("!{read}"),
                    (Ty::Bool, _) => format!("({read} != {})", self.expr(Ty::Bool, 1)),
                    (row, 1) => self.derived(row, &read),
                    (row, _) => self.expr(row, 1),
                }
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }

    fn leaf(&mut self, ty: Ty) -> String {
        let vars = self.vars_of(ty);
        if !vars.is_empty() && self.rng.chance(65) {
            return self.rng.pick(&vars).clone();
        }
        self.literal(ty)
    }

    fn int_expr(&mut self, d: usize) -> String {
        match self.rng.below(9) {
            0..=3 => {
                let op = *self
                    .rng
                    .pick(&["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]);
                let (a, b) = (self.expr(Ty::Int, d), self.expr(Ty::Int, d));
                // Divisors are made odd (never zero, `-1` kept) but now and
                // then: division by zero is a runtime error to agree on.
                if (op == "/" || op == "%") && !self.rng.chance(4) {
                    return format!("({a} {op} ({b} | 1))");
                }
                format!("({a} {op} {b})")
            }
            4 => format!("-{}", self.expr(Ty::Int, d)),
            5 => {
                let f = self.rng.pick(&["abs", "min", "max", "int"]).to_string();
                match f.as_str() {
                    "abs" => format!("abs({})", self.expr(Ty::Int, d)),
                    "int" => format!("int({})", self.expr(Ty::Float, d)),
                    _ => format!("{f}({}, {})", self.expr(Ty::Int, d), self.expr(Ty::Int, d)),
                }
            }
            6 => {
                if self.rng.chance(25) {
                    if let Some(read) = self.nested_read(Ty::Int) {
                        return read;
                    }
                }
                let arrays = self.vars_of(Ty::IntArr);
                match arrays.first().cloned() {
                    Some(arr) => {
                        let i = self.index_for(&arr);
                        format!("{arr}[{i}]")
                    }
                    None => self.literal(Ty::Int),
                }
            }
            7 => {
                let ty = if self.rng.chance(10) {
                    *self.rng.pick(NESTED)
                } else {
                    *self.rng.pick(ARRAYS)
                };
                let a = self.leaf(ty);
                format!("len({a})")
            }
            _ => self.literal(Ty::Int),
        }
    }

    fn float_expr(&mut self, d: usize) -> String {
        match self.rng.below(7) {
            0..=2 => {
                let op = self.rng.pick(&["+", "-", "*", "/", "%"]);
                let (a, b) = (self.expr(Ty::Float, d), self.expr(Ty::Float, d));
                format!("({a} {op} {b})")
            }
            3 => format!("-{}", self.expr(Ty::Float, d)),
            4 => {
                let f = self
                    .rng
                    .pick(&["sqrt", "abs", "min", "max", "float"])
                    .to_string();
                match f.as_str() {
                    "min" | "max" => {
                        format!(
                            "{f}({}, {})",
                            self.expr(Ty::Float, d),
                            self.expr(Ty::Float, d)
                        )
                    }
                    "float" => format!("float({})", self.expr(Ty::Int, d)),
                    _ => format!("{f}({})", self.expr(Ty::Float, d)),
                }
            }
            5 => {
                if self.rng.chance(25) {
                    if let Some(read) = self.nested_read(Ty::Float) {
                        return read;
                    }
                }
                let arrays = self.vars_of(Ty::FloatArr);
                match arrays.first().cloned() {
                    Some(arr) => {
                        let i = self.index_for(&arr);
                        format!("{arr}[{i}]")
                    }
                    None => self.literal(Ty::Float),
                }
            }
            _ => self.literal(Ty::Float),
        }
    }

    fn bool_expr(&mut self, d: usize) -> String {
        match self.rng.below(7) {
            0 | 1 => {
                let ty = *self.rng.pick(&[Ty::Int, Ty::Float]);
                let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                format!("({a} {op} {b})")
            }
            2 => {
                let op = self.rng.pick(&["&&", "||"]);
                let (a, b) = (self.expr(Ty::Bool, d), self.expr(Ty::Bool, d));
                format!("({a} {op} {b})")
            }
            3 => format!("!{}", self.expr(Ty::Bool, d)),
            4 => {
                let op = self.rng.pick(&["==", "!="]);
                let (a, b) = (self.expr(Ty::Bool, d), self.expr(Ty::Bool, d));
                format!("({a} {op} {b})")
            }
            5 => {
                if self.rng.chance(25) {
                    if let Some(read) = self.nested_read(Ty::Bool) {
                        return read;
                    }
                }
                match self.vars_of(Ty::BoolArr).first().cloned() {
                    Some(arr) => {
                        let i = self.index_for(&arr);
                        format!("{arr}[{i}]")
                    }
                    None => self.literal(Ty::Bool),
                }
            }
            _ => self.literal(Ty::Bool),
        }
    }

    fn print_all_visible(&mut self) {
        let mut names = Vec::new();
        for scope in &self.scopes {
            for (name, _) in scope {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        if !names.is_empty() {
            let _ = writeln!(self.out, "print({});", names.join(", "));
        }
    }
}
