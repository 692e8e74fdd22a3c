/** Node's request headers read one at a time, as `Headers.get` reads them (several values joined): no `Headers` built. */
import type { IncomingMessage } from "node:http";

export const nodeHeaders = (incoming: IncomingMessage): { get(name: string): string | null } => ({
  get: (name) => {
    const value = incoming.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  },
});
