//! The REPL (LANGUAGE.md §8, issue 4) through the real binary: entries
//! piped in (no prompts), and a pseudo-terminal session for line editing,
//! prompts, Ctrl-C and history.

mod common;

use common::{jitrun, repl_command, run_with_stdin, scratch_file, under_emulation, Run};
use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

/// Runs `jitrun` with no file, `input` piped to it.
fn repl(input: &str) -> Run {
    repl_bytes(input.as_bytes())
}

/// A REPL with piped standard streams and no history file.
fn spawn_repl() -> std::process::Child {
    repl_command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jitrun")
}

fn repl_bytes(input: &[u8]) -> Run {
    run_with_stdin(&mut repl_command(), input)
}

#[track_caller]
fn assert_repl(input: &str, stdout: &str) -> Run {
    let run = repl(input);
    assert_eq!(run.stdout, stdout, "stderr:\n{}", run.stderr);
    assert_eq!(run.status, 0, "end of input leaves with status 0");
    run
}

#[test]
fn expressions_print_their_value_as_print_would() {
    assert_repl(
        "1 + 2\n1 + 2;\n0.1 + 0.2\n1.0 / 0.0\ntrue && !false\n[[1], [2, 3]]\n[1.5; 2]\nlen([1, 2])\n",
        "3\n3\n0.30000000000000004\ninf\ntrue\n[[1], [2, 3]]\n[1.5, 1.5]\n2\n",
    );
}

#[test]
fn calls_without_a_value_print_nothing_but_their_output() {
    assert_repl(
        "fn hello() { print(\"hi\"); }\nhello()\nhello();\nfn one() -> int { return 1; }\none()\n",
        "hi\nhi\n1\n",
    );
}

#[test]
fn statements_print_nothing() {
    assert_repl("let x = 5;\nx = x * 2;\nif x > 3 { x += 1; }\nx\n", "11\n");
}

#[test]
fn functions_and_globals_persist_between_entries() {
    assert_repl(
        "let count = 0;\nfn bump() { count += 1; }\nbump();\nbump();\ncount\nfn twice(n: int) -> int { return 2 * n; }\ntwice(count)\nlet arr = [1, 2, 3];\nfn total() -> int { let s = 0; for i in 0..len(arr) { s += arr[i]; } return s; }\ntotal()\narr[0] = 10;\ntotal()\n",
        "2\n4\n6\n15\n",
    );
}

#[test]
fn redefining_a_function_replaces_it_for_callers_compiled_earlier() {
    assert_repl(
        "fn f(x: int) -> int { return x + 1; }\nfn g() -> int { return f(10) * 2; }\ng()\nfn f(x: int) -> int { return x - 1; }\ng()\nf(0)\n",
        "22\n18\n-1\n",
    );
}

#[test]
fn a_recursive_function_can_be_redefined() {
    assert_repl(
        "fn fact(n: int) -> int { if n <= 1 { return 1; } return n * fact(n - 1); }\nfact(5)\nfn fact(n: int) -> int { if n <= 1 { return 1; } return n + fact(n - 1); }\nfact(5)\n",
        "120\n15\n",
    );
}

#[test]
fn a_redefinition_may_change_types_only_if_nothing_calls_the_old_ones() {
    let run = assert_repl(
        "fn f(x: int) -> int { return x; }\nfn f(x: float) -> float { return x * 2.0; }\nf(1.5)\nfn g() -> float { return f(1.0); }\nfn f(x: int) -> int { return x; }\nf(2.0)\ng()\n",
        "3.0\n4.0\n2.0\n",
    );
    assert!(
        run.stderr
            .contains("<repl>:1:4: error: `f` is called by `g`"),
        "{}",
        run.stderr
    );
    // Redefining the caller in the same entry is allowed.
    assert_repl(
        "fn f() -> int { return 1; }\nfn g() -> int { return f(); }\nfn f() -> bool { return true; } fn g() -> bool { return !f(); }\ng()\n",
        "false\n",
    );
}

