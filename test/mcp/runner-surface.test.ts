import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MODEL_CALLS_META_KEY } from "../../src/domain/model-call.js";
import { registerStudy } from "../../src/play/studies.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { TEST_PG } from "../support/postgres.js";

// What the runner needs of the server, seen through a real SDK client: concurrent trials from next_trial
// (in_progress), and the model calls of a reply carried in the request _meta of submit_move.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let studyId: string;
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "runner" });
  await client.listTools();
  studyId = registerStudy(deps, {
    name: "surface",
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: 2,
  }).study_id;
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

interface Next {
  complete: boolean;
  resumed: boolean;
  trial_index: number | null;
  trial: { match_id: string; round: number; labels: string[] } | null;
  trials_finished?: number;
}

const modelCall = {
  provider: "openai",
  requested_model: "m",
  reported_model: "m-2026",
  mode: "text",
  style: "zero-shot",
  sample_index: 0,
  decoding: { temperature: 0, max_tokens: 16 },
  prompt_tokens: 120,
  completion_tokens: 3,
  latency_ms: 42.5,
  retries: 1,
  finish_reason: "stop",
  raw_reply: '{"text":"x"}',
  called_at: "2026-12-01T09:00:00.000Z",
};

describe("the runner's use of the player surface", () => {
  it("next_trial resumes an open trial, but with concurrent never hands out one this connection holds", async () => {
    const a = await call<Next>(client, "next_trial", { study_id: studyId });
    // Without concurrent the open trial is resumed (a host agent asking again)…
    const again = await call<Next>(client, "next_trial", { study_id: studyId });
    expect([again.resumed, again.trial?.match_id]).toEqual([true, a.trial?.match_id]);
    // …with it, concurrent calls each get their own trial; a is resumed once (it was not taken with
    // concurrent), then never again.
    const taken = await Promise.all(
      [1, 2, 3, 4].map(() => call<Next>(client, "next_trial", { study_id: studyId, concurrent: true })),
    );
    expect(taken.map((t) => t.trial?.match_id ?? "complete")).toEqual([
      a.trial?.match_id,
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);
    expect(taken.map((t) => t.trial_index)).toEqual([0, 1, 2, 3]);
    expect(new Set(taken.map((t) => t.trial?.match_id)).size).toBe(4);
    // Each concurrently taken trial is its own context, so its moves are recorded under its own session.
    for (const t of taken) {
      const trial = t.trial as NonNullable<Next["trial"]>;
      await call(client, "submit_move", { match_id: trial.match_id, round: 1, choice: trial.labels[0] });
    }
    const sessions = taken.map((t) => deps.store.getDecision(t.trial?.match_id as string, 1)?.session_id);
    expect(new Set(sessions).size).toBe(4);
    for (const id of sessions) expect(deps.store.getSession(id as string)?.player).toBe("runner");
    // All four positions are out (and finished): the study is complete for this player.
    const none = await call<Next>(client, "next_trial", { study_id: studyId, concurrent: true });
    expect(none.complete).toBe(true);
  });

  it("says the study is not complete while this connection holds its last trials open, and names them", async () => {
    const taken = [];
    for (let i = 0; i < 4; i++)
      taken.push(await call<Next>(client, "next_trial", { study_id: studyId, concurrent: true }));
    const result = await client.callTool({
      name: "next_trial",
      arguments: { study_id: studyId, concurrent: true },
    });
    const held = result.structuredContent as Next & {
      held_open: { match_id: string; trial_index: number }[];
    };
    expect([held.complete, held.trial, held.trial_index, held.trials_finished]).toEqual([
      false,
      null,
      null,
      0,
    ]);
    expect(held.held_open).toEqual(taken.map((t, i) => ({ match_id: t.trial?.match_id, trial_index: i })));
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text).toContain(`Study ${studyId} is not complete for this player`);
    expect(text).toContain(`holds 4 of its trials unfinished: trial 1 (match ${taken[0]?.trial?.match_id})`);
    // Once three are finished, only the fourth is named.
    for (const t of taken.slice(0, 3)) {
      const trial = t.trial as NonNullable<Next["trial"]>;
      await call(client, "submit_move", { match_id: trial.match_id, round: 1, choice: trial.labels[0] });
    }
    const last = await call<Next & { held_open: unknown[] }>(client, "next_trial", {
      study_id: studyId,
      concurrent: true,
    });
    expect([last.complete, last.trials_finished, last.held_open]).toEqual([
      false,
      3,
      [{ match_id: taken[3]?.trial?.match_id, trial_index: 3 }],
    ]);
  });

  it("hands a held-but-open trial to another connection (a restarted runner), never to its holder", async () => {
    const held = await call<Next>(client, "next_trial", { study_id: studyId, concurrent: true });
    const other = await connectClient(deps, { player: "runner" });
    const resumed = await call<Next>(other, "next_trial", { study_id: studyId, concurrent: true });
    expect([resumed.resumed, resumed.trial?.match_id]).toEqual([true, held.trial?.match_id]);
    const mine = await call<Next>(client, "next_trial", { study_id: studyId, concurrent: true });
    expect([mine.resumed, mine.trial_index]).toEqual([false, 1]);
    await other.close();
  });

  it("records the model calls sent in _meta beside the attempt, and charges their tokens", async () => {
    const next = await call<Next>(client, "next_trial", { study_id: studyId });
    const trial = next.trial as NonNullable<Next["trial"]>;
    const result = await client.callTool({
      name: "submit_move",
      arguments: { match_id: trial.match_id, round: 1, choice: trial.labels[0] },
      _meta: { [MODEL_CALLS_META_KEY]: [modelCall, { ...modelCall, sample_index: 1, completion_tokens: 5 }] },
    });
    expect(result.isError).toBeFalsy();
    const rows = deps.store.db
      .prepare(
        "SELECT seq, sample_index, reported_model, prompt_tokens, completion_tokens, decoding_json FROM model_calls",
      )
      .all();
    expect(rows).toEqual([
      {
        seq: 0,
        sample_index: 0,
        reported_model: "m-2026",
        prompt_tokens: 120,
        completion_tokens: 3,
        decoding_json: '{"temperature":0,"max_tokens":16}',
      },
      {
        seq: 1,
        sample_index: 1,
        reported_model: "m-2026",
        prompt_tokens: 120,
        completion_tokens: 5,
        decoding_json: '{"temperature":0,"max_tokens":16}',
      },
    ]);
    // No `tokens` argument: the decision is charged what the calls report, 123 + 125.
    expect(deps.store.getDecision(trial.match_id, 1)?.tokens).toBe(248);
  });

  it("refuses a malformed _meta entry with the field named, recording nothing", async () => {
    const next = await call<Next>(client, "next_trial", { study_id: studyId });
    const trial = next.trial as NonNullable<Next["trial"]>;
    const result = await client.callTool({
      name: "submit_move",
      arguments: { match_id: trial.match_id, round: 1, choice: trial.labels[0] },
      _meta: { [MODEL_CALLS_META_KEY]: [{ ...modelCall, prompt_tokens: -5 }] },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("0.prompt_tokens");
    expect(deps.store.listAttempts(trial.match_id, 1)).toEqual([]);
    expect(deps.store.getDecision(trial.match_id, 1)).toBeUndefined();
  });
});

// A model call's text was written as received: a NUL in a raw reply was stored by SQLite (a record that
// could then not be moved to PostgreSQL) and failed PostgreSQL's insert with its own words ("invalid byte
// sequence for encoding \"UTF8\": 0x00"), naming no field.
describe.each(["sqlite" as const, ...(TEST_PG ? ["postgres" as const] : [])])(
  "a model call whose text the record cannot hold (%s)",
  (engine) => {
    it("is refused naming the call's field, on both engines alike, recording nothing", async () => {
      const own = tempDeps(engine);
      const runner = await connectClient(own, { player: "runner" });
      try {
        const match = await call<{ match_id: string; labels: string[] }>(runner, "start_match", {
          game: "prisoners-dilemma",
          seed: 3,
        });
        for (const [field, value, problem] of [
          ["raw_reply", "ab\u0000c", "contains a NUL character (U+0000 at position 2)"],
          ["requested_model", "m\ud800", "contains a lone surrogate (U+D800 at position 1)"],
        ] as const) {
          const result = await runner.callTool({
            name: "submit_move",
            arguments: { match_id: match.match_id, round: 1, choice: match.labels[0] },
            _meta: { [MODEL_CALLS_META_KEY]: [{ ...modelCall, [field]: value }] },
          });
          expect(result.isError).toBe(true);
          expect((result.content as { text: string }[])[0]?.text).toMatch(
            new RegExp(`^The model call's ${field} ${problem.replace(/[()+]/g, "\\$&")}`),
          );
        }
        expect(own.store.listAttempts(match.match_id, 1)).toEqual([]);
        expect(own.store.getDecision(match.match_id, 1)).toBeUndefined();
      } finally {
        await runner.close();
        own.dispose();
      }
    });
  },
);
