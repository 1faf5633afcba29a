//! Bounds-check elimination (`ir::bounds`): which accesses are proven in
//! bounds, on real programs lowered by the real pipeline, both the ones it
//! must prove and the ones it must not. Each access sits on its own line;
//! the tests compare the lines of proven accesses. (Programs whose checks
//! go, run through the binary, are files in `tests/files/bounds/`.)

use jitrun::driver::{compile, Emit, OptLevel, Options};
use jitrun::ir::dom::DomTree;
use jitrun::ir::loops::Loops;
use jitrun::ir::{bounds, Function, InstKind};
use jitrun::passes::{pipeline, Scope, CARRY, LICM, REUSE, VERSION};

/// `bounds::plan_checks` of `f`, with its dominator tree and loop forest.
fn plan_checks(f: &Function, quiet: &[bool]) -> bounds::CheckPlan {
    let dom = DomTree::compute(f);
    bounds::plan_checks(f, &dom, &Loops::compute(f, &dom), quiet)
}

/// Lines of the accesses in function `f` proven in bounds, at `-O level`.
fn proven_lines(src: &str, level: OptLevel) -> (Vec<u32>, Vec<u32>) {
    let f = lowered_f(src, level);
    let proven = plan_checks(&f, &[]).proven;
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for &b in &f.layout {
        for &inst in &f.blocks[b].insts {
            let data = &f.insts[inst];
            if matches!(
                data.kind,
                InstKind::ArrayGet { .. } | InstKind::ArraySet { .. }
            ) {
                if proven[inst] {
                    yes.push(data.loc.line);
                } else {
                    no.push(data.loc.line);
                }
            }
        }
    }
    yes.sort();
    no.sort();
    (yes, no)
}

/// Function `f` of `src` in SSA form at `-O level`, without the passes
/// that mark accesses unchecked or remove them (`licm`'s hoisted loads,
/// `version`'s loop copies, `reuse`'s and `carry`'s reads taken from
/// earlier ones: `tests/files/licm/`, `version/`, `reuse/`, `carry/`), so
/// that these tests see what `ir::bounds` proves by itself.
fn lowered_f(src: &str, level: OptLevel) -> Function {
    let unchecking = [LICM.name, VERSION.name, REUSE.name, CARRY.name];
    let passes = pipeline(level, Scope::Program)
        .iter()
        .copied()
        .filter(|p| !unchecking.contains(&p.name))
        .collect();
    let opts = Options {
        opt_level: level,
        passes: Some(passes),
        emit: Some(Emit::Ssa),
        verify: true,
        ..Options::default()
    };
    let artifacts = compile(src, &opts).unwrap_or_else(|e| {
        panic!(
            "{e}: {:?}",
            e.diagnostics()
                .iter()
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        )
    });
    artifacts
        .ssa
        .functions
        .into_iter()
        .find(|f| f.name == "f")
        .expect("a function f")
}

/// Lines of the accesses in `f` checked on entry to their loop (rule 4).
fn entry_checked_lines(src: &str, level: OptLevel) -> Vec<u32> {
    let f = lowered_f(src, level);
    let plan = plan_checks(&f, &[]);
    let grouped: Vec<_> = plan.groups.values().flatten().map(|a| a.inst).collect();
    let mut lines: Vec<u32> = f
        .insts
        .iter()
        .filter(|&(i, _)| plan.covered[i] && !grouped.contains(&i))
        .map(|(_, d)| d.loc.line)
        .collect();
    lines.sort();
    lines
}

/// The lines of the accesses of each group of checks in `f`, in order.
fn grouped_lines(src: &str, level: OptLevel) -> Vec<Vec<u32>> {
    let f = lowered_f(src, level);
    let plan = plan_checks(&f, &[]);
    let mut groups: Vec<Vec<u32>> = plan
        .groups
        .values()
        .map(|g| g.iter().map(|a| f.insts[a.inst].loc.line).collect())
        .collect();
    groups.sort();
    groups
}

#[track_caller]
fn assert_proven(src: &str, proven: &[u32], unproven: &[u32]) {
    for level in OptLevel::ALL {
        let (yes, no) = proven_lines(src, level);
        assert_eq!(yes, proven, "proven lines at {level}");
        assert_eq!(no, unproven, "checked lines at {level}");
    }
}

