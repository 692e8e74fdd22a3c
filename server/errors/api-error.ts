import type { ErrorCode } from "./codes";

export interface ProblemIssue {
  path: string;
  message: string;
}

/**
 * An error the API answers deliberately, with a stable code. Anything else that is thrown is an
 * internal_error, and its message never reaches the client.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: {
      issues?: ProblemIssue[];
      headers?: Record<string, string>;
      /** Extension members of the problem body, e.g. cost and balance. */
      members?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

export const notFound = (detail: string) => new ApiError("not_found", detail);

export const invalidRequest = (detail: string, issues: ProblemIssue[]) =>
  new ApiError("invalid_request", detail, { issues });
