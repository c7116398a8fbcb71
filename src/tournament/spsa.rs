//! `sanqi tune-spsa`: SPSA tuning of an engine's options by games between two copies of it, the
//! way OpenBench runs an SPSA test, on one machine and for any of the three games.
//!
//! ```text
//! sanqi tune-spsa --params FILE --iterations N [--pairs-per P] [--alpha A] [--gamma G]
//!     [--a-ratio R] [--state FILE] [--spsa-seed S]
//!     --game ... --engine cmd=PROG [...]    (one engine: the one tuned)
//!     [every other `sanqi match` flag: --tc, --nodes, --random-plies, --concurrency, --pgn ...]
//! ```
//!
//! `FILE` holds one parameter a line in OpenBench's input format, `name, int|float, value, min,
//! max, c_end, r_end` (what `spsa <game>` prints; `#` starts a comment). The schedule is
//! OpenBench's (`OpenBench/spsa_utils.py`), with its defaults (alpha 0.602, gamma 0.101, A =
//! 0.1 N): `c = c_end N^gamma`, `a = r_end c_end^2 (A + N)^alpha`; at iteration `k` (from 1),
//! `c_k = max(c / k^gamma, 0.5 for an integer)`, `r_k = a / (A + k)^alpha / c_k^2`. Each
//! iteration draws a sign `d = +-1` per parameter, plays `P` colour-swapped pairs of
//! `value + c_k d` (dev) against `value - c_k d` (base), both rounded the same random way for
//! integers and clipped to `min..max`, and moves every value by `r_k c_k (wins - losses) d`,
//! wins and losses counted from dev's side.
//!
//! Each iteration's games are a `sanqi match` of their own with the seed `--seed + k`: random
//! openings, a book line or a line of an openings file (always drawn at random) differ from one
//! iteration to the next and are the same again on a resumed run.
//!
//! Before the first game the engine is started once and every name must be one of its options,
//! exactly as it spells it (fastchess sends only such names, so a misspelt one would be tuned
//! without effect), with `min..max` inside a spin option's range. After each iteration the
//! values and the iteration go to the state file (written whole, then renamed); a run started
//! with an existing state file goes on from there, so an interrupted run loses at most the
//! iteration in progress, and it counts no game of it twice.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use sanqi_protocol::reply::OptionKind;

use super::config::MatchConfig;
use super::engine::EngineProcess;
use super::stats::Wdl;
use super::{args, children, run};
use crate::game::with_kind;
use crate::game::Rules;
use crate::splitmix;

const USAGE: &str = "usage: sanqi tune-spsa --params FILE --iterations N [--pairs-per P] \
[--alpha A] [--gamma G] [--a-ratio R] [--state FILE] [--spsa-seed S] --game GAME \
--engine cmd=PROG [...] [sanqi match flags: --tc, --nodes, --random-plies, --concurrency, ...]
  FILE: one parameter a line, `name, int|float, value, min, max, c_end, r_end` (the output of
  the engine's `spsa <game>` command, OpenBench's SPSA input format)";

/// How the step sizes shrink over the run (OpenBench's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations planned (`N`).
    pub iterations: u64,
    /// Decay of the learning rate.
    pub alpha: f64,
    /// Decay of the perturbation.
    pub gamma: f64,
    /// `A` as a share of `N`.
    pub a_ratio: f64,
}

impl Schedule {
    /// OpenBench's defaults for `iterations` iterations.
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
        }
    }
}

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The engine's option name.
    pub name: String,
    /// A float (sent with decimals) rather than an integer.
    pub is_float: bool,
    /// The current value.
    pub value: f64,
    /// The value at the start.
    pub start: f64,
    /// Smallest value sent.
    pub min: f64,
    /// Largest value sent.
    pub max: f64,
    /// The perturbation at the end of the run.
    pub c_end: f64,
    /// The learning rate at the end of the run.
    pub r_end: f64,
    /// `c`, fixed at the start: `c_end N^gamma`.
    c_value: f64,
    /// `a`, fixed at the start: `r_end c_end^2 (A + N)^alpha`.
    a_value: f64,
}

