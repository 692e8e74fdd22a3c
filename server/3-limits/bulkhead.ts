/**
 * A bulkhead per key (an organization): at most `maxInFlight` holders at once, and at most
 * `maxQueued` waiting in arrival order; a waiter gives up at its deadline. Whoever cannot get a
 * place is refused at once, so one organization's burst queues behind itself, never in front of
 * another organization's calls. In memory, per instance: it bounds what one process does.
 */
export type Admission = { ok: true; release: () => void } | { ok: false; reason: "full" | "timeout" };

interface Waiter {
  admit(): void;
}

interface Compartment {
  inFlight: number;
  queue: Waiter[];
}

export class Bulkhead {
  private readonly compartments = new Map<string, Compartment>();

  constructor(
    private readonly maxInFlight: number,
    private readonly maxQueued: number,
  ) {}

  /** Takes a place for `key`, waiting at most `waitMs` for one. */
  async enter(key: string, waitMs: number): Promise<Admission> {
    let compartment = this.compartments.get(key);
    if (!compartment) {
      compartment = { inFlight: 0, queue: [] };
      this.compartments.set(key, compartment);
    }
    if (compartment.inFlight < this.maxInFlight) {
      compartment.inFlight++;
      return { ok: true, release: this.releaser(key, compartment) };
    }
    if (compartment.queue.length >= this.maxQueued || waitMs <= 0) return { ok: false, reason: "full" };
    const held = compartment;
    return new Promise<Admission>((resolve) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve({ ok: true, release: this.releaser(key, held) });
        },
      };
      const timer = setTimeout(() => {
        held.queue.splice(held.queue.indexOf(waiter), 1);
        this.forgetIfIdle(key, held);
        resolve({ ok: false, reason: "timeout" });
      }, waitMs);
      held.queue.push(waiter);
    });
  }

  /** Whether `enter` would refuse `key` at once: every place taken and the queue full. */
  isFull(key: string): boolean {
    const compartment = this.compartments.get(key);
    return (
      compartment !== undefined &&
      compartment.inFlight >= this.maxInFlight &&
      compartment.queue.length >= this.maxQueued
    );
  }

  /** Calls in flight and waiting for `key` (for metrics and tests). */
  load(key: string): { inFlight: number; queued: number } {
    const compartment = this.compartments.get(key);
    return { inFlight: compartment?.inFlight ?? 0, queued: compartment?.queue.length ?? 0 };
  }

  private releaser(key: string, compartment: Compartment): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = compartment.queue.shift();
      if (next)
        next.admit(); // the place passes straight to the next waiter
      else {
        compartment.inFlight--;
        this.forgetIfIdle(key, compartment);
      }
    };
  }

  private forgetIfIdle(key: string, compartment: Compartment): void {
    if (compartment.inFlight === 0 && compartment.queue.length === 0) this.compartments.delete(key);
  }
}
