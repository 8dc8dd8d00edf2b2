// The 144 strict ordinal 2×2 games in the numbering of Robinson & Goforth (2005, "The Topology of the 2x2
// Games: A New Periodic Table"), the family TMGBench plays as its "classic" games. A game's number is
// layer, row, column: "111" is layer 1, row 1, column 1 (the Prisoner's Dilemma).
//
// How the table is built (it reproduces TMGBench's 144 classic payoff tables cell for cell; the test pins
// them): every player ranks the four outcomes 1 (worst) to 4 (best). The layer fixes where each player's 4
// sits: in layers 1 and 4 the row player's 4 is at (A2, B2), in layers 2 and 3 at (A1, B2); in layers 1 and
// 2 the column player's 4 is at (A1, B1), in layers 3 and 4 at (A1, B2). Within a layer, moving one row
// down swaps two adjacent ranks of the row player (1↔2, then 2↔3, alternately), and moving one column
// right does the same to the column player; six steps return to the start. The patterns carry the names
// Bruns (2015, "Names for Games: Locating 2 × 2 Games") gives the twelve symmetric games, so "row Chicken,
// column Battle" is the game whose row player has Chicken's preferences and column player Battle's.

/** `m[i][j]`: a player's rank when the row player takes row i (A1, A2) and the column player column j. */
export type RankMatrix = readonly [readonly [number, number], readonly [number, number]];

export interface OrdinalGame {
  /** Robinson–Goforth number: layer (1–4), row (1–6), column (1–6), as "111". */
  readonly number: string;
  readonly layer: number;
  readonly row: number;
  readonly column: number;
  /** The row player's ranks, `[row][column]`. */
  readonly rowRanks: RankMatrix;
  /** The column player's ranks, `[row][column]`. */
  readonly columnRanks: RankMatrix;
  /** Bruns's name of the row player's preference pattern (and of the column player's). */
  readonly rowPattern: string;
  readonly columnPattern: string;
}

interface Pattern {
  readonly name: string;
  readonly ranks: RankMatrix;
}

// Row player's patterns with the 4 at (A2, B2) (layers 1, 4) and at (A1, B2) (layers 2, 3), rows 1–6.
const ROW_FOUR_BOTTOM_RIGHT: readonly Pattern[] = [
  {
    name: "Prisoner's Dilemma",
    ranks: [
      [1, 3],
      [2, 4],
    ],
  },
  {
    name: "Chicken",
    ranks: [
      [2, 3],
      [1, 4],
    ],
  },
  {
    name: "Battle",
    ranks: [
      [3, 2],
      [1, 4],
    ],
  },
  {
    name: "Hero",
    ranks: [
      [3, 1],
      [2, 4],
    ],
  },
  {
    name: "Compromise",
    ranks: [
      [2, 1],
      [3, 4],
    ],
  },
  {
    name: "Deadlock",
    ranks: [
      [1, 2],
      [3, 4],
    ],
  },
];
const ROW_FOUR_TOP_RIGHT: readonly Pattern[] = [
  {
    name: "Concord",
    ranks: [
      [2, 4],
      [1, 3],
    ],
  },
  {
    name: "Stag Hunt",
    ranks: [
      [1, 4],
      [2, 3],
    ],
  },
  {
    name: "Assurance",
    ranks: [
      [1, 4],
      [3, 2],
    ],
  },
  {
    name: "Coordination",
    ranks: [
      [2, 4],
      [3, 1],
    ],
  },
  {
    name: "Peace",
    ranks: [
      [3, 4],
      [2, 1],
    ],
  },
  {
    name: "Harmony",
    ranks: [
      [3, 4],
      [1, 2],
    ],
  },
];
// Column player's patterns with the 4 at (A1, B1) (layers 1, 2) and at (A1, B2) (layers 3, 4), columns 1–6:
// each is the row pattern of the same name seen from the other seat (see `mirrored`).
const COLUMN_FOUR_TOP_LEFT = ROW_FOUR_BOTTOM_RIGHT.map(mirrored);
const COLUMN_FOUR_TOP_RIGHT = ROW_FOUR_TOP_RIGHT.map(mirrored);

const LAYERS: readonly { rows: readonly Pattern[]; columns: readonly Pattern[] }[] = [
  { rows: ROW_FOUR_BOTTOM_RIGHT, columns: COLUMN_FOUR_TOP_LEFT },
  { rows: ROW_FOUR_TOP_RIGHT, columns: COLUMN_FOUR_TOP_LEFT },
  { rows: ROW_FOUR_TOP_RIGHT, columns: COLUMN_FOUR_TOP_RIGHT },
  { rows: ROW_FOUR_BOTTOM_RIGHT, columns: COLUMN_FOUR_TOP_RIGHT },
];

/**
 * A row player's pattern as the column player's: in the table's orientation the column player's B1/B2
 * stand where the row player's A2/A1 stand, so the column player's rank at (i, j) is the row pattern's
 * rank at (1 − j, 1 − i). A game whose two patterns share a name is therefore symmetric.
 */
function mirrored(pattern: Pattern): Pattern {
  const m = pattern.ranks;
  return {
    name: pattern.name,
    ranks: [
      [m[1][1], m[0][1]],
      [m[1][0], m[0][0]],
    ],
  };
}

/** The 144 games in Robinson–Goforth order: layer 1 row 1 column 1 ("111") to layer 4 row 6 column 6. */
export function robinsonGoforthGames(): OrdinalGame[] {
  return LAYERS.flatMap(({ rows, columns }, l) =>
    rows.flatMap((rowPattern, r) =>
      columns.map((columnPattern, c) => ({
        number: `${l + 1}${r + 1}${c + 1}`,
        layer: l + 1,
        row: r + 1,
        column: c + 1,
        rowRanks: rowPattern.ranks,
        columnRanks: columnPattern.ranks,
        rowPattern: rowPattern.name,
        columnPattern: columnPattern.name,
      })),
    ),
  );
}

/** The action ids of every family game: the row player's A1/A2 and the column player's B1/B2. */
export const ORDINAL_ACTIONS = ["first", "second"] as const;

/** The id a family game has in the catalog: `rg-111`. */
export function ordinalGameId(number: string): string {
  return `rg-${number}`;
}

/**
 * A family game as a catalog game file (the format of `games/`): the ranks are the points, the agent takes
 * the row seat, and `column_payoffs[own][other]` gives the column player's, so the table's orientation is
 * kept: action "first" is A1 for the row player and B1 for the column player.
 */
export function ordinalGameFile(game: OrdinalGame): Record<string, unknown> {
  const [first, second] = ORDINAL_ACTIONS;
  const at = (m: RankMatrix, row: number, column: number) => m[row]?.[column] as number;
  const table = (m: RankMatrix, rowIsOwn: boolean) => {
    const cell = (own: number, other: number) => (rowIsOwn ? at(m, own, other) : at(m, other, own));
    return {
      [first]: { [first]: cell(0, 0), [second]: cell(0, 1) },
      [second]: { [first]: cell(1, 0), [second]: cell(1, 1) },
    };
  };
  const symmetric = game.rowPattern === game.columnPattern;
  return {
    id: ordinalGameId(game.number),
    title: symmetric
      ? `Robinson–Goforth ${game.number}: ${game.rowPattern}`
      : `Robinson–Goforth ${game.number}: row ${game.rowPattern}, column ${game.columnPattern}`,
    actions: [...ORDINAL_ACTIONS],
    cooperative_action: null,
    rounds: 1,
    payoffs: table(game.rowRanks, true),
    column_payoffs: table(game.columnRanks, false),
    variants: { base: { labels: "familiar" } },
  };
}