impl SpsaParam {
    /// The perturbation `c_k` and the learning rate `r_k` at iteration `k` (from 1).
    pub fn step(&self, k: u64, s: &Schedule) -> (f64, f64) {
        let k = k.max(1) as f64;
        let floor = if self.is_float { 0.0 } else { 0.5 };
        let c = (self.c_value / k.powf(s.gamma)).max(floor);
        let r = if c > 0.0 {
            self.a_value / (s.a_ratio * s.iterations as f64 + k).powf(s.alpha) / (c * c)
        } else {
            0.0
        };
        (c, r)
    }

    /// A value as the option is sent: an integer, or a float with up to 6 decimals.
    pub fn text(&self, v: f64) -> String {
        if self.is_float {
            let t = format!("{v:.6}");
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{}", v.round() as i64)
        }
    }

    /// The parameter as an input line, at its current value (rounded for an integer).
    pub fn line(&self) -> String {
        let value = if self.is_float {
            self.text(self.value)
        } else {
            self.text(self.value.round())
        };
        format!(
            "{}, {}, {}, {}, {}, {}, {}",
            self.name,
            if self.is_float { "float" } else { "int" },
            value,
            self.text(self.min),
            self.text(self.max),
            self.c_end,
            self.r_end
        )
    }
}

/// Reads the parameter lines (`#` comments and blank lines skipped).
///
/// # Errors
/// A line without seven fields, a number that does not parse, `min > max`, a value outside
/// `min..=max`, a `c_end` or `r_end` not above 0, a name given twice, or no parameter at all.
pub fn parse_params(text: &str, schedule: &Schedule) -> Result<Vec<SpsaParam>, String> {
    let mut params: Vec<SpsaParam> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |what: &str| format!("line {}: {what}: {raw}", i + 1);
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, value, min, max, c_end, r_end] = f.as_slice() else {
            return Err(at("not `name, int|float, value, min, max, c_end, r_end`"));
        };
        let is_float = match *kind {
            "int" => false,
            "float" => true,
            _ => return Err(at("the type is int or float")),
        };
        let num = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(&format!("`{t}` is not a number")))
        };
        let (value, min, max, c_end, r_end) =
            (num(value)?, num(min)?, num(max)?, num(c_end)?, num(r_end)?);
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(at("the name is one word (the option name)"));
        }
        if min > max || value < min || value > max {
            return Err(at("not min <= value <= max"));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(at("c_end and r_end must be above 0"));
        }
        if params.iter().any(|p| p.name == *name) {
            return Err(at("the name is given twice"));
        }
        let n = schedule.iterations as f64;
        params.push(SpsaParam {
            name: (*name).to_string(),
            is_float,
            value,
            start: value,
            min,
            max,
            c_end,
            r_end,
            c_value: c_end * n.powf(schedule.gamma),
            a_value: r_end * c_end * c_end * (schedule.a_ratio * n + n).powf(schedule.alpha),
        });
    }
    if params.is_empty() {
        return Err("no parameter to tune".to_string());
    }
    Ok(params)
}

/// What one iteration plays: the options of dev and of base, and the signs.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Iteration (from 1).
    pub k: u64,
    /// Dev's value of each parameter.
    pub dev: Vec<f64>,
    /// Base's value of each parameter.
    pub base: Vec<f64>,
    /// The sign of each parameter's perturbation.
    pub flips: Vec<f64>,
    /// `c_k` and `r_k` of each parameter.
    pub steps: Vec<(f64, f64)>,
}

/// The random stream of iteration `k` of a run with seed `seed` (the same on a resumed run).
fn iteration_rng(seed: u64, k: u64) -> u64 {
    let mut s = seed ^ k.wrapping_mul(0xA076_1D64_78BD_642F);
    splitmix::next(&mut s)
}

/// A uniform number in `0..1` from the stream.
fn uniform(state: &mut u64) -> f64 {
    (splitmix::next(state) >> 11) as f64 / (1u64 << 53) as f64
}

