//! What the integration tests share: one copy each of the legal-move and position helpers, the
//! perft table reader, the oracle checks, a small random generator, the pipe driver for the built
//! binary ([`driver`]) and the toy games with their brute-force references ([`toys`]).
//!
//! Each test file takes it with `mod support;` and uses the parts it needs.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod cc_model;
pub mod driver;
pub mod matches;
pub mod toys;

use std::process::{Command, Stdio};

use sanqi::game::prelude::*;
use sanqi::game::MoveBuffer;
use sanqi::search::{
    IterationInfo, SearchControl, SearchEvent, SearchLimits, SearchOptions, SearchResult, Searcher,
};

// ---------------------------------------------------------------------------------------------
// Positions and moves.

/// Reads a position of `G` in its default setup; panics with the FEN on error.
pub fn pos<G: Game>(fen: &str) -> G {
    pos_with(fen, &G::Config::default())
}

/// Reads a position of `G` in the setup `config`; panics with the FEN on error.
pub fn pos_with<G: Game>(fen: &str, config: &G::Config) -> G {
    G::from_fen(fen, config).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move of `pos`, in generation order.
pub fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut list = G::MoveList::default();
    pos.generate_moves(&mut list);
    list.moves().to_vec()
}

/// Every legal move of `pos` in protocol form, sorted.
pub fn legal_texts<G: Game>(pos: &G, config: &G::Config) -> Vec<String> {
    let mut texts: Vec<String> = legal(pos)
        .into_iter()
        .map(|m| pos.format_move(m, config))
        .collect();
    texts.sort();
    texts
}

/// Checks that `generate_noisy` gives exactly the legal moves that `is_noisy` picks.
pub fn check_noisy<G: Game>(pos: &G) {
    let mut noisy = G::MoveList::default();
    pos.generate_noisy(&mut noisy);
    let mut want: Vec<G::Move> = legal(pos)
        .into_iter()
        .filter(|&m| pos.is_noisy(m))
        .collect();
    let mut got: Vec<G::Move> = noisy.moves().to_vec();
    want.sort_by_key(|m| format!("{m:?}"));
    got.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(got, want, "{}", pos.to_fen());
}

/// Reads one move token of `pos`; panics with the token on error.
pub fn parse<G: Game>(pos: &G, token: &str, config: &G::Config) -> G::Move {
    pos.parse_move(token, config)
        .unwrap_or_else(|e| panic!("{token}: {e}"))
}

/// Plays the space-separated move tokens `moves` on `pos`.
pub fn play<G: Game>(pos: &mut G, moves: &str, config: &G::Config) {
    for token in moves.split_whitespace() {
        let m = parse(pos, token, config);
        pos.make_move(m);
    }
}

// ---------------------------------------------------------------------------------------------
// Searches.

/// Runs one search of `pos` and collects its events.
pub fn search<G: sanqi::game::Searchable>(
    searcher: &mut Searcher,
    pos: &G,
    limits: &SearchLimits,
    options: &SearchOptions,
    control: &SearchControl,
) -> (SearchResult<G::Move>, Vec<SearchEvent<G::Move>>) {
    let mut events = Vec::new();
    let r = searcher.search(pos, limits, options, None, control, &mut |e| events.push(e));
    (r, events)
}

/// [`search`] with the default options and a fresh control.
pub fn search_default<G: sanqi::game::Searchable>(
    searcher: &mut Searcher,
    pos: &G,
    limits: &SearchLimits,
) -> (SearchResult<G::Move>, Vec<SearchEvent<G::Move>>) {
    search(
        searcher,
        pos,
        limits,
        &SearchOptions::default(),
        &SearchControl::new(),
    )
}

