//! What the benchmark programs share: the kernels and samples, and the
//! front end run up to the checked program.
#![allow(dead_code)]

use jitrun::check::tast;
use jitrun::codegen::CodegenOptions;
use jitrun::diag::LineIndex;
use jitrun::passes::{OptLevel, Scope};
use jitrun::ssa::lower::SsaOptions;
use std::path::PathBuf;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `(name, source)` of every `.toy` file in `dir` (relative to the
/// crate), sorted by name.
pub fn toy_files(dir: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(root().join(dir))
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

pub fn kernels() -> Vec<(String, String)> {
    toy_files("benches/kernels")
}

pub fn kernel_path(name: &str) -> PathBuf {
    root().join("benches/kernels").join(format!("{name}.toy"))
}

/// Parses and checks a program that is known to be correct.
pub fn checked(src: &str) -> (tast::Program, LineIndex) {
    let ast = jitrun::syntax::parse(src).expect("parses");
    let checked = jitrun::check::check(&ast).expect("checks");
    (checked, LineIndex::new(src))
}

/// SSA construction with or without the on-the-fly optimizations of §3.1.
pub fn ssa_options(optimize: bool) -> SsaOptions {
    SsaOptions {
        optimize,
        mode: Default::default(),
        promote_globals: false,
    }
}

/// Cranelift at `opt_level=speed`, no verifier, nothing kept, on as many
/// threads as the command line uses.
pub fn speed_codegen() -> CodegenOptions {
    CodegenOptions::host(OptLevel::O2.plan(Scope::Program), false)
}
