import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedScaleRecord, serveScaleRecord } from "../support/served-scale-record.js";

// What a host shows during `compare` and `report` over stdio against the built server (its analyses on
// the worker pool). `compare` reported no step of its own: at 100,000 decisions its bar sat at "reading the
// record" for 20–30 s while it bootstrapped 20 groups and 190 pairs. The report runs its sections and its
// leaderboard on two workers at once, and their steps, laid in one sequence, re-added each other's steps
// done at every switch: progress ran past the sum of every stage's steps while progress / total swung.
// (Summed per job, a job's stage change must not freeze the count either.)

interface Heard {
  progress: number;
  total?: number;
  message?: string;
}

async function heardDuring(client: Client, name: string, args: Record<string, unknown>): Promise<Heard[]> {
  const heard: Heard[] = [];
  const result = await client.callTool(
    { name, arguments: args },
    { timeout: 170_000, onprogress: (p) => heard.push(p) },
  );
  expect(result.isError).toBeFalsy();
  return heard;
}

/**
 * The steps of every stage the messages name, added up: a "…: unit d of N" message is a stage of N
 * steps, keyed by its text without d; a message without a count (heartbeats' "(N s)" taken off) a stage of
 * one. Every lane's stages laid end to end come to this many steps.
 */
function stepsOfStages(heard: readonly Heard[]): number {
  const stages = new Map<string, number>();
  for (const { message = "" } of heard) {
    const text = message.replace(/ \(\d+ s\)$/, "");
    const counted = /^(.*) [\d,]+ of ([\d,]+)$/.exec(text);
    if (counted) stages.set(counted[1] as string, Number((counted[2] as string).replaceAll(",", "")));
    else if (!text.endsWith(": starting")) stages.set(text, 1);
  }
  return [...stages.values()].reduce((a, b) => a + b, 0);
}

describe.runIf(process.platform === "linux")("compare and report progress over stdio", () => {
  let served: ServedScaleRecord;
  let client: Client;

  beforeAll(async () => {
    // 20 players (groups), 4 games, 11 framings: 190 pairs to compare.
    served = await serveScaleRecord("compare-progress-test");
    client = served.client;
  }, 60_000);

  afterAll(() => served?.close());

  it("compare says which group, pair and measure it is at", async () => {
    const heard = await heardDuring(client, "compare", { bootstrap: 2_000 });
    const messages = heard.map((h) => h.message ?? "");
    expect(messages.some((m) => /^compare: bootstrap \(2,000 replicates\): group \d+ of 20$/.test(m))).toBe(
      true,
    );
    expect(messages.some((m) => /^compare: differences of (R|shift): pair \d+ of 190/.test(m))).toBe(true);
    for (let i = 1; i < heard.length; i++) {
      expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress as number);
    }
    // Never 100% before the answer: the end of one stage is not the end of the analysis.
    for (const h of heard) expect(h.total).toBeGreaterThanOrEqual(h.progress + 1);
  }, 180_000);

  it("report adds up its two workers' steps instead of counting one's again at each switch", async () => {
    const heard = await heardDuring(client, "report", { bootstrap: 500 });
    const messages = heard.map((h) => h.message ?? "");
    // Both lanes were heard, the leaderboard's named as such.
    expect(messages.some((m) => /^report: bootstrap \(500 replicates\): cell \d+ of 880$/.test(m))).toBe(
      true,
    );
    expect(
      messages.some((m) => /^report: leaderboard: bootstrap \(500 replicates\): group \d+ of 20$/.test(m)),
    ).toBe(true);
    // The leaderboard's R and shift differences are 2 × 190 steps of its own: progress moves by them
    // whatever the sections do meanwhile (each last step of a stage is always sent).
    const at = (pattern: RegExp) => heard.find((h) => pattern.test(h.message ?? ""))?.progress as number;
    const grouped = at(/^report: leaderboard: bootstrap \(500 replicates\): group 20 of 20$/);
    const differenced = at(/^report: leaderboard: differences of shift: pair 190 of 190$/);
    expect(differenced - grouped).toBeGreaterThanOrEqual(2 * 190);
    for (const h of heard) expect(h.total).toBeGreaterThanOrEqual(h.progress + 1);
    const last = heard.at(-1) as Heard;
    // Heartbeats add a thousandth of a step each: well under one step in all.
    expect(last.progress).toBeLessThanOrEqual(stepsOfStages(heard) + 1);
    for (let i = 1; i < heard.length; i++) {
      expect(heard[i]?.progress).toBeGreaterThan(heard[i - 1]?.progress as number);
    }
  }, 180_000);
});
