import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

// Usage errors of the CLI are one clean line with one prefix: a negative number after a numeric flag is
// that flag's value (its range check answers), and an unknown study id names the ids the record holds
// and the command that registers one — and exits 2 in every verb that takes --study, export included.

let dir = "";
let db = "";
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-usage-lines-"));
  db = join(dir, "record.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Registers a small study through the CLI; its id. */
function register(name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name,
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: 2,
      seed: name.length,
    }),
  );
  const run = runCli(["study", "register", file, "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split(" ")[0] as string;
}

/** The one line of a usage error, after checking it is one line and exit 2. */
function usageLine(args: string[]): string {
  const run = runCli(args);
  expect(run.status, run.stderr).toBe(2);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toContain("\\x0a");
  return lines[0] as string;
}

describe("the CLI's usage lines", () => {
  it("takes a negative number after a numeric flag as its value, so the range check answers", () => {
    const study = register("negatives");
    const run = (...flags: string[]) =>
      usageLine([
        "run",
        "--study",
        study,
        "--model",
        "m",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--db",
        db,
        ...flags,
      ]);
    expect(run("--max-calls", "-1")).toBe(
      'same-game: --max-calls must be a whole number from 1 to 1000000000000, got "-1".',
    );
    expect(run("--timeout", "-5")).toBe('same-game: --timeout must be a number from 0.1 to 3600, got "-5".');
    const prices = join(dir, "prices.json");
    writeFileSync(prices, JSON.stringify({ m: { input_per_mtok: 1, output_per_mtok: 2 } }));
    expect(run("--prices", prices, "--max-cost", "-1")).toBe(
      'same-game: --max-cost must be a number from 0 to 1000000000, got "-1".',
    );
    // An empty value is no $0 budget and hex no number of calls: every numeric flag reads decimal only.
    expect(run("--prices", prices, "--max-cost", "")).toBe(
      'same-game: --max-cost must be a number from 0 to 1000000000, got "" (it is empty).',
    );
    expect(run("--max-calls", "0x10")).toBe(
      'same-game: --max-calls must be a whole number from 1 to 1000000000000, got "0x10", written in decimal digits.',
    );
    // A negative value inside the flag's range is simply taken.
    const power = runCli(["analyze", "power", "--delta", "-0.5", "--json"]);
    expect(power.stderr).not.toContain("ambiguous");
  });

  it("states a range that excludes its lower end as such, never as a bound it refuses or as 5e-324", () => {
    register("bounds");
    // --threshold 0 was answered by the analysis's own schema ("Too small: expected number to be >0")
    // after the flag's check had said "from 0 to 1"; --attenuation printed its bound as Number.MIN_VALUE.
    expect(usageLine(["analyze", "repeated", "--threshold", "0", "--db", db])).toBe(
      'same-game: --threshold must be a number above 0 and at most 1, got "0".',
    );
    expect(usageLine(["analyze", "robustness", "--attenuation", "0", "--db", db])).toBe(
      'same-game: --attenuation must be a number above 0 and at most 1, got "0".',
    );
    expect(usageLine(["analyze", "robustness", "--attenuation", "1.5", "--db", db])).toBe(
      'same-game: --attenuation must be a number above 0 and at most 1, got "1.5".',
    );
  });

  it("names an unknown option under one prefix", () => {
    const line = usageLine(["run", "--frobnicate"]);
    expect(line).toMatch(/^same-game: run: Unknown option '--frobnicate' \(its flags: --study, --model, /);
  });

  it("refuses an unknown study in every verb with exit 2, naming the ids the record holds and `same-game study register`", () => {
    const ids = ["one", "two", "three", "four", "five", "six"].map(register);
    const listed = `${ids.slice(0, 5).join(", ")}, … (6 in all: same-game study list)`;
    const expected = `same-game: No study with id "study-nope"; the record holds ${listed}; register one with same-game study register FILE.json.`;
    const out = join(dir, "decisions.csv");
    for (const args of [
      ["study", "show", "study-nope"],
      ["analyze", "robustness", "--study", "study-nope"],
      ["analyze", "repeated", "--study", "study-nope"],
      ["report", "--study", "study-nope", "--out", join(dir, "r.html")],
      ["export", "decisions", "--study", "study-nope", "--out", out],
    ]) {
      expect(usageLine([...args, "--db", db]), args.join(" ")).toBe(expected);
    }
    expect(() => readFileSync(out)).toThrow();
  });
});
