//! `sanqi tune`: Texel's tuning of a game's evaluation weights (its [`Param`]s, the same the
//! `Chess ...`/`Xiangqi ...`/`CC ...` options expose) on a `sanqi datagen` file.
//!
//! Every position is evaluated with the game's static evaluation ([`Evaluation::evaluate`], turned to
//! the first player's point of view). The data is quiet by construction (no position in check,
//! none whose best move at search time was noisy), which is what Texel's method needs the
//! quiescence search for; the static evaluation is many times cheaper, so more positions and
//! passes fit in the time. The error is the mean of `(target - sigmoid(K * eval))^2` with
//! `sigmoid(x) = 1 / (1 + 10^(-x / 400))` and `target = (1 - lambda) * result + lambda *
//! sigmoid(K * score)`. `K` is fitted first (golden-section search on the evaluations of the
//! starting weights), then kept. The weights are fitted by Texel's coordinate descent: each
//! weight in turn is moved by its step up, then down; a move that lowers the error is kept;
//! a weight whose step found nothing has its step halved; the search ends when a pass at step 1
//! changes nothing (or after `--passes`, or once `--time` has passed). Errors are summed over the
//! positions by `--threads` scoped threads.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;
use std::time::Instant;

use crate::cli::{number, positive};
use crate::game::registry::ConfigOf;
use crate::game::{with_kind, Game, GameConfigs, GameKind};
use crate::tune::Param;

/// Everything `sanqi tune` was asked.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The game.
    pub kind: GameKind,
    /// Its setup (for reading the positions).
    pub configs: GameConfigs,
    /// The datagen file.
    pub data: String,
    /// Threads summing the error.
    pub threads: usize,
    /// The weights to tune (empty: all of the game's).
    pub params: Vec<&'static Param>,
    /// Starting values set before anything else (`--set NAME=VALUE`).
    pub set: Vec<(&'static Param, i32)>,
    /// A fixed K instead of fitting it.
    pub k: Option<f64>,
    /// Weight of the search score in the target (0: game results only).
    pub lambda: f64,
    /// Read at most this many positions.
    pub limit: Option<usize>,
    /// At most this many passes of coordinate descent.
    pub passes: usize,
    /// No new pass after this many seconds.
    pub seconds: Option<f64>,
}

/// The `sanqi tune --help` text.
pub fn usage() -> String {
    format!(
        "usage: sanqi tune --game <{games}> --data FILE [options]

Texel's tuning of the game's evaluation weights (its `{prefixes}` spin options) on a file written
by `sanqi datagen` (`<fen> | <score> | <result>`, score and result from the first player's view;
a result is any number from 0 to 1: 1.0 win, 0.5 draw, 0.0 loss).

Each position is evaluated with the static evaluation (the data holds quiet positions only);
K of sigmoid(K * eval) = 1 / (1 + 10^(-K * eval / 400)) is fitted first, then the weights by
coordinate descent (each weight moved by its step up or down while the mean squared error of
sigmoid(K * eval) against the result falls; steps halve down to 1). Progress goes to stderr;
the tuned values go to stdout, as `setoption name NAME value V` lines and as `NAME, V` lines.

  --game NAME           the game (default {default}); its setup flags are accepted too
  --data FILE           the datagen file (required)
  --threads N           threads summing the error (default 1)
  --param NAME          tune this weight (repeatable; default: every weight of the game)
  --set NAME=VALUE      start this weight from VALUE (repeatable; any registered parameter)
  --k K                 use this K instead of fitting it
  --lambda L            target = (1-L) * result + L * sigmoid(K * score) (default 0: results only)
  --limit N             read only the first N positions
  --passes N            at most N passes over the weights (default 100)
  --time SECONDS        start no new pass after SECONDS (the values so far are printed)",
        games = GameKind::NAMES.join("|"),
        prefixes = "Chess ...|Xiangqi ...|CC ...",
        default = crate::game::registry::DEFAULT_GAME.name(),
    )
}

fn find_param(name: &str) -> Result<&'static Param, String> {
    crate::search::catalog::find_param(name)
        .ok_or_else(|| format!("no parameter named '{}'", name.trim()))
}

/// The parameter `name`, which must be a weight of `kind`'s evaluation (`--param`).
fn weight_of(kind: GameKind, name: &str) -> Result<&'static Param, String> {
    let p = find_param(name)?;
    if !kind.params().iter().any(|q| std::ptr::eq(*q, p)) {
        return Err(format!(
            "'{}' is not a weight of {}'s evaluation",
            p.option_name(),
            kind.name()
        ));
    }
    Ok(p)
}

/// The parameter and its start value of `--set NAME=VALUE`, checked to be within its range.
fn parse_set(text: &str) -> Result<(&'static Param, i32), String> {
    let (name, v) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("--set takes NAME=VALUE, not '{text}'"))?;
    let p = find_param(name)?;
    let v: i32 = v.trim().parse().map_err(|_| {
        format!(
            "--set {}: '{}' is not an integer",
            p.option_name(),
            v.trim()
        )
    })?;
    if v < p.min || v > p.max {
        return Err(format!(
            "--set {}: {v} is out of range {}..{}",
            p.option_name(),
            p.min,
            p.max
        ));
    }
    Ok((p, v))
}

