// The CLI's verbs by name, each loaded only when it runs: `serve` never loads vega or the MCP client, and
// `--help` loads no verb at all (a process starts at the speed of the code it really needs).
import type { Command } from "./command.js";

export interface Verb {
  readonly name: string;
  /** One line for `same-game --help` and `same-game VERB --help`. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

export const VERBS: readonly Verb[] = [
  {
    name: "serve",
    summary: "run the MCP server on stdio (what an MCP host launches), or on HTTP with --http",
    load: async () => (await import("./serve.js")).serveCommand,
  },
  {
    name: "import",
    summary: "import published counts (CSV) or match transcripts (JSONL) into the record",
    load: async () => (await import("./import.js")).importCommand,
  },
  {
    name: "analyze",
    summary:
      "print an analysis of the record (robustness, sensitivity, equilibria, power, repeated, story-labels)",
    load: async () => (await import("./analyze.js")).analyzeCommand,
  },
  {
    name: "demo",
    summary:
      "three scripted reference agents play a study over stdio MCP; tables printed, HTML report written",
    load: async () => (await import("./demo.js")).demoCommand,
  },
  {
    name: "report",
    summary: "write the record (or one study) as a self-contained HTML report with charts",
    load: async () => (await import("./report.js")).reportCommand,
  },
  {
    name: "export",
    summary:
      "write the record as CSV or JSONL: decisions, matches (JSONL = the import format), attempts, studies",
    load: async () => (await import("./export.js")).exportCommand,
  },
  {
    name: "study",
    summary: "register a study design from a file, list the studies, show one's design and progress",
    load: async () => (await import("./study.js")).studyCommand,
  },
  {
    name: "run",
    summary:
      "play a registered study with a model endpoint (OpenAI-compatible or Anthropic), one fresh context per trial",
    load: async () => (await import("./run.js")).runCommand,
  },
  {
    name: "migrate-record",
    summary: "copy an SQLite record into PostgreSQL, verified by row counts and identical analysis output",
    load: async () => (await import("./migrate-record.js")).migrateRecordCommand,
  },
];
