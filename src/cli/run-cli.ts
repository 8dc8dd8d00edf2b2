import { resolveCatalogDir } from "../domain/shipped-catalogs.js";
import { keepStderrFailuresHarmless, logError } from "../log.js";
import { OutsideFailure } from "../outside-failure.js";
import { printable } from "../queries/format.js";
import { SERVER_VERSION } from "../server-version.js";
import { recordWriteFailureLine } from "../store/engines/record-write-refusal.js";
import { UsageError } from "../usage-error.js";
import { parseCommandArgs } from "./command.js";
import { quietWhenStdoutReaderLeaves } from "./stdout-reader-gone.js";
import type { Verb } from "./verbs.js";

// The CLI itself: a verb's flags parsed, the verb run, a usage error shown as one line with exit 2. The
// verbs are given by the entry that runs it: every verb (unbundled.ts), or the one verb of a bundle.

function overview(verbs: readonly Verb[]): string {
  const width = Math.max(...verbs.map((c) => c.name.length));
  const lines = verbs.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "usage: same-game <command> [options] [--catalog DIR]   (same-game <command> --help for its options; same-game --version)",
    "       --catalog DIR (or SAME_GAME_CATALOG): your own games (DIR/*.json, DIR/games/) and framings (DIR/framings/), or a shipped catalog by name (ordinal-2x2)",
    "",
    ...lines,
  ].join("\n");
}

async function main(verbs: readonly Verb[], argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === "--version" || verb === "-V" || verb === "version") {
    process.stdout.write(`same-game ${SERVER_VERSION}\n`);
    return 0;
  }
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    process.stdout.write(`${overview(verbs)}\n`);
    return verb === undefined ? 2 : 0;
  }
  const found = verbs.find((c) => c.name === verb);
  if (!found)
    throw new UsageError(`Unknown command "${verb}"; commands: ${verbs.map((c) => c.name).join(", ")}.`);
  const command = await found.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`usage: ${command.usage}\n\n${found.summary}\n`);
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
      process.env.SAME_GAME_CATALOG = resolveCatalogDir(dir);
    } else {
      rest.push(arg);
    }
  }
  return rest;
}

/** Runs the command line of this process with these verbs; its outcome is the process's exit code. */
export function runCli(verbs: readonly Verb[]): void {
  keepStderrFailuresHarmless();
  quietWhenStdoutReaderLeaves();
  main(verbs, process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof UsageError) {
        // One line, always: a newline or escape sequence inside a value is shown escaped.
        process.stderr.write(`same-game: ${printable(error.message)}\n`);
        process.exitCode = 2;
      } else if (error instanceof OutsideFailure) {
        process.stderr.write(`same-game: ${printable(error.message)}\n`);
        process.exitCode = 1;
      } else if (recordWriteFailureLine(error) !== null) {
        // Not a bug of same-game: the disk or another process; one line, as for bad input.
        process.stderr.write(`same-game: ${recordWriteFailureLine(error)}\n`);
        process.exitCode = 1;
      } else {
        logError("internal failure", error);
        process.exitCode = 1;
      }
    },
  );
}
