//! Command-line entry: `sanqi` (protocol loop), `sanqi bench [depth]`, `sanqi perft <depth> [fen]`,
//! and the tools with modules of their own (`match`, `datagen`, `tune`).

use std::process::ExitCode;
use std::time::Instant;

use crate::game::{GameConfigs, GameKind};
use crate::search::Searcher;

/// The usage text, with every game's setup flags from the registry.
fn usage() -> String {
    let mut text = String::from(
        "usage:
  sanqi [--game <game>] [command...]      run the UCI/UCCI protocol loop on stdin/stdout;
                                          --game: the game of `startpos` (default chess), for
                                          GUIs that start a xiangqi engine without UCI_Variant;
                                          each command argument is one protocol line, run in
                                          order instead of reading stdin, then the engine
                                          exits (sanqi \"genfens 10 seed 1 book None\" quit)
  sanqi bench [depth]                     fixed search benchmark: node-count signature and speed
  sanqi perft <depth> [options] [fen...]  count leaf nodes, divided by root move\n",
    );
    text.push_str(&format!(
        "      --game {}  (default {})\n",
        GameKind::NAMES.join("|"),
        crate::game::registry::DEFAULT_GAME.name()
    ));
    for &kind in GameKind::ALL {
        let flags = GameConfigs::flags_help(kind);
        if !flags.is_empty() {
            text.push_str(&format!("      {}  ({})\n", flags.join(" "), kind.name()));
        }
    }
    text.push_str(
        "  sanqi match --game <game> --engine cmd=... --engine cmd=... [options]
                                          engine-vs-engine tournaments (sanqi match --help)
  sanqi datagen --game <game> --out FILE [options]
                                          self-play training data (sanqi datagen --help)
  sanqi tune --game <game> --data FILE [options]
                                          Texel tuning of the evaluation weights (sanqi tune --help)
  sanqi tune-spsa --params FILE --iterations N --game <game> --engine cmd=... [match options]
                                          SPSA tuning of options by self-play (sanqi tune-spsa --help)
  sanqi --version | --help",
    );
    text
}

/// Runs the command line; returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        None => {
            crate::uci::run_stdio(crate::game::registry::DEFAULT_GAME, None);
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let depth = match args.get(1).map(|d| d.parse::<u32>()) {
                None => None,
                Some(Ok(d)) if d > 0 => Some(d),
                Some(_) => return usage_error("bench depth must be a positive integer"),
            };
            let mut searcher = Searcher::new(16);
            print!("{}", crate::bench::run(depth, &mut searcher));
            ExitCode::SUCCESS
        }
        Some("perft") => perft(&args[1..]),
        Some("match") => crate::tournament::main(&args[1..]),
        Some("datagen") => crate::datagen::main(&args[1..]),
        Some("tune") => crate::texel::main(&args[1..]),
        Some("tune-spsa") => crate::tournament::spsa::main(&args[1..]),
        Some("--version") | Some("-V") => {
            println!("{}", crate::uci::NAME);
            ExitCode::SUCCESS
        }
        Some("--help") | Some("-h") | Some("help") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Some(_) => protocol(args),
    }
}

/// `sanqi [--game NAME] [command...]`: the protocol loop with `NAME` as the game of `startpos`,
/// on stdin, or on the commands given as arguments (one line each, as OpenBench's client runs
/// `sanqi "genfens ..." "quit"`). An unknown game is one error line and the loop runs with the
/// default game, as it would for a bad `setoption`.
fn protocol(args: &[String]) -> ExitCode {
    let mut kind = crate::game::registry::DEFAULT_GAME;
    let mut startup_error = None;
    let mut rest = args;
    while let Some(flag) = rest.first().map(String::as_str) {
        if !matches!(flag, "--game" | "--variant") {
            break;
        }
        match rest.get(1) {
            Some(name) => match GameKind::from_name(name) {
                Some(k) => kind = k,
                None => {
                    startup_error = Some(format!(
                        "{flag}: unknown game '{name}' (known: {}); playing {}",
                        GameKind::NAMES.join(", "),
                        kind.name()
                    ))
                }
            },
            None => {
                startup_error = Some(format!(
                    "{flag} needs a game ({}); playing {}",
                    GameKind::NAMES.join(", "),
                    kind.name()
                ))
            }
        }
        rest = rest.get(2..).unwrap_or(&[]);
    }
    if let Some(first) = rest.first() {
        if first.starts_with("--") {
            return usage_error(&format!("unknown flag '{first}'"));
        }
    }
    let commands = (!rest.is_empty()).then_some(rest);
    crate::uci::run(kind, startup_error, commands);
    ExitCode::SUCCESS
}

