//! The efficiently updatable neural network (NNUE) that chess and xiangqi evaluate with: its
//! layout, its file format, and the accumulator that make/undo keep up to date. Game-agnostic
//! (a leaf like [`crate::tune`]): each game says which input features a position has
//! (`src/game/chess/nnue.rs`, `src/game/xiangqi/nnue.rs`) and calls these functions.
//!
//! **Layout** (the shape of the field's first nets): `inputs` sparse 0/1 piece-square features
//! per perspective (768 in chess: 2 colours x 6 kinds x 64 squares; 1260 in xiangqi: 2 x 7 x
//! 90), seen from each side ("own"/"their" pieces, the board flipped for the second side); one
//! hidden layer of `hidden` neurons shared by both perspectives (the feature transformer); the
//! squared clipped ReLU `clamp(x, 0, 1)^2`; one output from the side to move's half and the
//! other side's half concatenated, plus a linear piece-square term straight from the inputs
//! (as Stockfish's networks have: `(psqt(own view) - psqt(other view)) / 2`, which learns
//! material and placement from little data and leaves the hidden layer the rest). The evaluation
//! is `output * SCALE` centipawns.
//!
//! **Quantisation**: feature weights and biases are `i16` at scale [`QA`] (255, so the clamp is
//! to `0..=QA`); output weights are `i16` at scale [`QB`] (64); the output bias is `i32` at
//! `QA * QB`, and so are the piece-square weights (`i32`). With `clamp(a) * w` kept within `i16`
//! (trained weights are clipped to +-1.98) the sum `clamp(a) * w * clamp(a)` over one half's
//! `hidden <= 256` terms fits in `i32` (at most 256 x 255 x 255 x 127 < 2^31); the two halves are
//! added in `i64`.
//!
//! **File format** (little-endian), written by the trainer (`trainer/`) and read by
//! [`Network::from_bytes`]:
//!
//! | bytes | content |
//! |---|---|
//! | 4 | magic `SQNN` |
//! | 4 | format version, `u32` = 2 |
//! | 1 + n | game name: length `u8`, then the name (`chess`, `xiangqi`) |
//! | 4 + 4 | `inputs`, `hidden` (`u32`; `hidden` a multiple of 16, at most 256) |
//! | 2 x inputs x hidden | feature weights `i16`, input-major (the `hidden` weights of input 0 first) |
//! | 2 x hidden | feature biases `i16` |
//! | 2 x 2 x hidden | output weights `i16`: side to move's half, then the other side's |
//! | 4 | output bias `i32` |
//! | 4 x inputs | piece-square weights `i32` |

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Once};

use arrayvec::ArrayVec;
use parking_lot::RwLock;

mod simd;
pub use simd::{scalar, Kernel};

/// Quantisation scale of the feature transformer (and the clamp of the activation).
pub const QA: i32 = 255;
/// Quantisation scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The largest hidden layer the format allows (so that each half's output sum fits in `i32`).
pub const MAX_HIDDEN: usize = 256;
const MAGIC: &[u8; 4] = b"SQNN";
/// The largest number of inputs a network file may declare.
const MAX_INPUTS: usize = 1 << 16;
/// The longest network file the format allows (largest name, inputs and hidden layer); a longer
/// file is refused before it is read.
pub const MAX_FILE_BYTES: u64 = (4
    + 4
    + 1
    + 255
    + 4
    + 4
    + 2 * MAX_INPUTS * MAX_HIDDEN
    + 2 * MAX_HIDDEN
    + 2 * 2 * MAX_HIDDEN
    + 4
    + 4 * MAX_INPUTS) as u64;
const VERSION: u32 = 2;

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it evaluates (`chess`, `xiangqi`).
    pub game: String,
    /// Input features per perspective.
    pub inputs: usize,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// `inputs x hidden` feature weights, input-major.
    pub ft_weights: Vec<i16>,
    /// `hidden` feature biases.
    pub ft_bias: Vec<i16>,
    /// `2 x hidden` output weights (side to move, then the other side).
    pub out_weights: Vec<i16>,
    /// Output bias at scale `QA * QB`.
    pub out_bias: i32,
    /// `inputs` piece-square weights at scale `QA * QB`.
    pub psqt: Vec<i32>,
}

