/**
 * Places for release downloads, apart from the bulkhead of ordinary calls: a download holds its
 * place until its last byte is sent (or the client is gone), which can be long, so downloads have
 * their own caps — per organization and for the whole instance — and never take the places that
 * keep an organization's other calls moving. No waiting: a download that finds no place is
 * refused at once (429), and the client retries later.
 */
import { requestLimits } from "./request-limits";

export type SlotRefusal = "organization" | "instance";

export class DownloadSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perOrganization: number,
    private readonly instance: number,
  ) {}

  /** A place for one of `organizationId`'s downloads, with the function that frees it (once), or why none. */
  take(organizationId: string): { ok: true; free: () => void } | { ok: false; refusal: SlotRefusal } {
    const mine = this.held.get(organizationId) ?? 0;
    if (mine >= this.perOrganization) return { ok: false, refusal: "organization" };
    if (this.total >= this.instance) return { ok: false, refusal: "instance" };
    this.held.set(organizationId, mine + 1);
    this.total += 1;
    let freed = false;
    return {
      ok: true,
      free: () => {
        if (freed) return;
        freed = true;
        this.total -= 1;
        const left = (this.held.get(organizationId) ?? 1) - 1;
        if (left > 0) this.held.set(organizationId, left);
        else this.held.delete(organizationId);
      },
    };
  }

  /** Downloads in progress: of one organization, and on the instance (metrics and tests). */
  load(organizationId: string): { organization: number; instance: number } {
    return { organization: this.held.get(organizationId) ?? 0, instance: this.total };
  }
}

const state = globalThis as typeof globalThis & { __mpsDownloadSlots?: DownloadSlots };

/** This process's download places (on globalThis: Next may load this module in several bundles). */
export function downloadSlots(): DownloadSlots {
  const limits = requestLimits();
  state.__mpsDownloadSlots ??= new DownloadSlots(limits.exportMaxPerOrganization, limits.exportMaxTotal);
  return state.__mpsDownloadSlots;
}
