#!/bin/bash
# Generation-2 self-play data on a 16-core machine (the device run of issue 32, step 1).
# usage: docs/networks/datagen-16.sh SANQI OUTDIR SECONDS
# Chess and xiangqi side by side, 8 threads each, searching with the embedded networks;
# each stops after SECONDS (Ctrl-C: finished games stay) or at its --positions cap. Then the
# data is packed into xz chunks of at most 90 MB of text (about 12 MB packed) in OUTDIR.
set -u
B=$1 OUT=$2 SECS=$3
W=${TMPDIR:-/tmp}/sanqi-gen2
mkdir -p "$W" "$OUT"
nproc; grep -m1 'model name' /proc/cpuinfo
timeout -s INT "$SECS" "$B" datagen --game chess --out "$W/chess-g2.txt" --nodes 2500 \
  --threads 8 --positions 4200000 --seed 201 --report 60 &
timeout -s INT "$SECS" "$B" datagen --game xiangqi --out "$W/xiangqi-g2.txt" --nodes 1500 \
  --threads 8 --positions 3900000 --seed 202 --report 60 &
wait
wc -l "$W"/*.txt
sha256sum "$W"/*.txt
python3 "$(dirname "$0")/pack.py" "$OUT" chess-g2 3 90000000 "$W/chess-g2.txt" &
python3 "$(dirname "$0")/pack.py" "$OUT" xiangqi-g2 3 90000000 "$W/xiangqi-g2.txt" &
wait
ls -l "$OUT"
