//! The network's inner loops. The output's dot product (`clamp(a, 0, QA)^2 * w` summed in
//! `i32`) is vectorised by hand: the release build targets plain x86-64 (SSE2), which has no
//! instruction for the product's 32-bit multiplies, and AVX2 has them at twice the width
//! (benches/nnue: 7.8 ns against 16.4 ns at 64 hidden, 14.8 against 34.1 at 128). Whether the
//! processor has AVX2 is found once, at run time ([`Kernel::detect`]); without it (or off
//! x86-64) the scalar loop runs. Both give the same bits for every input: each product is exact
//! in `i32` before the wrapping sum (the tests below compare them on random and extreme values).
//!
//! The accumulator update (add and subtract feature rows, `i16` lanes that wrap) stays a plain
//! loop: the compiler's SSE2 code beat AVX2 intrinsics (11.3 ns against 12.5 ns for a capture at
//! 64 hidden, 16.3 against 21.0 at 128: the call into a function compiled for AVX2 cannot be
//! inlined), so it is [`scalar::update`] on every processor.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::QA;

/// Which code the inner loops run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust loops (the compiler vectorises them for the build's target).
    Scalar,
    /// AVX2 intrinsics (x86-64 with AVX2 only).
    Avx2,
}

/// 0: not detected yet, 1: scalar, 2: AVX2.
static KERNEL: AtomicU8 = AtomicU8::new(0);

impl Kernel {
    /// The best kernel this processor runs, unless the environment variable
    /// `SANQI_NNUE_KERNEL` is `scalar` (to compare the two, or to rule the vectorised code out).
    pub fn detect() -> Kernel {
        if std::env::var("SANQI_NNUE_KERNEL").is_ok_and(|v| v.eq_ignore_ascii_case("scalar")) {
            return Kernel::Scalar;
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Scalar
    }

    /// The kernel in use: the detected one, found on first use.
    #[inline(always)]
    pub fn current() -> Kernel {
        match KERNEL.load(Relaxed) {
            1 => Kernel::Scalar,
            2 => Kernel::Avx2,
            _ => {
                let k = Kernel::detect();
                KERNEL.store(if k == Kernel::Avx2 { 2 } else { 1 }, Relaxed);
                k
            }
        }
    }

    /// The kernels this processor can run (for tests and benches that compare them).
    pub fn available() -> Vec<Kernel> {
        let mut v = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            v.push(Kernel::Avx2);
        }
        v
    }

    /// `sum(clamp(acc[i], 0, QA)^2 * w[i])`, the sum wrapping in `i32`; both as long, a
    /// multiple of 16.
    #[inline(always)]
    pub fn screlu_dot(self, acc: &[i16], weights: &[i16]) -> i32 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if acc.len() == weights.len() && acc.len() % 16 == 0 => {
                // SAFETY: `Avx2` is only chosen when the processor has AVX2 (`detect`), and
                // `avx2::screlu_dot` checks the lengths before it reads.
                unsafe { avx2::screlu_dot(acc, weights) }
            }
            _ => scalar::screlu_dot(acc, weights),
        }
    }
}

/// The reference loops.
pub mod scalar {
    use super::QA;

    /// `acc += sum(add) - sum(sub)` lane by lane, wrapping, in one pass per row (the compiler
    /// vectorises it for every target; by hand with AVX2 it was slower, see the module
    /// documentation).
    #[inline(always)]
    pub fn update(acc: &mut [i16], add: &[&[i16]], sub: &[&[i16]]) {
        for row in add {
            for (a, w) in acc.iter_mut().zip(row.iter()) {
                *a = a.wrapping_add(*w);
            }
        }
        for row in sub {
            for (a, w) in acc.iter_mut().zip(row.iter()) {
                *a = a.wrapping_sub(*w);
            }
        }
    }

    /// `out = old + sum(add) - sum(sub)` lane by lane, wrapping: the same values as copying
    /// `old` and [`update`], in one pass for the shapes of a move (one row added and one, two
    /// removed; two and two for castling), so the entry is read and written once.
    #[inline(always)]
    pub fn update_into(out: &mut [i16], old: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let lanes = out.iter_mut().zip(old.iter());
        match (add, sub) {
            ([a], [s]) => {
                for (((o, x), a), s) in lanes.zip(a.iter()).zip(s.iter()) {
                    *o = x.wrapping_add(*a).wrapping_sub(*s);
                }
            }
            ([a], [s1, s2]) => {
                for ((((o, x), a), s1), s2) in lanes.zip(a.iter()).zip(s1.iter()).zip(s2.iter()) {
                    *o = x.wrapping_add(*a).wrapping_sub(*s1).wrapping_sub(*s2);
                }
            }
            ([a1, a2], [s1, s2]) => {
                for (((((o, x), a1), a2), s1), s2) in lanes
                    .zip(a1.iter())
                    .zip(a2.iter())
                    .zip(s1.iter())
                    .zip(s2.iter())
                {
                    *o = x
                        .wrapping_add(*a1)
                        .wrapping_add(*a2)
                        .wrapping_sub(*s1)
                        .wrapping_sub(*s2);
                }
            }
            _ => {
                for (o, x) in lanes {
                    *o = *x;
                }
                update(out, add, sub);
            }
        }
    }