/// The iteration reports among `events`.
pub fn iterations<M: Clone>(events: &[SearchEvent<M>]) -> Vec<IterationInfo<M>> {
    events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Iteration(i) => Some(i.clone()),
            SearchEvent::CurrMove { .. } => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The built binary and its files.

/// Runs the built `sanqi` with `args` to its end and collects its output.
pub fn run_sanqi(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sanqi"))
        .args(args)
        .output()
        .expect("run sanqi")
}

/// Runs the built `sanqi` with `args`, which must succeed; gives its stdout and stderr.
pub fn run_sanqi_ok(args: &[&str]) -> (String, String) {
    let out = run_sanqi(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "sanqi {args:?} failed:\n{stderr}");
    (stdout, stderr)
}

/// Runs `sanqi <tool> <args>`, which must fail, without a panic, saying `want` on stderr.
pub fn assert_tool_error(tool: &str, args: &[&str], want: &str) {
    let mut full = vec![tool];
    full.extend(args.iter().copied());
    let out = run_sanqi(&full);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{full:?}");
    assert!(stderr.contains(want), "{full:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{full:?}: {stderr}");
}

/// A fresh path `name` in the folder `folder` of the target's temporary directory (the folder
/// made, the file removed).
pub fn temp_path(folder: &str, name: &str) -> String {
    let dir = format!("{}/{folder}", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = format!("{dir}/{name}");
    let _ = std::fs::remove_file(&path);
    path
}

// ---------------------------------------------------------------------------------------------
// Perft tables (`../shared/perft/*.tsv`).

/// One row of a perft table: `label` (the rule set in the Chinese-checkers table), position,
/// depth and node count.
#[derive(Clone, Debug)]
pub struct PerftRow {
    pub label: String,
    pub position: String,
    pub depth: u32,
    pub nodes: u64,
}

/// The rows of `../shared/perft/<file>` (a header line, then four tab-separated columns).
pub fn perft_rows(file: &str) -> Vec<PerftRow> {
    let path = format!("{}/../shared/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.trim().ends_with("position\tdepth\tnodes"),
        "{path}: unexpected header {header:?}"
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "{path}: bad row {l}");
            PerftRow {
                label: cols[0].to_string(),
                position: cols[1].to_string(),
                depth: cols[2].parse().unwrap(),
                nodes: cols[3].parse().unwrap(),
            }
        })
        .collect()
}

/// Checks one perft row on `pos` (read from the row's position): the node count, and that
/// make/undo gave back the same position string and key.
pub fn check_perft_row<G: Game>(pos: &mut G, row: &PerftRow) {
    let before = pos.to_fen();
    let hash = pos.hash();
    let nodes = pos.perft(row.depth);
    assert_eq!(
        nodes, row.nodes,
        "{} depth {} of `{}`: got {nodes}, expected {}",
        row.label, row.depth, row.position, row.nodes
    );
    assert_eq!(
        pos.to_fen(),
        before,
        "{}: make/undo changed the position",
        row.label
    );
    assert_eq!(pos.hash(), hash, "{}: make/undo changed the key", row.label);
}

/// The node budget per perft row: about 2 million in debug builds, everything in release builds.
pub fn perft_budget() -> u64 {
    if cfg!(debug_assertions) {
        2_000_000
    } else {
        u64::MAX
    }
}

// ---------------------------------------------------------------------------------------------
// Oracles (python-chess, pyffish, Stockfish...).

/// The Python interpreter of the tests: `SANQI_PYTHON` when set, else the workspace's virtual
/// environment `.venv/bin/python3` when there is one (the README's test command and `.ci/run`
/// install the oracles there, since Debian 12 and Ubuntu 24.04 refuse `pip install` into the
/// system Python, PEP 668), else `python3` on the `PATH`.
pub fn python() -> String {
    if let Some(p) = std::env::var_os("SANQI_PYTHON") {
        return p.to_string_lossy().into_owned();
    }
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python3");
    if venv.is_file() {
        return venv.to_string_lossy().into_owned();
    }
    "python3".to_string()
}

