//! Pathological input ends in a result or a clear compile error, never a
//! stack overflow, panic or signal of the compiler.

mod common;
use common::*;

fn expect_error(name: &str, src: &str, fragment: &str) {
    let run = run_source(name, src, &[]);
    assert_eq!(run.status, 1, "{name}: {}", run.stderr);
    assert!(run.stderr.contains(fragment), "{name}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
}

fn expect_output(name: &str, src: &str, out: &str) {
    let run = run_source(name, src, &[]);
    assert_eq!(run.status, 0, "{name}: {}", run.stderr);
    assert_eq!(run.stdout, out, "{name}");
}

#[test]
fn hundred_thousand_nested_parentheses() {
    let src = format!("print({}1{});\n", "(".repeat(100_000), ")".repeat(100_000));
    expect_error(
        "parens.toy",
        &src,
        "parens.toy:1:262: error: brackets nest too deeply",
    );
}

#[test]
fn ten_thousand_nested_blocks() {
    let src = format!("{}print(1);{}\n", "{".repeat(10_000), "}".repeat(10_000));
    expect_error("blocks.toy", &src, "nest too deeply");
}

#[test]
fn nesting_just_below_the_limits_compiles() {
    let src = format!("print({}1{});\n", "(".repeat(250), ")".repeat(250));
    expect_output("parens250.toy", &src, "1\n");
    let src = format!("print({});\n", vec!["1"; 4_000].join(" + "));
    expect_output("sum4000.toy", &src, "4000\n");
}

#[test]
fn a_million_term_expression_and_deep_unary_chains() {
    let src = format!("print({});\n", vec!["1"; 1_000_000].join("+"));
    expect_error("chain.toy", &src, "expression nests too deeply");
    let src = format!("print({}1);\n", "- ".repeat(100_000));
    expect_error("unary.toy", &src, "expression nests too deeply");
}

/// Five megabytes of source on a single line, in many functions (as real
/// programs are), each called once from the top level.
#[test]
fn five_megabyte_source_file() {
    let mut src = String::new();
    let mut calls = String::from("let total = 0; ");
    let mut n = 0u64;
    while src.len() + calls.len() < 5 << 20 {
        src.push_str(&format!(
            "fn f{n}(a: int) -> int {{ let b = a * 3 + {n}; if b % 2 == 0 {{ b = b / 2; }} return b; }} "
        ));
        calls.push_str(&format!("total += f{n}(1); "));
        n += 1;
    }
    let expected: u64 = (0..n)
        .map(|k| if (3 + k) % 2 == 0 { (3 + k) / 2 } else { 3 + k })
        .sum();
    let program = format!("{src}{calls}print(total);");
    assert!(!program.contains('\n'));
    let run = run_source("big.toy", &program, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, format!("{expected}\n"));
}

/// Ullrich's thesis §7, Figure 11: n sequential `if`s between `x = f()` and
/// `y = x`; a naive functional construction is exponential here.
#[test]
fn ullrich_hundred_thousand_sequential_ifs() {
    let mut src = String::from("fn f() -> int { return 5; }\nfn g() -> int {\n    let x = f();\n");
    for _ in 0..100_000 {
        src.push_str("    if x > 1 {} else {}\n");
    }
    src.push_str("    let y = x;\n    return y;\n}\nprint(g());\n");
    expect_output("ullrich.toy", &src, "5\n");
}

#[test]
fn ten_thousand_else_ifs() {
    let mut src = String::from("let x = 9999;\nif x == 0 { print(0); }");
    for i in 1..10_000 {
        src.push_str(&format!(" else if x == {i} {{ print({i}); }}"));
    }
    src.push_str(" else { print(-1); }\n");
    expect_output("elseif.toy", &src, "9999\n");
}

#[test]
fn function_with_ten_thousand_parameters() {
    let params: Vec<String> = (0..10_000).map(|i| format!("a{i}: int")).collect();
    let args: Vec<String> = (0..10_000).map(|i| i.to_string()).collect();
    let src = format!(
        "fn f({}) -> int {{ return a0 + a5000 + a9999; }}\nprint(f({}));\n",
        params.join(", "),
        args.join(", ")
    );
    expect_output("params.toy", &src, "14999\n");
}

#[test]
fn integer_literal_with_ten_thousand_digits() {
    expect_error(
        "digits.toy",
        &format!("print({});\n", "9".repeat(10_000)),
        "too large",
    );
}

#[test]
fn unterminated_constructs_at_end_of_file() {
    expect_error("open_paren.toy", "print((1 + 2);\n", "error:");
    expect_error("open_brace.toy", "fn f() {\n  print(1);\n", "error:");
    expect_error("open_str.toy", "print(\"abc", "unterminated string");
}

#[test]
fn million_element_array_literal() {
    let elems: Vec<String> = (0..1_000_000).map(|i| (i % 10).to_string()).collect();
    let src = format!(
        "let a = [{}];\nprint(len(a), a[999999], a[12345]);\n",
        elems.join(", ")
    );
    expect_output("million.toy", &src, "1000000 9 5\n");
}

#[test]
fn a_hundred_megabytes_of_output_are_all_written() {
    let src = "let row = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5];\nfor i in 0..2000000 { print(i, row); }\n";
    let run = run_source("loud.toy", src, &[]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected_bytes: usize = (0..2_000_000u64)
        .map(|i| {
            i.to_string().len() + " [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5]\n".len()
        })
        .sum();
    assert_eq!(run.stdout.len(), expected_bytes);
    assert!(run
        .stdout
        .ends_with("1999999 [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5]\n"));
}

/// Inputs the fuzz targets (`fuzz/`) found crashing the compiler, kept
/// after the fix: each must end in a result or a clean error.
#[test]
fn fuzz_regressions_end_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        for level in ["-O0", "-O2"] {
            let run = run_file(&path, &[level]);
            assert!(
                matches!(run.status, 0..=2) && !run.stderr.contains("panicked"),
                "{} {level}: status {}\n{}",
                path.display(),
                run.status,
                run.stderr
            );
        }
        seen += 1;
    }
    assert!(seen >= 1);
}

