//! HTTP: the embedded page and a small JSON API, one game per browser tab (a game id).
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /`, `/app.js`, `/app.css` | | the page |
//! | `POST /api/new` | `{"players":2,"seats":[{"human":true,"skill":20,"movetime":500},..],"goalLock":false,"noForeignStop":false}` | state |
//! | `GET /api/state?game=ID` | | state |
//! | `POST /api/moves` | `{"game":ID,"cell":"k3"}` | `{"moves":[{"move","path"}]}` |
//! | `POST /api/move` | `{"game":ID,"move":"k3k5"}` | state |
//! | `POST /api/go` | `{"game":ID}` | `{"played":{..},"state":..}` (a computer seat's move) |
//! | `POST /api/hint` | `{"game":ID}` | `{"move","path"}` |
//! | `POST /api/undo` | `{"game":ID}` | state |
//!
//! Errors are `{"error": message}` with a 4xx (the request) or 5xx (the engine) status.

use crate::engine::Engine;
use crate::game::{seats_for, Failure, Game, Seat};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tiny_http::{Header, Method, Request, Response, Server};

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// At most this many games (engine processes) at once; a new one ends the least recently used.
const MAX_GAMES: usize = 16;
const MAX_BODY: u64 = 64 * 1024;
const MAX_MOVETIME: u64 = 60_000;

type Games = Mutex<HashMap<String, Arc<Mutex<Game>>>>;

pub struct App {
    engine: PathBuf,
    games: Games,
}

pub fn serve(host: &str, port: u16, engine: PathBuf) -> Result<(), String> {
    let server =
        Server::http((host, port)).map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .unwrap_or(port);
    println!(
        "sanqi-web: open http://{host}:{port}/  (engine: {})",
        engine.display()
    );
    let app = Arc::new(App {
        engine,
        games: Mutex::new(HashMap::new()),
    });
    for request in server.incoming_requests() {
        let app = Arc::clone(&app);
        std::thread::spawn(move || handle(&app, request));
    }
    Ok(())
}

fn handle(app: &App, mut request: Request) {
    let started = Instant::now();
    let method = request.method().clone();
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let mut body = String::new();
    let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
    let (status, kind, text) = match read {
        Err(e) => error(Failure::bad(format!("unreadable body: {e}"))),
        Ok(_) => route(app, &method, path, query, &body),
    };
    let mut response = Response::from_string(text).with_status_code(status);
    if let Ok(h) = Header::from_bytes(&b"Content-Type"[..], kind.as_bytes()) {
        response.add_header(h);
    }
    if let Ok(h) = Header::from_bytes(&b"Cache-Control"[..], &b"no-store"[..]) {
        response.add_header(h);
    }
    let _ = request.respond(response);
    if std::env::var_os("SANQI_WEB_LOG").is_some() {
        eprintln!("{method} {path} {status} {:?}", started.elapsed());
    }
}

type Answer = (u16, &'static str, String);

fn page(kind: &'static str, text: &str) -> Answer {
    (200, kind, text.to_string())
}

fn ok(v: Value) -> Answer {
    (200, "application/json", v.to_string())
}

fn error(f: Failure) -> Answer {
    (
        f.status,
        "application/json",
        json!({"error": f.message}).to_string(),
    )
}

pub fn route(app: &App, method: &Method, path: &str, query: &str, body: &str) -> Answer {
    match (method, path) {
        (Method::Get, "/" | "/index.html") => page("text/html; charset=utf-8", INDEX),
        (Method::Get, "/app.js") => page("text/javascript; charset=utf-8", APP_JS),
        (Method::Get, "/app.css") => page("text/css; charset=utf-8", APP_CSS),
        (Method::Get, "/api/state") => {
            let id = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("game="))
                .unwrap_or("");
            with_game(app, id, |g| g.state(id)).map_or_else(error, ok)
        }
        (Method::Post, p) if p.starts_with("/api/") => match serde_json::from_str::<Value>(body) {
            Err(e) => error(Failure::bad(format!("the body is not JSON: {e}"))),
            Ok(v) => api(app, &p["/api/".len()..], &v).map_or_else(error, ok),
        },
        (_, "/" | "/index.html" | "/app.js" | "/app.css" | "/api/state") => error(Failure {
            status: 405,
            message: format!("{method} is not allowed on {path}"),
        }),
        (_, p) if p.starts_with("/api/") => error(Failure {
            status: if matches!(method, Method::Post) {
                404
            } else {
                405
            },
            message: format!("no {method} {path}"),
        }),
        _ => error(Failure {
            status: 404,
            message: format!("no page {path}"),
        }),
    }
}

fn str_field<'a>(v: &'a Value, name: &str) -> Result<&'a str, Failure> {
    v.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Failure::bad(format!("`{name}` (a string) is missing")))
}

fn api(app: &App, name: &str, v: &Value) -> Result<Value, Failure> {
    match name {
        "new" => new_game(app, v),
        "moves" => {
            let id = str_field(v, "game")?;
            let cell = str_field(v, "cell")?;
            let moves = with_game(app, id, |g| g.legal(Some(cell)))?;
            Ok(
                json!({"moves": moves.iter().map(|m| json!({"move": m.mv, "path": m.path})).collect::<Vec<_>>()}),
            )
        }
        "move" => {
            let id = str_field(v, "game")?;
            let mv = str_field(v, "move")?;
            with_game(app, id, |g| {
                g.play(mv)?;
                g.state(id)
            })
        }
        "go" => {
            let id = str_field(v, "game")?;
            with_game(app, id, |g| {
                let p = g.computer_move()?;
                let state = g.state(id)?;
                Ok(
                    json!({"played": {"player": p.player.to_string(), "move": p.mv, "path": p.path}, "state": state}),
                )
            })
        }
        "hint" => {
            let id = str_field(v, "game")?;
            with_game(app, id, |g| {
                let m = g.hint()?;
                Ok(json!({"move": m.mv, "path": m.path}))
            })
        }
        "undo" => {
            let id = str_field(v, "game")?;
            with_game(app, id, |g| {
                g.undo()?;
                g.state(id)
            })
        }
        other => Err(Failure {
            status: 404,
            message: format!("no API call `{other}`"),
        }),
    }
}

fn with_game<T>(
    app: &App,
    id: &str,
    f: impl FnOnce(&mut Game) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let game = app
        .games
        .lock()
        .map_err(|_| Failure::bad("server state poisoned"))?
        .get(id)
        .cloned()
        .ok_or_else(|| Failure {
            status: 404,
            message: format!("no game `{id}` (the server may have restarted: start a new game)"),
        })?;
    let mut g = game.lock().map_err(|_| Failure {
        status: 500,
        message: "this game's state was lost in a crash; start a new game".into(),
    })?;
    g.last_used = Instant::now();
    f(&mut g)
}

/// Reads the seats of a new game: `players` 2/3/4/6 and one entry per seat.
pub fn parse_seats(v: &Value) -> Result<Vec<Seat>, Failure> {
    let n = v
        .get("players")
        .and_then(Value::as_u64)
        .ok_or_else(|| Failure::bad("`players` (2, 3, 4 or 6) is missing"))?;
    let letters = usize::try_from(n)
        .ok()
        .and_then(seats_for)
        .ok_or_else(|| Failure::bad(format!("{n} players: 2, 3, 4 or 6 can play")))?;
    let configs = v.get("seats").and_then(Value::as_array);
    letters
        .chars()
        .enumerate()
        .map(|(i, player)| {
            let c = configs.and_then(|a| a.get(i));
            let human = c
                .and_then(|c| c.get("human"))
                .and_then(Value::as_bool)
                .unwrap_or(i == 0);
            let skill = c
                .and_then(|c| c.get("skill"))
                .and_then(Value::as_u64)
                .unwrap_or(20);
            let movetime = c
                .and_then(|c| c.get("movetime"))
                .and_then(Value::as_u64)
                .unwrap_or(500);
            if skill > 20 {
                return Err(Failure::bad(format!("skill {skill}: 0..20")));
            }
            if !(1..=MAX_MOVETIME).contains(&movetime) {
                return Err(Failure::bad(format!(
                    "movetime {movetime}: 1..{MAX_MOVETIME} ms"
                )));
            }
            Ok(Seat {
                player,
                human,
                skill: skill as u32,
                movetime,
            })
        })
        .collect()
}

fn new_game(app: &App, v: &Value) -> Result<Value, Failure> {
    let seats = parse_seats(v)?;
    let flag = |name: &str| v.get(name).and_then(Value::as_bool).unwrap_or(false);
    let engine = app.engine.clone();
    let mut game = Game::new(
        seats,
        flag("goalLock"),
        flag("noForeignStop"),
        Box::new(move || Engine::spawn(&engine)),
    );
    let id = new_id();
    let state = game.state(&id)?;
    let mut games = app
        .games
        .lock()
        .map_err(|_| Failure::bad("server state poisoned"))?;
    // The tab's previous game ends with its new one.
    if let Some(old) = v.get("previous").and_then(Value::as_str) {
        games.remove(old);
    }
    while games.len() >= MAX_GAMES {
        let oldest = games
            .iter()
            .min_by_key(|(_, g)| {
                g.try_lock()
                    .map(|g| g.last_used)
                    .unwrap_or_else(|_| Instant::now())
            })
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => games.remove(&k),
            None => break,
        };
    }
    games.insert(id, Arc::new(Mutex::new(game)));
    Ok(state)
}

fn new_id() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    format!("{:016x}", h.finish())
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::fake::{fake_engine, Fault};

    fn app() -> App {
        App {
            engine: fake_engine(Fault::None),
            games: Mutex::new(HashMap::new()),
        }
    }

    fn post(app: &App, path: &str, body: &str) -> (u16, Value) {
        let (status, _, text) = route(app, &Method::Post, path, "", body);
        (status, serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn pages_are_embedded() {
        let app = app();
        for (path, kind) in [
            ("/", "text/html"),
            ("/app.js", "text/javascript"),
            ("/app.css", "text/css"),
        ] {
            let (status, k, text) = route(&app, &Method::Get, path, "", "");
            assert_eq!(status, 200);
            assert!(k.starts_with(kind) && !text.is_empty());
        }
        assert!(INDEX.contains("id=\"board\"") && !INDEX.contains("://cdn"));
    }

    #[test]
    fn malformed_requests_are_4xx_with_a_message() {
        let app = app();
        for (path, body, want) in [
            ("/api/new", "{", 400),
            ("/api/new", "{\"players\":5}", 400),
            (
                "/api/new",
                "{\"players\":2,\"seats\":[{\"skill\":99}]}",
                400,
            ),
            (
                "/api/new",
                "{\"players\":2,\"seats\":[{\"movetime\":0}]}",
                400,
            ),
            ("/api/move", "{\"game\":\"x\"}", 400),
            ("/api/move", "{\"game\":\"x\",\"move\":\"k3k5\"}", 404),
            ("/api/frobnicate", "{}", 404),
        ] {
            let (status, v) = post(&app, path, body);
            assert_eq!(status, want, "{path} {body}");
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()));
        }
        let (status, _, _) = route(&app, &Method::Get, "/api/move", "", "");
        assert_eq!(status, 405);
        let (status, _, _) = route(&app, &Method::Get, "/nothing", "", "");
        assert_eq!(status, 404);
    }

    #[test]
    fn two_tabs_two_games() {
        let app = app();
        let (s1, g1) = post(&app, "/api/new", "{\"players\":2}");
        let (s2, g2) = post(&app, "/api/new", "{\"players\":2,\"goalLock\":true}");
        assert_eq!((s1, s2), (200, 200));
        let (id1, id2) = (g1["game"].as_str().unwrap(), g2["game"].as_str().unwrap());
        assert_ne!(id1, id2);
        let (status, after) = post(
            &app,
            "/api/move",
            &format!("{{\"game\":\"{id1}\",\"move\":\"k3k5\"}}"),
        );
        assert_eq!(status, 200);
        assert_eq!(after["moves"].as_array().unwrap().len(), 1);
        let (status, _, text) = route(&app, &Method::Get, "/api/state", &format!("game={id2}"), "");
        let other: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200);
        assert_eq!(other["moves"].as_array().unwrap().len(), 0);
        assert_eq!(other["rules"]["goalLock"], true);
        // A new game of the same tab ends its previous one.
        let (_, g3) = post(
            &app,
            "/api/new",
            &format!("{{\"players\":3,\"previous\":\"{id1}\"}}"),
        );
        assert_eq!(g3["seats"].as_array().unwrap().len(), 3);
        assert_eq!(app.games.lock().unwrap().len(), 2);
    }
}
