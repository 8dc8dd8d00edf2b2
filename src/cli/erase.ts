import { logInfo } from "../log.js";
import { printable } from "../queries/format.js";
import type { ErasureCounts, ErasureTarget } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { type Command, stringFlag } from "./command.js";
import { withDeps } from "./open-deps.js";

/** The rows an erasure removed, as one readable sentence ("3 matches, 3 decisions, …"). */
function removedSentence(counts: ErasureCounts): string {
  const parts: [number, string][] = [
    [counts.matches, "match(es)"],
    [counts.decisions, "decision(s)"],
    [counts.attempts, "attempt(s)"],
    [counts.model_calls, "model call(s)"],
    [counts.imported_count_rows, "imported count row(s)"],
    [counts.sessions, "session(s)"],
    [counts.prompts, "prompt(s) no other decision answered"],
    [counts.runner_batch_requests, "runner batch request(s)"],
    [counts.runner_batches, "runner batch(es)"],
    [counts.run_leases, "run lease(s)"],
    [counts.cached_analyses, "cached analysis result(s)"],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return said.length === 0 ? "nothing" : said.join(", ");
}

/**
 * `erase --player LABEL | --principal SHA256 [--study ID] | --session ID`: a participant's withdrawal. Deletes every row of the
 * record that holds their play or their words (see ErasureStore), then, on SQLite, rebuilds the file and
 * empties its -wal so the erased text is not left in free pages.
 */
export const eraseCommand: Command = {
  name: "erase",
  usage: [
    "same-game erase --player LABEL | --principal SHA256 [--study ID] | --session ID [--db PATH] [--dry-run] [--json]",
    "  Deletes one player's or one bearer token's (principal: the token's SHA-256) data (all of it, or one",
    "  study's trials with --study), or one MCP session's matches:",
    "  matches, decisions, attempts, replies and rationales, model calls, runner batch requests, sessions and",
    "  their client names, prompts nothing else answered, tallies, imported counts of the player, and every",
    "  cached analysis result. On SQLite the file is then rebuilt (VACUUM) and its -wal emptied.",
    "  --dry-run: says what would be erased, and changes nothing.",
  ].join("\n"),
  options: {
    db: { type: "string" },
    player: { type: "string" },
    session: { type: "string" },
    principal: { type: "string" },
    study: { type: "string" },
    json: { type: "boolean" },
    "dry-run": { type: "boolean" },
  },
  async run(args) {
    if (args.positionals.length > 0)
      throw new UsageError(
        `erase takes no positional arguments, got "${printable(args.positionals.join(" "))}".`,
      );
    const player = stringFlag(args, "player");
    const session = stringFlag(args, "session");
    const principal = stringFlag(args, "principal");
    const study = stringFlag(args, "study");
    const given = (["player", "principal", "session"] as const).filter((f) => args.values[f] !== undefined);
    if (given.length !== 1)
      throw new UsageError(
        `erase needs exactly one of --player LABEL, --principal SHA256 or --session ID, whose data to delete${given.length > 1 ? ` (got ${given.map((f) => `--${f}`).join(" and ")})` : ""}.`,
      );
    if (player === "" || session === "")
      throw new UsageError(`erase: --${player === "" ? "player" : "session"} needs a non-empty value.`);
    if (principal !== undefined && !/^[0-9a-f]{64}$/.test(principal))
      throw new UsageError(
        `--principal is the SHA-256 of the participant's bearer token, 64 lowercase hex digits (printf %s TOKEN | sha256sum), got "${printable(principal)}".`,
      );
    if (session !== undefined && study !== undefined)
      throw new UsageError(
        "--study goes with --player or --principal (one study's trials of them), not with --session.",
      );
    const target: ErasureTarget =
      player !== undefined
        ? { player, study }
        : principal !== undefined
          ? { principal, study }
          : { session: session as string };
    const who =
      "session" in target
        ? `session "${printable(target.session)}"`
        : `${"player" in target ? `player "${printable(target.player)}"` : `principal ${target.principal}`}${target.study === undefined ? "" : ` in study ${printable(target.study)}`}`;
    await withDeps(
      args,
      ({ store }, dbPath) => {
        // Leases are written and judged on the record's clock (PostgreSQL's for a shared record), not this
        // machine's: a host whose clock is behind would take a live run's lease for expired.
        const held = store.liveLeasesOf(target, store.nowIso());
        if (held.length > 0) {
          const lease = held[0] as (typeof held)[number];
          throw new UsageError(
            `A same-game run is playing study ${lease.study_id} as "${printable(lease.player)}" (pid ${lease.pid} on ${printable(lease.host)}): stop it before erasing the player, or it records more of their play.`,
          );
        }
        const known =
          "player" in target
            ? store.erasablePlayerRows(target.player, target.study)
            : "principal" in target
              ? store.erasablePrincipalRows(target.principal, target.study)
              : store.erasableSessionRows(target.session);
        if (known === 0) {
          throw new UsageError(
            `The record ${dbPath} holds nothing of ${who}: nothing erased (check the spelling; export matches lists players and sessions).`,
          );
        }
        if (args.values["dry-run"]) {
          // Erasure cannot be undone: the same statements, rolled back, show what it would take first.
          const counts = store.previewErasure(target);
          if (args.values.json) {
            process.stdout.write(
              `${JSON.stringify({ would_erase: target, would_remove: counts, dry_run: true }, null, 2)}\n`,
            );
          }
          logInfo(
            `would erase ${who} from ${dbPath}: ${removedSentence(counts)}. Nothing was changed (--dry-run); run the same command without it to erase.`,
          );
          return;
        }
        const counts = store.eraseFromRecord(target);
        // The rows are gone (committed) whatever happens next; a rebuild that fails (a full disk: VACUUM
        // writes a copy of the file) is said as such, with what finishes it.
        let scrub: ReturnType<typeof store.scrubFile> | "failed";
        try {
          scrub = store.scrubFile();
        } catch (error) {
          scrub = "failed";
          logInfo(
            `the rows are erased, but rebuilding the file failed (${error instanceof Error ? error.message : String(error)}): deleted pages were zeroed (secure_delete), and \`sqlite3 FILE 'VACUUM; PRAGMA wal_checkpoint(TRUNCATE)'\` finishes it once there is room (about the file's size free on its disk).`,
          );
        }
        if (args.values.json) {
          process.stdout.write(
            `${JSON.stringify({ erased: target, removed: counts, file: scrub }, null, 2)}\n`,
          );
        }
        logInfo(`erased ${who} from ${dbPath}: ${removedSentence(counts)}.`);
        if (counts.sessions_kept > 0)
          logInfo(
            `kept ${counts.sessions_kept} session row(s) that other players' matches were also played in (their session id and client name stay with that play).`,
          );
        if (scrub === "failed") {
          process.exitCode = 1;
        } else if (scrub === null) {
          logInfo(
            "PostgreSQL keeps the deleted rows on disk until VACUUM: run VACUUM FULL on the record's tables, and mind its backups, WAL archive and replicas (docs/import-export.md#erase-a-participant).",
          );
        } else if (!scrub.wal_emptied) {
          logInfo(
            "another connection is reading the record (a server?), so its -wal still holds pages from before the erasure: stop it, then run `sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)'` (docs/import-export.md#erase-a-participant).",
          );
        } else {
          logInfo("the file was rebuilt (VACUUM) and its -wal emptied: the erased text is no longer in it.");
        }
      },
      { write: true },
    );
  },
};
