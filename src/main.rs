//! The `sanqi` binary: no argument runs the protocol loop; `bench` and `perft` are one-shot tools.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    sanqi::cli::main(&args)
}
