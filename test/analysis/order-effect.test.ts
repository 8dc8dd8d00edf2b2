import { describe, expect, it } from "vitest";
import { orderEffect, wilsonInterval } from "../../src/analysis/order-effect/order-effect.js";
import { scheduledActionOrder } from "../../src/domain/study-schedule.js";

describe("order effect", () => {
  it("Wilson interval of 5/10 is [0.2366, 0.7634] and of 0/20 starts at 0", () => {
    // z = 1.959964: centre (0.5 + z²/20)/(1 + z²/10) = 0.5; half-width z·√(0.025 + z²/400)/(1 + z²/10) = 0.263406.
    const [lo, hi] = wilsonInterval(5, 10, 0.95);
    expect(lo).toBeCloseTo(0.236594, 5);
    expect(hi).toBeCloseTo(0.763406, 5);
    // 0/20: upper end z²/(n + z²) = 3.841459/23.841459 = 0.161125.
    expect(wilsonInterval(0, 20, 0.95)[0]).toBe(0);
    expect(wilsonInterval(0, 20, 0.95)[1]).toBeCloseTo(0.161125, 5);
    expect(orderEffect("m", 7, 10, 0.95)).toMatchObject({
      decisions: 10,
      null_rate: 0.5,
      first_listed_rate: { estimate: 0.7 },
    });
  });

  it("balances action orders within a cell: every k! visits list each order once", () => {
    const cells = 4;
    // Trial t visits its cell for the ⌊t / cells⌋-th time; visits 0–1 and 2–3 of a 2-action cell differ.
    const two = [0, 1, 2, 3].map((v) =>
      scheduledActionOrder(["C", "D"], "s", "p", "cell", v * cells, cells).join(""),
    );
    expect(new Set(two.slice(0, 2)).size).toBe(2);
    expect(new Set(two.slice(2, 4)).size).toBe(2);
    const rps = Array.from({ length: 6 }, (_, v) =>
      scheduledActionOrder(["R", "P", "S"], "s", "p", "cell", v * cells + 1, cells).join(""),
    );
    expect(new Set(rps).size).toBe(6);
  });
});
