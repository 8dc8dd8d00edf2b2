import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlayDeps } from "../../src/play/play-deps.js";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { Store } from "../../src/store/store.js";
import { registerStudy, runCliAsync, tempDir } from "../runner/runner-harness.js";
import { requireBuiltCli } from "../support/built-cli.js";
import { callError, connectClient, shippedCatalog } from "../support/harness.js";

// `compare` as a third-party client meets it: over the SDK Client (tools listed first, results validated
// by the client and again under draft-07 and 2020-12), on a record with live MCP sessions of two hosts,
// the published counts and a runner study of two scripted models that played the same schedule.

let dir: string;
let db: string;
let endpoint: ScriptedEndpoint;
let store: Store;
let client: Client;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

type View = { match_id: string; labels: string[] };

/** One live session: `times` one-shot matches per framing of `game`, choosing the label `pick` returns. */
async function playLive(
  deps: PlayDeps,
  player: string,
  clientName: string,
  game: string,
  times: number,
  pick: (framing: string, t: number) => number,
): Promise<void> {
  const live = await connectClient(deps, { player, clientName });
  for (const framing of ["business", "friend-sharing"]) {
    for (let t = 0; t < times; t++) {
      const view = (await live.callTool({ name: "start_match", arguments: { game, framing } }))
        .structuredContent as View;
      await live.callTool({
        name: "submit_move",
        arguments: { match_id: view.match_id, round: 1, choice: view.labels[pick(framing, t)] },
      });
    }
  }
  await live.close();
}

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir("same-game-compare-");
  db = join(dir, "record.db");
  endpoint = await startScriptedEndpoint();
  const study = registerStudy(db, {
    name: "compare study",
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: 30,
    seed: 5,
  });
  // The same two models in a repeated study against tit-for-tat: the same schedule positions, paired.
  const repeated = registerStudy(db, {
    name: "compare repeated study",
    games: ["repeated-pd"],
    framings: ["repeated-plain"],
    opponents: [{ id: "tit-for-tat", params: {} }],
    trials_per_cell: 4,
    seed: 6,
  });
  for (const [model, id] of ["scripted/payoff-reader", "scripted/story-swayed"].flatMap((m) => [
    [m, study],
    [m, repeated],
  ])) {
    const run = await runCliAsync([
      "run",
      "--study",
      id as string,
      "--model",
      model as string,
      "--base-url",
      endpoint.openAiBaseUrl,
      "--mode",
      "text",
      ...(model?.endsWith("story-swayed") ? ["--style", "cot"] : []),
      "--db",
      db,
    ]);
    expect(run.status, run.stderr).toBe(0);
  }
  const imported = await runCliAsync(["import", "counts", "--reference", "lore-heydari-2024", "--db", db]);
  expect(imported.status, imported.stderr).toBe(0);
  store = new Store(db);
  const deps: PlayDeps = { store, catalog: shippedCatalog() };
  // Host A's agent: one session, mostly the first label, more so among friends. Host B's plays stag hunt only.
  await playLive(deps, "live-agent", "host-a", "prisoners-dilemma", 8, (f, t) =>
    f === "business" ? t % 2 : t % 4 === 0 ? 1 : 0,
  );
  await playLive(deps, "stag-only", "host-b", "stag-hunt", 4, (_f, t) => t % 2);
  client = await connectClient(deps, { player: "analyst" });
  ({ tools } = await client.listTools());
}, 400_000); // two studies, each run by two scripted models through the built CLI: minutes on a loaded machine

