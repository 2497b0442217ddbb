#!/usr/bin/env python3
"""Checks kcheck-profile's per-line values against Nsight Compute's source page.
usage: check-lines-vs-ncu.py MEAS.json SOURCE.csv
       check-lines-vs-ncu.py --export SOURCE.csv > LINES.csv
SOURCE.csv: ncu -i REP --page source --csv --print-source cuda,sass (one block per
launch, in launch order), or LINES.csv, the per-line columns that --export keeps
of it (docs/validation/data/ncu-lines/). Prints differing (launch, line, metric)
and a count."""
import csv, json, os, sys

COLUMNS = {  # ncu source column -> kcheck-profile line metric
    'Instructions Executed': 'smsp__sass_inst_executed.sum',
    'Predicated-On Thread Instructions Executed': 'smsp__sass_thread_inst_executed_pred_on.sum',
    'L1 Wavefronts Shared': 'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum',
    'L1 Wavefronts Shared Ideal': 'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum',
    'L2 Theoretical Sectors Global': 'smsp__sass_sectors_mem_global.sum',
    'L2 Theoretical Sectors Global Ideal': 'smsp__sass_sectors_mem_global_ideal.sum',
    'Divergent Branches': 'smsp__sass_branch_targets_threads_divergent.sum',
}


def compact(path):
    out = []
    for row in csv.DictReader(open(path)):
        i = int(row['launch'])
        while len(out) <= i:
            out.append({'func': row['function'], 'lines': {}})
        out[i]['lines'][(row['file'], int(row['line']))] = {
            name: int(row[name]) for name in COLUMNS.values()}
    return out


def blocks(path):
    if open(path).readline().startswith('launch,'):
        return compact(path)
    out, header, cur = [], None, None
    for row in csv.reader(open(path)):
        if not row: continue
        if row[0] == 'File Path':
            pending = os.path.basename(row[1])
        elif row[0] == 'Function Name':
            # A kernel with inlined code from several files has one section
            # per file; a new launch starts with a new function or a file
            # seen again.
            if cur is None or cur['func'] != row[1] or pending in cur['files']:
                cur = {'func': row[1], 'files': set(), 'lines': {}}
                out.append(cur)
            cur['files'].add(pending)
            cur['file'] = pending
        elif row[0] == 'Line No':
            header = row
        elif header and cur is not None and row[0] != '':
            # ncu leaves quotes inside the source text unescaped (an asm
            # string in __ldg), which splits that field; the counter columns
            # are the row's last ones either way.
            vals = dict(zip(header[4:], row[len(row) - (len(header) - 4):]))
            line = cur['lines'].setdefault((cur['file'], int(row[0])), {})
            for col, name in COLUMNS.items():
                v = vals.get(col, '0')
                line[name] = line.get(name, 0) + (int(float(v.replace(',', ''))) if v not in ('', '-') else 0)
    return out


if sys.argv[1] == '--export':
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['launch', 'function', 'file', 'line'] + list(COLUMNS.values()))
    for i, block in enumerate(blocks(sys.argv[2])):
        for (f, l), m in sorted(block['lines'].items()):
            w.writerow([i, block['func'], f, l] + [m.get(n, 0) for n in COLUMNS.values()])
    sys.exit(0)

meas, src = json.load(open(sys.argv[1])), blocks(sys.argv[2])
agree = total = 0
if len(src) != len(meas['launches']):
    print(f'{sys.argv[1]}: {len(src)} ncu blocks vs {len(meas["launches"])} launches')
for launch, block in zip(meas['launches'], src):
    mine = {(os.path.basename(l['file']), l['line']): l['metrics'] for l in launch.get('lines', [])}
    for key in sorted(set(mine) | set(block['lines'])):
        for name in COLUMNS.values():
            a = mine.get(key, {}).get(name, 0)
            b = block['lines'].get(key, {}).get(name, 0)
            if a == 0 and b == 0: continue
            total += 1
            if a == b: agree += 1
            else: print(f'#{launch["index"]} {key[0]}:{key[1]} {name}: kcheck-profile {a}, ncu {b}')
print(f'{os.path.basename(sys.argv[1])}: {agree}/{total} line values agree')
sys.exit(0 if agree == total else 1)
