import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EndpointError } from "../../src/runner/endpoint.js";
import { openAiEndpoint } from "../../src/runner/openai-endpoint.js";

// An OpenAI-compatible server's error is shown in its own words, whether it nests them as OpenAI does
// (`{"error": {"message": …}}`) or answers flat as vLLM does (`{"object": "error", "message": …}`).

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A loopback server answering every request with this status and JSON body. */
async function answering(status: number, body: object): Promise<string> {
  const listening = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`;
}

async function failureOf(baseURL: string): Promise<EndpointError> {
  const endpoint = openAiEndpoint({ model: "X", baseURL, apiKey: "no-key", decoding: { max_tokens: 16 } });
  try {
    await endpoint.complete(
      { system: "s", messages: [{ role: "user", content: "hi" }] },
      new AbortController().signal,
    );
  } catch (error) {
    if (error instanceof EndpointError) return error;
    throw error;
  }
  throw new Error("the endpoint answered");
}

describe("an OpenAI-compatible endpoint's error body", () => {
  it("vLLM's flat body gives its message", async () => {
    const url = await answering(404, {
      object: "error",
      message: "The model `X` does not exist.",
      type: "NotFoundError",
      param: null,
      code: 404,
    });
    const error = await failureOf(url);
    expect(error.message).toBe("HTTP 404: 404 The model `X` does not exist.");
    expect(error.kind).toBe("request");
    expect(error.status).toBe(404);
  });

  it("OpenAI's nested body still gives its message, and a quota 429 is still told from a rate limit", async () => {
    const nested = await failureOf(
      await answering(404, {
        error: { message: "The model `X` does not exist", type: "invalid_request_error" },
      }),
    );
    expect(nested.message).toBe("HTTP 404: 404 The model `X` does not exist");
    await new Promise((resolve) => server?.close(resolve));
    const quota = await failureOf(
      await answering(429, { object: "error", message: "You exceeded your current quota", code: 429 }),
    );
    expect(quota.kind).toBe("quota");
  });
});
