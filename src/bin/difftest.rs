//! Differential testing on generated programs: every seed's program runs
//! under the reference interpreter and the JIT at -O0, -O1 and -O2; all
//! four must agree on stdout, stderr and exit status.
//!
//! `cargo run --release --bin difftest -- --seeds 100000 [--start N] [--jobs 2] [--timeout 60]`
//!
//! On the first disagreement it prints the seed and a minimized program
//! (lines removed one at a time while the disagreement persists) and exits 1.
//! A run that takes longer than `--timeout` seconds (default 60) is killed
//! and counts as a disagreement (printed as generated, not minimized);
//! while minimizing, a candidate that times out is not kept (removing a
//! loop's increment must not hang the search).
//!
//! It runs the `jitrun` next to itself, or `JITRUN_BIN` through
//! `JITRUN_RUNNER` (`jitrun::harness`): `.ci/aarch64` runs this host build
//! against an aarch64 jitrun under `qemu-aarch64`.

use jitrun::{harness, testgen};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The JIT runs with both IR verifiers (ours and Cranelift's) on.
const MODES: [&[&str]; 4] = [
    &["--interp", "-O0"],
    &["-O0", "--verify"],
    &["-O1", "--verify"],
    &["-O2", "--verify"],
];

#[derive(PartialEq, Eq, Debug)]
struct Outcome {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
}

/// Seconds a run may take before it is killed (`--timeout`).
static TIMEOUT_SECS: AtomicU64 = AtomicU64::new(60);

/// The host build next to this program; `JITRUN_BIN` overrides it.
fn jitrun_exe() -> PathBuf {
    let me = std::env::current_exe().expect("own path");
    let sibling = me.with_file_name(format!("jitrun{}", std::env::consts::EXE_SUFFIX));
    harness::binary(&sibling)
}

fn run(exe: &Path, file: &Path, mode: &[&str]) -> Outcome {
    // A process group of its own: a timeout kills the runner (a shell,
    // qemu) and whatever it started, which would keep the pipes open.
    let mut child = harness::command(exe)
        .args(mode)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("run jitrun");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + Duration::from_secs(TIMEOUT_SECS.load(Ordering::Relaxed));
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for jitrun") {
            break status;
        }
        if Instant::now() >= deadline {
            timed_out = true;
            // SAFETY: signals the child's own process group.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            break child.wait().expect("wait for jitrun");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Outcome {
        status: status.code(),
        stdout: stdout.join().expect("reader"),
        stderr: stderr.join().expect("reader"),
        timed_out,
    }
}

/// `None` when all modes agree, else a description of the first difference.
fn disagreement(exe: &Path, file: &Path) -> Option<String> {
    let reference = run(exe, file, MODES[0]);
    if reference.timed_out {
        return Some(format!("{:?} timed out", MODES[0]));
    }
    for mode in &MODES[1..] {
        let other = run(exe, file, mode);
        if other.timed_out {
            return Some(format!("{mode:?} timed out"));
        }
        if other != reference {
            return Some(format!(
                "{mode:?} differs from {:?}:\n  status {:?} vs {:?}\n  stdout {:?}\n  vs     {:?}\n  stderr {:?}\n  vs     {:?}",
                MODES[0],
                other.status,
                reference.status,
                String::from_utf8_lossy(&other.stdout),
                String::from_utf8_lossy(&reference.stdout),
                String::from_utf8_lossy(&other.stderr),
                String::from_utf8_lossy(&reference.stderr),
            ));
        }
    }
    None
}

/// Greedy line removal: keeps a shorter program whenever it still compiles
/// and the back ends still disagree.
fn minimize(exe: &Path, file: &Path, src: &str) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    let mut i = 0;
    while i < lines.len() {
        let mut candidate = lines.clone();
        candidate.remove(i);
        std::fs::write(file, candidate.join("\n")).expect("write candidate");
        let compiles = run(exe, file, &["--emit", "ssa"]).status == Some(0);
        let still_fails =
            compiles && disagreement(exe, file).is_some_and(|why| !why.ends_with("timed out"));
        if still_fails {
            lines = candidate;
        } else {
            i += 1;
        }
    }
    lines.join("\n")
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().expect("a number"))
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds = arg(&args, "--seeds", 1000);
    let start = arg(&args, "--start", 0);
    let jobs = arg(&args, "--jobs", 2).max(1);
    TIMEOUT_SECS.store(arg(&args, "--timeout", 60).max(1), Ordering::Relaxed);
    let exe = jitrun_exe();
    let runner = harness::runner();
    if !runner.is_empty() {
        eprintln!(
            "difftest: running {} through `{}`",
            exe.display(),
            runner.join(" ")
        );
    }
    let dir = std::env::temp_dir().join(format!("jitrun-difftest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let next = AtomicU64::new(start);
    let failed = AtomicBool::new(false);
    let done = AtomicU64::new(0);
    std::thread::scope(|s| {
        for job in 0..jobs {
            let (exe, dir, next, failed, done) = (&exe, &dir, &next, &failed, &done);
            s.spawn(move || {
                let file = dir.join(format!("job{job}.toy"));
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= start + seeds || failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let src = testgen::program(seed);
                    std::fs::write(&file, &src).expect("write program");
                    if let Some(why) = disagreement(exe, &file) {
                        if failed.swap(true, Ordering::Relaxed) {
                            return;
                        }
                        println!("seed {seed}: {why}");
                        if why.ends_with("timed out") {
                            // Shorter programs cannot show a hang faster.
                            println!("program:\n{src}");
                        } else {
                            println!("minimized program:\n{}", minimize(exe, &file, &src));
                        }
                        return;
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n % 1000 == 0 {
                        eprintln!("{n} programs agree");
                    }
                }
            });
        }
    });
    // A failing program has been printed already.
    let _ = std::fs::remove_dir_all(&dir);
    let n = done.load(Ordering::Relaxed);
    if failed.load(Ordering::Relaxed) {
        std::process::exit(1);
    }
    println!(
        "{n} programs, {} executions: all agree",
        n * MODES.len() as u64
    );
}
