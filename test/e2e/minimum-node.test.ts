import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MINIMUM_NODE_RELEASE,
  nodeBinary,
  OLDER_NODE_RELEASE,
  OTHER_ABI_NODE_RELEASE,
} from "../../scripts/fetch-node-binaries.mjs";
import { MINIMUM_NODE } from "../../src/cli/node-version-guard.js";
import { packageRoot } from "../../src/package-root.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// The declared minimum Node.js is a promise to a lab machine on an early Node 20 point release: the built
// CLI's verbs run there (the bundles, the workers, the report's renderer, the SDK over stdio), an older
// Node gets one line and exit 2 instead of a SyntaxError from deep inside a module, and a Node of another
// ABI than the SQLite driver was built for is told so, with the command that repairs it.
// The releases come from the npm registry (node scripts/fetch-node-binaries.mjs); without them each test
// skips, saying on stderr how to fetch them.

interface Release {
  readonly version: string;
  readonly node: string;
  readonly present: boolean;
}

function release(version: string): Release {
  const node = nodeBinary(version);
  return { version, node, present: existsSync(node) };
}

const minimum = release(MINIMUM_NODE_RELEASE);
const older = release(OLDER_NODE_RELEASE);
const otherAbi = release(OTHER_ABI_NODE_RELEASE);

/** The native ABI a release's node was built for (the SQLite driver here is built for this process's). */
function abiOf(node: string): string {
  return spawnSync(node, ["-p", "process.versions.modules"], { encoding: "utf8" }).stdout.trim();
}
const minimumShareAbi = minimum.present && abiOf(minimum.node) === process.versions.modules;
const otherAbiDiffers = otherAbi.present && abiOf(otherAbi.node) !== process.versions.modules;

