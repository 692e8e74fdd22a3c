/**
 * trpc-to-openapi's request handler, built once, run on a request object of our own. Its Fetch
 * adapter builds a Node handler, and with it a route table of every procedure, for each request (a
 * profile of a burst put that at 4 % of the server's time); this keeps one handler for the process
 * and hands each request its own context, facts and failure through the request object.
 *
 * The request object is not a Fetch `Request` built per call (nor Node's message): it is a small
 * object that answers what the handler reads of a GET — method, URL, headers — and is an instance
 * of `Request` only so that the handler takes its signal from it rather than building a whole
 * `Request` from a Node message to get one. No procedure listens to that signal, so one that is
 * never aborted serves every call.
 */
import type { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import type { HeaderReader } from "../auth/caller";
import type { ApiContext } from "../procedures/context";
import { appRouter } from "../procedures/root";
import { factHeaders } from "./fact-headers";

/** What one request's run hands back beside its answer. */
export interface OpenApiRun {
  context: ApiContext;
  /** Set when the procedure (or the routing) failed. */
  error?: TRPCError;
}

/** The adapter's answer: its status, its headers (JSON content type, the call's facts) and body. */
export interface OpenApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const RUN = Symbol("openapi run");
const NEVER_ABORTED = new AbortController().signal;

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }) => (req as unknown as Record<typeof RUN, OpenApiRun>)[RUN].context,
  responseMeta: ({ ctx, errors }) => ({
    headers: ctx ? factHeaders((ctx as ApiContext).facts, errors.length === 0) : {},
  }),
  onError: ({ error, req }) => {
    (req as unknown as Record<typeof RUN, OpenApiRun>)[RUN].error = error;
  },
} as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

/**
 * Runs the procedure a GET names: `url` is the request's absolute URL without the /v1 prefix. The
 * answer is the adapter's (JSON body, the call's fact headers); `run.error` says what failed.
 */
export function dispatchOpenApi(url: string, headers: HeaderReader, run: OpenApiRun): Promise<OpenApiAnswer> {
  const request = Object.create(Request.prototype, {
    method: { value: "GET" },
    url: { value: url },
    headers: { value: headers },
    signal: { value: NEVER_ABORTED },
    [RUN]: { value: run },
  });
  return new Promise<OpenApiAnswer>((resolve) => {
    const answer: OpenApiAnswer = { status: 200, headers: {}, body: null };
    const response = {
      setHeader: (name: string, value: string | string[]) => {
        answer.headers[name] = typeof value === "string" ? value : value.join(", ");
      },
      get statusCode() {
        return answer.status;
      },
      set statusCode(code: number) {
        answer.status = code;
      },
      end: (body?: string) => {
        answer.body = body ?? null;
        resolve(answer);
      },
    };
    void (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(request, response);
  });
}
