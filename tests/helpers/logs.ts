/**
 * Reads the app's log: its JSON lines, the lines of /v1 and /mcp calls and what each must hold
 * (docs/operations.md), and whether a secret appears anywhere in it.
 */
export type LogLine = Record<string, unknown>;

/** Every line of the log that is a JSON object (Next's banner and npm's lines are not). */
export function jsonLines(log: string): LogLine[] {
  return log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The lines of /v1 and /mcp calls. */
export const apiCallLines = (log: string) =>
  jsonLines(log).filter((line) => line.surface === "rest" || line.surface === "mcp");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isStringOrNull = (value: unknown) => value === null || typeof value === "string";

/** What is wrong with one call's line; empty when it has every field, of the right kind. */
export function apiLineProblems(line: LogLine): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${what} (${JSON.stringify(line).slice(0, 300)})`);
  };
  expect(typeof line.level === "string", "level is a word");
  expect(typeof line.time === "string" && !Number.isNaN(Date.parse(line.time)), "time is an ISO date");
  expect(typeof line.requestId === "string" && UUID.test(line.requestId), "requestId is a UUID");
  expect(typeof line.method === "string", "method");
  expect(typeof line.path === "string" && /^\/(v1|mcp)(\/|$)/.test(line.path), "path under /v1 or /mcp");
  expect(typeof line.operation === "string" && line.operation.length > 0, "operation");
  expect("organizationId" in line && isStringOrNull(line.organizationId), "organizationId (or null)");
  expect(Number.isInteger(line.status) && (line.status as number) >= 100 && (line.status as number) < 600, "status");
  expect("problem" in line && isStringOrNull(line.problem), "problem (or null)");
  expect(typeof line.durationMs === "number" && line.durationMs >= 0, "durationMs");
  const credits = line.credits as { cost?: unknown; balance?: unknown } | null | undefined;
  expect(
    credits === null ||
      (typeof credits === "object" && Number.isInteger(credits.cost) && Number.isInteger(credits.balance)),
    "credits: null or cost and balance",
  );
  if ((line.status as number) >= 400 && line.surface === "rest") expect(typeof line.problem === "string", "a problem");
  if (line.surface === "mcp") {
    expect("rpcMethod" in line && isStringOrNull(line.rpcMethod), "rpcMethod (or null)");
    expect("tool" in line && isStringOrNull(line.tool), "tool (or null)");
    expect("toolError" in line && (line.toolError === null || typeof line.toolError === "boolean"), "toolError");
    expect("toolRequestId" in line && isStringOrNull(line.toolRequestId), "toolRequestId (or null)");
    // A tool of ours ran: whether it failed is known, and a failure has its problem code.
    if (line.toolRequestId !== null) {
      expect(typeof line.toolError === "boolean", "a tool call's toolError");
      if (line.toolError === true) expect(typeof line.problem === "string", "a failed tool call's problem");
    }
  }
  return problems;
}

/** Which of `secrets` appear in the log (each named by its first characters, never in full). */
export function secretsIn(log: string, secrets: string[]): string[] {
  return secrets.filter((secret) => secret.length > 0 && log.includes(secret)).map((s) => `${s.slice(0, 8)}…`);
}

/** Every sign-in link of the app's dev outbox page, for one recipient or all. */
export async function outboxLinks(base: string, recipient?: string): Promise<string[]> {
  const html = await (await fetch(`${base}/dev/outbox`)).text();
  const items = html.split("<li").slice(1);
  return items
    .filter((item) => recipient === undefined || item.includes(`data-recipient="${recipient}"`))
    .flatMap((item) => [...item.matchAll(/<a href="([^"]+)" data-testid="outbox-link"/g)])
    .map((match) => (match[1] ?? "").replaceAll("&amp;", "&"));
}

/**
 * Asks the app to e-mail a sign-in link as the sign-in form does (next-auth's e-mail provider and
 * its CSRF double submit); answers the status and where it sends the browser.
 */
export async function signInRequest(base: string, email: string): Promise<{ status: number; location: string }> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const response = await fetch(`${base}/api/auth/signin/email`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/** Asks for a sign-in link, and fails unless the app accepted the request. */
export async function requestSignInLink(base: string, email: string): Promise<void> {
  const { status, location } = await signInRequest(base, email);
  if (status !== 302 || /error/i.test(location))
    throw new Error(`asking for a sign-in link failed: ${status} ${location}`);
}