/// Reads the command line (after `tune`). `Ok(None)`: `--help` was asked.
pub fn parse_args(args: &[String]) -> Result<Option<TuneConfig>, String> {
    if crate::cli::asks_help(args) {
        return Ok(None);
    }
    let kind = crate::cli::game_arg(args)?;
    let mut c = TuneConfig {
        kind,
        configs: GameConfigs::default(),
        data: String::new(),
        threads: 1,
        params: Vec::new(),
        set: Vec::new(),
        k: None,
        lambda: 0.0,
        limit: None,
        passes: 100,
        seconds: None,
    };
    crate::cli::read_tool_flags(args, kind, &mut c.configs, |flag, value| {
        match flag {
            "--data" => {
                c.data = value
                    .filter(|v| !v.is_empty())
                    .ok_or("--data needs a file name")?
                    .clone()
            }
            "--threads" => c.threads = positive::<usize>(flag, value)?.min(256),
            "--param" => {
                let p = weight_of(kind, value.ok_or("--param needs a parameter name")?)?;
                if !c.params.iter().any(|q| std::ptr::eq(*q, p)) {
                    c.params.push(p);
                }
            }
            "--set" => c
                .set
                .push(parse_set(value.ok_or("--set needs NAME=VALUE")?)?),
            "--k" => {
                let k: f64 = number(flag, value)?;
                if !(k > 0.0 && k.is_finite()) {
                    return Err("--k must be a positive number".into());
                }
                c.k = Some(k);
            }
            "--lambda" => {
                let l: f64 = number(flag, value)?;
                if !(0.0..=1.0).contains(&l) {
                    return Err("--lambda takes a number from 0 to 1".into());
                }
                c.lambda = l;
            }
            "--limit" => c.limit = Some(positive(flag, value)?),
            "--passes" => c.passes = number(flag, value)?,
            "--time" => {
                let t: f64 = number(flag, value)?;
                if !(t > 0.0 && t.is_finite()) {
                    return Err("--time takes a positive number of seconds".into());
                }
                c.seconds = Some(t);
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(true)
    })?;
    if c.data.is_empty() {
        return Err("--data FILE is required".into());
    }
    if c.params.is_empty() {
        c.params = kind.params().to_vec();
    }
    if c.params.is_empty() {
        return Err(format!("{} has no tunable weights", kind.name()));
    }
    Ok(Some(c))
}

/// `sanqi tune ...`: returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    let config = match crate::cli::tool_config("tune", parse_args(args), usage) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let result = with_kind!(config.kind, G => run::<G>(&config));
    match result {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sanqi tune: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One line of a datagen file: (position string, score, result), both from the first player's
/// view. Blank lines and `#` comments give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<(&str, f64, f64)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `<fen> | <score> | <result>`".into());
    };
    let score: f64 = score
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite())
        .ok_or_else(|| format!("bad score '{score}'"))?;
    let result: f64 = result
        .parse()
        .ok()
        .filter(|r| (0.0..=1.0).contains(r))
        .ok_or_else(|| format!("bad result '{result}' (a number from 0 to 1)"))?;
    Ok(Some((fen, score, result)))
}

/// A loaded position.
struct Sample<G> {
    pos: G,
    score: f64,
    result: f64,
}

fn load<G: Game>(config: &TuneConfig, game_config: &G::Config) -> Result<Vec<Sample<G>>, String> {
    let file = File::open(&config.data).map_err(|e| format!("cannot open {}: {e}", config.data))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        if config.limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        let line = line.map_err(|e| format!("{}: line {}: {e}", config.data, i + 1))?;
        let Some((fen, score, result)) =
            parse_line(&line).map_err(|e| format!("{}: line {}: {e}", config.data, i + 1))?
        else {
            continue;
        };
        let pos = G::from_fen(fen, game_config)
            .map_err(|e| format!("{}: line {}: bad position: {e}", config.data, i + 1))?;
        out.push(Sample { pos, score, result });
    }
    if out.is_empty() {
        return Err(format!("no positions in {}", config.data));
    }
    Ok(out)
}

/// The evaluation from the first player's point of view.
fn eval_first<G: Game>(pos: &G) -> f64 {
    let v = f64::from(pos.evaluate());
    if pos.side_to_move() == 0 {
        v
    } else {
        -v
    }
}

/// `1 / (1 + 10^(-k * x / 400))`.
pub fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

/// Mean squared error of `sigmoid(k * eval)` against the targets, evaluations given.
fn error_of_evals(evals: &[f64], targets: &[f64], k: f64) -> f64 {
    let sum: f64 = evals
        .iter()
        .zip(targets)
        .map(|(&e, &t)| (t - sigmoid(k, e)).powi(2))
        .sum();
    sum / evals.len().max(1) as f64
}

