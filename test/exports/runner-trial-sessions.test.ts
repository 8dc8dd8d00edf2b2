import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "../runner/runner-harness.js";
import { runCli } from "../support/built-cli.js";

// `same-game run` starts every trial from its one stdio MCP session and decides each in a session of its
// own, so a trial's match row names the runner's session while its decision names the trial's. The
// analyses resample the decision's session; `export matches --format jsonl` must write that one, or the
// record imported from it would resample the whole study as one session.

const box = useRunSandbox("same-game-trial-sessions-");

interface Robustness {
  games: {
    player: string;
    unit: string;
    R: { ci: number[] };
    shift: { estimate: number; ci: number[] };
    distributions: Record<string, { n: number; distribution: Record<string, number> }>;
  }[];
  players: { player: string; unit: string; cluster_scope: string }[];
}

const robustness = (db: string): Robustness => {
  const run = runCli(["analyze", "robustness", "--json", "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Robustness;
};

it("exports each runner trial's match with the session its decision was made in, so the import analyses alike", async () => {
  box.endpoint = await startScriptedEndpoint();
  const study = registerStudy(box.db, pdDesign("trial sessions", 6, 3));
  // The story-swayed agent, whose choices differ between framings and trials (the payoff reader always
  // defects: every interval would be one point whatever the sessions).
  const run = await runCliAsync(scriptedRunArgs(box, study, [], box.db, "scripted/story-swayed"));
  expect(run.status, run.stderr).toBe(0);
  // 12 trials: 12 decisions in 12 sessions, all started from one session of the runner.
  const sessions = query<{ decision: string; match: string }>(
    box.db,
    "SELECT d.session_id AS decision, m.session_id AS match FROM decisions d JOIN matches m ON m.id = d.match_id",
  );
  expect(sessions).toHaveLength(12);
  expect(new Set(sessions.map((s) => s.decision)).size).toBe(12);
  expect(new Set(sessions.map((s) => s.match)).size).toBe(1);

  const jsonl = join(box.dir, "matches.jsonl");
  const exported = runCli(["export", "matches", "--format", "jsonl", "--out", jsonl, "--db", box.db]);
  expect(exported.status, exported.stderr).toBe(0);
  const lines = readFileSync(jsonl, "utf8").trimEnd().split("\n");
  expect(new Set(lines.map((l) => (JSON.parse(l) as { session: string }).session))).toEqual(
    new Set(sessions.map((s) => s.decision)),
  );

  const importedDb = join(box.dir, "imported.db");
  const imported = runCli(["import", "matches", jsonl, "--db", importedDb]);
  expect(imported.status, imported.stderr).toBe(0);
  const live = robustness(box.db);
  const fromExport = robustness(importedDb);
  // business 2/6 cooperate, friend-sharing 3/6: a shift of 1/6, resampled trial by trial in both records
  // (one decision per session is drawn by decision).
  const shares = Object.values(live.games[0]?.distributions ?? {}).map((d) => d.distribution.cooperate);
  expect(shares.map((share) => (share ?? 0) * 6)).toEqual([2, 3].map((n) => expect.closeTo(n, 12)));
  expect(live.games[0]?.shift.estimate).toBeCloseTo(1 / 6, 12);
  expect(fromExport.games).toEqual(live.games);
  expect(fromExport.players).toEqual(live.players);
  expect(fromExport.players.map((p) => p.unit)).toEqual(["decision"]);
}, 120_000);
