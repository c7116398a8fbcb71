//! nom parsers for command and reply lines.
//!
//! A line is cut into tokens by a nom tokenizer (any run of spaces, tabs, `\r`, `\n`, form feeds or
//! vertical tabs separates tokens); the first token is the keyword, and each keyword's parameters are
//! read in any order. Numbers go through a nom recognizer and then a range-checked conversion, so a
//! huge number is an error naming its parameter. Everything is linear in the line length and without
//! recursion: a 1 MB line parses (or fails) quickly.
//!
//! Files: `tokens` (the tokenizer and typed token readers), `commands` (GUI-to-engine lines),
//! `replies` (engine-to-GUI lines).

mod commands;
mod replies;
mod tokens;

pub use commands::{parse_command, parse_command_bytes};
pub use replies::{parse_reply, parse_reply_bytes};
