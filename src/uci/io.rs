//! Line input and output for the protocol loop.
//!
//! Input is read as bytes (a GUI may send anything) with a length cap; output is written one whole
//! line at a time under a lock and flushed at once, so the reader thread and the search thread never
//! interleave inside a line. The `Debug Log File` option copies every line in and out, in order,
//! to a file under the same lock ([`Output::log_input`], [`open_log`]).

use std::fs::File;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

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

/// The output and the debug log, behind one lock so that the log keeps the true order.
struct Sink {
    out: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Sink {
    fn write_line(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.write_all(b"\n");
        if let Some(log) = &mut self.log {
            // A failing log write (a full disk) must not stop the engine; it is dropped.
            write_log_line(log, &format!("{} << {text}\n", timestamp()));
        }
    }
}

/// The shared writer for replies: cheap to clone, one lock per line.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
}

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink {
                out: sink,
                log: None,
            })),
        }
    }

    /// Writes one line and flushes it. A closed output is ignored (the GUI has gone; the loop
    /// ends at end of input).
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock();
        sink.write_line(text);
        let _ = sink.out.flush();
    }

    /// Writes several lines under one lock (a `go perft` divide, a board drawing).
    pub fn lines<I: IntoIterator<Item = String>>(&self, lines: I) {
        let mut sink = self.sink.lock();
        for text in lines {
            sink.write_line(&text);
        }
        let _ = sink.out.flush();
    }

    /// Copies one input line to the debug log (if one is open), marked `>>`, before it is
    /// handled, so that the log shows every line in and out in the order they happened.
    pub fn log_input(&self, bytes: &[u8]) {
        let mut sink = self.sink.lock();
        if let Some(log) = &mut sink.log {
            let text = String::from_utf8_lossy(bytes);
            let line = format!("{} >> {}\n", timestamp(), text.trim_end_matches('\r'));
            write_log_line(log, &line);
        }
    }

    /// Starts logging to `log` (`None`: stops); the previous log file is closed.
    pub fn set_log(&self, log: Option<File>) {
        self.sink.lock().log = log;
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

/// Appends one whole log line with a single `write` call. The file is opened for appending, so
/// two engines given the same `Debug Log File` (both sides of a match) cannot interleave inside a
/// line; `writeln!` would issue one write per formatted piece and could.
fn write_log_line(log: &mut File, line: &str) {
    let _ = log.write_all(line.as_bytes());
}

/// Opens the `Debug Log File` for appending (created if missing). Only a regular file (or a
/// character device such as `/dev/stderr`) is taken: a FIFO would block the command thread until
/// someone read it, and a directory cannot be written.
pub fn open_log(path: &str) -> Result<File, String> {
    if let Ok(meta) = std::fs::metadata(path) {
        #[cfg(unix)]
        let device = {
            use std::os::unix::fs::FileTypeExt;
            meta.file_type().is_char_device()
        };
        #[cfg(not(unix))]
        let device = false;
        if !meta.is_file() && !device {
            return Err(format!(
                "Debug Log File '{path}' is not a regular file; logging stays off"
            ));
        }
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open Debug Log File '{path}': {e}; logging stays off"))
}

/// The time now in UTC, `2026-12-02T18:50:01.123Z`, for the debug log.
pub fn timestamp() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// The proleptic Gregorian date of a day number counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days` algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_numbers() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        // 2000-02-29 (a leap day of a year divisible by 400) and 2026-12-02.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_789), (2026, 12, 2));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn two_writers_of_one_log_file_never_split_a_line() {
        // Both engines of a match may be given the same `Debug Log File`: each line must arrive
        // whole (with one `write` per piece of the format, lines were cut and mixed).
        let path = std::env::temp_dir().join(format!("sanqi-log-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let name = path.to_string_lossy().into_owned();
        let writers: Vec<_> = ["alpha", "omega"]
            .into_iter()
            .map(|word| {
                let out = Output::new(Box::new(io::sink()));
                out.set_log(open_log(&name).ok());
                std::thread::spawn(move || {
                    for i in 0..4000 {
                        out.log_input(format!("{word} {i} {word}").as_bytes());
                        out.line(&format!("{word} {i} {word}"));
                    }
                })
            })
            .collect();
        for w in writers {
            assert!(w.join().is_ok());
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        assert_eq!(text.lines().count(), 16_000);
        for line in text.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words.len(), 5, "{line}");
            assert!(words[1] == ">>" || words[1] == "<<", "{line}");
            assert_eq!(words[2], words[4], "{line}");
            assert!(words[3].parse::<u32>().is_ok(), "{line}");
        }
    }

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
