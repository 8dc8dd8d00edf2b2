// A verb loads only what it runs: vega, vega-lite (reports) and the MCP client and model SDKs (run, demo)
// stay out of `--help`, `analyze` and `serve`, which is most of a cold start. `serve`, `import` and
// `analyze` run from bundles (dist/bundle/): the probe counts what each bundle file it loads carries.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

const PROBE = join(import.meta.dirname, "../support/loaded-packages.mjs");
const HEAVY = ["vega", "vega-lite", "@modelcontextprotocol/client", "openai", "@anthropic-ai/sdk"];
const dir = mkdtempSync(join(tmpdir(), "same-game-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The npm packages a CLI run resolved (stdin closed at once, so `serve` ends when its input does). */
function packagesLoadedBy(args: string[]): Set<string> {
  const file = join(dir, `${args.join("_").replace(/\W/g, "")}.txt`);
  const run = spawnSync(process.execPath, ["--import", PROBE, CLI, ...args], {
    input: "",
    encoding: "utf8",
    env: { ...process.env, LOADED_PACKAGES_FILE: file },
    timeout: 30_000,
  });
  expect(run.error).toBeUndefined();
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {}
  return new Set(text.split("\n").filter((l) => l !== ""));
}

describe("verbs load lazily", () => {
  requireBuiltCli();
  const db = join(dir, "record.db");

  it.each([["--help"], ["analyze", "--help"], ["analyze", "power", "--db", db], ["serve", "--db", db]])(
    "same-game %s loads none of vega, vega-lite, the MCP client or the model SDKs",
    (...args: string[]) => {
      const loaded = packagesLoadedBy(args);
      expect(HEAVY.filter((p) => loaded.has(p))).toEqual([]);
    },
  );

  it("the probe sees inside a bundle: serve's carries zod and the MCP server SDK, from dist/bundle/serve", () => {
    const loaded = packagesLoadedBy(["serve", "--db", db]);
    expect(loaded.has("zod")).toBe(true);
    expect(loaded.has("@modelcontextprotocol/server")).toBe(true);
  });

  it("the probe sees them when a verb does need them (report loads vega and vega-lite)", () => {
    const loaded = packagesLoadedBy(["report", "--db", db, "--out", join(dir, "r.html")]);
    expect(loaded.has("vega")).toBe(true);
    expect(loaded.has("vega-lite")).toBe(true);
  });
});
