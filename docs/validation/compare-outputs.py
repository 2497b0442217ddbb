#!/usr/bin/env python3
"""Compares what programs printed on the H100 with what they printed under
`kcheck predict --run-host` (issue 18, acceptance 1).

usage: compare-outputs.py H100.json.gz KCHECK_DIR [--json OUT.json]

H100.json.gz: {program: {stdout, stderr, exit, seconds}} (the programs built
with nvcc and run on the GPU machine with the arguments of their row).
KCHECK_DIR: PROGRAM.err (kcheck's standard error: the program's own output,
stdout and stderr, and kcheck's `kcheck:` lines) and PROGRAM.rc ("EXIT
SECONDS") of each `--run-host` run.

Per program, one verdict:
  same          every line equal, timing lines left out
  same-fp       equal but for numbers within a relative 1e-4 (the last
                digits of floating-point results summed in another order)
  differs       the first line that differs is shown
  not-ended     kcheck's run did not end (timeout, or it stopped the host
                code: a limit, an unsupported call), with kcheck's error
  no-h100       the program has no H100 output to compare with
Timing lines (a word such as time, elapsed, throughput, bandwidth, GB/s or a
time unit) are left out on both sides: they measure the machine, not the
program. For the same reason a wall-clock timestamp (a whole number of
seconds or milliseconds since 1970 that falls in 2020-2034, as HeCBench
langford prefixes its lines; a window that leaves out INT_MAX, 2038) reads
`<timestamp>` on both sides. Lines the program wrote to its standard error on the H100 are left
out of kcheck's side too (the two streams are merged there).
"""
import gzip
import json
import math
import os
import re
import sys

TIMING = re.compile(
    r"\b(time|times|timing|elapsed|throughput|bandwidth|duration|speed ?up|"
    r"perf|performance|took|GB/s|GFLOP/?s|GFlops|TFLOP/?s|Gops|ms|us|usec|"
    r"msec|sec|secs|seconds|second|microseconds|milliseconds|ns|clock|"
    r"clocks|cycles|efficiency)\b|\d\s*s\b",
    re.I)
# kcheck's own diagnostics (compiler warnings, memcheck findings): not the
# program's output.
DIAGNOSTIC = re.compile(r"^(?:\S+:\d+:\d+: )?(?:warning|error|note|remark): ")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)",
                    re.I)
REL_TOL = 1e-4
# Seconds (10 digits) or milliseconds (13 digits) since 1970, from 2020-01-01
# to 2035-01-01: numbers such as 2^31 - 1 (2038) stay results.
EPOCH_NUMBER = re.compile(r"(?<![\d.])(\d{10}|\d{13})(?![\d.])")
EPOCH_WINDOW_S = (1577836800, 2051222400)


def mask_timestamps(line):
    def mask(m):
        v = int(m.group(1))
        seconds = v / 1000 if len(m.group(1)) == 13 else v
        inside = EPOCH_WINDOW_S[0] <= seconds < EPOCH_WINDOW_S[1]
        return "<timestamp>" if inside else m.group(1)
    return EPOCH_NUMBER.sub(mask, line)


TIMING_COLUMN = re.compile(r"ms\b|ms\)|time|elapsed|flop|gb/s|bandwidth|"
                           r"\bsec|\bus\b|\(s\)|cycles|clocks", re.I)


def columns(line):
    sep = "," if line.count(",") >= 2 else None
    return [c.strip() for c in line.split(sep)], sep


def result_lines(text):
    """The lines that state results: timing lines left out, and in a table
    whose header names timing columns (`Kernel Avg(ms) BW(GB/s)`, a CSV
    header with `elapsedMs`), those columns of its rows masked."""
    out = []
    timing_columns, width, sep = None, 0, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if not re.search(r"\w", line):  # a ruler: ─────
            out.append(line.rstrip())
            continue
        cells, line_sep = columns(line)
        if TIMING.search(line):
            timing_columns = None
            # A table's header: several columns, none of them a number.
            if len(cells) >= 3 and not any(NUMBER.fullmatch(c) for c in cells):
                masked = {i for i, c in enumerate(cells) if TIMING_COLUMN.search(c)}
                if masked and len(masked) < len(cells):
                    timing_columns, width, sep = masked, len(cells), line_sep
            continue
        if timing_columns and len(cells) == width and line_sep == sep:
            out.append(" | ".join("<time>" if i in timing_columns else c
                                  for i, c in enumerate(cells)))
            continue
        timing_columns = None
        out.append(mask_timestamps(line.rstrip()))
    return out


def numbers_close(a, b):
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= REL_TOL * max(abs(x), abs(y))


def same_but_numbers(a, b):
    """Equal text between the numbers, and numbers equal within REL_TOL."""
    if NUMBER.split(a) != NUMBER.split(b):
        return False
    xs, ys = NUMBER.findall(a), NUMBER.findall(b)
    return len(xs) == len(ys) and all(numbers_close(x, y)
                                      for x, y in zip(xs, ys))


def verdict(h100, err_text, rc_text):
    code = rc_text.split()[0] if rc_text else "none"
    kcheck_errors = [l for l in err_text.splitlines()
                     if l.startswith("kcheck: error:")]
    # kcheck's note on the run: "exit status 0" when the program ended (it
    # may have gone on past a kernel fault, kcheck then exits 3), "exit
    # status none (stopped)" when kcheck stopped it.
    status = re.search(r"\(--run-host\): exit status (\w+)", err_text)
    ended = code in ("0", "1") or (code == "3" and status and
                                   status.group(1) != "none")
    if not ended:
        why = "timeout" if code == "124" else (kcheck_errors or ["exit " + code])[0]
        return "not-ended", why
    # A note of kcheck's may follow the program's last line, unterminated.
    err_text = re.sub(r"(?<=.)kcheck: (note|error|warning):", r"\nkcheck: \1:",
                      err_text)
    program, own = [], False
    for l in err_text.splitlines():
        # kcheck's lines, and the indented lines that continue them.
        if l.startswith("kcheck:") or DIAGNOSTIC.match(l):
            own = True
        elif not (own and l.startswith("    ")):
            own = False
            program.append(l)
    program = "\n".join(program)
    h100_stderr = set(result_lines(h100["stderr"]))
    mine = [l for l in result_lines(program) if l not in h100_stderr]
    theirs = result_lines(h100["stdout"])
    if mine == theirs:
        return "same", ""
    fp = len(mine) == len(theirs)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a != b and not same_but_numbers(a, b):
            return "differs", f"line {i + 1}: H100 `{b}`, kcheck `{a}`"
    if fp:
        return "same-fp", ""
    longer = "H100" if len(theirs) > len(mine) else "kcheck"
    extra = (theirs if longer == "H100" else mine)[min(len(mine), len(theirs))]
    return "differs", f"{longer} printed more, from `{extra}`"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    h100 = json.load(gzip.open(args[0], "rt"))
    out_dir = args[1]
    results = {}
    for name in sorted(f[:-3] for f in os.listdir(out_dir) if f.endswith(".rc")):
        err = open(os.path.join(out_dir, name + ".err"), errors="replace").read()
        rc = open(os.path.join(out_dir, name + ".rc")).read()
        if name not in h100:
            results[name] = ("no-h100", "")
        else:
            results[name] = verdict(h100[name], err, rc)
    for name, (v, why) in results.items():
        print(f"{name}\t{v}\t{why}")
    if "--json" in args:
        with open(args[args.index("--json") + 1], "w") as f:
            json.dump({n: {"verdict": v, "why": w} for n, (v, w) in results.items()},
                      f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
