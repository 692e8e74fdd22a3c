/**
 * trpc-to-openapi's request handler, built once. Its Fetch adapter builds a Node handler, and with
 * it a route table of every procedure, for each request (a profile of a burst put that at 4 % of
 * the server's time); this keeps one handler for the process and hands each request its own
 * context, facts and failure through the request object instead of fresh closures.
 */
import type { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import type { ApiContext } from "../procedures/context";
import { appRouter } from "../procedures/root";
import { factHeaders } from "./fact-headers";

/** What one request's run hands back beside its answer. */
export interface OpenApiRun {
  context: ApiContext;
  /** Set when the procedure (or the routing) failed. */
  error?: TRPCError;
}

const RUN = Symbol("openapi run");
type Carrier = Request & { [RUN]: OpenApiRun };

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }) => (req as unknown as Carrier)[RUN].context,
  responseMeta: ({ ctx, errors }) => ({
    headers: ctx ? factHeaders((ctx as ApiContext).facts, errors.length === 0) : {},
  }),
  onError: ({ error, req }) => {
    (req as unknown as Carrier)[RUN].error = error;
  },
} as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

/**
 * Runs the procedure a GET names: `url` is the request's URL without the /v1 prefix. The answer
 * is the adapter's (JSON body, the call's fact headers); `run.error` says what failed.
 */
export function dispatchOpenApi(request: Request, url: string, run: OpenApiRun): Promise<Response> {
  const carrier = new Proxy(request, {
    get: (target, property) => {
      if (property === "url") return url;
      if (property === RUN) return run;
      if (property === "body") return undefined;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return new Promise<Response>((resolve) => {
    const headers = new Headers();
    let status = 200;
    const response = {
      setHeader: (name: string, value: string | string[]) => {
        if (typeof value === "string") headers.set(name, value);
        else for (const item of value) headers.append(name, item);
      },
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end: (body?: string) => resolve(new Response(body ?? null, { headers, status })),
    };
    void (handler as unknown as (req: unknown, res: unknown) => Promise<void>)(carrier, response);
  });
}
