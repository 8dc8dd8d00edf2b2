import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli } from "../support/built-cli.js";

// Packaging: `npm pack` of a fresh clone — sources only, never built — must give a
// package that runs after an install into an empty folder: `prepack` builds it, and the tarball holds the
// built JS with its shebang, the executable bin, the catalog, framings, migrations and LICENSE. The clone
// is the repository's tracked (and new, unignored) files copied to a temp folder, with the installed
// node_modules linked in so the build needs no registry. Slow by nature: the install fetches dependencies
// from the registry and may build better-sqlite3 from source, hence its own file and a generous timeout.

// Under a loaded machine compiling better-sqlite3 from source alone can take most of ten minutes.
const INSTALL_TIMEOUT_MS = 15 * 60_000;

let dir: string;
let installed: string;

beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-pack-"));
  const packed = join(dir, "packed");
  installed = join(dir, "installed");
  mkdirSync(packed);
  const clone = join(dir, "clone");
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: packageRoot() })
    .toString()
    .split("\n")
    .filter((f) => f !== "" && existsSync(join(packageRoot(), f)));
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(packageRoot(), file), join(clone, file));
  }
  symlinkSync(join(packageRoot(), "node_modules"), join(clone, "node_modules"), "dir");
  if (existsSync(join(clone, "dist"))) throw new Error("the clone must not hold a build");
  execFileSync("npm", ["pack", "--silent", "--pack-destination", packed], {
    cwd: clone,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarball = readdirSync(packed).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${packed}.`);
  mkdirSync(installed);
  writeFileSync(join(installed, "package.json"), '{ "name": "empty-folder", "private": true }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(packed, tarball)], {
    cwd: installed,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: INSTALL_TIMEOUT_MS,
  });
}, INSTALL_TIMEOUT_MS + 60_000);
// Removing the installed tree can outlast the default 60 s hook timeout on a loaded machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 5 * 60_000);

describe("the packed tarball installed into an empty folder", () => {
  it("ships the catalog, framings and migrations beside the built CLI", () => {
    const root = join(installed, "node_modules", "same-game");
    for (const path of [
      "dist/cli/main.js",
      "dist/mcp/analysis-pool/analysis-worker.js",
      "dist/bundle/serve/serve.js",
      "dist/bundle/serve/analysis-worker.js",
      "dist/bundle/import/import.js",
      "dist/bundle/analyze/analyze.js",
      "games/prisoners-dilemma.json",
      "catalogs/ordinal-2x2/games/rg-111.json",
      "framings/business.json",
      "db",
      "LICENSE",
      "data/lore-heydari-2024-business-vs-friend.csv",
      "data/llm-gm-thesis/traces.jsonl",
      "data/README.md",
      "docs/tools.md",
    ]) {
      expect(existsSync(join(root, path)), path).toBe(true);
    }
    expect(existsSync(join(root, "src")), "TypeScript sources are not shipped").toBe(false);
  });

  it("finds its shipped catalog ordinal-2x2 by name: game 111's one equilibrium is (second, first)", () => {
    const bin = join(installed, "node_modules", ".bin", "same-game");
    const run = spawnSync(
      bin,
      ["analyze", "equilibria", "--game", "rg-111", "--catalog", "ordinal-2x2", "--json"],
      {
        cwd: installed,
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { equilibria: { row: object; column: object; kind: string }[] };
    expect(out.equilibria).toEqual([
      expect.objectContaining({
        kind: "pure",
        row: { first: 0, second: 1 },
        column: { first: 1, second: 0 },
      }),
    ]);
  });

  it("prints its version with `same-game --version`", () => {
    const version = (
      JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }
    ).version;
    const out = execFileSync(join(installed, "node_modules", ".bin", "same-game"), ["--version"]).toString();
    expect(out).toBe(`same-game ${version}\n`);
  });

  it("imports the shipped Lorè & Heydari counts by reference and reproduces gpt-4's attenuated PD shift", () => {
    // No sibling folders here: the reference file must come from the installed package's data/.
    const bin = join(installed, "node_modules", ".bin", "same-game");
    const db = join(dir, "reference.db");
    const run = (args: string[]) =>
      spawnSync(bin, args, { cwd: installed, encoding: "utf8", timeout: 60_000 });
    const imported = run(["import", "counts", "--reference", "lore-heydari-2024", "--db", db]);
    expect(imported.status, imported.stderr).toBe(0);
    const analysed = run([
      "analyze",
      "robustness",
      "--attenuation",
      "0.7",
      "--bootstrap",
      "1000",
      "--json",
      "--db",
      db,
    ]);
    expect(analysed.status, analysed.stderr).toBe(0);
    const out = JSON.parse(analysed.stdout) as {
      games: { player: string; game: string; shift: { estimate: number }; R: { estimate: number } }[];
    };
    // gpt-4, PD: business 0/300, friend-sharing 296/300 ⇒ Δ_cons = 0.7 · 296/300 = 0.690667;
    // R = 0.0512073 (test/analysis/lore-heydari.test.ts) ⇒ R_cons = 1 − 0.7 · (1 − R) = 0.3358451.
    const gpt4 = out.games.find((g) => g.player === "gpt-4" && g.game === "prisoners-dilemma");
    expect(gpt4?.shift.estimate).toBeCloseTo(0.7 * (296 / 300), 10);
    expect(gpt4?.R.estimate).toBeCloseTo(0.3358451, 6);
    expect(out.games).toHaveLength(12);
  });

  it("completes an MCP handshake with `same-game serve`: the player's tools by default", async () => {
    const client = new Client({ name: "packaging-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: join(installed, "node_modules", ".bin", "same-game"),
        args: ["serve", "--db", join(dir, "record.db")],
        cwd: installed,
        stderr: "ignore",
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual([
        "get_match",
        "join_match",
        "list_games",
        "next_trial",
        "start_match",
        "submit_move",
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("serves every toolset with `serve --toolsets all`, analyses in its worker pool included", async () => {
    const client = new Client({ name: "packaging-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: join(installed, "node_modules", ".bin", "same-game"),
        args: ["serve", "--db", join(dir, "record.db"), "--toolsets", "all"],
        cwd: installed,
        stderr: "ignore",
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe("same-game");
      // power runs in a worker thread of the installed package: the worker file shipped and starts.
      const power = await client.callTool({
        name: "power",
        arguments: { baseline: 0.5, delta: 0.2, simulations: 10, bootstrap: 100 },
      });
      expect(power.isError, JSON.stringify(power.content)).toBeFalsy();
      expect(
        (power.structuredContent as { shift_test: { trials_per_framing: number } }).shift_test
          .trials_per_framing,
      ).toBeGreaterThan(50);
      const result = await client.callTool({ name: "list_games", arguments: {} });
      expect(result.isError).toBeFalsy();
      const games = (result.structuredContent as { games: { id: string }[] }).games.map((g) => g.id);
      expect(games).toContain("prisoners-dilemma");
      expect(games).toContain("repeated-pd");
    } finally {
      await client.close();
    }
  }, 60_000);
});
