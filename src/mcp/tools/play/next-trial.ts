import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { playerLabel } from "../../../play/caller.js";
import { type HeldTrial, nextTrial, type StoppedEarly } from "../../../play/studies.js";
import { heldTrials, openTrialSession } from "../../../play/trial-sessions.js";
import { UnknownStudyError } from "../../../play/unknown-study-error.js";
import { printable } from "../../../queries/format.js";
import { UsageError } from "../../../usage-error.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { RECORDING } from "../annotations.js";
import { playerSchema, roundViewSchema, roundViewText } from "./play-schemas.js";

const blindOutputSchema = z.object({
  complete: z.boolean(),
  trials_per_player: z.number(),
  trials_planned: z
    .number()
    .describe(
      "Trials this player will play as things stand: trials_per_player less the schedule positions adaptive stopping removed (equal to it under a fixed design)",
    ),
  skipped_before: z
    .number()
    .describe(
      "Schedule positions adaptive stopping removed before a new trial's index: trial_index − skipped_before trials came before it (0 under a fixed design)",
    ),
  trials_finished: z
    .number()
    .optional()
    .describe("Trials of the study this player has finished, as this answer is given"),
  trial_index: z.number().nullable(),
  resumed: z.boolean(),
  trial: roundViewSchema.nullable(),
  held_open: z
    .array(z.object({ match_id: z.string(), trial_index: z.number() }))
    .optional()
    .describe(
      "With concurrent, when no trial is left to deal but this connection holds some of the player's trials unfinished (complete is false, trial null): those trials, to finish with submit_move before the study is complete",
    ),
});

/**
 * The operator's surface adds why the study's adaptive rule ended games early. The player's surface leaves
 * it out: which game stopped, on what rule and at what value of the measure would tell the agent under
 * evaluation what is studied; `complete` alone tells it that no more trials are wanted.
 */
const outputSchema = blindOutputSchema.extend({
  stopped_early: z
    .array(
      z.object({
        game: z.string(),
        block: z.number(),
        e_value: z.number(),
        threshold: z.number(),
        r_interval: z
          .object({ lower: z.number(), upper: z.number(), width: z.number() })
          .describe(
            "the interval of the registered measure at the stop, valid under continuous monitoring (level 1 − alpha); a fixed-size interval is not valid after a stop",
          ),
        blocks_played: z.number(),
        reason: z.string(),
      }),
    )
    .optional()
    .describe(
      "When complete: the games the study's adaptive rule stopped early for this player, where and why",
    ),
});

export function registerNextTrial(server: McpServer, { deps, caller, toolsets }: ToolContext): void {
  server.registerTool(
    "next_trial",
    {
      title: "Next trial of a study",
      description:
        "Starts (or resumes) your next trial of a study whose id you were given. The server decides which trial comes next; answer it with submit_move, then call next_trial again until it says you are done.",
      inputSchema: z.object({
        study_id: z.string().trim().min(1).max(100).describe("The study id you were given"),
        player: playerSchema,
        concurrent: z
          .boolean()
          .optional()
          .describe(
            "true when you play several trials at once, each in a fresh context, over this connection: a trial it already holds is never handed out again, so every call gets its own, and each trial is recorded as a session of its own",
          ),
      }),
      outputSchema: advertisedOutputSchema(toolsets.blind ? blindOutputSchema : outputSchema),
      annotations: RECORDING,
    },
    async ({ study_id, player, concurrent }) =>
      answering("next_trial", () => {
        const next = withoutRegisterAdvice(toolsets.studies, () =>
          nextTrial(deps, caller, study_id, player, concurrent ? heldTrials(caller) : []),
        );
        // Why games stopped early: the operator's to read, never the player's (see outputSchema).
        const whyStopped = (stopped: StoppedEarly[]) => (toolsets.blind ? {} : { stopped_early: stopped });
        // Where the player stands in the study: part of every answer.
        const standing = {
          trials_per_player: next.trials_per_player,
          trials_planned: next.trials_planned,
          skipped_before: next.skipped_before,
          trials_finished: next.trials_finished,
        };
        if ("held_open" in next) {
          return toolAnswer(
            {
              complete: false,
              ...standing,
              trial_index: null,
              resumed: false,
              trial: null,
              held_open: next.held_open,
              ...whyStopped(next.stopped_early),
            },
            heldOpenText(study_id, next.held_open),
          );
        }
        if (concurrent && !next.complete) {
          openTrialSession(deps, caller, next.view.match_id, playerLabel(caller, player));
        }
        if (next.complete) {
          return toolAnswer(
            {
              complete: true,
              ...standing,
              trial_index: null,
              resumed: false,
              trial: null,
              ...whyStopped(next.stopped_early),
            },
            completeText(
              study_id,
              next.trials_per_player,
              next.trials_finished,
              toolsets.blind ? null : next.stopped_early,
            ),
          );
        }
        return toolAnswer(
          {
            complete: false,
            ...standing,
            trial_index: next.trial_index,
            resumed: next.resumed,
            trial: next.view,
          },
          `Trial ${next.trial_index + 1} of ${next.trials_per_player}${next.resumed ? " (resumed)" : ""}.\n\n${roundViewText(next.view)}`,
        );
      }),
  );
}

/** `stopped` is null on the player's surface, which says only that no more trials are wanted. */
function completeText(
  studyId: string,
  total: number,
  finished: number | undefined,
  stopped: readonly StoppedEarly[] | null,
): string {
  const played = finished ?? total;
  if (stopped === null) {
    return played < total
      ? `Study ${studyId} is complete for this player: it needs no more trials (${played} of at most ${total} played).`
      : `Study ${studyId} is complete for this player: all ${total} trials are done.`;
  }
  if (stopped.length === 0)
    return `Study ${studyId} is complete for this player: all ${total} trials are done.`;
  const games = stopped.map((s) => `${s.game}: stopped early, ${s.reason}`);
  return `Study ${studyId} is complete for this player (at most ${total} trials).\n${games.join("\n")}`;
}

function heldOpenText(studyId: string, held: readonly HeldTrial[]): string {
  const trials = held.map((t) => `trial ${t.trial_index + 1} (match ${t.match_id})`);
  const them = held.length === 1 ? "it" : "them";
  return `Study ${studyId} is not complete for this player: no trial is left to deal, but this connection holds ${held.length} of its trials unfinished: ${trials.join(", ")}. Finish ${them} with submit_move first; next_trial then says the study is complete.`;
}

/**
 * An unknown study id, as the caller can act on it: the usual refusal advises register_study, which a
 * server without the studies toolset does not offer (the player's surface above all, where the agent was
 * given its study id and can only check it).
 */
function withoutRegisterAdvice<T>(canRegister: boolean, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (canRegister || !(error instanceof UnknownStudyError)) throw error;
    throw new UsageError(
      `No study with id "${printable(error.studyId)}"; check the study id you were given.`,
    );
  }
}
