import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** A real SDK client on Streamable HTTP, sending the bearer token when one is given. */
export async function connectHttp(
  url: string,
  options: { token?: string; name?: string } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: options.name ?? "http-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/**
 * One decision the server acknowledged: submit_move answered with a recorded outcome. Besides its key, what
 * the client sent and was told, so an audit can find a decision recorded wrong, not only lost or doubled.
 */
export interface Acknowledged {
  match_id: string;
  round: number;
  /** The labels as the match showed them, in order: the i-th names the match's i-th action (action_order). */
  labels?: readonly string[];
  /** The label the client sent. */
  choice?: string;
  /** What submit_move answered: the opponent's label and the client's points for the round. */
  told?: { your_choice: string | null; opponent_choice: string | null; your_points: number };
  /** The player's trial in its study, as next_trial gave it (absent for a match outside a study). */
  trial_index?: number;
}

/** The part of submit_move's answer an audit checks against the record. */
export function toldOf(result: Record<string, unknown>): NonNullable<Acknowledged["told"]> {
  return {
    your_choice: result.your_choice as string | null,
    opponent_choice: result.opponent_choice as string | null,
    your_points: result.your_points as number,
  };
}

export interface TrialRun {
  acknowledged: Acknowledged[];
  /** Wall time of each acknowledged submit_move call, in milliseconds. */
  submitLatenciesMs: number[];
  /** The first transport/protocol failure that ended the run early (faults), if any. */
  failure: string | null;
}

/**
 * Plays `trials` one-shot prisoner's dilemmas on one connection (start_match, then submit_move with the
 * first label and the second in turn, so a decision stored as the other action would show). Stops at the first failed call — under a fault test that is the server dying — and keeps
 * what was acknowledged before it.
 */
export async function playOneShotTrials(
  client: Client,
  trials: number,
  signal?: { stopped: boolean },
): Promise<TrialRun> {
  const run: TrialRun = { acknowledged: [], submitLatenciesMs: [], failure: null };
  try {
    for (let i = 0; i < trials && !signal?.stopped; i++) {
      const started = await client.callTool({
        name: "start_match",
        arguments: { game: "prisoners-dilemma", opponent: "random" },
      });
      if (started.isError) throw new Error(`start_match: ${JSON.stringify(started.content)}`);
      const view = started.structuredContent as { match_id: string; labels: string[] };
      const choice = view.labels[i % view.labels.length] as string;
      const t0 = performance.now();
      const moved = await client.callTool({
        name: "submit_move",
        arguments: { match_id: view.match_id, round: 1, choice },
      });
      const elapsed = performance.now() - t0;
      if (moved.isError) throw new Error(`submit_move: ${JSON.stringify(moved.content)}`);
      const told = toldOf(moved.structuredContent as Record<string, unknown>);
      run.acknowledged.push({ match_id: view.match_id, round: 1, labels: view.labels, choice, told });
      run.submitLatenciesMs.push(elapsed);
    }
  } catch (error) {
    run.failure = error instanceof Error ? error.message : String(error);
  }
  return run;
}

/** A real SDK client whose every request goes to the next replica of a set (see replicaFetch). */
export async function connectReplicas(
  fetchOverReplicas: import("@modelcontextprotocol/client").FetchLike,
  options: { token?: string; name?: string } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  // The URL only names the path: replicaFetch picks the replica.
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:1/mcp"), {
    requestInit: { headers },
    fetch: fetchOverReplicas,
  });
  const client = new Client({ name: options.name ?? "replica-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}
