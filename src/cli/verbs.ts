// The CLI's verbs by name, each loaded only when it runs: `serve` never loads vega or the MCP client, and
// `--help` loads no verb at all (a process starts at the speed of the code it really needs).
import type { Command } from "./command.js";
import { VERB_SUMMARIES, type VerbName } from "./verb-summaries.js";

export interface Verb {
  readonly name: string;
  /** One line for `same-game --help` and `same-game VERB --help`. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

const LOADERS: Record<VerbName, () => Promise<Command>> = {
  serve: async () => (await import("./serve.js")).serveCommand,
  import: async () => (await import("./import.js")).importCommand,
  analyze: async () => (await import("./analyze.js")).analyzeCommand,
  demo: async () => (await import("./demo.js")).demoCommand,
  report: async () => (await import("./report.js")).reportCommand,
  export: async () => (await import("./export.js")).exportCommand,
  study: async () => (await import("./study.js")).studyCommand,
  run: async () => (await import("./run.js")).runCommand,
  cache: async () => (await import("./cache.js")).cacheCommand,
  erase: async () => (await import("./erase.js")).eraseCommand,
  "migrate-record": async () => (await import("./migrate-record.js")).migrateRecordCommand,
};

export const VERBS: readonly Verb[] = (Object.keys(VERB_SUMMARIES) as VerbName[]).map((name) => ({
  name,
  summary: VERB_SUMMARIES[name],
  load: LOADERS[name],
}));