/// Reads little-endian fields off a byte slice, failing (never panicking) at its end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.bytes.len() < n {
            return Err("the network file is truncated".to_string());
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, String> {
        let b = self.take(n.checked_mul(2).ok_or("the network file is too large")?)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Network {
    /// Parses a network file (see the module documentation); any defect is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes };
        if r.take(4)? != MAGIC {
            return Err("not a sanqi network file (no SQNN magic)".to_string());
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!(
                "network format version {version} is not supported (only {VERSION})"
            ));
        }
        let name_len = r.take(1)?[0] as usize;
        let game = String::from_utf8(r.take(name_len)?.to_vec())
            .map_err(|_| "the network's game name is not UTF-8".to_string())?;
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        if hidden == 0 || hidden % 16 != 0 || hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden layer size {hidden} is not a multiple of 16 from 16 to {MAX_HIDDEN}"
            ));
        }
        if inputs == 0 || inputs > MAX_INPUTS {
            return Err(format!("input count {inputs} is out of range 1..65536"));
        }
        let ft_weights = r.i16s(inputs * hidden)?;
        let ft_bias = r.i16s(hidden)?;
        let out_weights = r.i16s(2 * hidden)?;
        let b = r.take(4)?;
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let psqt = r
            .take(inputs * 4)?
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if !r.bytes.is_empty() {
            return Err(format!(
                "{} bytes after the end of the network",
                r.bytes.len()
            ));
        }
        Ok(Network {
            game,
            inputs,
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            psqt,
        })
    }

    /// The file form of the network ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 2 * self.ft_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let name = self.game.as_bytes();
        out.push(name.len().min(255) as u8);
        out.extend_from_slice(&name[..name.len().min(255)]);
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        for p in &self.psqt {
            out.extend_from_slice(&p.to_le_bytes());
        }
        out
    }

    /// Reads a network for `game` with `inputs` features: the file's own game and size must
    /// match.
    pub fn for_game(bytes: &[u8], game: &str, inputs: usize) -> Result<Network, String> {
        let net = Network::from_bytes(bytes)?;
        if net.game != game {
            return Err(format!(
                "the network is for {}, not for {game}",
                if net.game.is_empty() {
                    "no game"
                } else {
                    &net.game
                }
            ));
        }
        if net.inputs != inputs {
            return Err(format!(
                "the network has {} inputs, {game} needs {inputs}",
                net.inputs
            ));
        }
        Ok(net)
    }

    /// The feature weights of input `feature` (`hidden` of them).
    #[inline(always)]
    fn row(&self, feature: usize) -> &[i16] {
        let h = self.hidden;
        &self.ft_weights[feature * h..feature * h + h]
    }

    /// The evaluation in centipawns of the side to move, from the accumulator halves of the
    /// side to move (`us`) and of the other side (`them`) and the piece-square sums seen from
    /// each (`psqt_us`, `psqt_them`).
    pub fn output(&self, us: &[i16], them: &[i16], psqt_us: i32, psqt_them: i32) -> i32 {
        let h = self.hidden;
        let k = Kernel::current();
        let sum = i64::from(k.screlu_dot(us, &self.out_weights[..h]))
            + i64::from(k.screlu_dot(them, &self.out_weights[h..]));
        let psqt = (i64::from(psqt_us) - i64::from(psqt_them)) / 2;
        // `sum` is at scale QA * QA * QB: one QA goes, the bias joins at QA * QB.
        // Rounded down (not towards zero), so that moving the bias moves every value alike.
        // In i64: the product with SCALE may pass i32 for extreme (untrained) weights.
        let v = (sum / i64::from(QA) + i64::from(self.out_bias) + psqt) * i64::from(SCALE);
        v.div_euclid(i64::from(QA * QB))
            .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// Whether the games with a network evaluate with it (`Use NNUE`); off, they use their
/// hand-written evaluation. Starts at `Use NNUE`'s default; the engine's options set it.
static USE_NNUE: AtomicBool = AtomicBool::new(DEFAULT_ENABLED);

/// The default of `Use NNUE`: on, since the networks beat the hand-written evaluations
/// (docs/networks.md).
pub const DEFAULT_ENABLED: bool = true;

/// Whether `Use NNUE` is on.
#[inline]
pub fn enabled() -> bool {
    USE_NNUE.load(Relaxed)
}

/// Sets `Use NNUE`.
pub fn set_enabled(on: bool) {
    USE_NNUE.store(on, Relaxed);
}

/// The network a game evaluates with: the one embedded in the binary until `EvalFile` loads
/// another. One `static` per game with a network.
pub struct NetSlot {
    /// The game's name as network files carry it.
    pub game: &'static str,
    /// Input features per perspective.
    pub inputs: usize,
    embedded: &'static [u8],
    init: Once,
    current: RwLock<Option<Arc<Network>>>,
}

impl NetSlot {
    /// A slot holding the embedded network file `embedded` (parsed on first use).
    pub const fn new(game: &'static str, inputs: usize, embedded: &'static [u8]) -> NetSlot {
        NetSlot {
            game,
            inputs,
            embedded,
            init: Once::new(),
            current: parking_lot::const_rwlock(None),
        }
    }

    /// The embedded network, parsed (an error means the build embedded a bad file; the tests
    /// check it does not).
    pub fn embedded(&self) -> Result<Network, String> {
        Network::for_game(self.embedded, self.game, self.inputs)
    }

    /// The network in use (`None` only if the embedded one is unreadable).
    pub fn get(&self) -> Option<Arc<Network>> {
        self.init.call_once(|| {
            *self.current.write() = self.embedded().ok().map(Arc::new);
        });
        self.current.read().clone()
    }

    /// The network in use when `Use NNUE` is on.
    #[inline]
    pub fn active(&self) -> Option<Arc<Network>> {
        if enabled() {
            self.get()
        } else {
            None
        }
    }

    /// The evaluation for side `stm` while `Use NNUE` is on: from the position's accumulator
    /// stack if it has one, else from scratch over `features`; `None` when it is off.
    #[inline]
    pub fn evaluate<I: Iterator<Item = Feature>>(
        &self,
        stack: Option<&AccumulatorStack>,
        features: impl FnOnce() -> I,
        stm: usize,
    ) -> Option<i32> {
        if !enabled() {
            return None;
        }
        if let Some(stack) = stack {
            return Some(stack.evaluate(stm));
        }
        let net = self.get()?;
        Some(evaluate_from_scratch(&net, features(), stm))
    }

    /// Installs `net` (checked against the game), or the embedded network for `None`.
    pub fn install(&self, net: Option<Network>) -> Result<(), String> {
        let net = match net {
            Some(n) if n.game != self.game || n.inputs != self.inputs => {
                return Err(format!(
                    "the network ({}, {} inputs) is not for {} ({} inputs)",
                    n.game, n.inputs, self.game, self.inputs
                ))
            }
            Some(n) => n,
            None => self.embedded()?,
        };
        self.init.call_once(|| {});
        *self.current.write() = Some(Arc::new(net));
        Ok(())
    }
}

/// One feature change of a move, as the index seen from each perspective.
pub type Feature = [usize; 2];

/// The accumulators of a position and of every position before it in the search (one entry per
/// move made), both perspectives each: make pushes, undo pops. The vector holds only the used
/// entries, so cloning a position copies no more than it needs.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    /// `2 x hidden` values per entry: perspective 0, then perspective 1.
    data: Vec<i16>,
    /// The piece-square sums of each entry, perspective 0 and 1.
    psqt: Vec<[i32; 2]>,
}

