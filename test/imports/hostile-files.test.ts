import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";
import { type CliRun, requireBuiltCli, runCli } from "../support/built-cli.js";
import { describeEachEngine, freshRecord, type TestRecord } from "../support/postgres.js";

// Files an import must refuse rather than store something other than what they say, or hang, or crash:
// each refusal is exit 2 and one line naming the file's line (or the flag) and what is valid, on both
// engines, and the record keeps exactly what it held.

const HEADER = "player,game,framing,action,count";
const GOOD_ROW = "p,snowdrift,business,cooperate,7";
const MATCH = {
  player: "m",
  game: "repeated-pd",
  variant: "base",
  opponent: "tit-for-tat",
  rounds: Array.from({ length: 16 }, () => ({
    move: "cooperate",
    opponent_move: "cooperate",
    payoff: 4,
    opponent_payoff: 4,
  })),
};

function expectRefusal(run: CliRun, message: RegExp): void {
  expect(run.status, run.stderr).toBe(2);
  expect(run.stderr.trimEnd().split("\n"), run.stderr).toHaveLength(1);
  expect(run.stderr).toMatch(message);
  // Shown escaped, never acted on by the terminal.
  expect(run.stderr.includes("\u001b")).toBe(false);
}

beforeAll(() => requireBuiltCli());

