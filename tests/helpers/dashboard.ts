/** Calls the dashboard's tRPC endpoint over HTTP as a signed-in user (by session cookie). */
import { SESSION_COOKIE } from "./accounts";

export interface TrpcAnswer {
  status: number;
  data?: unknown;
  /** The problem the error carries (code, detail), as the dashboard shows it. */
  problem?: { code: string; detail: string };
}

export async function dashboardCall(
  base: string,
  session: string | null,
  procedure: string,
  input?: unknown,
  options: { mutation?: boolean; origin?: string | null } = {},
): Promise<TrpcAnswer> {
  const headers: Record<string, string> = {};
  if (session) headers.Cookie = `${SESSION_COOKIE}=${session}`;
  let response: Response;
  if (options.mutation) {
    const origin = options.origin === undefined ? base : options.origin;
    if (origin !== null) headers.Origin = origin;
    response = await fetch(`${base}/api/trpc/${procedure}`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(input ?? {}),
    });
  } else {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    response = await fetch(`${base}/api/trpc/${procedure}${query}`, { headers });
  }
  const body = (await response.json()) as {
    result?: { data: unknown };
    error?: { data?: unknown; problem?: { code: string; detail: string } };
    code?: string;
    detail?: string;
  };
  if (body.result) return { status: response.status, data: body.result.data };
  const problem = body.error?.problem ?? (body.code ? { code: body.code, detail: body.detail ?? "" } : undefined);
  return { status: response.status, problem };
}