/// Draws iteration `k`'s perturbation (OpenBench's: integers rounded down after adding one
/// uniform number, the same for dev and base, then clipped).
pub fn perturb(params: &[SpsaParam], s: &Schedule, k: u64, seed: u64) -> Perturbation {
    let mut rng = iteration_rng(seed, k);
    let mut p = Perturbation {
        k,
        dev: Vec::new(),
        base: Vec::new(),
        flips: Vec::new(),
        steps: Vec::new(),
    };
    for param in params {
        let (c, r) = param.step(k, s);
        let flip = if splitmix::next(&mut rng) & 1 == 0 {
            1.0
        } else {
            -1.0
        };
        let (mut dev, mut base) = (param.value + flip * c, param.value - flip * c);
        if !param.is_float {
            let u = uniform(&mut rng);
            dev = (dev + u).floor();
            base = (base + u).floor();
        }
        p.dev.push(dev.clamp(param.min, param.max));
        p.base.push(base.clamp(param.min, param.max));
        p.flips.push(flip);
        p.steps.push((c, r));
    }
    p
}

/// Moves every value by `r_k c_k (wins - losses) d` for dev's `result` over the iteration
/// (kept within `min..=max`).
pub fn update(params: &mut [SpsaParam], p: &Perturbation, result: &Wdl) {
    let score = result.wins as f64 - result.losses as f64;
    for ((param, &flip), &(c, r)) in params.iter_mut().zip(&p.flips).zip(&p.steps) {
        param.value = (param.value + r * c * score * flip).clamp(param.min, param.max);
    }
}

/// The state file's text: the iterations done, then the parameters at their current values
/// (full precision, so that a resumed run goes on exactly).
fn state_text(done: u64, iterations: u64, params: &[SpsaParam]) -> String {
    let mut s =
        format!("# sanqi tune-spsa state\niterations {iterations}\niterations-done {done}\n");
    for p in params {
        s.push_str(&format!("value {} {}\n", p.name, p.value));
    }
    s
}

/// Reads a state file of a run of `iterations` iterations into `params`; gives the iterations
/// done.
fn read_state(text: &str, iterations: u64, params: &mut [SpsaParam]) -> Result<u64, String> {
    let mut done = None;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["iterations", n] => {
                if n.parse::<u64>().ok() != Some(iterations) {
                    return Err(format!(
                        "the state is of a run of {n} iterations, not {iterations} (the schedule \
                         depends on it)"
                    ));
                }
            }
            ["iterations-done", n] => {
                done = Some(n.parse().map_err(|_| format!("bad line: {line}"))?);
            }
            ["value", name, v] => {
                let v: f64 = v.parse().map_err(|_| format!("bad line: {line}"))?;
                let p = params
                    .iter_mut()
                    .find(|p| p.name == *name)
                    .ok_or_else(|| format!("{name} is not in the parameter file"))?;
                if !v.is_finite() || v < p.min || v > p.max {
                    return Err(format!("{name}: {v} is outside its range"));
                }
                p.value = v;
            }
            _ => return Err(format!("bad line: {line}")),
        }
    }
    let done = done.ok_or_else(|| "no iterations-done line".to_string())?;
    if !text.lines().any(|l| l.starts_with("iterations ")) {
        return Err("no iterations line".to_string());
    }
    Ok(done)
}

/// Writes the state file whole, then renames it into place.
fn write_state(
    path: &Path,
    done: u64,
    iterations: u64,
    params: &[SpsaParam],
) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, state_text(done, iterations, params))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write the state file {}: {e}", path.display()))
}

/// The tuner's own flags, taken out of the command line; the rest is `sanqi match`'s.
struct Flags {
    params: Option<PathBuf>,
    iterations: Option<u64>,
    pairs_per: u32,
    alpha: Option<f64>,
    gamma: Option<f64>,
    a_ratio: Option<f64>,
    state: Option<PathBuf>,
    seed: u64,
    rest: Vec<String>,
}

