import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// Every tool's result against the schema it advertises, as third-party clients check it: the SDK Client
// lists the tools first (and then validates each structuredContent itself), and each result is validated
// again with a draft-07 validator (what the v1 SDK and LangChain use) and a 2020-12 one. The record holds
// live one-shot play of a study, repeated matches, imported published counts and imported transcripts,
// so every part of every result is populated.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let studyId: string;
let repeatedMatch: string;
let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

type View = { match_id: string; round: number; labels: string[] };

async function playStudy(): Promise<void> {
  const study = await call<{ study_id: string }>(client, "register_study", {
    name: "schema study",
    games: ["prisoners-dilemma", "stag-hunt"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: 2,
    seed: 5,
    planned_contrasts: [{ baseline: "business", comparison: "friend-sharing" }],
  });
  studyId = study.study_id;
  for (let t = 0; ; t++) {
    const next = await call<{ complete: boolean; trial: View | null }>(client, "next_trial", {
      study_id: studyId,
    });
    if (next.complete || next.trial === null) break;
    const choice = next.trial.labels[t % 2] as string;
    await call(client, "submit_move", { match_id: next.trial.match_id, round: 1, choice });
  }
}

async function playRepeated(times: number): Promise<void> {
  for (let m = 0; m < times; m++) {
    let view: View | null = await call<View>(client, "start_match", {
      game: "repeated-pd",
      opponent: "tit-for-tat",
      seed: m,
    });
    repeatedMatch = view.match_id;
    while (view !== null) {
      const result: { next: View | null } = await call(client, "submit_move", {
        match_id: view.match_id,
        round: view.round,
        choice: view.labels[view.round % 2] as string,
      });
      view = result.next;
    }
  }
}

beforeAll(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "schema-agent" });
  ({ tools } = await client.listTools());
  await playStudy();
  await playRepeated(2);
  deps.store.importCounts(
    "published",
    [
      {
        player: "paper-model",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "business",
        action: "cooperate",
        count: 3,
      },
      {
        player: "paper-model",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "business",
        action: "defect",
        count: 7,
      },
      {
        player: "paper-model",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "friend-sharing",
        action: "cooperate",
        count: 8,
      },
      {
        player: "paper-model",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "friend-sharing",
        action: "defect",
        count: 2,
      },
    ],
    new Date().toISOString(),
  );
  const fixture = join(packageRoot(), "test", "fixtures", "imported-matches.jsonl");
  importMatches(deps, parseMatchesJsonl(readFileSync(fixture, "utf8"), fixture, deps.catalog), "elsewhere");
}, 120_000);
afterAll(async () => {
  await client.close();
  deps.dispose();
});

/** Arguments that make each tool return a full answer on this record; a tool not named gets `{}`. */
function argumentsFor(name: string): Record<string, unknown> {
  switch (name) {
    case "start_match":
      return { game: "snowdrift", framing: "team" };
    case "submit_move":
    case "get_match":
      return name === "get_match" ? { match_id: repeatedMatch } : {};
    case "next_trial":
      return { study_id: studyId };
    case "register_study":
      return {
        name: "schema study",
        games: ["prisoners-dilemma", "stag-hunt"],
        framings: ["business", "friend-sharing"],
        trials_per_cell: 2,
        seed: 5,
        planned_contrasts: [{ baseline: "business", comparison: "friend-sharing" }],
      };
    case "join_match":
      return {};
    case "robustness":
      return { framings: ["business", "friend-sharing"], bootstrap: 200 };
    case "compare":
      return { bootstrap: 200 };
    case "payoff_sensitivity":
      return { bootstrap: 200 };
    case "equilibria":
      return { game: "snowdrift" };
    case "equilibrium_deviation":
      return { game: "repeated-pd" };
    case "power":
      return { baseline: 0.4, delta: 0.3, simulations: 20, bootstrap: 100 };
    case "report":
      return { bootstrap: 200 };
    default:
      return {};
  }
}

/** submit_move and join_match need a fresh match of their own: started here, right before the call. */
async function argumentsNow(name: string): Promise<Record<string, unknown>> {
  if (name === "submit_move") {
    const view = await call<View>(client, "start_match", { game: "harmony" });
    return { match_id: view.match_id, round: 1, choice: view.labels[0] };
  }
  if (name === "join_match") {
    const view = await call<View>(client, "start_match", { game: "repeated-pd", opponent: "agent" });
    return { match_id: view.match_id };
  }
  return argumentsFor(name);
}

function walk(node: unknown, visit: (key: string, value: unknown) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      walk(value, visit);
    }
  }
}

