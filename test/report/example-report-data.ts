import type { ReportData, RobustnessValues } from "../../src/report/report-data.js";

// Two players × two games × two framings, shaped like the demo's calibration agents: the payoff-reader
// chooses the same under both stories, the story-swayed agent cooperates more among friends.
// R values are 1 − JSD/ln 2 of the two Bernoulli distributions, computed by hand:
//   story-swayed PD: rates 0.30 vs 0.75 → R = 0.848; stag hunt: 0.45 vs 0.80 → R = 0.903.

const same = (estimate: number): RobustnessValues["R"] => ({ estimate, ci: [0.962, 0.999] });

export const EXAMPLE_REPORT: ReportData = {
  header: {
    title: "same-game report",
    generated_at: "2026-11-30T04:40:00Z",
    database: "/home/user/.local/share/same-game/demo.sqlite",
    study: { id: "study-7", name: "demo: business vs friend-sharing", design_hash: "3f9a1c0d52e4" },
    players: ["payoff-reader", "story-swayed"],
  },
  cooperation: [
    {
      player: "payoff-reader",
      game: "prisoners-dilemma",
      framing: "business",
      rate: 0.02,
      ci: [0, 0.075],
      n: 40,
    },
    {
      player: "payoff-reader",
      game: "prisoners-dilemma",
      framing: "friend-sharing",
      rate: 0.02,
      ci: [0, 0.075],
      n: 40,
    },
    { player: "payoff-reader", game: "stag-hunt", framing: "business", rate: 0.96, ci: [0.9, 1], n: 40 },
    {
      player: "payoff-reader",
      game: "stag-hunt",
      framing: "friend-sharing",
      rate: 0.96,
      ci: [0.9, 1],
      n: 40,
    },
    {
      player: "story-swayed",
      game: "prisoners-dilemma",
      framing: "business",
      rate: 0.3,
      ci: [0.15, 0.45],
      n: 40,
    },
    {
      player: "story-swayed",
      game: "prisoners-dilemma",
      framing: "friend-sharing",
      rate: 0.75,
      ci: [0.6, 0.875],
      n: 40,
    },
    { player: "story-swayed", game: "stag-hunt", framing: "business", rate: 0.45, ci: [0.3, 0.6], n: 40 },
    {
      player: "story-swayed",
      game: "stag-hunt",
      framing: "friend-sharing",
      rate: 0.8,
      ci: [0.675, 0.925],
      n: 40,
    },
  ],
  robustness: {
    unit: "decision",
    attenuation: 1,
    bootstrap: 10000,
    seed: 1,
    framings: ["business", "friend-sharing"],
    games: [
      {
        player: "payoff-reader",
        game: "prisoners-dilemma",
        R: same(1),
        shift: { estimate: 0, ci: [-0.05, 0.05] },
      },
      { player: "payoff-reader", game: "stag-hunt", R: same(1), shift: { estimate: 0, ci: [-0.075, 0.075] } },
      {
        player: "story-swayed",
        game: "prisoners-dilemma",
        R: { estimate: 0.848, ci: [0.705, 0.962] },
        shift: { estimate: 0.45, ci: [0.25, 0.65] },
      },
      {
        player: "story-swayed",
        game: "stag-hunt",
        R: { estimate: 0.903, ci: [0.78, 0.985] },
        shift: { estimate: 0.35, ci: [0.15, 0.55] },
      },
    ],
    players: [
      { player: "payoff-reader", R: same(1), shift: { estimate: 0, ci: [-0.045, 0.045] } },
      // (0.848 + 0.903) / 2 = 0.8755; (0.45 + 0.35) / 2 = 0.40
      {
        player: "story-swayed",
        R: { estimate: 0.8755, ci: [0.78, 0.95] },
        shift: { estimate: 0.4, ci: [0.26, 0.54] },
      },
    ],
    // (1 + 1 + 0.848 + 0.903) / 4 = 0.93775; (0 + 0 + 0.45 + 0.35) / 4 = 0.2
    pooled: { R: { estimate: 0.93775, ci: [0.89, 0.975] }, shift: { estimate: 0.2, ci: [0.13, 0.27] } },
    order_effect: [
      { player: "gpt-4o", decisions: 240, first_listed_rate: { estimate: 0.6, ci: [0.537, 0.66] } },
    ],
    checks: [
      { name: "R in [0, 1]", ok: true, detail: "all 7 values of R lie in [0, 1]" },
      {
        name: "CI contains estimate",
        ok: false,
        detail:
          "payoff-reader R = 1 lies above its interval [0.962, 0.999]: every replicate is below the boundary",
      },
      { name: "shifts in [-1, 1]", ok: true, detail: "all 7 shifts lie in [-1, 1]" },
    ],
  },
  sensitivity: {
    cells: [
      { player: "payoff-reader", game: "prisoners-dilemma", framing: "business", lambda: 20 },
      { player: "payoff-reader", game: "prisoners-dilemma", framing: "friend-sharing", lambda: 20 },
      { player: "payoff-reader", game: "stag-hunt", framing: "business", lambda: 14.2 },
      { player: "payoff-reader", game: "stag-hunt", framing: "friend-sharing", lambda: 14.2 },
      { player: "story-swayed", game: "prisoners-dilemma", framing: "business", lambda: 3.4 },
      { player: "story-swayed", game: "prisoners-dilemma", framing: "friend-sharing", lambda: 0 },
      { player: "story-swayed", game: "stag-hunt", framing: "business", lambda: 1.1 },
      { player: "story-swayed", game: "stag-hunt", framing: "friend-sharing", lambda: null },
    ],
    pooled: [
      { player: "payoff-reader", framing: "business", lambda: { estimate: 16.5, ci: [12.1, 20] } },
      { player: "payoff-reader", framing: "friend-sharing", lambda: { estimate: 16.5, ci: [12.1, 20] } },
      { player: "story-swayed", framing: "business", lambda: { estimate: 2.2, ci: [0.8, 3.9] } },
      { player: "story-swayed", framing: "friend-sharing", lambda: { estimate: 0.4, ci: [0, 1.7] } },
    ],
  },
  repeated: [
    {
      player: "payoff-reader",
      game: "prisoners-dilemma",
      variant: "base",
      framing: "business",
      opponent: "tit-for-tat",
      opponent_params: {},
      matches: 5,
      mean_total_points: 28.4,
      mean_cooperation_rate: 0.9,
      mean_comprehension_round: 1,
      // success flags 0,1,1,1,1,1,1,1,1,1 → from round 1: 9/10 = 0.9, from round 2 on: 1
      curve: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((round) => ({
        round,
        success_share: round === 1 ? 0.9 : 1,
      })),
    },
    {
      player: "story-swayed",
      game: "prisoners-dilemma",
      variant: "base",
      framing: "friend-sharing",
      opponent: "tit-for-tat",
      opponent_params: {},
      matches: 5,
      mean_total_points: 21.0,
      mean_cooperation_rate: null,
      mean_comprehension_round: 6,
      // success flags 1,0,0,1,0,1,1,1,1,1 → 7/10, 6/9, 6/8, 6/7, 5/6, then 1 from round 6 on
      curve: [0.7, 6 / 9, 0.75, 6 / 7, 5 / 6, 1, 1, 1, 1, 1].map((success_share, i) => ({
        round: i + 1,
        success_share,
      })),
    },
  ],
  checks: [
    { name: "decisions match the design", ok: true, detail: "320 decisions in 8 cells, as registered" },
  ],
};
