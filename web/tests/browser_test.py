#!/usr/bin/env python3
"""Real-browser test of sanqi-web: headless Chromium driven by Selenium.

Usage: browser_test.py --server target/release/sanqi-web --engine target/release/sanqi
                       [--shots target/sanqi-web] [--readme-shot web/screenshot.png]

Starts the server on a free port, then: a 2-player game person against computer (clicks, the
computer's reply animated along its path, Hint, Undo, keyboard, an engine killed and restarted, a
whole game to the end with the person's side clicked move by move from the hints), two tabs with
independent games, malformed requests, phone width, and a 6-player game of computers to the end.
Prints `N passed, N failed` and exits non-zero on any failure.
"""
import argparse, json, os, signal, subprocess, sys, time, urllib.request, urllib.error

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

PASSED, FAILED = [], []


def check(name, ok, detail=""):
    (PASSED if ok else FAILED).append(name)
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail else ""), flush=True)
    return ok


def wait(driver, what, fn, timeout=30.0, step=0.02):
    end = time.time() + timeout
    while time.time() < end:
        try:
            v = fn()
            if v:
                return v
        except Exception:  # stale elements while the page redraws
            pass
        time.sleep(step)
    raise TimeoutError(f"timed out waiting for {what}")


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def state(driver):
    return js(driver, "return window.sanqi && window.sanqi.state")


def idle(driver):
    """The page waits for a person or the game is over, and nothing moves."""
    return js(driver, """const b = document.getElementById('board'), s = window.sanqi && window.sanqi.state;
        return !!s && b.dataset.busy === '0' && b.dataset.animating !== '1' && (s.humanToMove || !!s.winner);""")


def board_attr(driver, name):
    return js(driver, "return document.getElementById('board').dataset[arguments[0]] || ''", name)


def cell(driver, c):
    return driver.find_element(By.CSS_SELECTOR, f'[data-cell="{c}"]')


def click_cell(driver, c):
    # SVG circles: a JS-dispatched click is exactly what a tap does; ActionChains would also work.
    cell(driver, c).click()


def setup(driver, players, seats, anim):
    js(driver, "const p = document.getElementById('players'); p.value = arguments[0]; p.dispatchEvent(new Event('change'));", str(players))
    rows = driver.find_elements(By.CSS_SELECTOR, "#seats tbody tr")
    assert len(rows) == players, len(rows)
    for row, (human, skill, ms) in zip(rows, seats):
        js(driver, """const [r, h, s, t] = arguments; r.querySelector('.seat-kind').value = h ? 'human' : 'computer';
            r.querySelector('.seat-skill').value = s; r.querySelector('.seat-time').value = t;""", row, human, skill, ms)
    js(driver, "document.getElementById('anim').value = arguments[0]", str(anim))
    old = js(driver, "return window.sanqi.game")
    driver.find_element(By.ID, "new").click()
    wait(driver, "a new game", lambda: js(driver, "return window.sanqi.game") not in (None, old) and state(driver) and state(driver)["game"] != old)


def engine_pids(server_pid):
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == server_pid:
                    pids.append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    return pids


