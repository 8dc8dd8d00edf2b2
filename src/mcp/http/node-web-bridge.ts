import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyRead = { tooLarge: true } | { tooLarge: false; text: string };

/**
 * Reads a request body up to `maxBytes`. A declared Content-Length over the limit is refused before a
 * byte is read; otherwise reading stops as soon as the limit is passed, so a huge body costs no memory.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return { tooLarge: true };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return { tooLarge: true };
    chunks.push(buffer);
  }
  return { tooLarge: false, text: Buffer.concat(chunks).toString("utf8") };
}

/** The web-standard Request the SDK transport takes, with the body already read (or none). */
export function toWebRequest(req: IncomingMessage, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const host = req.headers.host ?? "localhost";
  return new Request(`http://${host}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    signal,
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
