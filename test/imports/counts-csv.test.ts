import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUBLISHED_COUNTS } from "../../src/agents/run-demo.js";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { packageRoot } from "../../src/package-root.js";
import { Store } from "../../src/store/store.js";
import { shippedCatalog, tempDeps } from "../support/harness.js";

const catalog = shippedCatalog();
const HEADER = "player,game,framing,action,count";
const parse = (text: string, freeFramings = false) =>
  parseCountsCsv(text, "f.csv", catalog, { freeFramings });

describe("parseCountsCsv (csv-parse)", () => {
  it("reads R's write.csv output: every field quoted, row names in an unnamed first column", () => {
    const text = [
      '"","player","game","framing","action","count"',
      '"1","gpt-4","prisoners-dilemma","business","cooperate",0',
      '"2","gpt-4","prisoners-dilemma","business","defect",300',
    ].join("\n");
    expect(parse(text)).toEqual([
      {
        player: "gpt-4",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "business",
        action: "cooperate",
        count: 0,
      },
      {
        player: "gpt-4",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "business",
        action: "defect",
        count: 300,
      },
    ]);
  });

  it("keeps a quoted comma inside a label, and accepts a BOM and CRLF line ends", () => {
    const text = `\uFEFF${HEADER}\r\n"model, v2",snowdrift,business,cooperate,7\r\n`;
    expect(parse(text)).toEqual([
      {
        player: "model, v2",
        game: "snowdrift",
        variant: "base",
        framing: "business",
        action: "cooperate",
        count: 7,
      },
    ]);
  });

  it("refuses an empty count with the file line, not the row index", () => {
    // Line 2 is fine, line 3 is blank (skipped), line 4 has the empty count.
    const text = `${HEADER}\np,snowdrift,business,cooperate,7\n\np,snowdrift,business,defect,\n`;
    expect(() => parse(text)).toThrow(/^f\.csv: line 4: count is empty/);
  });

  it("counts lines across a quoted field that spans two lines", () => {
    const text = `${HEADER}\n"two\nlines",snowdrift,business,cooperate,7\np,snowdrift,business,defect,x\n`;
    expect(() => parse(text)).toThrow(/^f\.csv: line 4: count "x" is not a whole number/);
  });

  it("refuses an unknown framing unless free provenance labels are declared", () => {
    const text = `${HEADER}\np,snowdrift,business-meeting,cooperate,7\n`;
    expect(() => parse(text)).toThrow(
      /line 2: unknown framing "business-meeting"; framings that certify for snowdrift \(base\): .*business.*--free-framings/,
    );
    expect(parse(text, true)[0]?.framing).toBe("business-meeting");
  });

  it("refuses a count the analysis cannot hold, per row and per cell", () => {
    expect(() => parse(`${HEADER}\np,snowdrift,business,cooperate,1000000000\n`)).toThrow(
      /line 2: count 1000000000 is above 1000000/,
    );
    expect(() =>
      parse(`${HEADER}\np,snowdrift,business,cooperate,600000\np,snowdrift,business,defect,600000\n`),
    ).toThrow(/line 3: the cell p \/ snowdrift \/ business would hold 1200000 decisions/);
  });

  it("refuses negative and fractional counts, a missing column and unbalanced quotes", () => {
    expect(() => parse(`${HEADER}\np,snowdrift,business,cooperate,-1\n`)).toThrow(/line 2: count "-1"/);
    expect(() => parse(`${HEADER}\np,snowdrift,business,cooperate,1.5\n`)).toThrow(/line 2: count "1.5"/);
    expect(() => parse("player,game,action,count\np,snowdrift,cooperate,1\n")).toThrow(
      /line 1: .*missing framing/,
    );
    expect(() => parse(`${HEADER}\n"p,snowdrift,business,cooperate,1\n`)).toThrow(/^f\.csv:.* not valid CSV/);
  });
});

