// `serve`, `import` and `analyze` run from bundles (scripts/build-bundles.mjs → dist/bundle/VERB/), a few
// files instead of some 230 modules, which is most of a cold start. The bundles must be what runs, and they
// must answer exactly as the unbundled CLI (dist/cli/unbundled.js, every module from dist/) does.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

const UNBUNDLED = join(packageRoot(), "dist", "cli", "unbundled.js");
const PROBE = join(import.meta.dirname, "../support/loaded-files.mjs");
const LORE = join(packageRoot(), "data", "lore-heydari-2024-business-vs-friend.csv");
const DIST = pathToFileURL(join(packageRoot(), "dist")).href;

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-bundles-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const out = spawnSync(process.execPath, [script, ...args], {
    input: "",
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** The files of dist/ a run of the bin read, relative to dist/ (stdin closed, so `serve` ends at once). */
function distFilesReadBy(args: string[]): string[] {
  const file = join(dir, `files-${args.join("_").replace(/\W/g, "")}.txt`);
  const out = run("--import", [PROBE, CLI, ...args], { LOADED_FILES_FILE: file });
  expect(out.status, out.stderr).toBe(0);
  const urls = readFileSync(file, "utf8").split("\n");
  return [...new Set(urls.filter((u) => u.startsWith(`${DIST}/`)).map((u) => u.slice(DIST.length + 1)))];
}

describe("the bundled verbs", () => {
  it.each([
    ["serve", ["serve", "--db", "RECORD"]],
    ["import", ["import", "counts", LORE, "--db", "RECORD"]],
    ["analyze", ["analyze", "robustness", "--bootstrap", "100", "--db", "RECORD"]],
  ])("`same-game %s` reads the bin and its own bundle only", (verb, args) => {
    const db = join(dir, "probe.db");
    const files = distFilesReadBy(args.map((a) => (a === "RECORD" ? db : a)));
    expect(files).toContain(`bundle/${verb}/${verb}.js`);
    const bin = ["cli/main.js", "cli/node-version-guard.js"];
    expect(files.filter((f) => !bin.includes(f) && !f.startsWith(`bundle/${verb}/`))).toEqual([]);
  });

  it("every other verb runs the unbundled CLI and reads no bundle (report --help)", () => {
    const files = distFilesReadBy(["report", "--help"]);
    expect(files).toContain("cli/unbundled.js");
    expect(files.filter((f) => f.startsWith("bundle/"))).toEqual([]);
  });

  it("`serve` from its bundle lists exactly the tools, prompts and resources of the unbundled server", async () => {
    const listings = [];
    for (const script of [CLI, UNBUNDLED]) {
      const client = new Client({ name: "bundle-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [script, "serve", "--db", join(dir, "serve.db"), "--toolsets", "all"],
          stderr: "ignore",
        }),
      );
      try {
        listings.push({
          server: client.getServerVersion(),
          tools: (await client.listTools()).tools,
          prompts: (await client.listPrompts()).prompts,
          resources: (await client.listResources()).resources,
          templates: (await client.listResourceTemplates()).resourceTemplates,
        });
      } finally {
        await client.close();
      }
    }
    const [bundled, unbundled] = listings;
    // Every toolset's tools (fifteen), each with its schemas, as the unbundled server lists them.
    expect(bundled?.tools.map((t) => t.name)).toContain("submit_move");
    expect(bundled?.tools.length).toBeGreaterThanOrEqual(15);
    expect(bundled).toEqual(unbundled);
  }, 60_000);

  it("`import` and `analyze` from their bundles print exactly what the unbundled CLI prints", () => {
    const outputs = [CLI, UNBUNDLED].map((script, i) => {
      const db = join(dir, `table3-${i}.db`);
      const imported = run(script, ["import", "counts", LORE, "--db", db]);
      expect(imported.status, imported.stderr).toBe(0);
      const analysed = run(script, ["analyze", "robustness", "--bootstrap", "1000", "--json", "--db", db]);
      expect(analysed.status, analysed.stderr).toBe(0);
      return { imported: imported.stderr.replace(db, "DB"), analysed: analysed.stdout };
    });
    // gpt-4 under business: 0 of 300 cooperate in the prisoner's dilemma, 296 of 300 when friend-sharing.
    expect(outputs[0]?.imported).toContain("imported 48 count rows (7200 decisions)");
    const games = (JSON.parse(outputs[0]?.analysed ?? "{}") as { games: { shift: { estimate: number } }[] })
      .games;
    expect(games).toHaveLength(12);
    expect(outputs[0]).toEqual(outputs[1]);
  });

  it("a usage error inside a bundle is one line on stderr and exit 2, as unbundled", () => {
    for (const script of [CLI, UNBUNDLED]) {
      const out = run(script, ["analyze", "robustnes", "--db", join(dir, "none.db")]);
      expect(out.status).toBe(2);
      expect(out.stderr).toBe(
        'same-game: analyze needs one of robustness, compare, sensitivity, equilibria, power, repeated, story-labels, got "robustnes".\n',
      );
    }
  });
});

describe("workers beside the bundles", () => {
  it("ships every worker a bundle starts by a relative URL in that bundle's folder", () => {
    // permutation-replicates.ts starts `./permutation-worker.js` beside its own module, and the analysis
    // pool `./analysis-worker.js`; a bundle without the file silently falls back to one thread.
    const bundles = join(packageRoot(), "dist", "bundle");
    for (const verb of readdirSync(bundles)) {
      const folder = join(bundles, verb);
      const files = readdirSync(folder);
      const code = files.map((f) => readFileSync(join(folder, f), "utf8")).join("\n");
      for (const worker of ["permutation-worker.js", "analysis-worker.js"]) {
        if (code.includes(`"./${worker}"`)) expect(files, `${verb} starts ./${worker}`).toContain(worker);
      }
    }
    expect(readdirSync(join(bundles, "analyze"))).toContain("permutation-worker.js");
  });
});
