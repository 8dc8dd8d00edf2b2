import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InProcessServer, startInProcess } from "./support/in-process-server.js";

// A client that reuses an idle kept-alive connection just as the server closes it gets a reset, and its
// POST fails although nothing was wrong with it (Node's fetch keeps idle connections 4 s, nginx's upstream
// keepalive 60 s; Node's server closed them after 5 s). The server must keep them longer than its clients.

let server: InProcessServer;

beforeAll(async () => {
  server = await startInProcess();
});

afterAll(async () => {
  await server.stop();
});

/** Sends one GET /healthz on the socket and resolves with the raw response head and body. */
function healthz(socket: Socket, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const head = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text);
      if (head >= 0 && length && text.length >= head + 4 + Number(length[1])) {
        socket.off("data", onData);
        socket.off("close", onClose);
        resolve(text);
      }
    };
    const onClose = () => reject(new Error(`the server closed the connection; got ${JSON.stringify(text)}`));
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe("idle kept-alive connections", () => {
  it("stay open past Node's 5 s, so a client that reuses one after 5.5 s is answered on it", async () => {
    const { host } = new URL(server.origin);
    const socket = connect({ host: "127.0.0.1", port: Number(new URL(server.origin).port) });
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    try {
      const first = await healthz(socket, host);
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/keep-alive: timeout=75/i);
      await new Promise((resolve) => setTimeout(resolve, 5500));
      expect(await healthz(socket, host)).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