impl AccumulatorStack {
    /// A stack with one entry computed from scratch from the features `active` (index for
    /// perspective 0 and 1 of every piece).
    pub fn new(net: Arc<Network>, active: impl Iterator<Item = Feature>) -> AccumulatorStack {
        let h = net.hidden;
        let mut data = Vec::with_capacity(2 * h * 128);
        data.extend_from_slice(&net.ft_bias);
        data.extend_from_slice(&net.ft_bias);
        let mut sums = [0i32; 2];
        for f in active {
            let (p0, p1) = data.split_at_mut(h);
            scalar::update(p0, &[net.row(f[0])], &[]);
            scalar::update(p1, &[net.row(f[1])], &[]);
            sums[0] = sums[0].wrapping_add(net.psqt[f[0]]);
            sums[1] = sums[1].wrapping_add(net.psqt[f[1]]);
        }
        let mut psqt = Vec::with_capacity(128);
        psqt.push(sums);
        AccumulatorStack { net, data, psqt }
    }

    /// The network the stack evaluates with.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Pushes the entry of the next position: the current one with the features `added` set and
    /// `removed` cleared (at most 2 and 2: a move, a capture, a promotion, castling).
    #[inline]
    pub fn push(&mut self, added: &[Feature], removed: &[Feature]) {
        let h = self.net.hidden;
        let len = self.data.len();
        if len < 2 * h {
            return;
        }
        self.data.resize(len + 2 * h, 0);
        let (before, top) = self.data.split_at_mut(len);
        let old = &before[len - 2 * h..];
        let (p0, p1) = top.split_at_mut(h);
        let net = &self.net;
        // One pass over each perspective's new entry for all the rows of a move (at most 2
        // added and 2 removed features); longer lists, one pass a row.
        for (p, acc) in [(0, &mut *p0), (1, &mut *p1)] {
            let old = &old[p * h..p * h + h];
            if added.len() <= 4 && removed.len() <= 4 {
                let add: ArrayVec<&[i16], 4> = added.iter().map(|f| net.row(f[p])).collect();
                let sub: ArrayVec<&[i16], 4> = removed.iter().map(|f| net.row(f[p])).collect();
                scalar::update_into(acc, old, &add, &sub);
            } else {
                acc.copy_from_slice(old);
                for f in added {
                    scalar::update(acc, &[net.row(f[p])], &[]);
                }
                for f in removed {
                    scalar::update(acc, &[], &[net.row(f[p])]);
                }
            }
        }
        let mut sums = self.psqt.last().copied().unwrap_or_default();
        let psqt = &net.psqt;
        for f in added {
            sums[0] = sums[0].wrapping_add(psqt[f[0]]);
            sums[1] = sums[1].wrapping_add(psqt[f[1]]);
        }
        for f in removed {
            sums[0] = sums[0].wrapping_sub(psqt[f[0]]);
            sums[1] = sums[1].wrapping_sub(psqt[f[1]]);
        }
        self.psqt.push(sums);
    }

