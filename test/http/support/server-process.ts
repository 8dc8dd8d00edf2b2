import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/** The package root, found upwards from this file so the stress script works from its build folder too. */
function packageRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

export const CLI = join(packageRoot(), "dist", "cli", "main.js");

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/**
 * Spawns the built CLI, `node dist/cli/main.js serve --http --port 0 …`, and resolves once it announces
 * its endpoint on stderr. Needs `npm run build` first (npm test does it). `env` is added to this process's.
 */
export async function startServerProcess(
  dbPath: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build before the HTTP tests.`);
  const child = spawn(
    process.execPath,
    [
      CLI,
      "serve",
      "--http",
      "--port",
      "0",
      "--db",
      dbPath,
      // The operator's surface unless the test asks for one.
      ...(extraArgs.includes("--toolsets") ? [] : ["--toolsets", "all"]),
      ...extraArgs,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    },
  );
  let err = "";
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 15 s: ${err}`)), 15_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const found = /serving MCP over HTTP at (\S+);/.exec(err);
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${err}`));
    });
  });
  return { url, child, exited, stderr: () => err, stdout: () => out };
}

/** Runs the CLI to completion (for start-up refusals): exit code and stderr. */
export function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}
