//! How the tests (`tests/common`) and `difftest` start the `jitrun`
//! binary under test — one switch for both targets:
//!
//! - `JITRUN_BIN`: the binary (default: the host build the caller knows);
//! - `JITRUN_RUNNER`: a command put in front of it, split on whitespace
//!   (e.g. `qemu-aarch64`, or `qemu-aarch64 -cpu max`); unset or empty
//!   runs the binary directly.
//!
//! `.ci/aarch64` sets both to run the suite against an aarch64 build under
//! qemu-user.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary under test: `JITRUN_BIN` if set and not empty, else `default`.
pub fn binary(default: &Path) -> PathBuf {
    match std::env::var_os("JITRUN_BIN") {
        Some(bin) if !bin.is_empty() => PathBuf::from(bin),
        _ => default.to_path_buf(),
    }
}

/// The words of `JITRUN_RUNNER` (none when unset or blank).
pub fn runner() -> Vec<String> {
    std::env::var("JITRUN_RUNNER")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A command that starts the binary under test (`default` unless
/// `JITRUN_BIN` says otherwise) through `JITRUN_RUNNER`; arguments added
/// to it go to jitrun.
pub fn command(default: &Path) -> Command {
    let bin = binary(default);
    match runner().split_first() {
        None => Command::new(bin),
        Some((program, args)) => {
            let mut command = Command::new(program);
            command.args(args).arg(bin);
            command
        }
    }
}

/// The architecture an ELF executable was built for, as
/// `std::env::consts::ARCH` names it (`None` for anything else): lets
/// tests that read machine code know which machine's code to expect.
pub fn elf_arch(path: &Path) -> Option<&'static str> {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .ok()?;
    if &header[..4] != b"\x7fELF" {
        return None;
    }
    // e_machine, after e_ident (16 bytes) and e_type; byte order per EI_DATA.
    let machine = match header[5] {
        1 => u16::from_le_bytes([header[18], header[19]]),
        2 => u16::from_be_bytes([header[18], header[19]]),
        _ => return None,
    };
    match machine {
        0x3e => Some("x86_64"),
        0xb7 => Some("aarch64"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_test_binary_is_an_elf_of_this_architecture() {
        let me = std::env::current_exe().unwrap();
        if cfg!(target_os = "linux") {
            assert_eq!(elf_arch(&me), Some(std::env::consts::ARCH));
        }
        assert_eq!(elf_arch(Path::new("/no/such/file")), None);
    }
}
