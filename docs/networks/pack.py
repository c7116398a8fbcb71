#!/usr/bin/env python3
"""Split datagen files into xz chunks that fit a transfer limit.

usage: pack.py OUTDIR PREFIX MAX_CHUNKS RAW_BYTES FILE...
Lines are kept whole; each chunk holds at most RAW_BYTES of text and is written as
OUTDIR/PREFIX.N.xz (xz format, so `xz -dc PREFIX.*.xz` joins them back). Lines past
MAX_CHUNKS * RAW_BYTES are left out (the count is printed). Chunks compress in parallel.
"""
import lzma
import os
import sys
from multiprocessing import Pool


def compress(job):
    path, data = job
    with open(path, "wb") as f:
        f.write(lzma.compress(data, preset=6))
    return path, len(data), os.path.getsize(path)


def chunks(files, raw_bytes, max_chunks):
    buf, n, dropped = [], 0, 0
    made = 0
    for name in files:
        with open(name, "rb") as f:
            for line in f:
                if made >= max_chunks:
                    dropped += 1
                    continue
                if n + len(line) > raw_bytes and buf:
                    yield b"".join(buf)
                    made += 1
                    buf, n = [], 0
                    if made >= max_chunks:
                        dropped += 1
                        continue
                buf.append(line)
                n += len(line)
    if buf and made < max_chunks:
        yield b"".join(buf)
    print(f"pack: {dropped} lines left out", flush=True)


def main():
    out, prefix, max_chunks, raw = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    jobs = [
        (os.path.join(out, f"{prefix}.{i}.xz"), data)
        for i, data in enumerate(chunks(sys.argv[5:], raw, max_chunks))
    ]
    with Pool(min(16, max(1, len(jobs)))) as pool:
        for path, raw_len, packed in pool.map(compress, jobs):
            print(f"pack: {path} {raw_len} -> {packed} bytes", flush=True)


if __name__ == "__main__":
    main()
