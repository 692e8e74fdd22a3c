"use client";
/**
 * A failure in the root layout itself (the header reads the session and organizations): the whole
 * document in words, never a blank or framework page. The server answers it 503 when the database
 * was at fault (server/5-http-server/http-server.ts).
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main>
          <h1>This page could not be loaded</h1>
          <p>
            The service could not answer just now; nothing was changed and no credits were used. Try again in a moment.
          </p>
          {error.digest ? <p>Reference: {error.digest}</p> : null}
          <p>
            <button type="button" onClick={reset}>
              Try again
            </button>
          </p>
        </main>
      </body>
    </html>
  );
}
