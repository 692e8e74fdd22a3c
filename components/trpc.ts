"use client";
/** The dashboard's typed tRPC hooks (TanStack Query); the provider lives in trpc-provider.tsx. */
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/7-routers/root";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The words to show for a failed call: the problem's detail when the server sent one. */
export function problemText(error: unknown): string {
  const problem = (error as { shape?: { problem?: { detail?: string } } } | null)?.shape?.problem;
  if (problem?.detail) return problem.detail;
  return error instanceof Error ? error.message : "Something went wrong.";
}