#[test]
fn loops_up_to_the_length_need_no_checks() {
    assert_proven(
        "fn f(a: [int]) -> int {
            let s = 0;
            for i in 0..len(a) {
                s += a[i];
                a[i] = s;
            }
            let j = 0;
            while j < len(a) {
                s += a[j];
                j += 1;
            }
            return s;
        }",
        &[4, 5, 9],
        &[],
    );
}

/// An array made as long as another (`[x; len(a)]`), then filled up to
/// `len(a)`: its length and the loop's bound are the same length.
#[test]
fn loops_up_to_the_length_an_array_was_made_with_need_no_checks() {
    assert_proven(
        "fn f(a: [float]) -> [float] {
            let c = [0.0; len(a)];
            for j in 0..len(a) {
                c[j] = a[j];
            }
            let d = [0.0; len(a)];
            for j in 0..len(c) {
                d[j] = 1.0;
            }
            return c;
        }",
        &[4, 4],
        &[8],
    );
}

#[test]
fn loops_up_to_the_allocated_length_need_no_checks() {
    assert_proven(
        "fn f(n: int) -> [float] {
            let row = [0.0; n];
            for j in 0..n {
                row[j] = 1.0;
            }
            let fixed = [1, 2, 3];
            fixed[2] = fixed[0];
            print(fixed);
            return row;
        }",
        &[4, 7, 7],
        &[],
    );
}

#[test]
fn a_dominating_access_covers_smaller_constant_indices() {
    assert_proven(
        "fn f(a: [int], i: int) -> int {
            let x = a[6];
            let y = a[2];
            let z = a[i];
            if x > 0 {
                return a[i] + a[0] + a[7];
            }
            return y + z;
        }",
        &[3, 6, 6],
        &[2, 4, 6],
    );
}

#[test]
fn what_is_not_proven_keeps_its_check() {
    assert_proven(
        "fn f(a: [int], b: [int], n: int) -> int {
            let s = 0;
            for i in 0..len(a) + 1 {
                s += a[i];
            }
            for i in 0..len(a) {
                s += b[i];
                s += a[i + 1];
            }
            for i in -1..len(a) {
                s += a[i];
            }
            for i in 0..n {
                s += a[i];
            }
            let k = 0;
            while k <= len(a) {
                s += a[k];
                k += 1;
            }
            let m = len(a) - 1;
            while m < len(a) {
                s += a[m];
                m -= 1;
            }
            if s > 0 {
                s += a[3];
            }
            s += a[3];
            return s;
        }",
        &[],
        &[4, 7, 8, 11, 14, 18, 23, 27, 29],
    );
}

#[test]
fn constant_index_checks_are_grouped_between_barriers() {
    let src = "fn f(b: [float], c: [float], i: int) -> float {
            let x = b[0]
                * c[0];
            let y = b[1]
                + c[6];
            let z = b[i];
            let w = b[2]
                * c[7];
            print(w);
            let v = c[8];
            return x + y + z + w + v;
        }";
    let by_arrays = "fn f(a: [[int]], n: int) -> int {
            let r = a[0];
            let s = a[1];
            let t = r[0]
                + r[3];
            let u = t / n;
            let q = s[0]
                + s[2] / 2;
            return u + q;
        }";
    let four_arrays = "fn f(a: [int], b: [int], c: [int], d: [int]) -> int {
            return a[0]
                + b[1]
                + c[2]
                + a[3]
                + d[4]
                + a[5];
        }";
    for level in OptLevel::ALL {
        // A variable index and a print end a group; a lone access stays
        // on its own.
        assert_eq!(
            grouped_lines(src, level),
            [vec![2, 3, 4, 5], vec![7, 8]],
            "{level}"
        );
        // A group's check runs at its first access, so an array defined
        // later starts a new group; division by a variable can fail, by a
        // nonzero constant it cannot.
        assert_eq!(
            grouped_lines(by_arrays, level),
            [vec![2, 3], vec![4, 5], vec![7, 8]],
            "{level}"
        );
        // A fourth array starts a new group.
        assert_eq!(
            grouped_lines(four_arrays, level),
            [vec![2, 3, 4, 5], vec![6, 7]],
            "{level}"
        );
    }
}

