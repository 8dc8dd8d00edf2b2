import { describe, expect, it } from "vitest";
import { PrincipalQueues } from "../../src/mcp/analysis-pool/principal-queues.js";

describe("PrincipalQueues: one FIFO per principal, served in turn", () => {
  it("takes B's one job second, not after all of A's", () => {
    const queues = new PrincipalQueues<string>();
    for (const job of ["a1", "a2", "a3"]) queues.push("A", job);
    queues.push("B", "b1");
    queues.push("C", "c1");
    queues.push("A", "a4");
    const order: string[] = [];
    for (let job = queues.shift(); job !== undefined; job = queues.shift()) order.push(job);
    expect(order).toEqual(["a1", "b1", "c1", "a2", "a3", "a4"]);
    expect(queues.size).toBe(0);
  });

  it("serves a preferred principal (one with nothing running) before the turn", () => {
    const queues = new PrincipalQueues<string>();
    queues.push("A", "a1");
    queues.push("A", "a2");
    queues.push("B", "b1");
    expect(queues.shift((p) => p === "B")).toBe("b1");
    expect(queues.shift((p) => p === "B")).toBe("a1");
    expect(queues.waiting("A")).toBe(1);
  });

  it("removes the matching jobs and keeps the others in order", () => {
    const queues = new PrincipalQueues<string>();
    for (const job of ["a1", "a2", "a3"]) queues.push("A", job);
    queues.push("B", "b1");
    expect(queues.remove((job) => job === "a2" || job === "b1")).toEqual(["a2", "b1"]);
    expect(queues.drain()).toEqual(["a1", "a3"]);
  });
});
