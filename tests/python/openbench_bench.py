"""Runs `sanqi bench` the way OpenBench's client does and parses its output with the client's
own parser (Client/bench.py of github.com/AndyGrant/OpenBench, parse_stream_output, copied
unchanged below): the bench signature and the speed must both be found, the signature must be
the `Nodes searched` line's number, and a second run must give the same signature (OpenBench
rejects "Non-Deterministic Benches").

usage: python3 openbench_bench.py PATH_TO_SANQI
"""

import os
import re
import subprocess
import sys


def parse_stream_output(stream):
    # Copied from OpenBench Client/bench.py (commit 9906bad1).
    nps = bench = None # Search through output Stream
    for line in stream.decode('utf-8').strip().split('\n')[::-1]:

        # Convert non alpha-numerics to spaces
        line = re.sub(r'[^a-zA-Z0-9 ]+', ' ', line)

        # Multiple methods, including Ethereal and Stockfish
        nps_pattern   = r'(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)'
        bench_pattern = r'(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)'

        # Search for and set only once the NPS and Bench values
        re_nps = re.search(nps_pattern, line, re.IGNORECASE)
        re_bench = re.search(bench_pattern, line, re.IGNORECASE)

        # Set, but don't override
        if re_nps: nps = nps if nps else re_nps.group()
        if re_bench: bench = bench if bench else re_bench.group()

    # Parse out the integer portion from our matches
    nps   = int(re.search(r'\d+', nps  ).group()) if nps   else None
    bench = int(re.search(r'\d+', bench).group()) if bench else None
    return (bench, nps)


def run_bench(binary):
    # OpenBench runs ['./NAME', 'bench'] in the binary's folder, stderr joined to stdout.
    folder, name = os.path.split(os.path.abspath(binary))
    out = subprocess.run(['./%s' % name, 'bench'], cwd=folder, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, timeout=600, check=True).stdout
    return out


def main():
    binary = sys.argv[1]
    first = run_bench(binary)
    bench, nps = parse_stream_output(first)
    text = first.decode('utf-8')
    searched = [l for l in text.splitlines() if l.startswith('Nodes searched')]
    assert bench is not None and nps is not None, text
    assert len(searched) == 1, text
    assert bench == int(searched[0].split(':')[1]), (bench, searched)
    assert bench > 0 and nps > 0, (bench, nps)
    again, _ = parse_stream_output(run_bench(binary))
    assert again == bench, 'non-deterministic bench: %d then %d' % (bench, again)
    print('bench %d nps %d' % (bench, nps))


if __name__ == '__main__':
    main()