afterAll(async () => {
  await client?.close();
  store?.close();
  await endpoint?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Compared {
  by: string;
  groups: string[];
  pairs: {
    measure: string;
    a: string;
    b: string;
    difference: { estimate: number; ci: [number, number] };
    p_adjusted: number;
    paired: boolean;
    cells_used: { game: string; framing: string }[];
  }[];
  ranks: {
    measure: string;
    group: string;
    estimate: number;
    rank: { estimate: number; ci: [number, number] };
    tied_group: number;
  }[];
  skipped: { measure: string }[];
}

async function compared(args: Record<string, unknown>): Promise<Compared> {
  const tool = tools.find((t) => t.name === "compare");
  expect(tool?.outputSchema).toBeDefined();
  const result = await client.callTool({ name: "compare", arguments: { bootstrap: 500, ...args } });
  expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
  for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
    const validate = ajv.compile(tool?.outputSchema as object);
    expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
  }
  return result.structuredContent as unknown as Compared;
}

describe("the compare tool", () => {
  it("is listed in the analysis toolset only", async () => {
    expect(tools.map((t) => t.name)).toContain("compare");
    const player = await connectClient({ store, catalog: shippedCatalog() }, { toolsets: ["play"] });
    expect((await player.listTools()).tools.map((t) => t.name)).not.toContain("compare");
    await player.close();
  });

  it("validates by player, style, client and model on live sessions, imported counts and a runner study", async () => {
    const byPlayer = await compared({ games: ["prisoners-dilemma"] });
    expect(byPlayer.groups).toEqual([
      "gpt-3.5-turbo-16k",
      "gpt-4",
      "live-agent",
      "llama-2",
      "scripted/payoff-reader",
      "scripted/story-swayed",
    ]);
    expect(byPlayer.pairs.filter((p) => p.measure === "R")).toHaveLength(15);
    // λ and exploitability on the prisoner's dilemma every group played; repeated play is not compared.
    expect(byPlayer.skipped.map((s) => s.measure)).toEqual(["points", "cooperation", "comprehension_m"]);
    for (const measure of ["lambda", "exploitability"]) {
      expect(byPlayer.pairs.filter((p) => p.measure === measure)).toHaveLength(15);
      expect(byPlayer.ranks.filter((r) => r.measure === measure)).toHaveLength(6);
    }
    const byModel = await compared({ by: "model" });
    expect(byModel.groups).toEqual([
      "scripted/payoff-reader-scripted-0001",
      "scripted/story-swayed-scripted-0001",
    ]);
    const byClient = await compared({ by: "client", games: ["prisoners-dilemma"] });
    expect(byClient.groups.some((g) => g.startsWith("host-a "))).toBe(true);
    expect(byClient.groups.some((g) => g.startsWith("same-game-runner "))).toBe(true);
    const byStyle = await compared({ by: "style" });
    expect(byStyle.groups).toEqual(["cot", "zero-shot"]);
    // No number of any result is NaN or missing (JSON would carry NaN as null).
    for (const result of [byPlayer, byModel, byClient, byStyle]) {
      for (const p of result.pairs)
        for (const x of [p.difference.estimate, ...p.difference.ci, p.p_adjusted])
          expect(Number.isFinite(x), `${p.measure} ${p.a} − ${p.b}`).toBe(true);
      for (const r of result.ranks)
        for (const x of [r.estimate, ...r.rank.ci])
          expect(Number.isFinite(x), `${r.measure} ${r.group}`).toBe(true);
    }
  }, 180_000); // four comparisons of B = 500 over six groups: ~20 s idle, over a minute on a loaded machine

  it("pairs the two models of one schedule and ranks the payoff-reader first with the rank interval [1, 1]", async () => {
    const result = await compared({
      players: ["scripted/payoff-reader", "scripted/story-swayed"],
      bootstrap: 2000,
    });
    const pair = result.pairs.find((p) => p.measure === "R");
    expect(pair, JSON.stringify(pair)).toMatchObject({
      a: "scripted/payoff-reader",
      b: "scripted/story-swayed",
      paired: true,
    });
    expect(pair?.difference.ci[0]).toBeGreaterThan(0);
    // The payoff-reader plays the dominant action, an equilibrium: nothing to exploit.
    expect(
      result.ranks.find((r) => r.measure === "exploitability" && r.group === "scripted/payoff-reader"),
    ).toMatchObject({ estimate: 0 });
    expect(result.ranks[0]).toMatchObject({
      measure: "R",
      group: "scripted/payoff-reader",
      estimate: 1,
      rank: { estimate: 1, ci: [1, 1] },
      tied_group: 1,
    });
    expect(result.ranks[1]).toMatchObject({
      group: "scripted/story-swayed",
      rank: { estimate: 2, ci: [2, 2] },
      tied_group: 2,
    });
  });

  it("pairs the repeated matches of one schedule: the payoff-reader cooperates every round against tit-for-tat", async () => {
    const result = await compared({
      players: ["scripted/payoff-reader", "scripted/story-swayed"],
      games: ["repeated-pd"],
    });
    // It plays the mutually best move, and tit-for-tat answers in kind: 16 rounds of 4 = 64 a match.
    expect(
      result.ranks.find((r) => r.measure === "points" && r.group === "scripted/payoff-reader"),
    ).toMatchObject({ estimate: 64 });
    expect(
      result.ranks.find((r) => r.measure === "cooperation" && r.group === "scripted/payoff-reader"),
    ).toMatchObject({ estimate: 1 });
    for (const measure of ["points", "cooperation", "comprehension_m"]) {
      expect(result.pairs.find((p) => p.measure === measure)).toMatchObject({
        a: "scripted/payoff-reader",
        b: "scripted/story-swayed",
        paired: true,
        cells_used: [{ game: "repeated-pd", framing: "repeated-plain", opponent: "tit-for-tat" }],
      });
    }
    expect(result.skipped.map((s) => s.measure)).toEqual(["R", "shift", "lambda", "exploitability"]);
  });

  it("refuses two groups that share no cell, naming both, and an unknown factor with the valid ones", async () => {
    const message = await callError(client, "compare", {
      players: ["stag-only", "scripted/payoff-reader"],
      games: ["stag-hunt", "prisoners-dilemma"],
    });
    expect(message).toMatch(/'scripted\/payoff-reader' and 'stag-only' share no game/);
    const factor = await callError(client, "compare", { by: "temperature" });
    expect(factor).toMatch(/player.*style.*client.*model/);
  });
});