/// A function of hundreds of versionable loops: `ir::version` copies at
/// most 32 of them (each copy means a pass over the whole function), and
/// the program runs right.
#[test]
fn three_hundred_versionable_loops_in_one_function() {
    let loops: String = (0..300)
        .map(|k| {
            format!(
                "    for i in 0..n {{ s += a[i + {}] * {}; }}\n",
                k % 3,
                k + 1
            )
        })
        .collect();
    let src = format!(
        "fn f(a: [int], n: int) -> int {{\n    let s = 0;\n{loops}    return s;\n}}\nprint(f([1; 100], 90));\n"
    );
    // Each loop adds 90 times its factor: 90 * (1 + 2 + … + 300).
    expect_output("loops.toy", &src, "4063500\n");
    let ir = ir_after("loops_ir.toy", &src, "version");
    assert_eq!(ir.matches("get.unchecked").count(), 32);
}

/// A loop of three thousand branches, each testing and replacing the
/// running value: `ir::select` walks back from each test to see whether
/// its join feeds the loop's recurrence, and a walk stops after a fixed
/// number of values (otherwise each branch would walk all those before
/// it, quadratic in their number). Past that budget a branch converts as
/// it did before the test: here every one, since the walk from the
/// loop's back edge meets the whole chain.
#[test]
fn three_thousand_running_choices_in_one_loop() {
    let ifs: String = (0..3000)
        .map(|k| format!("        if a[i] + s > {k} {{ s = a[i] + {k}; }}\n"))
        .collect();
    let src = format!(
        "fn f(a: [int], n: int) -> int {{\n    let s = 0;\n    for i in 0..n {{\n{ifs}    }}\n    return s;\n}}\nprint(f([1, 2, 3], 3), f([5, 0, 1, 9, 2, 7, 4, 8, 6], 9));\n"
    );
    expect_output("choices.toy", &src, "3002 3005\n");
    let ir = ir_after("choices_ir.toy", &src, "select");
    assert!(ir.matches("= select ").count() > 2000, "{}", &ir[..2000]);
    // A running minimum (which stays a branch) of a value 600
    // operations deep: the walk from its test gives up, and it converts.
    let steps = "        x = x * 3 + 1;\n".repeat(300);
    let src = format!(
        "fn f(a: [int], n: int) -> int {{\n    let best = 1000000000000;\n    for i in 0..n {{\n        let x = a[i];\n{steps}        if x < best {{\n            best = x;\n        }}\n    }}\n    return best;\n}}\nprint(f([3, 1, 2], 3), f([5, 4], 2));\n"
    );
    expect_output("deep.toy", &src, "-8052361351262740454 1000000000000\n");
    let ir = ir_after("deep_ir.toy", &src, "select");
    assert_eq!(ir.matches("= select ").count(), 1, "{ir}");
}

/// A chain of five thousand functions, each passing its parameter to the
/// next: `ir::arguments` follows the parameters in one round (one level
/// per round, as it once went, was quadratic in the chain's length and
/// would reach only its first few functions), and the inliner, which
/// folds each copy away, does not carry every site below it along the
/// chain (`ir::tidy`'s unit test checks the sites it drops).
#[test]
fn five_thousand_functions_passing_a_constant_down() {
    let mut src: String = (0..5000)
        .map(|k| format!("fn f{k}(x: int) -> int {{ return f{}(x) + 1; }}\n", k + 1))
        .collect();
    src.push_str("fn f5000(x: int) -> int { return x; }\nprint(f0(7));\n");
    expect_output("chain.toy", &src, "5007\n");
    let ir = run_source(
        "chain.toy",
        &src,
        &["--passes=constant-args", "--print-after=constant-args"],
    );
    assert_eq!(ir.status, 0, "{}", ir.stderr);
    // Every function's parameter, and the top level's argument.
    assert_eq!(ir.stdout.matches("= iconst 7\n").count(), 5002);
}

/// The IR of `src` (written to the scratch file `name`) after `pass`, as
/// `--print-after` prints it; the run must succeed.
fn ir_after(name: &str, src: &str, pass: &str) -> String {
    let path = scratch_file(name, src.as_bytes());
    let ir = run_file(&path, &[&format!("--print-after={pass}")]);
    assert_eq!(ir.status, 0, "{}", ir.stderr);
    ir.stdout
}
