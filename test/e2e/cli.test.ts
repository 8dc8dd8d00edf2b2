import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

const LORE = join(packageRoot(), "data", "lore-heydari-2024-business-vs-friend.csv");

let dir: string;
let db: string;
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-cli-"));
  db = join(dir, "record.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Estimate {
  estimate: number;
  ci: [number, number];
}

describe("same-game CLI", () => {
  it("imports the shipped published counts by reference and prints the DESIGN.md robustness shape", () => {
    expect(existsSync(LORE)).toBe(true);
    expect(runCli(["import", "counts", "--reference", "lore-heydari-2024", "--db", db]).status).toBe(0);
    const run = runCli([
      "analyze",
      "robustness",
      "--framings",
      "business,friend-sharing",
      "--attenuation",
      "0.7",
      "--bootstrap",
      "10000",
      "--seed",
      "1",
      "--json",
      "--db",
      db,
    ]);
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as {
      unit: string;
      attenuation: number;
      bootstrap: number;
      seed: number;
      framings: string[];
      games: { player: string; game: string; R: Estimate; shift: Estimate }[];
      players: { player: string; R: Estimate; shift: Estimate }[];
      pooled: { R: Estimate; shift: Estimate };
      checks: { name: string; ok: boolean; detail: string }[];
      notes: { name: string; detail: string }[];
    };
    expect(out).toMatchObject({ unit: "decision", attenuation: 0.7, bootstrap: 10000, seed: 1 });
    expect(out.framings).toEqual(["business", "friend-sharing"]);
    expect(out.games).toHaveLength(12); // 3 players × 4 games
    expect(out.players).toHaveLength(3);
    // gpt-4 in the prisoners-dilemma: 0/300 cooperate (business) vs 296/300 (friend-sharing).
    // Δ = 296/300 − 0 = 0.98667, attenuated: 0.7 · 0.98667 = 0.69067.
    const gpt4 = out.games.find((g) => g.player === "gpt-4" && g.game === "prisoners-dilemma");
    expect(gpt4?.shift.estimate).toBeCloseTo(0.7 * (296 / 300), 10);
    // Pooled values are the means of their parts.
    const meanR = out.games.reduce((s, g) => s + g.R.estimate, 0) / out.games.length;
    expect(out.pooled.R.estimate).toBeCloseTo(meanR, 12);
    // Every check passes on the published record; gpt-4/harmony is 300/300 in both framings, so its R
    // interval reaches 1 by test inversion, and that is said in a note, not as a failure.
    expect(out.checks.length).toBeGreaterThan(0);
    for (const check of out.checks) expect(check, check.detail).toMatchObject({ ok: true });
    expect(out.notes.map((n) => n.name)).toEqual(["interval_at_boundary"]);
    // The readable twin without attenuation: the same verdict, and the note set apart from the checks.
    const text = runCli(["analyze", "robustness", "--bootstrap", "2000", "--db", db]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(
      /All 5 verification checks ok\.\nNotes \(information, not failures\):\n- interval_at_boundary: /,
    );
    expect(text.stdout).not.toContain("FAILED");
  });

  it("says in the text when the bootstrap is too small for the invariance test to reject", () => {
    const counts = join(dir, "split.csv");
    writeFileSync(
      counts,
      "player,game,framing,action,count\ndet,prisoners-dilemma,business,cooperate,10\ndet,prisoners-dilemma,friend-sharing,defect,10\n",
    );
    expect(runCli(["import", "counts", counts, "--db", db]).status).toBe(0);
    const tiny = runCli(["analyze", "robustness", "--bootstrap", "2", "--db", db]);
    expect(tiny.status).toBe(0);
    expect(tiny.stdout).toMatch(
      /Notes \(information, not failures\):\n- permutations_too_few: With 2 permutations the invariance p-value is at least 1\/3 = 0\.333333, above 1 − confidence = 0\.05: the test cannot reject invariance/,
    );
    const enough = runCli(["analyze", "robustness", "--bootstrap", "19", "--db", db]);
    expect(enough.status, enough.stderr).toBe(0);
    expect(enough.stdout).toContain("Notes (information, not failures):");
    expect(enough.stdout).not.toContain("permutations_too_few");
  });

  it("exits 2 with one line naming the bad value, and records nothing from a bad file", () => {
    const bad = join(dir, "bad.csv");
    writeFileSync(
      bad,
      "player,game,framing,action,count\np,prisoners-dilemma,business,cooperate,5\np,chess,business,cooperate,1\n",
    );
    const run = runCli(["import", "counts", bad, "--db", db]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/line 3: unknown game "chess"; valid: .*prisoners-dilemma/);
    // The file was refused before any record was opened: none was created.
    expect(existsSync(db)).toBe(false);
    expect(runCli(["import", "counts", LORE, "--db", db, "--source", "kept"]).status).toBe(0);
    const empty = runCli(["analyze", "robustness", "--players", "nobody", "--db", db]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(
      /--players names nobody, who played nothing in the record; players of the record: .*gpt-4/,
    );
    expect(runCli(["analyze", "robustness", "--bootstrap", "many", "--db", db]).stderr).toMatch(
      /--bootstrap must be a whole number from 1 to 1000000, got "many"/,
    );
    expect(runCli(["frobnicate"]).status).toBe(2);
    expect(runCli(["analyze", "--help"]).status).toBe(0);
  });

  it("analyze power refuses a true R no second framing can reach from the baseline, in one line", () => {
    // From a baseline of ½ the farthest framing always chooses one action: JSD((½, ½), (1, 0)) =
    // ½·ln(½/¾) + ½·ln(½/¼) + ln(1/¾) all over 2 = 0.2158, so R = 1 − 0.2158/ln 2 = 0.6887, the lowest reachable.
    const sentence = (r: string) =>
      `same-game: True R ${r} is out of reach from a baseline rate of 0.5: even the other framing always choosing one action gives R = 0.689; give a true R of at least 0.689 or a baseline farther from ½.\n`;
    for (const r of ["0.5", "0"]) {
      const run = runCli(["analyze", "power", "--baseline", "0.5", "--delta", "0.1", "--true-r", r]);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(sentence(r));
    }
    const reachable = runCli([
      "analyze",
      "power",
      "--baseline",
      "0.5",
      "--delta",
      "0.1",
      "--true-r",
      "0.689",
      "--json",
    ]);
    expect(reachable.status, reachable.stderr).toBe(0);
    expect(JSON.parse(reachable.stdout).invariance_test.other_rate).toBeGreaterThan(0.99);
  });
});
