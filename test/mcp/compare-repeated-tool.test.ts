import type { Client } from "@modelcontextprotocol/client";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";
import { all, C, cooperatorAndDefector, D, tftTranscript } from "../support/tft-transcripts.js";

// `compare` on repeated play as a client meets it (tools listed first, every result validated under
// draft-07 and 2020-12), on both engines: imported transcripts of a cooperator and a defector against
// tit-for-tat, and live MCP sessions of two hosts.
//
// Repeated PD stage payoffs (C,C) 4 (C,D) 1 (D,C) 6 (D,D) 2; tit-for-tat opens with C, then copies.
//   cooperator: all C → 16·4 = 64; C×15 then D → 15·4 + 6 = 66; D then C×15 → 6 + 1 + 14·4 = 63.
//     mean 193/3; cooperation (1 + 15/16 + 15/16)/3 = 46/48.
//   defector: all D → 6 + 15·2 = 36 (twice); C then D×15 → 4 + 6 + 14·2 = 38. mean 110/3; cooperation 1/48.
//   Every match's comprehension (match rule, t = 0.9) is m = 1: each round scores at least u1(o, o), but
//   the cooperator's D-then-C match, whose round 2 (1 < u1(D, D) = 2) leaves 15/16 ≥ 0.9 from round 1.
//   Points: a − b = 193/3 − 110/3 = 83/3; cooperation 45/48; m 0.

const IMPORTS = cooperatorAndDefector("tft-elsewhere").join("\n");

interface Compared {
  groups: string[];
  pairs: {
    measure: string;
    a: string;
    b: string;
    difference: { estimate: number; ci: [number, number] };
    p_value: number;
    p_adjusted: number;
    paired: boolean;
    cells_used: { game: string; framing: string; opponent?: string }[];
    cells_left_out: { game: string; framing: string; opponent?: string }[];
  }[];
  ranks: { measure: string; group: string; estimate: number; rank: { ci: [number, number] } }[];
  skipped: { measure: string; reason: string }[];
  repeated_units: { group: string; unit: string; matches: number }[];
}

/** One live session of `matches` 16-round matches against tit-for-tat, always making `move`. */
async function playLive(
  deps: ReturnType<typeof tempDeps>,
  player: string,
  clientName: string,
  move: "Cooperate" | "Defect",
  matches: number,
) {
  const live = await connectClient(deps, { player, clientName });
  for (let m = 0; m < matches; m++) {
    let view = await call<View>(live, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "tit-for-tat",
      seed: m + 1,
    });
    for (let r = 1; r <= 16; r++) {
      const moved = await call<{ next: View | null }>(live, "submit_move", {
        match_id: view.match_id,
        round: r,
        choice: move,
      });
      if (moved.next) view = moved.next;
    }
  }
  await live.close();
}

