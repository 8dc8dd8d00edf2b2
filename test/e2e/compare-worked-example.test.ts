import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

// The worked example of docs/science.md and README: `analyze compare` on the published counts. The docs
// quote the CLI's output; this runs the command and holds the docs to it, so neither can drift alone.
const page = (name: string) => readFileSync(join(packageRoot(), name), "utf8");

/** The fenced block between the markers of docs/science.md. */
function quotedExample(): string {
  const text = page("docs/science.md");
  const block = /<!-- compare-example:begin -->\n```\n([\s\S]*?)\n```\n<!-- compare-example:end -->/.exec(
    text,
  );
  if (!block) throw new Error("docs/science.md has no compare-example block");
  return block[1] as string;
}

let dir: string;
let output: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-compare-example-"));
  const db = join(dir, "record.db");
  expect(runCli(["import", "counts", "--reference", "lore-heydari-2024", "--db", db]).status).toBe(0);
  const run = runCli(["analyze", "compare", "--framings", "business,friend-sharing", "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  output = run.stdout.trimEnd();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the compare worked example", () => {
  it("is what docs/science.md quotes, figure for figure", () => {
    expect(output).toBe(quotedExample());
  });

  it("has the figures the prose reads from it", () => {
    // gpt-3.5 first and gpt-4 last on R, each surely (rank intervals of one rank).
    expect(output).toMatch(/^1 +gpt-3\.5-turbo-16k +0\.953 +\[0\.936, 0\.965\] +\[1, 1\] +1$/m);
    expect(output).toMatch(/^3 +gpt-4 +0\.501 +\[0\.486, 0\.522\] +\[3, 3\] +3$/m);
    expect(output).toMatch(/^R +gpt-3\.5-turbo-16k +gpt-4 +0\.452 +\[0\.425, 0\.474\]/m);
    expect(output).toMatch(/^shift +gpt-4 +llama-2 +-0\.022 +\[-0\.048, 0\.004\] +0\.109 +0\.109/m);
    expect(output).toMatch(/^exploitability +gpt-4 +llama-2 +-0\.046 +\[-0\.088, -0\.003\] +0\.034/m);
    expect(output).toMatch(/^3 +llama-2 +0\.154 +\[0\.101, 0\.158\] +\[2, 3\] +2$/m);
    expect(output).toMatch(/^1 +gpt-4 +3\.155 +\[3\.053, 3\.223\] +\[1, 1\]/m);
  });

  it("is quoted in the README's summary", () => {
    const readme = page("README.md");
    const quoted = /<!-- compare-summary:begin -->\n```\n([\s\S]*?)\n```\n<!-- compare-summary:end -->/.exec(
      readme,
    );
    expect(quoted, "README has no compare-summary block").not.toBeNull();
    for (const line of (quoted?.[1] ?? "").split("\n")) expect(output).toContain(line);
  });
});
