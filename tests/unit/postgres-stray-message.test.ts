/**
 * patches/postgres+3.4.9.patch: a message that arrives for no query (a killed backend's last words,
 * read while the next query waits for its connection) made postgres.js dereference `query` and
 * reject the waiting query with `TypeError: Cannot set properties of null (setting 'parsing')`,
 * which the service could only answer as 500 `internal_error`. Patched, the waiting query fails as
 * a lost connection (CONNECTION_DESTROYED, answered 503 `unavailable`) and the socket is dropped.
 *
 * The server here is scripted over an in-memory socket (postgres.js's `socket` option) because a
 * real PostgreSQL only sends such a message in a race no test can schedule.
 */
import { Duplex } from "node:stream";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/** One backend message: its type byte, a 32-bit length that counts itself, and the body. */
function message(type: string, body: Buffer = Buffer.alloc(0)) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

/** A server that answers the startup message with AuthenticationOk and then a stray ParseComplete. */
function strayServer() {
  let destroyed = false;
  const socket = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      // The first thing a client writes is its startup message; the rest never arrives here.
      const authenticationOk = message("R", Buffer.alloc(4));
      const parseComplete = message("1");
      setImmediate(() => socket.push(Buffer.concat([authenticationOk, parseComplete])));
      done();
    },
    destroy(error, done) {
      destroyed = true;
      done(error);
    },
  });
  return { socket, wasDestroyed: () => destroyed };
}

describe("postgres.js when a message arrives for no query", () => {
  it("fails the waiting query as a lost connection, not a TypeError, and drops the socket", async () => {
    const server = strayServer();
    // `socket` is a documented option its type declarations leave out.
    const options = {
      socket: () => server.socket,
      max: 1,
      fetch_types: false,
      connect_timeout: 5,
      onnotice: () => {},
    };
    const sql = postgres(options as postgres.Options<Record<string, never>>);
    try {
      const failure = await sql`select 1`.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(TypeError);
      expect((failure as { code?: string }).code).toBe("CONNECTION_DESTROYED");
      expect(((failure as { cause?: unknown }).cause as Error).message).toMatch(/parsing/);
      expect(server.wasDestroyed()).toBe(true);
    } finally {
      await sql.end({ timeout: 0 });
    }
  });
});
