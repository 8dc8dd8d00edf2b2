import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { tempDir } from "./runner-harness.js";

let dir: string;
let db: string;
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = tempDir("same-game-study-cli-");
  db = join(dir, "record.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const design = {
  name: "cli study",
  games: ["prisoners-dilemma", "stag-hunt"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: 3,
  seed: 2,
};

describe("same-game study", () => {
  it("registers a design file (id and hash), lists it and shows its design and progress", () => {
    const path = file("design.json", JSON.stringify(design));
    const registered = runCli(["study", "register", path, "--db", db]);
    expect(registered.status, registered.stderr).toBe(0);
    const [id, hash] = (registered.stdout.split("\n")[0] as string).split(" ");
    expect(id).toMatch(/^study-[0-9a-f]{12}$/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // The same design again is the same study (register_study is idempotent by hash).
    const again = JSON.parse(runCli(["study", "register", path, "--db", db, "--json"]).stdout);
    expect(again).toMatchObject({
      study_id: id,
      design_hash: hash,
      created: false,
      cells: 4,
      trials_per_player: 12,
    });

    const list = runCli(["study", "list", "--db", db]);
    expect(list.stdout).toContain(`${id}`);
    expect(list.stdout).toContain("4 cells");
    const show = JSON.parse(runCli(["study", "show", id as string, "--db", db, "--json"]).stdout);
    expect(show.design.trials_per_cell).toBe(3);
    expect(show.cells).toHaveLength(4);
    expect(show.players).toEqual([]);
  });

  it("prints a name's line break escaped, one study per line, with times in UTC said as such", () => {
    const path = file("design.json", JSON.stringify({ ...design, name: "zwei\nZeilen" }));
    const registered = runCli(["study", "register", path, "--db", db]);
    expect(registered.stdout.split("\n")[1]).toBe(
      "registered: zwei\\x0aZeilen (4 cells, 12 trials per player)",
    );
    const id = (registered.stdout.split(" ")[0] as string).trim();
    const list = runCli(["study", "list", "--db", db]).stdout.trimEnd().split("\n");
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(
      new RegExp(`^${id}  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  .*  zwei\\\\x0aZeilen$`),
    );
    expect(runCli(["study", "show", id, "--db", db]).stdout.split("\n")[0]).toBe(`${id}: zwei\\x0aZeilen`);
  });

  it("refuses bad files and ids with one line naming the problem (exit 2)", () => {
    const bad = runCli(["study", "register", file("bad.json", "{ nope"), "--db", db]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json is not JSON/);
    const unknown = runCli([
      "study",
      "register",
      file("unknown.json", JSON.stringify({ ...design, framings: ["business", "pirates"] })),
      "--db",
      db,
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("pirates");
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    const missing = runCli([
      "study",
      "register",
      file("short.json", JSON.stringify({ name: "x" })),
      "--db",
      db,
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("games");
    expect(
      runCli(["study", "register", file("design.json", JSON.stringify(design)), "--db", db]).status,
    ).toBe(0);
    const noStudy = runCli(["study", "show", "study-000000000000", "--db", db]);
    expect(noStudy.status).toBe(2);
    expect(noStudy.stderr).toContain('No study with id "study-000000000000"');
    expect(runCli(["study", "frobnicate", "--db", db]).stderr).toContain("register, list, show");
  });

  it("refuses a misspelt key anywhere in the design, naming it, the likely key and the valid ones", () => {
    const refusal = (extra: Record<string, unknown>) => {
      const run = runCli([
        "study",
        "register",
        file("typo.json", JSON.stringify({ ...design, ...extra })),
        "--db",
        db,
      ]);
      expect(run.status).toBe(2);
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      return (lines[0] as string).replace(`${join(dir, "typo.json")}: `, "");
    };
    const topKeys =
      "name, games, variants, framings, labels, styles, opponents, trials_per_cell, seed, planned_contrasts, history_mode, reveal_horizon, adaptive";
    // Dropped silently, each would register a study without the stopping rule, contrasts or opponents asked for.
    expect(refusal({ adaptiv: { rule: "invariance" } })).toBe(
      `same-game: unknown key "adaptiv" (did you mean "adaptive"?); valid keys: ${topKeys}`,
    );
    expect(refusal({ planned_contrast: [{ baseline: "business", comparison: "friend-sharing" }] })).toBe(
      `same-game: unknown key "planned_contrast" (did you mean "planned_contrasts"?); valid keys: ${topKeys}`,
    );
    expect(refusal({ opponent: [{ id: "tit-for-tat" }] })).toBe(
      `same-game: unknown key "opponent" (did you mean "opponents"?); valid keys: ${topKeys}`,
    );
    expect(refusal({ opponents: [{ id: "random", param: {} }] })).toBe(
      'same-game: opponents.0: unknown key "param" (did you mean "params"?); valid keys: id, params',
    );
    expect(refusal({ adaptive: { rule: "invariance", tset: "within_block_permutation" } })).toBe(
      'same-game: adaptive: unknown key "tset" (did you mean "test"?); valid keys: rule, width_target, test, alpha, look_every_blocks, min_blocks',
    );
    // A misspelt required key is named as the typo it is, not as the key it left missing.
    expect(refusal({ adaptive: { rul: "invariance" } })).toBe(
      'same-game: adaptive: unknown key "rul" (did you mean "rule"?); valid keys: rule, width_target, test, alpha, look_every_blocks, min_blocks',
    );
    expect(refusal({ colour: "blue" })).toBe(`same-game: unknown key "colour"; valid keys: ${topKeys}`);
    expect(existsSync(db)).toBe(false);
  });

  it("refuses a bad value of a design field naming the field, the value and the valid ones", () => {
    const refusal = (extra: Record<string, unknown>) => {
      const run = runCli([
        "study",
        "register",
        file("bad.json", JSON.stringify({ ...design, ...extra })),
        "--db",
        db,
      ]);
      expect(run.status).toBe(2);
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      return (lines[0] as string).replace(`${join(dir, "bad.json")}: `, "");
    };
    expect(refusal({ styles: ["cot"] })).toBe(
      'same-game: styles.0: "cot" is not a style; valid: zero-shot, chain-of-thought, persona',
    );
    // The nearest valid value where one is a likely typo.
    expect(refusal({ variants: ["base", "bse"] })).toBe(
      'same-game: variants.1: "bse" is not a variant (did you mean "base"?); valid: base, label, payoff, joint',
    );
    expect(refusal({ labels: ["storytrue"] })).toBe(
      'same-game: labels.0: "storytrue" is not a label set (did you mean "story-true"?); valid: story-true, familiar, neutral',
    );
    expect(refusal({ history_mode: "all" })).toBe(
      'same-game: history_mode: "all" is not a history mode; valid: none, last, full',
    );
    expect(refusal({ adaptive: { rule: "invariant" } })).toBe(
      'same-game: adaptive.rule: "invariant" is not a rule (did you mean "invariance"?); valid: invariance, width, invariance_or_width',
    );
    expect(refusal({ seed: 1.5 })).toBe(
      "same-game: seed: 1.5 is not a seed; give a whole number or a string of 1 to 100 characters",
    );
    for (const bad of [0, -1, 2.5, "3"]) {
      expect(refusal({ trials_per_cell: bad })).toBe(
        `same-game: trials_per_cell: ${JSON.stringify(bad)} is not a whole number from 1 to 100000`,
      );
    }
    expect(refusal({ reveal_horizon: "yes" })).toBe('same-game: reveal_horizon: "yes" is not true or false');
    expect(existsSync(db)).toBe(false);
  });

  it("leaves no new record behind when a command refuses its input", () => {
    const refused = (args: string[]) => {
      const run = runCli([...args, "--db", db]);
      expect(run.status, run.stdout).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      // Not even an empty record (151 KB of schema) where the user pointed --db.
      expect(existsSync(db), run.stderr).toBe(false);
      return run.stderr;
    };
    expect(
      refused(["study", "register", file("bad.json", JSON.stringify({ ...design, framings: ["pirates"] }))]),
    ).toContain("None of the framings pirates applies to prisoners-dilemma");
    expect(
      refused([
        "import",
        "counts",
        file("bad.csv", "player,game,framing,action,count\np,chess,business,cooperate,1\n"),
      ]),
    ).toContain('line 2: unknown game "chess"');
    expect(refused(["import", "matches", file("bad.jsonl", '{"player":"p","game":"chess"}\n')])).toContain(
      "line 1:",
    );
    // A study runs in the record it was registered in: a record that does not exist holds none.
    expect(
      refused(["run", "--study", "study-000000000000", "--model", "m", "--base-url", "http://127.0.0.1:9"]),
    ).toBe(
      `same-game: No record at ${db}; check --db (a study runs in the record it was registered in: same-game study register FILE.json --db PATH).\n`,
    );
  });
});
