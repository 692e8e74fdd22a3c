import type { Metadata } from "next";
import { InlineCode } from "@/components/ui/inline-code";
import { TableWrap } from "@/components/ui/table-wrap";
import { ERROR_CODE_LIST, ERROR_CODES } from "@/server/1-errors/codes";
import { ERRORS_MARKDOWN_PATH } from "@/server/2-formats/agent-docs";

export const metadata: Metadata = {
  title: "API errors",
  // The same page as Markdown, for agents (/llms.txt lists it).
  alternates: { types: { "text/markdown": ERRORS_MARKDOWN_PATH } },
};

/** Every error code of the API; each problem body's `type` links to its anchor here. */
export default function ErrorsPage() {
  return (
    <main>
      <h1>API errors</h1>
      <p>
        Every failure on <code>/v1</code> answers <code>application/problem+json</code> (RFC 9457) with{" "}
        <code>type</code>, <code>title</code>, <code>status</code>, a stable <code>code</code>, <code>detail</code> and{" "}
        <code>requestId</code> (also in the <code>X-Request-Id</code> header); <code>invalid_request</code> adds{" "}
        <code>issues</code>, each with the <code>path</code> of the parameter and a <code>message</code>. A failed call
        costs no credits. Match on <code>code</code>, never on <code>detail</code> or <code>title</code>.
      </p>
      <TableWrap label="Error codes">
        <table>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col" className="num">
                Status
              </th>
              <th scope="col">Meaning</th>
              <th scope="col">What to do</th>
            </tr>
          </thead>
          <tbody>
            {ERROR_CODE_LIST.map((code) => (
              <tr key={code} id={code}>
                <td data-label="Code">
                  <a href={`#${code}`}>
                    <code>{code}</code>
                  </a>
                </td>
                <td className="num" data-label="Status">
                  {ERROR_CODES[code].status}
                </td>
                <td data-label="Meaning" className="long">
                  <InlineCode text={ERROR_CODES[code].description} />
                </td>
                <td data-label="What to do" className="long">
                  <InlineCode text={ERROR_CODES[code].action} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p>
        The full interface is described in the <a href="/docs/api">API reference</a> (OpenAPI document:{" "}
        <a href="/v1/openapi.json">/v1/openapi.json</a>).
      </p>
    </main>
  );
}
