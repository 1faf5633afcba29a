//! Fuzz target: arbitrary bytes through decoding, parsing, checking, SSA
//! construction (both modes) and our IR verifier. Any panic is a bug.

use jitrun::driver::{compile, Emit, OptLevel, Options};
use jitrun::ssa::builder::SsaMode;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(src) = std::str::from_utf8(data) else {
            return;
        };
        for (opt_level, ssa_mode) in [
            (OptLevel::O0, SsaMode::Braun),
            (OptLevel::O1, SsaMode::Marker),
        ] {
            let opts = Options {
                opt_level,
                emit: Some(Emit::Ssa),
                verify: true,
                ssa_mode,
                ..Options::default()
            };
            let _ = compile(src, &opts);
        }
    });
}
