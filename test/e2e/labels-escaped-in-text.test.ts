import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { countsRecord } from "../support/counts-record.js";

// Labels are the client's or a file's text: an escape sequence or a line break in a player, framing or
// opponent name is printed escaped by every text output, headers included, never sent raw to a terminal.

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-escaped-labels-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESC = "\u001b";

function text(args: string[]): string {
  const run = runCli([...args, "--bootstrap", "200", "--seed", "1"]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).not.toContain(ESC);
  return run.stdout;
}

describe("text outputs escape control characters in labels", () => {
  it("an escape sequence in a framing: the robustness header and the sensitivity column", () => {
    const db = countsRecord(
      dir,
      "esc",
      [`carol,prisoners-dilemma,"${ESC}[31mRED",cooperate,3`, "carol,prisoners-dilemma,plainB,defect,2"],
      { freeFramings: true },
    );
    const robustness = text(["analyze", "robustness", "--db", db]).split("\n");
    expect(robustness[0]).toBe(
      "Robustness over framings \\x1b[31mRED, plainB (variant base); shift = plainB minus \\x1b[31mRED.",
    );
    const sensitivity = text(["analyze", "sensitivity", "--db", db]);
    expect(sensitivity).toMatch(/^player +game +Δu +V_λ +λ̂ \\x1b\[31mRED +λ̂ plainB$/m);
  });

  it("a line break in a framing keeps each header on one line", () => {
    const db = countsRecord(
      dir,
      "nl",
      ['bob,prisoners-dilemma,"fr\nA",cooperate,3', "bob,prisoners-dilemma,frB,defect,2"],
      { freeFramings: true },
    );
    const robustness = text(["analyze", "robustness", "--db", db]).split("\n");
    expect(robustness[0]).toBe(
      'Robustness over framings "fr\\x0aA", frB (variant base); shift = frB minus "fr\\x0aA".',
    );
    expect(robustness[1]).toMatch(/^Bootstrap B = 200/);
    const sensitivity = text(["analyze", "sensitivity", "--db", db]);
    expect(sensitivity).toMatch(/^player +game +Δu +V_λ +λ̂ fr\\x0aA +λ̂ frB$/m);
  });

  it("an escape sequence in an imported match's player and opponent: analyze repeated", () => {
    const line = JSON.parse(
      readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8").split(
        "\n",
      )[0] as string,
    ) as Record<string, unknown>;
    const file = join(dir, "esc-matches.jsonl");
    writeFileSync(
      file,
      `${JSON.stringify({ ...line, player: `${ESC}[2Jmallory`, opponent: `tft${ESC}[0m` })}\n`,
    );
    const db = join(dir, "esc-matches.db");
    const imported = runCli(["import", "matches", file, "--db", db]);
    expect(imported.status, imported.stderr).toBe(0);
    const run = runCli(["analyze", "repeated", "--db", db]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toContain("\\x1b[2Jmallory | repeated-pd/base | their-prompt | vs tft\\x1b[0m |");
  });
});
