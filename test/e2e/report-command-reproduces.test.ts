import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { countsRecord } from "../support/counts-record.js";

// The report prints the command that recomputes it. Pasted into a POSIX shell, that command must give the
// same numbers: the same robustness section and the same leaderboard.

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-report-command-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function report(args: string[], out: string): string {
  const run = runCli(["report", ...args, "--bootstrap", "300", "--seed", "1", "--out", out]);
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(out, "utf8");
}

const UNESCAPE: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/** The provenance's command, as a reader copies it from the page. */
function printedCommand(page: string): string {
  const code = /<dt>Command<\/dt><dd><code>(.*?)<\/code><\/dd>/s.exec(page)?.[1];
  expect(code).toBeDefined();
  return (code as string).replace(/&(amp|lt|gt|quot|#39);/g, (e) => UNESCAPE[e] ?? e);
}

/** Runs the printed command through sh, with the built CLI for `same-game`, writing the page to `out`. */
function rerun(command: string, out: string): string {
  expect(command.startsWith("same-game report ")).toBe(true);
  const line = `"$SG_NODE" "$SG_CLI" ${command.slice("same-game ".length)} --out "$SG_OUT"`;
  const run = spawnSync("sh", ["-c", line], {
    encoding: "utf8",
    env: { ...process.env, SG_NODE: process.execPath, SG_CLI: CLI, SG_OUT: out },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(out, "utf8");
}

/** A section of the page, without what changes from run to run (the time it was generated). */
function section(page: string, id: string): string {
  const found = new RegExp(`<section id="${id}">.*?</section>`, "s").exec(page)?.[0];
  expect(found, `section ${id}`).toBeDefined();
  return found as string;
}

describe("the report's printed command", () => {
  it("recomputes the leaderboard when a player lacks one of the record's framings", () => {
    // p1 played business, friend-sharing and team; p2 business and friend-sharing only. Robustness compares
    // all three (leaving p2 out); the leaderboard ranks both on the two framings they share.
    const db = countsRecord(
      dir,
      "three",
      [
        "p1,prisoners-dilemma,business,cooperate,5",
        "p1,prisoners-dilemma,business,defect,5",
        "p1,prisoners-dilemma,friend-sharing,cooperate,6",
        "p1,prisoners-dilemma,friend-sharing,defect,4",
        "p1,prisoners-dilemma,team,cooperate,10",
        "p2,prisoners-dilemma,business,cooperate,2",
        "p2,prisoners-dilemma,business,defect,8",
        "p2,prisoners-dilemma,friend-sharing,cooperate,8",
        "p2,prisoners-dilemma,friend-sharing,defect,2",
      ],
      { freeFramings: true },
    );
    const first = report(["--db", db], join(dir, "three-1.html"));
    const command = printedCommand(first);
    expect(command).toContain("--framings business,friend-sharing,team");
    const again = rerun(command, join(dir, "three-2.html"));

    const board = section(first, "leaderboard");
    expect(section(again, "leaderboard")).toBe(board);
    expect(section(again, "robustness")).toBe(section(first, "robustness"));
    expect(board).not.toContain("No leaderboard");
    expect(board).toContain("over framings <bdi>business</bdi>, <bdi>friend-sharing</bdi>;");
    expect(board).toContain("so the leaderboard uses those every player played (not <bdi>team</bdi>)");

    // Its `analyze compare` command names the record: pasted where the default record is another (here,
    // none), it still ranks this one.
    const code = /<code>same-game analyze compare (.*?)<\/code>/s.exec(board)?.[1];
    expect(code).toBeDefined();
    const flags = (code as string).replace(/&(amp|lt|gt|quot|#39);/g, (e) => UNESCAPE[e] ?? e);
    expect(flags).toContain(`--db ${db}`);
    const elsewhere = mkdtempSync(join(tmpdir(), "same-game-elsewhere-"));
    try {
      const compare = spawnSync("sh", ["-c", `"$SG_NODE" "$SG_CLI" analyze compare ${flags}`], {
        encoding: "utf8",
        cwd: elsewhere,
        env: {
          ...process.env,
          SG_NODE: process.execPath,
          SG_CLI: CLI,
          XDG_DATA_HOME: elsewhere,
          SAME_GAME_DB: "",
        },
        timeout: 60_000,
      });
      expect(compare.status, compare.stderr).toBe(0);
      expect(compare.stdout).toMatch(/p1/);
      expect(compare.stdout).toMatch(/p2/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("quotes a framing that holds a comma, and the pasted command reads it back", () => {
    // "home, work": 3 cooperate, 1 defect; office: 2 and 2.
    const db = countsRecord(
      dir,
      "comma",
      [
        'dan,prisoners-dilemma,"home, work",cooperate,3',
        'dan,prisoners-dilemma,"home, work",defect,1',
        "dan,prisoners-dilemma,office,cooperate,2",
        "dan,prisoners-dilemma,office,defect,2",
      ],
      { freeFramings: true },
    );
    const first = report(["--db", db], join(dir, "comma-1.html"));
    const command = printedCommand(first);
    expect(command).toContain(`--framings '"home, work",office'`);
    const again = rerun(command, join(dir, "comma-2.html"));
    const robustness = section(first, "robustness");
    expect(robustness).toContain("Framings compared: <bdi>&quot;home, work&quot;</bdi>, <bdi>office</bdi>.");
    expect(section(again, "robustness")).toBe(robustness);
  });

  it("writes a framing holding an escape, a quote and a percent sign so that a shell reads it back", () => {
    const odd = "it's \u001b[1m50% \\ fair";
    const db = countsRecord(
      dir,
      "odd",
      [
        `eve,prisoners-dilemma,"${odd}",cooperate,3`,
        `eve,prisoners-dilemma,"${odd}",defect,1`,
        "eve,prisoners-dilemma,plain,cooperate,1",
        "eve,prisoners-dilemma,plain,defect,3",
      ],
      { freeFramings: true },
    );
    const first = report(["--db", db], join(dir, "odd-1.html"));
    const command = printedCommand(first);
    // Copied from a page, a control character would be lost: it is written as an octal escape.
    expect(command).not.toContain("\u001b");
    expect(command).toContain(`--framings "$(printf '`);
    const again = rerun(command, join(dir, "odd-2.html"));
    const robustness = section(first, "robustness");
    expect(robustness).toContain("Framings compared: ");
    expect(section(again, "robustness")).toBe(robustness);
  });
});
