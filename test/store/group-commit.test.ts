// Group commit: works handed to `groupCommit` in one turn of the event loop share one SQLite transaction,
// each still counted in record_version as its own, and none is answered before that transaction commits.
// Read with a second connection to the same file, which sees only what is committed.
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Caller } from "../../src/play/caller.js";
import { startMatch } from "../../src/play/start-match.js";
import { submitMove } from "../../src/play/submit-move.js";
import { Store } from "../../src/store/store.js";
import { UsageError } from "../../src/usage-error.js";
import { tempDeps } from "../support/harness.js";
import { walCommits } from "../support/wal-commits.js";

let deps: ReturnType<typeof tempDeps>;
let reader: Store;
let caller: Caller;
beforeEach(() => {
  deps = tempDeps();
  reader = new Store(deps.dbPath);
  caller = {
    sessionId: "g",
    transport: "memory",
    principal: "local",
    configuredPlayer: "g",
    clientInfo: () => null,
  };
});
afterEach(() => {
  reader.close();
  deps.dispose();
});

const spec = (seed: string) => ({
  game: "prisoners-dilemma" as const,
  variant: "base" as const,
  framing: "business",
  style: "zero-shot" as const,
  opponent: { id: "always-defect", params: {} },
  seed,
  history_mode: "none" as const,
  reveal_horizon: false,
});

const seenByReader = (matchId: string) => reader.getDecision(matchId, 1)?.status ?? "none";

it("commits the works of one turn together, counts each in the record version, answers after the commit", async () => {
  const views = ["1", "2", "3"].map((seed) => startMatch(deps, caller, "g", spec(seed)));
  deps.store.db.pragma("wal_autocheckpoint = 0");
  deps.store.db.pragma("wal_checkpoint(TRUNCATE)");
  const versionBefore = reader.recordVersion();
  // What the other connection saw of the first decision while the second was being recorded.
  let firstSeenDuringSecond = "";
  const answered: string[] = [];
  const moves = views.map((view, i) =>
    deps.store
      .groupCommit(() => {
        if (i === 1) firstSeenDuringSecond = seenByReader(views[0]?.match_id as string);
        return submitMove(deps, caller, {
          match_id: view.match_id,
          round: 1,
          choice: view.labels[0] as string,
        });
      })
      // When its answer arrives, the decision is committed: the other connection reads it.
      .then((outcome) => {
        answered.push(seenByReader(view.match_id));
        return outcome.kind;
      }),
  );
  expect(await Promise.all(moves)).toEqual(["recorded", "recorded", "recorded"]);
  // The second work ran inside the transaction the first had not committed yet.
  expect(firstSeenDuringSecond).toBe("none");
  expect(answered).toEqual(["decided", "decided", "decided"]);
  expect(walCommits(deps.dbPath).commits).toBe(1);
  // Three writing transactions, as three separate submit_move calls count.
  expect(reader.recordVersion() - versionBefore).toBe(3);
});

