import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { pdDesign, registerStudy, runCliAsync, scriptedRunArgs, useRunSandbox } from "./runner-harness.js";

// A failed call is told on the operator's terminal with what the endpoint said. That text is the
// endpoint's to choose: an escape sequence in it would clear the screen or retitle the window, a line
// break would forge a line of same-game's own, a megabyte would be one line of a megabyte, and a key it
// echoes must not be shown at all.

const box = useRunSandbox("same-game-endpoint-words-");

const KEY = "sk-endpoint-words-0123456789";
const ESC = "\u001b";
const SAID = `Bad gateway ${ESC}[2J${ESC}]0;pwned\u0007\nFORGED same-game run: all good\r${KEY} ${"A".repeat(100_000)}`;

describe("same-game run, an endpoint's words in its failure lines", () => {
  it("quotes them escaped, on one line, cut at 500 characters, without the key", async () => {
    box.endpoint = await startScriptedEndpoint({
      apiKey: KEY,
      faults: { serverErrorEvery: 1, serverErrorMessage: SAID },
    });
    const study = registerStudy(box.db, pdDesign("words", 3, 5));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "1", "--retries", "0"]), {
      OPENAI_API_KEY: KEY,
    });
    expect(run.status, run.stderr).toBe(1);
    for (const output of [run.stderr, run.stdout]) {
      expect(output).not.toContain(ESC);
      expect(output).not.toContain("\r");
      expect(output).not.toContain(KEY);
      expect(output.split("\n").filter((line) => line.startsWith("FORGED"))).toEqual([]);
    }
    // The SDK's message is "500 " and the endpoint's message; 500 characters of it are quoted, escaped.
    const quoted = `500 Bad gateway \\x1b[2J\\x1b]0;pwned\\x07\\x0aFORGED same-game run: all good\\x0d[redacted] `;
    const failures = run.stderr.split("\n").filter((line) => line.includes(" failed: HTTP 500: "));
    expect(failures).toHaveLength(5);
    for (const line of failures) {
      expect(line).toMatch(/^same-game run: trial [0-9a-f]{32} failed: HTTP 500: /);
      const words = line.slice(line.indexOf("HTTP 500: ") + "HTTP 500: ".length);
      expect(words.startsWith(quoted)).toBe(true);
      // 500 characters of the endpoint's text (with the key replaced) and how long it was.
      const length = `500 ${SAID}`.replace(KEY, "[redacted]").length;
      expect(words.endsWith(`A… (${length} characters, cut)`)).toBe(true);
      expect(words.length).toBe(500 + `… (${length} characters, cut)`.length);
    }
    // Five failed trials in a row stop the run; the reason quotes the last, as short.
    expect(run.stdout).toMatch(
      /^Stopped early: 5 trials in a row failed; the last: HTTP 500: 500 Bad gateway \\x1b\[2J/m,
    );
    expect(Math.max(...run.stdout.split("\n").map((line) => line.length))).toBeLessThan(700);
  }, 60_000);
});
