import { describe, expect, it } from "vitest";
import { type CountCell, validateCell } from "../../src/analysis/count-cells.js";
import { cellsFromRows } from "../../src/queries/one-shot-cells.js";
import type { CellCountRow } from "../../src/store/records.js";

const row = (session: string | null, action: string, count: number, framing = "business"): CellCountRow => ({
  player: "p",
  game: "prisoners-dilemma",
  variant: "base",
  framing,
  action,
  session_id: session,
  count,
  source: session === null ? "paper" : null,
});

describe("cellsFromRows", () => {
  it("sums a cell's sessions into its counts and keeps each session as a cluster", () => {
    const [cell] = cellsFromRows([row("s1", "cooperate", 2), row("s1", "defect", 1), row("s2", "defect", 3)]);
    expect(cell?.counts).toEqual({ cooperate: 2, defect: 4 });
    expect(cell?.clusters).toEqual([{ cooperate: 2, defect: 1 }, { defect: 3 }]);
  });

  it("orders clusters by content, so random session ids cannot change a seeded bootstrap", () => {
    const a = cellsFromRows([row("zz", "defect", 3), row("aa", "cooperate", 1)]);
    const b = cellsFromRows([row("aa", "defect", 3), row("zz", "cooperate", 1)]);
    const withoutIds = (cells: typeof a) => cells.map(({ cluster_ids: _ids, ...cell }) => cell);
    expect(withoutIds(a)).toEqual(withoutIds(b));
    // The session ids travel with their clusters (for the joint bootstrap across cells).
    expect(a[0]?.clusters).toEqual([{ cooperate: 1 }, { defect: 3 }]);
    expect(a[0]?.cluster_ids).toEqual(["aa", "zz"]);
    expect(b[0]?.cluster_ids).toEqual(["zz", "aa"]);
  });

  it("keeps an imported cell's sessions, and draws its decisions without one as one-decision sessions", () => {
    const imported = (session: string | null, action: string, count: number): CellCountRow => ({
      ...row(session, action, count),
      source: "harness",
    });
    const [cell] = cellsFromRows([
      imported('["counts","harness","1"]', "cooperate", 2),
      imported(null, "defect", 3),
      imported(null, "cooperate", 1),
    ]);
    expect(cell?.counts).toEqual({ cooperate: 3, defect: 3 });
    // By content: {cooperate: 1} (1 decision without a session), {cooperate: 2} (session 1), {defect: 1} × 3.
    expect(cell?.clusters).toEqual([{ cooperate: 1 }, { cooperate: 2 }, { defect: 1 }]);
    expect(cell?.cluster_weights).toEqual([1, 1, 3]);
    expect(cell?.cluster_ids?.[1]).toBe('["counts","harness","1"]');
    expect(validateCell(cell as CountCell)).toBe(6);
    // An imported cell without any session is analysed by decision, exactly as before sessions existed.
    expect(cellsFromRows([imported(null, "defect", 3)])).toEqual([
      { player: "p", game: "prisoners-dilemma", framing: "business", counts: { defect: 3 } },
    ]);
  });

  it("refuses a cell that mixes live sessions with imported counts under one player label", () => {
    expect(() => cellsFromRows([row("s1", "defect", 1), row(null, "defect", 5)])).toThrow(
      /both live and imported decisions/,
    );
  });
});
