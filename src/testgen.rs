//! A generator of random, well-typed, terminating Toy programs, for
//! differential testing (`tests/differential.rs`, `cargo run --release --bin
//! difftest`). Deterministic from a seed.
//!
//! Termination by construction: loops run a small constant number of times
//! (`while` loops carry their own counter), functions call only functions
//! declared before them, and the one recursive function counts a depth
//! parameter down. Programs exercise every operator on int, float and bool
//! with edge values (`i64::MIN`, `-1`, `0`, NaN, ±inf, `-0.0`), constant
//! sub-expressions (for the folder), globals, arrays (indices in bounds by
//! construction, and now and then out of bounds on purpose), shadowing,
//! `break`/`continue`, `&&`/`||` and early `return`. Division by zero and
//! out-of-bounds accesses end a program with a runtime error — which the
//! back ends must then agree on too.

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Float,
    Bool,
    IntArr,
    FloatArr,
    BoolArr,
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
        }
    }

    fn elem(self) -> Option<Ty> {
        match self {
            Ty::IntArr => Some(Ty::Int),
            Ty::FloatArr => Some(Ty::Float),
            Ty::BoolArr => Some(Ty::Bool),
            _ => None,
        }
    }

    fn scalar(rng: &mut Rng) -> Ty {
        *rng.pick(&[Ty::Int, Ty::Int, Ty::Float, Ty::Bool])
    }

    fn any(rng: &mut Rng) -> Ty {
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
        self.recursive_function();
        for _ in 0..self.rng.below(4) {
            self.function();
        }
        let body = 3 + self.rng.below(6);
        for _ in 0..body {
            self.stmt();
        }
        self.print_all_visible();
    }

    /// `fn rN(d: int, x: int) -> int`, recursing on `d - 1` down to 0.
    fn recursive_function(&mut self) {
        let name = self.fresh("r");
        self.line(&format!("fn {name}(d: int, x: int) -> int {{"));
        self.indent += 1;
        self.scopes
            .push(vec![("d".into(), Ty::Int), ("x".into(), Ty::Int)]);
        self.ret = Some(Some(Ty::Int));
        let base = self.expr(Ty::Int, 2);
        self.line(&format!("if d <= 0 {{ return {base}; }}"));
        let step = self.expr(Ty::Int, 2);
        self.line(&format!("return {name}(d - 1, {step}) + x;"));
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        self.funcs.push(Func {
            name,
            params: vec![Ty::Int, Ty::Int],
            ret: Some(Ty::Int),
        });
        self.ret = None;
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
        for _ in 0..1 + self.rng.below(4) {
            self.stmt();
        }
        if let Some(t) = ret {
            let v = self.expr(t, 2);
            self.line(&format!("return {v};"));
        }
        self.ret = None;
        self.scopes.pop();
        self.indent -= 1;
        self.line("}");
        self.funcs.push(Func { name, params, ret });
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
        match self.rng.below(if nested { 15 } else { 8 }) {
            0 | 1 => self.let_stmt(),
            2 | 3 => self.assign(),
            4 => self.print_stmt(),
            5 => self.element_assign(),
            6 => self.call_stmt(),
            7 => self.control_transfer(),
            8 | 9 => self.if_stmt(),
            10 | 11 => self.for_stmt(),
            12 => self.while_stmt(),
            13 if self.rng.chance(30) => self.array_reversal(),
            13 if self.rng.chance(30) => self.strided_fill(),
            13 if self.rng.chance(25) => self.arrays_in_step(),
            13 => self.array_walk(),
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
        if self.funcs.is_empty() {
            return self.print_stmt();
        }
        let i = self.rng.below(self.funcs.len());
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
        let cond = self.expr(Ty::Bool, 3);
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

    fn for_stmt(&mut self) {
        let var = self.fresh("i");
        let start = self.rng.below(3) as i64 - 1;
        let end = start + self.rng.below(5) as i64;
        let n = 1 + self.rng.below(3);
        self.loops += 1;
        self.line(&format!("for {var} in {start}..{end} {{"));
        // The loop variable lives in the body's scope.
        self.scopes.push(vec![(var, Ty::Int)]);
        self.inner(n);
        self.scopes.pop();
        self.line("}");
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
        let past_end = if self.rng.chance(5) { " + 1" } else { "" };
        let var = self.fresh("i");
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
        } else {
            // Not in scope for other statements: nothing else assigns it.
            let cmp = if past_end.is_empty() { "<" } else { "<=" };
            self.line(&format!("let {var} = 0;"));
            self.line(&format!("while {var} {cmp} len({arr}) {{"));
            self.line(&format!("    {update}"));
            self.line(&format!("    {var} += 1;"));
        }
        self.line("}");
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
        self.line(&format!("    {hi} -= 1;"));
        self.line("}");
    }

    /// Fills every `step`-th element of a fresh `[x; lim + 1]` while the
    /// index is `<= lim` — the sieve's loop, whose checks `ir::bounds`
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
        self.line(&format!("    {j} += {step};"));
        self.line("}");
        self.line(&format!("print({arr});"));
    }

    fn while_stmt(&mut self) {
        let counter = self.fresh("w");
        // Not declared in any scope: no statement may assign it.
        self.line(&format!("let {counter} = 0;"));
        let limit = 1 + self.rng.below(4);
        let cond = self.expr(Ty::Bool, 2);
        let n = 1 + self.rng.below(3);
        self.loops += 1;
        // The counter is bumped first, so `continue` cannot skip it.
        self.line(&format!(
            "while {counter} < {limit} && ({cond} || {counter} < 2) {{"
        ));
        self.line(&format!("    {counter} += 1;"));
        self.inner(n);
        self.line("}");
        self.loops -= 1;
    }

    fn call(&mut self, i: usize) -> String {
        let (name, params) = (self.funcs[i].name.clone(), self.funcs[i].params.clone());
        if name.starts_with('r') {
            let d = self.rng.below(6);
            let x = self.expr(Ty::Int, 1);
            return format!("{name}({d}, {x})");
        }
        let args: Vec<String> = params.iter().map(|&t| self.expr(t, 1)).collect();
        format!("{name}({})", args.join(", "))
    }

    /// An index into `arr`: in bounds by construction, except now and then.
    fn index_for(&mut self, arr: &str) -> String {
        let e = self.expr(Ty::Int, 1);
        if self.rng.chance(1) {
            return format!("len({arr}) + {}", self.rng.below(2));
        }
        format!("(({e}) % len({arr}) + len({arr})) % len({arr})")
    }

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int if self.rng.chance(50) => self.rng.pick(INT_EDGES).to_string(),
            Ty::Int => (self.rng.below(200) as i64 - 100).to_string(),
            Ty::Float if self.rng.chance(50) => self.rng.pick(FLOAT_EDGES).to_string(),
            Ty::Float => format!("{}.{}", self.rng.below(100), self.rng.below(100)),
            Ty::Bool => self.rng.pick(&["true", "false"]).to_string(),
            Ty::IntArr | Ty::FloatArr | Ty::BoolArr => {
                let elem = ty.elem().expect("array");
                if self.rng.chance(50) {
                    let n = 1 + self.rng.below(4);
                    let elems: Vec<String> = (0..n).map(|_| self.expr(elem, 1)).collect();
                    format!("[{}]", elems.join(", "))
                } else {
                    let v = self.expr(elem, 1);
                    format!("[{v}; {}]", 1 + self.rng.below(4))
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
            .filter(|&i| self.funcs[i].ret == Some(ty))
            .collect();
        if !calls.is_empty() && self.rng.chance(15) {
            let i = *self.rng.pick(&calls);
            return self.call(i);
        }
        match ty {
            Ty::Int => self.int_expr(d),
            Ty::Float => self.float_expr(d),
            Ty::Bool => self.bool_expr(d),
            Ty::IntArr | Ty::FloatArr | Ty::BoolArr => self.leaf(ty),
        }
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
                let ty = *self.rng.pick(ARRAYS);
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
            5 => match self.vars_of(Ty::BoolArr).first().cloned() {
                Some(arr) => {
                    let i = self.index_for(&arr);
                    format!("{arr}[{i}]")
                }
                None => self.literal(Ty::Bool),
            },
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
