/**
 * A procedure of the app's router called as itself, by its path (`readings.snapshot`): what
 * tRPC's server-side caller does for one call, without a caller proxy built per call and walked
 * per property. REST's dispatch and MCP's tools call procedures this way; the dashboard keeps the
 * typed caller (server/8-dashboard/caller.ts).
 */
import type { AnyTRPCProcedure } from "@trpc/server";
import type { ApiContext } from "../7-procedures/context";
import { appRouter } from "./root";

type Invocable = (options: object) => Promise<unknown>;

const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;

/** The procedure at `path`, ready to invoke; throws at once for a path the router does not have. */
export function procedureAt(path: string): (ctx: ApiContext, input: unknown) => Promise<unknown> {
  const procedure = procedures[path];
  if (!procedure) throw new Error(`no procedure at ${path}`);
  return (ctx, input) => invokeProcedure(procedure, path, ctx, input);
}

/** Runs `procedure` (at `path`) for one call: its middlewares, input and output checks, as any caller would. */
export function invokeProcedure(
  procedure: AnyTRPCProcedure,
  path: string,
  ctx: ApiContext,
  input: unknown,
): Promise<unknown> {
  return (procedure as unknown as Invocable)({
    ctx,
    path,
    type: procedure._def.type,
    // tRPC awaits it: a value already in hand needs no promise of its own.
    getRawInput: () => input,
    signal: undefined,
    batchIndex: 0,
  });
}
