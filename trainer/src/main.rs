//! `sanqi-trainer`: trains a chess or xiangqi network on `sanqi datagen` data (see
//! docs/networks.md).

use std::process::ExitCode;
use std::time::Instant;

use sanqi::game::chess::Chess;
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi_trainer::{load, quantisation_error, train, Mirror, TrainConfig};

const USAGE: &str =
    "usage: sanqi-trainer --game <chess|xiangqi> --data FILE [--data FILE ...] --out NET [options]

Trains a network (the layout of the engine's NNUE: piece-square inputs per perspective, one
hidden layer, squared clipped ReLU, one output) on `sanqi datagen` lines `<fen> | <score> |
<result>` and writes the quantised network file, which `EvalFile` loads and the build embeds
(src/game/<game>/<game>.nnue).

  --game NAME        chess or xiangqi
  --data FILE        a datagen file (repeatable)
  --out FILE         the network file to write
  --limit N          read at most N positions in all (default: all)
  --hidden N         hidden neurons, a multiple of 16 up to 256 (default 128)
  --epochs N         passes over the data (default 10)
  --batch N          positions per mini-batch (default 16384)
  --lr X             Adam's learning rate at the start; cosine decay to 2% (default 0.001)
  --lambda X         share of the search score in the target, the rest the result (default 1)
  --threads N        threads (default 2)
  --seed N           seed of the weights and shuffles (default 1)
  --validation X     share of positions held out for the validation loss (default 0.02)
  --mirror           also train on every position mirrored left to right (xiangqi: all;
                     chess: those without castling rights)";

struct Args {
    game: String,
    data: Vec<String>,
    out: String,
    limit: usize,
    mirror: bool,
    config: TrainConfig,
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args {
        game: String::new(),
        data: Vec::new(),
        out: String::new(),
        limit: usize::MAX,
        mirror: false,
        config: TrainConfig::default(),
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        if flag == "--mirror" {
            a.mirror = true;
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .as_str();
        let num = |v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{flag} takes a number, not '{v}'"))
        };
        let c = &mut a.config;
        match flag.as_str() {
            "--game" => a.game = value.to_string(),
            "--data" => a.data.push(value.to_string()),
            "--out" => a.out = value.to_string(),
            "--limit" => a.limit = num(value)? as usize,
            "--hidden" => c.hidden = num(value)? as usize,
            "--epochs" => c.epochs = num(value)? as usize,
            "--batch" => c.batch = (num(value)? as usize).max(1),
            "--lr" => c.lr = num(value)? as f32,
            "--lambda" => c.lambda = (num(value)? as f32).min(1.0),
            "--threads" => c.threads = (num(value)? as usize).max(1),
            "--seed" => c.seed = num(value)? as u64,
            "--validation" => c.validation = (num(value)? as f32).min(0.5),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if a.data.is_empty() || a.out.is_empty() {
        return Err("--data and --out are needed".to_string());
    }
    if a.config.hidden == 0
        || a.config.hidden % 16 != 0
        || a.config.hidden > sanqi::nnue::MAX_HIDDEN
    {
        return Err(format!(
            "--hidden must be a multiple of 16 from 16 to {}",
            sanqi::nnue::MAX_HIDDEN
        ));
    }
    Ok(Some(a))
}

fn run<G: Game>(a: &Args, mirror: Mirror) -> Result<(), String> {
    let slot = G::nnue().ok_or_else(|| format!("{} has no network", G::NAME))?;
    let start = Instant::now();
    let (mut samples, bad) = load::<G>(&a.data, a.limit, a.mirror.then_some(mirror))?;
    eprintln!(
        "read {} positions, mirrored ones included ({bad} bad lines skipped) in {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    if samples.len() < 100 {
        return Err(format!("too few positions ({})", samples.len()));
    }
    let model = train(&mut samples, slot.inputs, &a.config, &mut |line| {
        eprintln!("{line}")
    });
    let net = model.quantise(G::NAME);
    let check = &samples[samples.len().saturating_sub(2000)..];
    eprintln!(
        "quantisation: mean |float - quantised| = {:.2} cp over {} positions",
        quantisation_error(&model, &net, check),
        check.len()
    );
    std::fs::write(&a.out, net.to_bytes()).map_err(|e| format!("cannot write {}: {e}", a.out))?;
    eprintln!(
        "wrote {} ({} bytes) after {:.0} s",
        a.out,
        net.to_bytes().len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Whether a chess FEN (the position field of a data line) has no castling rights.
fn no_castling_rights(line: &str) -> bool {
    line.split_whitespace().nth(2) == Some("-")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = match parse(&args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("sanqi-trainer: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match a.game.as_str() {
        "chess" => run::<Chess>(
            &a,
            Mirror {
                feature: sanqi::game::chess::nnue::mirror_feature,
                allowed: no_castling_rights,
            },
        ),
        "xiangqi" => run::<Xiangqi>(
            &a,
            Mirror {
                feature: sanqi::game::xiangqi::nnue::mirror_feature,
                allowed: |_| true,
            },
        ),
        other => Err(format!("--game takes chess or xiangqi, not '{other}'")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sanqi-trainer: {e}");
            ExitCode::FAILURE
        }
    }
}
