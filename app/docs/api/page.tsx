import type { Metadata } from "next";
import Link from "next/link";
import { ERRORS_DOC_PATH } from "@/server/1-errors/codes";
import { API_REFERENCE_FRAME_PATH, CONNECT_PATH, TOKENS_PATH } from "@/server/2-http/paths";

export const metadata: Metadata = { title: "API reference" };

/**
 * The API reference inside the dashboard: the app's header stays above it (so every page is one
 * click away), and Scalar's reference fills the rest of the window in a same-origin frame with its
 * own locked-down policy.
 */
export default function ApiReferencePage() {
  return (
    <main className="reference-main">
      <div className="reference-head">
        <h1>API reference</h1>
        <p className="hint">
          REST at <code>/v1</code>, described by <a href="/v1/openapi.json">/v1/openapi.json</a> · every{" "}
          <Link href={ERRORS_DOC_PATH}>error code</Link> · <Link href={TOKENS_PATH}>API tokens</Link> ·{" "}
          <Link href={CONNECT_PATH}>MCP</Link> ·{" "}
          <a href={API_REFERENCE_FRAME_PATH} target="_blank" rel="noopener">
            reference alone
          </a>
        </p>
      </div>
      <iframe
        src={API_REFERENCE_FRAME_PATH}
        title="API reference: every operation of /v1"
        className="reference-frame"
        data-testid="api-reference-frame"
      />
    </main>
  );
}
