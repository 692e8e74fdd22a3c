/**
 * A local SMTP server (the `smtp-server` package) that keeps every message it accepts, and can be
 * told to refuse with a temporary failure (451) until told otherwise: a mail server that fails,
 * then recovers.
 */
import { SMTPServer } from "smtp-server";
import { freePort } from "./server";

export interface SunkMessage {
  from: string;
  to: string[];
  headers: Map<string, string>;
  raw: string;
}

export interface SmtpSink {
  url: string;
  messages: SunkMessage[];
  /** Attempts refused so far. */
  refused: number;
  /** While true, every MAIL FROM is answered 451. */
  failing: boolean;
  close(): Promise<void>;
}

/** Unfolded header fields of a raw message, by lower-case name (the first of each). */
function headersOf(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const fields = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0 && !fields.has(line.slice(0, colon).toLowerCase()))
      fields.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    messages: [],
    refused: 0,
    failing: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!sink.failing) return callback();
      sink.refused += 1;
      const error = new Error("Try again later (test sink)") as Error & { responseCode: number };
      error.responseCode = 451;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        sink.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          headers: headersOf(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return sink;
}
