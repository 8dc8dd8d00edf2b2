// The cells as the permutation worker receives them. A record of a million short sessions that span cells
// lists some 900,000 clusters, but only a few hundred distinct counts objects (shared across cells) and a
// few thousand distinct session ids (one per session type, shared by the cells it decided in). Cloned as
// they are, every listing's id arrived as a string of its own, and the message and the worker's copy of the
// cells held ~50 MB at a million decisions. Packed, each listing is two integers in typed arrays and its
// weight, the objects and ids are sent once each, and the worker rebuilds cells whose lists share them
// again, as the caller's do: the same cells, field for field, so the same plan and the same rows.
import type { ActionCounts } from "../../domain/types.js";
import type { CountCell } from "../count-cells.js";

/** One cell, its listings as indices into the packing's tables. */
interface PackedCell {
  readonly player: string;
  readonly game: string;
  readonly framing: string;
  readonly counts: ActionCounts;
  /** Index into `contents` per listed cluster. */
  readonly clusters?: Int32Array;
  /** Index into `ids` per listed cluster. */
  readonly ids?: Int32Array;
  /** As given: small integers, which a message carries compactly already. */
  readonly weights?: readonly number[];
}

export interface PackedCells {
  readonly cells: readonly PackedCell[];
  /** Every distinct clusters' counts object, once. */
  readonly contents: readonly ActionCounts[];
  /** Every distinct cluster id, once. */
  readonly ids: readonly string[];
}

/** `cells` with their listings as indices into tables of the distinct counts objects and ids. */
export function packCells(cells: readonly CountCell[]): PackedCells {
  const contents = new Map<ActionCounts, number>();
  const ids = new Map<string, number>();
  const indexOf = <T>(table: Map<T, number>, value: T): number => {
    let i = table.get(value);
    if (i === undefined) {
      i = table.size;
      table.set(value, i);
    }
    return i;
  };
  const packed = cells.map((cell): PackedCell => {
    const { player, game, framing, counts, clusters, cluster_ids, cluster_weights } = cell;
    return {
      player,
      game,
      framing,
      counts,
      ...(clusters === undefined ? {} : { clusters: Int32Array.from(clusters, (c) => indexOf(contents, c)) }),
      ...(cluster_ids === undefined ? {} : { ids: Int32Array.from(cluster_ids, (id) => indexOf(ids, id)) }),
      ...(cluster_weights === undefined ? {} : { weights: cluster_weights }),
    };
  });
  return { cells: packed, contents: [...contents.keys()], ids: [...ids.keys()] };
}

/** The cells `packCells` packed, their lists sharing the tables' objects and ids. */
export function unpackCells(packed: PackedCells): CountCell[] {
  const { contents, ids } = packed;
  return packed.cells.map(({ player, game, framing, counts, clusters, ids: at, weights }) => ({
    player,
    game,
    framing,
    counts,
    ...(clusters === undefined ? {} : { clusters: Array.from(clusters, (i) => contents[i] as ActionCounts) }),
    ...(at === undefined ? {} : { cluster_ids: Array.from(at, (i) => ids[i] as string) }),
    ...(weights === undefined ? {} : { cluster_weights: weights }),
  }));
}
