"""The anchor of the CLI benchmark: one Table-3 analysis as a numpy process.

Reads the published counts (player, game, framing, action, count), and for every (player, game) computes
strategic robustness R = 1 - max pairwise JSD / log 2 across framings with a percentile bootstrap
(B = 10,000 multinomial replicates per framing), then prints one line per (player, game). The same work
`same-game analyze robustness` does on the same counts, in the idiom a numpy user would write.
Run: python3 bench/cli/table3_numpy.py data/lore-heydari-2024-business-vs-friend.csv
"""
import csv
import sys
from collections import defaultdict

import numpy as np

B = 10_000


def jsd(p, q):
    m = 0.5 * (p + q)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, p * np.log(p / m), 0.0).sum(axis=-1)
        b = np.where(q > 0, q * np.log(q / m), 0.0).sum(axis=-1)
    return 0.5 * (a + b)


def main(path):
    cells = defaultdict(lambda: defaultdict(dict))
    actions = defaultdict(set)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cells[(row["player"], row["game"])][row["framing"]][row["action"]] = int(row["count"])
            actions[row["game"]].add(row["action"])
    rng = np.random.default_rng(1)
    for (player, game), framings in sorted(cells.items()):
        order = sorted(actions[game])
        counts = [np.array([framings[f].get(a, 0) for a in order], dtype=float) for f in sorted(framings)]
        point = [c / c.sum() for c in counts]
        draws = [rng.multinomial(int(c.sum()), c / c.sum(), size=B) / c.sum() for c in counts]
        worst = np.zeros(B)
        worst_point = 0.0
        for i in range(len(counts)):
            for j in range(i + 1, len(counts)):
                worst = np.maximum(worst, jsd(draws[i], draws[j]))
                worst_point = max(worst_point, float(jsd(point[i], point[j])))
        r = 1 - worst / np.log(2)
        lo, hi = np.percentile(r, [2.5, 97.5])
        print(f"{player:24s} {game:22s} R = {1 - worst_point / np.log(2):.3f} [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main(sys.argv[1])
