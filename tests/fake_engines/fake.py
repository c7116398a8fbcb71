#!/usr/bin/env python3
"""A scripted fake engine for the referee tests of `sanqi match`.

Speaks UCI (or UCCI with --proto ucci). The move it plays after each `go` is chosen by a policy:
  --cands a1,b1,...   the first candidate not yet in the `position ... moves` list
  --always TOKEN      always this token
Misbehaviour, counted by `go` commands received by this process (1-based):
  --illegal-at N TOKEN   answer `bestmove TOKEN` at go N
  --none-at N            answer `bestmove (none)` (UCCI: `nobestmove`) at go N
  --bare-at N            answer a bare `bestmove` (no move token) at go N
  --silent-at N          never answer go N (a hang; still reads input)
  --freeze-at N          sleep an hour at go N (a hang that reads nothing more)
  --crash-at N           exit at go N without answering
  --late-at N MS         sleep MS milliseconds before answering go N
  --sleep-ms MS          sleep MS before every answer
  --score CP             report `info depth 1 score cp CP` before every bestmove
  --garbage              print junk (non-UTF-8, a 100 kB line, bad info) before every bestmove
  --crash-on-start       exit at once
  --no-uciok             never finish the handshake
  --declare-variant      declare a UCI_Variant option
  --log FILE             append every received line to FILE
  --pidfile FILE         write the process id to FILE at start
  --ignore-quit          on `quit` or the end of input, keep running (sleep) instead of exiting
"""
import sys
import time

args = sys.argv[1:]
opts = {}
i = 0
while i < len(args):
    a = args[i]
    if a in ("--illegal-at", "--late-at"):
        opts[a] = (int(args[i + 1]), args[i + 2])
        i += 3
    elif a in ("--garbage", "--crash-on-start", "--no-uciok", "--declare-variant", "--ignore-quit"):
        opts[a] = True
        i += 1
    else:
        opts[a] = args[i + 1]
        i += 2

proto = opts.get("--proto", "uci")
log = open(opts["--log"], "a") if "--log" in opts else None
out = sys.stdout.buffer


def say(text):
    out.write(text.encode() + b"\n")
    out.flush()


if "--pidfile" in opts:
    import os
    with open(opts["--pidfile"], "w") as f:
        f.write(str(os.getpid()))

if opts.get("--crash-on-start"):
    sys.exit(3)

gos = 0
moves = []
for raw in sys.stdin.buffer:
    line = raw.decode("utf-8", "replace").strip()
    if log:
        log.write(line + "\n")
        log.flush()
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd in ("uci", "ucci"):
        say("id name fake")
        if proto == "ucci":
            say("option usemillisec type check default false")
        else:
            say("option name Hash type spin default 16 min 1 max 1024")
            if opts.get("--declare-variant"):
                say("option name UCI_Variant type combo default chess var chess var tictactoe")
        if opts.get("--no-uciok"):
            continue
        say("ucciok" if cmd == "ucci" else "uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        moves = words[words.index("moves") + 1:] if "moves" in words else []
    elif cmd == "go":
        gos += 1
        if "--crash-at" in opts and gos == int(opts["--crash-at"]):
            sys.exit(5)
        if "--silent-at" in opts and gos == int(opts["--silent-at"]):
            continue
        if "--freeze-at" in opts and gos == int(opts["--freeze-at"]):
            time.sleep(3600)
        if "--sleep-ms" in opts:
            time.sleep(int(opts["--sleep-ms"]) / 1000)
        if "--late-at" in opts and gos == opts["--late-at"][0]:
            time.sleep(int(opts["--late-at"][1]) / 1000)
        if opts.get("--garbage"):
            out.write(b"info string \xff\xfe not utf-8\n")
            out.write(b"x" * 100000 + b"\n")
            out.write(b"info depth nonsense score cp\n")
            out.write(b"bestmov e2e4\n")
            out.flush()
        if "--score" in opts:
            if proto == "ucci":
                say("info depth 1 score %s" % opts["--score"])
            else:
                say("info depth 1 score cp %s" % opts["--score"])
        if "--none-at" in opts and gos == int(opts["--none-at"]):
            say("nobestmove" if proto == "ucci" else "bestmove (none)")
            continue
        if "--bare-at" in opts and gos == int(opts["--bare-at"]):
            say("bestmove")
            continue
        if "--illegal-at" in opts and gos == opts["--illegal-at"][0]:
            say("bestmove " + opts["--illegal-at"][1])
            continue
        if "--always" in opts:
            mv = opts["--always"]
        else:
            mv = next((c for c in opts.get("--cands", "").split(",") if c and c not in moves), "0000")
        say("bestmove " + mv)
    elif cmd == "quit":
        if proto == "ucci":
            say("bye")
        break
if opts.get("--ignore-quit"):
    time.sleep(3600)
