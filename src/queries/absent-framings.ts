import { labelList } from "../report/label-list.js";
import { UsageError } from "../usage-error.js";

/**
 * Refuses framings the caller named under which no decision of the analysis's scope was made: a typo there
 * would otherwise surface later as "nothing to compare", or as a whole report whose sections say only that
 * they could not run. `present` is every framing with decisions in that scope.
 */
export function refuseAbsentFramings(asked: readonly string[], present: ReadonlySet<string>): void {
  const absent = asked.filter((f) => !present.has(f));
  if (absent.length === 0) return;
  throw new UsageError(
    `--framings names ${labelList(absent)}, under which nothing matching was played; framings with decisions: ${labelList([...present].sort())}.`,
  );
}