#[test]
fn accesses_at_offsets_from_one_index_are_grouped_per_array() {
    let src = "fn f(code: [int], r: [int], at: int) -> int {
            let op = code[at];
            let a = code[at + 1]
                + code[at + 3];
            let x = r[a];
            let b = code[at + 2]
                * r[op];
            let c = code[at - 1];
            let d = code[at + 5]
                - code[at + 4];
            let e = r[at]
                + r[at + 1];
            return op + a + x + b + c + d + e;
        }";
    for level in OptLevel::ALL {
        // Another array or another base ends a group of offsets; fewer
        // than three accesses stay on their own.
        assert_eq!(
            grouped_lines(src, level),
            [vec![2, 3, 4], vec![8, 9, 10]],
            "{level}"
        );
    }
}

#[test]
fn loops_between_a_growing_and_a_shrinking_bound_check_on_entry() {
    let src = "fn f(a: [int], lo: int, hi: int) -> int {
            let s = 0;
            while lo < hi {
                let t = a[lo];
                a[lo] = a[hi];
                a[hi] = t;
                lo += 1;
                hi -= 1;
            }
            let i = 0;
            let j = hi;
            while i < j {
                print(i);
                s += a[i] + a[j];
                i += 1;
                j -= 1;
            }
            while i < j {
                s += a[i];
                i += 1;
            }
            while i < j {
                s += a[i] + a[j];
                i -= 1;
                j -= 1;
            }
            return s;
        }";
    for level in OptLevel::ALL {
        // The flips of fannkuch: both ends read before anything else.
        // (The third loop reads only one end, but nothing else: rule 6.)
        assert_eq!(entry_checked_lines(src, level), [4, 5, 19], "{level}");
        // A print first, or a bound moving the wrong way: checked at
        // every access.
        let (proven, checked) = proven_lines(src, level);
        assert_eq!(proven, [5, 6], "{level}");
        assert_eq!(checked, [4, 5, 14, 14, 19, 23, 23], "{level}");
    }
}

#[test]
fn loops_growing_towards_a_length_check_on_entry() {
    let src = "fn f(n: int, k: int, s: int) -> int {
            let a = [0; n + 1];
            let j = k * k;
            while j <= n {
                a[j] = 1;
                j += 3;
            }
            let b = [0; n];
            let i = k;
            while i < n {
                b[i] += 1;
                i += 2;
            }
            let m = k;
            while m < len(b) {
                print(m);
                b[m] = 0;
                m += 1;
            }
            let q = k;
            while q <= n {
                b[q] = 1;
                q += 1;
            }
            let r = k;
            while r < n {
                b[r] = 1;
                r += s;
            }
            return j + i;
        }";
    for level in OptLevel::ALL {
        // The sieve's walk (`<=` against an allocation of `n + 1`) and a
        // walk below an allocated length: checked once, on entry.
        assert_eq!(entry_checked_lines(src, level), [5, 11], "{level}");
        // A print first, a bound one past the length, a step that could
        // wrap: checked at every access.
        let (proven, checked) = proven_lines(src, level);
        assert_eq!(proven, [11], "{level}");
        assert_eq!(checked, [5, 11, 17, 22, 27], "{level}");
    }
}

#[test]
fn quiet_loops_check_on_entry() {
    let src = "fn f(a: [int], b: [float], c: [float], n: int, k: int) -> float {
            let s = 0.0;
            for j in k..n {
                s += b[j] * 2.0;
            }
            for j in 0..n {
                if j > 3 { s += c[j]; }
            }
            for j in 0..n {
                s += b[j] + c[j];
            }
            for j in 0..n {
                s += b[j];
                if s > 10.0 { break; }
            }
            for j in 0..n {
                s += b[j] / float(a[0]);
            }
            for j in 0..n {
                print(j);
                s += c[j];
            }
            return s;
        }";
    for level in OptLevel::ALL {
        // Matmul's inner loop: runs to its end or stops at the first
        // index out of bounds, with nothing observable before; so does a
        // loop over two arrays in step.
        assert_eq!(entry_checked_lines(src, level), [4, 10, 10], "{level}");
        // An access not in every iteration, a break, another check that
        // can fail first, a print: checked in place.
        let (proven, checked) = proven_lines(src, level);
        assert_eq!(proven, Vec::<u32>::new(), "{level}");
        assert_eq!(checked, [4, 7, 10, 10, 13, 17, 17, 21], "{level}");
    }
}