// SAME_GAME_REQUIRE_NODE_RELEASES=1 (set by .ci/run, which fetches them) makes a missing release fail.
const required = process.env.SAME_GAME_REQUIRE_NODE_RELEASES === "1";
const fetchHint = `fetch the releases with \`node scripts/fetch-node-binaries.mjs\` (into ${nodeBinary("VERSION")})`;
for (const [what, ok] of [
  [`Node.js ${minimum.version} sharing this Node's native ABI ${process.versions.modules}`, minimumShareAbi],
  [`Node.js ${older.version}`, older.present],
  [`Node.js ${otherAbi.version}, of another native ABI`, otherAbiDiffers],
] as const) {
  if (!ok && !required) process.stderr.write(`SKIPPED (minimum-node.test.ts): no ${what}; ${fetchHint}.\n`);
}
/** Runs the test when its release is there; without it, skips it, or fails when the releases are required. */
function withRelease(present: boolean): boolean {
  return !present && !required;
}
function requireRelease(release: Release): void {
  if (!release.present) throw new Error(`Node.js ${release.version} is missing: ${fetchHint}.`);
}

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-minimum-node-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runUnder(node: string, args: string[]) {
  const out = spawnSync(node, [CLI, ...args], { encoding: "utf8", input: "", timeout: 120_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("the declared minimum Node.js", () => {
  it("is the one package.json's engines start from and the fetch script fetches", () => {
    const engines = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")).engines
      .node as string;
    expect(engines).toBe(`^${MINIMUM_NODE} || >=22`);
    expect(MINIMUM_NODE_RELEASE).toBe(MINIMUM_NODE);
  });

  it.skipIf(withRelease(minimumShareAbi))(
    `runs import, analyze (with its worker), report, export and serve over stdio on Node.js ${MINIMUM_NODE}`,
    async () => {
      requireRelease(minimum);
      const db = join(dir, "minimum.db");
      const imported = runUnder(minimum.node, [
        "import",
        "counts",
        "--reference",
        "lore-heydari-2024",
        "--db",
        db,
      ]);
      expect(imported.stderr).toContain("imported 48 count rows (7200 decisions)");
      expect(imported.status).toBe(0);

      const equilibria = runUnder(minimum.node, ["analyze", "equilibria", "--game", "snowdrift"]);
      expect(equilibria.stdout).toContain("1. pure: row plays cooperate, column plays defect; payoffs 3, 10");

      // gpt-4's prisoner's dilemma: 0 of 300 cooperate under business, 296 of 300 among friends.
      const robustness = runUnder(minimum.node, [
        "analyze",
        "robustness",
        "--db",
        db,
        "--players",
        "gpt-4",
        "--games",
        "prisoners-dilemma",
        "--bootstrap",
        "200",
        "--json",
      ]);
      expect(robustness.status, robustness.stderr).toBe(0);
      const game = JSON.parse(robustness.stdout).games[0];
      expect([game.player, game.game]).toEqual(["gpt-4", "prisoners-dilemma"]);
      expect(game.shift.estimate).toBeCloseTo(296 / 300 - 0 / 300, 12);

      const report = join(dir, "minimum.html");
      expect(
        runUnder(minimum.node, ["report", "--db", db, "--bootstrap", "200", "--out", report]).status,
      ).toBe(0);
      expect(readFileSync(report, "utf8")).toContain("<svg");

      const parquet = join(dir, "counts.parquet");
      const exported = runUnder(minimum.node, [
        "export",
        "counts",
        "--db",
        db,
        "--format",
        "parquet",
        "--out",
        parquet,
      ]);
      // 48 rows imported, 6 of them counts of 0: the export holds the 42 that carry decisions.
      expect(exported.stderr).toContain("exported 42 counts row(s) as parquet");
      expect(readFileSync(parquet).subarray(0, 4).toString()).toBe("PAR1");
      expect(statSync(parquet).size).toBeGreaterThan(0);

      const client = new Client({ name: "minimum-node-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: minimum.node,
          args: [CLI, "serve", "--db", db, "--player", "on-node-20.0"],
          stderr: "ignore",
        }),
      );
      try {
        const started = await client.callTool({
          name: "start_match",
          arguments: { game: "prisoners-dilemma" },
        });
        const match = started.structuredContent as { match_id: string; labels: string[] };
        const moved = await client.callTool({
          name: "submit_move",
          arguments: { match_id: match.match_id, round: 1, choice: match.labels[0] },
        });
        expect(moved.isError).toBeFalsy();
        expect((moved.structuredContent as { finished: boolean }).finished).toBe(true);
      } finally {
        await client.close();
      }
    },
    300_000,
  );

  it.skipIf(withRelease(older.present))(
    `refuses Node.js ${OLDER_NODE_RELEASE} in one line, exit 2, for every verb`,
    () => {
      requireRelease(older);
      for (const args of [
        ["--version"],
        ["serve", "--db", join(dir, "older.db")],
        ["analyze", "equilibria"],
      ]) {
        const out = runUnder(older.node, args);
        expect(out.stdout).toBe("");
        expect(out.stderr).toBe(
          `same-game: needs Node.js ${MINIMUM_NODE} or later, and this is Node.js ${OLDER_NODE_RELEASE} (${older.node}): install Node.js 20 or later (https://nodejs.org) and run same-game with it.\n`,
        );
        expect(out.status).toBe(2);
      }
      expect(existsSync(join(dir, "older.db"))).toBe(false);
    },
  );

  it.skipIf(withRelease(otherAbiDiffers))(
    "names a SQLite driver built for another Node.js and how to rebuild it",
    () => {
      requireRelease(otherAbi);
      const out = runUnder(otherAbi.node, ["serve", "--db", join(dir, "other-abi.db")]);
      const lines = out.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^same-game: The SQLite driver \\(better-sqlite3\\) in .*node_modules/better-sqlite3 was built for another Node\\.js \\(NODE_MODULE_VERSION ${process.versions.modules}\\) than this Node\\.js ${OTHER_ABI_NODE_RELEASE} \\(NODE_MODULE_VERSION ${abiOf(otherAbi.node)}\\): run \`npm rebuild better-sqlite3\` in /.+ with this Node\\.js, or run same-game with the Node\\.js it was installed with\\.$`,
        ),
      );
      expect(out.status).toBe(2);
    },
  );
});
