#!/usr/bin/env python3
"""Checks kcheck's SASS-to-line credit rule (runtime/CubinLineTable) against
Nsight Compute's source page, per SASS instruction.
usage: check-line-credits.py CUBIN_LINES SOURCE.csv PROGRAM.cubin
CUBIN_LINES: build/tests/runtime/cubin-lines. SOURCE.csv: ncu -i REP --page
source --csv --print-source cuda,sass of the program built from the same
source with the same nvcc as PROGRAM.cubin. Prints each instruction credited
differently and a count; exit 1 on any difference."""
import collections, csv, os, re, subprocess, sys


def ncu_credits(path):
    """function (demangled) -> {offset: (set of (file, line), sass text)}"""
    funcs, func, file, line = collections.OrderedDict(), None, None, None
    for row in csv.reader(open(path)):
        if not row:
            continue
        if row[0] == 'File Path':
            file = os.path.basename(row[1])
        elif row[0] == 'Function Name':
            func = row[1]
            funcs.setdefault(func, {})
        elif row[0] == 'Line No':
            continue
        elif row[0] != '':
            line = int(row[0])
        elif row[2].startswith('0x'):
            entry = funcs[func].setdefault(int(row[2], 16), [set(), row[3].strip()])
            entry[0].add((file, line))
    out = {}
    for f, m in funcs.items():
        base = min(m)  # the function's first instruction
        out[f] = {a - base: v for a, v in m.items()}
    return out


def rule_credits(tool, cubin):
    out = collections.defaultdict(dict)
    text = subprocess.run([tool, cubin, '--credits', '64'], check=True,
                          capture_output=True, text=True).stdout
    for row in text.splitlines():
        p = row.split('\t')
        out[p[0]][int(p[1], 16)] = {
            (os.path.basename(x.rsplit(':', 1)[0]), int(x.rsplit(':', 1)[1])) for x in p[2:]}
    return out


def base_name(n):
    return re.sub(r'^void ', '', n).split('(')[0].split('<')[0]


tool, source, cubin = sys.argv[1:4]
ncu, rule = ncu_credits(source), rule_credits(tool, cubin)
demangled = {m: subprocess.run(['c++filt', m], capture_output=True, text=True).stdout.strip()
             for m in rule}
agree = total = 0
for fn, insts in ncu.items():
    # Join on the function's name; among template instances or overloads the
    # one whose credits agree most (the others disagree everywhere).
    candidates = [m for m in rule if base_name(demangled[m]) == base_name(fn)]
    if not candidates:
        print(f'{fn}: not in {cubin}')
        total += len(insts)
        continue
    best = max(candidates, key=lambda m: sum(rule[m].get(a) == v[0] for a, v in insts.items()))
    for a in sorted(insts):
        total += 1
        if rule[best].get(a) == insts[a][0]:
            agree += 1
        else:
            print(f'{fn} +0x{a:04x} {insts[a][1]}: ncu {sorted(insts[a][0])}, '
                  f'kcheck {sorted(rule[best].get(a, ()))}')
print(f'{os.path.basename(cubin)}: {agree}/{total} SASS instructions credited to the same lines')
sys.exit(0 if agree == total else 1)
