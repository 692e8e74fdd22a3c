/** RFC 9457 problem details: the body of every failure on /v1. */
import type { ProblemIssue } from "../1-errors/api-error";
import { ERROR_CODES, ERRORS_DOC_PATH, type ErrorCode } from "../1-errors/codes";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  requestId: string;
  issues?: ProblemIssue[];
  [member: string]: unknown;
}

export function problemOf(
  code: ErrorCode,
  detail: string,
  context: { origin: string; requestId: string },
  extra: { issues?: ProblemIssue[]; members?: Record<string, unknown> } = {},
): Problem {
  const { status, title } = ERROR_CODES[code];
  return {
    type: `${context.origin}${ERRORS_DOC_PATH}#${code}`,
    title,
    status,
    code,
    detail,
    requestId: context.requestId,
    ...(extra.issues ? { issues: extra.issues } : {}),
    ...extra.members,
  };
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), { status: problem.status, headers: problemHeaders(problem, headers) });
}

/** The headers of a problem answer: `headers`, then its content type and request id. */
export function problemHeaders(problem: Problem, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, "Content-Type": PROBLEM_CONTENT_TYPE, "X-Request-Id": problem.requestId };
}
