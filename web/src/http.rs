//! The connection side of the server: HTTP/1.1 over `std::net`, with every resource bounded.
//!
//! The server this replaced (tiny_http 0.12) could not be bounded: its accept thread started a
//! thread for every connection when none was free and set no read timeout, so each idle
//! connection held a thread and its descriptors for ever (2,000 idle connections: 2,001 threads).
//! Here:
//!
//! - one accept thread and a fixed pool of `workers` threads; accepted connections wait in a queue
//!   of `queue` places, and one that finds the queue full gets `503` and is closed at once;
//! - a request (head and body) must arrive within `read_timeout` of its first byte (else `408`),
//!   and a connection may sit silent between requests for `read_timeout` at most;
//! - a silent connection gives its worker up as soon as another connection is waiting, and a busy
//!   one after its current request (that answer says `Connection: close`);
//! - a head over `MAX_HEAD` bytes is `431`, a body over `max_body` is `413`.
//!
//! So the server holds at most `1 + workers` threads for HTTP and `workers + queue + 1` sockets,
//! whatever its clients do.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The request method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Post,
    Other(String),
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Get => f.write_str("GET"),
            Method::Head => f.write_str("HEAD"),
            Method::Post => f.write_str("POST"),
            Method::Other(m) => f.write_str(m),
        }
    }
}

/// The reason phrase of a status code.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// The bounds of the connection side.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub workers: usize,
    pub queue: usize,
    pub read_timeout: Duration,
    pub max_body: usize,
}

/// The largest request line and headers read.
pub const MAX_HEAD: usize = 16 * 1024;
/// How often a silent connection looks whether another connection waits for its worker.
const SLICE: Duration = Duration::from_millis(200);

/// A request as the handler sees it.
#[derive(Debug)]
pub struct Request {
    pub method: Method,
    /// The request target: path and query (`/api/state?game=ID`).
    pub target: String,
    pub body: Vec<u8>,
}

/// An answer: status, content type, body.
pub type Reply = (u16, &'static str, String);

pub type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// Serves `listener` for ever; returns why accepting failed for good.
pub fn serve(listener: TcpListener, limits: Limits, handler: Arc<Handler>) -> String {
    let (tx, rx) = mpsc::sync_channel::<TcpStream>(limits.queue.max(1));
    let rx = Arc::new(Mutex::new(rx));
    let waiting = Arc::new(AtomicUsize::new(0));
    for _ in 0..limits.workers.max(1) {
        let (rx, waiting, handler) = (Arc::clone(&rx), Arc::clone(&waiting), Arc::clone(&handler));
        std::thread::spawn(move || worker(&rx, &waiting, limits, &*handler));
    }
    let mut failures = 0u32;
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => {
                failures = 0;
                s
            }
            Err(e) => {
                // Out of descriptors, a connection reset before it was accepted, ...: the server
                // goes on; a listener that keeps failing is given up.
                failures += 1;
                if failures > 1000 {
                    return format!("accepting connections keeps failing: {e}");
                }
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(limits.read_timeout));
        waiting.fetch_add(1, Ordering::SeqCst);
        match tx.try_send(stream) {
            Ok(()) => {}
            Err(TrySendError::Full(stream)) => {
                waiting.fetch_sub(1, Ordering::SeqCst);
                busy(stream);
            }
            Err(TrySendError::Disconnected(_)) => return "every worker thread ended".into(),
        }
    }
    "the listener ended".into()
}

/// The answer to a connection that finds every worker busy and the queue full.
fn busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
    let text = error_json("the server is busy (every connection is in use): try again");
    let _ = stream.write_all(&response_bytes(503, "application/json", &text, true));
    let _ = stream.shutdown(Shutdown::Write);
}

fn worker(
    rx: &Mutex<Receiver<TcpStream>>,
    waiting: &AtomicUsize,
    limits: Limits,
    handler: &Handler,
) {
    loop {
        let next = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(stream) = next else { return };
        waiting.fetch_sub(1, Ordering::SeqCst);
        // A panic in a handler ends that connection, not the worker.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            connection(stream, waiting, limits, handler)
        }));
    }
}

