import type { RepeatedMatchRow } from "../analysis/comparison/repeated-replicates.js";
import { matchMetrics } from "../analysis/repeated/repeated-metrics.js";
import { opponentLabel } from "../domain/opponent-label.js";
import { byText } from "../domain/text-order.js";
import type { PlayDeps } from "../play/play-deps.js";
import type { MatchRecord, RecordFilter, StudyRecord } from "../store/records.js";
import type { ComparisonFactor } from "../store/store.js";
import { type StoredTranscript, storedTranscripts } from "./repeated-metrics-query.js";

/**
 * The store → comparison bridge for repeated play: every finished repeated match that passes the filter,
 * in the group the factor puts it in, with its SPEC §6 metrics (default comprehension rule and threshold,
 * invalid rounds scored as losses), its resampling unit and its schedule position.
 */
export function repeatedComparisonRows(
  deps: PlayDeps,
  filter: RecordFilter,
  by: ComparisonFactor,
): RepeatedMatchRow[] {
  const groups = new Map(deps.store.repeatedMatchGroups(filter, by).map((r) => [r.match_id, r.group]));
  const stored = storedTranscripts(deps, filter).filter(({ match }) => groups.has(match.id));
  const perUnit = new Map<string, number>();
  for (const s of stored) perUnit.set(sessionOf(s), (perUnit.get(sessionOf(s)) ?? 0) + 1);
  const positions = schedulePositions(
    stored.map((s) => s.match),
    (id) => deps.store.getStudy(id),
  );
  return stored.map((played) => {
    const { match, transcript } = played;
    const game = deps.catalog.game(match.game);
    const metrics = matchMetrics(
      transcript,
      deps.catalog.stageGame(match.game, match.variant),
      game.cooperativeAction,
    );
    const session = sessionOf(played);
    return {
      group: groups.get(match.id) as string,
      game: match.game,
      framing: match.framing,
      opponent: match.opponent,
      opponent_params: match.opponent_params,
      // A session is the unit only when it played several matches; a match alone is its own.
      unit: (perUnit.get(session) ?? 0) > 1 ? session : `match:${match.id}`,
      position: positions.get(match.id) ?? null,
      points: metrics.total_points,
      cooperation: metrics.cooperation_rate,
      comprehension_m: metrics.comprehension_round,
      rounds: metrics.rounds,
    };
  });
}

/**
 * The opponent a schedule position counts visits of: its id, with its params where it has any (a design
 * may list one opponent with two sets of params, two conditions visited apart). Without params the name is
 * the id alone, as positions were named before params were part of them.
 */
const opponentOf = (match: MatchRecord): string => opponentLabel(match.opponent, match.opponent_params);

/**
 * The session a match was played in: the live MCP session its moves were decided in (as `export matches`
 * writes it, and as the one-shot analyses resample decisions), an import's session label, else the match.
 * Not the session that started it: `same-game run` starts every trial from its one stdio session, and a
 * run stopped and resumed would otherwise be two "sessions" of many matches each.
 */
function sessionOf({ match, decidedIn }: StoredTranscript): string {
  const live = decidedIn ?? match.session_id;
  if (live !== null) return `session:${live}`;
  if (match.import_session)
    return `import:${JSON.stringify([match.source, match.player, match.import_session])}`;
  return `match:${match.id}`;
}

/**
 * A study match's visit of its condition in the schedule, as the one-shot comparison numbers it: the
 * study, style and opponent, and the how-many-th trial (by trial index) of that condition the player
 * played. Players of one study visit every condition alike, so equal positions mean the same schedule.
 * The study is named by its design's hash, not its random id: a position's name seeds the stream it is
 * drawn from, and two records of one design played alike must compare alike.
 */
function schedulePositions(
  matches: readonly MatchRecord[],
  studyOf: (id: string) => Pick<StudyRecord, "design_hash" | "created_at"> | undefined,
): Map<string, string> {
  const studies = new Map<string, { design: string; created: string }>();
  const study = (id: string) => {
    let known = studies.get(id);
    if (known === undefined) {
      const record = studyOf(id);
      known = { design: record?.design_hash ?? id, created: record?.created_at ?? "" };
      studies.set(id, known);
    }
    return known;
  };
  const visits = new Map<string, MatchRecord[]>();
  for (const m of matches) {
    if (m.study_id === null || m.trial_index === null) continue;
    const design = study(m.study_id).design;
    const key = JSON.stringify([m.player, design, m.game, m.variant, m.framing, m.style, opponentOf(m)]);
    visits.set(key, [...(visits.get(key) ?? []), m]);
  }
  const positions = new Map<string, string>();
  for (const list of visits.values()) {
    // Two studies of one design (registered by two principals) are one schedule: their visits of a trial
    // follow each other, the older study's first.
    list.sort(
      (x, y) =>
        (x.trial_index as number) - (y.trial_index as number) ||
        byText(study(x.study_id as string).created, study(y.study_id as string).created) ||
        byText(x.study_id as string, y.study_id as string),
    );
    list.forEach((m, i) => {
      positions.set(m.id, `${study(m.study_id as string).design}#${m.style}#${opponentOf(m)}#${i + 1}`);
    });
  }
  return positions;
}