/// Whether a tool's arguments ask for its help (`--help` or `-h`).
pub(crate) fn asks_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// The game a tool's arguments name with `--game` (or `--variant`), else the default game.
pub(crate) fn game_arg(args: &[String]) -> Result<GameKind, String> {
    match args.iter().position(|a| a == "--game" || a == "--variant") {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| GameKind::from_name(n))
            .ok_or_else(|| format!("--game takes {}", GameKind::NAMES.join(", "))),
        None => Ok(crate::game::registry::DEFAULT_GAME),
    }
}

/// What a tool's `parse_args` gave: the configuration to run, or the exit code once the help
/// (`Ok(None)`, with the text of `usage`) or the error is printed.
pub(crate) fn tool_config<C>(
    tool: &str,
    parsed: Result<Option<C>, String>,
    usage: impl FnOnce() -> String,
) -> Result<C, ExitCode> {
    match parsed {
        Ok(Some(c)) => Ok(c),
        Ok(None) => {
            println!("{}", usage());
            Err(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("sanqi {tool}: {e}\n(sanqi {tool} --help lists the options)");
            Err(ExitCode::from(2))
        }
    }
}

/// Reads a tool's arguments after [`game_arg`] read the game `kind`: its setup flags into
/// `configs`, `--game` and `--variant` passed over, and every other flag with the argument
/// after it (`None` at the end) by `read`, which answers whether it took that argument as its
/// value.
pub(crate) fn read_tool_flags(
    args: &[String],
    kind: GameKind,
    configs: &mut GameConfigs,
    mut read: impl FnMut(&str, Option<&String>) -> Result<bool, String>,
) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        if configs.read_flag(kind, args, &mut i)? {
            i += 1;
            continue;
        }
        let flag = args[i].as_str();
        let takes_value = match flag {
            "--game" | "--variant" => true,
            _ => read(flag, args.get(i + 1))?,
        };
        i += if takes_value { 2 } else { 1 };
    }
    Ok(())
}

/// The number `value` that a tool's `flag` is given, above zero.
pub(crate) fn positive<T: std::str::FromStr + PartialOrd + Default>(
    flag: &str,
    value: Option<&String>,
) -> Result<T, String> {
    let n: T = number(flag, value)?;
    if n <= T::default() {
        return Err(format!("{flag} must be positive"));
    }
    Ok(n)
}

/// The number `value` that a tool's `flag` is given.
pub(crate) fn number<T: std::str::FromStr>(
    flag: &str,
    value: Option<&String>,
) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse::<T>()
        .map_err(|_| format!("{flag} takes a number, not '{v}'"))
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("sanqi: {msg}\n{}", usage());
    ExitCode::from(2)
}

fn perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        return usage_error("perft needs a depth");
    };
    // The game first (its flags depend on it), then its setup flags and the position words.
    let mut kind = crate::game::registry::DEFAULT_GAME;
    let mut rest = Vec::new();
    let mut i = 1;
    while i < args.len() {
        if matches!(args[i].as_str(), "--game" | "--variant") {
            let Some(k) = args.get(i + 1).and_then(|n| GameKind::from_name(n)) else {
                return usage_error(&format!("--game takes {}", GameKind::NAMES.join(", ")));
            };
            kind = k;
            i += 1;
        } else {
            rest.push(args[i].clone());
        }
        i += 1;
    }
    let mut configs = GameConfigs::default();
    let mut fen_words = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        match configs.read_flag(kind, &rest, &mut i) {
            Ok(true) => {}
            Ok(false) => fen_words.push(rest[i].clone()),
            Err(e) => return usage_error(&e),
        }
        i += 1;
    }
    let game = if fen_words.is_empty() {
        Ok(kind.startpos(&configs))
    } else {
        kind.from_fen(&fen_words.join(" "), &configs)
    };
    let mut game = match game {
        Ok(g) => g,
        Err(e) => {
            eprintln!("sanqi: bad position: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (lines, total) = game.perft_divide(depth, &configs);
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in lines {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {total}");
    println!(
        "Time: {:.3} s, {:.1} million nodes per second",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
