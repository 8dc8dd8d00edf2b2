import type { DecisionContext } from "../agents/agent.js";
import { REFERENCE_AGENTS } from "../agents/reference-agents.js";
import { createRng } from "../domain/rng.js";

// What a scripted model "thinks": it reads the conversation it was sent — only that — finds the latest
// round it is asked about, and answers as one of the reference agents would (payoff-reader, story-swayed,
// uniform), chosen by the model name. It never knows a condition id; labels come from the text it is shown.

/** The texts the model was shown (user turns and tool results), oldest first; and whether tools were offered. */
export interface Conversation {
  readonly model: string;
  readonly system: string;
  readonly texts: readonly string[];
  readonly toolsOffered: boolean;
}

export type ScriptedReply =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "tool"; readonly name: string; readonly arguments: string };

const TOOL_HEADER = /Match (\S+), round (\d+)\.\n\n/;
const REPLY_LINE = /\n\n\(Reply with submit_move: match_id "[^"]*", round \d+, choice = one of (.*)\.\)\s*$/;
const ANSWER_LINE = /Answer with exactly one of: (.*)\.\s*$/m;

interface Asked {
  context: DecisionContext;
  matchId: string | null;
}

/** The latest decision the conversation asks for, read from its text alone; null if none can be found. */
export function latestDecision(conversation: Conversation): Asked | null {
  const { texts } = conversation;
  for (let i = texts.length - 1; i >= 0; i--) {
    const text = texts[i] as string;
    const header = TOOL_HEADER.exec(text);
    const reply = REPLY_LINE.exec(text);
    if (header && reply) {
      const start = header.index + header[0].length;
      const prompt = text.slice(start, reply.index);
      const labels = [...(reply[1] as string).matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
      const before = text.slice(0, header.index).trim();
      return {
        context: context(prompt, labels, Number(header[2]), before || null),
        matchId: header[1] as string,
      };
    }
    const answer = ANSWER_LINE.exec(text);
    if (answer) {
      const labels = splitAlternatives(answer[1] as string);
      const paragraphs = text.split("\n\n");
      const previous = i > 0 && paragraphs.length > 1 ? (paragraphs[0] as string) : null;
      return { context: context(text, labels, i + 1, previous), matchId: null };
    }
  }
  return null;
}

function context(
  prompt: string,
  labels: string[],
  round: number,
  previousOutcome: string | null,
): DecisionContext {
  // One-shot prompts never speak of rounds; repeated ones do.
  const rounds = /\bround\b/i.test(prompt) ? null : 1;
  return { prompt, labels, round, rounds, previousOutcome };
}

/** "A, B or C" → ["A", "B", "C"] (the inverse of joinAlternatives for labels without ", " or " or "). */
function splitAlternatives(text: string): string[] {
  const or = text.lastIndexOf(" or ");
  if (or < 0) return [text.trim()];
  return [...text.slice(0, or).split(", "), text.slice(or + 4)].map((s) => s.trim());
}

/** The reference agent a model name asks for: the name ends in payoff-reader, story-swayed or uniform. */
function agentFor(model: string) {
  return (
    REFERENCE_AGENTS.find((agent) => model.endsWith(agent.name)) ??
    (REFERENCE_AGENTS[0] as (typeof REFERENCE_AGENTS)[number])
  );
}

/**
 * The scripted model's reply: a submit_move call when tools are offered, the choice as text otherwise.
 * `draw` seeds the random agents' choice: one value per request, as a sampled model draws afresh each time.
 */
export function scriptedReply(conversation: Conversation, draw: number | string): ScriptedReply {
  const asked = latestDecision(conversation);
  if (asked === null) return { kind: "text", text: "I do not see a question to answer." };
  let choice: string;
  try {
    choice = agentFor(conversation.model).choose(asked.context, createRng(`${conversation.model}:${draw}`));
  } catch {
    return { kind: "text", text: "I cannot read the options." };
  }
  if (conversation.toolsOffered && asked.matchId !== null) {
    return {
      kind: "tool",
      name: "submit_move",
      arguments: JSON.stringify({ match_id: asked.matchId, round: asked.context.round, choice }),
    };
  }
  // A system message asking for reasoning gets some, with the choice alone on the last line.
  const reasons = /step by step|reasoning/i.test(conversation.system);
  return { kind: "text", text: reasons ? `Weighing the options.\n${choice}` : choice };
}
