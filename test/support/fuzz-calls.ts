import type { Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { HOSTILE_STRINGS, hostileArgs, STACK_TRACE, validArguments } from "./hostile-calls.js";

/** What a run of fuzzed tools/call requests got back; a crash is anything but a clean answer. */
export interface FuzzTally {
  calls: number;
  results: number;
  toolErrors: number;
  protocolErrors: number;
  /** Each unclean answer: a hang, a dropped connection, an internal error, a stack trace. */
  crashes: string[];
  seconds: number;
}

/** A tools/call as sent on the wire, without the client checking it first. */
interface RawCall {
  name: unknown;
  arguments: unknown;
}

const CALL_TIMEOUT_MS = 20_000;

/**
 * Sends `calls` fuzzed tools/call requests, one after another, to a server the client is connected to
 * (with a match and a study of its own to aim at): mostly each listed tool with hostile arguments, some
 * with a hostile name or arguments that are not an object. Reproducible from `seed`.
 */
export async function fuzzToolCalls(
  client: Client,
  options: { calls: number; seed: number; matchId: string; studyId: string },
): Promise<FuzzTally> {
  const { tools } = await client.listTools();
  const valid = validArguments(options.matchId, options.studyId);
  const perTool = tools.map((tool) =>
    hostileArgs(
      Object.keys((tool.inputSchema as { properties?: object }).properties ?? {}),
      valid[tool.name] ?? {},
      options.matchId,
    ).map((args): RawCall => ({ name: tool.name, arguments: args })),
  );
  const oddCall = fc.record({
    name: fc.oneof(
      fc.constantFrom<unknown>(...HOSTILE_STRINGS, "constructor", "toString", "__proto__", 42, null),
      fc.string({ unit: "binary", maxLength: 32 }),
    ),
    arguments: fc.constantFrom<unknown>({}, [], [1, 2], "x", null, 7),
  });
  const everyCall = fc.oneof(
    { arbitrary: fc.oneof(...perTool), weight: 9 },
    { arbitrary: oddCall, weight: 1 },
  );
  const sample = fc.sample(everyCall, { numRuns: options.calls, seed: options.seed });

  const tally: FuzzTally = {
    calls: 0,
    results: 0,
    toolErrors: 0,
    protocolErrors: 0,
    crashes: [],
    seconds: 0,
  };
  const t0 = performance.now();
  const request = client as unknown as {
    request(r: unknown, o: { timeout: number }): Promise<{ isError?: boolean; content?: unknown }>;
  };
  for (const call of sample) {
    tally.calls += 1;
    const shown = `${String(call.name).slice(0, 40)}(${JSON.stringify(call.arguments)?.slice(0, 120)})`;
    try {
      const result = await request.request(
        { method: "tools/call", params: call },
        { timeout: CALL_TIMEOUT_MS },
      );
      if (STACK_TRACE.test(JSON.stringify(result.content ?? []))) tally.crashes.push(`stack trace: ${shown}`);
      if (result.isError) tally.toolErrors += 1;
      else tally.results += 1;
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string };
      // -32602 (invalid params) and -32600 are clean refusals; a timeout, a lost connection or an internal
      // error (-32603) is not.
      if ((code === -32602 || code === -32600) && !STACK_TRACE.test(message ?? "")) tally.protocolErrors += 1;
      else tally.crashes.push(`${code ?? "no code"} ${String(message).slice(0, 160)}: ${shown}`);
    }
  }
  tally.seconds = (performance.now() - t0) / 1000;
  return tally;
}

/** A finished match and a registered study on this connection: targets a fuzzed call can aim at. */
export async function fuzzTargets(client: Client): Promise<{ matchId: string; studyId: string }> {
  const structured = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, unknown>;
  };
  const view = await structured("start_match", {
    game: "prisoners-dilemma",
    framing: "business+familiar",
    opponent: "always-defect",
    seed: 7,
  });
  const matchId = view.match_id as string;
  await structured("submit_move", { match_id: matchId, round: 1, choice: "Cooperate" });
  const study = await structured("register_study", {
    name: "fuzz-target",
    games: ["repeated-pd"],
    framings: ["repeated-plain"],
    labels: ["familiar"],
    trials_per_cell: 2,
  });
  return { matchId, studyId: study.study_id as string };
}
