// All Nash equilibria of a bimatrix stage game (SPEC §5) by support enumeration.
//
// For each player we enumerate the candidate strategies that equal-size support pairs pin down: a support
// S of the player's own actions and a set T of the opponent's actions (|S| = |T|) that the strategy must
// make the opponent indifferent between. The square system "opponent's payoff equal on T, probabilities
// sum to 1" is solved exactly; a solution is kept when it is non-negative and T really holds best
// responses. In a nondegenerate game this is the textbook support enumeration. It is also exactly the list
// of vertices of the player's best-response polytope, because every vertex is fixed by some square
// subsystem of its tight constraints — so pairing the candidates (each support inside the other's best
// responses) finds every extreme equilibrium of a degenerate game too, including those whose supports
// differ in size.

import type { Distribution, StageGame } from "./bimatrix.js";
import { solveLinearSystem } from "./linear-solve.js";

/** Tolerance for non-negativity and for "no profitable deviation". */
export const EQUILIBRIUM_TOLERANCE = 1e-9;

/** Support enumeration is exhaustive over subsets; beyond this size it is the wrong tool. */
export const MAX_EQUILIBRIUM_ACTIONS = 6;

export interface Equilibrium {
  readonly row: Distribution;
  readonly column: Distribution;
  readonly payoffs: { readonly row: number; readonly column: number };
  readonly kind: "pure" | "mixed";
}

export interface EquilibriaResult {
  readonly equilibria: readonly Equilibrium[];
  /** True when some strategy has more pure best responses than its support size (SPEC §5). */
  readonly degenerate: boolean;
  readonly note: string | null;
}

const DEGENERATE_NOTE =
  "The game is degenerate (some strategy has more pure best responses than actions in its support), so " +
  "equilibria can form connected sets; the list holds every extreme equilibrium, and mixtures of listed " +
  "equilibria that share one player's strategy are equilibria too.";

/** Every Nash equilibrium (every extreme one in a degenerate game), pure equilibria first. */
export function nashEquilibria(game: StageGame): EquilibriaResult {
  assertSupportedShape(game);
  const n = game.actions.length;
  // rowPayoff[i][j]: row player's payoff for own action i against column action j; columnPayoff[j][i]:
  // the column player's payoff for own action j against row action i. Both read "[own][other]".
  // Each is rescaled to [0, 1] first: an affine change of one player's payoffs keeps every equilibrium,
  // and it puts the payoffs on the scale of the probabilities, so the tolerance and the singular-pivot
  // test mean the same for payoffs in millions as in units (unscaled, a prisoner's dilemma paying
  // 1,000,000 to 5,000,000 lost even its pure equilibrium to the pivot test).
  const rowPayoff = unitScaled(game.u1);
  const columnPayoff = unitScaled(transpose(game.u2, n));

  const rowCandidates = vertexStrategies(columnPayoff, n);
  const columnCandidates = vertexStrategies(rowPayoff, n);

  const equilibria: Equilibrium[] = [];
  for (const x of rowCandidates) {
    const columnReplies = bestResponses(columnPayoff, x);
    for (const y of columnCandidates) {
      if (!isSubset(support(y), columnReplies)) continue;
      if (!isSubset(support(x), bestResponses(rowPayoff, y))) continue;
      equilibria.push(toEquilibrium(game, x, y));
    }
  }
  equilibria.sort(compareEquilibria);

  const degenerate =
    rowCandidates.some((x) => bestResponses(columnPayoff, x).length > support(x).length) ||
    columnCandidates.some((y) => bestResponses(rowPayoff, y).length > support(y).length);
  return { equilibria, degenerate, note: degenerate ? DEGENERATE_NOTE : null };
}

/** Payoff of `own` strategy `x` against `other` strategy `y` for the player whose matrix is `payoff[own][other]`. */
export function expectedPayoff(
  payoff: readonly (readonly number[])[],
  x: readonly number[],
  y: readonly number[],
): number {
  let total = 0;
  x.forEach((xi, i) => {
    y.forEach((yj, j) => {
      total += xi * yj * ((payoff[i] as readonly number[])[j] as number);
    });
  });
  return total;
}

/** The distribution as a probability vector in the game's action order (missing actions are 0). */
export function toVector(game: StageGame, distribution: Distribution): number[] {
  return game.actions.map((a) => distribution[a] ?? 0);
}

/** A probability vector as a `{ action_id: probability }` map in the game's action order. */
export function toDistribution(game: StageGame, vector: readonly number[]): Distribution {
  return Object.fromEntries(game.actions.map((a, i) => [a, vector[i] as number]));
}

/**
 * Strategies of one player fixed by square indifference systems. `opponentPayoff[t][s]` is the
 * opponent's payoff for its action t against this player's action s.
 */
function vertexStrategies(opponentPayoff: readonly (readonly number[])[], n: number): number[][] {
  const found: number[][] = [];
  const subsets = nonEmptySubsets(n);
  for (const own of subsets) {
    for (const indifferent of subsets.filter((t) => t.length === own.length)) {
      const x = solveIndifference(opponentPayoff, own, indifferent, n);
      if (x === null || x.some((p) => p < -EQUILIBRIUM_TOLERANCE)) continue;
      const strategy = x.map((p) => cleanNumber(Math.max(0, p)));
      const replies = bestResponses(opponentPayoff, strategy);
      if (!isSubset(indifferent, replies)) continue;
      if (!found.some((other) => sameVector(other, strategy))) found.push(strategy);
    }
  }
  return found;
}

