import { describe, expect, it } from "vitest";
import { AdaptiveStoppingSchema, adaptiveRuleProblem } from "../../src/domain/adaptive/adaptive-design.js";
import {
  type AssignedTrial,
  adaptiveSchedule,
  emptyScheduleMemo,
} from "../../src/domain/adaptive/adaptive-stops.js";
import { InvarianceEProcess } from "../../src/domain/adaptive/invariance-e-process.js";
import { bernoulliJsd } from "../../src/domain/divergence.js";
import type { StudyCell } from "../../src/domain/study-design.js";
import { scheduledCell } from "../../src/domain/study-schedule.js";

describe("the invariance e-process", () => {
  it("is KT mixture over pooled maximum likelihood: 3 × C against 3 × D gives 6.25", () => {
    // KT(3, 0) = (½ · 3⁄2 · 5⁄2) / (1 · 2 · 3) = 0.3125 per framing; pooled (3, 3) at ½: 1/64.
    const e = new InvarianceEProcess(2);
    for (let i = 0; i < 3; i++) {
      e.add("s", "a", 0);
      e.add("s", "b", 1);
    }
    expect(e.eValue()).toBeCloseTo((0.3125 * 0.3125) / (1 / 64), 12);
    expect(e.eValue()).toBeCloseTo(6.25, 12);
  });

  it("stays below 1 when every framing chose alike (identical counts), and is 1 before any choice", () => {
    const e = new InvarianceEProcess(3);
    expect(e.eValue()).toBe(1);
    for (let i = 0; i < 10; i++) for (const f of ["a", "b"]) e.add("s", f, i % 3);
    expect(e.eValue()).toBeLessThan(1);
  });

  it("multiplies across strata, each against its own pooled rate", () => {
    const e = new InvarianceEProcess(2);
    for (const stratum of ["x", "y"]) {
      for (let i = 0; i < 3; i++) {
        e.add(stratum, "a", 0);
        e.add(stratum, "b", 1);
      }
    }
    expect(e.eValue()).toBeCloseTo(6.25 * 6.25, 10);
  });

  it("refuses an action outside the game", () => {
    expect(() => new InvarianceEProcess(2).add("s", "a", 2)).toThrow("Action index 2 is outside 0…1");
  });
});

