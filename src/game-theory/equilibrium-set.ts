// The equilibrium *set* of a degenerate bimatrix game (SPEC §5): a finite union of maximal Nash subsets
// (components), each the product conv(X) × conv(Y) of the convex hulls of some extreme equilibria's row and
// column strategies, where every pairing (x, y) with x ∈ X, y ∈ Y is itself an extreme equilibrium
// (Winkels 1979; the "cliques" of Avis, Rosenberg, Savani & von Stengel 2010). A strategy inside such a
// hull is an equilibrium strategy, so its distance to the set is 0 even when no extreme equilibrium is it.
import type { Equilibrium } from "./equilibria.js";
import { hullWeightsByLinearProgramme } from "./hull-distance-lp.js";
import { solveLinearSystem } from "./linear-solve.js";

const TOLERANCE = 1e-9;

/** Beyond this many candidate vertices the hull distance is solved as a linear programme instead. */
const MAX_VERTICES_TRIED = 200;

/** C(n, r), stopping early once it passes the limit (only the comparison with it is needed). */
function vertexCount(n: number, r: number): number {
  let count = 1;
  for (let i = 1; i <= r && count <= MAX_VERTICES_TRIED; i++) count = (count * (n - r + i)) / i;
  return count;
}

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
  // A maximal Nash subset is a closed pair (R, C): R every row strategy paired with all of C, C every
  // column strategy paired with all of R. Each closed R is an intersection of neighbourhoods N(c) (the
  // row strategies paired with column c), so they are found by intersecting until nothing new appears:
  // work in the number of components, not 2^(row strategies) — a game whose row player is indifferent
  // has dozens of extreme row strategies.
  const rowKeys = [...rows.keys()];
  const neighbourhood = (c: string): string[] => rowKeys.filter((r) => edges.get(r)?.has(c));
  const setKey = (set: readonly string[]): string => set.join("\u0000");
  const closedRows = new Map<string, string[]>();
  const pending = [...columns.keys()].map(neighbourhood);
  while (pending.length > 0) {
    const set = pending.pop() as string[];
    if (set.length === 0 || closedRows.has(setKey(set))) continue;
    closedRows.set(setKey(set), set);
    for (const c of columns.keys()) {
      const next = set.filter((r) => edges.get(r)?.has(c));
      if (!closedRows.has(setKey(next))) pending.push(next);
    }
  }
  const components: EquilibriumComponent[] = [];
  for (const chosen of closedRows.values()) {
    const common = [...columns.keys()].filter((c) => chosen.every((r) => edges.get(r)?.has(c)));
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
 * the breakpoint planes "λ_i = 0" and "q_a = p_a" meet (with Σλ = 1); every such vertex is tried, or,
 * when there are more than MAX_VERTICES_TRIED of them, the same minimum is found by the simplex method.
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
  if (vertexCount(m + k, m - 1) > MAX_VERTICES_TRIED) {
    const q = mix(hullWeightsByLinearProgramme(p, points));
    return { point: q, totalVariation: tv(q) };
  }
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
