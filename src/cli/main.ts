#!/usr/bin/env node
import { resolve } from "node:path";
import { keepStderrFailuresHarmless, logError } from "../log.js";
import { printable } from "../queries/format.js";
import { SERVER_VERSION } from "../server-version.js";
import { UsageError } from "../usage-error.js";
import { analyzeCommand } from "./analyze.js";
import { type Command, parseCommandArgs } from "./command.js";
import { demoCommand } from "./demo.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { migrateRecordCommand } from "./migrate-record.js";
import { reportCommand } from "./report.js";
import { runCommand } from "./run.js";
import { serveCommand } from "./serve.js";
import { studyCommand } from "./study.js";

const COMMANDS: readonly Command[] = [
  serveCommand,
  importCommand,
  analyzeCommand,
  demoCommand,
  reportCommand,
  exportCommand,
  studyCommand,
  runCommand,
  migrateRecordCommand,
];

function overview(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`);
  return [
    "usage: same-game <command> [options] [--catalog DIR]   (same-game <command> --help for its options; same-game --version)",
    "       --catalog DIR (or SAME_GAME_CATALOG): your own games (DIR/*.json, DIR/games/) and framings (DIR/framings/)",
    "",
    ...lines,
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === "--version" || verb === "-V" || verb === "version") {
    process.stdout.write(`same-game ${SERVER_VERSION}\n`);
    return 0;
  }
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    process.stdout.write(`${overview()}\n`);
    return verb === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === verb);
  if (!command)
    throw new UsageError(`Unknown command "${verb}"; commands: ${COMMANDS.map((c) => c.name).join(", ")}.`);
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`usage: ${command.usage}\n\n${command.summary}\n`);
    return 0;
  }
  await command.run(parseCommandArgs(command, withUserCatalog(rest)));
  return 0;
}

/**
 * `--catalog DIR` (any verb): the user's own games and framings beside the shipped ones. It is handed on
 * as SAME_GAME_CATALOG, so the catalog loader and every process a verb starts (demo players) see it too.
 */
function withUserCatalog(args: readonly string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--catalog" || arg.startsWith("--catalog=")) {
      const dir = arg === "--catalog" ? args[++i] : arg.slice("--catalog=".length);
      if (dir === undefined || dir === "" || dir.startsWith("--")) {
        throw new UsageError("--catalog needs a folder of game (and framing) JSON files.");
      }
      process.env.SAME_GAME_CATALOG = resolve(dir);
    } else {
      rest.push(arg);
    }
  }
  return rest;
}

keepStderrFailuresHarmless();
main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      // One line, always: a newline or escape sequence inside a value is shown escaped.
      process.stderr.write(`same-game: ${printable(error.message)}\n`);
      process.exitCode = 2;
    } else {
      logError("internal failure", error);
      process.exitCode = 1;
    }
  },
);
