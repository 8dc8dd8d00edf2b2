import type { ModelReply } from "./endpoint.js";

// A reasoning model (DeepSeek-R1, Qwen3, QwQ served by vLLM, Ollama or llama.cpp without a reasoning
// parser) writes its thinking into the reply itself, `<think>…</think>` before the answer. The thinking
// weighs the labels, often names one it later drops ("my answer is X… wait"), so what the runner submits
// as the model's choice is what follows the reasoning: everything up to and including the last closing
// tag is set aside (and recorded as the decision's rationale; every model call keeps the whole reply). A
// reply that opens a reasoning block it never closes has given no answer, and one the endpoint cut off at
// --max-tokens has not finished giving it: neither is read, whatever labels it names.

/** The tags reasoning models wrap their thinking in, case-insensitive. */
const CLOSING = /<\/(?:think|thinking|reasoning)\s*>/gi;
const OPENING = /<(?:think|thinking|reasoning)(?:\s[^>]*)?>/i;

/** The finish reasons of a reply cut off at the request's max_tokens: OpenAI-compatible, then Anthropic. */
const CUT_OFF = new Set(["length", "max_tokens"]);

export type ReplyAnswer =
  | {
      readonly readable: true;
      /** The text to read a choice from: the reply after its reasoning, or the whole reply without any. */
      readonly answer: string;
      /** The reasoning set aside (through its closing tag), or null when the reply had none. */
      readonly reasoning: string | null;
    }
  | {
      readonly readable: false;
      /** Why no choice is read from it, as the model is told: "Your reply …". */
      readonly why: string;
      readonly cutOff: boolean;
    };

/** Whether the endpoint stopped the reply at the request's max_tokens rather than where the model ended it. */
export function wasCutOff(reply: Pick<ModelReply, "finishReason">): boolean {
  return reply.finishReason !== null && CUT_OFF.has(reply.finishReason);
}

/** The part of a reply a choice is read from, or why there is none; `maxTokens` is the request's limit. */
export function replyAnswer(
  reply: Pick<ModelReply, "text" | "finishReason">,
  maxTokens: number,
): ReplyAnswer {
  if (wasCutOff(reply)) {
    return {
      readable: false,
      cutOff: true,
      why: `Your reply was cut off at the ${maxTokens}-token limit before it ended, so no choice is read from it`,
    };
  }
  const { text } = reply;
  let end = -1;
  for (const match of text.matchAll(CLOSING)) end = match.index + match[0].length;
  const answer = end < 0 ? text : text.slice(end);
  if (OPENING.test(answer)) {
    return {
      readable: false,
      cutOff: false,
      why: "Your reply opens a reasoning block (<think>) it never closes, so it gives no answer after it",
    };
  }
  return end < 0
    ? { readable: true, answer: text, reasoning: null }
    : { readable: true, answer: answer.trim(), reasoning: text.slice(0, end) };
}

/**
 * What is submitted for a reply: the answer after its reasoning as the choice, the reasoning as the
 * decision's rationale. A reply with no answer (cut off, reasoning never closed) is submitted empty, so the
 * server counts it as the invalid reply it is, and no label named in its reasoning is read as a choice.
 */
export function submittedAnswer(read: ReplyAnswer): { choice: string; rationale?: string } {
  if (!read.readable) return { choice: "" };
  return read.reasoning === null
    ? { choice: read.answer }
    : { choice: read.answer, rationale: read.reasoning };
}

/** The server's refusal of an empty reply, saying why the model's reply gave none. */
export function refusalOfUnreadable(why: string, refusal: string): string {
  const empty = /^Your reply is empty; /;
  return empty.test(refusal) ? refusal.replace(empty, `${why}; `) : `${why}. ${refusal}`;
}
