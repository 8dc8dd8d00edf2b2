import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import {
  type OrdinalGame,
  ordinalGameFile,
  type RankMatrix,
  robinsonGoforthGames,
} from "../../src/domain/ordinal-2x2.js";
import { resolveCatalogDir } from "../../src/domain/shipped-catalogs.js";
import { nashEquilibria } from "../../src/game-theory/equilibria.js";
import { packageRoot } from "../../src/package-root.js";

// The family of the 144 strict ordinal 2×2 games, numbered as Robinson & Goforth (2005) number
// them (layer, row, column) and as TMGBench plays them as its "classic" games.

const games = robinsonGoforthGames();
const byNumber = (n: string) => games.find((g) => g.number === n) as OrdinalGame;
const familyDir = join(packageRoot(), "catalogs", "ordinal-2x2");

// TMGBench's classic tables, copied by hand from its 144 game files (each cell "row payoff \ column
// payoff"; rows A1, A2; columns B1, B2). The game TMGBench's paper shows as its example, a Prisoner's
// Dilemma, is "| A1 | 1 \ 4 | 3 \ 3 |  | A2 | 2 \ 2 | 4 \ 1 |": game 111.
const TMGBENCH: Record<string, { pA: RankMatrix; pB: RankMatrix }> = {
  "111": {
    pA: [
      [1, 3],
      [2, 4],
    ],
    pB: [
      [4, 3],
      [2, 1],
    ],
  },
  "116": {
    pA: [
      [1, 3],
      [2, 4],
    ],
    pB: [
      [4, 2],
      [3, 1],
    ],
  },
  "122": {
    pA: [
      [2, 3],
      [1, 4],
    ],
    pB: [
      [4, 3],
      [1, 2],
    ],
  },
  "135": {
    pA: [
      [3, 2],
      [1, 4],
    ],
    pB: [
      [4, 1],
      [3, 2],
    ],
  },
  "146": {
    pA: [
      [3, 1],
      [2, 4],
    ],
    pB: [
      [4, 2],
      [3, 1],
    ],
  },
  "166": {
    pA: [
      [1, 2],
      [3, 4],
    ],
    pB: [
      [4, 2],
      [3, 1],
    ],
  },
  "211": {
    pA: [
      [2, 4],
      [1, 3],
    ],
    pB: [
      [4, 3],
      [2, 1],
    ],
  },
  "222": {
    pA: [
      [1, 4],
      [2, 3],
    ],
    pB: [
      [4, 3],
      [1, 2],
    ],
  },
  "234": {
    pA: [
      [1, 4],
      [3, 2],
    ],
    pB: [
      [4, 1],
      [2, 3],
    ],
  },
  "263": {
    pA: [
      [3, 4],
      [1, 2],
    ],
    pB: [
      [4, 2],
      [1, 3],
    ],
  },
  "311": {
    pA: [
      [2, 4],
      [1, 3],
    ],
    pB: [
      [3, 4],
      [1, 2],
    ],
  },
  "322": {
    pA: [
      [1, 4],
      [2, 3],
    ],
    pB: [
      [3, 4],
      [2, 1],
    ],
  },
  "333": {
    pA: [
      [1, 4],
      [3, 2],
    ],
    pB: [
      [2, 4],
      [3, 1],
    ],
  },
  "344": {
    pA: [
      [2, 4],
      [3, 1],
    ],
    pB: [
      [1, 4],
      [3, 2],
    ],
  },
  "355": {
    pA: [
      [3, 4],
      [2, 1],
    ],
    pB: [
      [1, 4],
      [2, 3],
    ],
  },
  "366": {
    pA: [
      [3, 4],
      [1, 2],
    ],
    pB: [
      [2, 4],
      [1, 3],
    ],
  },
  "411": {
    pA: [
      [1, 3],
      [2, 4],
    ],
    pB: [
      [3, 4],
      [1, 2],
    ],
  },
  "424": {
    pA: [
      [2, 3],
      [1, 4],
    ],
    pB: [
      [1, 4],
      [3, 2],
    ],
  },
  "443": {
    pA: [
      [3, 1],
      [2, 4],
    ],
    pB: [
      [2, 4],
      [3, 1],
    ],
  },
  "452": {
    pA: [
      [2, 1],
      [3, 4],
    ],
    pB: [
      [3, 4],
      [2, 1],
    ],
  },
  "466": {
    pA: [
      [1, 2],
      [3, 4],
    ],
    pB: [
      [2, 4],
      [1, 3],
    ],
  },
};

