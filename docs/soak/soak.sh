#!/usr/bin/env bash
# Soak of sanqi against itself through `sanqi match`, two games at a time, on a quiet machine
# (nothing else running): reports the illegal moves, missing moves, time losses, crashes and
# hangs of every game from the runner's final table. Not part of CI (about an hour on 2 cores).
#
#   docs/soak/soak.sh [chess|xiangqi|cc|all] [GAMES]     (default: all, 1000 per game)
#
# chess and xiangqi: GAMES games at 1+0.01 (1 s + 10 ms a move), 8 random plies, colour-swapped.
# cc: GAMES Chinese-checkers games split over 2, 3, 4 and 6 players at 2000 nodes a move.
# The PGNs and tables go to $OUT (default target/soak); the summary line per run to stdout.
set -u
cd "$(dirname "$0")/../.."
which=${1:-all}
games=${2:-1000}
OUT=${OUT:-target/soak}
mkdir -p "$OUT"
cargo build --release --quiet || exit 1
B=$PWD/target/release/sanqi
cp "$B" "$OUT/sanqi-soak"   # the engines run from a copy, so a rebuild cannot change them
E="$OUT/sanqi-soak"

# Sums the Illegal, NoMove, Time, Crash and Hang columns of a final table.
faults() {
    awk '/^Rank/ { for (i = 1; i <= NF; i++) col[$i] = i; t = 1; next }
         t && NF > 8 && $1 ~ /^[0-9]+$/ {
             il += $(col["Illegal"] + 1); nm += $(col["NoMove"] + 1); tm += $(col["Time"] + 1)
             cr += $(col["Crash"] + 1); hg += $(col["Hang"] + 1) }
         /games of .* finished/ { g = $1 }
         END { printf "games %d illegal %d nomove %d time %d crash %d hang %d\n", g, il, nm, tm, cr, hg }' "$1"
}

run() { # name, then the match arguments
    local name=$1; shift
    local start=$SECONDS
    "$B" match "$@" --concurrency 2 --pgn "$OUT/$name.pgn" --quiet > "$OUT/$name.txt" 2> "$OUT/$name.err"
    local rc=$?
    echo "$name: $(faults "$OUT/$name.txt") exit $rc, $((SECONDS - start)) s"
}

rm -f "$OUT"/*.pgn
if [ "$which" = chess ] || [ "$which" = all ]; then
    run chess --game chess --tc 1+0.01 --rounds $((games / 2)) --random-plies 8 \
        --engine cmd="$E" name=a --engine cmd="$E" name=b
fi
if [ "$which" = xiangqi ] || [ "$which" = all ]; then
    run xiangqi --game xiangqi --tc 1+0.01 --rounds $((games / 2)) --random-plies 8 \
        --engine cmd="$E" name=a --engine cmd="$E" name=b
fi
if [ "$which" = cc ] || [ "$which" = all ]; then
    for p in 2 3 4 6; do
        engines=()
        for s in $(seq 1 $p); do engines+=(--engine cmd="$E" name=s$s); done
        run "cc$p" --game chinesecheckers --players $p --nodes 2000 \
            --rounds $(( (games / 4 + p - 1) / p )) --random-plies 2 "${engines[@]}"
    done
fi