it("rejects a failing work alone: its transaction rolls back, the others commit", async () => {
  const views = ["1", "2"].map((seed) => startMatch(deps, caller, "g", spec(seed)));
  const [first, second] = views as [(typeof views)[0], (typeof views)[0]];
  const results = await Promise.allSettled([
    deps.store.groupCommit(() =>
      submitMove(deps, caller, { match_id: first.match_id, round: 1, choice: first.labels[0] as string }),
    ),
    // Writes the second match's attempt inside its transaction, then fails: the attempt must not remain.
    deps.store.groupCommit(() =>
      deps.store.transaction(() => {
        deps.store.recordAttempt({
          match_id: second.match_id,
          round: 1,
          session_id: "g",
          raw_text: "rolled back",
          action: null,
          invalid_reason: null,
          tokens: null,
          created_at: "",
        });
        throw new UsageError("refused after writing");
      }),
    ),
    deps.store.groupCommit(() =>
      submitMove(deps, caller, { match_id: second.match_id, round: 1, choice: second.labels[1] as string }),
    ),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect((results[1] as PromiseRejectedResult).reason.message).toBe("refused after writing");
  expect(seenByReader(first.match_id)).toBe("decided");
  expect(seenByReader(second.match_id)).toBe("decided");
  // The second match's attempts: the decided reply only, not the rolled-back one.
  expect(reader.listAttempts(second.match_id, 1).map((a) => a.raw_text)).toEqual([second.labels[1]]);
});

it("answers no work of a group as recorded when the group's commit fails", async () => {
  const view = startMatch(deps, caller, "g", spec("1"));
  const move = deps.store.groupCommit(() =>
    submitMove(deps, caller, { match_id: view.match_id, round: 1, choice: view.labels[0] as string }),
  );
  // A work that leaves a foreign key broken with its check put off to COMMIT: the group's COMMIT fails.
  const breaking = deps.store.groupCommit(() => {
    deps.store.db.pragma("defer_foreign_keys = ON");
    deps.store.recordAttempt({
      match_id: "no-such-match",
      round: 1,
      session_id: "g",
      raw_text: "orphan",
      action: null,
      invalid_reason: null,
      tokens: null,
      created_at: "",
    });
  });
  const results = await Promise.allSettled([move, breaking]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  expect((results[0] as PromiseRejectedResult).reason.code).toBe("SQLITE_CONSTRAINT_FOREIGNKEY");
  // Nothing of the group is in the record, and the move was not answered as recorded.
  expect(seenByReader(view.match_id)).toBe("none");
  expect(reader.listAttempts(view.match_id, 1)).toEqual([]);
});

it("commits the waiting works when the store closes before the next turn", async () => {
  const view = startMatch(deps, caller, "g", spec("1"));
  const move = deps.store.groupCommit(() =>
    submitMove(deps, caller, { match_id: view.match_id, round: 1, choice: view.labels[0] as string }),
  );
  deps.store.close();
  expect((await move).kind).toBe("recorded");
  expect(seenByReader(view.match_id)).toBe("decided");
  // dispose() closes the store again: a closed better-sqlite3 handle closes twice without complaint.
});

it("leaves the same rows as the same moves made one call after another", async () => {
  /** The scripted play on a fresh record: moves grouped (all at once) or one at a time; its rows, ids and
   * times left out (match ids are random, times are the clock's). */
  const play = async (grouped: boolean) => {
    const record = tempDeps();
    const player: Caller = { ...caller, sessionId: "script" };
    try {
      const views = ["1", "2", "3", "4"].map((seed) => startMatch(record, player, "g", spec(seed)));
      // A valid reply in each listed order, an invalid one (recorded as an attempt, no decision) and a
      // resubmission of a decided round (answered from the record, nothing written).
      const replies = [
        [0, views[0]?.labels[0]],
        [1, views[1]?.labels[1]],
        [2, "maybe"],
        [3, views[3]?.labels[0]],
        [0, views[0]?.labels[0]],
      ] as const;
      const moves = replies.map(
        ([i, choice]) =>
          () =>
            submitMove(record, player, {
              match_id: views[i]?.match_id as string,
              round: 1,
              choice: choice as string,
            }),
      );
      if (grouped) await Promise.allSettled(moves.map((move) => record.store.groupCommit(move)));
      else for (const move of moves) move();
      const index = new Map(views.map((v, i) => [v.match_id, `match ${i}`]));
      const db = record.store.db;
      const rows = (sql: string) =>
        (db.prepare(sql).all() as Record<string, unknown>[]).map(
          (row): Record<string, unknown> => ({
            ...row,
            ...("match_id" in row ? { match_id: index.get(row.match_id as string) } : {}),
          }),
        );
      return {
        matches: (
          db.prepare("SELECT * FROM matches ORDER BY created_at, rowid").all() as Record<string, unknown>[]
        ).map(({ id, created_at, finished_at, ...rest }) => ({ ...rest, finished: finished_at !== null })),
        decisions: rows("SELECT * FROM decisions")
          .map(({ decided_at, ...rest }) => rest)
          .sort((a, b) => String(a.match_id).localeCompare(String(b.match_id))),
        attempts: rows("SELECT * FROM attempts ORDER BY id").map(({ created_at, ...rest }) => rest),
        tallies: rows("SELECT * FROM decision_tallies"),
        prompts: rows("SELECT hash FROM prompts ORDER BY hash"),
        version: record.store.recordVersion(),
      };
    } finally {
      record.dispose();
    }
  };
  const alone = await play(false);
  expect(alone.decisions).toHaveLength(3);
  expect(alone.attempts).toHaveLength(4);
  expect(await play(true)).toEqual(alone);
});
