// One line per verb, for `same-game --help` and `same-game VERB --help`. Kept apart from the verbs' loaders
// (verbs.ts) so that a bundle of one verb (src/cli/bundles/) carries its line without the other verbs' code.

export const VERB_SUMMARIES = {
  serve: "run the MCP server on stdio (what an MCP host launches), or on HTTP with --http",
  import:
    "import published counts (CSV, optionally per session) or match transcripts (JSONL) into the record, or remove an import",
  analyze:
    "print an analysis of the record (robustness, compare, sensitivity, equilibria, power, repeated, story-labels)",
  demo: "three scripted reference agents play a study over stdio MCP; tables printed, HTML report written",
  report: "write the record (or one study) as a self-contained HTML report with charts",
  export:
    "write the record as CSV, JSONL or Parquet: decisions, matches (JSONL = the import format), attempts, model-calls (the runner's per-call log), studies, counts (per session, the import format), or the leaderboard (the ranks of analyze compare)",
  study: "register a study design from a file, list the studies, show one's design and progress",
  run: "play a registered study with a model endpoint (OpenAI-compatible or Anthropic), one fresh context per trial",
  cache: "list, prune or clear the response cache of run --cache",
  erase:
    "delete one player's, bearer token's or MCP session's data (or one study's trials of a player or token) from the record, for a withdrawal of consent",
  "migrate-record":
    "copy an SQLite record into PostgreSQL, verified by row counts and identical analysis output",
} as const;

export type VerbName = keyof typeof VERB_SUMMARIES;
