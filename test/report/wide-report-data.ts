import type {
  CooperationCell,
  EquilibriumCell,
  RepeatedCell,
  ReportData,
  SensitivityResult,
} from "../../src/report/report-data.js";
import { EXAMPLE_REPORT } from "./example-report-data.js";

// The example report made as wide and as crowded as real records make it: an imported player with a long
// name (the widest cells of every table), a cooperation rate of exactly 0, the λ̂ of four games all 0 in
// one column (their labels meet), four repeated cells in a three-column grid (two empty places), and an
// equilibrium table of 24 rows with every column filled.

const IMPORTED = "gpt-3.5-turbo-16k";
const GAMES = ["harmony", "prisoners-dilemma", "snowdrift", "stag-hunt"];
const FRAMINGS = ["business", "friend-sharing"];
const PLAYERS = [IMPORTED, "payoff-reader", "story-swayed"];

const cooperation: CooperationCell[] = PLAYERS.flatMap((player) =>
  GAMES.flatMap((game) =>
    FRAMINGS.map((framing, f) => {
      // The payoff-reader never cooperates in the prisoner's dilemma: a rate of exactly 0.
      const rate = player === "payoff-reader" && game === "prisoners-dilemma" ? 0 : 0.2 + 0.3 * f;
      const n = player === IMPORTED ? 300 : 20;
      return { player, game, framing, rate, ci: [Math.max(0, rate - 0.1), rate + 0.1], n };
    }),
  ),
);

const sensitivity: SensitivityResult = {
  cells: PLAYERS.flatMap((player) =>
    GAMES.flatMap((game, g) =>
      FRAMINGS.map((framing) => ({
        player,
        game,
        framing,
        // story-swayed: λ̂ = 0 in every game, so its four labels would sit on one spot.
        lambda: player === "story-swayed" ? 0 : player === "payoff-reader" ? 20 : 2 + g,
      })),
    ),
  ),
  pooled: PLAYERS.flatMap((player) =>
    FRAMINGS.map((framing) => ({
      player,
      framing,
      lambda: { estimate: player === "payoff-reader" ? 20 : 1, ci: [0, player === "payoff-reader" ? 20 : 3] },
    })),
  ),
};

const equilibrium: EquilibriumCell[] = PLAYERS.flatMap((player) =>
  GAMES.flatMap((game) =>
    FRAMINGS.map((framing) => ({
      player,
      game,
      variant: "base",
      framing,
      n: player === IMPORTED ? 300 : 20,
      distribution: { cooperate: 0.35, defect: 0.65 },
      equilibrium_strategy: { cooperate: 0.17, defect: 0.83 },
      total_variation: 0.183,
      exploitability: 0.183,
      template_persistence: null,
    })),
  ),
);

const [first] = EXAMPLE_REPORT.repeated ?? [];
if (!first) throw new Error("the example report has no repeated cell");
const repeated: RepeatedCell[] = [
  { ...first, opponent: "tit-for-tat" },
  { ...first, opponent: "best-response-last" },
  // Ten rounds and no match ever comprehended: m = 11 for each, the cell reads "never".
  { ...first, player: "story-swayed", mean_comprehension_round: 11 },
  { ...first, player: "story-swayed", opponent: "best-response-last", mean_comprehension_round: 4.5 },
];

export const WIDE_REPORT: ReportData = {
  ...EXAMPLE_REPORT,
  header: {
    ...EXAMPLE_REPORT.header,
    players: PLAYERS,
    provenance: {
      server_version: "0.1.0",
      catalog_fingerprint: "5c2e9b0a17d3",
      seed: 1,
      bootstrap: 2000,
      command: "same-game report --db demo.db --seed 1 --bootstrap 2000",
      imported: [
        {
          source: "lore-heydari-2024",
          kind: "counts",
          rows: 48,
          decisions: 4800,
          sessions: 0,
          players: [IMPORTED],
          citation: null,
        },
      ],
    },
  },
  cooperation,
  robustness: EXAMPLE_REPORT.robustness
    ? {
        ...EXAMPLE_REPORT.robustness,
        games: [
          ...EXAMPLE_REPORT.robustness.games,
          {
            player: IMPORTED,
            game: "prisoners-dilemma",
            R: { estimate: 0.935, ci: [0.899, 0.964] },
            shift: { estimate: 0.237, ci: [0.173, 0.3] },
          },
        ],
      }
    : null,
  sensitivity,
  equilibrium,
  repeated,
};

export const WIDE_REPORT_REPEATED_CELLS = repeated.length;
