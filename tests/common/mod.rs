//! Running the real `jitrun` binary from tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The exit status; -1 when a signal ended the process.
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

/// Runs `command` (a [`jitrun`] with its arguments) with no input.
pub fn run_command(command: &mut Command) -> Run {
    let out = command.stdin(Stdio::null()).output().expect("run jitrun");
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The REPL (no file) with the verifiers on and no history file.
pub fn repl_command() -> Command {
    let mut command = jitrun();
    command.arg("--verify").env("JITRUN_HISTORY", "");
    command
}

/// Runs `command` with `input` on its standard input (a program for
/// `jitrun -`, or REPL entries).
pub fn run_with_stdin(command: &mut Command, input: &[u8]) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jitrun");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input)
        .expect("write the input");
    let out = child.wait_with_output().expect("jitrun ends");
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `jitrun ARGS… FILE` with the verifiers on.
pub fn run_file(file: &Path, args: &[&str]) -> Run {
    run_command(jitrun().arg("--verify").args(args).arg(file))
}

/// Writes `src` to a fresh file named `name` and runs it.
pub fn run_source(name: &str, src: &str, args: &[&str]) -> Run {
    let path = scratch_file(name, src.as_bytes());
    run_file(&path, args)
}

/// Writes `src` to a fresh file named `name` and runs `jitrun ARGS… name`
/// in its directory, so that messages name the file as a user typed it.
pub fn run_named(name: &str, src: &str, args: &[&str]) -> Run {
    let path = scratch_file(name, src.as_bytes());
    run_command(
        jitrun()
            .current_dir(path.parent().expect("in the scratch directory"))
            .arg("--verify")
            .args(args)
            .arg(name),
    )
}

/// Writes `contents` to `name` in this test binary's scratch directory
/// under `target/tmp`, which cargo provides and `cargo clean` removes: the
/// next run overwrites the files instead of leaving one directory per run.
pub fn scratch_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
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
    let reference_stderr = without_recursion_depth(&reference.stderr);
    for level in ["-O1", "-O2"] {
        let run = run_source(name, src, &[level]);
        assert_eq!(
            (
                run.status,
                &run.stdout,
                &without_recursion_depth(&run.stderr)
            ),
            (reference.status, &reference.stdout, &reference_stderr),
            "{level}"
        );
    }
}

/// `stderr` with the count of every collapsed run of calls in a runtime
/// error's call stack (`  … N more calls of f at …`) replaced by `N`: how
/// deep recursion gets before the stack overflows depends on frame sizes,
/// which differ between levels and the interpreter. Every other character
/// must still agree.
pub fn without_recursion_depth(stderr: &str) -> String {
    stderr
        .lines()
        .map(|line| match line.strip_prefix("  … ") {
            Some(rest) => {
                let count_end = rest
                    .find(|c: char| !(c.is_ascii_digit() || c == ' '))
                    .unwrap_or(rest.len());
                format!("  … N {}\n", &rest[count_end..])
            }
            None => format!("{line}\n"),
        })
        .collect()
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

/// The first lines of the compile error reports in `stderr` of a file
/// named `name`, without the file name: `LINE:COL: error: MESSAGE`.
/// (Each report's excerpt follows its first line; no line of an excerpt
/// starts with the file name.)
pub fn error_lines<'a>(name: &str, stderr: &'a str) -> Vec<&'a str> {
    let prefix = format!("{name}:");
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix(prefix.as_str()))
        .collect()
}

/// Compiling `src` as file `name` fails (status 1, nothing on stdout)
/// with exactly the errors `want` (`LINE:COL: error: MESSAGE`), in order,
/// each said once: its message appears nowhere else on stderr.
#[track_caller]
pub fn assert_compile_errors(name: &str, src: &str, want: &[&str]) -> Run {
    let run = run_named(name, src, &[]);
    assert_eq!(run.status, 1, "{src:?}: {}", run.stderr);
    assert_eq!(run.stdout, "", "{src:?}");
    assert_eq!(
        error_lines(name, &run.stderr),
        want,
        "{src:?}:\n{}",
        run.stderr
    );
    for line in want {
        let (_, message) = line.split_once(": error: ").expect("an error line");
        assert_eq!(
            run.stderr.matches(message).count(),
            1,
            "{src:?}: `{message}` said more than once:\n{}",
            run.stderr
        );
    }
    run
}