    /// Takes the last entry off (never the first).
    #[inline]
    pub fn pop(&mut self) {
        let h = self.net.hidden;
        if self.data.len() >= 4 * h {
            self.data.truncate(self.data.len() - 2 * h);
            self.psqt.pop();
        }
    }

    /// The current entry's perspective `p` (0 or 1).
    pub fn current(&self, p: usize) -> &[i16] {
        let h = self.net.hidden;
        let top = self.data.len() - 2 * h;
        &self.data[top + p * h..top + p * h + h]
    }

    /// The evaluation of the current position for the side `stm` (0 or 1), in centipawns.
    #[inline]
    pub fn evaluate(&self, stm: usize) -> i32 {
        let us = stm & 1;
        let sums = self.psqt.last().copied().unwrap_or_default();
        self.net.output(
            self.current(us),
            self.current(us ^ 1),
            sums[us],
            sums[us ^ 1],
        )
    }

    /// Number of entries (1 + moves made since the stack was built).
    pub fn len(&self) -> usize {
        self.data.len() / (2 * self.net.hidden)
    }

    /// Whether the stack is empty (never: it always has its first entry).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// The evaluation of the position with features `active` for side `stm`, computed from scratch
/// (for positions without an accumulator stack, such as the `eval` command's).
pub fn evaluate_from_scratch(
    net: &Arc<Network>,
    active: impl Iterator<Item = Feature>,
    stm: usize,
) -> i32 {
    AccumulatorStack::new(Arc::clone(net), active).evaluate(stm)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        let inputs = 4;
        let hidden = 16;
        Network {
            game: "test".into(),
            inputs,
            hidden,
            ft_weights: (0..inputs * hidden).map(|i| (i as i16 % 37) - 18).collect(),
            ft_bias: (0..hidden).map(|i| i as i16 * 5).collect(),
            out_weights: (0..2 * hidden).map(|i| (i as i16 % 11) - 5).collect(),
            out_bias: 1234,
            psqt: (0..inputs as i32).map(|i| i * 1000 - 1500).collect(),
        }
    }

