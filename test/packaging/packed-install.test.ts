import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli } from "../support/built-cli.js";

// Packaging (issue 6): what `npm pack` produces must run after an install into an empty folder — built JS
// with its shebang, the executable bin, and the catalog, framings and migrations it reads at start-up.
// Slow by nature: the install fetches dependencies from the registry and may build better-sqlite3 from
// source, hence its own file and a generous timeout.

const INSTALL_TIMEOUT_MS = 10 * 60_000;

let dir: string;
let installed: string;

beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-pack-"));
  const packed = join(dir, "packed");
  installed = join(dir, "installed");
  mkdirSync(packed);
  execFileSync("npm", ["pack", "--silent", "--pack-destination", packed], {
    cwd: packageRoot(),
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
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed tarball installed into an empty folder", () => {
  it("ships the catalog, framings and migrations beside the built CLI", () => {
    const root = join(installed, "node_modules", "same-game");
    for (const path of [
      "dist/cli/main.js",
      "games/prisoners-dilemma.json",
      "framings/business.json",
      "db",
      "data/lore-heydari-2024-business-vs-friend.csv",
      "data/llm-gm-thesis/traces.jsonl",
      "data/README.md",
    ]) {
      expect(existsSync(join(root, path)), path).toBe(true);
    }
    expect(existsSync(join(root, "src")), "TypeScript sources are not shipped").toBe(false);
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

  it("completes an MCP handshake with `same-game serve` and lists the games", async () => {
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
      expect(client.getServerVersion()?.name).toBe("same-game");
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
