//! Compile-time benchmarks (`cargo bench`): the whole pipeline up to
//! finalized machine code for every sample at -O0/-O1/-O2, and SSA
//! construction alone on Ullrich's program (n sequential `if`s between
//! `x = f()` and `y = x`, thesis §7), whose time per `if` must stay flat.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use jitrun::diag::LineIndex;
use jitrun::driver::{compile, Emit, Options};
use std::path::Path;

/// Options for timing compilation alone: no verifier, nothing printed.
fn quiet() -> Options {
    Options {
        verify: false,
        ..Options::default()
    }
}

fn samples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toy"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn compile_samples(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    for (name, src) in samples() {
        for level in 0..=2u8 {
            let opts = Options {
                opt_level: level,
                emit: None,
                ..quiet()
            };
            group.bench_with_input(
                BenchmarkId::new(format!("O{level}"), &name),
                &src,
                |b, src| b.iter(|| compile(src, &opts).expect("sample compiles")),
            );
        }
    }
    group.finish();
}

fn ullrich(n: usize) -> String {
    let mut src = String::from("fn f() -> int { return 5; }\nfn g() -> int {\n    let x = f();\n");
    for _ in 0..n {
        src.push_str("    if x > 1 {} else {}\n");
    }
    src.push_str("    let y = x;\n    return y;\n}\n");
    src
}

fn ssa_construction_is_linear(c: &mut Criterion) {
    use jitrun::ssa::builder::SsaMode;
    use jitrun::ssa::lower::{lower_program, SsaOptions};
    let mut group = c.benchmark_group("ssa_ullrich");
    group.sample_size(10);
    for n in [10usize, 100, 1_000, 10_000, 100_000] {
        let src = ullrich(n);
        let ast = jitrun::syntax::parse(&src).unwrap();
        let checked = jitrun::check::check(&ast).unwrap();
        let lines = LineIndex::new(&src);
        group.throughput(Throughput::Elements(n as u64));
        for (name, mode) in [("braun", SsaMode::Braun), ("marker", SsaMode::Marker)] {
            let opts = SsaOptions {
                optimize: false,
                mode,
            };
            group.bench_with_input(BenchmarkId::new(name, n), &checked, |b, checked| {
                b.iter(|| lower_program(checked, &lines, opts))
            });
        }
    }
    group.finish();
}

/// Algorithm 2 against the marker algorithm (§3.3) on the samples.
fn ssa_modes_on_samples(c: &mut Criterion) {
    use jitrun::ssa::builder::SsaMode;
    use jitrun::ssa::lower::{lower_program, SsaOptions};
    let mut group = c.benchmark_group("ssa_mode");
    for (name, src) in samples() {
        let ast = jitrun::syntax::parse(&src).unwrap();
        let checked = jitrun::check::check(&ast).unwrap();
        let lines = LineIndex::new(&src);
        for (mode_name, mode) in [("braun", SsaMode::Braun), ("marker", SsaMode::Marker)] {
            let opts = SsaOptions {
                optimize: true,
                mode,
            };
            group.bench_with_input(
                BenchmarkId::new(mode_name, &name),
                &checked,
                |b, checked| b.iter(|| lower_program(checked, &lines, opts)),
            );
        }
    }
    group.finish();
}

/// A program of `units` copies of a function (loops, branches, arrays,
/// floats) and a call of each: compile time must grow linearly with size.
fn scaled_program(units: usize) -> String {
    let mut src = String::from("let total = 0;\n");
    for k in 0..units {
        src.push_str(&format!(
            "fn u{k}(n: int) -> int {{\n    let a = [0; n + 1];\n    let s = 0;\n    for i in 0..n {{\n        if i % 3 == 0 {{ a[i] = i * {k}; }} else {{ a[i] = a[i / 2] + 1; }}\n        s += a[i];\n    }}\n    let f = float(s) * 0.5;\n    while f > 10.0 {{ f = f / 3.0; }}\n    return s + int(f);\n}}\ntotal += u{k}(10);\n"
        ));
    }
    src.push_str("print(total);\n");
    src
}

fn compile_time_scales_linearly(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for units in [100usize, 1_000, 10_000] {
        let src = scaled_program(units);
        let opts = Options {
            opt_level: 2,
            emit: None,
            ..quiet()
        };
        group.throughput(Throughput::Bytes(src.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(units), &src, |b, src| {
            b.iter(|| compile(src, &opts).expect("compiles"))
        });
    }
    group.finish();
}

fn emit_ssa_only(c: &mut Criterion) {
    let src = ullrich(1_000);
    let opts = Options {
        opt_level: 1,
        emit: Some(Emit::Ssa),
        ..quiet()
    };
    c.bench_function("front_end_and_ssa_1000_ifs", |b| {
        b.iter(|| compile(&src, &opts).unwrap())
    });
}

criterion_group!(
    benches,
    compile_samples,
    ssa_construction_is_linear,
    ssa_modes_on_samples,
    compile_time_scales_linearly,
    emit_ssa_only
);
criterion_main!(benches);
