//! Stage 3: SSA construction straight from the checked AST, after Braun et
//! al. (CC 2013). `builder` implements the paper's algorithms on our IR,
//! `peephole` its on-the-fly optimizations (§3.1), `lower` the Toy client.

pub mod builder;
pub mod lower;
pub mod minimize;
pub mod peephole;
