//! The network's inner loops: the accumulator update of a capture (1 row added, 2 removed) and
//! the output's dot product with each kernel this processor runs (scalar and, with AVX2, the
//! vectorised one), at 64 and 128 hidden neurons.
//!
//! `cargo bench --bench nnue`; the whole-engine effect: `sanqi bench` against
//! `SANQI_NNUE_KERNEL=scalar sanqi bench` (docs/networks.md).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use sanqi::nnue::{scalar, Kernel};

fn rows(n: usize, seed: i16) -> Vec<i16> {
    (0..n)
        .map(|i| (i as i16).wrapping_mul(37).wrapping_add(seed) % 300)
        .collect()
}

fn kernels(c: &mut Criterion) {
    for hidden in [64usize, 128] {
        let add = rows(hidden, 3);
        let sub1 = rows(hidden, 5);
        let sub2 = rows(hidden, 7);
        let weights: Vec<i16> = rows(hidden, 11).iter().map(|w| w % 128).collect();
        let mut acc = rows(hidden, 1);
        c.bench_function(&format!("nnue update {hidden}"), |b| {
            b.iter(|| scalar::update(black_box(&mut acc), &[&add], &[&sub1, &sub2]))
        });
        for k in Kernel::available() {
            let acc = rows(hidden, 1);
            c.bench_function(&format!("nnue screlu_dot {hidden} {k:?}"), |b| {
                b.iter(|| k.screlu_dot(black_box(&acc), black_box(&weights)))
            });
        }
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);
