import { Worker } from "node:worker_threads";

/**
 * A TCP proxy in front of the test PostgreSQL server that counts round trips: a turn is client data sent
 * after the server last answered, so a statement that waits for its answer before the next is written
 * costs a turn each, and statements written together cost one. It runs in a thread of its own because the
 * engine's caller blocks its own thread while the engine's worker talks to the server through the proxy.
 */
export interface TurnCountingProxy {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  /** Turns so far, over every connection through the proxy. */
  turns(): number;
  close(): Promise<void>;
}

const PROXY = `
const net = require("node:net");
const { workerData, parentPort } = require("node:worker_threads");
const counter = new Int32Array(workerData.shared);
const sockets = new Set();
const server = net.createServer((client) => {
  // "server" until the client writes: the startup message is a turn of its own.
  let last = "server";
  const upstream = net.connect(workerData.port, workerData.host);
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.on("error", () => { client.destroy(); upstream.destroy(); });
    s.on("close", () => { sockets.delete(s); client.destroy(); upstream.destroy(); });
  }
  client.on("data", (chunk) => {
    if (last === "server") Atomics.add(counter, 0, 1);
    last = "client";
    upstream.write(chunk);
  });
  upstream.on("data", (chunk) => {
    last = "server";
    client.write(chunk);
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => {
  for (const s of sockets) s.destroy();
  server.close(() => process.exit(0));
});
`;

export async function startTurnCountingProxy(url: string): Promise<TurnCountingProxy> {
  const target = new URL(url);
  const shared = new SharedArrayBuffer(4);
  const counter = new Int32Array(shared);
  const worker = new Worker(PROXY, {
    eval: true,
    workerData: { shared, host: target.hostname, port: Number(target.port || 5432) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    turns: () => Atomics.load(counter, 0),
    close: async () => {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.postMessage("close");
      await exited;
    },
  };
}