/// Why a request could not be read: the status and message sent before closing.
#[derive(Debug, PartialEq, Eq)]
struct Refusal {
    status: u16,
    message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

struct Conn {
    stream: TcpStream,
    /// Bytes read and not yet used (the start of the next request).
    buf: Vec<u8>,
}

fn connection(stream: TcpStream, waiting: &AtomicUsize, limits: Limits, handler: &Handler) {
    let mut conn = Conn {
        stream,
        buf: Vec::new(),
    };
    loop {
        match conn.next_request(waiting, limits) {
            Ok(None) => return,
            Ok(Some((request, close))) => {
                let (status, kind, text) = handler(&request);
                // A busy keep-alive connection would hold its worker for ever: when another
                // connection waits, this answer closes it (the client reconnects behind the others).
                let close = close || waiting.load(Ordering::SeqCst) > 0;
                let mut bytes = response_bytes(status, kind, &text, close);
                if request.method == Method::Head {
                    // The headers of the answer, without its body.
                    bytes.truncate(bytes.len() - text.len());
                }
                if conn.stream.write_all(&bytes).is_err() || close {
                    conn.close();
                    return;
                }
            }
            Err(r) => {
                let text = error_json(&r.message);
                let _ = conn.stream.write_all(&response_bytes(
                    r.status,
                    "application/json",
                    &text,
                    true,
                ));
                conn.close();
                return;
            }
        }
    }
}

impl Conn {
    /// Ends the connection so that the client reads the last answer (unread input would make
    /// the close a reset): no more output, then a short drain of what the client still sends.
    fn close(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Write);
        let _ = self
            .stream
            .set_read_timeout(Some(Duration::from_millis(100)));
        let mut sink = [0u8; 4096];
        let mut left = 256 * 1024usize;
        while left > 0 {
            match self.stream.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    }

    /// Reads into `buf` with `timeout`: `Ok(0)` is the end of the input, `Err` a timeout or failure.
    fn fill(&mut self, timeout: Duration) -> io::Result<usize> {
        // A zero timeout is an error for `set_read_timeout`: the smallest wait instead.
        self.stream
            .set_read_timeout(Some(timeout.max(Duration::from_millis(1))))?;
        let mut chunk = [0u8; 8192];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The next request and whether the connection ends after it; `None` when the client closed
    /// the connection or left it silent (past the read timeout, or while others wait).
    fn next_request(
        &mut self,
        waiting: &AtomicUsize,
        limits: Limits,
    ) -> Result<Option<(Request, bool)>, Refusal> {
        // Silence between requests.
        let mut silent = Duration::ZERO;
        while self.buf.is_empty() {
            match self.fill(SLICE) {
                Ok(0) => return Ok(None),
                Ok(_) => {}
                Err(e) if is_timeout(&e) => {
                    silent += SLICE;
                    if silent >= limits.read_timeout || waiting.load(Ordering::SeqCst) > 0 {
                        return Ok(None);
                    }
                }
                Err(_) => return Ok(None),
            }
        }
        // The head, then the body, within the read timeout of the first byte.
        let deadline = Instant::now() + limits.read_timeout;
        let late = || refuse(408, "the request did not arrive in time");
        let head_len = loop {
            if let Some(at) = find(&self.buf, b"\r\n\r\n") {
                break at + 4;
            }
            if self.buf.len() > MAX_HEAD {
                return Err(refuse(
                    431,
                    format!("the request line and headers are over {MAX_HEAD} bytes"),
                ));
            }
            self.more(deadline, &late)?;
        };
        if head_len > MAX_HEAD + 4 {
            return Err(refuse(
                431,
                format!("the request line and headers are over {MAX_HEAD} bytes"),
            ));
        }
        let head = parse_head(self.buf.get(..head_len).unwrap_or(&[]))?;
        let length = head.content_length;
        if length > limits.max_body {
            return Err(refuse(
                413,
                format!(
                    "the body is {length} bytes, over the limit of {} bytes",
                    limits.max_body
                ),
            ));
        }
        if head.expect_continue && self.buf.len() < head_len + length {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        while self.buf.len() < head_len + length {
            self.more(deadline, &late)?;
        }
        let body = self
            .buf
            .get(head_len..head_len + length)
            .unwrap_or(&[])
            .to_vec();
        self.buf.drain(..head_len + length);
        Ok(Some((
            Request {
                method: head.method,
                target: head.target,
                body,
            },
            head.close,
        )))
    }

    /// More input before `deadline`, or the refusal of a request cut short.
    fn more(&mut self, deadline: Instant, late: &dyn Fn() -> Refusal) -> Result<(), Refusal> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(late());
        }
        match self.fill(left) {
            Ok(0) => Err(refuse(400, "the connection ended inside a request")),
            Ok(_) => Ok(()),
            Err(e) if is_timeout(&e) => Err(late()),
            Err(e) => Err(refuse(400, format!("reading the request: {e}"))),
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[derive(Debug)]
struct Head {
    method: Method,
    target: String,
    content_length: usize,
    expect_continue: bool,
    close: bool,
}

/// The request line and headers (up to and including the empty line).
fn parse_head(bytes: &[u8]) -> Result<Head, Refusal> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| refuse(400, "the request line and headers are not UTF-8"))?;
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, format!("bad request line `{}`", clip(line))));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(refuse(400, format!("bad method `{}`", clip(method))));
    }
    let method = match method {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        m => Method::Other(m.to_string()),
    };
    if !target.starts_with('/') {
        return Err(refuse(
            400,
            format!("the request target `{}` is not a path", clip(target)),
        ));
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        v if v.starts_with("HTTP/") => {
            return Err(refuse(
                505,
                format!("{} is not served: HTTP/1.0 and HTTP/1.1 are", clip(v)),
            ))
        }
        v => return Err(refuse(400, format!("bad HTTP version `{}`", clip(v)))),
    };
    let mut head = Head {
        method,
        target: target.to_string(),
        content_length: 0,
        expect_continue: false,
        close: http10,
    };
    let mut length: Option<usize> = None;
    for line in lines.filter(|l| !l.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(refuse(400, format!("bad header line `{}`", clip(line))));
        };
        if name.is_empty() || name.contains(|c: char| c.is_whitespace()) {
            return Err(refuse(400, format!("bad header name `{}`", clip(name))));
        }
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            let n: usize = value
                .parse()
                .map_err(|_| refuse(400, format!("bad Content-Length `{}`", clip(value))))?;
            if length.is_some_and(|l| l != n) {
                return Err(refuse(400, "two different Content-Length headers"));
            }
            length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(refuse(
                501,
                "Transfer-Encoding is not accepted: send the body with a Content-Length",
            ));
        } else if name.eq_ignore_ascii_case("connection") {
            let v = value.to_ascii_lowercase();
            if v.contains("close") {
                head.close = true;
            } else if v.contains("keep-alive") {
                head.close = false;
            }
        } else if name.eq_ignore_ascii_case("expect") {
            if value.eq_ignore_ascii_case("100-continue") {
                head.expect_continue = true;
            } else {
                return Err(refuse(
                    417,
                    format!("cannot meet `Expect: {}`", clip(value)),
                ));
            }
        }
    }
    head.content_length = length.unwrap_or(0);
    Ok(head)
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