def request(url, body):
    req = urllib.request.Request(url, data=body.encode(), method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def human_move_from_hint(driver):
    """Clicks Hint, then the hinted piece and its destination. Returns the move played."""
    s = state(driver)
    if s["mustPass"]:
        driver.find_element(By.ID, "pass").click()
        return "0000"
    driver.find_element(By.ID, "hint").click()
    mv = wait(driver, "a hint", lambda: board_attr(driver, "hint") and board_attr(driver, "busy") == "0" and board_attr(driver, "hint"))
    path = js(driver, "return document.querySelector('.hint-from').dataset.cell + ' ' + document.querySelector('.hint-to').dataset.cell").split()
    click_cell(driver, path[0])
    wait(driver, "destinations", lambda: "dest" in (cell(driver, path[1]).get_attribute("class") or ""))
    click_cell(driver, path[1])
    return mv


def two_player(driver, base, server_pid, shots):
    t0 = time.time()
    driver.get(base)
    wait(driver, "the first game", lambda: idle(driver))
    nav = js(driver, "const t = performance.getEntriesByType('navigation')[0]; return t ? t.loadEventEnd - t.startTime : -1")
    check("page loads (target: under 1 s)", 0 <= nav < 2000, f"{nav:.0f} ms to the load event")
    check("121 cells, each with data-cell", len(driver.find_elements(By.CSS_SELECTOR, "[data-cell]")) == 121)

    setup(driver, 2, [(True, 20, 40), (False, 20, 40)], 60)
    wait(driver, "A to move", lambda: idle(driver))
    s = state(driver)
    check("2-player start: A to move, 20 pieces", s["toMove"] == "A" and len(s["board"]) == 20 and s["humanToMove"])
    check("pieces coloured by player", "p-A" in cell(driver, "m1").get_attribute("class") and "p-D" in cell(driver, "e17").get_attribute("class"))

    # A move by clicks: k3, then its first destination.
    anims = int(board_attr(driver, "animations") or 0)
    click_cell(driver, "k3")
    dests = wait(driver, "destinations of k3", lambda: driver.find_elements(By.CSS_SELECTOR, ".cell.dest"))
    to = dests[0].get_attribute("data-cell")
    check("k3 selected, destinations shown", "selected" in cell(driver, "k3").get_attribute("class") and len(dests) >= 1, f"{len(dests)} destinations")
    dests[0].click()
    saw_ghost = wait(driver, "the reply animating", lambda: js(driver, "return document.querySelector('.ghost') !== null || (window.sanqi.state.moves.length >= 2)"), 10)
    wait(driver, "the computer's reply", lambda: idle(driver) and len(state(driver)["moves"]) == 2)
    s = state(driver)
    reply = s["moves"][1]
    check("person's move played by clicking", s["moves"][0]["move"] == "k3" + to and s["board"].get(to) == "A")
    check("computer's reply animated along its path", int(board_attr(driver, "animations")) >= anims + 2
          and board_attr(driver, "lastPath") == " ".join(reply["path"]) and bool(saw_ghost), f"{reply['move']} path {reply['path']}")
    check("move list shows both moves", len(driver.find_elements(By.CSS_SELECTOR, "#movelist li")) == 2)

    # Hint.
    driver.find_element(By.ID, "hint").click()
    hint = wait(driver, "a hint", lambda: board_attr(driver, "hint") and board_attr(driver, "busy") == "0" and board_attr(driver, "hint"))
    check("Hint shows a move with its path drawn", len(hint) == 4 and (hint == "0000" or driver.find_elements(By.ID, "hint-trail") != []), hint)

    # Keyboard: focus a piece, Enter selects, Space on a destination moves.
    piece = state(driver)["movable"][0]
    cell(driver, piece).send_keys(Keys.ENTER)
    dest = wait(driver, "keyboard destinations", lambda: driver.find_elements(By.CSS_SELECTOR, ".cell.dest"))[0]
    dest.send_keys(Keys.SPACE)
    wait(driver, "the reply to the keyboard move", lambda: idle(driver) and len(state(driver)["moves"]) == 4)
    check("keyboard: Enter selects, Space moves", state(driver)["moves"][2]["move"].startswith(piece))

    # Undo takes back the person's move and the reply.
    driver.find_element(By.ID, "undo").click()
    wait(driver, "undo", lambda: idle(driver) and len(state(driver)["moves"]) == 2)
    check("Undo takes back the move and its reply", len(driver.find_elements(By.CSS_SELECTOR, "#movelist li")) == 2)

    # The engine dies: the next request restarts it, replays the game and tells the user.
    pids = engine_pids(server_pid)
    for p in pids:
        os.kill(p, signal.SIGKILL)
    human_move_from_hint(driver)
    wait(driver, "the reply after a crash", lambda: idle(driver) and len(state(driver)["moves"]) == 4, 20)
    notice = driver.find_element(By.ID, "notice")
    check("killed engine restarted, game kept, user told", len(pids) == 1 and notice.is_displayed() and "restarted" in notice.text,
          notice.text[:120])

    # A second tab: its own game; the first is untouched.
    first_game, first_moves = state(driver)["game"], len(state(driver)["moves"])
    driver.switch_to.new_window("tab")
    driver.get(base)
    wait(driver, "the second tab's game", lambda: idle(driver))
    second = state(driver)["game"]
    click_cell(driver, "m3")
    wait(driver, "destinations in tab 2", lambda: driver.find_elements(By.CSS_SELECTOR, ".cell.dest"))[0].click()
    wait(driver, "tab 2 reply", lambda: idle(driver) and len(state(driver)["moves"]) >= 2, 20)
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    with urllib.request.urlopen(f"{base}api/state?game={first_game}", timeout=10) as r:
        again = json.loads(r.read())
    check("two tabs: two independent games", second != first_game and len(again["moves"]) == first_moves)

    # Malformed requests.
    codes = [request(f"{base}api/move", "{not json")[0],
             request(f"{base}api/move", json.dumps({"game": first_game, "move": "a1q17"}))[0],
             request(f"{base}api/moves", json.dumps({"game": first_game, "cell": "z0"}))[0],
             request(f"{base}api/new", json.dumps({"players": 5}))[0],
             request(f"{base}api/go", json.dumps({"game": "nope"}))[0]]
    check("malformed requests get 4xx with a message", all(400 <= c < 500 for c in codes), str(codes))

    # The whole game, the person's side clicked move by move (the hint's move each time).
    human_moves = 0
    while not state(driver)["winner"] and human_moves < 300:
        human_move_from_hint(driver)
        human_moves += 1
        wait(driver, "the computer's reply", lambda: idle(driver) and board_attr(driver, "busy") == "0", 30)
    s = state(driver)
    banner = driver.find_element(By.ID, "banner")
    check("2-player game played to the end", bool(s["winner"]) and banner.is_displayed() and "wins" in banner.text,
          f"{human_moves} clicked moves, {len(s['moves'])} plies: {banner.text}")
    driver.save_screenshot(f"{shots}-2p.png")
    print(f"   2-player part: {time.time() - t0:.1f} s", flush=True)


def six_player(driver, base, shots, readme_shot):
    t0 = time.time()
    setup(driver, 6, [(False, 20, 20)] * 6, 0)
    wait(driver, "the 6-player game to end", lambda: state(driver)["winner"] and idle(driver), 200, 0.2)
    s = state(driver)
    banner = driver.find_element(By.ID, "banner")
    check("6-player computers-only game to the end", banner.is_displayed() and "wins" in banner.text,
          f"{len(s['moves'])} plies in {time.time() - t0:.1f} s: {banner.text}")
    driver.save_screenshot(f"{shots}-6p.png")
    if readme_shot:
        # The README's picture: a 3-player game in progress with a hint drawn.
        driver.set_window_size(1200, 900)
        setup(driver, 3, [(True, 20, 200), (False, 10, 200), (False, 10, 200)], 0)
        for _ in range(6):
            wait(driver, "idle", lambda: idle(driver), 20)
            human_move_from_hint(driver)
        wait(driver, "idle", lambda: idle(driver), 20)
        driver.find_element(By.ID, "hint").click()
        wait(driver, "hint", lambda: board_attr(driver, "hint") and board_attr(driver, "busy") == "0")
        js(driver, "window.scrollTo(0, 0)")
        driver.save_screenshot(readme_shot)


def phone(driver, base):
    driver.set_window_size(390, 844)
    driver.get(base)
    wait(driver, "the page at phone width", lambda: idle(driver))
    w = js(driver, "return [document.getElementById('board').getBoundingClientRect().width, window.innerWidth, document.documentElement.scrollWidth]")
    check("phone width: board fits, no sideways scroll", w[0] <= w[1] and w[2] <= w[1] + 1, str(w))
    driver.set_window_size(1280, 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--shots", default="target/sanqi-web")
    ap.add_argument("--readme-shot", default="")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    a = ap.parse_args()
    os.makedirs(os.path.dirname(os.path.abspath(a.shots)), exist_ok=True)
    server = subprocess.Popen([a.server, "--port", "0", "--engine", a.engine], stdout=subprocess.PIPE, text=True)
    driver = None
    try:
        line = server.stdout.readline()
        base = line.split("open ", 1)[1].split()[0]
        opts = webdriver.ChromeOptions()
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000"):
            opts.add_argument(arg)
        driver = webdriver.Chrome(service=Service(a.chromedriver), options=opts)
        for part in (lambda: two_player(driver, base, server.pid, a.shots), lambda: phone(driver, base),
                     lambda: six_player(driver, base, a.shots, a.readme_shot)):
            try:
                part()
            except Exception as e:  # a part that cannot go on is one failure; the next part still runs
                check("no exception", False, f"{type(e).__name__}: {e}")
                if driver:
                    driver.save_screenshot(f"{a.shots}-failure.png")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(10)
    print(f"{len(PASSED)} passed, {len(FAILED)} failed")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
