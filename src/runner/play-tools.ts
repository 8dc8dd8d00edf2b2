import type { ModelCall } from "../domain/model-call.js";
import { totalTokens } from "../domain/model-call.js";
import type { TrialRef } from "./cache/reply-key.js";
import type { Message, ToolCall } from "./endpoint.js";
import { callModel } from "./model-caller.js";
import { type ReplyAnswer, refusalOfUnreadable, replyAnswer, submittedAnswer } from "./reply-answer.js";
import {
  attemptRecorded,
  countIfInvalid,
  finishedMatch,
  gaveNoValidMove,
  type Seat,
  submitReply,
  type TrialView,
} from "./seat.js";
import type { Structured } from "./server-connection.js";

/** Model calls per round before the runner submits the model's last text itself (a careless agent). */
const MAX_CALLS_PER_ROUND = 6;
/** A reply without a tool call is nudged this many times before its text is submitted as the choice. */
const NUDGES = 2;
const NUDGE = "Please answer by calling the submit_move tool.";

/**
 * Tools mode: the model gets the trial's text (what next_trial shows) and the whitelisted play tools,
 * and must call submit_move itself. Malformed calls, unknown tools and refused choices are answered as
 * a host would (an error tool result) and the model goes on. One conversation per match, started empty.
 */
export async function playToolsMatch(
  seat: Seat,
  trialText: string,
  first: TrialView,
  trial: TrialRef,
): Promise<void> {
  const matchId = first.match_id;
  const messages: Message[] = [{ role: "user", content: trialText }];
  const offered = new Set(seat.tools.map((t) => t.name));
  let unsent: ModelCall[] = [];
  let callsThisRound = 0;
  let nudges = 0;
  let round = first.round;
  const maxTokens = seat.settings.endpoint.decoding.max_tokens;
  // A server that sends tool calls without ids (some llama.cpp and vLLM parsers) gets ids of the runner's,
  // unique in the conversation, so the results it is sent back name the calls they answer.
  let unnamed = 0;
  for (;;) {
    const { reply, record } = await callModel(
      seat.settings,
      { system: seat.system, messages, tools: seat.tools },
      trial,
    );
    unsent.push(record);
    callsThisRound++;
    const toolCalls = reply.toolCalls.map((call) =>
      call.id === "" ? { ...call, id: `call_${++unnamed}` } : call,
    );
    messages.push({ role: "assistant", text: reply.text, toolCalls });
    const read = replyAnswer(reply, maxTokens);

    if (toolCalls.length === 0) {
      if (nudges < NUDGES && callsThisRound < MAX_CALLS_PER_ROUND) {
        nudges++;
        messages.push({ role: "user", content: read.readable ? NUDGE : `${read.why}. ${NUDGE}` });
        continue;
      }
      // The agent never used the tool: its text goes in (after any reasoning), as the host of a careless
      // agent might.
      const answer = await submitReply(seat, forcedArgs(matchId, round, read, unsent), unsent);
      if (attemptRecorded(answer)) unsent = [];
      countIfInvalid(seat, answer);
      if (finishedMatch(answer)) return;
      messages.push({
        role: "user",
        content: read.readable ? answer.text : refusalOfUnreadable(read.why, answer.text),
      });
      if (!answer.isError) round = nextRound(answer.structured, round, () => (callsThisRound = 0));
      nudges = 0;
      continue;
    }

    let finished = false;
    for (const call of toolCalls) {
      const result = await runToolCall(seat, call, offered, unsent);
      if (result.submitted && result.recorded) unsent = [];
      if (result.invalid) seat.settings.stats.invalidReply(result.recorded);
      if (result.submitted && !result.isError) {
        round = nextRound(result.structured, round, () => (callsThisRound = 0));
      }
      messages.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: result.text,
        isError: result.isError,
      });
      if (result.finished) finished = true;
    }
    if (finished) return;
    if (callsThisRound >= MAX_CALLS_PER_ROUND * 2 && unsent.length > 0) {
      // The model keeps calling tools without a move the server records: its last text goes in as the
      // reply (refused, most often, as unreadable), so the round's calls are recorded with an attempt and
      // the round moves towards its decision or its void instead of the trial being dropped unrecorded.
      const answer = await submitReply(seat, forcedArgs(matchId, round, read, unsent), unsent);
      if (attemptRecorded(answer)) unsent = [];
      countIfInvalid(seat, answer);
      if (finishedMatch(answer)) return;
      if (!attemptRecorded(answer)) {
        throw new Error(
          `round ${round} of ${matchId}: the runner's own submission was refused: ${answer.text}`,
        );
      }
      messages.push({ role: "user", content: answer.text });
      if (!answer.isError) round = nextRound(answer.structured, round, () => (callsThisRound = 0));
      // The next forced submission comes after another full budget of calls.
      if (callsThisRound > 0) callsThisRound = MAX_CALLS_PER_ROUND;
    }
  }
}

function forcedArgs(
  matchId: string,
  round: number,
  read: ReplyAnswer,
  calls: readonly ModelCall[],
): Structured {
  return { match_id: matchId, round, ...submittedAnswer(read), tokens: totalTokens(calls) ?? undefined };
}

/** The round the match now waits for, resetting the per-round budget when it moved on. */
function nextRound(structured: Structured | null, round: number, reset: () => void): number {
  const next = (structured?.next as { round?: number } | null | undefined)?.round;
  if (typeof next === "number" && next !== round) {
    reset();
    return next;
  }
  return round;
}

interface ToolOutcome {
  text: string;
  isError: boolean;
  structured: Structured | null;
  submitted: boolean;
  /** The server kept the submission as an attempt, with the model calls sent beside it. */
  recorded: boolean;
  /** The call was refused, or was the reply that voided its round: an invalid reply of the summary. */
  invalid: boolean;
  finished: boolean;
}

/** One tool call of the model, checked as a host would: only offered tools, arguments that parse. */
async function runToolCall(
  seat: Seat,
  call: ToolCall,
  offered: ReadonlySet<string>,
  unsent: readonly ModelCall[],
): Promise<ToolOutcome> {
  const refused = (text: string): ToolOutcome => ({
    text,
    isError: true,
    structured: null,
    submitted: false,
    recorded: false,
    invalid: true,
    finished: false,
  });
  if (!offered.has(call.name)) {
    return refused(`There is no tool named "${call.name}"; the tools are: ${[...offered].join(", ")}.`);
  }
  let args: unknown;
  try {
    args = JSON.parse(call.arguments === "" ? "{}" : call.arguments);
  } catch (error) {
    return refused(
      `The arguments of ${call.name} are not valid JSON (${(error as Error).message}); send a JSON object.`,
    );
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return refused(`The arguments of ${call.name} must be a JSON object.`);
  }
  if (call.name !== "submit_move") {
    const answer = await seat.connection.call(call.name, args as Structured);
    return { ...answer, submitted: false, recorded: false, invalid: answer.isError, finished: false };
  }
  // The runner measured the tokens; whatever the model claims is replaced.
  const submitted = { ...(args as Structured), tokens: totalTokens(unsent) ?? undefined };
  const answer = await submitReply(seat, submitted, unsent);
  return {
    ...answer,
    submitted: true,
    recorded: attemptRecorded(answer),
    invalid: gaveNoValidMove(answer),
    finished: finishedMatch(answer),
  };
}