fn error_json(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// A whole response: status line, the headers, the body.
pub fn response_bytes(status: u16, kind: &str, body: &str, close: bool) -> Vec<u8> {
    let reason = reason(status);
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {}\r\n\r\n",
        body.len(),
        if close { "close" } else { "keep-alive" }
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};

    fn limits(read_timeout_ms: u64) -> Limits {
        Limits {
            workers: 2,
            queue: 2,
            read_timeout: Duration::from_millis(read_timeout_ms),
            max_body: 1000,
        }
    }

    /// A server on a free port whose handler echoes the method, target and body.
    fn start(limits: Limits) -> std::net::SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let handler: Arc<Handler> = Arc::new(|r: &Request| {
            (
                200,
                "text/plain",
                format!(
                    "{} {} {}",
                    r.method,
                    r.target,
                    String::from_utf8_lossy(&r.body)
                ),
            )
        });
        std::thread::spawn(move || serve(listener, limits, handler));
        addr
    }

    /// Status and body of one response read from `r`.
    fn read_response(r: &mut BufReader<TcpStream>) -> Option<(u16, String)> {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let status: u16 = line.split(' ').nth(1)?.parse().ok()?;
        let mut length = 0usize;
        loop {
            let mut h = String::new();
            r.read_line(&mut h).ok()?;
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some(v) = h.strip_prefix("Content-Length: ") {
                length = v.parse().ok()?;
            }
        }
        let mut body = vec![0u8; length];
        r.read_exact(&mut body).ok()?;
        Some((status, String::from_utf8(body).ok()?))
    }

    fn connect(addr: std::net::SocketAddr) -> (TcpStream, BufReader<TcpStream>) {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let r = BufReader::new(s.try_clone().unwrap());
        (s, r)
    }

    #[test]
    fn keep_alive_pipelining_and_bodies() {
        let addr = start(limits(2000));
        let (mut s, mut r) = connect(addr);
        s.write_all(
            b"POST /a?x=1 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\n\r\n",
        )
        .unwrap();
        assert_eq!(
            read_response(&mut r),
            Some((200, "POST /a?x=1 hello".into()))
        );
        assert_eq!(read_response(&mut r), Some((200, "GET /b ".into())));
        // The same connection serves a third request, with `Expect: 100-continue`.
        s.write_all(b"POST /c HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            .unwrap();
        let mut cont = String::new();
        r.read_line(&mut cont).unwrap();
        assert!(cont.starts_with("HTTP/1.1 100"), "{cont}");
        r.read_line(&mut cont).unwrap();
        s.write_all(b"ok").unwrap();
        assert_eq!(read_response(&mut r), Some((200, "POST /c ok".into())));
    }

    #[test]
    fn malformed_http_is_refused_with_a_message() {
        let addr = start(limits(2000));
        for (raw, want) in [
            (&b"garbage\r\n\r\n"[..], 400),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", 413),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                501,
            ),
            (b"GET \xff HTTP/1.1\r\n\r\n", 400),
        ] {
            let (mut s, mut r) = connect(addr);
            s.write_all(raw).unwrap();
            let (status, body) = read_response(&mut r).expect("an answer");
            assert_eq!(status, want, "{}", String::from_utf8_lossy(raw));
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
        }
        let (mut s, mut r) = connect(addr);
        let mut big = b"GET / HTTP/1.1\r\nX: ".to_vec();
        big.extend(std::iter::repeat_n(b'a', MAX_HEAD + 10));
        s.write_all(&big).unwrap();
        assert_eq!(read_response(&mut r).map(|a| a.0), Some(431));
    }

    /// Regression: connections had no read timeout, so a silent client held a thread for ever.
    #[test]
    fn silent_and_slow_connections_are_closed() {
        let addr = start(limits(300));
        // Silent: closed with nothing sent back.
        let (_s, mut r) = connect(addr);
        let mut byte = [0u8; 1];
        let started = Instant::now();
        assert!(
            matches!(r.read(&mut byte), Ok(0)),
            "the silent connection stays open"
        );
        assert!(started.elapsed() < Duration::from_secs(9));
        // A request started and never finished: 408 within the timeout, not held for ever.
        let (mut s, mut r) = connect(addr);
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
        assert_eq!(read_response(&mut r).map(|a| a.0), Some(408));
        // A body promised and not sent: the same.
        let (mut s, mut r) = connect(addr);
        s.write_all(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
            .unwrap();
        assert_eq!(read_response(&mut r).map(|a| a.0), Some(408));
    }

    /// Regression: every connection had its own thread. With 2 workers and 2 places in the queue,
    /// silent connections beyond them are answered 503 at once, and a silent connection gives its
    /// worker up to one that waits, so a real request is served while they are all still open
    /// (their read timeout, 60 s, is far away).
    #[test]
    fn connections_beyond_the_pool_are_refused_and_silent_ones_yield() {
        let addr = start(limits(60_000));
        let started = Instant::now();
        let mut idle: Vec<_> = (0..12).map(|_| connect(addr)).collect();
        let mut refused = 0;
        for (_, r) in idle.iter_mut().skip(4) {
            match read_response(r) {
                Some((503, _)) => refused += 1,
                None => {} // closed: its worker went to a waiting connection
                other => panic!("{other:?}"),
            }
        }
        assert!(refused >= 1, "no connection was refused");
        let mut answer = None;
        for _ in 0..100 {
            let (mut s, mut r) = connect(addr);
            s.write_all(b"GET /x HTTP/1.1\r\n\r\n").unwrap();
            answer = read_response(&mut r);
            if answer.as_ref().is_some_and(|a| a.0 == 200) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(answer, Some((200, "GET /x ".into())));
        assert!(
            started.elapsed() < Duration::from_secs(50),
            "served only after the timeout"
        );
        drop(idle);
    }

    /// Regression (the web fault run): clients that send requests back to back over keep-alive
    /// held every worker, and a new connection waited until one of them closed.
    #[test]
    fn busy_keep_alive_connections_give_way_to_a_waiting_one() {
        let addr = start(limits(60_000));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut reconnects = 0;
                    while !stop.load(Ordering::SeqCst) {
                        let (mut s, mut r) = connect(addr);
                        while !stop.load(Ordering::SeqCst)
                            && s.write_all(b"GET /busy HTTP/1.1\r\n\r\n").is_ok()
                            && read_response(&mut r).is_some_and(|a| a.0 == 200)
                        {
                        }
                        reconnects += 1;
                    }
                    reconnects
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        let (mut s, mut r) = connect(addr);
        s.write_all(b"GET /new HTTP/1.1\r\n\r\n").unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let answer = read_response(&mut r);
        let waited = started.elapsed();
        stop.store(true, Ordering::SeqCst);
        for b in busy {
            b.join().unwrap();
        }
        assert_eq!(answer, Some((200, "GET /new ".into())));
        assert!(waited < Duration::from_secs(5), "served after {waited:?}");
    }

    #[test]
    fn head_parsing() {
        let h = parse_head(b"GET /x HTTP/1.0\r\n\r\n").unwrap();
        assert!(h.close);
        let h = parse_head(b"GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").unwrap();
        assert!(!h.close);
        let h = parse_head(b"GET /x HTTP/1.1\r\nconnection: Close\r\n\r\n").unwrap();
        assert!(h.close);
        assert_eq!(
            parse_head(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
                .unwrap_err()
                .status,
            400
        );
        assert_eq!(
            parse_head(b"GET http://x/ HTTP/1.1\r\n\r\n")
                .unwrap_err()
                .status,
            400
        );
        assert_eq!(
            parse_head(b"GET / HTTP/1.1\r\nExpect: magic\r\n\r\n")
                .unwrap_err()
                .status,
            417
        );
    }
}