    /// See [`super::Kernel::screlu_dot`]: 16 lanes at a time so that it autovectorises.
    #[inline(always)]
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let mut lanes = [0i32; 16];
        for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
            for i in 0..16 {
                let c = i32::from(a[i]).clamp(0, QA);
                // c * c * w fits in i32 for any i16 w (255 * 255 * 32768 < 2^31); only the
                // sum may wrap, for a hostile network's weights.
                lanes[i] = lanes[i].wrapping_add(c * c * i32::from(w[i]));
            }
        }
        lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::QA;

    /// See [`super::Kernel::screlu_dot`]: 16 accumulator lanes clamped as `i16`, widened to
    /// `i32` 8 at a time, `c * c` then `* w` with 32-bit multiplies (exact, as in the scalar
    /// loop), summed with wrapping 32-bit adds.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i32 {
        let n = acc.len();
        if n % 16 != 0 || weights.len() != n {
            return super::scalar::screlu_dot(acc, weights);
        }
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 <= n for both slices (checked above); unaligned loads.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            for half in [_mm256_castsi256_si128(c), _mm256_extracti128_si256::<1>(c)]
                .into_iter()
                .zip([_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w)])
            {
                let c32 = _mm256_cvtepi16_epi32(half.0);
                let w32 = _mm256_cvtepi16_epi32(half.1);
                let term = _mm256_mullo_epi32(_mm256_mullo_epi32(c32, c32), w32);
                sum = _mm256_add_epi32(sum, term);
            }
            i += 16;
        }
        let folded = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(folded, _mm_shuffle_epi32::<0b01_00_11_10>(folded));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random `i16`s from a seed (SplitMix64).
    fn random(seed: u64, n: usize, lo: i16, hi: i16) -> Vec<i16> {
        let mut s = seed;
        let span = i64::from(hi) - i64::from(lo) + 1;
        (0..n)
            .map(|_| {
                let r = crate::splitmix::next(&mut s) % span as u64;
                (i64::from(lo) + r as i64) as i16
            })
            .collect()
    }

    /// Values at and around the ends of the range and of the clamp.
    fn edges(n: usize) -> Vec<i16> {
        let e = [i16::MIN, -1, 0, 1, 254, 255, 256, i16::MAX, -255, 127, -128];
        (0..n).map(|i| e[i % e.len()]).collect()
    }

    #[test]
    fn every_kernel_gives_the_scalar_bits() {
        let kernels = Kernel::available();
        if !kernels.contains(&Kernel::Avx2) {
            eprintln!("no AVX2 here: only the scalar kernel is checked");
        }
        for (seed, n) in [(1u64, 16usize), (2, 64), (3, 128), (4, 256), (5, 1024)] {
            let mut cases = vec![
                (random(seed, n, -400, 400), random(seed + 9, n, -127, 127)),
                (
                    random(seed, n, i16::MIN, i16::MAX),
                    random(seed + 9, n, i16::MIN, i16::MAX),
                ),
                (edges(n), edges(n + 3)[3..].to_vec()),
            ];
            cases.push((vec![QA as i16; n], vec![i16::MAX; n]));
            cases.push((vec![QA as i16; n], vec![i16::MIN; n]));
            for (acc, w) in &cases {
                let want = scalar::screlu_dot(acc, w);
                for k in &kernels {
                    assert_eq!(k.screlu_dot(acc, w), want, "{k:?} n {n}");
                }
            }
        }
    }

    #[test]
    fn the_scalar_kernel_is_the_definition() {
        // Independent of both kernels: i64 arithmetic straight from the formula.
        let acc = random(7, 64, -300, 600);
        let w = random(8, 64, i16::MIN, i16::MAX);
        let want: i64 = acc
            .iter()
            .zip(&w)
            .map(|(&a, &w)| {
                let c = i64::from(a).clamp(0, i64::from(QA));
                c * c * i64::from(w)
            })
            .sum();
        assert_eq!(scalar::screlu_dot(&acc, &w), want as i32);
        let mut a = acc.clone();
        let r1 = random(9, 64, i16::MIN, i16::MAX);
        let r2 = random(10, 64, i16::MIN, i16::MAX);
        scalar::update(&mut a, &[&r1], &[&r2]);
        for i in 0..64 {
            let v = (i64::from(acc[i]) + i64::from(r1[i]) - i64::from(r2[i])).rem_euclid(1 << 16);
            assert_eq!(a[i] as u16 as i64, v, "lane {i}");
        }
    }

    #[test]
    fn update_into_gives_the_sum_of_every_shape() {
        // Every shape of a move's rows (and longer lists), at the ends of the range: the entry
        // must be the old one plus the added rows minus the removed ones, wrapping (i64
        // arithmetic straight from the definition).
        let n = 128;
        let old = random(21, n, i16::MIN, i16::MAX);
        let rows: Vec<Vec<i16>> = (0..5)
            .map(|i| random(30 + i, n, i16::MIN, i16::MAX))
            .collect();
        for (adds, subs) in [(1, 1), (1, 2), (2, 2), (0, 1), (2, 1), (3, 2), (0, 0)] {
            let add: Vec<&[i16]> = rows[..adds].iter().map(|r| r.as_slice()).collect();
            let sub: Vec<&[i16]> = rows[adds..adds + subs]
                .iter()
                .map(|r| r.as_slice())
                .collect();
            let mut out = vec![0i16; n];
            scalar::update_into(&mut out, &old, &add, &sub);
            for i in 0..n {
                let v = i64::from(old[i]) + add.iter().map(|r| i64::from(r[i])).sum::<i64>()
                    - sub.iter().map(|r| i64::from(r[i])).sum::<i64>();
                assert_eq!(
                    i64::from(out[i] as u16),
                    v.rem_euclid(1 << 16),
                    "{adds}+{subs}- lane {i}"
                );
            }
        }
    }
}
