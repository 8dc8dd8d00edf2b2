// The R interval and the invariance test at the edges a real study reaches: deterministic agents played
// live (sessions without variance), shifts of ±1, and random records of every shape — each number finite,
// the upper end 1 exactly when the invariance test does not reject, and every result valid under the
// `robustness` tool's advertised output schema (listed by a real SDK client).
import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { type RobustnessResult, robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import type { MatchRecord } from "../../src/store/records.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

const GAMES = ["g0", "g1", "g2", "g3"];
const COOPERATE = Object.fromEntries(GAMES.map((g) => [g, "cooperate"]));
/** The games' actions, as the catalog gives them (a cell that chose one action does not list the other). */
const ACTIONS_OF = Object.fromEntries(GAMES.map((g) => [g, ["cooperate", "defect"]]));

/**
 * A deterministic agent played live: `sessions` MCP sessions, each deciding once in every cell of 4 games
 * × 2 framings, always the same action per game (as the demo's payoff reader does).
 */
function liveDeterministic(sessions: number): CountCell[] {
  return GAMES.flatMap((game, g) =>
    ["a", "b"].map((framing) => {
      const action = g % 2 === 0 ? "cooperate" : "defect";
      return {
        player: "m",
        game,
        framing,
        counts: { [action]: sessions },
        clusters: Array.from({ length: sessions }, () => ({ [action]: 1 })),
        cluster_ids: Array.from({ length: sessions }, (_, s) => `s${s}`),
      };
    }),
  );
}

/** Every number anywhere in a value (NaN and ±Infinity included), with its path. */
function numbers(value: unknown, path = ""): { path: string; value: number }[] {
  if (typeof value === "number") return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbers(v, `${path}/${i}`));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => numbers(v, `${path}/${k}`));
  return [];
}

/** Every R row of a result (games, players, pooled) with its estimate, interval and p-value. */
function rRows(result: RobustnessResult) {
  return [...result.games, ...result.players, result.pooled].map((row) => ({
    R: row.R,
    p: row.invariance.p_value,
    corrected: row.R_bias_corrected,
  }));
}

/**
 * The lower end of R for two framings that chose one action all n times: the R of the one deviant
 * framing at rate a = 0.05^(1/n) beside one that never deviates, the configuration under which the
 * record (a^n, counted half in mid-p form) is an α/2 = 2.5% tail: 1 − JSD(a, 1)/ln 2, 0.9267 at n = 20.
 */
function allAlikeLowerEnd(n: number): number {
  const a = 0.05 ** (1 / n);
  const h = (p: number): number => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));
  return 1 - (h((1 + a) / 2) - h(a) / 2) / Math.LN2;
}

describe("a deterministic agent played live", () => {
  for (const [sessions, expected] of [
    [20, allAlikeLowerEnd(20)],
    [4, null],
  ] as const) {
    it(`gets the interval its counts get without sessions (${sessions} per cell), finite and not a point`, () => {
      const live = robustnessAnalysis(liveDeterministic(sessions), {
        cooperativeAction: COOPERATE,
        actions: ACTIONS_OF,
        bootstrap: 2000,
      });
      const imported = robustnessAnalysis(
        liveDeterministic(sessions).map(({ player, game, framing, counts }) => ({
          player,
          game,
          framing,
          counts,
        })),
        { cooperativeAction: COOPERATE, actions: ACTIONS_OF, bootstrap: 2000 },
      );
      expect(live.unit).toBe("session");
      expect(live.players[0]?.cluster_scope).toBe("player");
      expect(numbers(live).filter((n) => !Number.isFinite(n.value))).toEqual([]);
      for (const [g, game] of live.games.entries()) {
        const twin = imported.games[g];
        expect(game.R.estimate).toBe(1);
        expect(game.R_bias_corrected).toBe(1);
        expect(game.R.ci[1]).toBe(1);
        expect(game.R.ci[0]).toBeCloseTo(twin?.R.ci[0] as number, 3);
        expect(game.R.ci[0]).toBeLessThan(0.99);
        if (expected !== null) expect(game.R.ci[0]).toBeCloseTo(expected, 3);
      }
      // The player's R is not a point either: the cells vary as decisions do.
      const player = live.players[0];
      expect(player?.R.ci[0]).toBeLessThan(1);
      expect(player?.R.ci[1]).toBe(1);
    });
  }

  it("gets the same interval with each session nested in one cell", () => {
    const nested = liveDeterministic(20).map(({ cluster_ids: _, ...cell }) => cell);
    const result = robustnessAnalysis(nested, {
      cooperativeAction: COOPERATE,
      actions: ACTIONS_OF,
      bootstrap: 2000,
    });
    expect(result.players[0]?.cluster_scope).toBe("cell");
    expect(result.games[0]?.R.ci[0]).toBeCloseTo(allAlikeLowerEnd(20), 3);
    expect(result.games[0]?.R.ci[1]).toBe(1);
  });
});