/// Whether `python -c 'import <module>'` works ([`python`]).
pub fn python_has(module: &str) -> bool {
    Command::new(python())
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Call when the oracle `what` is missing: fails under CI (`CI` set; `.ci/run` installs every
/// oracle), otherwise prints a note so that the caller can skip its check.
pub fn oracle_missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "the oracle {what} is required in CI (.ci/run installs it)"
    );
    eprintln!("skipped: {what} not available");
}

/// Whether the python module `module` is there; if not, [`oracle_missing`] (fails under CI).
pub fn python_oracle(module: &str) -> bool {
    let there = python_has(module);
    if !there {
        oracle_missing(&format!("python3 with {module}"));
    }
    there
}

/// Runs `python -c script` ([`python`]) with `input` on its standard input (written from another thread, so
/// that a large input cannot block against a full output pipe) and returns its exit status and
/// standard output.
pub fn run_python(script: &str, input: String) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(python())
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(input.as_bytes())
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

// ---------------------------------------------------------------------------------------------
// Random numbers.

/// A xorshift64 generator: the same sequence on every run.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------------------------
// Tunable parameters (process-wide statics).

static PARAM_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Parameters are process-wide: tests of one file that read or change them hold this guard, so
/// that a test that changes one never runs beside a test that evaluates. The weights belong to
/// the hand-written evaluations, so the guard also turns `Use NNUE` off for the process.
pub fn param_lock() -> std::sync::MutexGuard<'static, ()> {
    let guard = PARAM_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    sanqi::nnue::set_enabled(false);
    guard
}

/// The registered parameter `name` (any game's or the search's).
pub fn param(name: &str) -> &'static sanqi::tune::Param {
    sanqi::search::catalog::find_param(name).unwrap_or_else(|| panic!("no parameter {name}"))
}

/// Checks a game's parameter table: names start with `prefix` and are unique (ignoring case) and
/// free of the word "value", defaults lie in range, steps are positive, and the registry finds
/// each one by name.
pub fn check_params(params: &[&'static sanqi::tune::Param], prefix: &str) {
    for (i, p) in params.iter().enumerate() {
        assert!(p.name.starts_with(prefix), "{}", p.name);
        assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
        assert!(p.step > 0, "{}", p.name);
        assert!(
            !p.name.to_ascii_lowercase().split(' ').any(|w| w == "value"),
            "{}",
            p.name
        );
        for q in &params[..i] {
            assert!(!q.name.eq_ignore_ascii_case(p.name), "duplicate {}", p.name);
        }
        assert!(
            sanqi::search::catalog::find_param(p.name).is_some_and(|q| std::ptr::eq(q, *p)),
            "{} is not in catalog::all_params()",
            p.name
        );
    }
}

/// Sets a parameter for the life of the guard (reset to the default on drop, even on panic).
pub struct SetParam(pub &'static sanqi::tune::Param);

impl SetParam {
    /// Sets `name` to `value`.
    pub fn new(name: &str, value: i32) -> SetParam {
        let p = param(name);
        p.set(i64::from(value)).unwrap();
        SetParam(p)
    }
}

impl Drop for SetParam {
    fn drop(&mut self) {
        self.0.reset();
    }
}

// ---------------------------------------------------------------------------------------------
// Xiangqi FEN transforms.

/// The same xiangqi position with colours swapped and the board turned upside down (the other
/// side to move, the other fields kept).
pub fn xiangqi_flip(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    fields[0] = board.join("/");
    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
    fields.join(" ")
}

/// The folder `.test-data/<sub>` that `.ci/fetch-test-data` fills (Syzygy tables, Polyglot
/// books), or `$SANQI_TEST_DATA/<sub>`; `None` with [`oracle_missing`] (fails under CI) when it
/// is not there.
pub fn test_data(sub: &str) -> Option<std::path::PathBuf> {
    let root = std::env::var_os("SANQI_TEST_DATA").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".test-data"),
        std::path::PathBuf::from,
    );
    let dir = root.join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        oracle_missing(&format!("{} (run .ci/fetch-test-data)", dir.display()));
        None
    }
}
