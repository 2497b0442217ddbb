#!/usr/bin/env python3
"""Converts Nsight Compute per-launch output into kcheck-measurement/1 JSON, so
`kcheck compare` can check kcheck-profile against ncu (or against a recorded
table). usage:
  ncu-to-measurement.py ncu NCU.csv FILE.cu > out.json     # ncu --csv --metrics ... (long format)
  ncu-to-measurement.py table TABLE.csv FILE.cu > out.json # corpus/h100/seed_exact.csv rows of FILE.cu
"""
import csv, json, sys


def launch(index, kernel, grid, block, metrics):
    dims = lambda s: [int(x) for x in s.replace('(', '').replace(')', '').split(',')]
    return {'index': index, 'kernel': kernel.split('(')[0].replace('void ', ''), 'signature': kernel,
            'grid': dims(grid), 'block': dims(block), 'dynamic_shared_bytes': 0, 'measured': True,
            'metrics': metrics, 'lines': [], 'notes': []}


def main():
    mode, path, name = sys.argv[1:4]
    launches = {}
    if mode == 'ncu':
        rows = [l for l in open(path) if l.startswith('"')]
        for row in csv.DictReader(rows):
            i = int(row['ID'])
            l = launches.setdefault(i, launch(i, row['Kernel Name'], row['Grid Size'], row['Block Size'], {}))
            l['metrics'][row['Metric Name']] = int(float(row['Metric Value'].replace(',', '')))
    else:
        for row in csv.DictReader(open(path)):
            if row['file'] != name: continue
            i = int(row['launch'])
            metrics = {k: int(v) for k, v in row.items() if k.startswith('smsp__')}
            launches[i] = launch(i, row['kernel'], row['grid'], row['block'], metrics)
    print(json.dumps({'schema': 'kcheck-measurement/1', 'arch': 'sm_90', 'file': name,
                      'launches': [launches[i] for i in sorted(launches)], 'notes': [], 'errors': []}, indent=1))


main()
