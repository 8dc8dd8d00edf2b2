import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_URI } from "../../src/mcp/app/dashboard-app.js";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { callError, tempDeps } from "../support/harness.js";
import { playDashboardRecord, TRIALS } from "./dashboard-record.js";

const APP_MIME = "text/html;profile=mcp-app";
/** What an MCP Apps host (Claude, VS Code, the Inspector…) declares at initialization. */
const APPS_CAPABILITIES = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME] } } };
const DASHBOARD_TOOLS = ["compare", "repeated_metrics", "report", "robustness"];

let deps: ReturnType<typeof tempDeps>;
let appsHost: Client;
let plainHost: Client;

async function connect(name: string, options: { apps: boolean; principal?: string }): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await createServer(deps, {
    transport: "memory",
    principal: options.principal,
    toolsets: TOOLSET_NAMES,
  }).connect(serverTransport);
  const client = new Client(
    { name, version: "1.0.0" },
    options.apps ? { capabilities: APPS_CAPABILITIES } : undefined,
  );
  await client.connect(clientTransport);
  return client;
}

beforeAll(async () => {
  deps = tempDeps();
  appsHost = await connect("apps-host", { apps: true });
  plainHost = await connect("plain-host", { apps: false });
  await playDashboardRecord(() => connect("player", { apps: false }));
});
afterAll(async () => {
  await appsHost.close();
  await plainHost.close();
  deps.dispose();
});

describe("the dashboard an MCP Apps host needs", () => {
  it("names the UI resource in the _meta of robustness, report, repeated_metrics and compare, and of no other tool", async () => {
    const { tools } = await appsHost.listTools();
    const withUi = tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name);
    expect(withUi.sort()).toEqual(DASHBOARD_TOOLS);
    for (const name of DASHBOARD_TOOLS) {
      const meta = tools.find((t) => t.name === name)?._meta;
      expect(meta?.ui).toEqual({ resourceUri: DASHBOARD_URI });
      // The flat key older hosts read.
      expect(meta?.["ui/resourceUri"]).toBe(DASHBOARD_URI);
    }
    // The play tools an agent sees carry nothing that hints at a dashboard.
    for (const name of ["start_match", "submit_move", "get_match", "next_trial", "list_games"]) {
      expect(tools.find((t) => t.name === name)?._meta).toBeUndefined();
    }
  });

  it("lists the resource as an MCP App with an empty CSP, and serves one self-contained HTML file", async () => {
    const { resources } = await appsHost.listResources();
    const listed = resources.find((r) => r.uri === DASHBOARD_URI);
    expect(listed?.mimeType).toBe(APP_MIME);
    const emptyCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
    expect(listed?._meta?.ui).toMatchObject({ csp: emptyCsp });

    const read = await appsHost.readResource({ uri: DASHBOARD_URI });
    expect(read.contents).toHaveLength(1);
    const [content] = read.contents;
    expect(content?.mimeType).toBe(APP_MIME);
    expect(content?._meta?.ui).toMatchObject({ csp: emptyCsp });
    const html = content && "text" in content ? content.text : "";
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    // Scripts and styles inline: no element loads a file or a URL.
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    // The bundle carries vega and vega-lite (the report's chart library) and the ext-apps App.
    expect(html).toContain("ui/initialize");
    expect(html.length).toBeLessThan(2_000_000);
  });

  it("a host without Apps support gets the same result and text as an Apps host", async () => {
    // Both list the tools first, as hosts do, so both validate the result against the advertised schema.
    expect((await plainHost.listTools()).tools).toEqual((await appsHost.listTools()).tools);
    const args = { bootstrap: 200, seed: 7 };
    const plain = await plainHost.callTool({ name: "robustness", arguments: args });
    const apps = await appsHost.callTool({ name: "robustness", arguments: args });
    expect(plain.isError).toBeFalsy();
    // The second call is answered from the result cache; everything but where it came from is the same.
    const { _meta: plainMeta, ...plainResult } = plain;
    const { _meta: appsMeta, ...appsResult } = apps;
    expect(plainResult).toEqual(appsResult);
    expect([plainMeta?.["same-game/cache"], appsMeta?.["same-game/cache"]]).toMatchObject([
      { outcome: "computed" },
      { outcome: "memory" },
    ]);
    // Only the text twins (summary and full JSON) and the structured result: no embedded UI, no link.
    expect((plain.content as { type: string }[]).map((c) => c.type)).toEqual(["text", "text"]);
    const result = plain.structuredContent as {
      framings: string[];
      games: { player: string; R: { estimate: number }; shift: { estimate: number } }[];
    };
    expect(result.framings).toEqual(["business", "team"]);
    const byPlayer = Object.fromEntries(result.games.map((g) => [g.player, g]));
    // Identical choice distributions: R = 1, shift 0. Disjoint ones: JSD = ln 2, R = 0, shift 1 − 0 = 1.
    expect(byPlayer["steady-agent"]?.R.estimate).toBe(1);
    expect(byPlayer["steady-agent"]?.shift.estimate).toBe(0);
    expect(byPlayer["story-agent"]?.R.estimate).toBeCloseTo(0, 12);
    expect(byPlayer["story-agent"]?.shift.estimate).toBe(1);
    // (2/3, 1/3) against (1/3, 2/3): both sit 2/3·ln(4/3) + 1/3·ln(2/3) = 0.056633 nats from (½, ½).
    const jsd = (2 / 3) * Math.log(4 / 3) + (1 / 3) * Math.log(2 / 3);
    expect(byPlayer["mixed-agent"]?.R.estimate).toBeCloseTo(1 - jsd / Math.log(2), 12);
    expect(byPlayer["mixed-agent"]?.R.estimate).toBeCloseTo(0.918296, 6);
    expect(byPlayer["mixed-agent"]?.shift.estimate).toBeCloseTo(-1 / 3, 12);
  });
});

