import { expect, it } from "vitest";
import {
  AnalysisStopped,
  newCancellationFlag,
  raiseCancellation,
  withCancellation,
} from "../../src/analysis/progress/analysis-cancellation.js";
import { readOneShot } from "../../src/queries/one-shot-cells.js";
import { sessionTallies } from "../../src/queries/session-tallies.js";
import { describeEachEngine } from "../support/postgres.js";
import { useSmallRecord } from "../support/small-one-shot-record.js";

// The one pass over the live tallies that the one-shot analyses read, on the small record of
// small-one-shot-record.ts (counted by hand there), on both engines.
describeEachEngine("the one-shot read", (engine) => {
  const store = useSmallRecord(engine);

  it("streams one row per player, session, cell and action, with the decisions listed first", () => {
    expect([...store().oneShotTallies({})]).toEqual([
      ["p", "s1", "prisoners-dilemma", "business", "cooperate", 1, 1, 1],
      ["p", "s1", "prisoners-dilemma", "business", "defect", 1, 1, 1],
      ["p", "s1", "prisoners-dilemma", "friend-sharing", "cooperate", 1, 1, 1],
      ["p", "s2", "prisoners-dilemma", "business", "defect", 1, 0, 1],
      ["p", "s3", "prisoners-dilemma", "business", "defect", 1, 0, 1],
      ["q", "t1", "prisoners-dilemma", "business", "cooperate", 1, 1, 1],
    ]);
    expect([...store().oneShotTallies({ framings: ["friend-sharing"] })]).toEqual([
      ["p", "s1", "prisoners-dilemma", "friend-sharing", "cooperate", 1, 1, 1],
    ]);
  });

  it("streams one row per player and session, its tallies as text in the store's key order once read", () => {
    const sessions = [...store().oneShotSessions({})].map(([player, text]) => [player, sessionTallies(text)]);
    expect(sessions).toEqual([
      [
        "p",
        [
          ["prisoners-dilemma", "base", "business", "cooperate", 1, 1, 1],
          ["prisoners-dilemma", "base", "business", "defect", 1, 1, 1],
          ["prisoners-dilemma", "base", "friend-sharing", "cooperate", 1, 1, 1],
        ],
      ],
      ["p", [["prisoners-dilemma", "base", "business", "defect", 1, 0, 1]]],
      ["p", [["prisoners-dilemma", "base", "business", "defect", 1, 0, 1]]],
      ["q", [["prisoners-dilemma", "base", "business", "cooperate", 1, 1, 1]]],
    ]);
    expect(
      [...store().oneShotSessions({ framings: ["friend-sharing"] })].map(([p, t]) => [p, sessionTallies(t)]),
    ).toEqual([["p", [["prisoners-dilemma", "base", "friend-sharing", "cooperate", 1, 1, 1]]]]);
  });

  it("folds the sessions into weighted types, whole sessions for a player whose sessions span cells", () => {
    const read = readOneShot(store(), {});
    expect(read.cells).toEqual([
      {
        player: "p",
        game: "prisoners-dilemma",
        framing: "business",
        counts: { cooperate: 1, defect: 3 },
        // s1's part of this cell, then s2 and s3 (the same whole session: one type of weight 2).
        clusters: [{ cooperate: 1, defect: 1 }, { defect: 1 }],
        cluster_ids: ["type 0", "type 1"],
        cluster_weights: [1, 2],
      },
      {
        player: "p",
        game: "prisoners-dilemma",
        framing: "friend-sharing",
        counts: { cooperate: 1 },
        clusters: [{ cooperate: 1 }],
        cluster_ids: ["type 0"],
        cluster_weights: [1],
      },
      // q's only session made one decision: analysed by decision, no clusters.
      { player: "q", game: "prisoners-dilemma", framing: "business", counts: { cooperate: 1 } },
    ]);
  });

  it("counts the order effect over exactly the cells asked for", () => {
    const read = readOneShot(store(), {});
    expect(read.firstListed(["prisoners-dilemma"], ["business", "friend-sharing"])).toEqual([
      { player: "p", decisions: 5, first_listed: 3 },
      { player: "q", decisions: 1, first_listed: 1 },
    ]);
    expect(read.firstListed(["prisoners-dilemma"], ["business"])).toEqual([
      { player: "p", decisions: 4, first_listed: 2 },
      { player: "q", decisions: 1, first_listed: 1 },
    ]);
    expect(read.firstListed(["stag-hunt"], ["business"])).toEqual([]);
  });

  it("stops at its next session row once its analysis is cancelled, and reads normally after", () => {
    // The read is the first long step of an analysis at a million decisions (2–3 s): a cancellation raised
    // while it runs must stop it there, not after it. Raised before the read starts, it stops at row one.
    const flag = newCancellationFlag();
    expect(() =>
      withCancellation(flag, () => {
        raiseCancellation(flag);
        return readOneShot(store(), {});
      }),
    ).toThrow(AnalysisStopped);
    expect(withCancellation(newCancellationFlag(), () => readOneShot(store(), {}).cells)).toHaveLength(3);
  });
});
