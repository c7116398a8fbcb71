#!/usr/bin/env bash
# By hand (not in CI): a short fastchess match in which engine A gets two SPSA parameters the way
# OpenBench passes them (option.<spsa name>=<value>), and its Debug Log File shows, from the
# engine's side, that each value arrived. FASTCHESS: a fastchess binary built from
# github.com/Disservin/fastchess; SANQI: the engine (default target/release/sanqi).
set -euo pipefail
FASTCHESS=${FASTCHESS:?path to a fastchess binary}
SANQI=${SANQI:-target/release/sanqi}
DIR=$(mktemp -d)
cp "$SANQI" "$DIR/sanqi-fc"
cd "$DIR"
"$FASTCHESS" -engine cmd=./sanqi-fc name=A option.Search_Chess_RFP_Margin=90 \
    option.Search_Chess_LMR_Divisor=260 option.UCI_ShowWDL=true "option.Debug Log File=$DIR/a.log" \
  -engine cmd=./sanqi-fc name=B -each tc=1+0.01 option.Threads=1 \
  -rounds 1 -games 2 -concurrency 1 -maxmoves 10 -pgnout file="$DIR/games.pgn" | grep -i "option\|Finished"
grep -E ">> setoption name (Search_Chess_RFP_Margin|Search_Chess_LMR_Divisor)" a.log | sort | uniq -c
