//! Compile-time benchmarks (`cargo bench`): the whole pipeline up to
//! finalized machine code for every sample and every kernel of
//! `benches/kernels` at -O0/-O1/-O2; SSA construction alone on Ullrich's
//! program (n sequential `if`s between `x = f()` and `y = x`, thesis §7),
//! whose time per `if` must stay flat, and on large generated functions
//! (throughput in SSA instructions per second); and, on the kernels, SSA
//! construction and Cranelift compile time with and without the
//! on-the-fly optimizations (the paper's Table 3; `benches/table3.rs` adds
//! IR sizes and run times).

mod common;

use common::{checked, kernels, speed_codegen, ssa_options};
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use jitrun::diag::LineIndex;
use jitrun::driver::{compile, Emit, OptLevel, Options};

/// Options for timing compilation alone: no verifier, nothing printed.
fn quiet() -> Options {
    Options {
        verify: false,
        ..Options::default()
    }
}

fn samples() -> Vec<(String, String)> {
    common::toy_files("samples")
}

fn compile_samples(c: &mut Criterion) {
    compile_all(c, "compile", samples());
}

fn compile_kernels(c: &mut Criterion) {
    compile_all(c, "compile_kernels", kernels());
}

fn compile_all(c: &mut Criterion, group_name: &str, programs: Vec<(String, String)>) {
    let mut group = c.benchmark_group(group_name);
    for (name, src) in programs {
        for level in OptLevel::ALL {
            let opts = Options {
                opt_level: level,
                emit: None,
                ..quiet()
            };
            group.bench_with_input(
                BenchmarkId::new(format!("O{}", level.number()), &name),
                &src,
                |b, src| b.iter(|| release(compile(src, &opts).expect("compiles"))),
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
                promote_globals: false,
            };
            // Construction only: freeing the built IR is not timed.
            group.bench_with_input(BenchmarkId::new(name, n), &checked, |b, checked| {
                b.iter_with_large_drop(|| lower_program(checked, &lines, opts))
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
                promote_globals: false,
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
            opt_level: OptLevel::O2,
            emit: None,
            ..quiet()
        };
        group.throughput(Throughput::Bytes(src.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(units), &src, |b, src| {
            b.iter(|| release(compile(src, &opts).expect("compiles")))
        });
    }
    group.finish();
}

/// Frees the machine code of a compilation that is never run, so that
/// thousands of iterations do not pile up code pages.
fn release(artifacts: jitrun::driver::Artifacts) {
    if let Some(compiled) = artifacts.compiled {
        // SAFETY: the code was never run and nothing points into it.
        unsafe { compiled.free() }
    }
}

/// One function of `statements` statements (assignments, branches,
/// loops): SSA construction throughput in instructions per second.
fn large_function(statements: usize) -> String {
    let mut src =
        String::from("fn big(n: int) -> int {\n    let a = 1;\n    let b = 2;\n    let c = 3;\n");
    for k in 0..statements {
        src.push_str(&match k % 4 {
            0 => format!("    a = a * {k} + b;\n"),
            1 => format!("    if a > b {{ b = b + {k}; }} else {{ c = c - a; }}\n"),
            2 => "    while c < n { c = c + a % 7 + 1; }\n".to_string(),
            _ => "    b = (b ^ c) + (a >> 3);\n".to_string(),
        });
    }
    src.push_str("    return a + b + c;\n}\nprint(big(10));\n");
    src
}

fn ssa_throughput(c: &mut Criterion) {
    use jitrun::ssa::lower::{lower_program, SsaOptions};
    let mut group = c.benchmark_group("ssa_throughput");
    group.sample_size(10);
    for statements in [1_000usize, 10_000, 100_000] {
        let src = large_function(statements);
        let ast = jitrun::syntax::parse(&src).unwrap();
        let checked = jitrun::check::check(&ast).unwrap();
        let lines = LineIndex::new(&src);
        let opts = SsaOptions {
            optimize: true,
            mode: Default::default(),
            promote_globals: false,
        };
        let (module, _) = lower_program(&checked, &lines, opts);
        let insts: usize = module
            .functions
            .iter()
            .map(|f| {
                f.layout
                    .iter()
                    .map(|&b| f.blocks[b].insts.len() + f.blocks[b].phis.len())
                    .sum::<usize>()
            })
            .sum();
        group.throughput(Throughput::Elements(insts as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(statements),
            &checked,
            |b, checked| b.iter(|| lower_program(checked, &lines, opts)),
        );
    }
    group.finish();
}

/// Table 3 of Braun et al. on the kernels: SSA construction and Cranelift
/// compile time, with (`on`) and without (`off`) the on-the-fly
/// optimizations of §3.1.
fn table3(c: &mut Criterion) {
    use jitrun::codegen;
    use jitrun::ssa::lower::lower_program;
    let mut construct = c.benchmark_group("table3_construct");
    let mut prepared = Vec::new();
    for (name, src) in kernels() {
        let (checked, lines) = checked(&src);
        for (mode, optimize) in [("on", true), ("off", false)] {
            let opts = ssa_options(optimize);
            construct.bench_with_input(BenchmarkId::new(mode, &name), &checked, |b, checked| {
                b.iter(|| lower_program(checked, &lines, opts))
            });
            prepared.push((name.clone(), mode, lower_program(&checked, &lines, opts).0));
        }
    }
    construct.finish();
    let mut cranelift = c.benchmark_group("table3_cranelift");
    let cg = speed_codegen();
    for (name, mode, module) in &prepared {
        cranelift.bench_with_input(BenchmarkId::new(*mode, name), module, |b, module| {
            b.iter(|| {
                let compiled = codegen::compile(module, &cg).expect("compiles");
                // SAFETY: never run; frees the code pages each iteration makes.
                unsafe { compiled.free() }
            })
        });
    }
    cranelift.finish();
}

fn emit_ssa_only(c: &mut Criterion) {
    let src = ullrich(1_000);
    let opts = Options {
        opt_level: OptLevel::O1,
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
    compile_kernels,
    ssa_throughput,
    table3,
    ssa_construction_is_linear,
    ssa_modes_on_samples,
    compile_time_scales_linearly,
    emit_ssa_only
);

// `criterion_main!`, after the allocator setting the `jitrun` binary makes.
fn main() {
    jitrun::memory::keep_freed_memory();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