describe("an attenuation near 0", () => {
  // One agent cooperated in all 200 decisions under framing a and defected in its one decision under b:
  // JSD = ln 2, so R = 0 and R_cons = 1 − a. Attenuation maps every replicate by R ↦ 1 − a(1 − R), so the
  // interval at a is the image of the interval at a = 1; the bound "just below 1" that an upper end takes
  // when the invariance test rejects (it does here: p = 2/1001) is mapped with it. Taken as a fixed
  // 1 − 10⁻⁶ in the attenuated scale, it cut the interval at a = 10⁻⁶ and 10⁻⁷ to the point 0.999999,
  // below the estimate, and the check ci_contains_estimate failed on this healthy record.
  const cells: CountCell[] = [
    { player: "det", game: "g0", framing: "a", counts: { cooperate: 200 } },
    { player: "det", game: "g0", framing: "b", counts: { defect: 1 } },
  ];
  const options = { cooperativeAction: COOPERATE, actions: ACTIONS_OF, bootstrap: 1000 };
  const plain = robustnessAnalysis(cells, options);

  it("has R = 0 and a rejecting invariance test at a = 1", () => {
    expect(plain.games[0]?.R.estimate).toBe(0);
    expect(plain.games[0]?.invariance.p_value).toBeCloseTo(2 / 1001, 12);
    expect(plain.games[0]?.R.ci[1]).toBeLessThan(1);
  });

  for (const a of [1e-3, 1e-6, 1e-7]) {
    it(`maps the interval at a = 1 to R_cons = 1 − a(1 − R) at a = ${a}, containing its estimate`, () => {
      const result = robustnessAnalysis(cells, { ...options, attenuation: a });
      const attenuate = (r: number) => 1 - a * (1 - r);
      for (const [row, base] of [
        [result.games[0], plain.games[0]],
        [result.players[0], plain.players[0]],
        [result.pooled, plain.pooled],
      ] as const) {
        if (row === undefined || base === undefined) throw new Error("a row is missing");
        const [lo, hi] = row.R.ci;
        expect(row.R.estimate).toBeCloseTo(1 - a, 15);
        expect(lo).toBeLessThanOrEqual(row.R.estimate);
        expect(hi).toBeGreaterThanOrEqual(row.R.estimate);
        expect(hi).toBeLessThan(1);
        expect(lo).toBeCloseTo(attenuate(base.R.ci[0]), 12);
        expect(hi).toBeCloseTo(attenuate(base.R.ci[1]), 12);
      }
      expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    });
  }
});

describe("the invariance test under attenuation", () => {
  // Attenuation is a positive affine map of R: it moves no permuted statistic past the observed one, so the
  // test's p is the same at every a. Computed in the attenuated scale it was not: at a = 1e-12 the
  // statistics' differences rounded away, every permutation tied the observed R, and p = 0.537 read 1
  // (the interval then reached 1 as if invariance held).
  const cells: CountCell[] = [
    { player: "m", game: "g0", framing: "a", counts: { cooperate: 3, defect: 2 } },
    { player: "m", game: "g0", framing: "b", counts: { cooperate: 1, defect: 4 } },
    { player: "m", game: "g1", framing: "a", counts: { cooperate: 20, defect: 10 } },
    { player: "m", game: "g1", framing: "b", counts: { cooperate: 28, defect: 2 } },
  ];
  const options = { cooperativeAction: COOPERATE, actions: ACTIONS_OF, bootstrap: 1000 };
  const pValues = (result: RobustnessResult) => [
    ...result.games.map((g) => g.invariance.p_value),
    result.players[0]?.invariance.p_value,
    result.pooled.invariance.p_value,
  ];
  const plain = robustnessAnalysis(cells, options);

  it("rejects for g1 (20 of 30 against 28 of 30) and not for g0 (3 of 5 against 1 of 5) at a = 1", () => {
    const [g0, g1] = pValues(plain) as number[];
    expect(g0).toBeGreaterThan(0.3);
    expect(g1).toBeLessThan(0.05);
  });

  for (const a of [0.7, 1e-6, 1e-12, 1e-15]) {
    it(`gives the same p-values at a = ${a}`, () => {
      const result = robustnessAnalysis(cells, { ...options, attenuation: a });
      expect(pValues(result)).toEqual(pValues(plain));
      // g1's test rejects, so its upper end stays below 1 (and at or above its estimate).
      const g1 = result.games[1]?.R;
      expect(g1?.ci[1]).toBeLessThan(1);
      expect(g1?.ci[1]).toBeGreaterThanOrEqual(g1?.estimate as number);
    });
  }
});

