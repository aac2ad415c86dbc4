#!/usr/bin/python3
"""Summarises per-seed CSVs of bench/seeds (gobayes, -csv) and
bench/seeds/stan_seeds.R (rstan): for each tool, the median and quartiles
of the min bulk ESS and of ESS per 10^4 gradients, median gradients,
divergent transitions (total and median), the medians of the final step
size, tree depth and acceptance statistic, and a rank-sum z of ESS per
gradient against the first file's tool (positive: higher than it).

    python3 bench/seeds/summarise.py results/stan-X.csv results/gobayes-Y.csv ...
"""
import csv
import math
import statistics
import sys


def quart(v):
    s = sorted(v)

    def at(q):
        x = q * (len(s) - 1)
        i = int(x)
        if i + 1 >= len(s):
            return s[-1]
        return s[i] + (x - i) * (s[i + 1] - s[i])

    return at(0.25), at(0.5), at(0.75)


def ranksum_z(a, b):
    """Mann-Whitney z of b against a (ties get mid-ranks)."""
    allv = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(allv)
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rb = sum(r for r, (_, g) in zip(ranks, allv) if g == 1)
    n1, n2 = len(a), len(b)
    u = rb - n2 * (n2 + 1) / 2
    mu = n1 * n2 / 2
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return (u - mu) / sd


def main():
    ref = None
    print(f"{'tool':<14}{'seeds':>6}{'ESS q25/med/q75':>22}{'ESS/1e4 grad q25/med/q75':>28}"
          f"{'med grads':>11}{'div tot/med':>13}{'eps':>8}{'depth':>7}{'acc':>7}{'z vs ' + 'first':>12}")
    for path in sys.argv[1:]:
        rows = list(csv.DictReader(open(path)))
        tool = rows[0]["tool"]
        f = lambda k: [float(r[k]) for r in rows]
        ess, per, grads, div = f("min_ess_bulk"), f("ess_per_1e4_grad"), f("gradients"), f("divergent")
        if ref is None:
            ref = per
        e, p = quart(ess), quart(per)
        z = ranksum_z(ref, per)
        print(f"{tool:<14}{len(rows):>6}{'%.0f / %.0f / %.0f' % e:>22}{'%.2f / %.2f / %.2f' % p:>28}"
              f"{statistics.median(grads):>11.0f}{'%d / %.0f' % (sum(div), statistics.median(div)):>13}"
              f"{statistics.median(f('step_size')):>8.3f}{statistics.median(f('tree_depth')):>7.2f}"
              f"{statistics.median(f('accept_stat')):>7.3f}{z:>12.2f}")


main()