describe("the adaptive schedule", () => {
  const cell = (game: string, framing: string): StudyCell => ({
    game,
    variant: "base",
    framing,
    style: "zero-shot",
    opponent: { id: "random", params: {} },
  });
  const cells = [cell("g", "a"), cell("g", "b"), cell("h", "a"), cell("h", "b")];
  const actions = () => ["C", "D"];
  const adaptive = AdaptiveStoppingSchema.parse({ rule: "invariance" });
  /** The first n trials of the schedule, finished: framing a of game g always C, b always D; h all C. */
  const played = (n: number): AssignedTrial[] =>
    Array.from({ length: n }, (_, i) => {
      const c = scheduledCell(cells, "seed", "p", i);
      return { trial_index: i, finished: true, action: c.game === "g" && c.framing === "b" ? "D" : "C" };
    });

  it("stops g after block 5 (e = 62.0 ≥ 20) and never h, skipping g's later cells", () => {
    // e after b blocks of one C in a and one D in b: KT(b, 0)² · 2^(2b), KT(b, 0) = Π_{j<b} (j + ½)/(j + 1):
    // b = 4: 0.2734² · 256 = 19.1 < 20; b = 5: 0.2461² · 1024 = 62.0.
    const schedule = adaptiveSchedule(adaptive, cells, "seed", "p", played(20), 400, actions);
    const g = schedule.games.find((s) => s.game === "g");
    expect(g?.stopped?.block).toBe(5);
    expect(g?.stopped?.e_value).toBeCloseTo(62.016, 3);
    // At the stop, 5 C against 5 D: each framing's set for its rate of C is [e, 1] and [0, 1 − e] with
    // e = exp(−(ln 40 − ln KT(5, 0))/5) = exp(−(ln 40 − ln 0.24609375)/5) = 0.36125 < ½: the sets
    // overlap, so R's anytime-valid interval still reaches 1 (its Bonferroni split is less powerful
    // than the test), and its lower end is 1 − JSD(1, 0)/ln 2 = 0.
    const e = Math.exp(-(Math.log(40) - Math.log(0.24609375)) / 5);
    expect(e).toBeCloseTo(0.36125, 5);
    expect(g?.stopped?.reason).toBe(
      "invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%)",
    );
    expect(g?.stopped?.r_interval).toEqual({ lower: 0, upper: 1, width: 1 });
    expect(schedule.games.find((s) => s.game === "h")?.stopped).toBeNull();
    const next = scheduledCell(cells, "seed", "p", schedule.next_index);
    expect(next.game).toBe("h");
    expect(schedule.next_index).toBeGreaterThanOrEqual(20);
    // g's two cells of the 95 blocks it never started are removed from the 400 positions: 190, so the
    // player will play 210; the ones skipped before the next index leave 20 assigned before it.
    expect(schedule.skipped).toBe(190);
    expect(schedule.next_index - schedule.skipped_before).toBe(20);
  });

  it("does not look at a block with a trial still open, and finishes a block already under way", () => {
    const open = played(20).map((t, i) => (i === 3 ? { ...t, finished: false, action: null } : t));
    const waiting = adaptiveSchedule(adaptive, cells, "seed", "p", open, 400, actions);
    expect(waiting.games.find((s) => s.game === "g")?.stopped).toBeNull();
    // Block 5 (indices 20–23) started with one of g's two cells: the rule fired after block 5, yet the
    // other g cell of block 5 is still assigned; no g cell of a later block is.
    const firstG = [20, 21, 22, 23].find((i) => scheduledCell(cells, "seed", "p", i).game === "g") as number;
    const trials = played(firstG + 1);
    // Kept between assignments, as the server keeps it: it must give what a fresh look gives.
    const memo = emptyScheduleMemo();
    for (;;) {
      const schedule = adaptiveSchedule(adaptive, cells, "seed", "p", trials, 32, actions, memo);
      expect(schedule).toEqual(adaptiveSchedule(adaptive, cells, "seed", "p", trials, 32, actions));
      if (schedule.next_index >= 32) break;
      trials.push({ trial_index: schedule.next_index, finished: true, action: "C" });
    }
    const gBlocks = trials
      .filter((t) => scheduledCell(cells, "seed", "p", t.trial_index).game === "g")
      .map((t) => Math.floor(t.trial_index / 4));
    expect(gBlocks).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    // h plays on to the end of the design (8 blocks), g stopped with 6 blocks played.
    expect(trials).toHaveLength(12 + 16);
    const final = adaptiveSchedule(adaptive, cells, "seed", "p", trials, 32, actions);
    expect(final.games.find((s) => s.game === "g")?.stopped?.blocks_played).toBe(6);
  });

  it("gives, from the trials above its frontier alone, what a fresh look at the whole record gives", () => {
    // Three games, up to 3 trials in flight finishing out of order; g stops (story-swayed), k too (it
    // has 3 framings, one always D), h never. At every step the server's way — a memo kept between
    // assignments and the record read from its frontier on — equals a fresh look at every trial.
    const many = [...cells, cell("k", "a"), cell("k", "b"), cell("k", "c")];
    const total = many.length * 40;
    const choice = (index: number): string => {
      const c = scheduledCell(many, "seed", "p", index);
      return (c.game === "g" && c.framing === "b") || (c.game === "k" && c.framing === "c") ? "D" : "C";
    };
    const memo = emptyScheduleMemo();
    const record = new Map<number, AssignedTrial>();
    let state = 7;
    const random = (): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const both = () => {
      const all = [...record.values()].sort((a, b) => a.trial_index - b.trial_index);
      const kept = adaptiveSchedule(
        adaptive,
        many,
        "seed",
        "p",
        all.filter((t) => t.trial_index >= memo.frontier),
        total,
        actions,
        memo,
      );
      const fresh = adaptiveSchedule(adaptive, many, "seed", "p", all, total, actions);
      expect(kept).toEqual(fresh);
      expect(kept.next_index - kept.skipped_before).toBe(record.size);
      return kept;
    };
    for (let step = 0; step < 2_000; step++) {
      const open = [...record.values()].filter((t) => !t.finished);
      const schedule = both();
      if (schedule.next_index >= total && open.length === 0) break;
      if (open.length > 0 && (open.length >= 3 || schedule.next_index >= total || random() < 0.5)) {
        const t = open[Math.floor(random() * open.length)] as AssignedTrial;
        record.set(t.trial_index, { ...t, finished: true, action: choice(t.trial_index) });
      } else {
        record.set(schedule.next_index, { trial_index: schedule.next_index, finished: false, action: null });
      }
    }
    const final = both();
    // k: KT(b, 0)³ over the pooled (2b C, b D) at (⅔, ⅓): 9.4 after 3 blocks, 42.4 after 4.
    expect(final.games.map((g) => [g.game, g.stopped?.block ?? null])).toEqual([
      ["g", 5],
      ["h", null],
      ["k", 4],
    ]);
    // Everything the schedule removed is a stopped game's cells in blocks it never started.
    expect(final.skipped).toBe(total - record.size);
    expect(memo.frontier).toBe(total);
  });

  it("completes when every game stopped", () => {
    const both = Array.from({ length: 40 }, (_, i): AssignedTrial => {
      const c = scheduledCell(cells, "seed", "p", i);
      return { trial_index: i, finished: true, action: c.framing === "b" ? "D" : "C" };
    });
    const schedule = adaptiveSchedule(adaptive, cells, "seed", "p", both, 400, actions);
    expect(schedule.games.every((s) => s.stopped?.block === 5)).toBe(true);
    expect(schedule.next_index).toBe(400);
  });

  it("refuses an unknown rule, naming the valid ones", () => {
    const result = AdaptiveStoppingSchema.safeParse({ rule: "power" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('["invariance","width","invariance_or_width"]');
  });

  it("refuses a width target outside (0, 1), naming it and the range", () => {
    for (const bad of [0, 1, 1.5, -0.2]) {
      const result = AdaptiveStoppingSchema.safeParse({ rule: "width", width_target: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        `adaptive.width_target ${bad} is outside (0, 1): R lies in [0, 1], so its interval's width target must be above 0 and below 1.`,
      );
    }
    expect(adaptiveRuleProblem(AdaptiveStoppingSchema.parse({ rule: "width" }))).toContain(
      "adaptive.rule width needs adaptive.width_target",
    );
    expect(
      adaptiveRuleProblem(AdaptiveStoppingSchema.parse({ rule: "invariance", width_target: 0.2 })),
    ).toContain("adaptive.width_target 0.2 has no effect under rule invariance");
  });

  it("width rule: a deterministic agent (always C) stops once R's interval is narrower than 0.1, at block 29", () => {
    // Every framing's set is [e^(−r/n), 1], r = ln 40 − ln KT(n, 0), so the width is
    // JSD(1, e^(−r/n))/ln 2: 0.1021 after 28 blocks, 0.0996 after 29 (the loop below recomputes it).
    let logKt = 0;
    const widths: number[] = [];
    for (let n = 1; n <= 30; n++) {
      logKt += Math.log((n - 0.5) / n);
      widths.push(bernoulliJsd(1, Math.exp(-(Math.log(40) - logKt) / n)) / Math.LN2);
    }
    expect(widths.findIndex((w) => w < 0.1) + 1).toBe(29);
    const width = AdaptiveStoppingSchema.parse({ rule: "width", width_target: 0.1 });
    const allC = (n: number): AssignedTrial[] =>
      Array.from({ length: n }, (_, i) => ({ trial_index: i, finished: true, action: "C" }));
    const before = adaptiveSchedule(width, cells, "seed", "p", allC(28 * 4), 400, actions);
    expect(before.games.every((g) => g.stopped === null)).toBe(true);
    expect(before.games[0]?.r_interval?.width).toBeCloseTo(widths[27] as number, 9);
    const at = adaptiveSchedule(width, cells, "seed", "p", allC(29 * 4), 400, actions);
    for (const g of at.games) {
      expect(g.stopped?.block).toBe(29);
      expect(g.stopped?.reason).toBe(
        "R's interval narrower than 0.1 after block 29 (width 0.100); R in [0.900, 1.000] (anytime-valid 95%)",
      );
    }
    // Both games stopped: the player's schedule is done after 29 of its 100 blocks.
    expect(at.next_index).toBe(400);
    // The invariance rule alone never stops them (no framing effect); with "either" the width does.
    const invariance = adaptiveSchedule(adaptive, cells, "seed", "p", allC(29 * 4), 400, actions);
    expect(invariance.games.every((g) => g.stopped === null)).toBe(true);
    const either = AdaptiveStoppingSchema.parse({ rule: "invariance_or_width", width_target: 0.1 });
    const stops = adaptiveSchedule(either, cells, "seed", "p", allC(29 * 4), 400, actions);
    expect(stops.games.map((g) => g.stopped?.block)).toEqual([29, 29]);
  });
});
