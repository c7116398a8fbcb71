//! A small multi-threaded CPU trainer for sanqi's networks (the layout of [`sanqi::nnue`]):
//! reads `sanqi datagen` text data (`<fen> | <score> | <result>`, both from the first player's
//! view), fits the float network by Adam on the squared error of `sigmoid(output)` against
//! `lambda * sigmoid(score / 400) + (1 - lambda) * result` (side to move's view), and writes the
//! quantised network file that the engine embeds or loads with `EvalFile`.
//!
//! The gradient of each mini-batch is summed by `threads` scoped threads, each over its share
//! of the batch, into its own buffers; the main thread adds them up and takes the Adam step.

use std::io::{BufRead, BufReader};
use std::sync::Arc;
use std::time::Instant;

use sanqi::game::prelude::*;
use sanqi::nnue::{Network, QA, QB, SCALE};

/// Pieces a position may hold (chess and xiangqi: 32).
pub const MAX_PIECES: usize = 32;
/// Trained weights stay within +-this, so the quantised products fit (see [`sanqi::nnue`]).
pub const WEIGHT_CLIP: f32 = 1.98;
/// Piece-square weights stay within +-this (in units of 400 centipawns).
pub const PSQT_CLIP: f32 = 16.0;

/// One training position: the side to move's features, then the other side's, and the target.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Feature indices: `[0..count]` seen from the side to move, `[32..32 + count]` from the
    /// other side.
    pub features: [u16; 2 * MAX_PIECES],
    /// Number of pieces.
    pub count: u8,
    /// The search score, side to move's view, in centipawns.
    pub score: f32,
    /// The game result, side to move's view (1, 0.5, 0).
    pub result: f32,
}