describe("shift intervals of a story-driven agent", () => {
  it("contain their estimate when every game's shift is ±1 (player and pooled too)", () => {
    // 12 games: framing b always cooperates and framing a never in g0–g10, the reverse in g11; shifts +1
    // eleven times and −1 once, so the player's shift is (11 − 1)/12 = 0.8333. Every replicate of a game
    // lies at or inside its bound, and with 12 games almost every replicate of the mean lies strictly
    // below the estimate: a percentile interval alone would exclude it.
    const games = Array.from({ length: 12 }, (_, g) => `h${String(g).padStart(2, "0")}`);
    const cells: CountCell[] = games.flatMap((game, g) =>
      ["a", "b"].map((framing) => {
        const cooperates = (framing === "b") === g < 11;
        const action = cooperates ? "cooperate" : "defect";
        return {
          player: "m",
          game,
          framing,
          counts: { [action]: 10 },
          clusters: Array.from({ length: 10 }, () => ({ [action]: 1 })),
          cluster_ids: Array.from({ length: 10 }, (_, s) => `s${s}`),
        };
      }),
    );
    const result = robustnessAnalysis(cells, {
      cooperativeAction: Object.fromEntries(games.map((g) => [g, "cooperate"])),
      actions: Object.fromEntries(games.map((g) => [g, ["cooperate", "defect"]])),
      bootstrap: 2000,
    });
    expect(result.games.map((g) => g.shift?.estimate)).toEqual([...Array(11).fill(1), -1]);
    expect(result.players[0]?.shift?.estimate).toBeCloseTo(10 / 12, 12);
    for (const row of [...result.games, ...result.players, result.pooled]) {
      const shift = row.shift;
      expect(shift?.ci[0]).toBeLessThanOrEqual(shift?.estimate as number);
      expect(shift?.ci[1]).toBeGreaterThanOrEqual(shift?.estimate as number);
    }
    expect(result.players[0]?.shift?.ci[1]).toBe(result.players[0]?.shift?.estimate);
  });
});

// Random records: 1–2 players × 1–2 games of 2–6 actions × 2–4 framings; each cell 1–5 decisions, or up
// to 300 (very unequal sizes), deterministic, all one action or mixed; decisions alone, sessions nested
// in cells (1–50 decisions each), sessions spanning the player's cells, or sessions that each decide in
// one framing but in every game of the player, one decision per game in the first framing and 1–50 in
// the others (session lengths that differ between framings).
const ACTIONS = ["cooperate", "defect", "a3", "a4", "a5", "a6"];
const record = fc
  .record({
    players: fc.integer({ min: 1, max: 2 }),
    actions: fc.array(fc.integer({ min: 2, max: 6 }), { minLength: 2, maxLength: 2 }),
    games: fc.integer({ min: 1, max: 2 }),
    framings: fc.integer({ min: 2, max: 4 }),
    design: fc.constantFrom("decisions", "nested", "spanning", "per framing"),
    cells: fc.array(
      fc.record({
        size: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 300 })),
        shape: fc.constantFrom("one action", "mixed", "mixed"),
        first: fc.integer({ min: 0, max: 5 }),
        weights: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 6, maxLength: 6 }),
        sessionLength: fc.integer({ min: 1, max: 50 }),
      }),
      { minLength: 32, maxLength: 32 },
    ),
    seed: fc.integer({ min: 0, max: 1_000_000 }),
  })
  .map(({ players, actions, games, framings, design, cells, seed }) => {
    const out: CountCell[] = [];
    let i = 0;
    for (let p = 0; p < players; p++) {
      for (let g = 0; g < games; g++) {
        const k = actions[g] as number;
        for (let f = 0; f < framings; f++) {
          const spec = cells[i++ % cells.length] as (typeof cells)[number];
          // The cell's decisions in order, spread over its actions by the weights (or all on one).
          const choices: string[] = [];
          for (let d = 0; d < spec.size; d++) {
            if (spec.shape === "one action") choices.push(ACTIONS[spec.first % k] as string);
            else {
              const w = spec.weights.slice(0, k).map((x) => x + 1);
              let u = (d * 7919 + spec.first) % w.reduce((s, x) => s + x, 0);
              let a = 0;
              while (u >= (w[a] as number)) u -= w[a++] as number;
              choices.push(ACTIONS[a] as string);
            }
          }
          const counts: Record<string, number> = {};
          for (const c of choices) counts[c] = (counts[c] ?? 0) + 1;
          const cell: CountCell = { player: `p${p}`, game: `g${g}`, framing: `f${f}`, counts };
          if (design === "decisions") {
            out.push(cell);
            continue;
          }
          // Sessions of spec.sessionLength decisions (the last one shorter); spanning: ids shared by
          // position across the player's cells, so session s decides in every cell.
          const length =
            design === "per framing"
              ? f === 0
                ? 1
                : (cells[f] as (typeof cells)[number]).sessionLength
              : spec.sessionLength;
          const clusters: Record<string, number>[] = [];
          for (let d = 0; d < choices.length; d += length) {
            const session: Record<string, number> = {};
            for (const c of choices.slice(d, d + length)) session[c] = (session[c] ?? 0) + 1;
            clusters.push(session);
          }
          const ids = clusters.map((_, s) =>
            design === "spanning"
              ? `p${p}-s${s}`
              : design === "per framing"
                ? `p${p}-f${f}-s${s}`
                : `p${p}-g${g}-f${f}-s${s}`,
          );
          out.push({ ...cell, clusters, cluster_ids: ids });
        }
      }
    }
    const cooperativeAction = { g0: "cooperate", g1: null };
    return { cells: out, seed, cooperativeAction };
  });