describe("parseCountsCsv: the optional session column", () => {
  const SESSIONS = "player,game,framing,session,action,count";

  it("keeps each row's session, leaves it out for an empty field, and a file without the column as before", () => {
    const text = `${SESSIONS}\np,snowdrift,business,conv-1,cooperate,3\np,snowdrift,business,,defect,2\n`;
    expect(parse(text).map((r) => [r.session, r.action, r.count])).toEqual([
      ["conv-1", "cooperate", 3],
      [undefined, "defect", 2],
    ]);
    // The empty session is absent, not "": the row is stored as decisions without a session.
    expect(Object.keys(parse(text)[1] ?? {})).not.toContain("session");
    expect(Object.keys(parse(`${HEADER}\np,snowdrift,business,cooperate,7\n`)[0] ?? {})).toEqual([
      "player",
      "game",
      "variant",
      "framing",
      "action",
      "count",
    ]);
  });

  it("counts one action once per session: two sessions may both hold it, one session not twice", () => {
    const twoSessions = `${SESSIONS}\np,snowdrift,business,1,cooperate,3\np,snowdrift,business,2,cooperate,1\n`;
    expect(parse(twoSessions)).toHaveLength(2);
    expect(() => parse(`${twoSessions}p,snowdrift,business,2,cooperate,4\n`)).toThrow(
      /^f\.csv: line 4: a second count for p \/ snowdrift \/ business \/ cooperate in session "2"\.$/,
    );
    // The cell's total over its sessions is what the analysis holds.
    expect(() =>
      parse(
        `${SESSIONS}\np,snowdrift,business,1,cooperate,600000\np,snowdrift,business,2,cooperate,600000\n`,
      ),
    ).toThrow(/line 3: the cell p \/ snowdrift \/ business would hold 1200000 decisions/);
  });

  it("refuses a session label that is too long or holds a control character, naming the line", () => {
    expect(() => parse(`${SESSIONS}\np,snowdrift,business,${"s".repeat(201)},cooperate,1\n`)).toThrow(
      /^f\.csv: line 2: session is longer than 200 characters\.$/,
    );
    expect(
      parse(`${SESSIONS}\np,snowdrift,business,${"s".repeat(200)},cooperate,1\n`)[0]?.session,
    ).toHaveLength(200);
    expect(() => parse(`${SESSIONS}\np,snowdrift,business,"a\tb",cooperate,1\n`)).toThrow(
      /^f\.csv: line 2: session "a\\tb" contains a control character/,
    );
    expect(() => parse(`${SESSIONS}\np,snowdrift,business,a\u0000b,cooperate,1\n`)).toThrow(
      /line 2: session "a\\u0000b" contains a control character/,
    );
  });

  it("names the optional columns when the header has an unknown one", () => {
    expect(() => parse("player,game,framing,conversation,action,count\n")).toThrow(
      /line 1: the header must name the columns player,game,framing,action,count \(and optionally variant, session\); unknown column "conversation"/,
    );
  });
});

describe("the shipped reference data", () => {
  it("lives in the package's own data/ folder, where the demo and an installed package look", () => {
    expect(PUBLISHED_COUNTS).toBe(join(packageRoot(), "data", "lore-heydari-2024-business-vs-friend.csv"));
    expect(existsSync(PUBLISHED_COUNTS)).toBe(true);
    const pkg = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("data");
  });
});

describe("import counts (CLI verb on a real record)", () => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps();
    deps.store.close();
  });
  afterEach(() => deps.dispose());

  const run = (argv: string[]) => importCommand.run(parseCommandArgs(importCommand, ["counts", ...argv]));
  const stored = () => {
    const store = new Store(deps.dbPath, { readonly: true });
    try {
      return store.db
        .prepare("SELECT player, action, count FROM imported_counts ORDER BY player, action")
        .all();
    } finally {
      store.close();
    }
  };

  it("replaces a source whole when a corrected, shorter file is imported again with --replace", async () => {
    const file = join(deps.dir, "counts.csv");
    writeFileSync(file, `${HEADER}\na,snowdrift,business,cooperate,1\nb,snowdrift,business,cooperate,2\n`);
    await run([file, "--db", deps.dbPath, "--source", "paper"]);
    writeFileSync(file, `${HEADER}\na,snowdrift,business,cooperate,3\n`);
    await run([file, "--db", deps.dbPath, "--source", "paper", "--replace"]);
    expect(stored()).toEqual([{ player: "a", action: "cooperate", count: 3 }]);
  });

  it("writes nothing when any line is bad (all or nothing)", async () => {
    const file = join(deps.dir, "counts.csv");
    writeFileSync(file, `${HEADER}\na,snowdrift,business,cooperate,1\nb,snowdrift,business,cooperate,\n`);
    await expect(run([file, "--db", deps.dbPath])).rejects.toThrow(/line 3: count is empty/);
    expect(stored()).toEqual([]);
  });

  it("imports the shipped reference by id: 48 rows, 7,200 decisions under the source lore-heydari-2024", async () => {
    await run(["--reference", "lore-heydari-2024", "--db", deps.dbPath]);
    const store = new Store(deps.dbPath, { readonly: true });
    try {
      expect(store.importedCountSources()).toMatchObject([
        { source: "lore-heydari-2024", rows: 48, decisions: 7200 },
      ]);
    } finally {
      store.close();
    }
    await expect(run(["--reference", "lore-heydari-2023", "--db", deps.dbPath])).rejects.toThrow(
      /Unknown counts reference "lore-heydari-2023"; references: lore-heydari-2024/,
    );
  });
});
