import { createHash } from "node:crypto";
import { MAX_REPLY_CHARS } from "../mcp/tools/play/play-schemas.js";
import type { ModelReply } from "./endpoint.js";

/**
 * The most of a reply that travels on: the server's own limit on a submitted choice. A reply longer than
 * this (a hostile or broken endpoint's megabytes) goes on cut to it, text and each tool call's arguments
 * alike, and its record says how long the whole reply was and its SHA-256, so the record shows what came
 * back without a multi-megabyte message stalling the protocol (stdio carries at most 8 MiB).
 */
export const REPLY_CAP_CHARS = MAX_REPLY_CHARS;
/** The most a whole capped reply may hold (text and tool calls): well under the record's 200,000. */
const RAW_CAP_CHARS = 4 * REPLY_CAP_CHARS;

export interface CappedReply {
  readonly reply: ModelReply;
  /** The record's raw_reply: `{ text, tool_calls }`, plus `truncated: { chars, sha256 }` when cut. */
  readonly raw: string;
}

export function cappedReply(reply: ModelReply): CappedReply {
  const full = { text: reply.text, tool_calls: reply.toolCalls };
  const whole = JSON.stringify(full);
  const over =
    whole.length > RAW_CAP_CHARS ||
    reply.text.length > REPLY_CAP_CHARS ||
    reply.toolCalls.some((c) => c.arguments.length > REPLY_CAP_CHARS);
  if (!over) return { reply, raw: whole };
  const text = reply.text.slice(0, REPLY_CAP_CHARS);
  // Tool calls are kept, each cut to the cap, while they fit beside the text.
  let room = RAW_CAP_CHARS - text.length;
  const toolCalls = [];
  for (const call of reply.toolCalls) {
    const kept = { ...call, arguments: call.arguments.slice(0, REPLY_CAP_CHARS) };
    room -= kept.arguments.length + kept.name.length + kept.id.length;
    if (room < 0) break;
    toolCalls.push(kept);
  }
  const cut: ModelReply = { ...reply, text, toolCalls };
  const truncated = { chars: whole.length, sha256: createHash("sha256").update(whole).digest("hex") };
  return { reply: cut, raw: JSON.stringify({ text: cut.text, tool_calls: cut.toolCalls, truncated }) };
}
