/**
 * `npm start` and the dev outbox under each configuration (server/5-startup/dev-outbox.ts): refused
 * in production without SMTP_URL unless the operator opts in, on with a loud warning for the quick
 * start and for an opt-in, off with SMTP_URL; and the server we start with it still finishes
 * in-flight requests on SIGTERM. Each case starts the app on its own empty embedded database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nonLoopbackUrl, startApp, startRefused } from "../helpers/server";

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** An empty embedded database, and none of the outbox settings of the environment the tests run in. */
function freshEnv(vars: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), "mps-outbox-start-"));
  dataDirs.push(dir);
  return { DATABASE_URL: "", DATA_DIR: dir, REDIS_URL: "", SMTP_URL: "", DEV_OUTBOX: "", APP_URL: "", ...vars };
}

const WARNING = "WARNING: the dev outbox is ON";
const outboxStatus = async (base: string) => (await fetch(`${base}/dev/outbox`)).status;

describe("npm start refuses", () => {
  it.each([
    ["NODE_ENV=production", { NODE_ENV: "production", APP_URL: "http://mps.internal.example" }],
    ["an https APP_URL", { APP_URL: "https://api.example.org" }],
    [
      "NODE_ENV=production with DEV_OUTBOX=0",
      { NODE_ENV: "production", DEV_OUTBOX: "0", APP_URL: "https://api.example.org" },
    ],
  ])("production without SMTP_URL or the opt-in: %s", async (_what, vars) => {
    const { code, output } = await startRefused(freshEnv(vars));
    expect(code).toBe(1);
    expect(output).toContain("[start] not starting. No SMTP_URL in production");
    expect(output).toMatch(/Set SMTP_URL .* or DEV_OUTBOX=1/s);
    expect(output).not.toContain("[server] listening");
    expect(output).not.toContain(WARNING);
  });

  it("production without APP_URL: links would follow the Host a client sends", async () => {
    const { code, output } = await startRefused(freshEnv({ NODE_ENV: "production", SMTP_URL: "smtp://127.0.0.1:9" }));
    expect(code).toBe(1);
    expect(output).toContain("[start] not starting. No APP_URL in production");
    expect(output).toContain("Set APP_URL to it");
    expect(output).not.toContain("[server] listening");
  });

  it("an APP_URL that is no origin", async () => {
    const { code, output } = await startRefused(freshEnv({ APP_URL: "https://api.example.org/base?x=1" }));
    expect(code).toBe(1);
    expect(output).toContain("APP_URL must be an origin only");
  });

  it("a DEV_OUTBOX other than 1 or 0", async () => {
    const { code, output } = await startRefused(freshEnv({ DEV_OUTBOX: "true" }));
    expect(code).toBe(1);
    expect(output).toContain('DEV_OUTBOX must be 1 (dev outbox on) or 0 (off), not "true"');
  });
});

describe("npm start in production", () => {
  it("starts when the operator opts in with DEV_OUTBOX=1, warns, and serves the outbox to loopback only", async () => {
    const app = await startApp(
      freshEnv({ NODE_ENV: "production", DEV_OUTBOX: "1", APP_URL: "http://mps.internal.example" }),
    );
    try {
      expect(app.output()).toContain(WARNING);
      expect(app.output()).toMatch(/\[server\] listening on http:\/\/localhost:\d+ \(production\)/);
      expect(await outboxStatus(app.url)).toBe(200);
      const remote = nonLoopbackUrl(app.url);
      if (remote) expect(await outboxStatus(remote)).toBe(404);
    } finally {
      await app.stop();
    }
  }, 240_000);

  it("starts with SMTP_URL, the outbox off for everyone, no warning", async () => {
    const app = await startApp(
      freshEnv({ NODE_ENV: "production", SMTP_URL: "smtp://127.0.0.1:9", APP_URL: "http://mps.internal.example" }),
    );
    try {
      expect(app.output()).not.toContain(WARNING);
      expect(await outboxStatus(app.url)).toBe(404);
    } finally {
      await app.stop();
    }
  }, 240_000);
});

describe("the quick start: npm start with no variables at all", () => {
  it("serves the optimised build, not called production, with the outbox on for loopback, warning loudly", async () => {
    // NODE_ENV empty, as in a shell that never set it (the tests' own NODE_ENV is "test").
    const app = await startApp(freshEnv({ NODE_ENV: "" }));
    try {
      expect(app.output()).toContain(WARNING);
      // Next runs with NODE_ENV=production, but the operator declared no production: the start line says so.
      expect(app.output()).toMatch(
        /\[server\] listening on http:\/\/localhost:\d+ \(optimised build, not production\)/,
      );
      expect(app.output()).not.toContain("(production)");
      expect(await outboxStatus(app.url)).toBe(200);
      await finishesInFlightRequestOnSigterm(app);
    } finally {
      await app.stop();
    }
  }, 240_000);
});

/**
 * SIGTERM while a request is in flight (its body half sent): the server stops accepting, answers
 * that request once its body arrives, then exits as `next start` did (143).
 */
async function finishesInFlightRequestOnSigterm(app: Awaited<ReturnType<typeof startApp>>) {
  const { hostname, port } = new URL(app.url);
  const body = JSON.stringify({ redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" });
  const socket = connect({ host: hostname, port: Number(port) });
  const answer = new Promise<string>((resolve, reject) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
  // Dynamic client registration (OAuth) reads the whole body before answering.
  socket.write(
    `POST /oauth/register HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((r) => setTimeout(r, 500));
  const exited = app.stop();
  await new Promise((r) => setTimeout(r, 1_000));
  await expect(fetch(`${app.url}/api/health`)).rejects.toThrow();
  socket.write(body.slice(10));
  expect(await answer).toMatch(/^HTTP\/1\.1 201 /);
  expect(await exited).toBe(143);
}