#[test]
fn calls_of_quiet_functions_keep_a_loop_quiet() {
    let src = "fn w(i: int, j: int) -> float { return 1.0 / float(i + j + 1); }
        fn noisy(i: int) -> float { print(i); return 1.0; }
        fn risky(i: int, k: int) -> float { return float(i / k); }
        fn f(v: [float], n: int, k: int) -> float {
            let s = 0.0;
            for j in 0..n {
                s += w(k, j) * v[j];
            }
            for j in 0..n {
                s += noisy(j) * v[j];
            }
            for j in 0..n {
                s += risky(j, k) * v[j];
            }
            return s;
        }";
    for level in OptLevel::ALL {
        let opts = Options {
            opt_level: level,
            emit: Some(Emit::Ssa),
            ..Options::default()
        };
        let module = compile(src, &opts).expect("compiles").ssa;
        let quiet: Vec<bool> = module.functions.iter().map(bounds::is_quiet).collect();
        // w: one block, nothing that prints or fails; noisy prints; risky
        // divides by a variable.
        assert_eq!(quiet, [true, false, false, false], "{level}");
        let f = &module.functions[3];
        let plan = plan_checks(f, &quiet);
        let mut lines: Vec<u32> = f
            .insts
            .iter()
            .filter(|&(i, _)| plan.covered[i])
            .map(|(_, d)| d.loc.line)
            .collect();
        lines.sort();
        assert_eq!(lines, [7], "{level}");
    }
}

/// Rule 6 over several arrays: every access in every iteration, at most
/// three arrays (their lengths go to the runtime in registers).
#[test]
fn loops_walking_several_arrays_in_step_check_on_entry() {
    let three = "fn f(a: [float], b: [float], c: [float], n: int) -> float {
            for j in 0..n {
                c[j] = a[j]
                    + b[j];
            }
            return 0.0;
        }";
    let conditional = "fn f(a: [float], b: [float], c: [float], n: int) -> float {
            for j in 0..n {
                c[j] = a[j];
                if c[j] > 1.0 {
                    b[j] = 2.0;
                }
            }
            return 0.0;
        }";
    let four = "fn f(a: [float], b: [float], c: [float], d: [float], n: int) -> float {
            for j in 0..n {
                c[j] = a[j]
                    + b[j]
                    + d[j];
            }
            return 0.0;
        }";
    for level in OptLevel::ALL {
        assert_eq!(entry_checked_lines(three, level), [3, 3, 4], "{level}");
        assert_eq!(
            entry_checked_lines(conditional, level),
            [] as [u32; 0],
            "{level}"
        );
        assert_eq!(entry_checked_lines(four, level), [] as [u32; 0], "{level}");
    }
}

/// `ir::globals`: in a function that calls no Toy function and never
/// stores to a global, all loads of that global are one value (from `-O1`),
/// so a loop over a global array's length indexes that very array. A store
/// to the global or any call keeps the loads apart, and the checks. (The
/// top-level code stores an element, so that `g` is no table of
/// constants, whose reads `-O2` would fold away.)
#[test]
fn loops_over_a_global_arrays_length_need_no_checks_where_it_cannot_change() {
    let read_only = "let g = [1, 2, 3];
g[0] = 4;
fn f() -> int {
    let s = 0;
    for i in 0..len(g) {
        s += g[i];
    }
    return s;
}
print(f());
";
    assert_eq!(proven_lines(read_only, OptLevel::O0), (vec![], vec![6]));
    for level in [OptLevel::O1, OptLevel::O2] {
        assert_eq!(proven_lines(read_only, level), (vec![6], vec![]), "{level}");
    }
    let stored = "let g = [1, 2, 3];
fn f() -> int {
    let s = 0;
    for i in 0..len(g) {
        s += g[i];
        g = [7];
    }
    return s;
}
print(f());
";
    let called = "let g = [1, 2, 3];
fn shrink() { g = [7]; }
fn f() -> int {
    let s = 0;
    for i in 0..len(g) {
        s += g[i];
        shrink();
    }
    return s;
}
print(f());
";
    for level in OptLevel::ALL {
        assert_eq!(proven_lines(stored, level).0, Vec::<u32>::new(), "{level}");
        assert_eq!(proven_lines(called, level).0, Vec::<u32>::new(), "{level}");
    }
    // Both read past the new one-element array on their second iteration:
    // tests/files/bounds/global_array_stored.toy and global_array_called.toy.
}
