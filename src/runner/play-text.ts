import type { ModelCall } from "../domain/model-call.js";
import { totalTokens } from "../domain/model-call.js";
import { parseReply } from "../domain/parseReply.js";
import type { TrialRef } from "./cache/reply-key.js";
import type { Message, ModelReply } from "./endpoint.js";
import { callModel } from "./model-caller.js";
import { type ReplyAnswer, refusalOfUnreadable, replyAnswer, submittedAnswer } from "./reply-answer.js";
import { countIfInvalid, finishedMatch, type Seat, submitReply, type TrialView } from "./seat.js";

/** More submissions than this for one round means the server is not advancing it: give the trial up. */
const MAX_SUBMISSIONS_PER_ROUND = 8;

/**
 * Text mode, the published studies' design: the model is shown the prompt, its text reply is submitted
 * verbatim. One conversation per match, started empty; a refused reply is answered with the server's
 * words and the model replies again, in the same conversation.
 */
export async function playTextMatch(
  seat: Seat,
  first: TrialView,
  trial: TrialRef,
  answered?: FirstReplies,
): Promise<void> {
  let given = answered;
  const messages: Message[] = [];
  let view = first;
  let userText = first.prompt;
  let submissions = 0;
  for (;;) {
    messages.push({ role: "user", content: userText });
    const calls: ModelCall[] = [...(given?.calls ?? [])];
    const replies = given ? given.replies : await sample(seat, messages, calls, trial);
    const chosen = majorityReply(replies, view.labels, seat.settings.endpoint.decoding.max_tokens);
    // The conversation goes on with what the model said, reasoning and all, as it wrote it.
    messages.push({ role: "assistant", text: chosen.reply.text, toolCalls: [] });
    const answer = await submitReply(
      seat,
      {
        match_id: view.match_id,
        round: view.round,
        ...submittedAnswer(chosen.read),
        tokens: totalTokens(calls) ?? undefined,
      },
      calls,
    );
    given?.submitted();
    given = undefined;
    // Counted before a finished match returns: the reply that voided the last round is invalid too.
    countIfInvalid(seat, answer);
    if (finishedMatch(answer)) return;
    const next = answer.structured?.next as TrialView | null | undefined;
    if (!answer.isError && next) {
      submissions = 0;
      view = next;
      userText = `${answer.structured?.outcome as string}\n\n${next.prompt}`;
      continue;
    }
    if (!answer.isError)
      throw new Error(`submit_move neither finished nor continued the match: ${answer.text}`);
    if (++submissions >= MAX_SUBMISSIONS_PER_ROUND) {
      throw new Error(
        `round ${view.round} of ${view.match_id} is still open after ${submissions} replies: ${answer.text}`,
      );
    }
    userText = chosen.read.readable ? answer.text : refusalOfUnreadable(chosen.read.why, answer.text);
  }
}

/** The replies to a match's first prompt obtained beforehand (a provider batch, `run --batch`). */
export interface FirstReplies {
  readonly replies: readonly ModelReply[];
  readonly calls: readonly ModelCall[];
  /** Told once they have been submitted, so they are never submitted again. */
  readonly submitted: () => void;
}

/** K replies to the same conversation (in parallel), every call recorded. */
async function sample(
  seat: Seat,
  messages: readonly Message[],
  calls: ModelCall[],
  trial: TrialRef,
): Promise<ModelReply[]> {
  const request = { system: seat.system, messages: [...messages] };
  const results = await Promise.all(
    Array.from({ length: seat.samples }, (_, i) => callModel(seat.settings, request, trial, i)),
  );
  for (const { record } of results) calls.push(record);
  return results.map(({ reply }) => reply);
}

/** A reply and the part of it a choice is read from. */
export interface ReadReply {
  readonly reply: Pick<ModelReply, "text" | "finishReason">;
  readonly read: ReplyAnswer;
}

/**
 * Self-consistency: the reply whose label most replies chose (the first such reply), read after its
 * reasoning; ties go to the label reached first. A reply with no answer (cut off at --max-tokens, its
 * reasoning never closed) has no vote. With no readable reply, the first reply is submitted and refused.
 */
export function majorityReply(
  replies: readonly Pick<ModelReply, "text" | "finishReason">[],
  labels: readonly string[],
  maxTokens: number,
): ReadReply {
  const read = replies.map((reply) => ({ reply, read: replyAnswer(reply, maxTokens) }));
  const first = read[0] as ReadReply;
  if (read.length === 1) return first;
  const labelMap = Object.fromEntries(labels.map((label) => [label, label]));
  const votes = new Map<string, { count: number; reply: ReadReply }>();
  for (const candidate of read) {
    if (!candidate.read.readable) continue;
    const parsed = parseReply(candidate.read.answer, labelMap);
    if (!parsed.ok) continue;
    const vote = votes.get(parsed.action) ?? { count: 0, reply: candidate };
    vote.count++;
    votes.set(parsed.action, vote);
  }
  let best: { count: number; reply: ReadReply } | undefined;
  for (const vote of votes.values()) if (!best || vote.count > best.count) best = vote;
  return best?.reply ?? first;
}
