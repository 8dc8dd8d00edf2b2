"""The Table-3 anchor: the robustness analysis of the published Lorè & Heydari counts
(3 players x 4 dilemmas x business/friend-sharing, n = 300 per cell) in vectorised numpy, the same work
as `robustnessAnalysis` (B = 10,000 binomial replicates per cell, JSD and R per game, player and pooled
means, hypergeometric permutation replicates, percentile intervals). Prints the median of 20 runs in ms.
Run: python3 bench/scale/table3_numpy.py [data/lore-heydari-2024-business-vs-friend.csv]"""
import csv
import sys
import time

import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "data/lore-heydari-2024-business-vs-friend.csv"
cells = {}
with open(path) as f:
    for row in csv.DictReader(f):
        key = (row["player"], row["game"])
        cells.setdefault(key, {}).setdefault(row["framing"], {})[row["action"]] = int(row["count"])
units = sorted(cells)
B = 10_000


def entropy(p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.nan_to_num(p * np.log(p)) - np.nan_to_num((1 - p) * np.log(1 - p))


def jsd(p, q):
    return np.clip(entropy((p + q) / 2) - (entropy(p) + entropy(q)) / 2, 0, np.log(2))


def analysis(rng):
    boot, perm = [], []
    for key in units:
        a, b = cells[key]["business"], cells[key]["friend-sharing"]
        na, nb = sum(a.values()), sum(b.values())
        xa, xb = a.get("cooperate", 0), b.get("cooperate", 0)
        pa = rng.binomial(na, xa / na, B) / na
        pb = rng.binomial(nb, xb / nb, B) / nb
        boot.append(1 - jsd(pa, pb) / np.log(2))
        ha = rng.hypergeometric(xa + xb, na + nb - xa - xb, na, B)
        perm.append(1 - jsd(ha / na, (xa + xb - ha) / nb) / np.log(2))
    boot, perm = np.array(boot), np.array(perm)
    players = sorted({p for p, _ in units})
    rows = list(boot) + list(perm)
    for p in players:
        idx = [i for i, (q, _) in enumerate(units) if q == p]
        rows += [boot[idx].mean(axis=0), perm[idx].mean(axis=0)]
    rows += [boot.mean(axis=0), perm.mean(axis=0)]
    return [np.percentile(np.sqrt(np.maximum(0, 1 - r)), [2.5, 97.5]) for r in rows]


rng = np.random.default_rng(1)
times = []
for _ in range(20):
    t = time.perf_counter()
    analysis(rng)
    times.append((time.perf_counter() - t) * 1000)
print(f"numpy Table-3 analysis: median {np.median(times):.1f} ms over 20 runs")
