import { utcSeconds } from "../queries/format.js";
import { defaultCacheDir, ResponseCache } from "../runner/cache/response-cache.js";
import { UsageError } from "../usage-error.js";
import { type Command, stringFlag } from "./command.js";

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "7d", "12h", "30m", "2w" in milliseconds; anything else is a usage error naming the forms. */
export function parseAge(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(text.trim());
  if (!match) {
    throw new UsageError(
      `--older-than must be a number and a unit, m(inutes), h(ours), d(ays) or w(eeks), like 7d; got "${text}".`,
    );
  }
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

export const cacheCommand: Command = {
  name: "cache",
  usage: [
    "same-game cache list | prune --older-than AGE | clear [--cache DIR]",
    "  The response cache of `same-game run --cache`: list its entries (per provider, model and URL), remove",
    "  those older than AGE (7d, 12h, 30m, 2w), or remove them all. DIR defaults to the one run --cache uses.",
  ].join("\n"),
  options: { cache: { type: "string" }, "older-than": { type: "string" } },
  async run(args) {
    const [action, ...extra] = args.positionals;
    if (extra.length > 0)
      throw new UsageError(`cache ${action} takes no more arguments, got "${extra.join(" ")}".`);
    const cache = new ResponseCache(stringFlag(args, "cache") || defaultCacheDir());
    const olderThan = stringFlag(args, "older-than");
    if (olderThan !== undefined && action !== "prune") {
      throw new UsageError(`--older-than goes with cache prune, not cache ${action ?? "(nothing)"}.`);
    }
    switch (action) {
      case "list": {
        const listing = cache.list();
        const lines = [
          `${cache.dir}: ${listing.entries} cached replies, ${(listing.bytes / 1024).toFixed(1)} KiB${listing.oldest && listing.newest ? `, written ${utcSeconds(listing.oldest.toISOString())} to ${utcSeconds(listing.newest.toISOString())}` : ""}.`,
          ...[...listing.byModel]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([model, n]) => `  ${n}  ${model}`),
        ];
        process.stdout.write(`${lines.join("\n")}\n`);
        return;
      }
      case "prune": {
        if (olderThan === undefined) throw new UsageError("cache prune needs --older-than AGE (like 7d).");
        const removed = cache.prune(new Date(Date.now() - parseAge(olderThan)));
        process.stdout.write(
          `Removed ${removed} cached replies older than ${olderThan} from ${cache.dir}.\n`,
        );
        return;
      }
      case "clear": {
        const removed = cache.clear();
        process.stdout.write(`Removed ${removed} cached replies from ${cache.dir}.\n`);
        return;
      }
      default:
        throw new UsageError(`cache takes list, prune or clear, got "${action ?? ""}".`);
    }
  },
};
