import { csvList, labelList } from "../report/label-list.js";
import { UsageError } from "../usage-error.js";
import type { FilterSurface } from "./filter-names.js";
import { shellWord } from "./shell-word.js";

// A rank needs every group measured on the same two framings or more. When a few groups lack one, "every
// group played only business" reads as if all of them did; the refusal names the groups that lack a
// framing, so the others can be ranked without them.

/** Compare's refusal when some groups did not play every framing asked for; the others did. */
export class FramingsNotShared extends UsageError {
  constructor(
    message: string,
    /** The framings asked for (or, by default, every framing with decisions). */
    readonly framings: readonly string[],
    /** Which groups lack which of them: "noFriend played only business". */
    readonly lacking: string,
    /** The groups that played every one of them, sorted. */
    readonly complete: readonly string[],
  ) {
    super(message);
  }
}

/**
 * The refusal when some of `groupFramings` (each group's framings played) lack one of `framings`, or null
 * when none does. `byPlayer`: the groups are players, so the players filter can leave the others out,
 * written as `surface` takes it (the CLI's `--players a,b`, the tool's `players ["a","b"]`).
 */
export function framingsNotShared(
  groupFramings: ReadonlyMap<string, ReadonlySet<string>>,
  framings: readonly string[],
  known: readonly string[],
  byPlayer: boolean,
  surface?: FilterSurface,
): FramingsNotShared | null {
  const complete: string[] = [];
  const lackingBySet = new Map<string, string[]>();
  for (const [group, played] of [...groupFramings].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const had = framings.filter((f) => played.has(f));
    if (had.length === framings.length) complete.push(group);
    else lackingBySet.set(JSON.stringify(had), [...(lackingBySet.get(JSON.stringify(had)) ?? []), group]);
  }
  if (lackingBySet.size === 0) return null;
  const lacking = [...lackingBySet]
    .map(([had, groups]) => {
      const played = JSON.parse(had) as string[];
      return `${labelList(groups)} played ${played.length === 0 ? "none of them" : `only ${labelList(played)}`}`;
    })
    .join("; ");
  const others =
    byPlayer && complete.length >= 2
      ? `; ${surface === "mcp" ? `players ${JSON.stringify(complete)}` : `--players ${shellWord(csvList(complete))}`} compares the others, who played them all`
      : "";
  return new FramingsNotShared(
    `compare needs at least two distinct framings every group played; of ${labelList(framings)}, ${lacking} (framings with decisions: ${labelList(known)})${others}.`,
    framings,
    lacking,
    complete,
  );
}
