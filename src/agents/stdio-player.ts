import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createRng, type Rng } from "../domain/rng.js";
import type { ReferenceAgent } from "./agent.js";

// A reference agent as an MCP host would run it: a spawned `same-game serve` over stdio, the real SDK
// client, and nothing but tool calls. Each session is its own server process (one MCP session), so the
// analysis sees several sessions per player and can resample them as clusters.

/** How to launch the server: `node <cli> serve --db <db> --player <agent>`. */
export interface ServerLaunch {
  readonly cliPath: string;
  readonly dbPath: string;
}

interface TrialView {
  match_id: string;
  round: number;
  rounds: number | null;
  prompt: string;
  labels: string[];
}

type Structured = Record<string, unknown>;

/**
 * Opens one MCP session with a freshly spawned server that records this agent's moves. A player gets the
 * default, blind surface (as an agent under evaluation would); setup asks for the `studies` toolset.
 */
export async function connectAgent(launch: ServerLaunch, player: string, toolsets = "play"): Promise<Client> {
  const client = new Client({ name: `same-game-reference-agent-${player}`, version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [launch.cliPath, "serve", "--db", launch.dbPath, "--player", player, "--toolsets", toolsets],
      stderr: "ignore",
    }),
  );
  return client;
}

/** A tool's structuredContent; an isError answer becomes an Error carrying the server's text. */
export async function callTool(client: Client, name: string, args: Structured): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join(" ");
    throw new Error(`${name} failed: ${text}`);
  }
  return result.structuredContent as Structured;
}

/** Plays every round of one match, starting from its first view. */
async function playMatch(client: Client, agent: ReferenceAgent, first: TrialView, rng: Rng): Promise<void> {
  let view: TrialView | null = first;
  let previousOutcome: string | null = null;
  while (view !== null) {
    const choice = agent.choose(
      { prompt: view.prompt, labels: view.labels, round: view.round, rounds: view.rounds, previousOutcome },
      rng,
    );
    const result = await callTool(client, "submit_move", {
      match_id: view.match_id,
      round: view.round,
      choice,
    });
    previousOutcome = result.outcome as string;
    view = (result.next as TrialView | null) ?? null;
  }
}

export interface StudyPlayOptions {
  readonly launch: ServerLaunch;
  readonly studyId: string;
  readonly agent: ReferenceAgent;
  /** Seeds the agent's choices, with its name and the session number; the same seed replays the same play. */
  readonly seed: string | number;
  /** Trials per MCP session; the study is played in as many sessions as that takes. */
  readonly trialsPerSession: number;
  /** Called after every finished trial. */
  readonly onTrial?: () => void;
}

/**
 * Plays the agent's whole share of a study through `next_trial` / `submit_move`, session after session.
 * The agent's randomness is seeded per session, so the same seed replays the same choices.
 */
export async function playStudy(options: StudyPlayOptions): Promise<{ trials: number; sessions: number }> {
  const { launch, studyId, agent, seed, trialsPerSession, onTrial } = options;
  let trials = 0;
  let sessions = 0;
  for (let complete = false; !complete; sessions++) {
    const rng = createRng(`${seed}:${agent.name}:${sessions}`);
    const client = await connectAgent(launch, agent.name);
    try {
      for (let played = 0; played < trialsPerSession; played++) {
        const next = await callTool(client, "next_trial", { study_id: studyId });
        if (next.complete === true) {
          complete = true;
          break;
        }
        await playMatch(client, agent, next.trial as TrialView, rng);
        trials++;
        onTrial?.();
        // The last trial done: stop here rather than spawn a session only to hear "complete".
        if ((next.trial_index as number) + 1 >= (next.trials_per_player as number)) {
          complete = true;
          break;
        }
      }
    } finally {
      await client.close();
    }
  }
  return { trials, sessions };
}
