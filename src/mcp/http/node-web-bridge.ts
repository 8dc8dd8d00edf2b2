import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyRead = { tooLarge: true } | { tooLarge: false; text: string };

/**
 * Reads a request body up to `maxBytes`. A declared Content-Length over the limit is refused before a
 * byte is kept; otherwise keeping stops as soon as the limit is passed. The rest of an oversize body is
 * drained, not kept: destroying the stream would reset the socket before the 413 reaches the client.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve({ tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) resolve({ tooLarge: true });
      else chunks.push(chunk);
    });
    req.on("end", () => resolve({ tooLarge: false, text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", reject);
  });
}

/**
 * The web-standard Request the SDK transport takes, with the body already read (or none). It carries no
 * abort signal: the session transport never reads `request.signal` (a client that leaves is seen by
 * writeWebResponse, which cancels the response stream), and wiring one into every Request was a tenth of
 * the bridge's cost.
 */
export function toWebRequest(req: IncomingMessage, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Media types are case-insensitive (RFC 9110 §8.3.1), but the SDK transport matches Accept by exact
    // case: "Application/JSON, Text/Event-Stream" was refused 406. Lower-cased, it is read as it means.
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) headers.append(name, name === "accept" ? item.toLowerCase() : item);
  }
  const host = req.headers.host ?? "localhost";
  return new Request(`http://${host}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(body !== undefined && body.length > 0 ? { body } : {}),
  });
}

/**
 * Writes a web Response to Node, streaming SSE bodies with backpressure. Resolves when the body has
 * ended or the client has gone, so the caller knows when the exchange is over (in-flight accounting).
 */
export async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  clientGone: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // Node holds the status and headers back until the first byte of the body. A GET stream's first byte is
  // its first keep-alive, 15 s away, and a client waits on the headers to know it was accepted: they go out
  // now. A POST's stream keeps them until its first event (a progress notification or the answer): a
  // client that has the headers of a call's stream takes a broken connection for a stream to resume, and
  // a call in flight when a server is killed then waits out its whole request timeout instead of failing
  // at once, to be retried elsewhere.
  if (res.req?.method === "GET") res.flushHeaders();
  const gone = new Promise<void>((resolve) => {
    if (clientGone.aborted) resolve();
    clientGone.addEventListener("abort", () => resolve(), { once: true });
  });
  const reader = response.body.getReader();
  try {
    while (!clientGone.aborted) {
      const next = await Promise.race([reader.read(), gone.then(() => null)]);
      if (next === null || next.done) break;
      if (!res.write(next.value)) {
        await Promise.race([new Promise<void>((resolve) => res.once("drain", resolve)), gone]);
      }
    }
  } catch {
    // The stream was cancelled upstream (session closed); what was written stands.
  } finally {
    if (clientGone.aborted) void reader.cancel().catch(() => undefined);
    else reader.releaseLock();
    res.end();
  }
}