describe("random records of every shape", () => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  let schema: object;
  beforeAll(async () => {
    deps = tempDeps();
    client = await connectClient(deps);
    const { tools } = await client.listTools();
    schema = tools.find((t) => t.name === "robustness")?.outputSchema as object;
  });
  afterAll(async () => {
    await client.close();
    deps.dispose();
  });

  it("give finite numbers, results valid under the advertised schema, and an upper end of 1 exactly when the test does not reject", () => {
    const validators = [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })].map((ajv) => ({
      ajv,
      validate: ajv.compile(schema),
    }));
    fc.assert(
      fc.property(record, ({ cells, seed, cooperativeAction }) => {
        const result = robustnessAnalysis(cells, { seed, cooperativeAction, bootstrap: 200 });
        expect(numbers(result).filter((n) => !Number.isFinite(n.value))).toEqual([]);
        // As a client receives it: JSON, where a NaN would arrive as null.
        const wire = JSON.parse(JSON.stringify(result));
        for (const { ajv, validate } of validators) {
          expect(validate(wire), ajv.errorsText(validate.errors)).toBe(true);
        }
        for (const { R, p, corrected } of rRows(result)) {
          expect(R.ci[0]).toBeLessThanOrEqual(R.ci[1]);
          expect(R.ci[0]).toBeGreaterThanOrEqual(0);
          expect(R.ci[1] === 1, `upper end ${R.ci[1]} with p = ${p}`).toBe(p > 0.05);
          expect(corrected).toBeGreaterThanOrEqual(0);
          expect(corrected).toBeLessThanOrEqual(1);
        }
        for (const row of [...result.games, ...result.players, result.pooled]) {
          if (row.shift === null) continue;
          expect(row.shift.ci[0]).toBeLessThanOrEqual(row.shift.estimate);
          expect(row.shift.ci[1]).toBeGreaterThanOrEqual(row.shift.estimate);
        }
      }),
      { seed: 20_261_201, numRuns: 120 },
    );
  }, 300_000);

  it("reach an MCP client valid under the schema for a deterministic agent played live", async () => {
    // Two MCP sessions of one player, each deciding once in every cell of 2 games × 2 framings, always
    // cooperating in the prisoner's dilemma and defecting in the stag hunt; written to a real record.
    const at = "2026-12-01T00:00:00.000Z";
    let m = 0;
    for (const session of ["s1", "s2", "s3", "s4"]) {
      deps.store.saveSession(memorySession(session, { player: "live" }));
      for (const game of ["prisoners-dilemma", "stag-hunt"]) {
        for (const framing of ["business", "friend-sharing"]) {
          const id = `m${m++}`;
          deps.store.insertMatch(
            oneShotMatch(id, {
              player: "live",
              session_id: session,
              game,
              framing,
              opponent: "agent",
              created_at: at,
            }),
          );
          const action = game === "prisoners-dilemma" ? "cooperate" : "defect";
          const decision = firstRoundDecision(id, action, { session_id: session, decided_at: at });
          deps.store.saveDecision(decision, deps.store.getMatch(id) as MatchRecord);
        }
      }
    }
    const result = await client.callTool({
      name: "robustness",
      arguments: { players: ["live"], framings: ["business", "friend-sharing"], bootstrap: 500 },
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const data = result.structuredContent as unknown as RobustnessResult;
    expect(data.unit).toBe("session");
    expect(numbers(data).filter((n) => !Number.isFinite(n.value))).toEqual([]);
    for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
      const validate = ajv.compile(schema);
      expect(validate(data), ajv.errorsText(validate.errors)).toBe(true);
    }
    for (const game of data.games) {
      expect(game.R.estimate).toBe(1);
      expect(game.R.ci[1]).toBe(1);
      expect(game.R.ci[0]).toBeGreaterThan(0);
      expect(game.R.ci[0]).toBeLessThan(0.9);
    }
  });
});
