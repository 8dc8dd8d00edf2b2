import { scheduledCell } from "../domain/study-schedule.js";
import type { PlayDeps } from "./play-deps.js";
import { loadStudy, schedulePosition } from "./studies.js";

/**
 * How many trials next_trial will deal a player before the study's next adaptive look, for a client that
 * deals a whole wave before any of it is played (`same-game run --batch`): dealing past the look would
 * assign trials of a game the look may stop. The count is the player's open trials next_trial resumes first
 * (those not in `held`, which the client already holds), then the schedule's positions from the next one
 * up to the end of the next look's block, less those of games already stopped.
 *
 * The next look is the first one after the earliest block with a trial still to play (a resumed one, or
 * the next new one): every earlier block is complete, so that look is the next time a game can stop.
 * Null when nothing limits a wave: a fixed design, or a schedule with no new position left to deal.
 */
export function trialsBeforeNextLook(
  deps: PlayDeps,
  studyId: string,
  player: string,
  principal: string,
  held: ReadonlySet<number>,
): number | null {
  const { study, design, cells } = loadStudy(deps, studyId);
  const adaptive = design.adaptive;
  if (!adaptive) return null;
  const total = cells.length * design.trials_per_cell;
  const position = schedulePosition(deps, study, design, cells, player, principal);
  const next = position.next_index;
  if (next >= total) return null;
  const toResume = deps.store
    .studyTrialOutcomes(study.id, player, principal)
    .filter((t) => !t.finished && !held.has(t.trial_index))
    .map((t) => t.trial_index);
  const perBlock = cells.length;
  const firstBlock = Math.floor(toResume.reduce((min, index) => Math.min(min, index), next) / perBlock);
  // Looks come after every look_every_blocks-th complete block, from min_blocks on.
  let lookBlock = Math.max(firstBlock + 1, adaptive.min_blocks);
  lookBlock = Math.ceil(lookBlock / adaptive.look_every_blocks) * adaptive.look_every_blocks;
  const end = Math.min(lookBlock * perBlock, total);
  const playedBlocks = new Map(position.stopped_early.map((s) => [s.game, s.blocks_played]));
  let fresh = 0;
  for (let index = next; index < end; index++) {
    const stoppedAfter = playedBlocks.get(scheduledCell(cells, study.seed, player, index).game);
    if (stoppedAfter === undefined || Math.floor(index / perBlock) < stoppedAfter) fresh++;
  }
  return toResume.length + fresh;
}
