/**
 * Waiting work by principal: one FIFO queue per principal, served in turn. `shift` takes the head of the
 * next principal after the one served last, so with A holding a hundred jobs and B one, B's job is taken
 * second, not a hundred-and-first. A principal with nothing waiting leaves the rotation.
 */
export class PrincipalQueues<T> {
  private readonly queues = new Map<string, T[]>();
  /** Principals with waiting work, in the order they will be served. */
  private readonly turn: string[] = [];

  get size(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /** How many items `principal` has waiting. */
  waiting(principal: string): number {
    return this.queues.get(principal)?.length ?? 0;
  }

  push(principal: string, item: T): void {
    let queue = this.queues.get(principal);
    if (queue === undefined) {
      queue = [];
      this.queues.set(principal, queue);
      this.turn.push(principal);
    }
    queue.push(item);
  }

  /**
   * The oldest item of the next principal in turn, or undefined when nothing waits. With `prefer`, the
   * first principal in turn that it accepts goes before the others (e.g. one with nothing running yet).
   */
  shift(prefer?: (principal: string) => boolean): T | undefined {
    const preferred = prefer === undefined ? -1 : this.turn.findIndex(prefer);
    const [principal] = this.turn.splice(Math.max(0, preferred), 1);
    if (principal === undefined) return undefined;
    const queue = this.queues.get(principal) as T[];
    const item = queue.shift();
    if (queue.length > 0) this.turn.push(principal);
    else this.queues.delete(principal);
    return item;
  }

  /** Takes out every item matching `drop` (e.g. the jobs of a cancelled request) and returns them. */
  remove(drop: (item: T) => boolean): T[] {
    const removed: T[] = [];
    for (const [principal, queue] of this.queues) {
      const kept: T[] = [];
      for (const item of queue) (drop(item) ? removed : kept).push(item);
      if (kept.length > 0) this.queues.set(principal, kept);
      else {
        this.queues.delete(principal);
        this.turn.splice(this.turn.indexOf(principal), 1);
      }
    }
    return removed;
  }

  /** Empties every queue, returning what waited (oldest first within each principal). */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.turn.length = 0;
    return all;
  }
}
