import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedChecks } from "../../src/agents/demo-summary.js";
import { type DemoResult, runDemo } from "../../src/agents/run-demo.js";
import { connectAgent } from "../../src/agents/stdio-player.js";
import { reportChecks, reportNotes } from "../../src/report/report-data.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// The calibration contract of the reference agents: the demo runs in-process, but every move
// still goes through a spawned `same-game serve` (the built CLI) over stdio. Small study: 4 games × 2
// framings × 8 trials per agent, in 8 sessions; 1 repeated match per opponent.

let dir: string;
let demo: DemoResult;

beforeAll(async () => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-demo-test-"));
  demo = await runDemo({
    dbPath: join(dir, "demo.db"),
    out: join(dir, "report.html"),
    seed: 7,
    trialsPerCell: 8,
    repeatedTrialsPerCell: 1,
    bootstrap: 2000,
    publishedCounts: null,
    cliPath: CLI,
  });
}, 240_000); // a loaded machine needs more than two minutes for the demo
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const games = (player: string) => demo.report.robustness?.games.filter((g) => g.player === player) ?? [];

describe("same-game demo with the three reference agents", () => {
  it("records every planned trial: 64 one-shot trials and 2 repeated matches per agent", () => {
    // 4 games × 2 framings × 8 trials = 64; 1 opponent cell × 2 opponents = 2.
    expect(demo.studies.map((s) => s.trials_per_player)).toEqual([64, 2]);
    const cells = demo.report.cooperation ?? [];
    for (const agent of ["payoff-reader", "story-swayed", "uniform"]) {
      const own = cells.filter((c) => c.player === agent);
      expect(own).toHaveLength(8);
      expect(own.every((c) => c.n === 8)).toBe(true);
    }
  });

  it("finds the payoff-reader robust (R ≥ 0.95) in every game, defecting in PD and snowdrift only", () => {
    // Against a ½ belief: PD ū(C) = (5+2)/2 = 3.5 < ū(D) = (10+3)/2 = 6.5; snowdrift 4 < 6; stag hunt 6 > 4;
    // harmony 6.5 > 3.5 — so it cooperates exactly in stag hunt and harmony, whatever the story.
    expect(games("payoff-reader")).toHaveLength(4);
    for (const g of games("payoff-reader")) expect(g.R.estimate).toBeGreaterThanOrEqual(0.95);
    const rates = (demo.report.cooperation ?? []).filter((c) => c.player === "payoff-reader");
    for (const c of rates) expect(c.rate).toBe(c.game === "stag-hunt" || c.game === "harmony" ? 1 : 0);
  });

  it("finds the story-swayed agent cooperating more among friends, the shift's CI excluding 0", () => {
    // Business prompts contain the stems firm and profit (lean −2: P(C) = 1/(1+e^1.2) ≈ 0.23); friend-sharing
    // prompts contain friend and together (lean +2: P(C) ≈ 0.77); the expected shift is ≈ 0.54.
    const player = demo.report.robustness?.players.find((p) => p.player === "story-swayed");
    expect(player?.shift?.estimate).toBeGreaterThan(0);
    expect(player?.shift?.ci[0]).toBeGreaterThan(0);
  });

  it("finds the uniform agent payoff-blind: every pooled λ interval includes 0", () => {
    const pooled = demo.report.sensitivity?.pooled.filter((p) => p.player === "uniform") ?? [];
    expect(pooled.map((p) => p.framing).sort()).toEqual(["business", "friend-sharing"]);
    for (const p of pooled) expect(p.lambda.ci[0]).toBe(0);
  });

  it("plays tit-for-tat in repeated PD: full cooperation against tit-for-tat", () => {
    // TFT vs TFT cooperates all 16 rounds: 16 × 4 = 64 points, comprehension from round 1.
    const cell = demo.report.repeated?.find(
      (c) => c.player === "payoff-reader" && c.opponent === "tit-for-tat",
    );
    expect(cell?.mean_total_points).toBe(64);
    expect(cell?.mean_cooperation_rate).toBe(1);
    expect(cell?.mean_comprehension_round).toBe(1);
  });

  it("passes every verification check and says where intervals sit in notes, not as failures", () => {
    const checks = reportChecks(demo.report);
    expect(checks.length).toBeGreaterThan(5);
    for (const check of checks) expect(check, check.detail).toMatchObject({ ok: true });
    // The payoff-reader plays the same action in both framings: R = 1, its interval reaches 1 by test inversion.
    const boundary = reportNotes(demo.report).find((n) => n.name === "interval_at_boundary");
    expect(boundary?.detail).toMatch(/R of payoff-reader\/harmony: upper end 1 by test inversion/);
    expect(failedChecks(demo.report)).toMatch(
      /^Verification: all \d+ checks passed\.\nNotes .*interval_at_boundary/,
    );
  });

  it("writes a self-contained report whose charts are SVG with axis titles and no external URL", () => {
    const page = readFileSync(demo.reportPath, "utf8");
    expect(page.match(/<svg[\s>]/g)?.length).toBeGreaterThanOrEqual(4);
    for (const title of ["Cooperation rate", "Robustness R", "Payoff sensitivity λ", "Round"]) {
      expect(page).toMatch(new RegExp(`<text[^>]*>${title}</text>`));
    }
    const urls = (page.match(/https?:\/\/[^\s"'<>)]*/g) ?? []).filter(
      (u) => !u.startsWith("http://www.w3.org/"),
    );
    expect(urls).toEqual([]);
    expect(page).not.toMatch(/\b(src|href)\s*=\s*["'](?!#)/);
    expect(page).not.toMatch(/url\(\s*["']?(?!#)/);
  });

  it("serves a study's report as the resource same-game://studies/{id}/report", async () => {
    const client = await connectAgent({ cliPath: CLI, dbPath: demo.dbPath }, "report-reader", "analysis");
    try {
      const oneShot = demo.studies[0]?.study_id;
      const listed = await client.listResources();
      expect(listed.resources.map((r) => r.uri)).toContain(`same-game://studies/${oneShot}/report`);
      const read = await client.readResource({ uri: `same-game://studies/${oneShot}/report` });
      const page = (read.contents[0] as { text: string }).text;
      expect(page).toContain("<svg");
      expect(page).toContain(demo.studies[0]?.name);
    } finally {
      await client.close();
    }
  });
});