const ANALYSIS = [
  "robustness",
  "compare",
  "payoff_sensitivity",
  "equilibria",
  "equilibrium_deviation",
  "repeated_metrics",
  "power",
  "report",
];

describe("every tool's result validates against its advertised schema, in draft-07 and 2020-12", () => {
  it("advertises portable output schemas: no $schema, no tuples, no closed objects", () => {
    expect(tools.length).toBeGreaterThanOrEqual(14);
    for (const tool of tools) {
      expect(tool.outputSchema, `${tool.name} has an outputSchema`).toBeDefined();
      walk(tool.outputSchema, (key, value) => {
        expect(key, `${tool.name}: ${key}`).not.toBe("prefixItems");
        expect(key, `${tool.name}: ${key}`).not.toBe("$schema");
        if (key === "additionalProperties") expect(value, `${tool.name}: closed object`).not.toBe(false);
      });
    }
  });

  it("advertises input schemas a draft-07 client compiles and checks arguments with, closed to unknown keys", () => {
    // A host that validates arguments with a default draft-07 Ajv (the v1 SDK's, LangChain's) compiles
    // every listed input schema; a 2020-12 `$schema` key made it throw at the first tools/list.
    const draft07 = new Ajv07({ allErrors: true });
    for (const tool of tools) {
      walk(tool.inputSchema, (key) => expect(key, `${tool.name}: ${key}`).not.toBe("$schema"));
      expect(tool.inputSchema.additionalProperties, `${tool.name}: closed`).toBe(false);
      const check = draft07.compile(tool.inputSchema);
      expect(check({ no_such_argument: 1 }), `${tool.name} refuses an unknown key`).toBe(false);
    }
    const start = draft07.compile(tools.find((t) => t.name === "start_match")?.inputSchema ?? {});
    expect(start({ game: "prisoners-dilemma", framing: "business" })).toBe(true);
  });

  it("refuses an argument a tool does not take, naming it, the nearest one and the valid ones", async () => {
    const before = deps.store.listMatches({}).length;
    const result = await client.callTool({
      name: "start_match",
      arguments: { game: "prisoners-dilemma", framings: "business", oponent: "tit-for-tat" },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text).toMatch(
      /^start_match has no argument "framings", "oponent" \(did you mean framing\?\); its arguments: game, variant, framing, opponent,/,
    );
    // Nothing was recorded under a condition nobody asked for.
    expect(deps.store.listMatches({}).length).toBe(before);
  });

  it("describes every parameter of every tool (a host shows the agent nothing else about it)", () => {
    const undescribed = tools.flatMap((tool) =>
      Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)
        .filter(([, schema]) => !schema.description)
        .map(([name]) => `${tool.name}.${name}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("calls every listed tool through the validating SDK client and checks each result twice", async () => {
    const draft07 = new Ajv07({ allErrors: true });
    const draft2020 = new Ajv2020({ allErrors: true });
    const checked: string[] = [];
    for (const tool of tools) {
      const result = await client.callTool({ name: tool.name, arguments: await argumentsNow(tool.name) });
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content).slice(0, 300)}`).toBeFalsy();
      const data = result.structuredContent;
      for (const [draft, ajv] of [
        ["draft-07", draft07],
        ["2020-12", draft2020],
      ] as const) {
        const validate = ajv.compile(tool.outputSchema as object);
        const ok = validate(data);
        expect(ok, `${tool.name} under ${draft}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      if (ANALYSIS.includes(tool.name)) {
        // The text twin carries the whole result, for clients that hand the model only text.
        const blocks = result.content as { type: string; text: string }[];
        expect(JSON.parse(blocks.at(-1)?.text ?? "null"), `${tool.name} text twin`).toEqual(data);
      }
      checked.push(tool.name);
    }
    expect(checked.sort()).toEqual(tools.map((t) => t.name).sort());
  }, 120_000);

  it("keeps the keys an analysis adds beyond its schema: the per-game shift's cooperative_action", async () => {
    const result = await client.callTool({
      name: "robustness",
      arguments: { framings: ["business", "friend-sharing"], bootstrap: 200 },
    });
    const games = (
      result.structuredContent as { games: { player: string; shift: Record<string, unknown> | null }[] }
    ).games;
    const live = games.find((g) => g.player === "schema-agent" && g.shift !== null);
    // ci stays the DESIGN.md [lo, hi] pair; the key the strict schema used to forbid reaches the client.
    expect(live?.shift).toMatchObject({
      cooperative_action: "cooperate",
      ci: [expect.any(Number), expect.any(Number)],
    });
    expect(live?.shift?.ci).toHaveLength(2);
  });
});