/// The K that minimises the error (golden-section search over 0.01..10).
pub fn fit_k(evals: &[f64], results: &[f64], scores: &[f64], lambda: f64) -> f64 {
    let err = |k: f64| {
        let targets: Vec<f64> = results
            .iter()
            .zip(scores)
            .map(|(&r, &s)| (1.0 - lambda) * r + lambda * sigmoid(k, s))
            .collect();
        error_of_evals(evals, &targets, k)
    };
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (err(c), err(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = err(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = err(d);
        }
    }
    (a + b) / 2.0
}

/// The error over every sample with the current weights, summed by `threads` threads.
fn error<G: Game>(samples: &[Sample<G>], targets: &[f64], k: f64, threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let sum: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .zip(targets.chunks(chunk))
            .map(|(s, t)| {
                scope.spawn(move || {
                    s.iter()
                        .zip(t)
                        .map(|(x, &t)| (t - sigmoid(k, eval_first(&x.pos))).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    sum / samples.len().max(1) as f64
}

/// Runs the tuning; returns the report for stdout (progress goes to stderr). The parameters are
/// left at their tuned values.
pub fn run<G: Game>(config: &TuneConfig) -> Result<String, String>
where
    GameConfigs: ConfigOf<G>,
{
    // Texel's method fits the hand-written weights: the networks stay out of it.
    crate::nnue::set_enabled(false);
    let start = Instant::now();
    for &(p, v) in &config.set {
        p.set(i64::from(v))?;
    }
    let samples = load::<G>(config, config.configs.get::<G>())?;
    eprintln!(
        "tune: {} positions of {} from {} read in {:.1} s; {} weights",
        samples.len(),
        config.kind.name(),
        config.data,
        start.elapsed().as_secs_f64(),
        config.params.len()
    );
    let results: Vec<f64> = samples.iter().map(|s| s.result).collect();
    let scores: Vec<f64> = samples.iter().map(|s| s.score).collect();
    let k = match config.k {
        Some(k) => k,
        None => {
            let evals: Vec<f64> = samples.iter().map(|s| eval_first(&s.pos)).collect();
            fit_k(&evals, &results, &scores, config.lambda)
        }
    };
    let targets: Vec<f64> = results
        .iter()
        .zip(&scores)
        .map(|(&r, &s)| (1.0 - config.lambda) * r + config.lambda * sigmoid(k, s))
        .collect();
    let threads = config.threads;
    let mut best = error(&samples, &targets, k, threads);
    let initial = best;
    eprintln!("tune: K = {k:.4}, error {best:.7} with the starting weights");
    let params = &config.params;
    let mut steps: Vec<i32> = params.iter().map(|p| p.step.max(1)).collect();
    for pass in 1..=config.passes {
        let mut changed = 0;
        for (p, step) in params.iter().zip(steps.iter_mut()) {
            let current = p.get();
            let mut improved = false;
            for dir in [1, -1] {
                let v = (i64::from(current) + i64::from(dir * *step))
                    .clamp(i64::from(p.min), i64::from(p.max));
                if v == i64::from(current) {
                    continue;
                }
                p.set(v)?;
                let e = error(&samples, &targets, k, threads);
                if e < best {
                    best = e;
                    improved = true;
                    break;
                }
                p.set(i64::from(current))?;
            }
            if improved {
                changed += 1;
            } else {
                *step = (*step / 2).max(1);
            }
        }
        eprintln!(
            "tune: pass {pass}: error {best:.7}, {changed} weights changed, {:.1} s",
            start.elapsed().as_secs_f64()
        );
        if changed == 0 && steps.iter().all(|&s| s == 1) {
            break;
        }
        if config
            .seconds
            .is_some_and(|t| start.elapsed().as_secs_f64() >= t)
        {
            eprintln!("tune: --time reached, stopping after pass {pass}");
            break;
        }
    }
    eprintln!(
        "tune: done in {:.1} s: error {initial:.7} -> {best:.7} (K = {k:.4})",
        start.elapsed().as_secs_f64()
    );
    let mut out = String::new();
    out.push_str(&format!(
        "# {} positions, K {k:.4}, error {initial:.7} -> {best:.7}\n",
        samples.len()
    ));
    for p in params {
        out.push_str(&format!(
            "setoption name {} value {}\n",
            p.option_name(),
            p.get()
        ));
    }
    for p in params {
        out.push_str(&format!("{}, {}\n", p.option_name(), p.get()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_and_bad_ones_named() {
        assert_eq!(
            parse_line("8/8/8 w - - 0 1 | -35 | 0.5"),
            Ok(Some(("8/8/8 w - - 0 1", -35.0, 0.5)))
        );
        assert_eq!(parse_line("  "), Ok(None));
        assert_eq!(parse_line("# comment"), Ok(None));
        assert!(parse_line("fen | 1").is_err());
        assert!(parse_line("fen | x | 1.0").is_err());
        assert!(parse_line("fen | 1 | 2.0").is_err());
        assert!(parse_line("fen | 1 | 1.0 | 3").is_err());
    }

    #[test]
    fn k_is_recovered_from_exact_probabilities() {
        let evals: Vec<f64> = (-200..=200).map(|i| f64::from(i) * 4.0).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(1.3, e)).collect();
        let k = fit_k(&evals, &results, &evals, 0.0);
        assert!((k - 1.3).abs() < 1e-3, "{k}");
    }
}
