//! The vectorised network code (AVX2, chosen at run time) and the scalar loops search the same
//! tree: `bench`, whose positions are evaluated by the chess and xiangqi networks, gives the same
//! node count with `SANQI_NNUE_KERNEL=scalar` as with the processor's best kernel. (On a machine
//! without AVX2 both runs take the scalar path and the test says so.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn bench_nodes(scalar: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sanqi"));
    cmd.arg("bench");
    if scalar {
        cmd.env("SANQI_NNUE_KERNEL", "scalar");
    } else {
        cmd.env_remove("SANQI_NNUE_KERNEL");
    }
    let out = cmd.output().expect("sanqi runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find(|l| l.starts_with("Nodes searched"))
        .unwrap_or_else(|| panic!("no node count: {text}"))
        .to_string()
}

#[test]
fn the_scalar_and_the_vectorised_kernels_search_the_same_tree() {
    if !sanqi::nnue::Kernel::available().contains(&sanqi::nnue::Kernel::Avx2) {
        eprintln!("no AVX2 on this machine: both runs use the scalar kernel");
    }
    assert_eq!(bench_nodes(false), bench_nodes(true));
}
