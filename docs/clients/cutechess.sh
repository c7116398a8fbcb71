#!/usr/bin/env bash
# sanqi under cutechess-cli, the match runner of Cute Chess (the GUI drives engines with the same
# library, projects/lib): chess and Chess960 games at 1+0.01 against a second sanqi process,
# openings from sanqi's own `genfens`, a tunable option sent by cutechess. (Cute Chess passes
# no `UCI_*` option but UCI_LimitStrength and UCI_Elo to any engine, so `UCI_ShowWDL` cannot be
# set through it: projects/lib/src/uciengine.cpp, "TODO: Deal with UCI features".)
# Checks: no illegal move, time loss, disconnection or stall in cutechess's own verdicts, no
# cutechess warning about the engine, and (in sanqi's Debug Log File) each option as it arrived.
#
# usage: CUTECHESS=/path/to/cutechess-cli docs/clients/cutechess.sh [SANQI] [GAMES]
# Build cutechess-cli from github.com/cutechess/cutechess (Debian 12: apt-get install cmake
# qt6-base-dev libqt6svg6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools; cmake -S . -B
# build -DCMAKE_BUILD_TYPE=Release; cmake --build build -j2). Two games at a time; nothing else
# should run on the machine.
set -euo pipefail
CUTECHESS=${CUTECHESS:?set CUTECHESS to the cutechess-cli binary}
SANQI=$(realpath "${1:-target/release/sanqi}")
GAMES=${2:-40}
DIR=$(mktemp -d /tmp/sanqi-cutechess.XXXXXX)
# cutechess starts engines by path; two copies give the log files distinct owners.
cp "$SANQI" "$DIR/sanqi-a"
cp "$SANQI" "$DIR/sanqi-b"
"$SANQI" "genfens $((GAMES / 2)) seed 11 book None" quit |
  sed -n 's/^info string genfens //p' > "$DIR/openings.epd"

run() { # NAME EXTRA-ARGS...
  local name=$1
  shift
  "$CUTECHESS" \
    -engine cmd="$DIR/sanqi-a" name=sanqi-a proto=uci \
    "option.Debug Log File=$DIR/$name-a.log" option.Search_Chess_RFP_Margin=90 \
    -engine cmd="$DIR/sanqi-b" name=sanqi-b proto=uci "option.Debug Log File=$DIR/$name-b.log" \
    -each tc=1+0.01 option.Hash=16 option.Threads=1 \
    -games 2 -repeat -concurrency 2 -recover \
    -pgnout "$DIR/$name.pgn" "$@" > "$DIR/$name.out" 2>&1
  echo "== $name: $(grep -c '^\[Event ' "$DIR/$name.pgn") games"
  grep -E '^Score of|^Elo difference' "$DIR/$name.out" || true
  echo "cutechess's verdicts (the PGN comment before each result):"
  tr '\n' ' ' < "$DIR/$name.pgn" | grep -oE '\{[^{}]*\} +(1-0|0-1|1/2-1/2)( |$)' |
    sed -E 's/^\{([^,]*, )?//; s/\}.*//' | sort | uniq -c | sort -rn
  local bad
  bad=$(grep -ciE 'illegal|loses on time|disconnect|stall|crash|connection' "$DIR/$name.pgn" || true)
  local warn
  warn=$(grep -ciE 'warning' "$DIR/$name.out" || true)
  echo "illegal/time/disconnect/stall/crash verdicts: $bad; cutechess warnings: $warn"
  echo "options as they arrived at sanqi-a (its Debug Log File over the match; two processes at concurrency 2):"
  grep -E '>> setoption' "$DIR/$name-a.log" | sed 's/^[^ ]* //' | sort | uniq -c | sort -rn
}

run chess -rounds $((GAMES / 2)) -openings file="$DIR/openings.epd" format=epd order=sequential
run chess960 -rounds $((GAMES / 4)) -variant fischerandom
echo "files in $DIR"
