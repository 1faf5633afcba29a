//! The reference interpreter (`--interp`) and the JIT (`-O0`, `-O2`) agree
//! on stdout, stderr and exit status for every sample and for programs
//! that end in each kind of runtime error.

mod common;
use common::*;

fn agree(file: &std::path::Path) {
    let reference = run_file(file, &["--interp", "-O0"]);
    for args in [&["--interp", "-O1"][..], &["-O0"], &["-O2"]] {
        let other = run_file(file, args);
        assert_eq!(
            (reference.status, &reference.stdout, &reference.stderr),
            (other.status, &other.stdout, &other.stderr),
            "{} under {args:?} differs from --interp -O0",
            file.display()
        );
    }
}

#[test]
fn every_sample_agrees() {
    for file in samples() {
        agree(&file);
    }
}

#[test]
fn runtime_errors_agree() {
    let programs = [
        "print(1);\nlet z = 0;\nprint(10 / z);\n",
        "let z = 0;\nprint(7 % z);\n",
        "let a = [1, 2];\nprint(a);\nprint(a[5]);\n",
        "let a = [true];\nlet i = -3;\na[i] = false;\n",
        "let n = -4;\nprint([1.5; n]);\n",
        "fn f(n: int) -> int { return f(n + 1) + 1; }\nprint(\"deep\");\nprint(f(0));\n",
        "fn g(a: [int], i: int) -> int { return a[i] / (i - 2); }\nprint(g([1, 2, 3], 1));\nprint(g([1, 2, 3], 2));\n",
    ];
    for (i, src) in programs.iter().enumerate() {
        let path = scratch_file(&format!("differr{i}.toy"), src.as_bytes());
        agree(&path);
    }
}

#[test]
fn edge_values_agree() {
    let src = "let min = -9223372036854775808;\nlet m1 = -1;\nlet nan = 0.0 / 0.0;\nprint(min / m1, min % m1, -min, abs(min), min - 1, 1 << 64, -1 >> 65);\nprint(nan == nan, min(nan, 1.0), max(2.0, nan), min(0.0, -0.0), max(-0.0, 0.0));\nprint(int(nan), int(1e300), int(-1e300), float(min), 7.5 % -2.0, -0.0 * 1.0);\nlet flags = [true, false];\nflags[1] = !flags[0] || flags[1];\nprint(flags, [flags, [false]]);\n";
    let path = scratch_file("edges.toy", src.as_bytes());
    agree(&path);
    let run = run_file(&path, &["--interp"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
}
