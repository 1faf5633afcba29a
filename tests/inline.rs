//! Inlining by a cost model at -O2 (`ir::inliner`): calls of small
//! non-recursive functions — with loops, with calls of their own — are
//! replaced by copies of their bodies; output, runtime errors and their
//! call stacks read as without it.

mod common;
use common::*;

/// `sum` has a loop and calls the recursive `depth` (f0; two calls of
/// itself, so `ir::tailrec` leaves it recursive): -O2 copies `sum` into
/// `total`'s loop (the top-level code keeps its calls: `ir::inliner` does
/// not inline into it).
const NON_LEAF: &str = "fn depth(n: int) -> int {\n    if n < 2 {\n        return 1;\n    }\n    return depth(n / 2) + depth(0);\n}\nfn sum(a: [int], n: int) -> int {\n    let s = 0;\n    for i in 0..n {\n        s += a[i] * depth(i) % 7;\n    }\n    return s;\n}\nfn total(a: [int]) -> int {\n    let t = 0;\n    for r in 0..4 {\n        t += sum(a, len(a) - r);\n    }\n    return t;\n}\nlet a = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];\nlet acc = 0;\nfor k in 0..3 {\n    acc = acc * 10 + total(a) + k;\n}\nprint(acc);\n";

/// The lines of function `name` in `--emit ssa` output.
fn function_ssa<'a>(ssa: &'a str, name: &str) -> &'a str {
    let start = ssa
        .find(&format!("fn {name}("))
        .expect("the function is printed");
    let body = &ssa[start..];
    &body[..body.find("\n}\n").expect("the function ends")]
}

#[test]
fn a_non_leaf_function_with_a_loop_is_inlined_at_o2() {
    let ssa = run_source(
        "inline_non_leaf_ssa.toy",
        NON_LEAF,
        &["-O2", "--emit", "ssa"],
    );
    assert_eq!(ssa.status, 0, "{}", ssa.stderr);
    let total = function_ssa(&ssa.stdout, "total");
    assert!(!total.contains("call f1("), "{total}");
    assert!(total.contains("call f0("), "{total}");
    let top = function_ssa(&ssa.stdout, "<top>");
    assert!(
        top.contains("call f2(") && !top.contains("call f1("),
        "{top}"
    );
    // At -O1 the calls stay.
    let o1 = run_source(
        "inline_non_leaf_ssa.toy",
        NON_LEAF,
        &["-O1", "--emit", "ssa"],
    );
    assert!(function_ssa(&o1.stdout, "total").contains("call f1("));
    // Called nowhere any more, `sum` gets no code.
    let clif = run_source(
        "inline_non_leaf_clif.toy",
        NON_LEAF,
        &["-O2", "--emit", "clif"],
    );
    assert!(!clif.stdout.contains("; toy.sum\n"), "{}", clif.stdout);
    assert!(clif.stdout.contains("; toy.total\n"), "{}", clif.stdout);
    assert!(clif.stdout.contains("; toy.depth\n"), "{}", clif.stdout);
    same_at_every_level("inline_non_leaf.toy", NON_LEAF, "14442\n");
    agrees_with_interpreter("inline_non_leaf.toy", NON_LEAF);
}

/// `find` (a loop) is copied into `middle`, and `middle` (with its copy
/// of `find`) into `outer`'s loop: the failing access sits two copies
/// deep in `outer`'s code, and still names every frame.
const NESTED: &str = "fn find(a: [int], key: int) -> int {\n    let i = 0;\n    while a[i] != key {\n        i += 1;\n    }\n    return i;\n}\nfn middle(a: [int], key: int) -> int {\n    let s = 0;\n    for r in 0..2 {\n        s += find(a, key + r);\n    }\n    return s;\n}\nfn outer(a: [int]) -> int {\n    let t = 0;\n    for k in 1..5 {\n        t += middle(a, k);\n        print(t);\n    }\n    return t;\n}\nprint(outer([1, 2, 3, 4]));\n";

#[test]
fn a_runtime_error_in_an_inlined_multi_block_function_prints_the_same_stack() {
    let ssa = run_named("inline_nested.toy", NESTED, &["-O2", "--emit", "ssa"]);
    let outer = function_ssa(&ssa.stdout, "outer");
    assert!(!outer.contains("call "), "{outer}");
    assert!(outer.contains("(inlined at 11:14)"), "{outer}");
    let reference = run_named("inline_nested.toy", NESTED, &["-O0"]);
    assert_eq!(reference.status, 2);
    assert_eq!(reference.stdout, "1\n4\n9\n");
    assert_eq!(
        reference.stderr,
        "inline_nested.toy:3:11: runtime error: index out of bounds: the length is 4 but the index is 4\n  in find at inline_nested.toy:3:11\n  called from middle at inline_nested.toy:11:14\n  called from outer at inline_nested.toy:18:14\n  called from the top level at inline_nested.toy:23:7\n"
    );
    for mode in [&["-O2"][..], &["-O2", "--interp"], &["-O1"]] {
        let run = run_named("inline_nested.toy", NESTED, mode);
        assert_eq!(
            (run.status, &run.stdout, &run.stderr),
            (reference.status, &reference.stdout, &reference.stderr),
            "{mode:?}"
        );
    }
}

#[test]
fn recursive_functions_are_not_inlined() {
    // `even` (f0) and `odd` (f1) call each other; `fact` (f2) calls
    // itself; `count` (f3), small and not recursive, calls two of them in
    // a loop, where the budget is largest.
    let src = "fn even(n: int) -> bool {\n    if n == 0 {\n        return true;\n    }\n    return odd(n - 1);\n}\nfn odd(n: int) -> bool {\n    if n == 0 {\n        return false;\n    }\n    return even(n - 1);\n}\nfn fact(n: int) -> int {\n    if n < 2 {\n        return 1;\n    }\n    return n * fact(n - 1) % 1000003;\n}\nfn count(n: int) -> int {\n    let c = 0;\n    for i in 0..n {\n        if even(i) {\n            c += fact(i);\n        }\n    }\n    return c;\n}\nprint(count(50));\n";
    let ssa = run_source("inline_recursive_ssa.toy", src, &["-O2", "--emit", "ssa"]);
    assert_eq!(ssa.status, 0, "{}", ssa.stderr);
    let count = function_ssa(&ssa.stdout, "count");
    // Still calls: no copy of `even` (which would call `odd`, f1) nor of
    // `fact` (which would bring its constant) is in `count`.
    assert!(
        count.contains("call f0(") && count.contains("call f2("),
        "{count}"
    );
    assert!(
        !count.contains("call f1(") && !count.contains("1000003"),
        "{count}"
    );
    // Each of `even` and `odd` took a copy of the other (`ir::inline`
    // unrolls mutual recursion), so each now calls only itself.
    let even = function_ssa(&ssa.stdout, "even");
    assert!(
        even.contains("call f0(") && !even.contains("call f1("),
        "{even}"
    );
    let odd = function_ssa(&ssa.stdout, "odd");
    assert!(
        odd.contains("call f1(") && !odd.contains("call f0("),
        "{odd}"
    );
    agrees_with_interpreter("inline_recursive.toy", src);
}