#[test]
fn a_compile_error_changes_nothing() {
    let run = assert_repl(
        "let a = 1;\nlet b = 2; fn h() -> int { return 7; } let c = nope;\nfn a_fn() -> int { return 1; }\nfn a_fn() -> int { return undefined; }\na_fn()\na\nb\nh()\n",
        "1\n1\n",
    );
    assert!(
        run.stderr.contains("unknown variable `nope`"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("unknown variable `undefined`"));
    assert!(
        run.stderr.contains("unknown variable `b`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("unknown function `h`"),
        "{}",
        run.stderr
    );
}

#[test]
fn runtime_errors_are_reported_and_keep_what_ran_before() {
    let run = assert_repl(
        "let g = 1;\ng = 2; print(\"before\"); g = 10 / (g - 2); g = 3;\ng\nlet a = [1, 2];\na[2]\n[0; -1]\n[0; 1 << 40]\nfn down(n: int) -> int { return down(n + 1) + 1; }\ndown(0)\ng + 1\n",
        "before\n2\n3\n",
    );
    let expected = [
        "<repl>:1:29: runtime error: division by zero",
        "<repl>:1:1: runtime error: index out of bounds: the length is 2 but the index is 2",
        "<repl>:1:1: runtime error: negative array length -1",
        "<repl>:1:1: runtime error: out of memory allocating an array of length 1099511627776",
        "<repl>:1:33: runtime error: stack overflow",
    ];
    for line in expected {
        assert!(
            run.stderr.contains(line),
            "missing {line:?} in\n{}",
            run.stderr
        );
    }
}

#[test]
fn stores_before_a_failed_access_stay_done() {
    // In a file, these accesses are checked together before the first
    // store (`ir::bounds` groups); a REPL entry must not skip the store,
    // since the array outlives the failed entry.
    let run = assert_repl(
        "fn g(a: [int]) { a[0] = 9; a[1] = a[5]; }\nlet a = [1, 2, 3];\ng(a);\na\n",
        "[9, 2, 3]\n",
    );
    assert!(
        run.stderr
            .contains("runtime error: index out of bounds: the length is 3 but the index is 5"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_runtime_error_in_a_loaded_file_names_the_file_and_its_line() {
    let file = scratch_file(
        "repl_lib.toy",
        b"// a library\nfn safe_div(a: int, b: int) -> int {\n    return a / b;\n}\nlet loaded = 42;\n",
    );
    let input = format!(
        ":load {}\nloaded\nsafe_div(10, 2)\nsafe_div(1, 0)\nsafe_div(9, 3)\n",
        file.display()
    );
    let run = assert_repl(&input, "42\n5\n3\n");
    let want = format!("{}:3:12: runtime error: division by zero", file.display());
    assert!(run.stderr.contains(&want), "{}", run.stderr);
}

#[test]
fn entries_continue_while_brackets_are_open() {
    assert_repl(
        "fn f(\n  x: int\n) -> int {\n  // a } in a comment\n  print(\"{ [ (\");\n  return [\n    x, 2\n  ][0];\n}\nf(\n5)\n",
        "{ [ (\n5\n",
    );
}

#[test]
fn loops_run_and_long_output_is_complete() {
    let run = assert_repl(
        "let s = 0;\nfor i in 0..100000 { s += i; }\ns\nfor i in 0..20000 { print(i); }\n",
        &format!(
            "4999950000\n{}",
            (0..20000).map(|i| format!("{i}\n")).collect::<String>()
        ),
    );
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn quit_stops_reading() {
    assert_repl("1\n:quit\n2\n", "1\n");
    assert_repl("1\n:q\n2\n", "1\n");
}

#[test]
fn an_unfinished_entry_at_the_end_of_input_is_reported() {
    let run = assert_repl("1\nfn f() {\n", "1\n");
    assert!(run.stderr.contains("<repl>:1:"), "{}", run.stderr);
}

#[test]
fn help_lists_the_commands() {
    let run = repl(":help\n");
    assert_eq!(run.status, 0);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    for command in [":help", ":quit", ":load", ":emit", ":time", ":reset"] {
        assert!(run.stdout.contains(command), "{}", run.stdout);
    }
}

#[test]
fn unknown_commands_and_bad_arguments_are_errors_not_exits() {
    let run = assert_repl(
        ":frobnicate\n:emit ssa\n:emit ir f\n:emit ssa nothere\n:load /no/such/file.toy\n7\n",
        "7\n",
    );
    assert!(run.stderr.contains("unknown command `:frobnicate`"));
    assert!(run.stderr.contains("usage: :emit"));
    assert!(run.stderr.contains("no function `nothere`"));
    assert!(run.stderr.contains("cannot read `/no/such/file.toy`"));
}

/// Entries get the IR passes programs get (`passes::pipeline`): a
/// function that cannot change a global loads it once, and still sees
/// what later entries store in it.
#[test]
fn entries_load_a_global_once_where_it_cannot_change() {
    let run = repl(
        "let g = [1, 2, 3];\nfn sum() -> int { let s = 0; for i in 0..len(g) { s += g[i]; } return s; }\n\
         sum()\ng = [10, 20];\nsum()\n:emit ssa sum\n",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let (values, ssa) = run.stdout.split_once("fn sum").expect("the SSA of sum");
    assert_eq!(values, "6\n30\n", "{}", run.stderr);
    assert_eq!(ssa.matches("= load g").count(), 1, "{ssa}");
}

#[test]
fn emit_shows_a_function_at_each_stage() {
    let run =
        repl("fn sq(x: int) -> int { return x * x; }\n:emit ssa sq\n:emit clif sq\n:emit asm sq\n");
    assert_eq!(run.status, 0);
    assert!(
        run.stdout
            .contains("fn sq(v0: int) -> int {\nb0:\n    v1 = imul v0, v0\n    ret v1\n}"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("; toy.sq\nfunction"), "{}", run.stdout);
    assert!(run.stdout.contains("imul"), "{}", run.stdout);
    assert!(run.stdout.contains("toy.sq:\n"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("toy.<top>"),
        "only the function: {}",
        run.stdout
    );
    // After a redefinition, the new code.
    let run = repl("fn sq(x: int) -> int { return x * x; }\nfn sq(x: int) -> int { return x + x; }\n:emit ssa sq\n");
    assert!(run.stdout.contains("iadd v0, v0"), "{}", run.stdout);
}

#[test]
fn time_toggles_per_entry_timings() {
    let run = assert_repl(
        ":time\n1 + 1\n:time\n2 + 2\n",
        "timing on\n2\ntiming off\n4\n",
    );
    assert_eq!(run.stderr.matches("compile ").count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains(" ms, run "), "{}", run.stderr);
}

#[test]
fn reset_forgets_everything() {
    let run = assert_repl(
        "let x = 1;\nfn f() -> int { return 2; }\n:reset\nx\nf()\nlet x = true;\nx\n",
        "session reset\ntrue\n",
    );
    assert!(run.stderr.contains("unknown variable `x`"));
    assert!(run.stderr.contains("unknown function `f`"));
}

#[test]
fn load_runs_a_files_items_into_the_session() {
    let file = scratch_file(
        "repl_load.toy",
        b"fn sq(x: int) -> int { return x * x; }\nlet base = 7;\nprint(\"loaded\");\nsq(3);\n",
    );
    // Expression statements of a file are not echoed: it runs as a program.
    assert_repl(
        &format!(":load {}\nsq(base)\n", file.display()),
        "loaded\n49\n",
    );
}

/// Sends `signal` (`-INT`, `-KILL`) to a process.
fn signal(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// Kills the process `pid` unless `done` says, within `limit`, that it
/// ended; returns whether it had to (a lost interrupt then fails the test
/// instead of hanging it).
fn watchdog(
    pid: u32,
    limit: Duration,
) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<bool>) {
    let (done, ended) = std::sync::mpsc::channel::<()>();
    let killer = std::thread::spawn(move || {
        let timed_out = matches!(
            ended.recv_timeout(limit),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
        );
        if timed_out {
            signal(pid, "-KILL");
        }
        timed_out
    });
    (done, killer)
}

/// Reads `stderr` up to a line containing `wanted`; returns what it read.
fn read_stderr_until(stderr: &mut impl std::io::BufRead, wanted: &str) -> String {
    let mut seen = String::new();
    while !seen.lines().any(|l| l.contains(wanted)) {
        if stderr.read_line(&mut seen).unwrap() == 0 {
            panic!("stderr ended before {wanted:?}: {seen}");
        }
    }
    seen
}

#[test]
fn sigint_stops_a_running_entry_and_the_session_goes_on() {
    let mut child = spawn_repl();
    let (done, killer) = watchdog(child.id(), Duration::from_secs(60));
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    // Once a runtime error is reported, the REPL is up and has compiled
    // and run code (under qemu, the first compilation alone can take a
    // second): each entry below is running, not compiling, when the
    // interrupt comes.
    stdin
        .write_all(
            b"1 / 0
",
        )
        .unwrap();
    stdin.flush().unwrap();
    let mut err = read_stderr_until(&mut stderr, "division by zero");
    let settle = Duration::from_millis(if under_emulation() { 2000 } else { 700 });
    // An endless loop, then endless recursion without loops or overflow.
    for entry in [
        "let n = 0;\nwhile true { n += 1; }\n",
        "fn fib(k: int) -> int { if k < 2 { return k; } return fib(k - 1) + fib(k - 2); }\nfib(200)\n",
    ] {
        stdin.write_all(entry.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(settle);
        signal(child.id(), "-INT");
    }
    stdin.write_all(b"n > 0\nfib(10)\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let _ = done.send(());
    std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
    assert!(
        !killer.join().unwrap(),
        "the REPL did not end within 60 s (an interrupt lost?): {err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "true\n55\n", "{err}");
    assert_eq!(err.matches("interrupted").count(), 2, "{err}");
    assert_eq!(out.status.code(), Some(0));
}

/// Ctrl-C while an entry still compiles stops it too (the REPL's `BUSY`
/// covers compilation): the entry does not start. Found by the aarch64
/// run under qemu, where compiling is slow enough to be hit (the interrupt
/// used to be cleared between compiling and running, and the entry's
/// endless loop ran on); here a big function makes the compilation long.
#[test]
fn sigint_while_an_entry_compiles_stops_it_when_it_runs() {
    let mut child = spawn_repl();
    let (done, killer) = watchdog(child.id(), Duration::from_secs(30));
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let body: String = (0..20_000).map(|i| format!("s = s * 3 + {i}; ")).collect();
    let entry = format!(
        "fn big(s: int) -> int {{ {body}return s; }} let n = 0; while true {{ n += 1; }}\n"
    );
    // The entry (600 KB) is far larger than a pipe holds: when this write
    // returns, the REPL is reading its last 64 KB at most, past the first
    // entry; Ctrl-C must not come before that (the REPL would end, as on
    // any filter), however slow the machine (qemu).
    stdin
        .write_all(format!(":time\n1 / 0\n{entry}").as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let mut err = read_stderr_until(&mut stderr, "compile ");
    // Compiling `big` takes about 300 ms on x86-64, seconds under qemu; a
    // Ctrl-C that comes once it runs stops its loop the same way.
    std::thread::sleep(Duration::from_millis(200));
    signal(child.id(), "-INT");
    stdin.write_all(b"n >= 0\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let _ = done.send(());
    std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
    assert!(!killer.join().unwrap(), "the entry ran on: {err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "timing on\ntrue\n",
        "{err}"
    );
    assert!(err.contains("interrupted"), "{err}");
}

/// Waits for `prompt` with nothing typed after it yet. On a terminal with
/// colours, rustyline redraws the whole line, prompt included, at every
/// key typed (to highlight it), so only an empty line shows the prompt of
/// a new read; keys sent before it may be lost (rustyline leaves raw mode
/// between lines).
fn fresh_prompt(p: &mut rexpect::session::PtySession, prompt: &str) {
    p.exp_string(&format!("{prompt}\r")).unwrap();
}

/// A pseudo-terminal session: prompts, the continuation prompt (naming
/// the bracket still open), Ctrl-C on an endless loop and at the prompt,
/// Ctrl-D, and history kept between sessions.
#[test]
fn terminal_session() {
    let history = scratch_file("repl_history", b"");
    let start = || {
        let mut command = jitrun();
        command.env("JITRUN_HISTORY", &history).env("TERM", "xterm");
        rexpect::session::spawn_command(command, Some(20_000)).expect("spawn jitrun on a pty")
    };
    let mut p = start();
    fresh_prompt(&mut p, ">>> ");
    p.send_line("fn greet(n: int) {").unwrap();
    fresh_prompt(&mut p, "..{ ");
    p.send_line("  print(\"hello\", n); }").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // The innermost bracket still open; a bracket in a string or comment
    // does not count.
    p.send_line("print(\"(\", len([ // {").unwrap();
    fresh_prompt(&mut p, "..[ ");
    p.send_line("  1, 2],").unwrap();
    fresh_prompt(&mut p, "..( ");
    p.send_line("), 7)").unwrap();
    p.exp_string("( 2 7").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send_line("while true { }").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    p.send_control('c').unwrap();
    p.exp_string("interrupted").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // Ctrl-C at the prompt clears the line.
    p.send("1 + ").unwrap();
    p.send_control('c').unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send_line("greet(40 + 2)").unwrap();
    p.exp_string("hello 42").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    let status = p.process().wait().unwrap();
    assert!(
        matches!(status, rexpect::process::WaitStatus::Exited(_, 0)),
        "{status:?}"
    );
    let saved = std::fs::read_to_string(&history).unwrap();
    assert!(saved.contains("greet(40 + 2)"), "{saved}");

    // A new session finds the old entries with the up arrow.
    let mut p = start();
    fresh_prompt(&mut p, ">>> ");
    p.send_line("fn greet(n: int) { print(\"again\", n); }")
        .unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send("\x1b[A\x1b[A").unwrap();
    p.send_line("").unwrap();
    p.exp_string("again 42").unwrap();
    p.send_line(":quit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn code_replaced_function_by_function_keeps_working() {
    // f and g share an entry's module; the module's code is released only
    // when both have been replaced.
    assert_repl(
        "fn f() -> int { return 1; } fn g() -> int { return f() + 10; }\nfn f() -> int { return 2; }\ng()\nfn g() -> int { return f() + 20; }\ng()\nf()\nfn f() -> int { return 3; }\ng()\n",
        "12\n22\n2\n23\n",
    );
}

#[test]
fn invalid_utf8_and_nul_in_an_entry_are_errors_and_the_session_goes_on() {
    let run = assert_repl("1 +\u{0} 2\nlet s = \"\u{0}\";\n40 + 2\n", "42\n");
    assert!(run.stderr.contains("<repl>:1:"), "{}", run.stderr);
    let run = repl_bytes(b"print(\xff\xfe);\n6 * 7\n");
    assert_eq!(run.stdout, "42\n");
    assert_eq!(run.status, 0);
    assert!(run.stderr.contains("<repl>:1:7: error"), "{}", run.stderr);
}

/// The command line that starts the jitrun under test (through
/// `JITRUN_RUNNER`, as `common::jitrun` does), quoted for `sh`.
fn jitrun_words() -> String {
    let exe = jitrun::harness::binary(std::path::Path::new(env!("CARGO_BIN_EXE_jitrun")));
    let mut words = jitrun::harness::runner();
    words.push(exe.display().to_string());
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    quoted.join(" ")
}

/// A REPL on a pseudo-terminal with no history file, in `dir`, with
/// `NO_COLOR` set to `no_color` if given.
fn start_on_terminal(
    dir: &std::path::Path,
    no_color: Option<&str>,
) -> rexpect::session::PtySession {
    let mut command = jitrun();
    command
        .current_dir(dir)
        .env("JITRUN_HISTORY", "")
        .env("TERM", "xterm")
        .env_remove("NO_COLOR");
    if let Some(value) = no_color {
        command.env("NO_COLOR", value);
    }
    rexpect::session::spawn_command(command, Some(20_000)).expect("spawn jitrun on a pty")
}

/// An empty directory `name` under the tests' scratch directory (what an
/// earlier run left there is gone).
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = scratch_file("placeholder", b"")
        .parent()
        .unwrap()
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tab completes the session's functions and globals, builtins, keywords,
/// commands, and file names after `:load`.
#[test]
fn tab_completes_names_commands_and_files() {
    let dir = scratch_dir("completion");
    std::fs::write(dir.join("sample_lib.toy"), "print(\"sample loaded\");\n").unwrap();
    let mut p = start_on_terminal(&dir, None);
    fresh_prompt(&mut p, ">>> ");
    // Each entry prints something that its echo does not show.
    p.send_line(
        "fn fib(n: int) -> int { if n < 2 { return n; } return fib(n - 1) + fib(n - 2); } print(1000 + 40);",
    )
    .unwrap();
    p.exp_string("1040").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // A function of the session.
    p.send("fi\t").unwrap();
    p.send_line("(10)").unwrap();
    p.exp_string("55").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // A global, declared by the entry before.
    p.send_line("let answer = 41; print(1000 + 41);").unwrap();
    p.exp_string("1041").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send("ans\t").unwrap();
    p.send_line(" + 1").unwrap();
    p.exp_string("42").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // A builtin and a keyword.
    p.send("pri\t").unwrap();
    p.send_line("(6 * 7 + 1000)").unwrap();
    p.exp_string("1042").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send("whi\t").unwrap();
    p.send_line(" false { } print(1000 + 43);").unwrap();
    p.exp_string("1043").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // A command, then a file name.
    p.send(":lo\t").unwrap();
    p.send(" samp\t").unwrap();
    p.send_line("").unwrap();
    p.exp_string("sample loaded").unwrap();
    fresh_prompt(&mut p, ">>> ");
    // After `:reset`, the session's names are gone.
    p.send_line(":reset").unwrap();
    p.exp_string("session reset").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send("fi\t").unwrap();
    p.send_line("").unwrap();
    p.exp_string("unknown variable `fi`").unwrap();
    fresh_prompt(&mut p, ">>> ");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

/// The SGR (colour) escape sequences in `text`: `ESC [ digits;… m`.
fn colour_codes(text: &str) -> Vec<&str> {
    let mut codes = Vec::new();
    for (at, _) in text.match_indices("\x1b[") {
        let rest = &text[at + 2..];
        let params = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(rest.len());
        if rest[params..].starts_with('m') {
            codes.push(&text[at..at + 2 + params + 1]);
        }
    }
    codes
}

/// The line being edited is highlighted on a terminal, and not with
/// `NO_COLOR` set.
#[test]
fn the_line_is_highlighted_on_a_terminal_unless_no_color() {
    let dir = scratch_dir("highlight");
    let entry = "let s = sqrt(2.0); print(\"s\", 40 + 2); // c";
    let mut p = start_on_terminal(&dir, None);
    fresh_prompt(&mut p, ">>> ");
    p.send_line(entry).unwrap();
    let shown = p.exp_string("s 42").unwrap();
    for coloured in [
        "\x1b[35mlet\x1b[0m",
        "\x1b[36msqrt\x1b[0m",
        "\x1b[33m2.0\x1b[0m",
        "\x1b[32m\"s\"\x1b[0m",
        "\x1b[90m// c\x1b[0m",
    ] {
        assert!(shown.contains(coloured), "{coloured:?} not in {shown:?}");
    }
    // Ctrl-D only once the editor reads again: sent while the entry runs,
    // the terminal (not yet raw) takes it as the end of that read.
    fresh_prompt(&mut p, ">>> ");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();

    let mut p = start_on_terminal(&dir, Some("1"));
    fresh_prompt(&mut p, ">>> ");
    p.send_line(entry).unwrap();
    let shown = p.exp_string("s 42").unwrap();
    assert!(shown.contains(entry), "{shown:?}");
    assert_eq!(colour_codes(&shown), Vec::<&str>::new(), "{shown:?}");
    fresh_prompt(&mut p, ">>> ");
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

/// Keyboard on a terminal, output to a file: no colours in the file.
#[test]
fn no_highlighting_when_output_is_not_a_terminal() {
    let dir = scratch_dir("highlight_file");
    let out = dir.join("out.txt");
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(format!("exec {} > '{}'", jitrun_words(), out.display()))
        .env("JITRUN_HISTORY", "")
        .env("TERM", "xterm")
        .env_remove("NO_COLOR");
    let mut p = rexpect::session::spawn_command(command, Some(20_000)).expect("spawn on a pty");
    // Keys typed before rustyline puts the terminal in raw mode are lost:
    // wait for each prompt, in the file.
    let written_once = |want: &str, count: usize| {
        for _ in 0..200 {
            let written = std::fs::read_to_string(&out).unwrap_or_default();
            if written.matches(want).count() >= count {
                return written;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("no {want:?} in {out:?}");
    };
    written_once(">>> ", 1);
    p.send_line("let x = 40 + 2; // c").unwrap();
    written_once(">>> ", 2);
    p.send_line("x").unwrap();
    written_once(">>> ", 3);
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("42"), "{written:?}");
    assert_eq!(colour_codes(&written), Vec::<&str>::new(), "{written:?}");
}
