import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import type { RobustnessResult } from "../../src/analysis/robustness/robustness.js";
import { designEffects } from "../../src/analysis/robustness/robustness-inversion.js";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import { importCommand } from "../../src/cli/import.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import { oneShotCells } from "../../src/queries/one-shot-cells.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { framingSessions } from "../support/framing-sessions.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// Sessions from elsewhere. A record is played live over MCP (each SDK client connection one MCP session),
// its per-session counts are exported (`export counts`) and imported into a fresh record with the session
// column (`import counts`), and its one-shot matches exported (`export matches --format jsonl`, the
// `session` field) and imported (`import matches`): both imports give the live record's robustness analysis
// number for number. The same counts imported without sessions give narrower intervals (each decision
// counted as independent), since the sessions here are strongly correlated.
//
// Prisoner's dilemma, framings business / friend-sharing:
//   spanning-agent — 6 sessions, each 3 decisions in each framing (so every session spans both cells: the
//                    joint cluster bootstrap); session i always cooperates in business iff i < 3 and in
//                    friend-sharing iff i < 5: business 9 C / 9 D, friend-sharing 15 C / 3 D.
//   nested-agent   — business: 4 sessions of 4 decisions (CCCC, CCCC, DDDD, CCDD): 10 C / 6 D;
//                    friend-sharing: 10 sessions of 1 decision, 8 C / 2 D (sessions nested in cells with
//                    lengths that differ between framings: per-framing design effects).

const GAME = "prisoners-dilemma";
const FRAMINGS = ["business", "friend-sharing"];
const ANALYSIS = { games: [GAME], framings: FRAMINGS, seed: 7, bootstrap: 1000 };
type Decision = [framing: string, action: "cooperate" | "defect"];

const times = (n: number, decision: Decision): Decision[] => Array.from({ length: n }, () => decision);
const C = "cooperate" as const;
const D = "defect" as const;

const SESSIONS: { player: string; decisions: Decision[] }[] = [
  ...Array.from({ length: 6 }, (_, i) => ({
    player: "spanning-agent",
    decisions: [...times(3, ["business", i < 3 ? C : D]), ...times(3, ["friend-sharing", i < 5 ? C : D])],
  })),
  { player: "nested-agent", decisions: times(4, ["business", C]) },
  { player: "nested-agent", decisions: times(4, ["business", C]) },
  { player: "nested-agent", decisions: times(4, ["business", D]) },
  { player: "nested-agent", decisions: [...times(2, ["business", C]), ...times(2, ["business", D])] },
  ...Array.from({ length: 10 }, (_, i) => ({
    player: "nested-agent",
    decisions: [["friend-sharing", i < 8 ? C : D] as Decision],
  })),
];

async function playSession(deps: ReturnType<typeof tempDeps>, player: string, decisions: Decision[]) {
  const client = await connectClient(deps, { player, clientName: player });
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["start_match", "submit_move"]));
    for (const [framing, action] of decisions) {
      const view = await call<View>(client, "start_match", { game: GAME, framing });
      // The labels are listed in the match's action order, which is drawn per match.
      const order = deps.store.getMatch(view.match_id)?.action_order ?? [];
      const choice = view.labels[order.indexOf(action)] as string;
      await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
    }
  } finally {
    await client.close();
  }
}

/** The `robustness` tool's result on a record, as a client that listed the tools and validated it receives it. */
async function robustness(
  deps: ReturnType<typeof tempDeps>,
): Promise<RobustnessResult & { order_effect: unknown }> {
  const client = await connectClient(deps, { clientName: "analyst" });
  try {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "robustness")?.outputSchema as object;
    const result = await call<RobustnessResult & { order_effect: unknown }>(client, "robustness", ANALYSIS);
    for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
      const validate = ajv.compile(schema);
      expect(validate(result), ajv.errorsText(validate.errors)).toBe(true);
    }
    return result;
  } finally {
    await client.close();
  }
}

/** Everything the analysis says, less the order effect (read from live play's listing order only). */
const verdicts = ({ order_effect: _order, ...result }: RobustnessResult & { order_effect: unknown }) =>
  result;

/** Each framing's design effect of the nested player's game, as the test-inversion interval uses them. */
function nestedDesignEffects(deps: ReturnType<typeof tempDeps>): number[] {
  const cells = oneShotCells(deps.store, { players: ["nested-agent"], games: [GAME] });
  return designEffects(
    FRAMINGS.map((framing) => {
      const cell = cells.find((c) => c.framing === framing) as CountCell;
      const size = (counts: Record<string, number>) => Object.values(counts).reduce((s, c) => s + c, 0);
      return {
        x: cell.counts.cooperate ?? 0,
        n: size(cell.counts),
        sessions: framingSessions(
          (cell.clusters ?? []).map((s, i) => ({
            x: s.cooperate ?? 0,
            n: size(s),
            weight: cell.cluster_weights?.[i] ?? 1,
          })),
        ),
      };
    }),
  );
}

const cli = async (command: typeof exportCommand, argv: string[]) =>
  command.run(parseCommandArgs(command, argv));

