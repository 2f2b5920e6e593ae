#!/usr/bin/env python3
"""Times pyoxipng (oxipng at level 2) on PNG files, inside one Python process.

    oxipng-times.py FOLDER NAME:RUNS...

For each NAME, reads FOLDER/NAME.png, optimises it RUNS times in memory with
`oxipng.optimize_from_memory(data, level=2)`, writes the result to FOLDER/NAME.oxipng.png and
prints `NAME SIZE SECONDS` (the median wall time). The first line is `version VERSION`, or
`missing` when pyoxipng is not installed (`pip install pyoxipng`).
"""
import statistics
import sys
import time

try:
    import oxipng
except ImportError:
    print("missing")
    sys.exit(0)

try:
    from importlib.metadata import version

    print("version", version("pyoxipng"))
except Exception:
    print("version unknown")

folder = sys.argv[1]
for argument in sys.argv[2:]:
    name, runs = argument.rsplit(":", 1)
    runs = int(runs)
    with open(f"{folder}/{name}.png", "rb") as source:
        data = source.read()
    times = []
    result = b""
    for _ in range(runs):
        start = time.perf_counter()
        result = oxipng.optimize_from_memory(data, level=2)
        times.append(time.perf_counter() - start)
    with open(f"{folder}/{name}.oxipng.png", "wb") as output:
        output.write(result)
    print(name, len(result), statistics.median(times), flush=True)