    #[test]
    fn file_round_trip_and_defects() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        for cut in [0, 3, 10, bytes.len() - 1] {
            assert!(Network::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(Network::from_bytes(&long).is_err());
        assert!(Network::for_game(&bytes, "chess", 4).is_err());
        assert!(Network::for_game(&bytes, "test", 5).is_err());
        assert!(Network::for_game(&bytes, "test", 4).is_ok());
    }

    #[test]
    fn output_matches_the_formula() {
        let net = Arc::new(tiny());
        let stack = AccumulatorStack::new(Arc::clone(&net), [[0, 1], [2, 3]].into_iter());
        // Reference: plain loops over the definition.
        let acc = |p: usize| -> Vec<i32> {
            (0..16)
                .map(|i| {
                    let f = if p == 0 { [0, 2] } else { [1, 3] };
                    i32::from(net.ft_bias[i])
                        + f.iter()
                            .map(|&f| i32::from(net.ft_weights[f * 16 + i]))
                            .sum::<i32>()
                })
                .collect()
        };
        for stm in 0..2 {
            let (us, them) = (acc(stm), acc(stm ^ 1));
            let mut sum = 0i64;
            for i in 0..16 {
                let c = i64::from(us[i].clamp(0, QA));
                let d = i64::from(them[i].clamp(0, QA));
                sum += c * c * i64::from(net.out_weights[i]);
                sum += d * d * i64::from(net.out_weights[16 + i]);
            }
            let f = if stm == 0 {
                [[0, 2], [1, 3]]
            } else {
                [[1, 3], [0, 2]]
            };
            let p = |fs: [usize; 2]| i64::from(net.psqt[fs[0]] + net.psqt[fs[1]]);
            let psqt = (p(f[0]) - p(f[1])) / 2;
            let want = ((sum / i64::from(QA) + i64::from(net.out_bias) + psqt) * i64::from(SCALE))
                .div_euclid(i64::from(QA * QB)) as i32;
            assert_eq!(stack.evaluate(stm), want);
        }
    }

    #[test]
    fn the_widest_layer_sums_both_halves_without_overflow() {
        // 256 hidden neurons, every accumulator at the clamp and every output weight at the
        // clipped maximum: each half is 256 x 255^2 x 127 (within i32), both together are not.
        let hidden = MAX_HIDDEN;
        let net = Network {
            game: "test".into(),
            inputs: 1,
            hidden,
            ft_weights: vec![0; hidden],
            ft_bias: vec![QA as i16; hidden],
            out_weights: vec![127; 2 * hidden],
            out_bias: 0,
            psqt: vec![0],
        };
        let back = Network::from_bytes(&net.to_bytes());
        assert_eq!(back.as_ref(), Ok(&net));
        let net = Arc::new(net);
        let stack = AccumulatorStack::new(Arc::clone(&net), std::iter::empty());
        let half = i64::from(QA) * i64::from(QA) * 127 * hidden as i64;
        let want = ((2 * half / i64::from(QA)) * i64::from(SCALE)).div_euclid(i64::from(QA * QB));
        assert_eq!(i64::from(stack.evaluate(0)), want);
        let mut wider = (*net).clone();
        wider.hidden = MAX_HIDDEN + 16;
        assert!(Network::from_bytes(&wider.to_bytes()).is_err());
    }

    #[test]
    fn extreme_weights_from_a_file_never_panic() {
        // What a hostile EvalFile may hold: every weight at its largest; the value is garbage
        // but evaluating, pushing and popping must not overflow-panic (tests check overflow).
        for (w, b) in [(i16::MAX, i32::MAX), (i16::MIN, i32::MIN)] {
            let mut net = tiny();
            net.ft_weights.fill(w);
            net.ft_bias.fill(w);
            net.out_weights.fill(w);
            net.out_bias = b;
            net.psqt.fill(b);
            let net = Arc::new(net);
            let mut stack = AccumulatorStack::new(Arc::clone(&net), [[0, 1], [2, 3]].into_iter());
            stack.push(&[[1, 0], [3, 2]], &[[0, 1]]);
            let _ = stack.evaluate(0);
            let _ = stack.evaluate(1);
            stack.pop();
            let _ = evaluate_from_scratch(&net, [[0, 1]; 30].into_iter(), 1);
        }
    }

    #[test]
    fn push_and_pop_match_a_fresh_stack() {
        let net = Arc::new(tiny());
        let mut stack = AccumulatorStack::new(Arc::clone(&net), [[0, 1]].into_iter());
        let first = stack.clone();
        stack.push(&[[2, 3], [3, 2]], &[[0, 1]]);
        let fresh = AccumulatorStack::new(Arc::clone(&net), [[2, 3], [3, 2]].into_iter());
        assert_eq!(stack.current(0), fresh.current(0));
        assert_eq!(stack.current(1), fresh.current(1));
        assert_eq!(stack.len(), 2);
        stack.pop();
        assert_eq!(stack.current(0), first.current(0));
        stack.pop();
        assert_eq!(stack.len(), 1);
    }
}
