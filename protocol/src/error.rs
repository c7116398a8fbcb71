//! The one error type of the crate: what was wrong in a line and where.

use std::fmt;

/// The longest piece of offending text kept in an error (in bytes, cut at a character boundary).
///
/// Errors about a 1 MB line stay small and printable.
pub const MAX_ERROR_TEXT: usize = 64;

/// Cuts `text` to at most [`MAX_ERROR_TEXT`] bytes at a character boundary, adding `...` if cut.
pub(crate) fn clip(text: &str) -> String {
    if text.len() <= MAX_ERROR_TEXT {
        return text.to_owned();
    }
    let mut end = MAX_ERROR_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(end + 3);
    out.push_str(&text[..end]);
    out.push_str("...");
    out
}

/// Why a command or reply line could not be parsed.
///
/// Every variant names the command (first word of the line) and, where it applies, the parameter, the
/// offending text (clipped to [`MAX_ERROR_TEXT`] bytes) and its byte offset in the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// The first word of the line is not a command (or reply) this crate knows.
    UnknownCommand {
        /// The unknown word (clipped).
        text: String,
    },
    /// A required argument is absent (for example `position fen` with nothing after it).
    MissingArgument {
        /// The command (or reply) keyword.
        command: &'static str,
        /// The argument that is missing.
        argument: &'static str,
    },
    /// An argument is present but its value is not acceptable.
    BadValue {
        /// The command (or reply) keyword.
        command: &'static str,
        /// The parameter whose value is wrong.
        parameter: &'static str,
        /// The offending token (clipped).
        value: String,
        /// Why it is wrong.
        reason: &'static str,
        /// Byte offset of the offending token in the line.
        offset: usize,
    },
    /// The line is not valid UTF-8.
    NotUtf8 {
        /// Length in bytes of the valid UTF-8 prefix: the bad byte is at this offset.
        valid_up_to: usize,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownCommand { text } => write!(f, "unknown command `{text}`"),
            Self::MissingArgument { command, argument } => {
                write!(f, "`{command}`: missing {argument}")
            }
            Self::BadValue {
                command,
                parameter,
                value,
                reason,
                offset,
            } => write!(
                f,
                "`{command}`: bad value `{value}` for {parameter} at byte {offset}: {reason}"
            ),
            Self::NotUtf8 { valid_up_to } => {
                write!(
                    f,
                    "line is not valid UTF-8 (bad byte at offset {valid_up_to})"
                )
            }
        }
    }
}

impl std::error::Error for ProtocolError {}
