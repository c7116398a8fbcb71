"""By hand (not in CI): OpenBench's own client code, from a checkout of AndyGrant/OpenBench,
run against sanqi: Client/genfens.py's create_genfens_opening_book (2 threads, its seeds, no
book) and Client/bench.py's run_benchmark (2 concurrent `bench` runs, parsed by its regexes).
Usage: openbench-client.py OPENBENCH_CHECKOUT SANQI_BINARY
The client runs './<name>' and kills by name on a timeout, so the binary is copied under a
unique name into a temporary folder that becomes the working directory."""
import os, shutil, sys, tempfile

checkout, binary = sys.argv[1], os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(checkout, 'Client'))
import genfens, bench  # noqa: E402  (OpenBench's files, unmodified)

work = tempfile.mkdtemp()
os.chdir(work)
name = 'sanqi-obclient'
shutil.copy(binary, name)
out_path = os.path.join(work, 'book.epd')
with open(out_path, 'w') as out:
    genfens.create_genfens_opening_book({'N': 5, 'book': 'None', 'seeds': [11, 22], 'extra': '',
                                         'engine': name, 'threads': 2, 'output': out})
lines = open(out_path).read().splitlines()
print('\n'.join(lines))
assert len(lines) == 10 and all('hmvc' in l and 'fmvn' in l for l in lines), lines
nps, nodes = bench.run_benchmark(name, 2, 1)
print('bench', nodes, 'nps', nps)
