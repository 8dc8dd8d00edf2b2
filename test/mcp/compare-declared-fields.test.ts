import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// Every field `compare` returns is one its advertised outputSchema declares: the schema is read with
// every declared object closed (additionalProperties false, at every depth) and a draft-07 validator,
// as a strict client would, against a result holding one-shot and repeated play and a note.

type Json = Record<string, unknown>;

/** The schema with every object that lists its properties closed to others. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== "object") return node;
  const out: Json = Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, closed(v)]));
  if ("properties" in out) out.additionalProperties = false;
  return out;
}

/** One live session: one-shot prisoner's dilemmas under two stories, then repeated ones. */
async function play(
  deps: ReturnType<typeof tempDeps>,
  player: string,
  oneShot: Record<string, "Cooperate" | "Defect">,
  repeated: { opponent: string; move: "Cooperate" | "Defect" }[],
): Promise<void> {
  const client = await connectClient(deps, { player });
  for (const [framing, move] of Object.entries(oneShot)) {
    for (let t = 0; t < 3; t++) {
      const view = await call<View>(client, "start_match", { game: "prisoners-dilemma", framing });
      await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: move });
    }
  }
  for (const [m, { opponent, move }] of repeated.entries()) {
    const view = await call<View>(client, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent,
      seed: m + 1,
    });
    for (let r = 1; r <= 16; r++) {
      await call(client, "submit_move", { match_id: view.match_id, round: r, choice: move });
    }
  }
  await client.close();
}

describe("compare declares every field it returns", () => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  beforeAll(async () => {
    deps = tempDeps();
    const twice = (move: "Cooperate" | "Defect") => [
      { opponent: "tit-for-tat", move },
      { opponent: "tit-for-tat", move },
    ];
    await play(
      deps,
      "steady",
      { "business+familiar": "Defect", "friend-sharing+familiar": "Defect" },
      // One match of a condition no one else played, and once only: compare names it in its notes.
      [...twice("Cooperate"), { opponent: "grim-trigger", move: "Cooperate" }],
    );
    await play(
      deps,
      "swayed",
      { "business+familiar": "Defect", "friend-sharing+familiar": "Cooperate" },
      twice("Defect"),
    );
    client = await connectClient(deps, { player: "analyst" });
  }, 60_000);
  afterAll(async () => {
    await client.close();
    deps.dispose();
  });

  it("validates under draft-07 with every object closed, one-shot and repeated fields and notes included", async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === "compare");
    const validate = new Ajv07({ allErrors: true }).compile(closed(tool?.outputSchema) as object);
    const result = await client.callTool({
      name: "compare",
      arguments: { players: ["steady", "swayed"], bootstrap: 200 },
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const data = result.structuredContent as Json & {
      notes: string[];
      pairs: { measure: string; cells_used: Json[] }[];
    };
    // The result reaches every part of the contract: both kinds of play, the repeated fields, a note.
    expect(data.groups).toEqual(["steady", "swayed"]);
    expect(data.pairs.map((p) => p.measure)).toEqual(
      expect.arrayContaining(["R", "shift", "points", "cooperation"]),
    );
    expect(data.pairs.find((p) => p.measure === "points")?.cells_used).toEqual([
      { game: "repeated-pd", framing: "repeated-plain+familiar", opponent: "tit-for-tat" },
    ]);
    expect(Object.keys(data)).toEqual(expect.arrayContaining(["ranked_conditions", "repeated_units"]));
    expect(data.notes.some((n) => n.includes("grim-trigger"))).toBe(true);
    const valid = validate(data);
    // Each undeclared field by where it is, e.g. "/notes" or "/pairs/0/cells_used/0/opponent".
    const undeclared = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath}/${(e.params as { additionalProperty?: string }).additionalProperty ?? e.message}`,
    );
    expect(undeclared).toEqual([]);
    expect(valid).toBe(true);
    // Not vacuous: a key the schema does not declare, at the top or deep inside a pair, is refused.
    expect(validate({ ...data, undeclared: 1 })).toBe(false);
    const [first, ...rest] = data.pairs;
    expect(validate({ ...data, pairs: [{ ...first, undeclared: 1 }, ...rest] })).toBe(false);
  });
});
