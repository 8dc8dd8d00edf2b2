import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { countsRecord } from "../support/counts-record.js";

// A mistyped player or game in a filter is refused by name with the valid ones, never dropped: a ranking
// of the players that remain would pass for the ranking asked for. And when the filters, or a player
// lacking a framing, leave too little to rank, the refusal says which and what would rank the rest.

let dir: string;
/** alpha and beta played the prisoner's dilemma and the stag hunt under both stories, gamma the dilemma. */
let db: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-filter-values-"));
  db = countsRecord(dir, "three", [
    ...["alpha", "beta"].flatMap((player) =>
      ["prisoners-dilemma", "stag-hunt"].flatMap((game) => [
        `${player},${game},business,cooperate,${player === "alpha" ? 20 : 10}`,
        `${player},${game},business,defect,10`,
        `${player},${game},friend-sharing,cooperate,10`,
        `${player},${game},friend-sharing,defect,20`,
      ]),
    ),
    "gamma,prisoners-dilemma,business,cooperate,15",
    "gamma,prisoners-dilemma,business,defect,15",
    "gamma,prisoners-dilemma,friend-sharing,cooperate,5",
    "gamma,prisoners-dilemma,friend-sharing,defect,25",
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quick = ["--bootstrap", "200", "--seed", "1"];

/** Runs the CLI and expects a refusal: exit 2, nothing on stdout, this one line on stderr. */
function refused(args: string[], line: string): void {
  const run = runCli(args);
  expect(run.status, run.stdout).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toBe(`same-game: ${line}\n`);
}

const UNKNOWN_PLAYER =
  "--players names nobody, who played nothing in the record; players of the record: alpha, beta, gamma.";

describe("player and game filters name something of the record", () => {
  it("refuses a player the record does not hold in every analysis that takes --players", () => {
    for (const verb of [
      ["analyze", "compare", ...quick],
      ["export", "leaderboard", ...quick],
      ["analyze", "robustness", ...quick],
      ["analyze", "sensitivity", ...quick],
      ["analyze", "story-labels", ...quick],
      ["analyze", "repeated"],
    ]) {
      refused([...verb, "--db", db, "--players", "alpha,beta,nobody"], UNKNOWN_PLAYER);
    }
    // The same players without the typo are ranked.
    const run = runCli(["analyze", "compare", ...quick, "--db", db, "--players", "alpha,beta", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).groups).toEqual(["alpha", "beta"]);
  });

  it("refuses a game no one played, saying which are not games at all and which games were played", () => {
    refused(
      ["analyze", "compare", ...quick, "--db", db, "--games", "prisoners-dilemma,nosuchgame"],
      "--games names nosuchgame (no game of the catalog), not played in the record (variant base); games played: prisoners-dilemma, stag-hunt.",
    );
    // A catalog game the selected players did not play: gamma played the dilemma only.
    refused(
      ["analyze", "robustness", ...quick, "--db", db, "--players", "gamma", "--games", "stag-hunt"],
      "--games names stag-hunt, not played by gamma (variant base); games played: prisoners-dilemma.",
    );
  });

  it("refuses a framing no decision was made under by its flag, --framings, in each analysis that takes it", () => {
    // Over MCP the same refusal names the tool's argument, framings (test/mcp/unknown-filter-ids.test.ts).
    const line =
      "--framings names nosuch, under which nothing matching was played; framings with decisions: business, friend-sharing.";
    refused(["analyze", "robustness", ...quick, "--db", db, "--framings", "business,nosuch"], line);
    refused(["analyze", "compare", ...quick, "--db", db, "--framings", "business,nosuch"], line);
    refused(
      ["report", ...quick, "--db", db, "--framings", "business,nosuch", "--out", join(dir, "x.html")],
      line,
    );
  });

  it("says that the selection, not the record, holds one player, and names the record's others", () => {
    refused(
      ["analyze", "compare", ...quick, "--db", db, "--players", "alpha"],
      "A comparison needs at least two groups; the selection (players alpha, variant base) holds only 'alpha'; the other players of the record: beta, gamma.",
    );
  });

  it("does not offer as another player one the filter already names, and says that one has nothing in the selection", () => {
    // gamma played the dilemma only: of alpha and gamma, the stag hunt holds alpha alone.
    refused(
      ["analyze", "compare", ...quick, "--db", db, "--players", "alpha,gamma", "--games", "stag-hunt"],
      "A comparison needs at least two groups; the selection (players alpha, gamma, games stag-hunt, variant base) holds only 'alpha', and gamma has no one-shot decisions in it; the other players of the record: beta.",
    );
  });
});

describe("a player lacking a framing the others played", () => {
  it("is named by compare and the report, with the players and the command that rank the others", () => {
    const all = countsRecord(dir, "one-story-short", [
      "alpha,prisoners-dilemma,business,cooperate,20",
      "alpha,prisoners-dilemma,business,defect,10",
      "alpha,prisoners-dilemma,friend-sharing,cooperate,10",
      "alpha,prisoners-dilemma,friend-sharing,defect,20",
      "beta,prisoners-dilemma,business,cooperate,10",
      "beta,prisoners-dilemma,friend-sharing,cooperate,10",
      "beta,prisoners-dilemma,friend-sharing,defect,20",
      "noFriend,prisoners-dilemma,business,cooperate,20",
    ]);
    refused(
      ["analyze", "compare", ...quick, "--db", all],
      "compare needs at least two distinct framings every group played; of business, friend-sharing, noFriend played only business (framings with decisions: business, friend-sharing); --players alpha,beta compares the others, who played them all.",
    );
    const html = join(dir, "one-story-short.html");
    const report = runCli(["report", "--db", all, "--seed", "1", "--bootstrap", "200", "--out", html]);
    expect(report.status, report.stderr).toBe(0);
    const command = `same-game analyze compare --db ${all} --players alpha,beta --framings business,friend-sharing --seed 1 --bootstrap 200`;
    expect(readFileSync(html, "utf8")).toContain(
      `No leaderboard: a rank needs every player on the same two framings or more, and of business, friend-sharing, noFriend played only business; the other players played them all, and ${command} ranks them.`,
    );
    // The command it gives ranks the two.
    const ranked = runCli([...command.split(" ").slice(1), "--json"]);
    expect(ranked.status, ranked.stderr).toBe(0);
    expect(JSON.parse(ranked.stdout).groups).toEqual(["alpha", "beta"]);
  });
});

describe("story-labels' --stories and --labels name something of the record", () => {
  it("refuses a story or a label set no decision was made under, naming the ones there are", () => {
    // Before, a mistyped story read "No (player, game) has decisions in every combination of stories
    // business, bussiness and label sets story-true." and a label set alone "found stories (none)".
    refused(
      ["analyze", "story-labels", ...quick, "--db", db, "--stories", "business,bussiness"],
      "--stories names bussiness, under which nothing matching was played; stories with decisions: business, friend-sharing.",
    );
    refused(
      ["analyze", "story-labels", ...quick, "--db", db, "--labels", "familiar"],
      "--labels names familiar, under which nothing matching was played; label sets with decisions: story-true.",
    );
    const run = runCli([
      "analyze",
      "story-labels",
      ...quick,
      "--db",
      db,
      "--stories",
      "business,friend-sharing",
      "--labels",
      "story-true",
      "--json",
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).stories).toEqual(["business", "friend-sharing"]);
  });
});