/**
 * Unknowns (x_s for s in `own`, w): Σ_s opponentPayoff[t][s]·x_s − w = 0 for every t in `indifferent`,
 * and Σ_s x_s = 1. Returns the full-length strategy, or null when the system has no unique solution.
 */
function solveIndifference(
  opponentPayoff: readonly (readonly number[])[],
  own: readonly number[],
  indifferent: readonly number[],
  n: number,
): number[] | null {
  const matrix = indifferent.map((t) => [...own.map((s) => opponentPayoff[t]?.[s] as number), -1]);
  matrix.push([...own.map(() => 1), 0]);
  const rhs = [...indifferent.map(() => 0), 1];
  const solution = solveLinearSystem(matrix, rhs);
  if (solution === null) return null;
  const strategy = new Array<number>(n).fill(0);
  own.forEach((s, index) => {
    strategy[s] = solution[index] as number;
  });
  return strategy;
}

/** Actions of the player with matrix `payoff[own][other]` that are best responses to `other`. */
function bestResponses(payoff: readonly (readonly number[])[], other: readonly number[]): number[] {
  const values = payoff.map((row) => row.reduce((sum, u, j) => sum + u * (other[j] as number), 0));
  const best = Math.max(...values);
  return values.flatMap((v, i) => (v >= best - EQUILIBRIUM_TOLERANCE ? [i] : []));
}

function toEquilibrium(game: StageGame, x: readonly number[], y: readonly number[]): Equilibrium {
  const rowValue = expectedPayoff(game.u1, x, y);
  const columnValue = expectedPayoff(game.u2, x, y);
  const pure = support(x).length === 1 && support(y).length === 1;
  return {
    row: toDistribution(game, x),
    column: toDistribution(game, y),
    payoffs: { row: cleanNumber(rowValue), column: cleanNumber(columnValue) },
    kind: pure ? "pure" : "mixed",
  };
}

/** Pure before mixed; then by the row strategy, then the column strategy, larger early probabilities first. */
function compareEquilibria(a: Equilibrium, b: Equilibrium): number {
  if (a.kind !== b.kind) return a.kind === "pure" ? -1 : 1;
  const byVector = (p: Distribution, q: Distribution): number => {
    for (const action of Object.keys(p)) {
      const d = (q[action] ?? 0) - (p[action] ?? 0);
      if (Math.abs(d) > EQUILIBRIUM_TOLERANCE) return d;
    }
    return 0;
  };
  return byVector(a.row, b.row) || byVector(a.column, b.column);
}

/**
 * Snaps floating-point noise: a value within 1e-12 of a fraction with a small denominator (0, 1, 1/6, ...)
 * becomes that fraction, so exact equilibria print exactly.
 */
function cleanNumber(value: number): number {
  for (let denominator = 1; denominator <= 1000; denominator++) {
    const numerator = Math.round(value * denominator);
    const fraction = numerator / denominator;
    if (Math.abs(value - fraction) < 1e-12) return fraction === 0 ? 0 : fraction;
  }
  return value;
}

function support(strategy: readonly number[]): number[] {
  return strategy.flatMap((p, i) => (p > EQUILIBRIUM_TOLERANCE ? [i] : []));
}

function isSubset(small: readonly number[], large: readonly number[]): boolean {
  return small.every((i) => large.includes(i));
}

function sameVector(a: readonly number[], b: readonly number[]): boolean {
  return a.every((v, i) => Math.abs(v - (b[i] as number)) <= EQUILIBRIUM_TOLERANCE);
}

/** Index sets of every non-empty subset of {0, ..., n−1}. */
function nonEmptySubsets(n: number): number[][] {
  const subsets: number[][] = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    subsets.push([...Array(n).keys()].filter((i) => mask & (1 << i)));
  }
  return subsets;
}

/** The matrix mapped affinely onto [0, 1] (all zeros when every entry is the same). */
function unitScaled(matrix: readonly (readonly number[])[]): number[][] {
  const entries = matrix.flat();
  const least = Math.min(...entries);
  const range = Math.max(...entries) - least;
  return matrix.map((row) => row.map((u) => (range > 0 ? (u - least) / range : 0)));
}

function transpose(matrix: readonly (readonly number[])[], n: number): number[][] {
  return [...Array(n).keys()].map((j) => matrix.map((row) => row[j] as number));
}

function assertSupportedShape(game: StageGame): void {
  const n = game.actions.length;
  if (n < 1 || n > MAX_EQUILIBRIUM_ACTIONS) {
    throw new Error(
      `A game with ${n} actions per player is outside support enumeration's range of 1 to ${MAX_EQUILIBRIUM_ACTIONS}.`,
    );
  }
  for (const [name, matrix] of [
    ["u1", game.u1],
    ["u2", game.u2],
  ] as const) {
    if (matrix.length !== n || matrix.some((row) => row.length !== n)) {
      throw new Error(
        `Payoff matrix ${name} must be ${n}×${n} to match the actions ${game.actions.join(", ")}.`,
      );
    }
  }
}
