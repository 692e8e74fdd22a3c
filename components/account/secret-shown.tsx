"use client";
/**
 * A secret shown once (an API token, a webhook signing secret): read-only, selected on focus, with
 * a Copy button. Without clipboard access (plain http) the button selects it for Ctrl+C instead.
 */
import { type ReactNode, useRef, useState } from "react";

export function SecretShown({
  heading,
  secret,
  label,
  testId,
  children,
}: {
  /** What to copy and why now, in bold. */
  heading: ReactNode;
  secret: string;
  /** The field's accessible name. */
  label: string;
  testId: string;
  /** Anything more to say below the heading. */
  children?: ReactNode;
}) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      field.current?.select();
    }
  };
  return (
    <div className="secret" role="status" data-testid={`${testId}-panel`}>
      <p>
        <strong>{heading}</strong>
        {children ? <> {children}</> : null}
      </p>
      <div className="secret-row">
        <input
          ref={field}
          readOnly
          value={secret}
          data-testid={testId}
          aria-label={label}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" onClick={copy} data-testid={`${testId}-copy`}>
          {copied ? "Copied" : "Copy"}
          <span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      </div>
    </div>
  );
}