/** Pure Nash cells [row, column] of a strict ordinal game (no ties, so weak = strict). */
function pureNash(g: { rowRanks: RankMatrix; columnRanks: RankMatrix }): [number, number][] {
  const cells: [number, number][] = [];
  for (const i of [0, 1])
    for (const j of [0, 1]) {
      const rowBest = g.rowRanks[i]![j]! > g.rowRanks[1 - i]![j]!;
      const columnBest = g.columnRanks[i]![j]! > g.columnRanks[i]![1 - j]!;
      if (rowBest && columnBest) cells.push([i, j]);
    }
  return cells;
}

/** The game with rows and/or columns swapped: the relabellings under which two games are the same game. */
function relabelled(a: RankMatrix, b: RankMatrix, swapRows: boolean, swapColumns: boolean): string {
  const at = (m: RankMatrix, i: number, j: number) =>
    m[swapRows ? 1 - i : i]![swapColumns ? 1 - j : j] as number;
  return [0, 1].flatMap((i) => [0, 1].map((j) => `${at(a, i, j)}${at(b, i, j)}`)).join(" ");
}
function canonical(a: RankMatrix, b: RankMatrix): string {
  return [false, true].flatMap((r) => [false, true].map((c) => relabelled(a, b, r, c))).sort()[0] as string;
}

function permutationsOf(values: number[]): number[][] {
  if (values.length <= 1) return [values];
  return values.flatMap((v, k) =>
    permutationsOf([...values.slice(0, k), ...values.slice(k + 1)]).map((rest) => [v, ...rest]),
  );
}
const asMatrix = (p: number[]): RankMatrix => [
  [p[0] as number, p[1] as number],
  [p[2] as number, p[3] as number],
];

describe("the 144 ordinal 2×2 games, Robinson–Goforth numbering", () => {
  it("numbers 144 games 111 … 466, each player ranking the four outcomes 1 to 4 without ties", () => {
    expect(games).toHaveLength(144);
    const numbers = games.map((g) => g.number);
    expect(new Set(numbers).size).toBe(144);
    expect(numbers[0]).toBe("111");
    expect(numbers[143]).toBe("466");
    for (const g of games) {
      expect(g.number).toMatch(/^[1-4][1-6][1-6]$/);
      expect([...g.rowRanks.flat()].sort()).toEqual([1, 2, 3, 4]);
      expect([...g.columnRanks.flat()].sort()).toEqual([1, 2, 3, 4]);
    }
  });

  it("covers all 144 classes: no two are the same game up to relabelling rows or columns, and all 576 matrices fall in one", () => {
    const classes = new Set(games.map((g) => canonical(g.rowRanks, g.columnRanks)));
    expect(classes.size).toBe(144);
    // 4! × 4! = 576 strict ordinal bimatrices; swapping rows and/or columns makes classes of exactly 4.
    let matrices = 0;
    for (const a of permutationsOf([1, 2, 3, 4]))
      for (const b of permutationsOf([1, 2, 3, 4])) {
        matrices++;
        expect(classes.has(canonical(asMatrix(a), asMatrix(b)))).toBe(true);
      }
    expect(matrices).toBe(576);
  });

  it("reproduces TMGBench's classic payoff tables at the same numbers", () => {
    for (const [number, { pA, pB }] of Object.entries(TMGBENCH)) {
      expect({ number, pA: byNumber(number).rowRanks, pB: byNumber(number).columnRanks }).toEqual({
        number,
        pA,
        pB,
      });
    }
  });

  it("puts the famous symmetric games at their published numbers, and only those twelve are symmetric", () => {
    const symmetric = (g: OrdinalGame) =>
      // Seen from the column seat (its B2, B1 stand where the row player's A1, A2 stand).
      g.columnRanks[0][0] === g.rowRanks[1][1] &&
      g.columnRanks[0][1] === g.rowRanks[0][1] &&
      g.columnRanks[1][0] === g.rowRanks[1][0] &&
      g.columnRanks[1][1] === g.rowRanks[0][0];
    const named = Object.fromEntries(games.filter(symmetric).map((g) => [g.number, g.rowPattern]));
    expect(named).toEqual({
      "111": "Prisoner's Dilemma",
      "122": "Chicken",
      "133": "Battle",
      "144": "Hero",
      "155": "Compromise",
      "166": "Deadlock",
      "311": "Concord",
      "322": "Stag Hunt",
      "333": "Assurance",
      "344": "Coordination",
      "355": "Peace",
      "366": "Harmony",
    });
  });

  it("gives each famous game its textbook equilibrium (hand-checked from the tables above)", () => {
    const outcome = (n: string) =>
      pureNash(byNumber(n)).map(([i, j]) => [byNumber(n).rowRanks[i]![j], byNumber(n).columnRanks[i]![j]]);
    // Prisoner's Dilemma: both defect (A2, B1) for (2, 2) though (A1, B2) gives both 3.
    expect(pureNash(byNumber("111"))).toEqual([[1, 0]]);
    expect(outcome("111")).toEqual([[2, 2]]);
    expect(byNumber("111").rowRanks[0][1]).toBe(3);
    expect(byNumber("111").columnRanks[0][1]).toBe(3);
    // Chicken: one swerves, the other does not: (2, 4) and (4, 2); crashing is (1, 1).
    expect(outcome("122")).toEqual([
      [2, 4],
      [4, 2],
    ]);
    // Battle of the Sexes: two equilibria, each player's favourite (3, 4) and (4, 3).
    expect(outcome("133")).toEqual([
      [3, 4],
      [4, 3],
    ]);
    // Stag Hunt: both hunt the stag (4, 4) or both the hare (2, 2).
    expect(outcome("322")).toEqual([
      [4, 4],
      [2, 2],
    ]);
    // Deadlock: mutual defection (3, 3) is the only equilibrium; Harmony: the best outcome (4, 4).
    expect(outcome("166")).toEqual([[3, 3]]);
    expect(outcome("366")).toEqual([[4, 4]]);
  });

  it("has TMGBench's counts: 18 games without a pure equilibrium, 18 with two, six constant-sum games", () => {
    const byCount = [0, 1, 2].map((k) => games.filter((g) => pureNash(g).length === k).length);
    expect(byCount).toEqual([18, 108, 18]);
    const constantSum = games
      .filter((g) =>
        [0, 1].every((i) => [0, 1].every((j) => g.rowRanks[i]![j]! + g.columnRanks[i]![j]! === 5)),
      )
      .map((g) => g.number);
    expect(constantSum).toEqual(["116", "161", "225", "234", "443", "452"]);
  });
});

