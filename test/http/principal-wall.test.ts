import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerStudy } from "../../src/play/studies.js";
import { connectHttp } from "./support/http-client.js";
import {
  INITIALIZE,
  type InProcessServer,
  MCP_HEADERS,
  startInProcess,
} from "./support/in-process-server.js";

// A principal (one bearer token) is a wall. Both tokens here play under the same configured player label
// (`serve --player`, the README's recommended labelling), the case where trials used to be shared: token
// B's next_trial handed it A's open match, which B could neither play nor get past.

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef0";

type View = { match_id: string; round: number; labels: string[] };
type Structured = Record<string, unknown>;

let server: InProcessServer;
let alice: Client;
let bob: Client;

async function call(client: Client, name: string, args: Structured): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
}

async function errorText(client: Client, name: string, args: Structured): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name} should fail`).toBe(true);
  return (result.content as { text: string }[]).map((c) => c.text).join(" ");
}

beforeAll(async () => {
  server = await startInProcess({
    tokens: [ALICE, BOB],
    player: "shared-label",
    maxSessions: 6,
    maxSessionsPerPrincipal: 3,
  });
  alice = (await connectHttp(server.url, { token: ALICE, name: "alice" })).client;
  bob = (await connectHttp(server.url, { token: BOB, name: "bob" })).client;
});
afterAll(async () => {
  await Promise.all([alice.close(), bob.close()]);
  await server.stop();
});

describe("two tokens over HTTP: to B, A's trials, matches and ids do not exist", () => {
  it("gives each token its own schedule of one operator study under one player label", async () => {
    // Registered on the record itself (`same-game study register`): the operator's, open to every token.
    const study = registerStudy(server.deps, {
      name: "wall study",
      games: ["prisoners-dilemma"],
      framings: ["business", "team"],
      trials_per_cell: 1,
      seed: 9,
    });
    const aFirst = (await call(alice, "next_trial", { study_id: study.study_id })).trial as View;
    // B asks for the same study under the same label while A's trial is still open: B gets its own.
    const bFirst = await call(bob, "next_trial", { study_id: study.study_id });
    expect(bFirst).toMatchObject({ complete: false, trial_index: 0, resumed: false });
    const bView = bFirst.trial as View;
    expect(bView.match_id).not.toBe(aFirst.match_id);
    // B plays through its whole schedule (2 trials) and is never handed A's open match.
    await call(bob, "submit_move", { match_id: bView.match_id, round: 1, choice: bView.labels[0] });
    const bSecond = (await call(bob, "next_trial", { study_id: study.study_id })).trial as View;
    expect(bSecond.match_id).not.toBe(aFirst.match_id);
    await call(bob, "submit_move", { match_id: bSecond.match_id, round: 1, choice: bSecond.labels[0] });
    expect(await call(bob, "next_trial", { study_id: study.study_id })).toMatchObject({ complete: true });
    // A resumes its own open trial, untouched.
    expect(await call(alice, "next_trial", { study_id: study.study_id })).toMatchObject({
      resumed: true,
      trial: { match_id: aFirst.match_id },
    });
    // A's match id answers B exactly like a made-up one.
    const unknown = "f".repeat(32);
    for (const id of [aFirst.match_id, unknown]) {
      expect(await errorText(bob, "get_match", { match_id: id })).toBe(
        `No match with id "${id}" for this client; start one with start_match or next_trial (get_match lists nothing else).`,
      );
    }
  });

  it("shows B neither the name nor the design of a study A registered", async () => {
    const design = {
      name: "acme-confidential-gpt6-eval",
      games: ["stag-hunt"],
      framings: ["business", "team"],
      trials_per_cell: 1,
      seed: 11,
    };
    const mine = await call(alice, "register_study", design);
    const id = mine.study_id as string;
    const aliceListed = (await alice.listResources()).resources.map((r) => r.name);
    expect(aliceListed).toContain("Report of acme-confidential-gpt6-eval");
    const bobListed = (await bob.listResources()).resources;
    expect(JSON.stringify(bobListed)).not.toContain("acme-confidential");
    expect(bobListed.map((r) => r.uri)).not.toContain(`same-game://studies/${id}/report`);
    await expect(bob.readResource({ uri: `same-game://studies/${id}/report` })).rejects.toThrow(
      new RegExp(`No study with id "${id}"`),
    );
    // The whole id typed: a prefix of it could also begin the operator's study of the first test (ids
    // are random), which B may see.
    const completion = await bob.complete({
      ref: { type: "ref/resource", uri: "same-game://studies/{id}/report" },
      argument: { name: "id", value: id },
    });
    expect(completion.completion.values).toEqual([]);
    expect(await errorText(bob, "next_trial", { study_id: id })).toMatch(
      new RegExp(`No study with id "${id}"`),
    );
    expect(await errorText(bob, "robustness", { study_id: id })).toMatch(
      new RegExp(`No study with id "${id}"`),
    );
    // The same design registered by B is B's own study, not A's.
    const theirs = await call(bob, "register_study", design);
    expect(theirs).toMatchObject({ created: true });
    expect(theirs.study_id).not.toBe(id);
    expect(await call(alice, "register_study", design)).toMatchObject({ study_id: id, created: false });
  });

  it("lets B neither join nor learn the opponent of A's matches", async () => {
    const seat = (await call(alice, "start_match", {
      game: "repeated-pd",
      opponent: "agent",
    })) as unknown as View;
    const solo = (await call(alice, "start_match", {
      game: "repeated-pd",
      opponent: "tit-for-tat",
    })) as unknown as View;
    for (const id of [seat.match_id, solo.match_id]) {
      const text = await errorText(bob, "join_match", { match_id: id });
      expect(text).toMatch(new RegExp(`^No match with id "${id}" to join`));
      expect(text).not.toMatch(/tit-for-tat|agent"?$/);
    }
  });

  it("shows B none of A's repeated matches, ids or players in repeated_metrics and the match listing", async () => {
    let view: View | null = (await call(alice, "start_match", {
      game: "repeated-pd",
      opponent: "always-defect",
      seed: 4,
    })) as unknown as View;
    const aliceMatch = view.match_id;
    while (view !== null) {
      const outcome = await call(alice, "submit_move", {
        match_id: view.match_id,
        round: view.round,
        choice: view.labels[0],
      });
      view = outcome.next as View | null;
    }
    const mine = (await call(alice, "repeated_metrics", {})).matches as { match_id: string }[];
    expect(mine.map((m) => m.match_id)).toContain(aliceMatch);
    const theirs = await call(bob, "repeated_metrics", {});
    expect(theirs.matches).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(aliceMatch);
    const listed = (await bob.listResources()).resources.map((r) => r.uri);
    expect(listed.some((uri) => uri.startsWith("same-game://matches/"))).toBe(true); // B's own trials
    expect(listed).not.toContain(`same-game://matches/${aliceMatch}`);
    const completion = await bob.complete({
      ref: { type: "ref/resource", uri: "same-game://matches/{id}" },
      argument: { name: "id", value: aliceMatch.slice(0, 8) },
    });
    expect(completion.completion.values).toEqual([]);
    await expect(bob.readResource({ uri: `same-game://matches/${aliceMatch}` })).rejects.toThrow(
      /No match with id/,
    );
  });

  it("caps sessions per token as well as in all: A cannot take every slot", async () => {
    // A holds 1 (alice); two more reach its cap of 3, the fourth is refused while B still gets in.
    const extra = [
      await connectHttp(server.url, { token: ALICE }),
      await connectHttp(server.url, { token: ALICE }),
    ];
    await expect(connectHttp(server.url, { token: ALICE })).rejects.toThrow(
      /Too many sessions for this client/,
    );
    const bobAgain = await connectHttp(server.url, { token: BOB });
    await bobAgain.client.close();
    for (const { client } of extra) await client.close();
  });
});