impl Sample {
    /// The training target for `lambda` (the share of the search score).
    #[inline]
    pub fn target(&self, lambda: f32) -> f32 {
        lambda * sigmoid(self.score / SCALE as f32) + (1.0 - lambda) * self.result
    }
    /// The side to move's features.
    pub fn us(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }
    /// The other side's features.
    pub fn them(&self) -> &[u16] {
        &self.features[MAX_PIECES..MAX_PIECES + self.count as usize]
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Parses one data line of game `G` into a sample.
pub fn parse_line<G: Game>(line: &str) -> Result<Sample, String> {
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("not `<fen> | <score> | <result>`".to_string());
    };
    let pos = G::from_fen(fen, &G::Config::default()).map_err(|e| e.to_string())?;
    let score: f32 = score.parse().map_err(|_| format!("bad score '{score}'"))?;
    let result: f32 = result
        .parse()
        .map_err(|_| format!("bad result '{result}'"))?;
    if !(0.0..=1.0).contains(&result) || !score.is_finite() {
        return Err(format!("score {score} or result {result} out of range"));
    }
    let mut feats = Vec::with_capacity(MAX_PIECES);
    pos.nnue_features(&mut feats);
    if feats.len() > MAX_PIECES {
        return Err(format!("{} pieces, at most {MAX_PIECES}", feats.len()));
    }
    let stm = pos.side_to_move() & 1;
    let mut s = Sample {
        features: [0; 2 * MAX_PIECES],
        count: feats.len() as u8,
        score: if stm == 0 { score } else { -score },
        result: if stm == 0 { result } else { 1.0 - result },
    };
    for (i, f) in feats.iter().enumerate() {
        s.features[i] = f[stm] as u16;
        s.features[MAX_PIECES + i] = f[stm ^ 1] as u16;
    }
    Ok(s)
}

/// How a game mirrors its positions for training: the mirrored feature of a feature, and
/// whether a position string may be mirrored (chess: only without castling rights).
#[derive(Clone, Copy)]
pub struct Mirror {
    /// The feature of the mirrored piece.
    pub feature: fn(usize) -> usize,
    /// Whether the position (its FEN) may be mirrored.
    pub allowed: fn(&str) -> bool,
}

impl Sample {
    /// The sample of the mirrored position.
    pub fn mirrored(&self, m: &Mirror) -> Sample {
        let mut s = *self;
        let n = self.count as usize;
        for i in (0..n).chain(MAX_PIECES..MAX_PIECES + n) {
            s.features[i] = (m.feature)(usize::from(self.features[i])) as u16;
        }
        s
    }
}

/// Reads every data file (at most `limit` positions in all, before mirroring); bad lines are
/// counted and skipped. With `mirror`, every position that may be mirrored is added mirrored too.
pub fn load<G: Game>(
    paths: &[String],
    limit: usize,
    mirror: Option<Mirror>,
) -> Result<(Vec<Sample>, usize), String> {
    let mut out = Vec::new();
    let mut bad = 0;
    let mut read = 0;
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        for line in BufReader::new(file).lines() {
            if read >= limit {
                return Ok((out, bad));
            }
            let line = line.map_err(|e| format!("reading {path}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            match parse_line::<G>(&line) {
                Ok(s) => {
                    read += 1;
                    out.push(s);
                    if let Some(m) = mirror.filter(|m| (m.allowed)(&line)) {
                        out.push(s.mirrored(&m));
                    }
                }
                Err(_) => bad += 1,
            }
        }
    }
    Ok((out, bad))
}

/// The float network.
#[derive(Clone, Debug)]
pub struct Model {
    /// Input features per perspective.
    pub inputs: usize,
    /// Hidden neurons.
    pub hidden: usize,
    /// `inputs x hidden`, input-major.
    pub ft_w: Vec<f32>,
    /// `hidden`.
    pub ft_b: Vec<f32>,
    /// `2 x hidden`: side to move, then the other side.
    pub out_w: Vec<f32>,
    /// Output bias.
    pub out_b: f32,
    /// `inputs` piece-square weights: the output adds half the own view's sum minus half the
    /// other view's.
    pub psqt: Vec<f32>,
}

/// A small deterministic generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `[-1, 1)`.
    pub fn uniform(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

impl Model {
    /// A randomly initialised network.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let ft_w = (0..inputs * hidden).map(|_| 0.1 * rng.uniform()).collect();
        let ft_b = (0..hidden).map(|_| 0.1 + 0.05 * rng.uniform()).collect();
        let scale = 1.0 / (2.0 * hidden as f32).sqrt();
        let out_w = (0..2 * hidden).map(|_| scale * rng.uniform()).collect();
        Model {
            inputs,
            hidden,
            ft_w,
            ft_b,
            out_w,
            out_b: 0.0,
            psqt: vec![0.0; inputs],
        }
    }

    fn accumulate(&self, feats: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_b);
        for &f in feats {
            let row = &self.ft_w[f as usize * h..f as usize * h + h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The network's output (in units of [`SCALE`] centipawns) for a sample.
    pub fn output(&self, s: &Sample) -> f32 {
        let h = self.hidden;
        let mut us = vec![0.0; h];
        let mut them = vec![0.0; h];
        self.accumulate(s.us(), &mut us);
        self.accumulate(s.them(), &mut them);
        let act = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            c * c
        };
        let mut out = self.out_b + self.psqt_term(s);
        for j in 0..h {
            out += act(us[j]) * self.out_w[j] + act(them[j]) * self.out_w[h + j];
        }
        out
    }

    /// The piece-square part of the output.
    fn psqt_term(&self, s: &Sample) -> f32 {
        let sum = |fs: &[u16]| fs.iter().map(|&f| self.psqt[usize::from(f)]).sum::<f32>();
        0.5 * (sum(s.us()) - sum(s.them()))
    }

    /// The quantised network for `game` (see [`sanqi::nnue`]).
    pub fn quantise(&self, game: &str) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        Network {
            game: game.to_string(),
            inputs: self.inputs,
            hidden: self.hidden,
            ft_weights: self.ft_w.iter().map(|&w| q(w, QA)).collect(),
            ft_bias: self.ft_b.iter().map(|&w| q(w, QA)).collect(),
            out_weights: self.out_w.iter().map(|&w| q(w, QB)).collect(),
            out_bias: (self.out_b * (QA * QB) as f32).round() as i32,
            psqt: self
                .psqt
                .iter()
                .map(|&w| (w * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    fn len(&self) -> usize {
        self.ft_w.len() + self.ft_b.len() + self.out_w.len() + 1 + self.psqt.len()
    }

    /// Every weight in one order (feature weights, biases, output weights, output bias).
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_w
            .iter_mut()
            .chain(self.ft_b.iter_mut())
            .chain(self.out_w.iter_mut())
            .chain(std::iter::once(&mut self.out_b))
            .chain(self.psqt.iter_mut())
    }
}

/// The gradient (same shapes as [`Model`]) and the summed loss of part of a batch.
struct Grad {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    psqt: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn new(m: &Model) -> Grad {
        Grad {
            ft_w: vec![0.0; m.ft_w.len()],
            ft_b: vec![0.0; m.ft_b.len()],
            out_w: vec![0.0; m.out_w.len()],
            out_b: 0.0,
            psqt: vec![0.0; m.psqt.len()],
            loss: 0.0,
        }
    }
    fn clear(&mut self) {
        self.ft_w.fill(0.0);
        self.ft_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b = 0.0;
        self.psqt.fill(0.0);
        self.loss = 0.0;
    }
    fn add(&mut self, o: &Grad) {
        for (a, b) in self.ft_w.iter_mut().zip(&o.ft_w) {
            *a += b;
        }
        for (a, b) in self.ft_b.iter_mut().zip(&o.ft_b) {
            *a += b;
        }
        for (a, b) in self.out_w.iter_mut().zip(&o.out_w) {
            *a += b;
        }
        self.out_b += o.out_b;
        for (a, b) in self.psqt.iter_mut().zip(&o.psqt) {
            *a += b;
        }
        self.loss += o.loss;
    }
    fn values(&self) -> impl Iterator<Item = f32> + '_ {
        self.ft_w
            .iter()
            .chain(&self.ft_b)
            .chain(&self.out_w)
            .copied()
            .chain(std::iter::once(self.out_b))
            .chain(self.psqt.iter().copied())
    }
}

/// Adds the loss and gradient of `samples` to `g`; with `learn` false only the loss.
fn backprop(m: &Model, samples: &[&Sample], lambda: f32, g: &mut Grad, learn: bool) {
    let h = m.hidden;
    let mut us = vec![0.0f32; h];
    let mut them = vec![0.0f32; h];
    let mut d_us = vec![0.0f32; h];
    let mut d_them = vec![0.0f32; h];
    for s in samples {
        m.accumulate(s.us(), &mut us);
        m.accumulate(s.them(), &mut them);
        let mut out = m.out_b + m.psqt_term(s);
        for j in 0..h {
            let a = us[j].clamp(0.0, 1.0);
            let b = them[j].clamp(0.0, 1.0);
            out += a * a * m.out_w[j] + b * b * m.out_w[h + j];
        }
        let p = sigmoid(out);
        let err = p - s.target(lambda);
        g.loss += f64::from(err * err);
        if !learn {
            continue;
        }
        let d = 2.0 * err * p * (1.0 - p);
        g.out_b += d;
        for &f in s.us() {
            g.psqt[usize::from(f)] += 0.5 * d;
        }
        for &f in s.them() {
            g.psqt[usize::from(f)] -= 0.5 * d;
        }
        for j in 0..h {
            let a = us[j].clamp(0.0, 1.0);
            let b = them[j].clamp(0.0, 1.0);
            g.out_w[j] += d * a * a;
            g.out_w[h + j] += d * b * b;
            d_us[j] = if us[j] > 0.0 && us[j] < 1.0 {
                2.0 * d * m.out_w[j] * a
            } else {
                0.0
            };
            d_them[j] = if them[j] > 0.0 && them[j] < 1.0 {
                2.0 * d * m.out_w[h + j] * b
            } else {
                0.0
            };
            g.ft_b[j] += d_us[j] + d_them[j];
        }
        for (feats, d) in [(s.us(), &d_us), (s.them(), &d_them)] {
            for &f in feats {
                let row = &mut g.ft_w[f as usize * h..f as usize * h + h];
                for (r, x) in row.iter_mut().zip(d.iter()) {
                    *r += x;
                }
            }
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Hidden neurons (a multiple of 16, at most 256).
    pub hidden: usize,
    /// Passes over the training data.
    pub epochs: usize,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Adam's learning rate at the start (it falls along a cosine to 2% of it at the end).
    pub lr: f32,
    /// The share of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Threads summing each batch's gradient.
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// The share of the positions held out to measure the validation loss.
    pub validation: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 128,
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            lambda: 1.0,
            threads: 2,
            seed: 1,
            validation: 0.02,
        }
    }
}

/// The mean loss of `model` over `samples` (summed by `threads` threads).
pub fn mean_loss(model: &Model, samples: &[Sample], lambda: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let refs: Vec<&Sample> = samples.iter().collect();
    let chunk = refs.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = refs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut g = Grad {
                        ft_w: Vec::new(),
                        ft_b: Vec::new(),
                        out_w: Vec::new(),
                        out_b: 0.0,
                        psqt: Vec::new(),
                        loss: 0.0,
                    };
                    backprop(model, part, lambda, &mut g, false);
                    g.loss
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f64
}

/// Trains a network on `samples` (shuffled in place; the last `validation` share is held out),
/// reporting each epoch through `log`.
pub fn train(
    samples: &mut [Sample],
    inputs: usize,
    config: &TrainConfig,
    log: &mut dyn FnMut(String),
) -> Model {
    let mut rng = Rng::new(config.seed);
    for i in (1..samples.len()).rev() {
        samples.swap(i, rng.below(i + 1));
    }
    let held = ((samples.len() as f32 * config.validation) as usize).min(samples.len() / 2);
    let (train_set, valid_set) = samples.split_at_mut(samples.len() - held);
    let mut model = Model::new(inputs, config.hidden, config.seed);
    let n = model.len();
    let (mut m1, mut m2) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let threads = config.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(&model)).collect();
    let mut step = 0i32;
    let start = Instant::now();
    for epoch in 0..config.epochs {
        let progress = epoch as f32 / config.epochs.max(1) as f32;
        let lr = config.lr * (0.02 + 0.98 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        for i in (1..train_set.len()).rev() {
            train_set.swap(i, rng.below(i + 1));
        }
        let mut epoch_loss = 0.0f64;
        for batch in train_set.chunks(config.batch.max(1)) {
            let refs: Vec<&Sample> = batch.iter().collect();
            let chunk = refs.len().div_ceil(threads);
            let shared = &model;
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(refs.chunks(chunk)) {
                    scope.spawn(move || {
                        g.clear();
                        backprop(shared, part, config.lambda, g, true);
                    });
                }
            });
            let parts = refs.chunks(chunk).count();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(parts - 1) {
                first[0].add(g);
            }
            let total = &first[0];
            epoch_loss += total.loss;
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            for (((w, gv), a), b) in model
                .params_mut()
                .zip(total.values())
                .zip(m1.iter_mut())
                .zip(m2.iter_mut())
            {
                let gv = gv * scale;
                *a = beta1 * *a + (1.0 - beta1) * gv;
                *b = beta2 * *b + (1.0 - beta2) * gv * gv;
                *w -= lr * (*a / c1) / ((*b / c2).sqrt() + eps);
            }
            // Clip what the quantisation needs clipped (not the piece-square weights, which
            // are i32).
            for w in model
                .ft_w
                .iter_mut()
                .chain(model.ft_b.iter_mut())
                .chain(model.out_w.iter_mut())
            {
                *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
            for w in model.psqt.iter_mut() {
                *w = w.clamp(-PSQT_CLIP, PSQT_CLIP);
            }
        }
        let valid = mean_loss(&model, valid_set, config.lambda, threads);
        log(format!(
            "epoch {}/{}: lr {lr:.6}, train loss {:.6}, validation loss {valid:.6}, {:.0} s",
            epoch + 1,
            config.epochs,
            epoch_loss / train_set.len().max(1) as f64,
            start.elapsed().as_secs_f64()
        ));
    }
    model
}

/// The mean absolute difference in centipawns between the float and the quantised network over
/// `samples` (a check of the quantisation).
pub fn quantisation_error(model: &Model, net: &Network, samples: &[Sample]) -> f64 {
    let net = Arc::new(net.clone());
    let mut sum = 0.0;
    for s in samples {
        let float = model.output(s) * SCALE as f32;
        let feats = s
            .us()
            .iter()
            .zip(s.them())
            .map(|(&a, &b)| [usize::from(a), usize::from(b)]);
        let quant = sanqi::nnue::evaluate_from_scratch(&net, feats, 0);
        sum += f64::from((float - quant as f32).abs());
    }
    sum / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use sanqi::game::chess::Chess;

    fn samples() -> Vec<Sample> {
        [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 35 | 1.0",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1 | 880 | 1.0",
            "8/5k2/8/3p4/8/2N5/5PK1/8 w - - 0 1 | 150 | 0.5",
            "8/1kp4p/4P1p1/2Pn4/p7/8/2K2P1P/8 b - - 3 42 | -456 | 0.0",
        ]
        .iter()
        .map(|l| parse_line::<Chess>(l).unwrap())
        .collect()
    }

    #[test]
    fn lines_are_read_from_the_side_to_moves_view() {
        let s = samples();
        assert_eq!((s[0].score, s[0].result, s[0].count), (35.0, 1.0, 32));
        // Black to move: White's +880 and White's win are Black's -880 and loss.
        assert_eq!((s[1].score, s[1].result, s[1].count), (-880.0, 0.0, 31));
        assert_eq!((s[3].score, s[3].result), (456.0, 1.0));
        assert!(parse_line::<Chess>("8/8/8/8/8/8/8/8 w - - 0 1 | 1 | 0.5").is_err());
        assert!(parse_line::<Chess>("startpos | x | 0.5").is_err());
        assert!(parse_line::<Chess>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 2"
        )
        .is_err());
    }

    #[test]
    fn backprop_matches_the_numerical_gradient() {
        let s = samples();
        let refs: Vec<&Sample> = s.iter().collect();
        let mut m = Model::new(768, 16, 7);
        m.out_b = 0.1;
        let mut rng = Rng::new(5);
        for w in m.psqt.iter_mut() {
            *w = 0.3 * rng.uniform();
        }
        let mut g = Grad::new(&m);
        backprop(&m, &refs, 0.5, &mut g, true);
        let analytic: Vec<f32> = g.values().collect();
        let loss = |m: &Model| {
            let mut g = Grad::new(m);
            backprop(m, &refs, 0.5, &mut g, false);
            g.loss
        };
        // Weights that the samples touch: a feature row in use, biases, output weights.
        let f = usize::from(s[0].features[3]) * 16;
        let n_ft = m.ft_w.len();
        let n_psqt = m.len() - m.psqt.len();
        let picks = [
            f,
            f + 5,
            n_ft,
            n_ft + 7,
            n_ft + 16,
            n_ft + 16 + 20,
            n_psqt - 1,
            n_psqt + usize::from(s[0].features[3]),
            n_psqt + usize::from(s[0].features[MAX_PIECES + 3]),
        ];
        for &i in &picks {
            let eps = 1e-3f32;
            let mut plus = m.clone();
            *plus.params_mut().nth(i).unwrap() += eps;
            let mut minus = m.clone();
            *minus.params_mut().nth(i).unwrap() -= eps;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(eps));
            let a = f64::from(analytic[i]);
            assert!(
                (numeric - a).abs() <= 1e-3 + 0.05 * a.abs(),
                "weight {i}: numeric {numeric}, backprop {a}"
            );
        }
    }