fn split_flags(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags {
        params: None,
        iterations: None,
        pairs_per: 1,
        alpha: None,
        gamma: None,
        a_ratio: None,
        state: None,
        seed: 1,
        rest: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let ours = matches!(
            flag,
            "--params"
                | "--iterations"
                | "--pairs-per"
                | "--alpha"
                | "--gamma"
                | "--a-ratio"
                | "--state"
                | "--spsa-seed"
        );
        if !ours {
            f.rest.push(args[i].clone());
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .filter(|v| !v.starts_with("--"))
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = || format!("{flag}: bad value `{value}`");
        let positive = |v: f64| (v.is_finite() && v > 0.0).then_some(v);
        match flag {
            "--params" => f.params = Some(PathBuf::from(value)),
            "--iterations" => {
                f.iterations = Some(value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?)
            }
            "--pairs-per" => f.pairs_per = value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
            "--alpha" => f.alpha = Some(value.parse().ok().and_then(positive).ok_or_else(bad)?),
            "--gamma" => f.gamma = Some(value.parse().ok().and_then(positive).ok_or_else(bad)?),
            "--a-ratio" => f.a_ratio = Some(value.parse().ok().and_then(positive).ok_or_else(bad)?),
            "--state" => f.state = Some(PathBuf::from(value)),
            _ => f.seed = value.parse().map_err(|_| bad())?,
        }
        i += 2;
    }
    Ok(f)
}

/// The match arguments with the one `--engine` given twice (dev and base).
fn with_two_engines(rest: &[String]) -> Result<Vec<String>, String> {
    let starts: Vec<usize> = (0..rest.len()).filter(|&i| rest[i] == "--engine").collect();
    let [start] = starts.as_slice() else {
        return Err("give exactly one --engine: the engine to tune".to_string());
    };
    let end = (start + 1..rest.len())
        .find(|&i| rest[i].starts_with("--"))
        .unwrap_or(rest.len());
    let mut out = rest.to_vec();
    out.extend_from_slice(&rest[*start..end]);
    Ok(out)
}

/// Starts the engine once and checks that it offers every parameter as an option of that exact
/// name, and for a spin option that `min..max` lies inside the option's range.
fn check_options(config: &MatchConfig, params: &[SpsaParam]) -> Result<(), String> {
    let Some(spec) = config.engines.first() else {
        return Err("no engine".to_string());
    };
    let variant = with_kind!(config.game, G => G::NAME);
    let mut engine = EngineProcess::start(spec, variant, &[], config.referee.ready_timeout)
        .map_err(|e| format!("the engine failed to start: {e}"))?;
    let declared = std::mem::take(&mut engine.declared);
    engine.quit(Duration::from_secs(2));
    for p in params {
        let Some(decl) = declared.iter().find(|d| d.name == p.name) else {
            let near = declared
                .iter()
                .find(|d| {
                    d.name.eq_ignore_ascii_case(&p.name) || d.name.replace(' ', "_") == p.name
                })
                .map(|d| format!(" (it offers `{}`)", d.name))
                .unwrap_or_default();
            return Err(format!(
                "the engine has no option `{}`{near}: tuning it would change nothing",
                p.name
            ));
        };
        if let OptionKind::Spin { min, max, .. } = decl.kind {
            if p.min < min as f64 || p.max > max as f64 {
                return Err(format!(
                    "{}: the range {}..{} is not inside the engine's {min}..{max}",
                    p.name, p.min, p.max
                ));
            }
        }
    }
    Ok(())
}

/// `sanqi tune-spsa`: see the module documentation.
pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let fail = |e: String| {
        eprintln!("sanqi tune-spsa: {e}");
        ExitCode::from(2)
    };
    let flags = match split_flags(args) {
        Ok(f) => f,
        Err(e) => return fail(format!("{e}\n{USAGE}")),
    };
    let (Some(path), Some(iterations)) = (&flags.params, flags.iterations) else {
        return fail(format!("--params and --iterations are needed\n{USAGE}"));
    };
    let mut schedule = Schedule::new(iterations);
    schedule.alpha = flags.alpha.unwrap_or(schedule.alpha);
    schedule.gamma = flags.gamma.unwrap_or(schedule.gamma);
    schedule.a_ratio = flags.a_ratio.unwrap_or(schedule.a_ratio);
    let text = match crate::files::read_bounded_text(path, 1 << 20, "parameter file") {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let mut params = match parse_params(&text, &schedule) {
        Ok(p) => p,
        Err(e) => return fail(format!("{}: {e}", path.display())),
    };
    let mut config = match with_two_engines(&flags.rest).and_then(|a| args::parse(&a)) {
        Ok(args::Parsed::Run(c)) => *c,
        Ok(args::Parsed::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(e),
    };
    if config.sprt.is_some() {
        return fail("--sprt does not go with tune-spsa".to_string());
    }
    let mut done = 0;
    if let Some(state) = flags.state.as_deref().filter(|s| s.exists()) {
        match crate::files::read_bounded_text(state, 1 << 20, "state file")
            .and_then(|t| read_state(&t, iterations, &mut params))
        {
            Ok(d) => done = d,
            Err(e) => return fail(format!("{}: {e}", state.display())),
        }
        println!("resuming after iteration {done} from {}", state.display());
    }
    children::install_signal_handlers();
    if let Err(e) = check_options(&config, &params) {
        return fail(e);
    }
    let [dev, base] = config.engines.as_mut_slice() else {
        return fail("tune-spsa plays two copies of one engine".to_string());
    };
    dev.name = "dev".to_string();
    base.name = "base".to_string();
    config.rounds = flags.pairs_per;
    config.games_per_opening = Some(2);
    config.quiet = true;
    // Each iteration is a match of its own: with a file of openings, in file order every
    // iteration would play the first one. Shuffled with the iteration's seed, each draws its own.
    config.random_order = true;
    let base_options = dev.options.clone();
    let seed = config.seed;
    let mut total = Wdl::default();
    for k in done + 1..=iterations {
        let p = perturb(&params, &schedule, k, flags.seed);
        for (engine, values) in config.engines.iter_mut().zip([&p.dev, &p.base]) {
            engine.options = base_options.clone();
            for (param, &v) in params.iter().zip(values) {
                engine.options.push((param.name.clone(), param.text(v)));
            }
        }
        config.seed = seed.wrapping_add(k);
        let report = match run(&config) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        if children::ending() {
            break;
        }
        let Some(dev) = report.engines.first() else {
            return fail("no result".to_string());
        };
        let wdl = dev.wdl;
        if dev.games != 2 * u64::from(flags.pairs_per) {
            return fail(format!(
                "iteration {k}: {} games finished, {} expected",
                dev.games,
                2 * flags.pairs_per
            ));
        }
        update(&mut params, &p, &wdl);
        total.wins += wdl.wins;
        total.draws += wdl.draws;
        total.losses += wdl.losses;
        if let Some(state) = &flags.state {
            if let Err(e) = write_state(state, k, iterations, &params) {
                return fail(e);
            }
        }
        let values: Vec<String> = params
            .iter()
            .map(|p| format!("{}={:.2}", p.name, p.value))
            .collect();
        println!(
            "iteration {k}/{iterations}: dev +{} ={} -{}  {}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            values.join(" ")
        );
    }
    children::wait_if_ending();
    println!(
        "dev over the run: +{} ={} -{}\nvalues (paste into the defaults, or run again with them):",
        total.wins, total.draws, total.losses
    );
    for p in &params {
        println!("{}", p.line());
    }
    let words: Vec<String> = params
        .iter()
        .map(|p| format!("option.{}={}", p.name, p.text(p.value)))
        .collect();
    println!("as sanqi match engine options: {}", words.join(" "));
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str, n: u64) -> SpsaParam {
        let s = Schedule::new(n);
        parse_params(line, &s).expect("a good line").remove(0)
    }

    #[test]
    fn the_schedule_is_openbench_s() {
        // Reference values from OpenBench's formulas (spsa_utils.py) evaluated in Python:
        // c = 4 * 1000 ** 0.101; a = 0.002 * 4 ** 2 * (0.1 * 1000 + 1000) ** 0.602
        // k = 1:   c_k = c,                 r_k = a / (100 + 1) ** 0.602 / c_k ** 2
        // k = 500: c_k = c / 500 ** 0.101,  r_k = a / (100 + 500) ** 0.602 / c_k ** 2
        let p = one("X, int, 50, 0, 100, 4, 0.002", 1000);
        let s = Schedule::new(1000);
        let (c1, r1) = p.step(1, &s);
        let (c500, r500) = p.step(500, &s);
        let (c_end, r_end) = p.step(1000, &s);
        assert!((c1 - 8.036_371_250).abs() < 1e-6, "{c1}");
        assert!((r1 - 0.002_086_156_69).abs() < 1e-9, "{r1}");
        assert!((c500 - 4.290_066_467).abs() < 1e-6, "{c500}");
        assert!((r500 - 0.002_504_339_94).abs() < 1e-9, "{r500}");
        // At the last iteration c and r reach c_end and r_end.
        assert!((c_end - 4.0).abs() < 1e-9, "{c_end}");
        assert!((r_end - 0.002).abs() < 1e-12, "{r_end}");
        // An integer's perturbation never falls below half a step.
        let small = one("Y, int, 5, 0, 10, 0.1, 0.002", 1000);
        assert_eq!(small.step(1000, &s).0, 0.5);
        let float = one("Z, float, 0.5, 0, 1, 0.01, 0.002", 1000);
        assert!((float.step(1000, &s).0 - 0.01).abs() < 1e-12);
    }

    #[test]
    fn bad_parameter_files_are_refused_with_the_line() {
        let s = Schedule::new(10);
        for (text, why) in [
            ("", "no parameter"),
            ("A, int, 5, 0, 10, 1", "line 1"),
            ("A, long, 5, 0, 10, 1, 0.002", "int or float"),
            ("A, int, 11, 0, 10, 1, 0.002", "min <= value"),
            ("A, int, x, 0, 10, 1, 0.002", "not a number"),
            ("A, int, 5, 0, 10, 0, 0.002", "above 0"),
            (
                "A, int, 5, 0, 10, 1, 0.002\nA, int, 5, 0, 10, 1, 0.002",
                "twice",
            ),
            ("A B, int, 5, 0, 10, 1, 0.002", "one word"),
            ("A, int, 5, 0, 10, 1, NaN", "not a number"),
        ] {
            let e = parse_params(text, &s).expect_err(text);
            assert!(e.contains(why), "{text}: {e}");
        }
        let ok = parse_params("# tuned\n\nA, int, 5, 0, 10, 1, 0.002 # first\n", &s);
        assert_eq!(ok.map(|p| p.len()), Ok(1));
    }

    #[test]
    fn perturbations_are_symmetric_rounded_and_clipped() {
        let s = Schedule::new(100);
        let params = parse_params(
            "A, int, 50, 0, 100, 6, 0.002\nB, int, 1, 0, 100, 6, 0.002\nC, float, 0.5, 0, 1, 0.1, 0.002",
            &s,
        )
        .expect("good lines");
        let mut flips = [0, 0];
        for k in 1..=100 {
            let p = perturb(&params, &s, k, 7);
            assert_eq!(
                p,
                perturb(&params, &s, k, 7),
                "the same seed, the same draw"
            );
            for (i, param) in params.iter().enumerate() {
                let (dev, base) = (p.dev[i], p.base[i]);
                assert!((param.min..=param.max).contains(&dev));
                assert!((param.min..=param.max).contains(&base));
                if !param.is_float {
                    assert_eq!(dev.fract(), 0.0);
                    assert_eq!(base.fract(), 0.0);
                }
            }
            // A, far from its bounds: dev and base sit on either side of the value, by 2 c_k
            // (rounded) in the flip's direction.
            let c = p.steps[0].0;
            let gap = (p.dev[0] - p.base[0]) * p.flips[0];
            assert!((gap - 2.0 * c).abs() <= 1.0 + 1e-9, "{gap} {c}");
            // B near 0 is clipped.
            assert!(p.dev[1] >= 0.0 && p.base[1] >= 0.0);
            flips[usize::from(p.flips[0] > 0.0)] += 1;
        }
        assert!(flips[0] > 30 && flips[1] > 30, "{flips:?}");
    }

    /// Plays one pair between dev and base of a made-up engine whose strength peaks at
    /// `best`: each game is won by the side nearer `best`, with some noise.
    fn synthetic_pair(dev: f64, base: f64, best: f64, rng: &mut u64) -> Wdl {
        let strength = |v: f64| -((v - best) / 20.0).powi(2);
        let mut wdl = Wdl::default();
        for _ in 0..2 {
            let edge = strength(dev) - strength(base);
            let p_dev = 1.0 / (1.0 + (-edge * 2.0).exp());
            let u = uniform(rng);
            if u < 0.3 {
                wdl.draws += 1;
            } else if uniform(rng) < p_dev {
                wdl.wins += 1;
            } else {
                wdl.losses += 1;
            }
        }
        wdl
    }

    #[test]
    fn spsa_walks_a_value_toward_the_strongest() {
        // From 20 and from 180 toward the best value 100 (range 0..200), 3000 pairs each.
        for start in [20, 180] {
            let s = Schedule::new(3000);
            let line = format!("V, int, {start}, 0, 200, 10, 0.002");
            let mut params = parse_params(&line, &s).expect("a good line");
            let mut rng = 99;
            for k in 1..=s.iterations {
                let p = perturb(&params, &s, k, 3);
                let wdl = synthetic_pair(p.dev[0], p.base[0], 100.0, &mut rng);
                update(&mut params, &p, &wdl);
            }
            let end = params[0].value;
            assert!((end - 100.0).abs() < 25.0, "from {start}: ended at {end}");
        }
    }

    #[test]
    fn the_state_round_trips_and_bad_states_are_refused() {
        let s = Schedule::new(10);
        let mut params = parse_params(
            "A, int, 5, 0, 10, 1, 0.002\nB, float, 0.25, 0, 1, 0.1, 0.002",
            &s,
        )
        .expect("good lines");
        params[0].value = 6.123456789;
        let text = state_text(4, 10, &params);
        let mut back = parse_params(
            "A, int, 5, 0, 10, 1, 0.002\nB, float, 0.25, 0, 1, 0.1, 0.002",
            &s,
        )
        .expect("good lines");
        assert_eq!(read_state(&text, 10, &mut back), Ok(4));
        assert_eq!(back, params);
        assert!(
            read_state(&text, 11, &mut back).is_err(),
            "another schedule"
        );
        for bad in [
            "iterations 10\nvalue A 3\n",
            "iterations-done 2\nvalue A 3\n",
            "iterations 10\niterations-done 2\nvalue Q 3\n",
            "iterations 10\niterations-done 2\nvalue A 11\n",
            "iterations 10\niterations-done x\n",
        ] {
            assert!(read_state(bad, 10, &mut back).is_err(), "{bad}");
        }
        assert_eq!(params[0].line(), "A, int, 6, 0, 10, 1, 0.002");
        assert_eq!(params[1].line(), "B, float, 0.25, 0, 1, 0.1, 0.002");
    }

    #[test]
    fn the_one_engine_is_given_twice() {
        let args: Vec<String> = "--game chess --engine cmd=x option.A=1 --nodes 10"
            .split(' ')
            .map(String::from)
            .collect();
        let two = with_two_engines(&args).expect("one engine");
        assert_eq!(
            two.join(" "),
            "--game chess --engine cmd=x option.A=1 --nodes 10 --engine cmd=x option.A=1"
        );
        assert!(with_two_engines(&args[..2]).is_err());
    }
}
