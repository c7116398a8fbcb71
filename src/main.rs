//! The `sanqi` binary: no argument runs the protocol loop; `bench` and `perft` are one-shot tools.

fn main() {}