    #[test]
    fn the_quantised_network_matches_the_float_one() {
        let s = samples();
        let mut m = Model::new(768, 32, 3);
        m.out_b = 0.05;
        let mut rng = Rng::new(9);
        for w in m.psqt.iter_mut() {
            *w = 2.0 * rng.uniform();
        }
        let net = m.quantise("chess");
        // Rounding each weight to 1/255 and 1/64 moves the output by a few centipawns at most.
        let err = quantisation_error(&m, &net, &s);
        assert!(err < 5.0, "{err}");
        // And the file the engine reads gives the same values.
        let back = sanqi::nnue::Network::for_game(&net.to_bytes(), "chess", 768).unwrap();
        assert_eq!(back, net);
    }

    #[test]
    fn training_lowers_the_loss() {
        let mut s: Vec<Sample> = samples().into_iter().cycle().take(400).collect();
        let config = TrainConfig {
            hidden: 16,
            epochs: 30,
            batch: 64,
            lr: 0.01,
            validation: 0.0,
            ..TrainConfig::default()
        };
        let before = mean_loss(&Model::new(768, 16, config.seed), &s, config.lambda, 1);
        let m = train(&mut s, 768, &config, &mut |_| {});
        let after = mean_loss(&m, &s, config.lambda, 1);
        assert!(after < before / 4.0, "{before} -> {after}");
    }
}
