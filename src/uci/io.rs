//! Line input and output for the protocol loop.
//!
//! Input is read as bytes (a GUI may send anything) with a length cap; output is written one whole
//! line at a time under a lock and flushed at once, so the reader thread and the search thread never
//! interleave inside a line.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use parking_lot::Mutex;
use sanqi_protocol::{Dialect, Reply};

/// Longest input line kept (bytes). Longer lines are read to their end and reported as too long.
pub const MAX_LINE: usize = 8 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The bytes of the line without its `\n` (a trailing `\r` is kept for the parser).
    Text(Vec<u8>),
    /// A line longer than [`MAX_LINE`] (its length in bytes).
    TooLong(usize),
    /// End of input (or a read error, which ends the session the same way).
    Eof,
}

/// Reads the next line from `input`, never holding more than [`MAX_LINE`] bytes of it.
pub fn read_line(input: &mut impl BufRead) -> Line {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut seen_any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Line::Eof,
        };
        if buf.is_empty() {
            if !seen_any {
                return Line::Eof;
            }
            break;
        }
        seen_any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if total <= MAX_LINE {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if total > MAX_LINE {
        Line::TooLong(total)
    } else {
        Line::Text(line)
    }
}

/// The shared writer for replies: cheap to clone, one lock per line.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes one line and flushes it. A closed output is ignored (the GUI has gone; the loop
    /// ends at end of input).
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock();
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }

    /// Writes several lines under one lock (a `go perft` divide, a board drawing).
    pub fn lines<I: IntoIterator<Item = String>>(&self, lines: I) {
        let mut sink = self.sink.lock();
        for text in lines {
            let _ = sink.write_all(text.as_bytes());
            let _ = sink.write_all(b"\n");
        }
        let _ = sink.flush();
    }

    /// Writes a reply in the dialect.
    pub fn reply(&self, reply: &Reply, dialect: Dialect) {
        self.line(&reply.display(dialect).to_string());
    }

    /// Writes `info string error: ...` (UCCI: `info message error: ...`).
    pub fn error(&self, text: impl std::fmt::Display, dialect: Dialect) {
        self.reply(&Reply::error(text), dialect);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_and_eof_reported() {
        let mut input: &[u8] = b"uci\r\nisready\n\xff\xfe\nlast";
        assert_eq!(read_line(&mut input), Line::Text(b"uci\r".to_vec()));
        assert_eq!(read_line(&mut input), Line::Text(b"isready".to_vec()));
        assert_eq!(read_line(&mut input), Line::Text(b"\xff\xfe".to_vec()));
        assert_eq!(read_line(&mut input), Line::Text(b"last".to_vec()));
        assert_eq!(read_line(&mut input), Line::Eof);
    }

    #[test]
    fn an_overlong_line_is_reported_and_the_next_line_read() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nisready\n");
        let mut input = io::BufReader::with_capacity(4096, &data[..]);
        assert_eq!(read_line(&mut input), Line::TooLong(MAX_LINE + 10));
        assert_eq!(read_line(&mut input), Line::Text(b"isready".to_vec()));
    }
}
