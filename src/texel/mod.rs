//! `sanqi tune` (placeholder).
use std::process::ExitCode;
/// `sanqi tune ...`.
pub fn main(_args: &[String]) -> ExitCode {
    ExitCode::FAILURE
}