describe("the shipped catalog ordinal-2x2", () => {
  it("is exactly what the generator writes (npm run generate:ordinal-2x2)", () => {
    const files = readdirSync(join(familyDir, "games")).sort();
    expect(files).toEqual(games.map((g) => `rg-${g.number}.json`).sort());
    for (const g of games) {
      const committed = JSON.parse(readFileSync(join(familyDir, "games", `rg-${g.number}.json`), "utf8"));
      expect(committed).toEqual(ordinalGameFile(g));
    }
  });

  it("is found by name by --catalog / SAME_GAME_CATALOG", () => {
    expect(resolveCatalogDir("ordinal-2x2")).toBe(familyDir);
  });

  it("loads, computes every game's equilibria and certifies all 144 under both any-shape framings and every label set", () => {
    const previous = process.env.SAME_GAME_CERT_CACHE;
    process.env.SAME_GAME_CERT_CACHE = "0";
    const started = performance.now();
    let catalog: ReturnType<typeof loadCatalog>;
    try {
      catalog = loadCatalog(packageRoot(), familyDir);
    } finally {
      if (previous === undefined) delete process.env.SAME_GAME_CERT_CACHE;
      else process.env.SAME_GAME_CERT_CACHE = previous;
    }
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `ordinal-2x2: certified ${catalog.certifiedPrompts} prompts in ${seconds.toFixed(1)} s\n`,
    );
    const presentations = [
      "abstract-matrix",
      "abstract-matrix+familiar",
      "abstract-matrix+neutral",
      "neutral-narrative",
      "neutral-narrative+familiar",
      "neutral-narrative+neutral",
    ];
    for (const g of games) {
      const id = `rg-${g.number}`;
      expect(catalog.framingsFor(id, "base").map((f) => f.id)).toEqual(presentations);
      const stage = catalog.stageGame(id, "base");
      expect(stage.u1).toEqual(g.rowRanks);
      expect(stage.u2).toEqual(g.columnRanks);
      // The equilibrium solver finds each pure Nash cell of the table (and, in a game without one, a
      // mixed equilibrium).
      const pure = nashEquilibria(stage)
        .equilibria.filter((e) => e.kind === "pure")
        .map((e) => [e.row.first === 1 ? 0 : 1, e.column.first === 1 ? 0 : 1])
        .sort((x, y) => (x[0] as number) - (y[0] as number));
      expect(pure).toEqual(pureNash(g));
      expect(nashEquilibria(stage).equilibria.length).toBeGreaterThan(0);
    }
    // 144 games × 2 framings × 3 label sets × 2 action orders × 3 styles = 5,184 more prompts.
    expect(catalog.certifiedPrompts - loadCatalog().certifiedPrompts).toBe(5184);
  }, 120_000);
});
