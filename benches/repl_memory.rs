//! Resident memory of a REPL session as entries accumulate (issue 4):
//! `cargo bench --bench repl_memory` (Linux: reads `/proc/PID/status`).
//!
//! Feeds the real `jitrun` REPL 10 000 small entries — in every five: a
//! global, a new function, a call, a loop, and a redefinition of one
//! function — and prints the resident set size after 1, 1 000 and 10 000
//! entries, measured while the REPL waits for the next line.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

fn entry(i: usize) -> String {
    let n = i / 5;
    match i % 5 {
        0 => format!("let v{n} = {n};\n"),
        1 => format!("fn f{n}(x: int) -> int {{ return x + v{n}; }}\n"),
        2 => format!("f{n}(v{n});\n"),
        3 => format!("for i in 0..10 {{ v{n} += i; }}\n"),
        _ => format!("fn same(x: int) -> int {{ return x * {n}; }}\n"),
    }
}

fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .expect("VmRSS line")
}

/// Sends a marker and waits until the REPL has printed it: every entry
/// before it has run.
fn sync(stdin: &mut ChildStdin, stdout: &mut BufReader<ChildStdout>, tag: usize) {
    writeln!(stdin, "print(\"mark {tag}\");").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "REPL ended early");
        if line.trim() == format!("mark {tag}") {
            return;
        }
    }
}

fn main() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jitrun"))
        .env("JITRUN_HISTORY", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start jitrun");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let checkpoints = [1, 1_000, 10_000];
    let mut done = 0;
    let mut results = Vec::new();
    let start = std::time::Instant::now();
    for &upto in &checkpoints {
        while done < upto {
            stdin.write_all(entry(done).as_bytes()).unwrap();
            done += 1;
        }
        sync(&mut stdin, &mut stdout, upto);
        results.push((upto, resident_kib(pid)));
    }
    let elapsed = start.elapsed();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    println!("REPL resident memory (VmRSS) after N entries:");
    for (n, kib) in &results {
        println!("  {n:>6} entries: {:>7.1} MiB", *kib as f64 / 1024.0);
    }
    let (first, last) = (results[0].1, results.last().unwrap().1);
    println!(
        "  growth: {:.1} KiB per entry; {} entries in {:.1} s",
        (last - first) as f64 / (checkpoints[2] - 1) as f64,
        checkpoints[2],
        elapsed.as_secs_f64()
    );
}
