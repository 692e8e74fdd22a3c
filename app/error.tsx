"use client";
/** A page that failed on the server: say so in words, offer a retry, never a blank screen. */
import { useEffect } from "react";

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => console.error(error), [error]);
  return (
    <main>
      <h1>This page could not be loaded</h1>
      <div className="notice error-notice" role="alert">
        <p>
          The service could not answer just now; nothing was changed and no credits were used. Try again in a moment.
        </p>
        {error.digest ? <p className="hint">Reference: {error.digest}</p> : null}
      </div>
      <p className="actions">
        <button type="button" onClick={reset}>
          Try again
        </button>
      </p>
    </main>
  );
}