describeEachEngine("compare on repeated play", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  let outputSchema: object;

  beforeAll(async () => {
    deps = tempDeps(engine);
    importMatches(deps, parseMatchesJsonl(IMPORTS, "hand.jsonl", deps.catalog), "hand");
    await playLive(deps, "live-coop", "host-a", "Cooperate", 2);
    await playLive(deps, "live-defect", "host-b", "Defect", 2);
    client = await connectClient(deps, { player: "analyst" });
    const { tools } = await client.listTools();
    outputSchema = tools.find((t) => t.name === "compare")?.outputSchema as object;
    expect(outputSchema).toBeDefined();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    deps?.dispose();
  });

  async function compared(args: Record<string, unknown>): Promise<Compared> {
    const result = await client.callTool({
      name: "compare",
      arguments: { bootstrap: 2000, seed: 4, ...args },
    });
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
      const validate = ajv.compile(outputSchema);
      expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
    }
    return result.structuredContent as unknown as Compared;
  }

  it("compares imported transcripts: the differences of points, cooperation and m worked by hand", async () => {
    const result = await compared({ players: ["cooperator", "defector"] });
    const cell = { game: "repeated-pd", framing: "their-prompt", opponent: "tft-elsewhere" };
    const pair = (measure: string) => result.pairs.find((p) => p.measure === measure);
    expect(pair("points")).toMatchObject({
      a: "cooperator",
      b: "defector",
      paired: false,
      cells_used: [cell],
    });
    expect(pair("points")?.difference.estimate).toBeCloseTo(83 / 3, 10);
    const [lo, hi] = pair("points")?.difference.ci ?? [0, 0];
    // The matches vary by a few points on each side, never by 28: the interval is near 83/3 and above 0.
    expect(lo).toBeGreaterThan(20);
    expect(lo).toBeLessThan(83 / 3);
    expect(hi).toBeGreaterThan(83 / 3);
    expect(hi).toBeLessThan(35);
    expect(pair("cooperation")?.difference.estimate).toBeCloseTo(45 / 48, 12);
    // Every match m = 1 on both sides: no spread to resample, so m's interval comes from the matches
    // smoothed at both ends of m's range [1, 17] (half a match at 1 and at 17 beside the three): mean
    // (3 + 9)/4 = 3, variance (3·4 + 4/2 + 196/2)/3 = 112/3, of the mean 112/9 a side: ±1.96·√(224/9).
    const m = pair("comprehension_m");
    expect(m?.difference.estimate).toBe(0);
    expect(m?.difference.ci[0]).toBeCloseTo(-1.959964 * Math.sqrt(224 / 9), 5);
    expect(m?.difference.ci[1]).toBeCloseTo(1.959964 * Math.sqrt(224 / 9), 5);
    expect(result.ranks.filter((r) => r.measure === "points").map((r) => [r.group, r.rank.ci])).toEqual([
      ["cooperator", [1, 1]],
      ["defector", [2, 2]],
    ]);
    // The readable twin says what the ranks are on and which way is best.
    const text = await client.callTool({
      name: "compare",
      arguments: { players: ["cooperator", "defector"], bootstrap: 2000, seed: 4 },
    });
    const table = (text.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(table).toContain(
      "Ranks of points on repeated-pd/their-prompt vs tft-elsewhere (rank 1 = highest;",
    );
    expect(table).toContain(
      "Ranks of comprehension_m on repeated-pd/their-prompt vs tft-elsewhere (rank 1 = lowest;",
    );
    // No one-shot play: those measures are listed, each with its reason.
    expect(result.skipped.map((s) => s.measure)).toEqual(["R", "shift", "lambda", "exploitability"]);
  });

  it("groups live matches by MCP client, resampling each host's matches, and leaves imports out", async () => {
    const result = await compared({ by: "client" });
    expect(result.groups).toHaveLength(2);
    const [a, b] = result.groups as [string, string];
    expect(a.startsWith("host-a ")).toBe(true);
    expect(b.startsWith("host-b ")).toBe(true);
    // host-a always cooperated against tit-for-tat: 64 a match; host-b always defected: 36.
    const points = result.pairs.find((p) => p.measure === "points");
    expect(points?.difference).toEqual({ estimate: 28, ci: [28, 28] });
    expect(points?.cells_used).toHaveLength(1);
    expect(points?.cells_used[0]).toMatchObject({ game: "repeated-pd", opponent: "tit-for-tat" });
    expect(result.repeated_units).toEqual([
      { group: a, unit: "match", matches: 2 },
      { group: b, unit: "match", matches: 2 },
    ]);
  });

  it("groups by style the live matches only (an import records no style): one group, refused", async () => {
    expect(await callError(client, "compare", { by: "style" })).toMatch(
      /Points needs finished repeated matches of at least two groups; only 'zero-shot' has some\./,
    );
  });

  it("refuses two groups whose repeated play shares no condition, naming what each played", async () => {
    const message = await callError(client, "compare", { players: ["cooperator", "live-coop"] });
    expect(message).toMatch(
      /No two groups played a repeated condition \(game, framing, opponent\) in common: 'cooperator' played repeated-pd\/their-prompt vs tft-elsewhere; 'live-coop' played repeated-pd\/.* vs tit-for-tat/,
    );
  });

  it("compares and ranks no group on a condition it played once, in the result, its text and the report", async () => {
    // One match each, 2 points apart (the cooperator's first two transcripts): no spread between matches
    // to estimate, so no interval — it used to be 2.000 [2.000, 2.000] with p = 0.001.
    const once = [
      tftTranscript("once-a", [...all(C).slice(1), D], "tft-elsewhere"),
      tftTranscript("once-b", all(C), "tft-elsewhere"),
    ].join("\n");
    importMatches(deps, parseMatchesJsonl(once, "once.jsonl", deps.catalog), "once");
    const refusal = await callError(client, "compare", { players: ["once-a", "once-b"], bootstrap: 1000 });
    const described =
      "'once-a' 1 match of repeated-pd/their-prompt vs tft-elsewhere, 'once-b' 1 match of repeated-pd/their-prompt vs tft-elsewhere";
    expect(refusal).toBe(
      `No one-shot decisions match players once-a, once-b, variant base, and the repeated matches cannot be compared: Points needs a condition two groups each played in 2 matches or more (one match has no spread between matches to estimate): ${described}. To rank repeated play, play the same conditions (game, framing, opponent) with every group, in 2 matches or more each, or import transcripts (same-game import matches).`,
    );

    // Beside two groups of three matches, the one-match group is named and left out of every pair and rank.
    const note =
      "Repeated play: a condition a group played in fewer than 2 matches has no spread between matches to estimate, so no interval, p-value or rank rests on it (it is left out of every pair and rank): 'once-a' 1 match of repeated-pd/their-prompt vs tft-elsewhere.";
    const players = ["cooperator", "defector", "once-a"];
    const result = (await compared({ players })) as Compared & { notes: string[] };
    expect(result.groups).toEqual(["cooperator", "defector", "once-a"]);
    expect(result.pairs.some((p) => p.a === "once-a" || p.b === "once-a")).toBe(false);
    expect(result.ranks.some((r) => r.group === "once-a")).toBe(false);
    expect(result.ranks.filter((r) => r.measure === "points").map((r) => [r.group, r.rank.ci])).toEqual([
      ["cooperator", [1, 1]],
      ["defector", [2, 2]],
    ]);
    expect(result.notes).toContain(note);
    const text = await client.callTool({ name: "compare", arguments: { players, bootstrap: 2000, seed: 4 } });
    const twin = (text.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(twin).toContain(note);
    expect(twin).not.toMatch(/\bonce-a\s+\d/);

    // The report ranks the whole record: in one of its own, the same rule and the same note.
    const own = tempDeps(engine);
    const reporter = await connectClient(own, { player: "analyst" });
    try {
      const three = [IMPORTS, tftTranscript("once-a", [...all(C).slice(1), D], "tft-elsewhere")].join("\n");
      importMatches(own, parseMatchesJsonl(three, "three.jsonl", own.catalog), "three");
      const report = await call<{
        leaderboard: { rows: { measure: string; group: string }[] } | null;
        notes?: { name: string; detail: string }[];
      }>(reporter, "report", { bootstrap: 1000 });
      const points = report.leaderboard?.rows.filter((r) => r.measure === "points") ?? [];
      expect(points.map((r) => r.group)).toEqual(["cooperator", "defector"]);
      expect(report.notes).toContainEqual({ name: "leaderboard_repeated", detail: note });
    } finally {
      await reporter.close();
      own.dispose();
    }
  });
});
