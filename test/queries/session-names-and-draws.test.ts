import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareRepeated } from "../../src/analysis/comparison/compare-repeated.js";
import type { RepeatedMatchRow } from "../../src/analysis/comparison/repeated-replicates.js";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { registerStudy } from "../../src/play/studies.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { sensitivityReport } from "../../src/queries/sensitivity-query.js";
import { storyLabelReport } from "../../src/queries/story-label-query.js";
import type { MatchRecord } from "../../src/store/records.js";
import { tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

// A session's id names it and nothing else: a record whose session labels are renamed one for one (or two
// live records that made the same decisions under other random ids) must analyse to the same numbers. The
// store lists rows session by session, so every analysis that numbers cells, units or streams in the
// order rows arrive would move with the names.

const records: ReturnType<typeof tempDeps>[] = [];
function record(): ReturnType<typeof tempDeps> {
  const deps = tempDeps();
  records.push(deps);
  return deps;
}
afterEach(() => {
  for (const deps of records.splice(0)) deps.dispose();
});

const GAMES = ["prisoners-dilemma", "snowdrift"] as const;
const FRAMINGS = ["business", "business+neutral", "friend-sharing", "friend-sharing+neutral"] as const;

/** A fixed pseudo-random stream (a linear congruential generator), so the record is the same every run. */
function stream(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** One session's decisions: the cells it decided in and what it chose there. */
interface Session {
  readonly player: string;
  readonly decisions: { game: string; framing: string; action: "cooperate" | "defect" }[];
}

/**
 * The sessions of the record: player "apart" holds 6 sessions of 1–3 decisions in each cell, player
 * "spans" 24 sessions of 2–4 decisions each over cells of both games (drawn jointly across its cells).
 * Each cell has its own rate of cooperation, so a unit's place in the draws changes its numbers.
 */
function sessions(): Session[] {
  const random = stream(23);
  const cells = GAMES.flatMap((game) => FRAMINGS.map((framing) => ({ game, framing })));
  const choose = (cell: number) => (random() < 0.15 + 0.09 * cell ? "cooperate" : "defect");
  const out: Session[] = [];
  cells.forEach(({ game, framing }, c) => {
    for (let s = 0; s < 6; s++) {
      const size = 1 + Math.floor(random() * 3);
      out.push({
        player: "apart",
        decisions: Array.from({ length: size }, () => ({ game, framing, action: choose(c) })),
      });
    }
  });
  for (let s = 0; s < 24; s++) {
    const size = 2 + Math.floor(random() * 3);
    out.push({
      player: "spans",
      decisions: Array.from({ length: size }, () => {
        const c = Math.floor(random() * cells.length);
        return { ...(cells[c] as { game: string; framing: string }), action: choose(c) };
      }),
    });
  }
  return out;
}

/**
 * Two one-for-one namings of the sessions whose orders disagree: `plain` numbers them in turn; `renamed`
 * gives the prisoner's dilemma's sessions of "apart" the names the snowdrift's had and back, and numbers
 * the spanning sessions backwards, so the store lists every player's sessions in another order.
 */
const NAMINGS = {
  plain: (s: Session, i: number) =>
    `${s.decisions[0]?.game === "snowdrift" ? "b" : "a"}-${String(i).padStart(3, "0")}`,
  renamed: (s: Session, i: number, all: readonly Session[]) =>
    s.player === "spans"
      ? `a-${String(all.length - i).padStart(3, "0")}`
      : `${s.decisions[0]?.game === "snowdrift" ? "a" : "b"}-${String(i).padStart(3, "0")}`,
};

/** The sessions as `import counts` rows (one per session, cell and action), under the naming given. */
async function importSessions(deps: ReturnType<typeof tempDeps>, naming: keyof typeof NAMINGS) {
  const all = sessions();
  const lines = ["player,game,framing,session,action,count"];
  all.forEach((s, i) => {
    const counts = new Map<string, number>();
    for (const d of s.decisions) {
      const key = `${d.game},${d.framing}`;
      counts.set(`${key},${d.action}`, (counts.get(`${key},${d.action}`) ?? 0) + 1);
    }
    for (const [key, count] of counts) {
      const [game, framing, action] = key.split(",");
      lines.push(`${s.player},${game},${framing},${NAMINGS[naming](s, i, all)},${action},${count}`);
    }
  });
  const file = join(deps.dir, "counts.csv");
  writeFileSync(file, `${lines.join("\n")}\n`);
  await importCommand.run(
    parseCommandArgs(importCommand, ["counts", file, "--source", "pub", "--db", deps.dbPath]),
  );
}

const SETTINGS = { bootstrap: 400, seed: 5 };

/** Repeated PD stage payoffs: (C,C) 4, (C,D) 1, (D,C) 6, (D,D) 2. */
const STAGE: Record<string, Record<string, number>> = {
  cooperate: { cooperate: 4, defect: 1 },
  defect: { cooperate: 6, defect: 2 },
};

/** Every analysis that resamples sessions, on one record. */
function analyses(deps: ReturnType<typeof tempDeps>) {
  const report = reportData(deps, SETTINGS);
  return {
    compare: compareReport(deps, SETTINGS),
    storyLabels: storyLabelReport(deps, SETTINGS),
    robustness: robustnessReport(deps, SETTINGS),
    sensitivity: sensitivityReport(deps, SETTINGS),
    cooperation: report.cooperation,
    leaderboard: report.leaderboard,
  };
}

describe("session names do not move the draws", () => {
  it("imported counts whose session labels are renamed one for one analyse to the same numbers", async () => {
    const plain = record();
    const renamed = record();
    await importSessions(plain, "plain");
    await importSessions(renamed, "renamed");
    const a = analyses(plain);
    const b = analyses(renamed);
    // The record is what the test says: both players resampled by session, two games × four framings.
    expect(a.compare.group_details.map((g) => [g.group, g.unit, g.cells])).toEqual([
      ["apart", "session", 8],
      ["spans", "session", 8],
    ]);
    expect(a.storyLabels.units.map((u) => [u.player, u.game])).toEqual([
      ["apart", "prisoners-dilemma"],
      ["apart", "snowdrift"],
      ["spans", "prisoners-dilemma"],
      ["spans", "snowdrift"],
    ]);
    expect(b.compare).toEqual(a.compare);
    expect(b.storyLabels).toEqual(a.storyLabels);
    expect(b.robustness).toEqual(a.robustness);
    expect(b.sensitivity).toEqual(a.sensitivity);
    expect(b.cooperation).toEqual(a.cooperation);
    expect(b.leaderboard).toEqual(a.leaderboard);
  });

  /**
   * The sessions played live, each decision its own one-shot match: session ids and match ids from
   * `ids` (random in a real record), the matches of a study of `design` when given (one registered per
   * record, under a random study id), one session per decision then, so schedule positions are drawn.
   */
  function playLive(deps: ReturnType<typeof tempDeps>, ids: (n: number) => string, scheduled: boolean) {
    let n = 0;
    const study = scheduled
      ? registerStudy(deps, {
          name: "two runs",
          games: [...GAMES],
          framings: [...FRAMINGS],
          trials_per_cell: 40,
          seed: 7,
        }).study_id
      : null;
    const trials = new Map<string, number>();
    for (const s of sessions()) {
      const session = scheduled ? null : ids(n++);
      if (session !== null) deps.store.saveSession(memorySession(session, { player: s.player }));
      for (const d of s.decisions) {
        const own = session ?? ids(n++);
        if (session === null) deps.store.saveSession(memorySession(own, { player: s.player }));
        const key = JSON.stringify([s.player, d.game, d.framing]);
        const trial = trials.get(key) ?? 0;
        trials.set(key, trial + 1);
        const id = ids(n++);
        deps.store.insertMatch(
          oneShotMatch(id, {
            player: s.player,
            session_id: own,
            game: d.game,
            framing: d.framing,
            ...(study === null
              ? {}
              : { study_id: study, trial_index: 1000 * GAMES.indexOf(d.game as never) + trial }),
          }),
        );
        deps.store.saveDecision(
          firstRoundDecision(id, d.action, { session_id: own }),
          deps.store.getMatch(id) as MatchRecord,
        );
      }
    }
  }

  /** Ids in two unrelated orders, as two runs' random UUIDs would be. */
  const forwards = (n: number) => `id-${String(n).padStart(4, "0")}`;
  const backwards = (n: number) => `id-${String(9999 - n).padStart(4, "0")}`;

  it("two live records of the same decisions under other session ids compare alike", () => {
    const x = record();
    const y = record();
    playLive(x, forwards, false);
    playLive(y, backwards, false);
    const a = compareReport(x, SETTINGS);
    expect(a.group_details.map((g) => g.unit)).toEqual(["session", "session"]);
    expect(compareReport(y, SETTINGS)).toEqual(a);
    expect(storyLabelReport(y, SETTINGS)).toEqual(storyLabelReport(x, SETTINGS));
  });

  it("two runs of one design, each under its own random study id, compare alike by schedule position", () => {
    const x = record();
    const y = record();
    playLive(x, forwards, true);
    playLive(y, backwards, true);
    const a = compareReport(x, SETTINGS);
    expect(a.group_details.map((g) => g.unit)).toEqual(["trial", "trial"]);
    expect(compareReport(y, SETTINGS)).toEqual(a);
  });

  it("repeated play drawn by session gives the same replicates whatever the sessions and matches are called", () => {
    // Two groups, four sessions of two or three matches each; the second listing renames every session
    // and lists the matches in another order (as the store lists them by their random ids).
    const points = [
      [30, 41, 38],
      [25, 44],
      [50, 31, 29],
      [36, 47],
    ];
    const rows = (names: (s: number) => string): RepeatedMatchRow[] =>
      ["a", "b"].flatMap((group, g) =>
        points.flatMap((matches, s) =>
          matches.map((p, m) => ({
            group,
            game: "repeated-pd",
            framing: "repeated-plain",
            opponent: m === 0 ? "tit-for-tat" : "grim",
            opponent_params: {},
            unit: `${group}:${names(s)}`,
            position: null,
            points: p - 3 * g,
            cooperation: (p % 7) / 7,
            comprehension_m: 1 + (m % 3),
            rounds: 16,
          })),
        ),
      );
    const first = rows((s) => `session-${s}`);
    const second = rows((s) => `other-${3 - s}`).reverse();
    const a = compareRepeated(first, SETTINGS);
    expect(a.units).toEqual([
      { group: "a", unit: "session", matches: 10 },
      { group: "b", unit: "session", matches: 10 },
    ]);
    expect(compareRepeated(second, SETTINGS)).toEqual(a);
  });

  it("imported repeated matches whose session labels are renamed compare alike", () => {
    const line = (player: string, session: string, ours: string[]) =>
      JSON.stringify({
        player,
        game: "repeated-pd",
        variant: "base",
        framing: "their-prompt",
        opponent: "tft-elsewhere",
        session,
        rounds: ours.map((move, r) => {
          const opponent = r === 0 ? "cooperate" : (ours[r - 1] as string);
          return {
            move,
            opponent_move: opponent,
            payoff: STAGE[move]?.[opponent],
            opponent_payoff: STAGE[opponent]?.[move],
          };
        }),
      });
    const moves = (defections: number) =>
      Array.from({ length: 16 }, (_, r) => (r < defections ? "defect" : "cooperate"));
    // The renamed file lists the lines backwards too: the store lists matches in the order of the file.
    const file = (names: (s: number) => string, backwards = false) => {
      const lines = ["p", "q"].flatMap((player, g) =>
        [0, 1, 2, 3].flatMap((s) =>
          [0, 1].map((m) => line(player, names(s), moves((s * 5 + m * 3 + g * 4) % 16))),
        ),
      );
      return (backwards ? lines.reverse() : lines).join("\n");
    };
    const load = (names: (s: number) => string, backwards = false) => {
      const deps = record();
      importMatches(deps, parseMatchesJsonl(file(names, backwards), "matches.jsonl", deps.catalog), "pub");
      return compareReport(deps, SETTINGS);
    };
    const a = load((s) => `s${s}`);
    expect(a.repeated_units?.map((u) => u.unit)).toEqual(["session", "session"]);
    expect(load((s) => `t${3 - s}`, true)).toEqual(a);
  });

  it("repeated matches of two runs of one design, under other study and match ids, compare alike", () => {
    // Per player, 6 scheduled 16-round matches against tit-for-tat, one session each (drawn by position):
    // player "p" defects in the first k rounds of match k, "q" in the first 2k mod 16.
    const play = (ids: (n: number) => string) => {
      const deps = record();
      const study = registerStudy(deps, {
        name: "repeated runs",
        games: ["repeated-pd"],
        framings: ["repeated-plain"],
        opponents: [{ id: "tit-for-tat" }],
        trials_per_cell: 6,
        seed: 3,
      }).study_id;
      let n = 0;
      for (const [player, defections] of [
        ["p", (k: number) => k],
        ["q", (k: number) => (2 * k) % 16],
      ] as const) {
        for (let k = 0; k < 6; k++) {
          const id = ids(n++);
          const session = ids(n++);
          deps.store.saveSession(memorySession(session, { player }));
          const match = oneShotMatch(id, {
            player,
            session_id: session,
            game: "repeated-pd",
            framing: "repeated-plain",
            opponent: "tit-for-tat",
            rounds: 16,
            study_id: study,
            trial_index: k,
            status: "finished",
            next_round: 17,
            finished_at: "2026-12-01T00:00:00.000Z",
          });
          deps.store.insertMatch(match);
          let previous = "cooperate";
          for (let r = 1; r <= 16; r++) {
            const move = r <= defections(k) ? "defect" : "cooperate";
            deps.store.saveDecision(
              {
                ...firstRoundDecision(id, move, { session_id: session }),
                round: r,
                opponent_action: previous,
                payoff: STAGE[move]?.[previous] ?? 0,
                opponent_payoff: STAGE[previous]?.[move] ?? 0,
              },
              match,
            );
            previous = move;
          }
        }
      }
      return compareReport(deps, SETTINGS);
    };
    const a = play(forwards);
    expect(a.repeated_units?.map((u) => [u.group, u.unit, u.matches])).toEqual([
      ["p", "trial", 6],
      ["q", "trial", 6],
    ]);
    expect(play(backwards)).toEqual(a);
  });
});
