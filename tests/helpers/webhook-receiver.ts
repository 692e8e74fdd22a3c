/**
 * A webhook receiver on a loopback port, as an integrator would run one: it records every POST
 * (headers, raw body) and answers with the statuses it is told (then 204), so tests can see
 * retries, and verify each delivery with the `standardwebhooks` package as a receiver does.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses to answer next, one per request, before the default 204. */
  answers: number[];
  /** Answer every request with this status (a receiver that is down), until set back to null. */
  failing: number | null;
  /** Whether `secret` verifies a delivery, as the receiver's own check would (signature and timestamp). */
  verifies(delivery: ReceivedWebhook, secret: string): boolean;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hooks"): Promise<WebhookReceiver> {
  let server: Server | undefined;
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    answers: [],
    failing: null,
    verifies: (delivery, secret) => {
      try {
        new Webhook(secret).verify(delivery.body, {
          "webhook-id": String(delivery.headers["webhook-id"]),
          "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
          "webhook-signature": String(delivery.headers["webhook-signature"]),
        });
        return true;
      } catch {
        return false;
      }
    },
    close: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const status = receiver.failing ?? receiver.answers.shift() ?? 204;
      response.writeHead(status, { "Content-Type": "text/plain" }).end(status >= 300 ? `refused with ${status}` : "");
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