describeEachEngine("imported sessions analyse like live sessions of the same shape", (engine: EngineKind) => {
  let live: ReturnType<typeof tempDeps>;
  const imported: ReturnType<typeof tempDeps>[] = [];
  let liveResult: RobustnessResult & { order_effect: unknown };
  let countsCsv: string;

  /** A fresh record of this engine holding what the CLI imports from `file`. */
  async function importedRecord(kind: "counts" | "matches", file: string) {
    const deps = tempDeps(engine);
    imported.push(deps);
    await cli(importCommand, [kind, file, "--db", deps.dbPath, "--source", "harness"]);
    return deps;
  }

  beforeAll(async () => {
    live = tempDeps(engine);
    for (const { player, decisions } of SESSIONS) await playSession(live, player, decisions);
    liveResult = await robustness(live);
    countsCsv = join(live.dir, "counts.csv");
    await cli(exportCommand, ["counts", "--db", live.dbPath, "--out", countsCsv]);
  }, 240_000);
  afterAll(() => {
    for (const deps of [live, ...imported]) deps?.dispose();
  });

  it("exports the live record's counts per MCP session in the import counts format", () => {
    const text = readFileSync(countsCsv, "utf8");
    expect(text.split("\n")[0]).toBe("player,game,variant,framing,session,action,count");
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    // spanning: 6 sessions × 2 framings, one action each; nested: business 3 + 2 rows, friend-sharing 10.
    expect(rows).toHaveLength(27);
    expect(rows.reduce((s, r) => s + Number(r.count), 0)).toBe(62);
    const sessions = (player: string) =>
      new Set(rows.filter((r) => r.player === player).map((r) => r.session));
    expect(sessions("spanning-agent").size).toBe(6);
    expect(sessions("nested-agent").size).toBe(14);
    // The session of the first spanning row holds 3 decisions in each framing.
    const first = rows.find((r) => r.player === "spanning-agent") as Record<string, string>;
    expect(rows.filter((r) => r.session === first.session).map((r) => [r.framing, Number(r.count)])).toEqual([
      ["business", 3],
      ["friend-sharing", 3],
    ]);
  });

  it("gives, imported as counts with sessions, the live record's R, intervals, tests and resampling units", async () => {
    const deps = await importedRecord("counts", countsCsv);
    const result = await robustness(deps);
    expect(verdicts(result)).toEqual(verdicts(liveResult));
    expect(nestedDesignEffects(deps)).toEqual(nestedDesignEffects(live));
    // The values a reader can check: the resampling units, and R from the counts by hand.
    const game = (player: string) => result.games.find((g) => g.player === player);
    expect(result.players.map((p) => [p.player, p.unit, p.cluster_scope])).toEqual([
      ["nested-agent", "session", "cell"],
      ["spanning-agent", "session", "player"],
    ]);
    // spanning: business 9/18 vs friend-sharing 15/18 cooperate; nested: 10/16 vs 8/10.
    expect(game("spanning-agent")?.R.estimate).toBeCloseTo(rOf(9 / 18, 15 / 18), 12);
    expect(game("nested-agent")?.R.estimate).toBeCloseTo(rOf(10 / 16, 8 / 10), 12);
    // friend-sharing's one-decision sessions keep deff 1 beside business's correlated 4-decision sessions:
    // ρ̂ (one-way ANOVA over both framings' 14 sessions, 26 decisions) = (MSB − MSW)/(MSB + (m₀ − 1)MSW)
    // with MSB = 4.35/12, MSW = 1/12, m₀ = 21/12: ρ̂ = 67/102, deff = 1 + (4 − 1)ρ̂ = 101/34.
    const [business, friend] = nestedDesignEffects(deps);
    expect(business).toBeCloseTo(101 / 34, 12);
    expect(friend).toBe(1);
  });

  it("gives, imported as one-shot transcripts with a session field, the live record's analysis too", async () => {
    const jsonl = join(live.dir, "matches.jsonl");
    await cli(exportCommand, ["matches", "--format", "jsonl", "--db", live.dbPath, "--out", jsonl]);
    const lines = readFileSync(jsonl, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(62);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { session: string }).session)).size).toBe(20);
    const deps = await importedRecord("matches", jsonl);
    expect(verdicts(await robustness(deps))).toEqual(verdicts(liveResult));

    // Without the session field every decision is its own: the correlated sessions no longer widen R.
    const loose = join(live.dir, "matches-without-sessions.jsonl");
    writeFileSync(
      loose,
      `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), session: undefined })).join("\n")}\n`,
    );
    const without = await robustness(await importedRecord("matches", loose));
    expect(without.unit).toBe("decision");
    expect(without.games.map((g) => g.R.estimate)).toEqual(liveResult.games.map((g) => g.R.estimate));
    expect(without.games).not.toEqual(liveResult.games);
  });

  it("gives, imported without sessions, the same R with narrower intervals: each decision independent", async () => {
    // The same counts summed over sessions, without the session column.
    const rows = parse(readFileSync(countsCsv, "utf8"), { columns: true }) as Record<string, string>[];
    const summed = new Map<string, number>();
    for (const r of rows) {
      const key = [r.player, r.game, r.variant, r.framing, r.action].join(",");
      summed.set(key, (summed.get(key) ?? 0) + Number(r.count));
    }
    const file = join(live.dir, "counts-without-sessions.csv");
    writeFileSync(
      file,
      `player,game,variant,framing,action,count\n${[...summed].map(([k, n]) => `${k},${n}`).join("\n")}\n`,
    );
    const result = await robustness(await importedRecord("counts", file));
    expect(result.unit).toBe("decision");
    for (const player of ["spanning-agent", "nested-agent"]) {
      const withSessions = liveResult.games.find((g) => g.player === player);
      const without = result.games.find((g) => g.player === player);
      expect(without?.R.estimate).toBe(withSessions?.R.estimate);
      // The sessions' correlation moves the lower end down; without them it sits higher.
      expect(without?.R.ci[0], player).toBeGreaterThan(withSessions?.R.ci[0] as number);
    }
  });
});

/** R of two framings' cooperation rates: 1 − JSD / ln 2. */
function rOf(p: number, q: number): number {
  const h = (x: number) => (x <= 0 || x >= 1 ? 0 : -x * Math.log(x) - (1 - x) * Math.log(1 - x));
  return 1 - (h((p + q) / 2) - (h(p) + h(q)) / 2) / Math.LN2;
}
