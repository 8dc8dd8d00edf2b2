import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { Store } from "../../src/store/store.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, shippedCatalog } from "../support/harness.js";
import { describeOnPostgres, freshRecord, type TestRecord } from "../support/postgres.js";

// The same record written into both engines — the published Lorè & Heydari counts, the llm-gm-thesis
// traces, and live play through the SDK client — must read the same to every analysis: the full
// `analyze … --json` output is compared, byte for byte (match ids, random per engine, numbered in order).

const ANALYSES = [
  ["robustness", "--bootstrap", "1000"],
  ["sensitivity", "--bootstrap", "1000"],
  ["repeated"],
  ["story-labels", "--bootstrap", "1000"],
  ["repeated", "--opponents", "tit-for-tat", "--players", "live-a,live-b"],
] as const;

async function livePlay(location: string): Promise<void> {
  const store = new Store(location);
  try {
    const deps = { store, catalog: shippedCatalog() };
    // Fixed session ids: the cluster bootstrap visits sessions in id order, so both engines see the same.
    for (const [session, player] of [
      ["session-a", "live-a"],
      ["session-b", "live-b"],
    ] as const) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = createServer(deps, { transport: "memory", sessionId: session, toolsets: TOOLSET_NAMES });
      await server.connect(serverSide);
      const client = new Client({ name: player, version: "1.0.0" });
      await client.connect(clientSide);
      await client.listTools();
      for (const [f, framing] of ["business", "friend-sharing"].entries()) {
        for (let trial = 0; trial < 6; trial++) {
          const view = await call<{ match_id: string; labels: string[] }>(client, "start_match", {
            game: "prisoners-dilemma",
            framing,
            opponent: "always-defect",
            player,
            seed: 100 * f + trial,
          });
          // A pattern a reader can follow: more of the first-listed label in business than with friends.
          const pick = (trial + f + (player === "live-b" ? 1 : 0)) % 3 === 0 ? 1 : 0;
          await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[pick] });
          await new Promise((resolve) => setTimeout(resolve, 3)); // distinct created_at: one order on both
        }
      }
      const repeated = await call<{ match_id: string; labels: string[] }>(client, "start_match", {
        game: "repeated-pd",
        opponent: "tit-for-tat",
        player,
        seed: 7,
      });
      for (let round = 1; round <= 100; round++) {
        const result = await call<{ finished: boolean }>(client, "submit_move", {
          match_id: repeated.match_id,
          round,
          choice: repeated.labels[round % 4 === 0 ? 1 : 0],
        });
        if (result.finished) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 3));
      await client.close();
    }
  } finally {
    store.close();
  }
}

function recordInto(record: TestRecord): void {
  for (const args of [
    ["import", "counts", "--reference", "lore-heydari-2024"],
    ["import", "matches", "--reference", "llm-gm-thesis-2026"],
  ]) {
    const run = runCli([...args, "--db", record.location]);
    expect(run.stderr).toMatch(/imported/);
    expect(run.status).toBe(0);
  }
}

/** Each analysis's JSON with every match id replaced by its position in the record (oldest first). */
function analyses(record: TestRecord): string[] {
  const store = new Store(record.location, { readonly: true });
  const ids = store.listMatches({}).map((m) => m.id);
  store.close();
  return ANALYSES.map((args) => {
    const run = runCli(["analyze", ...args, "--json", "--db", record.location]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    return ids.reduce((text, id, i) => text.replaceAll(id, `match#${i + 1}`), run.stdout);
  });
}

describeOnPostgres("the same record on SQLite and on PostgreSQL", () => {
  let sqlite: TestRecord;
  let postgres: TestRecord;
  beforeAll(() => {
    requireBuiltCli();
    sqlite = freshRecord("sqlite");
    postgres = freshRecord("postgres");
  });
  afterAll(() => {
    sqlite?.dispose();
    postgres?.dispose();
  });

  it("gives identical output for every analysis verb (imports and live play over the SDK)", {
    timeout: 300_000,
  }, async () => {
    for (const record of [sqlite, postgres]) {
      recordInto(record);
      await livePlay(record.location);
    }
    const onSqlite = analyses(sqlite);
    const onPostgres = analyses(postgres);
    // Not vacuous: the outputs hold the imported models and the live players, with numbers in them.
    expect(onSqlite[0]).toMatch(/gpt-4/);
    expect(onSqlite[0]).toMatch(/live-a/);
    expect(onSqlite[2]).toMatch(/tit-for-tat/);
    expect(onSqlite[2]).toMatch(/match#\d+/);
    for (const [i, args] of ANALYSES.entries()) {
      expect({ analysis: args.join(" "), output: onPostgres[i] }).toEqual({
        analysis: args.join(" "),
        output: onSqlite[i],
      });
    }
  });

  it("pages list_matches alike: the same total and the same pages, newest first", async () => {
    const pages = async (record: TestRecord) => {
      const store = new Store(record.location);
      try {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const server = createServer(
          { store, catalog: shippedCatalog() },
          { transport: "memory", sessionId: "lister", toolsets: TOOLSET_NAMES },
        );
        await server.connect(serverSide);
        const client = new Client({ name: "lister", version: "1.0.0" });
        await client.connect(clientSide);
        await client.listTools();
        const page = (offset: number) =>
          call<{ total: number; matches: { player: string; game: string; framing: string | null }[] }>(
            client,
            "list_matches",
            { player: "live-b", limit: 5, offset },
          );
        const first = await page(0);
        const second = await page(5);
        const past = await page(first.total);
        await client.close();
        const show = (p: typeof first) => p.matches.map((m) => `${m.game}/${m.framing}`);
        return { total: first.total, first: show(first), second: show(second), past: past.matches.length };
      } finally {
        store.close();
      }
    };
    const onSqlite = await pages(sqlite);
    // live-b's 12 one-shot matches and one repeated match; the newest first is the repeated one.
    expect(onSqlite.total).toBe(13);
    expect(onSqlite.first[0]).toMatch(/^repeated-pd\//);
    expect(onSqlite.first.length + onSqlite.second.length).toBe(10);
    expect(onSqlite.past).toBe(0);
    expect(await pages(postgres)).toEqual(onSqlite);
  });
});
