// The equilibrium *set* of a degenerate bimatrix game (SPEC §5): a finite union of maximal Nash subsets
// (components), each the product conv(X) × conv(Y) of the convex hulls of some extreme equilibria's row and
// column strategies, where every pairing (x, y) with x ∈ X, y ∈ Y is itself an extreme equilibrium
// (Winkels 1979; the "cliques" of Avis, Rosenberg, Savani & von Stengel 2010). A strategy inside such a
// hull is an equilibrium strategy, so its distance to the set is 0 even when no extreme equilibrium is it.
import type { Equilibrium } from "./equilibria.js";
import { solveLinearSystem } from "./linear-solve.js";

/** Exhaustive subset search over distinct row strategies; beyond this many it is the wrong tool. */
const MAX_ROW_STRATEGIES = 16;
const TOLERANCE = 1e-9;

export interface EquilibriumComponent {
  /** The extreme row strategies X whose convex hull is the component's row projection. */
  readonly rows: readonly (readonly number[])[];
  /** Indices (into the equilibria list) of the component's extreme equilibria. */
  readonly equilibria: readonly number[];
}

const key = (v: readonly number[]): string => v.map((x) => x.toFixed(9)).join(",");

/**
 * The maximal Nash subsets of a list of extreme equilibria (vectors in the game's action order): every
 * maximal biclique of the bipartite graph "row strategy x — column strategy y when (x, y) is listed".
 */
export function equilibriumComponents(
  equilibria: readonly Equilibrium[],
  vector: (d: Equilibrium["row"]) => number[],
): EquilibriumComponent[] {
  const rows = new Map<string, number[]>();
  const columns = new Map<string, number>();
  const edges = new Map<string, Map<string, number>>(); // row key → column key → equilibrium index
  equilibria.forEach((e, i) => {
    const x = vector(e.row);
    const rk = key(x);
    const ck = key(vector(e.column));
    rows.set(rk, x);
    if (!columns.has(ck)) columns.set(ck, columns.size);
    const byColumn = edges.get(rk) ?? new Map<string, number>();
    byColumn.set(ck, i);
    edges.set(rk, byColumn);
  });
  const rowKeys = [...rows.keys()];
  if (rowKeys.length > MAX_ROW_STRATEGIES) {
    throw new Error(
      `The game has ${rowKeys.length} extreme row strategies in equilibrium; components are computed for at most ${MAX_ROW_STRATEGIES}.`,
    );
  }
  const components: EquilibriumComponent[] = [];
  for (let mask = 1; mask < 1 << rowKeys.length; mask++) {
    const chosen = rowKeys.filter((_, i) => mask & (1 << i));
    const common = [...columns.keys()].filter((c) => chosen.every((r) => edges.get(r)?.has(c)));
    if (common.length === 0) continue;
    // Maximal: no other row strategy is paired with every column of `common`.
    const closed = rowKeys.every((r) => chosen.includes(r) || !common.every((c) => edges.get(r)?.has(c)));
    if (!closed) continue;
    components.push({
      rows: chosen.map((r) => rows.get(r) as number[]),
      equilibria: chosen.flatMap((r) => common.map((c) => edges.get(r)?.get(c) as number)),
    });
  }
  return components;
}

/**
 * The point of conv(points) nearest p in total variation ½‖p − q‖₁, and that distance. The objective is
 * convex and piecewise linear in the weights λ (on the simplex), so its minimum is attained where m − 1 of
 * the breakpoint planes "λ_i = 0" and "q_a = p_a" meet (with Σλ = 1); every such vertex is tried.
 */
export function nearestInHull(
  p: readonly number[],
  points: readonly (readonly number[])[],
): { point: number[]; totalVariation: number } {
  const m = points.length;
  const k = p.length;
  const mix = (lambda: readonly number[]): number[] =>
    p.map((_, a) => points.reduce((s, x, i) => s + (lambda[i] as number) * (x[a] as number), 0));
  const tv = (q: readonly number[]): number =>
    p.reduce((s, pa, a) => s + Math.abs(pa - (q[a] as number)), 0) / 2;
  // Candidate planes: weight i is 0 (row of the identity), or coordinate a of the mixture equals p_a.
  const planes: { row: number[]; rhs: number }[] = [
    ...points.map((_, i) => ({ row: points.map((__, j) => (j === i ? 1 : 0)), rhs: 0 })),
    ...Array.from({ length: k }, (_, a) => ({ row: points.map((x) => x[a] as number), rhs: p[a] as number })),
  ];
  let best = { point: [...(points[0] as number[])], totalVariation: tv(points[0] as number[]) };
  const consider = (chosen: number[]): void => {
    const a = [points.map(() => 1), ...chosen.map((c) => (planes[c] as { row: number[] }).row)];
    const b = [1, ...chosen.map((c) => (planes[c] as { rhs: number }).rhs)];
    const lambda = solveLinearSystem(a, b);
    if (lambda === null || lambda.some((l) => l < -TOLERANCE)) return;
    const q = mix(lambda.map((l) => Math.max(0, l)));
    const d = tv(q);
    if (d < best.totalVariation - TOLERANCE) best = { point: q, totalVariation: d };
  };
  const choose = (start: number, chosen: number[]): void => {
    if (chosen.length === m - 1) {
      consider(chosen);
      return;
    }
    for (let c = start; c < planes.length; c++) choose(c + 1, [...chosen, c]);
  };
  choose(0, []);
  return best;
}
