import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { countsRecord } from "../support/counts-record.js";

// `analyze compare` on records a real study reaches: games of different numbers of actions side by side,
// and agents at opposite ends of R with very unequal cells.

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-compare-edges-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (name: string, rows: string[]) => countsRecord(dir, name, rows);

interface Compared {
  pairs: { measure: string; a: string; b: string; difference: { estimate: number; ci: [number, number] } }[];
}

function compare(db: string): Compared {
  const run = runCli(["analyze", "compare", "--framings", "business,friend-sharing", "--json", "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Compared;
}

describe("analyze compare", () => {
  it("compares the two-action game when a three-action game is in the record too", () => {
    // A cooperates under both stories (R = 1), B defects under one and cooperates under the other
    // (R = 1 − JSD((1,0),(0,1))/ln 2 = 0); the coordination game was played under another framing.
    const db = record("mixed-actions", [
      "A,prisoners-dilemma,business,cooperate,10",
      "A,prisoners-dilemma,friend-sharing,cooperate,10",
      "A,coordination-3x3,abstract-matrix,left,5",
      "B,prisoners-dilemma,business,defect,10",
      "B,prisoners-dilemma,friend-sharing,cooperate,10",
      "B,coordination-3x3,abstract-matrix,left,5",
    ]);
    const { pairs } = compare(db);
    expect(pairs.find((p) => p.measure === "R")?.difference.estimate).toBe(1);
    expect(pairs.some((p) => p.measure === "exploitability")).toBe(true);
  });

  it("keeps a difference of R inside [−1, 1], however unequal the cells", () => {
    // A: always defects, 300 decisions under one story and 1 under the other (R = 1); B: 40 cooperate,
    // 40 defect, split by story (R = 0). The widened interval of 1 − 0 reached 1.79 before it was clipped.
    const db = record("unequal", [
      "A,prisoners-dilemma,business,defect,300",
      "A,prisoners-dilemma,friend-sharing,defect,1",
      "B,prisoners-dilemma,business,cooperate,40",
      "B,prisoners-dilemma,friend-sharing,defect,40",
    ]);
    const { pairs } = compare(db);
    for (const p of pairs) {
      const [lo, hi] = p.difference.ci;
      const bound = p.measure === "shift" ? 2 : p.measure === "lambda" ? 20 : 1;
      expect(lo, `${p.measure} ${p.a} − ${p.b}`).toBeGreaterThanOrEqual(-bound);
      expect(hi, `${p.measure} ${p.a} − ${p.b}`).toBeLessThanOrEqual(bound);
    }
    const r = pairs.find((p) => p.measure === "R");
    expect(r?.difference.estimate).toBe(1);
    expect(r?.difference.ci[1]).toBe(1);
  });
});