describeEachEngine("import refuses a file that is not what it seems", (engine) => {
  let dir: string;
  let record: TestRecord;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "same-game-hostile-files-"));
    record = freshRecord(engine);
    // Something already recorded, which no refusal may touch.
    const csv = join(dir, "good.csv");
    writeFileSync(csv, `${HEADER}\n${GOOD_ROW}\n`);
    expect(runCli(["import", "counts", csv, "--db", record.location, "--source", "kept"]).status).toBe(0);
  });
  afterEach(() => {
    record.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const recorded = () => {
    const store = new Store(record.location);
    try {
      return {
        counts: store.importedCountSources().map((s) => [s.source, s.rows, s.decisions]),
        matches: store.countImportedMatches("bad.jsonl") + store.countImportedMatches("x"),
      };
    } finally {
      store.close();
    }
  };
  const KEPT = { counts: [["kept", 1, 7]], matches: 0 };
  const importFile = (
    kind: "counts" | "matches",
    name: string,
    bytes: Buffer | string,
    extra: string[] = [],
  ) => {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    return runCli(["import", kind, file, "--db", record.location, ...extra]);
  };

  it("refuses a NUL byte in a CSV label, and a NUL escaped in a JSONL label, with the line", () => {
    expectRefusal(
      importFile("counts", "bad.csv", `${HEADER}\n${GOOD_ROW}\np\u0000x,snowdrift,business,defect,1\n`),
      /bad\.csv: line 3: a NUL byte \(U\+0000\), which the record cannot store/,
    );
    const nulPlayer = JSON.stringify({ ...MATCH, player: "m\u0000x" });
    expectRefusal(
      importFile("matches", "bad.jsonl", `${JSON.stringify(MATCH)}\n${nulPlayer}\n`),
      /bad\.jsonl: line 2: player: contains a NUL character \(U\+0000 at position 1\)/,
    );
    expect(recorded()).toEqual(KEPT);
  });

  it("refuses bytes that are not UTF-8 instead of storing U+FFFD, with the line", () => {
    const latin1 = Buffer.concat([
      Buffer.from(`${HEADER}\n${GOOD_ROW}\n`),
      Buffer.from([0x63, 0x61, 0x66, 0xe9]), // "café" in Latin-1
      Buffer.from(",snowdrift,business,defect,1\n"),
    ]);
    expectRefusal(
      importFile("counts", "bad.csv", latin1),
      /bad\.csv: line 3: not valid UTF-8; save the file as UTF-8/,
    );
    const jsonl = Buffer.concat([
      Buffer.from(`${JSON.stringify(MATCH)}\n`),
      Buffer.from(JSON.stringify({ ...MATCH, player: "caf" }).replace('"caf"', '"caf\u00ff"'), "latin1"),
    ]);
    expectRefusal(importFile("matches", "bad.jsonl", jsonl), /bad\.jsonl: line 2: not valid UTF-8/);
    expect(recorded()).toEqual(KEPT);
  });

  it("refuses counts of a repeated game and framings that do not present the game, with the line", () => {
    // One good row first: a refusal stores none of the file.
    const counts = (row: string, extra: string[] = []) =>
      importFile("counts", "bad.csv", `${HEADER}\n${GOOD_ROW}\n${row}\n`, extra);
    expectRefusal(
      counts("q,repeated-pd,business,defect,4"),
      /^same-game: .*bad\.csv: line 3: repeated-pd is a repeated game \(16 rounds\) and counts are one-shot only; one-shot games: battle-of-the-sexes, chicken-large-stakes, coordination-3x3, harmony, matching-pennies, prisoners-dilemma, snowdrift, stag-hunt \(import a repeated game's transcripts with import matches\)\.$/m,
    );
    const threeActions =
      "framings that certify for coordination-3x3 (base): abstract-matrix, abstract-matrix+familiar, abstract-matrix+neutral, neutral-narrative, neutral-narrative+familiar, neutral-narrative+neutral";
    // The business story has two actions; coordination-3x3 three. Free labels do not make it fit.
    for (const extra of [[], ["--free-framings"]]) {
      const run = counts("q,coordination-3x3,business,left,3", extra);
      expectRefusal(run, /bad\.csv: line 3: /);
      expect(run.stderr).toContain(
        `line 3: framing "business" does not present coordination-3x3 (base); ${threeActions}.`,
      );
    }
    const misspelt = counts("q,coordination-3x3,bussiness,left,3");
    expectRefusal(misspelt, /line 3: unknown framing "bussiness"; /);
    expect(misspelt.stderr).toContain(`${threeActions} (or pass --free-framings`);
    expectRefusal(
      counts("q,prisoners-dilemma,rps-plain,defect,3"),
      /line 3: framing "rps-plain" does not present prisoners-dilemma \(base\); framings that certify for prisoners-dilemma \(base\): abstract-matrix, .*, business, .*, team\+neutral\.$/m,
    );
    // A transcript's framing is free provenance, unless it names a catalog framing that never presented its game.
    expectRefusal(
      importFile(
        "matches",
        "bad.jsonl",
        `${JSON.stringify(MATCH)}\n${JSON.stringify({ ...MATCH, framing: "business" })}\n`,
      ),
      /bad\.jsonl: line 2: framing "business" does not present repeated-pd \(base\); framings that certify for repeated-pd \(base\): repeated-plain, repeated-plain\+familiar, repeated-plain\+neutral\.$/m,
    );
    expect(recorded()).toEqual(KEPT);
  });

  it("names a Parquet file, a counts JSONL and a CSV given to the wrong import as what they are, with what each import reads", () => {
    const exported = (kind: string, format: string) => {
      const out = join(dir, `${kind}.${format}`);
      expect(runCli(["export", kind, "--format", format, "--out", out, "--db", record.location]).status).toBe(
        0,
      );
      return out;
    };
    const reads =
      "import counts reads CSV \\(what export counts writes with its default --format csv\\), import matches reads JSONL \\(what export matches --format jsonl writes\\)\\.$";
    // The tool's own Parquet export, given to either import: not refused for the NUL bytes inside it.
    const parquet = exported("counts", "parquet");
    for (const kind of ["counts", "matches"]) {
      expectRefusal(
        runCli(["import", kind, parquet, "--db", record.location, "--source", "x"]),
        new RegExp(
          `counts\\.parquet: a Parquet file \\(it starts with the bytes PAR1\\), not text; ${reads}`,
          "m",
        ),
      );
    }
    // Counts written as JSONL: not a quoting error of the CSV parser.
    expectRefusal(
      runCli(["import", "counts", exported("counts", "jsonl"), "--db", record.location, "--source", "x"]),
      new RegExp(
        `counts\\.jsonl: line 1: JSON \\(\\{"player":"p","game":"snowdrift",.*…\\), not CSV; ${reads}`,
        "m",
      ),
    );
    // And the other way round: CSV counts given to import matches.
    expectRefusal(
      importFile("matches", "bad.jsonl", `${HEADER}\n${GOOD_ROW}\n`, ["--source", "x"]),
      new RegExp(
        `bad\\.jsonl: line 1: not a JSON object \\(player,game,framing,action,count\\); ${reads}`,
        "m",
      ),
    );
    expect(recorded()).toEqual(KEPT);
  });

  it("reads a CSV whose lines end in CRLF and LF mixed, each row as the line it is on", () => {
    // A CRLF file with a row appended on Linux: CRLF header, LF row, CRLF row.
    const mixed = `${HEADER}\r\nq,snowdrift,business,cooperate,3\nq,snowdrift,business,defect,1\r\n`;
    const run = importFile("counts", "mixed.csv", mixed);
    expect(run.status, run.stderr).toBe(0);
    expect(recorded().counts).toEqual([...KEPT.counts, ["mixed.csv", 2, 4]]);
    // Line numbers stay the file's own: the bad count is on line 3.
    expectRefusal(
      importFile("counts", "bad.csv", `${HEADER}\r\n${GOOD_ROW}\nq,snowdrift,business,defect,x\r\n`),
      /bad\.csv: line 3: count "x" is not a whole number of decisions\.$/m,
    );
  });

  it("refuses a header that names count twice", () => {
    expectRefusal(
      importFile(
        "counts",
        "bad.csv",
        `player,game,framing,action,count,count\np,snowdrift,business,cooperate,7,9\n`,
      ),
      /bad\.csv: line 1: the header names the column "count" twice/,
    );
    expect(recorded()).toEqual(KEPT);
  });

  it("refuses an endless character device after reading at most 64 MiB, for both kinds", () => {
    for (const kind of ["counts", "matches"]) {
      const t0 = performance.now();
      const run = runCli(["import", kind, "/dev/zero", "--db", record.location, "--source", "x"]);
      expectRefusal(run, /\/dev\/zero: larger than 64 MiB, the most an import reads/);
      expect(performance.now() - t0).toBeLessThan(30_000);
    }
    expect(recorded()).toEqual(KEPT);
  });

  it("refuses a --source with control characters or longer than 200 characters, for both kinds", () => {
    const csv = `${HEADER}\n${GOOD_ROW}\n`;
    for (const [kind, name, text] of [
      ["counts", "ok.csv", csv],
      ["matches", "ok.jsonl", `${JSON.stringify(MATCH)}\n`],
    ] as const) {
      expectRefusal(
        importFile(kind, name, text, ["--source", "evil\u001b[2J\nforged line"]),
        /--source must be 1 to 200 characters with no control character .*got "evil\\x1b\[2J\\x0aforged line"/,
      );
      expectRefusal(
        importFile(kind, name, text, ["--source", "s".repeat(100_000)]),
        /--source must be 1 to 200 characters .*\(100000 characters\)/,
      );
    }
    expect(recorded()).toEqual(KEPT);
    // 200 characters is a label like any other.
    expect(importFile("counts", "ok.csv", csv, ["--source", "s".repeat(200)]).status).toBe(0);
  });
});
