//! Running the real `jitrun` binary from tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A command starting the jitrun under test: this package's host build,
/// or `JITRUN_BIN` through `JITRUN_RUNNER` (`jitrun::harness`; the
/// aarch64 build under qemu in `.ci/aarch64`).
pub fn jitrun() -> Command {
    jitrun::harness::command(Path::new(env!("CARGO_BIN_EXE_jitrun")))
}

/// Whether the jitrun under test runs through `JITRUN_RUNNER` (qemu):
/// slower by an order of magnitude, for tests that must wait for it.
pub fn under_emulation() -> bool {
    !jitrun::harness::runner().is_empty()
}

/// The architecture of the jitrun under test (`x86_64`, `aarch64`), as
/// `std::env::consts::ARCH` names it: the machine code it runs and
/// prints by default.
pub fn target_arch() -> &'static str {
    let bin = jitrun::harness::binary(Path::new(env!("CARGO_BIN_EXE_jitrun")));
    jitrun::harness::elf_arch(&bin).unwrap_or(std::env::consts::ARCH)
}

/// Runs `jitrun ARGS… FILE` with the verifiers on.
pub fn run_file(file: &Path, args: &[&str]) -> Run {
    let out = jitrun()
        .arg("--verify")
        .args(args)
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .expect("run jitrun");
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes `src` to a fresh file named `name` and runs it.
pub fn run_source(name: &str, src: &str, args: &[&str]) -> Run {
    let path = scratch_file(name, src.as_bytes());
    run_file(&path, args)
}

pub fn scratch_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jitrun-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(contents))
        .unwrap();
    path
}

pub fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toy"))
        .collect();
    files.sort();
    files
}

/// The stdout a sample promises: its `// expect: ` lines, in order.
pub fn expected_output(src: &str) -> String {
    src.lines()
        .filter_map(|l| l.split_once("// expect: ").map(|(_, rest)| rest))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `src` gives the same stdout, stderr and status at every level, and
/// `expected` on stdout (`name`: a file name no other test uses).
pub fn same_at_every_level(name: &str, src: &str, expected: &str) {
    let reference = run_source(name, src, &["-O0"]);
    assert_eq!(reference.stdout, expected, "{}", reference.stderr);
    for level in ["-O1", "-O2"] {
        let run = run_source(name, src, &[level]);
        assert_eq!(
            (run.status, &run.stdout, &run.stderr),
            (reference.status, &reference.stdout, &reference.stderr),
            "{level}"
        );
    }
}

/// `src` runs without error under the reference interpreter and prints
/// the same at every level.
pub fn agrees_with_interpreter(name: &str, src: &str) {
    let reference = run_source(name, src, &["--interp"]);
    assert_eq!(reference.status, 0, "{}", reference.stderr);
    for level in ["-O0", "-O1", "-O2"] {
        let run = run_source(name, src, &[level]);
        assert_eq!(run.stdout, reference.stdout, "{level}: {}", run.stderr);
    }
}
