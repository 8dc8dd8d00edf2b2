import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/**
 * A client that hung up on a POST before its answers were written will never read them: the server keeps
 * no event store, so no reconnection can replay them. The SDK's transport, seeing the response stream
 * cancelled, only forgets the stream; the request handlers go on, and an analysis ran to its end (seconds to
 * minutes of a worker, which took no other job meanwhile) for nobody. Each of the POST's requests is
 * therefore cancelled as the client would have cancelled it, through the session's own protocol: the
 * handler's abort signal fires, and the analysis stops as it does on `notifications/cancelled`. A request
 * already answered has no handler left, so cancelling it does nothing.
 */
export function cancelCallsOfGoneClient(
  transport: WebStandardStreamableHTTPServerTransport,
  requestIds: Iterable<string | number>,
): void {
  for (const requestId of requestIds) {
    transport.onmessage?.({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId, reason: "The client closed the connection before the answer." },
    });
  }
}
