//! Every sample runs through the built binary at every optimization level
//! and prints exactly what its `// expect:` comments say.

mod common;
use common::*;

#[test]
fn there_are_at_least_fifteen_samples() {
    assert!(samples().len() >= 15, "found {}", samples().len());
}

fn check_level(level: &str) {
    let mut failures = Vec::new();
    for file in samples() {
        let src = std::fs::read_to_string(&file).unwrap();
        let expected = expected_output(&src);
        assert!(
            !expected.is_empty(),
            "{} has no expectations",
            file.display()
        );
        let run = run_file(&file, &[level]);
        if run.status != 0 || run.stdout != expected {
            failures.push(format!(
                "{} at {level}: status {}\n--- expected\n{expected}--- got\n{}--- stderr\n{}",
                file.display(),
                run.status,
                run.stdout,
                run.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn samples_at_o0() {
    check_level("-O0");
}

#[test]
fn samples_at_o1() {
    check_level("-O1");
}

#[test]
fn samples_at_o2() {
    check_level("-O2");
}

/// Every sample compiles with the Cranelift verifier for both targets
/// jitrun is tested on, whichever the binary under test runs on.
#[test]
fn every_sample_compiles_for_aarch64_and_x86_64_with_the_verifier() {
    // aarch64 returns with `ret` and names registers x0…x30; x86-64 (in
    // AT&T syntax) returns with `ret` and names `%rsp`.
    for (triple, register) in [
        ("aarch64-unknown-linux-gnu", "x0"),
        ("x86_64-unknown-linux-gnu", "%rsp"),
    ] {
        for file in samples() {
            let run = run_file(&file, &["--target", triple, "--emit", "asm"]);
            assert_eq!(run.status, 0, "{triple} {}: {}", file.display(), run.stderr);
            assert!(run.stdout.contains("ret"), "{triple} {}", file.display());
            assert!(run.stdout.contains(register), "{triple} {}", file.display());
        }
    }
}

/// `--target` code is for printing: the run is refused (with the other
/// architecture than the binary's, so that the test means the same on
/// both).
#[test]
fn running_foreign_code_is_refused_cleanly() {
    let foreign = match target_arch() {
        "aarch64" => "x86_64-unknown-linux-gnu",
        _ => "aarch64-unknown-linux-gnu",
    };
    let run = run_file(&samples()[0], &["--target", foreign]);
    assert_ne!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .contains(&format!("cannot run code compiled for `{foreign}`")),
        "{}",
        run.stderr
    );
}

/// A triple naming the machine jitrun runs on is the host, whatever its
/// vendor: the code runs.
#[test]
fn naming_the_host_as_target_runs_the_program() {
    let arch = target_arch();
    let sample = &samples()[0];
    let expected = run_file(sample, &[]).stdout;
    for vendor in ["unknown", "pc"] {
        let triple = format!("{arch}-{vendor}-linux-gnu");
        let run = run_file(sample, &["--target", &triple]);
        assert_eq!(run.status, 0, "{triple}: {}", run.stderr);
        assert_eq!(run.stdout, expected, "{triple}");
    }
}

/// A target Cranelift cannot compile for is a usage error, said before
/// anything is compiled, not an internal error.
#[test]
fn unknown_and_unsupported_targets_are_usage_errors() {
    for (triple, why) in [
        ("no-such-machine", "unknown target triple"),
        ("mips-unknown-linux-gnu", "is not supported"),
    ] {
        let run = run_file(&samples()[0], &["--target", triple, "--emit", "asm"]);
        assert_eq!(run.status, 2, "{triple}: {}", run.stderr);
        assert_eq!(run.stdout, "");
        assert!(run.stderr.contains(why), "{triple}: {}", run.stderr);
        assert!(!run.stderr.contains("internal"), "{}", run.stderr);
    }
}

#[test]
fn emit_clif_prints_cranelift_ir_with_block_params_for_phis() {
    let src = "fn count(n: int) -> int { let s = 0; for i in 0..n { s += i; } return s; }\nprint(count(10));\n";
    let run = run_source("clif.toy", src, &["--emit", "clif"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("function"), "{}", run.stdout);
    // The loop header receives the counter and the sum as block parameters.
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("block") && l.matches(": i64").count() >= 2),
        "{}",
        run.stdout
    );
}

#[test]
fn program_from_stdin() {
    let out = run_with_stdin(jitrun().arg("-"), b"print(6 * 7);\n");
    assert_eq!(out.stdout, "42\n");
    assert_eq!(out.status, 0);
}
