//! The tokenizer: tokens of one line and typed readers for them.

use std::str::FromStr;

use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{digit1, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::{pair, preceded};
use nom::IResult;

use crate::error::{clip, ProtocolError};

/// Token separators: space, tab, CR, LF, vertical tab, form feed.
pub(super) fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0b' | '\x0c')
}

/// One token after optional separators.
pub(super) fn token(input: &str) -> IResult<&str, &str> {
    preceded(take_while(is_separator), take_till1(is_separator))(input)
}

/// An optionally signed decimal integer, the whole token.
pub(super) fn integer(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize(pair(opt(one_of("+-")), digit1)))(input)
}

/// The tokens of one line, with the command keyword for error messages.
pub(super) struct Tokens<'a> {
    line: &'a str,
    rest: &'a str,
    pub(super) command: &'static str,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(line: &'a str) -> Self {
        Self {
            line,
            rest: line,
            command: "",
        }
    }

    pub(super) fn next(&mut self) -> Option<&'a str> {
        match token(self.rest) {
            Ok((rest, tok)) => {
                self.rest = rest;
                Some(tok)
            }
            Err(_) => {
                self.rest = "";
                None
            }
        }
    }

    pub(super) fn peek(&self) -> Option<&'a str> {
        token(self.rest).ok().map(|(_, tok)| tok)
    }

    /// The rest of the line without surrounding separators (inner spacing kept); consumes it.
    pub(super) fn rest_of_line(&mut self) -> &'a str {
        let rest = self.rest.trim_matches(is_separator);
        self.rest = "";
        rest
    }

    /// Tokens up to (not including) the first one in `stops`, joined by single spaces.
    pub(super) fn words_until(&mut self, stops: &[&str]) -> String {
        let mut out = String::new();
        while let Some(tok) = self.peek() {
            if stops.contains(&tok) {
                break;
            }
            self.next();
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(tok);
        }
        out
    }

    /// Tokens up to (not including) the first one in `stops`.
    pub(super) fn tokens_until(&mut self, stops: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(tok) = self.peek() {
            if stops.contains(&tok) {
                break;
            }
            self.next();
            out.push(tok.to_owned());
        }
        out
    }

    pub(super) fn offset(&self, tok: &str) -> usize {
        (tok.as_ptr() as usize).saturating_sub(self.line.as_ptr() as usize)
    }

    pub(super) fn missing(&self, argument: &'static str) -> ProtocolError {
        ProtocolError::MissingArgument {
            command: self.command,
            argument,
        }
    }

    pub(super) fn bad(
        &self,
        parameter: &'static str,
        tok: &str,
        reason: &'static str,
    ) -> ProtocolError {
        ProtocolError::BadValue {
            command: self.command,
            parameter,
            value: clip(tok),
            reason,
            offset: self.offset(tok),
        }
    }

    /// The next token, required.
    pub(super) fn required(&mut self, parameter: &'static str) -> Result<&'a str, ProtocolError> {
        self.next().ok_or_else(|| self.missing(parameter))
    }

    /// The next token as an integer of type `T`, required.
    pub(super) fn number<T: FromStr>(
        &mut self,
        parameter: &'static str,
    ) -> Result<T, ProtocolError> {
        let tok = self.required(parameter)?;
        self.convert(parameter, tok)
    }

    pub(super) fn convert<T: FromStr>(
        &self,
        parameter: &'static str,
        tok: &str,
    ) -> Result<T, ProtocolError> {
        if integer(tok).is_err() {
            return Err(self.bad(parameter, tok, "not an integer"));
        }
        tok.parse::<T>().map_err(|_| {
            let unsigned = "-1".parse::<T>().is_err();
            let reason = if unsigned && tok.starts_with('-') {
                "must not be negative"
            } else {
                "out of range"
            };
            self.bad(parameter, tok, reason)
        })
    }
}

/// The line as text, or the offset of its first byte that is not UTF-8.
pub(super) fn utf8(line: &[u8]) -> Result<&str, ProtocolError> {
    std::str::from_utf8(line).map_err(|e| ProtocolError::NotUtf8 {
        valid_up_to: e.valid_up_to(),
    })
}
