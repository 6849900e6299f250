# Per launch of ms_gather_probe: ncu's kernel-level counter and wavefronts (probe-K-raw.csv) beside the
# sums over its LDS instructions of ncu's per-instruction wavefronts, ideal and excess (probe-K-sass.csv,
# SourceCounters). Usage: python3 summarize.py DIR  (run 2's raw files; the sass files are not kept: 7 MB each)
import csv, sys
d = sys.argv[1]
for rep in (1, 2, 3):
    raw = list(csv.reader(open(f'{d}/probe-{rep}-raw.csv')))[2:]
    blocks, cur = [], None
    for r in csv.reader(open(f'{d}/probe-{rep}-sass.csv')):
        if r and r[0] == 'Kernel Name':
            cur = {'rows': []}; blocks.append(cur)
        elif r and r[0] == 'Address':
            cur['ix'] = {h: i for i, h in enumerate(r)}
        elif cur is not None and len(r) > 5:
            cur['rows'].append(r)
    def total(b, col):
        return sum(int(r[b['ix'][col]].replace(',', '') or 0) for r in b['rows'] if 'LDS' in r[1])
    # the source page lists each launch twice, launches in order
    for k, r in enumerate(raw):
        b = blocks[2 * k]
        print(f"rep {rep} launch {k:2d} {r[4][:34]:34s} grid {r[8]:10s} counter {r[11]:>2s} wavefronts {r[13]:>4s}"
              f" | per instruction: wavefronts {total(b, 'L1 Wavefronts Shared'):4d} ideal"
              f" {total(b, 'L1 Wavefronts Shared Ideal'):4d} excess {total(b, 'L1 Wavefronts Shared Excessive')}")
