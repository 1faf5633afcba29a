//! Fuzz target: arbitrary bytes through the whole compiler, Cranelift and
//! its verifier included (nothing is run). Any panic is a bug.

use jitrun::driver::{compile, Emit, OptLevel, Options};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(src) = std::str::from_utf8(data) else {
            return;
        };
        let opts = Options {
            opt_level: OptLevel::O2,
            emit: Some(Emit::Asm),
            verify: true,
            ..Options::default()
        };
        let _ = compile(src, &opts);
    });
}
