import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERBS } from "../../src/cli/verbs.js";
import { packageRoot } from "../../src/package-root.js";
import { connectClient, tempDeps } from "../support/harness.js";

// The README leads and docs/ holds the reference. These tests keep the two honest as the code moves:
// every link lands on a file and a heading that exist, no page cites the project's tracker, and the
// argument lists a reader copies from docs/tools.md and docs/cli.md are the ones the server advertises
// and the CLI parses.

const root = packageRoot();
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const text = (page: string) => readFileSync(join(root, page), "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** A page's headings as anchors, skipping lines inside code fences (a `# comment` is no heading). */
function anchors(page: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of text(page).split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && heading) found.add(anchor(heading[1] as string));
  }
  return found;
}

/** The cells of the rows of the first table whose header starts with `firstColumn`. */
function tableRows(page: string, firstColumn: string): string[][] {
  const lines = text(page).split("\n");
  const start = lines.findIndex((l) => l.startsWith(`| ${firstColumn} |`));
  expect(start, `${page} has a table headed "${firstColumn}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    // Split on cell bars, not on the escaped \| inside a cell.
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

describe("README and docs/", () => {
  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const [file, hash] = target.split("#") as [string, string | undefined];
        const linked = file === "" ? page : join(dirname(page), file);
        if (!existsSync(resolve(root, linked))) broken.push(`${page}: ${target} (no file ${linked})`);
        else if (hash !== undefined && linked.endsWith(".md") && !anchors(linked).has(hash))
          broken.push(`${page}: ${target} (no heading #${hash} in ${linked})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("say what the code does without citing tracker numbers", () => {
    const cited = pages.flatMap((page) =>
      text(page)
        .split("\n")
        .filter((line) => /\bissue[- ]?#?\d|\(#\d+\)/i.test(line))
        .map((line) => `${page}: ${line.trim()}`),
    );
    expect(cited).toEqual([]);
  });
});

describe("docs/tools.md lists each tool with the arguments its schema advertises", () => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  let tools: Awaited<ReturnType<Client["listTools"]>>["tools"];

  beforeAll(async () => {
    deps = tempDeps();
    client = await connectClient(deps);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client.close();
    deps.dispose();
  });

  it("names every tool, and only tools that exist", () => {
    const documented = tableRows("docs/tools.md", "tool").map((row) => row[0]?.replace(/`/g, ""));
    expect(documented.sort()).toEqual(tools.map((t) => t.name).sort());
  });

  it("names every argument, marks the optional ones `?` and the required ones without it", () => {
    const rows = new Map(
      tableRows("docs/tools.md", "tool").map((row) => [row[0]?.replace(/`/g, ""), row[1] ?? ""]),
    );
    const mismatches: string[] = [];
    for (const tool of tools) {
      const documented = rows.get(tool.name) ?? "";
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      const required = new Set(tool.inputSchema.required ?? []);
      const optionalMarks = new Set([...documented.matchAll(/`(\w+)\?`/g)].map((m) => m[1] as string));
      const plainMarks = new Set([...documented.matchAll(/`(\w+)`/g)].map((m) => m[1] as string));
      for (const name of properties) {
        if (required.has(name) && !plainMarks.has(name))
          mismatches.push(`${tool.name}: required \`${name}\` not documented as required`);
        if (!required.has(name) && !optionalMarks.has(name))
          mismatches.push(`${tool.name}: optional \`${name}?\` not documented`);
      }
      for (const name of optionalMarks) {
        if (!properties.includes(name))
          mismatches.push(`${tool.name}: documents \`${name}?\`, no such argument`);
        else if (required.has(name))
          mismatches.push(`${tool.name}: documents required \`${name}\` as optional`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe("docs/cli.md lists each verb with flags the verb parses", () => {
  it("every --flag of a verb's row is one of that verb's options, and every verb has a row", async () => {
    const rows = tableRows("docs/cli.md", "verb");
    const verbsInTable = new Set(rows.map((row) => row[0]?.replace(/`/g, "").split(" ")[0]));
    expect([...verbsInTable].sort()).toEqual(VERBS.map((v) => v.name).sort());
    const unknown: string[] = [];
    for (const row of rows) {
      const verbName = row[0]?.replace(/`/g, "").split(" ")[0];
      const verb = VERBS.find((v) => v.name === verbName);
      if (!verb) continue;
      const options = Object.keys((await verb.load()).options);
      // --catalog is read before any verb, by the CLI's entry point.
      for (const [, flag] of `${row[0]} ${row[1]}`.matchAll(/--([a-z][a-z-]*)/g)) {
        if (flag !== "catalog" && !options.includes(flag as string)) unknown.push(`${verbName}: --${flag}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("each verb's --help names the flags and sub-verbs of its row, its summary every analysis, table and format", async () => {
    const missing: string[] = [];
    for (const row of tableRows("docs/cli.md", "verb")) {
      const [verbName, sub] = (row[0] as string).replace(/`/g, "").split(" ") as [string, string | undefined];
      const verb = VERBS.find((v) => v.name === verbName);
      if (!verb) continue;
      const { usage } = await verb.load();
      const options = (row[1] as string).replace(/\\\|/g, "|");
      if (sub !== undefined && !usage.includes(sub)) missing.push(`${verbName} --help: ${sub}`);
      for (const [flag] of `${row[0]} ${options}`.matchAll(/--[a-z][a-z-]*/g)) {
        if (flag !== "--catalog" && !usage.includes(flag)) missing.push(`${verbName} --help: ${flag}`);
      }
      // A value written in capitals (a placeholder) is written the same in --help.
      for (const [, flag, value] of options.matchAll(/(--[a-z][a-z-]*) ([A-Z][A-Z_]*[^\s\]|)`]*)/g)) {
        const inHelp = new RegExp(`${flag} ([A-Z][A-Z_]*[^\\s\\]|)\`]*)`).exec(usage)?.[1];
        if (inHelp !== undefined && inHelp !== value)
          missing.push(`${verbName} --help: ${flag} ${inHelp}, not ${value}`);
      }
      // The one-line summary (same-game --help, and the foot of the verb's own) says what the verb does:
      // each analysis of analyze, each table of export, each --format it writes.
      const tables = /^`([a-z-]+(?:\|[a-z-]+)+) /.exec(options)?.[1]?.split("|") ?? [];
      const formats = /--format ([a-z|]+)/.exec(options)?.[1]?.split("|") ?? [];
      const named = [
        ...(verbName === "analyze" || verbName === "export" ? [sub] : []),
        ...tables,
        ...formats,
      ];
      for (const word of named) {
        if (word !== undefined && !verb.summary.toLowerCase().includes(word))
          missing.push(`${verbName} summary: ${word}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the run options table and run --help name the same flags", async () => {
    const run = await (VERBS.find((v) => v.name === "run") as (typeof VERBS)[number]).load();
    const inTable = new Set(
      tableRows("docs/cli.md", "flag").flatMap((row) =>
        [...(row[0] as string).matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]),
      ),
    );
    const inRowTexts = new Set(
      tableRows("docs/cli.md", "flag").flatMap((row) =>
        [...(row[1] as string).matchAll(/`--([a-z][a-z-]*)/g)].map((m) => m[1]),
      ),
    );
    const undocumented = Object.keys(run.options).filter(
      (flag) => !inTable.has(flag) && !inRowTexts.has(flag),
    );
    expect(undocumented).toEqual([]);
    const notInHelp = [...inTable].filter((flag) => !run.usage.includes(`--${flag}`));
    expect(notInHelp).toEqual([]);
  });
});