/** Initializes a session by hand (raw HTTP) and returns the headers of its next requests. */
async function openSessionHeaders(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  const session = init.headers.get("mcp-session-id") as string;
  await init.text();
  return { ...MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
}

describe("the rate limit counts JSON-RPC messages, not HTTP posts", () => {
  it("refuses a batch larger than the session's rate in one POST", async () => {
    const limited = await startInProcess({ rateLimitPerSecond: 3 });
    try {
      const headers = await openSessionHeaders(limited.url);
      const batch = (n: number) =>
        JSON.stringify(
          Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: 100 + i, method: "ping" })),
        );
      // 413, with how to split it: the bucket holds one second's worth, so a Retry-After could never pass.
      const big = await fetch(limited.url, { method: "POST", headers, body: batch(10) });
      expect(big.status).toBe(413);
      expect(big.headers.get("retry-after")).toBeNull();
      expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(
        /3 JSON-RPC messages per second \(--rate-limit\) and this batch holds 10; send it as batches of at most 3\.$/,
      );
      // One message still passes: the refused batch took nothing from the bucket.
      const one = await fetch(limited.url, { method: "POST", headers, body: batch(1).slice(1, -1) });
      expect(one.status).toBe(200);
      await one.text();
    } finally {
      await limited.stop();
    }
  });

  it("hands the body it parsed for counting to the transport, and an unparsable one as text", async () => {
    const open = await startInProcess({ rateLimitPerSecond: 100 });
    try {
      const headers = await openSessionHeaders(open.url);
      const pings = JSON.stringify([200, 201].map((id) => ({ jsonrpc: "2.0", id, method: "ping" })));
      const batch = await fetch(open.url, { method: "POST", headers, body: pings });
      expect(batch.status).toBe(200);
      const answered = await batch.text();
      expect(answered).toContain('"id":200');
      expect(answered).toContain('"id":201');
      const broken = await fetch(open.url, { method: "POST", headers, body: '{"jsonrpc": "2.0", "id": 3' });
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    } finally {
      await open.stop();
    }
  });

  it("answers HEAD /healthz like GET, without a body", async () => {
    const get = await fetch(`${server.origin}/healthz`);
    const body = await get.text();
    const head = await fetch(`${server.origin}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(get.status);
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(10);
    expect(await head.text()).toBe("");
    expect(JSON.parse(body)).toMatchObject({ ok: true });
  });
});