describe("list_matches", () => {
  it("lists the matches of a cell, newest first, with their rounds", async () => {
    const out = await plainHost.callTool({
      name: "list_matches",
      arguments: { player: "story-agent", game: "prisoners-dilemma", framing: "business" },
    });
    const { matches } = out.structuredContent as {
      matches: {
        player: string;
        framing: string;
        status: string;
        rounds_played: number;
        started_at: string;
      }[];
    };
    expect(matches).toHaveLength(TRIALS);
    expect(new Set(matches.map((m) => `${m.player}/${m.framing}/${m.status}/${m.rounds_played}`))).toEqual(
      new Set(["story-agent/business/finished/1"]),
    );
    const starts = matches.map((m) => m.started_at);
    expect(starts).toEqual([...starts].sort().reverse());

    const repeated = await plainHost.callTool({ name: "list_matches", arguments: { game: "repeated-pd" } });
    expect(repeated.structuredContent).toMatchObject({
      matches: [{ player: "steady-agent", opponent: "tit-for-tat", rounds_played: 16, status: "finished" }],
    });
    const limited = await plainHost.callTool({ name: "list_matches", arguments: { limit: 2 } });
    expect((limited.structuredContent as { matches: unknown[] }).matches).toHaveLength(2);
  });

  it("pages with offset and limit, and says how many pass in all", async () => {
    // 3 players × 2 framings × TRIALS one-shot matches, and steady-agent's repeated match.
    const all = 3 * 2 * TRIALS + 1;
    const page = async (offset: number) => {
      const out = await plainHost.callTool({ name: "list_matches", arguments: { limit: 10, offset } });
      return out as {
        structuredContent: { matches: { match_id: string }[]; total: number };
        content: { text: string }[];
      };
    };
    const pages = await Promise.all([0, 10, 20, 30].map(page));
    expect(pages.map((p) => p.structuredContent.matches.length)).toEqual([10, 10, 10, all - 30]);
    expect(pages.map((p) => p.structuredContent.total)).toEqual([all, all, all, all]);
    // The pages together are every match once, newest first, as one long listing has them.
    const paged = pages.flatMap((p) => p.structuredContent.matches.map((m) => m.match_id));
    const whole = await plainHost.callTool({ name: "list_matches", arguments: { limit: 500 } });
    const ids = (whole.structuredContent as { matches: { match_id: string }[] }).matches.map(
      (m) => m.match_id,
    );
    expect(paged).toEqual(ids);
    expect(new Set(paged).size).toBe(all);
    expect(pages[0]?.content[0]?.text.split("\n")[0]).toBe(
      `Matches 1–10 of ${all}, newest first (offset 10 lists the next):`,
    );
    expect(pages[3]?.content[0]?.text.split("\n")[0]).toBe(`Matches 31–${all} of ${all}, newest first:`);
  });

  it("says whose matches it lists: without tokens every client's, the imported ones too; with a token that token's", async () => {
    const { tools } = await plainHost.listTools();
    const description = tools.find((t) => t.name === "list_matches")?.description ?? "";
    expect(description).toContain(
      "every match started without a token, by any client, and every imported transcript",
    );
    expect(description).toContain("only the matches started with that token");
    expect(description).not.toContain("of this client");
    // plain-host played none of the record's matches (the "player" clients did) and lists them all.
    const out = await plainHost.callTool({ name: "list_matches", arguments: { limit: 500 } });
    expect((out.structuredContent as { total: number }).total).toBe(3 * 2 * TRIALS + 1);
  });

  it("shows a client only its own principal's matches and names a bad variant", async () => {
    const stranger = await connect("stranger", { apps: true, principal: "tenant-b" });
    try {
      const out = await stranger.callTool({ name: "list_matches", arguments: {} });
      expect(out.structuredContent).toEqual({ matches: [], total: 0, offset: 0 });
      expect(await callError(stranger, "list_matches", { variant: "sideways" })).toMatch(
        /sideways|base.*label.*payoff.*joint/,
      );
    } finally {
      await stranger.close();
    }
  });
});
