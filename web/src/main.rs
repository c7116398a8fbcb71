//! `sanqi-web`: Chinese checkers in the browser. A local web server (HTTP/1.1 over `std::net`,
//! a fixed pool of request threads) that serves an embedded page and plays each browser tab's
//! game with its own `sanqi` process over the protocol, at most `MAX_ENGINES` processes at once.

mod engine;
mod fake;
mod game;
mod http;
mod server;

use std::path::PathBuf;

const USAGE: &str = "usage: sanqi-web [--port N (default 8080, 0 = any free port)] [--host ADDR (default 127.0.0.1)] [--engine PATH (default: sanqi beside this binary)]";

fn main() {
    match run() {
        Ok(()) => {}
        Err(e) => {
            eprintln!("sanqi-web: {e}");
            std::process::exit(2);
        }
    }
}

fn run() -> Result<(), String> {
    let mut port: u16 = 8080;
    let mut host = String::from("127.0.0.1");
    let mut engine: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--port" => {
                let v = value("--port")?;
                port = v.parse().map_err(|e| format!("--port {v}: {e}"))?;
            }
            "--host" => host = value("--host")?,
            "--engine" => engine = Some(PathBuf::from(value("--engine")?)),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    let engine = match engine {
        Some(p) => p,
        None => {
            let exe =
                std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
            let name = if cfg!(windows) { "sanqi.exe" } else { "sanqi" };
            exe.parent()
                .map(|d| d.join(name))
                .ok_or_else(|| "cannot find the folder of this binary".to_string())?
        }
    };
    if !engine.is_file() {
        return Err(format!(
            "no engine at {} (build it with `cargo build --release`, or pass --engine PATH)",
            engine.display()
        ));
    }
    server::serve(&host, port, engine)
}
