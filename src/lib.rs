//! jitrun: a just-in-time compiler for the Toy language.
//!
//! The pipeline, one module per stage, data flowing one way
//! (see `ARCHITECTURE.md` and [`driver::compile`]):
//!
//! ```text
//! source ─syntax─▶ ast ─check─▶ tast ─ssa─▶ ir ─passes─▶ ir ─codegen─▶ machine code ─▶ run
//! ```

pub mod check;
pub mod codegen;
pub mod diag;
pub mod driver;
pub mod entity;
pub mod harness;
pub mod interp;
pub mod ir;
pub mod memory;
pub mod passes;
pub mod repl;
pub mod ssa;
pub mod stats;
pub mod syntax;
pub mod testgen;
pub mod types;
