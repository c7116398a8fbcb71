// sanqi-web: the page. Everything about rules comes from the engine through the server's API;
// this file only draws the star, sends clicks and animates paths.
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const SEATS = { 2: "AD", 3: "ACE", 4: "ABDE", 6: "ABCDEF" };
  const TRI = {
    A: "m1 l2 m2 k3 l3 m3 j4 k4 l4 m4", B: "e5 f5 g5 h5 e6 f6 g6 e7 f7 e8",
    C: "d10 c11 d11 b12 c12 d12 a13 b13 c13 d13", D: "e14 f14 g14 h14 e15 f15 g15 e16 f16 e17",
    E: "m10 l11 m11 k12 l12 m12 j13 k13 l13 m13", F: "n5 o5 p5 q5 n6 o6 p6 n7 o7 n8",
  };
  const COLOUR = { A: "#d93b3b", B: "#222", C: "#e8c21a", D: "#2f6fd6", E: "#2e9e49", F: "#f08a24" };
  const NAME = { A: "red", B: "black", C: "yellow", D: "blue", E: "green", F: "orange" };
  const STEP = 30;
  const $ = (id) => document.getElementById(id);
  const board = $("board");

  let state = null;         // the server's last state
  let gameId = sessionStorage.getItem("sanqi-game");
  let selected = null;      // cell of the selected piece
  let dests = {};           // destination cell -> {move, path}
  let busy = false;
  let generation = 0;       // a new game stops the previous game's loop
  let animations = 0;

  // ---- geometry: cell name <-> screen point ----
  const cells = [];
  const pos = {};
  for (let rank = 17; rank >= 1; rank--) {
    for (let f = -8; f <= 8; f++) {
      const r = rank - 9, x = f, y = r, z = -f - r;
      if (Math.max(x, y, z) <= 4 || Math.min(x, y, z) >= -4) {
        const name = String.fromCharCode(105 + f) + rank;
        cells.push(name);
        pos[name] = [STEP * (f + r / 2), -STEP * r * Math.sqrt(3) / 2];
      }
    }
  }
  const el = (tag, attrs, parent) => {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  };
  function drawBoard() {
    const xs = cells.map((c) => pos[c][0]), ys = cells.map((c) => pos[c][1]);
    const pad = STEP * 0.7;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    board.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) + pad - minX} ${Math.max(...ys) + pad - minY}`);
    for (const p in TRI) {
      const tips = TRI[p].split(" ");
      const pts = [tips[0], tips[6], tips[9]].map((c) => pos[c].join(",")).join(" ");
      el("polygon", { points: pts, class: "tri", fill: COLOUR[p], stroke: COLOUR[p], "stroke-width": 34, "stroke-linejoin": "round" }, board);
    }
    for (const c of cells) {
      const circle = el("circle", { cx: pos[c][0], cy: pos[c][1], r: STEP * 0.38, class: "cell", "data-cell": c, tabindex: 0, role: "button", "aria-label": c }, board);
      circle.addEventListener("click", () => onCell(c));
      circle.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onCell(c); }
      });
    }
    el("g", { id: "overlay" }, board);
  }
  const cellEl = (c) => board.querySelector(`[data-cell="${c}"]`);

  // ---- API ----
  async function api(name, body) {
    const res = await fetch(name === "state" ? `/api/state?game=${encodeURIComponent(gameId)}` : `/api/${name}`,
      name === "state" ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    if (!res.ok) { const e = new Error(data.error || `HTTP ${res.status}`); e.status = res.status; throw e; }
    return data;
  }

  // ---- drawing the state ----
  function setBusy(b) {
    busy = b;
    board.dataset.busy = b ? "1" : "0";
    updateButtons();
  }
  function updateButtons() {
    const human = state && state.humanToMove;
    $("hint").disabled = busy || !human || state.mustPass;
    $("undo").disabled = busy || !state || !state.moves.length;
    $("pass").hidden = !(human && state.mustPass);
    $("pass").disabled = busy;
  }
  function showNotice(text) {
    if (!text) return;
    $("notice").textContent = text;
    $("notice").hidden = false;
  }
  function render() {
    const s = state;
    clearSelection();
    clearHint();
    for (const c of cells) {
      const e = cellEl(c), p = s.board[c];
      e.setAttribute("class", "cell" + (p ? " p-" + p : ""));
      e.setAttribute("aria-label", c + (p ? ` ${NAME[p]} ${p}` : " empty"));
    }
    if (s.humanToMove) for (const c of s.movable) { const e = cellEl(c); if (e) e.classList.add("movable"); }
    board.dataset.toMove = s.toMove || "";
    board.dataset.over = s.winner ? "1" : "0";
    board.dataset.ply = String(s.moves.length);
    const list = $("movelist");
    list.textContent = "";
    for (const m of s.moves) {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch"; sw.style.background = COLOUR[m.player];
      li.appendChild(sw);
      li.appendChild(document.createTextNode(`${m.player} ${m.move === "0000" ? "0000 (pass)" : m.move}`));
      if (m.path.length > 2) li.title = "path " + m.path.join(" ");
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
    const banner = $("banner");
    if (s.winner) {
      banner.textContent = `Game over: ${s.winner} (${NAME[s.winner]}) wins. ${s.reason || ""}`;
      banner.hidden = false;
      $("status").textContent = "Game over";
    } else {
      banner.hidden = true;
      const seat = s.seats.find((x) => x.player === s.toMove);
      $("status").textContent = s.humanToMove
        ? (s.mustPass ? `${s.toMove} (${NAME[s.toMove]}) has no legal move and must pass` : `${s.toMove} (${NAME[s.toMove]}) to move: pick a piece`)
        : `${s.toMove} (${NAME[s.toMove]}) is thinking (skill ${seat ? seat.skill : "?"}, ${seat ? seat.movetime : "?"} ms)…`;
    }
    showNotice(s.notice);
    updateButtons();
  }
  function clearSelection() {
    selected = null; dests = {};
    board.querySelectorAll(".selected, .dest").forEach((e) => e.classList.remove("selected", "dest"));
  }
  function clearHint() {
    board.querySelectorAll(".hint-from, .hint-to").forEach((e) => e.classList.remove("hint-from", "hint-to"));
    const t = $("hint-trail"); if (t) t.remove();
    delete board.dataset.hint;
  }
  function trail(path, cls, id) {
    const old = $(id); if (old) old.remove();
    if (path.length < 2) return;
    el("polyline", { id, class: cls, points: path.map((c) => pos[c].join(",")).join(" ") }, $("overlay"));
  }

  // Moves a ghost piece along `path` (the board itself is redrawn by the caller afterwards).
  function animate(path, player, lift) {
    animations++;
    board.dataset.animations = String(animations);
    board.dataset.lastPath = path.join(" ");
    const hop = Number($("anim").value);
    if (path.length < 2 || hop <= 0) return Promise.resolve();
    const start = cellEl(path[0]);
    if (lift && start) start.classList.add("lifted");
    const ghost = el("circle", { class: "ghost", r: STEP * 0.38, fill: COLOUR[player], cx: pos[path[0]][0], cy: pos[path[0]][1] }, $("overlay"));
    board.dataset.animating = "1";
    return new Promise((resolve) => {
      let i = 0, t0 = null;
      function frame(t) {
        if (t0 === null) t0 = t;
        const k = Math.min(1, (t - t0) / hop);
        const [ax, ay] = pos[path[i]], [bx, by] = pos[path[i + 1]];
        ghost.setAttribute("cx", ax + (bx - ax) * k);
        ghost.setAttribute("cy", ay + (by - ay) * k);
        if (k >= 1) { i++; t0 = t; }
        if (i >= path.length - 1) {
          ghost.remove();
          board.dataset.animating = "0";
          resolve();
        } else requestAnimationFrame(frame);
      }
      requestAnimationFrame(frame);
    });
  }

  // ---- the game loop: computers move until a person is to move or the game ends ----
  async function advance() {
    const gen = generation;
    $("retry").hidden = true;
    while (state && !state.winner && !state.humanToMove && gen === generation) {
      setBusy(true);
      try {
        const r = await api("go", { game: gameId });
        if (gen !== generation) return;
        trail(r.played.path, "trail", "last-trail");
        await animate(r.played.path, r.played.player, true);
        if (gen !== generation) return;
        state = r.state;
        render();
      } catch (e) {
        if (gen !== generation) return;
        fail(e);
        $("retry").hidden = false;
        break;
      } finally {
        if (gen === generation) setBusy(false);
      }
    }
  }
  function fail(e) {
    showNotice(`Error: ${e.message}`);
    if (e.status === 404) gameId = null;
  }

  async function onCell(c) {
    if (busy || !state || !state.humanToMove || state.mustPass) return;
    if (dests[c]) return play(dests[c]);
    if (selected === c) { clearSelection(); return; }
    clearSelection();
    if (state.board[c] !== state.toMove || !state.movable.includes(c)) return;
    selected = c;
    cellEl(c).classList.add("selected");
    const gen = generation;
    try {
      const r = await api("moves", { game: gameId, cell: c });
      if (gen !== generation || selected !== c) return;
      for (const m of r.moves) {
        const to = m.path[m.path.length - 1];
        dests[to] = m;
        cellEl(to).classList.add("dest");
      }
    } catch (e) { fail(e); }
  }

  async function play(m) {
    const gen = generation;
    setBusy(true);
    clearSelection();
    try {
      trail(m.path, "trail", "last-trail");
      await animate(m.path, state.toMove, true);
      const r = await api("move", { game: gameId, move: m.move });
      if (gen !== generation) return;
      state = r;
      render();
    } catch (e) { fail(e); if (state) render(); }
    finally { if (gen === generation) setBusy(false); }
    advance();
  }

  async function hint() {
    if (busy || !state || !state.humanToMove) return;
    const gen = generation;
    setBusy(true);
    clearSelection();
    clearHint();
    try {
      const r = await api("hint", { game: gameId });
      if (gen !== generation) return;
      board.dataset.hint = r.move;
      if (r.path.length) {
        trail(r.path, "hint-trail", "hint-trail");
        cellEl(r.path[0]).classList.add("hint-from");
        cellEl(r.path[r.path.length - 1]).classList.add("hint-to");
        await animate(r.path, state.toMove, false);
      }
      $("status").textContent = r.move === "0000" ? "Hint: pass" : `Hint: ${r.move} (path ${r.path.join(" ")})`;
    } catch (e) { fail(e); }
    finally { if (gen === generation) setBusy(false); }
  }

  async function undo() {
    if (busy || !state) return;
    setBusy(true);
    try { state = await api("undo", { game: gameId }); render(); }
    catch (e) { fail(e); }
    finally { setBusy(false); }
    advance();
  }

  // ---- setup ----
  function seatRows() {
    const n = Number($("players").value), tbody = $("seats").querySelector("tbody");
    const old = [...tbody.querySelectorAll("tr")].map(readRow);
    tbody.textContent = "";
    [...SEATS[n]].forEach((p, i) => {
      const o = old[i] || { human: i === 0, skill: 20, movetime: 500 };
      const tr = document.createElement("tr");
      tr.dataset.seat = p;
      tr.innerHTML = `<td><span class="swatch" style="background:${COLOUR[p]}"></span>${p}</td>
        <td><select class="seat-kind" aria-label="seat ${p} played by"><option value="human">person</option><option value="computer">computer</option></select></td>
        <td><input class="seat-skill" type="number" min="0" max="20" aria-label="seat ${p} skill"></td>
        <td><input class="seat-time" type="number" min="10" max="60000" step="10" aria-label="seat ${p} time per move in ms"></td>`;
      tr.querySelector(".seat-kind").value = o.human ? "human" : "computer";
      tr.querySelector(".seat-skill").value = o.skill;
      tr.querySelector(".seat-time").value = o.movetime;
      tbody.appendChild(tr);
    });
  }
  function readRow(tr) {
    return {
      human: tr.querySelector(".seat-kind").value === "human",
      skill: Math.max(0, Math.min(20, Math.round(Number(tr.querySelector(".seat-skill").value)) || 0)),
      movetime: Math.max(10, Math.min(60000, Math.round(Number(tr.querySelector(".seat-time").value)) || 500)),
    };
  }
  async function newGame() {
    generation++;
    const gen = generation;
    setBusy(true);
    $("notice").hidden = true;
    $("retry").hidden = true;
    const t = $("last-trail"); if (t) t.remove();
    try {
      const r = await api("new", {
        players: Number($("players").value),
        seats: [...$("seats").querySelectorAll("tbody tr")].map(readRow),
        goalLock: $("goal-lock").checked,
        noForeignStop: $("no-foreign-stop").checked,
        previous: gameId,
      });
      if (gen !== generation) return;
      gameId = r.game;
      sessionStorage.setItem("sanqi-game", gameId);
      state = r;
      render();
    } catch (e) { fail(e); }
    finally { if (gen === generation) setBusy(false); }
    advance();
  }

  drawBoard();
  seatRows();
  setBusy(false);
  $("players").addEventListener("change", seatRows);
  $("new").addEventListener("click", newGame);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("retry").addEventListener("click", advance);
  $("pass").addEventListener("click", () => play({ move: "0000", path: [] }));
  window.sanqi = { get state() { return state; }, get busy() { return busy; }, get game() { return gameId; } };
  // A reload keeps the tab's game if the server still has it.
  (async () => {
    if (gameId) {
      try { state = await api("state"); render(); advance(); return; } catch (e) { gameId = null; }
    }
    newGame();
  })();
})();
