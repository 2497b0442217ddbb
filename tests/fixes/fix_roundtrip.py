#!/usr/bin/env python3
"""A verified fix, end to end, on a copy of one acceptance kernel's file.

usage: fix_roundtrip.py KCHECK FILE.cu KERNEL CHECK [INCLUDE ...]

FILE.cu and the files it includes (paths relative to its directory, e.g.
../common.h) are copied into a temporary tree. Then:
  1. `kcheck check --format json --kernel KERNEL` must offer a fix for a
     CHECK finding of KERNEL, stating before/after figures that improve;
  2. each offered fix, applied alone (its JSON edits), and then re-analysed
     by kcheck must give exactly the figures the fix stated: the cost of the
     finding's line (mapped through the edits) and the kernel's shared
     wavefronts and global sectors;
  3. `kcheck check -fix --kernel KERNEL` (text) must carry the same fixes as
     notes with fix-it lines and write them; kcheck on the written file must
     find each finding's line as cheap as stated (cheaper, when several
     fixes were written together).
Exits 1 with the reason on the first failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SH = ["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
GL = ["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum"]


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def run(kcheck, *args):
    p = subprocess.run([kcheck, *args], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        fail(f"kcheck {' '.join(args)} exited {p.returncode}:\n{p.stderr}")
    return p.stdout, p.stderr


def base_name(kernel):
    return kernel.split("<")[0].split("::")[-1]


def kernel_costs(report, kernel, first, last, shared):
    """Line cost over [first, last] of the main file and the kernel's
    totals, as driver/Fixes counts them."""
    line_cost = wavefronts = sectors = 0
    for launch in report["launches"]:
        if base_name(launch["kernel"]) != kernel:
            continue
        m = launch["metrics"]
        wavefronts += sum(m[k] for k in SH)
        sectors += sum(m[k] for k in GL)
        for line in launch["lines_innermost"]:
            if line["file"].endswith(report["file"]) and first <= line["line"] <= last:
                line_cost += sum(line["metrics"][k] for k in (SH if shared else GL))
    return line_cost, wavefronts, sectors


def apply_edits(text, edits):
    """`text` (bytes: the offsets are byte offsets) with `edits` applied."""
    out, at = [], 0
    for e in sorted(edits, key=lambda e: e["offset"]):
        out.append(text[at:e["offset"]])
        out.append(e["replacement"].encode("utf-8"))
        at = e["offset"] + e["length"]
    out.append(text[at:])
    return b"".join(out)


def mapped_lines(original, edits, line):
    """The lines of the edited text that original `line` became."""
    starts = [0] + [i + 1 for i, c in enumerate(original) if c == ord("\n")]
    begin = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(original)

    def where(offset, at_end):
        shift = 0
        for e in sorted(edits, key=lambda e: e["offset"]):
            if offset < e["offset"]:
                break
            if offset < e["offset"] + e["length"]:
                size = len(e["replacement"].encode("utf-8"))
                return e["offset"] + shift + (size if at_end else 0)
            shift += len(e["replacement"].encode("utf-8")) - e["length"]
        return offset + shift

    edited = apply_edits(original, edits)
    line_of = lambda offset: edited.count(b"\n", 0, offset) + 1
    return line_of(where(begin, False)), line_of(where(end, True))


def main():
    kcheck, source, kernel, check = sys.argv[1:5]
    includes = [i for i in sys.argv[5:] if i]
    tmp = tempfile.mkdtemp(prefix="kcheck_fix_")
    try:
        # The file sits one directory down so that ../common.h stays inside.
        work = os.path.join(tmp, "src")
        os.makedirs(work)
        copy = os.path.join(work, os.path.basename(source))
        shutil.copy(source, copy)
        for inc in includes:
            dest = os.path.normpath(os.path.join(work, inc))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(os.path.normpath(os.path.join(os.path.dirname(source), inc)), dest)
        original = open(copy, "rb").read()
        shared = check == "bank-conflict"

        out, _ = run(kcheck, "check", copy, "--kernel", kernel, "--format", "json", "-q")
        report = json.loads(out)
        fixes = [f for f in report.get("fixes", [])
                 if f["check"] == check and f["kernel"] == kernel]
        if not fixes:
            fail(f"no verified {check} fix offered for {kernel}; fixes: "
                 f"{json.dumps(report.get('fixes'), indent=1)}")
        for f in fixes:
            b, a = f["before"], f["after"]
            if not a["line_cost"] < b["line_cost"]:
                fail(f"fix does not improve its line: {f}")
            if (a["kernel_shared_wavefronts"] + a["kernel_global_sectors"] >
                    b["kernel_shared_wavefronts"] + b["kernel_global_sectors"]):
                fail(f"fix makes the kernel worse: {f}")
            print(f"offered: line {f['line']}: {f['title']}: "
                  f"{b['line_cost']} -> {a['line_cost']} {f['line_cost_unit']}")

        # Several findings may share one fix; -fix writes every fix of the
        # kernel, whatever its check.
        distinct = {}
        for f in report["fixes"]:
            if f["kernel"] == kernel:
                distinct.setdefault(json.dumps(f["edits"], sort_keys=True), f)
        all_edits = [e for f in distinct.values() for e in f["edits"]]

        # 2. Each fix alone, applied from its edits, gives what it stated.
        analysed = {}  # edits -> kcheck's report on the file they make
        for f in fixes:
            key = json.dumps(f["edits"], sort_keys=True)
            if key not in analysed:
                alone = os.path.join(work, "alone_" + os.path.basename(source))
                with open(alone, "wb") as out_file:
                    out_file.write(apply_edits(original, f["edits"]))
                out, _ = run(kcheck, "predict", alone, "--kernel", kernel, "--format", "json", "-q")
                analysed[key] = json.loads(out)
                os.remove(alone)
            first, last = mapped_lines(original, f["edits"], f["line"])
            got = kernel_costs(analysed[key], kernel, first, last, shared)
            want = (f["after"]["line_cost"], f["after"]["kernel_shared_wavefronts"],
                    f["after"]["kernel_global_sectors"])
            if got != want:
                fail(f"{f['title']}: re-analysis gives (line, wavefronts, sectors) "
                     f"{got}, the fix stated {want}")

        # 3. The text output notes the same fixes, and -fix writes them.
        text, err = run(kcheck, "check", "-fix", "--parseable-fixits", copy, "--kernel", kernel, "-q")
        for f in fixes:
            note = re.compile(r":%d:\d+: note: fix: %s: line %d: .* \(%d -> %d\);.*"
                              r"\(re-simulated\)" % (f["line"], re.escape(f["title"]), f["line"],
                                                     f["before"]["line_cost"], f["after"]["line_cost"]))
            if not note.search(text):
                fail(f"text output lacks the note for {f['title']}:\n{text}")
        if "fix-it:\"" not in text:
            fail("text output has no fix-it line")

        if "applied fix for" not in err:
            fail(f"-fix applied nothing:\n{err}")
        written = open(copy, "rb").read()
        if written == original:
            fail("-fix left the file unchanged")
        if written != apply_edits(original, all_edits):
            fail("-fix wrote something else than the fixes' edits")
        out, _ = run(kcheck, "predict", copy, "--kernel", kernel, "--format", "json", "-q")
        after = json.loads(out)
        for f in fixes:
            first, last = mapped_lines(original, all_edits, f["line"])
            now = kernel_costs(after, kernel, first, last, shared)[0]
            if len(distinct) == 1 and now != f["after"]["line_cost"]:
                fail(f"after -fix line {f['line']} costs {now}, the fix stated "
                     f"{f['after']['line_cost']}")
            if now >= f["before"]["line_cost"]:
                fail(f"after -fix line {f['line']} still costs {now}")
        print(f"ok: {len(fixes)} finding(s) of {kernel} fixed as stated")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
