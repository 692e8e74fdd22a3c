/**
 * A stand-in for Stripe on a loopback port, speaking Stripe's wire format for what the service
 * calls (docs/billing.md): form-encoded requests parsed as Stripe parses them (`metadata[org]=…`,
 * `line_items[0][price_data][currency]=eur`), JSON objects with `object` and prefixed ids, errors
 * as `{error: {type, message, code}}`, and Idempotency-Key honoured (the same key answers the same
 * response). A hosted page, GET /pay/:id, has a Pay button that marks the session paid, POSTs a
 * signed `checkout.session.completed` to the app's webhook and redirects to the success URL.
 * Events are signed with the SDK's own `generateTestHeaderString`, as Stripe signs them.
 *
 * For automatic top-up: setup-mode sessions (completed with `completeSetup`, which signs
 * `checkout.session.completed` with mode setup), SetupIntents (GET, `expand[]=payment_method`),
 * customer updates, and PaymentIntents made off-session: Stripe's test cards decide the outcome
 * (`pm_card_chargeDeclined`: 402 card_error card_declined; `pm_card_authenticationRequired`: 402
 * card_error authentication_required with the PaymentIntent in requires_action; any other: succeeded).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type StripeObject = Record<string, unknown> & { id: string; object: string };

export interface StandInRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey: string | null;
}

export interface SendOptions {
  /** Seconds since the epoch the signature claims (default: now). */
  timestamp?: number;
  /** Sign with this secret instead of the stand-in's. */
  secret?: string;
  /** Send exactly this body (signed as it is): for malformed or oversized payloads. */
  rawBody?: string;
}

export interface StripeStandIn {
  /** Give this as STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Where events go: the app's POST /stripe/webhook. */
  webhookUrl: string | null;
  requests: StandInRequest[];
  customers: Map<string, StripeObject>;
  sessions: Map<string, StripeObject>;
  invoices: Map<string, StripeObject>;
  portalSessions: Map<string, StripeObject>;
  setupIntents: Map<string, StripeObject>;
  paymentIntents: Map<string, StripeObject>;
  /** What the hosted page does for a setup session: the card saved, the event sent. */
  completeSetup(sessionId: string, paymentMethod?: string): Promise<Response>;
  /** A PaymentIntent as its event carries it now. */
  paymentIntent(id: string): StripeObject;
  /** A dispute of a PaymentIntent's charge. */
  disputeIntent(paymentIntentId: string): StripeObject;
  /** An event as Stripe sends it, with its body and Stripe-Signature header. */
  signedEvent(type: string, object: StripeObject, options?: SendOptions): { body: string; signature: string };
  /** POSTs a signed event to `webhookUrl`; resolves with the app's answer. */
  sendEvent(type: string, object: StripeObject, options?: SendOptions): Promise<Response>;
  /** What the hosted page's Pay button does: paid, charged, the event sent; the success URL. */
  pay(sessionId: string): Promise<{ webhook: Response; redirect: string }>;
  /** The charge a paid session made, as `charge.refunded` carries it after `amountRefunded`. */
  refundedCharge(sessionId: string, amountRefunded: number): StripeObject;
  /** A dispute of the charge a paid session made. */
  dispute(sessionId: string): StripeObject;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

/** Stripe's form encoding: `a[b][0][c]=v` → {a: {b: [{c: "v"}]}}. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = name.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> | unknown[] = root;
    keys.forEach((key, index) => {
      const last = index === keys.length - 1;
      const nextIsIndex = /^\d+$/.test(keys[index + 1] ?? "");
      const slot = node as Record<string, unknown>;
      if (last) slot[key] = value;
      else {
        slot[key] ??= nextIsIndex ? [] : {};
        node = slot[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

const stripeError = (status: number, type: string, message: string, code?: string, param?: string) => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } },
});

export async function startStripeStandIn(options: { webhookUrl?: string } = {}): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const charges = new Map<string, StripeObject>(); // by session id
  let server: Server | undefined;

  const standIn: StripeStandIn = {
    url: "",
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    requests: [],
    customers: new Map(),
    sessions: new Map(),
    invoices: new Map(),
    portalSessions: new Map(),
    setupIntents: new Map(),
    paymentIntents: new Map(),
    async completeSetup(sessionId, paymentMethod = "pm_card_visa") {
      const session = standIn.sessions.get(sessionId);
      if (session?.mode !== "setup") throw new Error(`no setup session ${sessionId}`);
      const setupIntent: StripeObject = {
        id: id("seti"),
        object: "setup_intent",
        status: "succeeded",
        customer: session.customer,
        payment_method: paymentMethod,
        usage: "off_session",
        metadata: session.metadata,
      };
      standIn.setupIntents.set(setupIntent.id, setupIntent);
      Object.assign(session, { status: "complete", setup_intent: setupIntent.id });
      return standIn.sendEvent("checkout.session.completed", { ...session });
    },
    paymentIntent(paymentIntentId) {
      const found = standIn.paymentIntents.get(paymentIntentId);
      if (!found) throw new Error(`no payment intent ${paymentIntentId}`);
      return structuredClone(found);
    },
    disputeIntent(paymentIntentId) {
      const intent = standIn.paymentIntent(paymentIntentId);
      return {
        id: id("dp"),
        object: "dispute",
        amount: intent.amount,
        currency: intent.currency,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        reason: "fraudulent",
        status: "needs_response",
      };
    },
    signedEvent(type, object, send = {}) {
      const body =
        send.rawBody ??
        JSON.stringify({
          id: id("evt"),
          object: "event",
          api_version: Stripe.API_VERSION,
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
          data: { object },
        });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: send.secret ?? webhookSecret,
        ...(send.timestamp === undefined ? {} : { timestamp: send.timestamp }),
      });
      return { body, signature };
    },
    async sendEvent(type, object, send = {}) {
      if (!standIn.webhookUrl) throw new Error("the stand-in has no webhookUrl to send events to");
      const { body, signature } = standIn.signedEvent(type, object, send);
      return fetch(standIn.webhookUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": signature },
        body,
      });
    },
    async pay(sessionId) {
      const session = standIn.sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const paymentIntent = id("pi");
      const charge: StripeObject = {
        id: id("ch"),
        object: "charge",
        amount: session.amount_total,
        amount_refunded: 0,
        currency: session.currency,
        payment_intent: paymentIntent,
        refunded: false,
      };
      charges.set(sessionId, charge);
      // With invoice_creation enabled, Stripe makes the invoice and names it on the session.
      const invoice =
        (session.invoice_creation as { enabled?: string } | null)?.enabled === "true"
          ? { id: id("in"), object: "invoice", hosted_invoice_url: "", status: "paid" }
          : null;
      if (invoice) {
        invoice.hosted_invoice_url = `https://invoice.stripe.test/i/${invoice.id}`;
        standIn.invoices.set(invoice.id, invoice);
      }
      Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        payment_intent: paymentIntent,
        invoice: invoice?.id ?? null,
      });
      const webhook = await standIn.sendEvent("checkout.session.completed", { ...session });
      return { webhook, redirect: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId) };
    },
    refundedCharge(sessionId, amountRefunded) {
      const charge = charges.get(sessionId);
      if (!charge) throw new Error(`session ${sessionId} was not paid`);
      Object.assign(charge, { amount_refunded: amountRefunded, refunded: amountRefunded >= Number(charge.amount) });
      return { ...charge };
    },
    dispute(sessionId) {
      const charge = charges.get(sessionId);
      if (!charge) throw new Error(`session ${sessionId} was not paid`);
      return {
        id: id("dp"),
        object: "dispute",
        amount: charge.amount,
        currency: charge.currency,
        charge: charge.id,
        payment_intent: charge.payment_intent,
        reason: "fraudulent",
        status: "needs_response",
      };
    },
    close: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };

  function createCustomer(body: Record<string, unknown>) {
    const customer: StripeObject = {
      id: id("cus"),
      object: "customer",
      name: body.name ?? null,
      email: body.email ?? null,
      metadata: body.metadata ?? {},
    };
    standIn.customers.set(customer.id, customer);
    return { status: 200, body: customer };
  }

  function createSetupSession(body: Record<string, unknown>) {
    const customer = typeof body.customer === "string" ? body.customer : null;
    if (!customer || !standIn.customers.has(customer))
      return stripeError(
        400,
        "invalid_request_error",
        `No such customer: '${customer}'`,
        "resource_missing",
        "customer",
      );
    const sessionId = id("cs");
    const session: StripeObject = {
      id: sessionId,
      object: "checkout.session",
      mode: "setup",
      status: "open",
      payment_status: "no_payment_required",
      amount_total: null,
      currency: body.currency ?? null,
      customer,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      setup_intent: null,
      payment_intent: null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      url: `${standIn.url}/pay/${sessionId}`,
    };
    standIn.sessions.set(sessionId, session);
    return { status: 200, body: session };
  }

  function createSession(body: Record<string, unknown>) {
    if (body.mode === "setup") return createSetupSession(body);
    for (const param of ["mode", "success_url", "line_items"])
      if (body[param] === undefined)
        return stripeError(
          400,
          "invalid_request_error",
          `Missing required param: ${param}.`,
          "parameter_missing",
          param,
        );
    const items = body.line_items as Array<{ quantity?: string; price_data?: Record<string, unknown> }>;
    let amount = 0;
    let currency = "";
    for (const item of items) {
      const price = item.price_data ?? {};
      amount += Number(price.unit_amount) * Number(item.quantity ?? 1);
      currency = String(price.currency ?? "");
    }
    if (!Number.isInteger(amount) || amount <= 0 || !currency)
      return stripeError(400, "invalid_request_error", "Invalid line_items.", "parameter_invalid", "line_items");
    const customer = typeof body.customer === "string" ? body.customer : null;
    if (customer && !standIn.customers.has(customer))
      return stripeError(
        400,
        "invalid_request_error",
        `No such customer: '${customer}'`,
        "resource_missing",
        "customer",
      );
    const sessionId = id("cs");
    const session: StripeObject = {
      id: sessionId,
      object: "checkout.session",
      mode: body.mode,
      status: "open",
      payment_status: "unpaid",
      amount_total: amount,
      currency,
      customer,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      invoice_creation: body.invoice_creation ?? null,
      invoice: null,
      payment_intent: null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      url: `${standIn.url}/pay/${sessionId}`,
    };
    standIn.sessions.set(sessionId, session);
    return { status: 200, body: session };
  }

  /** Stripe's test payment methods: the card behind each, as Stripe's test mode has them. */
  const cardOf = (paymentMethod: string) => ({
    id: paymentMethod,
    object: "payment_method",
    type: "card",
    card: {
      brand: paymentMethod.includes("mastercard") ? "mastercard" : "visa",
      last4:
        paymentMethod === "pm_card_chargeDeclined"
          ? "0002"
          : paymentMethod === "pm_card_authenticationRequired"
            ? "3184"
            : "4242",
    },
  });

  function createPaymentIntent(body: Record<string, unknown>) {
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount <= 0 || typeof body.currency !== "string")
      return stripeError(400, "invalid_request_error", "Invalid amount or currency.", "parameter_invalid", "amount");
    const customer = typeof body.customer === "string" ? body.customer : null;
    if (customer && !standIn.customers.has(customer))
      return stripeError(
        400,
        "invalid_request_error",
        `No such customer: '${customer}'`,
        "resource_missing",
        "customer",
      );
    const paymentMethod = typeof body.payment_method === "string" ? body.payment_method : null;
    const intent: StripeObject = {
      id: id("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: body.currency,
      customer,
      payment_method: paymentMethod,
      metadata: body.metadata ?? {},
      off_session: body.off_session ?? null,
      status: "requires_confirmation",
      latest_charge: null,
      last_payment_error: null,
    };
    standIn.paymentIntents.set(intent.id, intent);
    if (body.confirm !== "true") return { status: 200, body: intent };
    if (paymentMethod === "pm_card_chargeDeclined") {
      const error = {
        type: "card_error",
        code: "card_declined",
        decline_code: "generic_decline",
        message: "Your card was declined.",
      };
      Object.assign(intent, { status: "requires_payment_method", last_payment_error: error });
      return { status: 402, body: { error: { ...error, payment_intent: { ...intent } } } };
    }
    if (paymentMethod === "pm_card_authenticationRequired") {
      const error = {
        type: "card_error",
        code: "authentication_required",
        message: "Your card was declined. This transaction requires authentication.",
      };
      Object.assign(intent, { status: "requires_action", last_payment_error: error });
      return { status: 402, body: { error: { ...error, payment_intent: { ...intent } } } };
    }
    Object.assign(intent, { status: "succeeded", amount_received: amount, latest_charge: id("ch") });
    return { status: 200, body: intent };
  }

  function createPortalSession(body: Record<string, unknown>) {
    const customer = typeof body.customer === "string" ? body.customer : "";
    if (!standIn.customers.has(customer))
      return stripeError(
        400,
        "invalid_request_error",
        `No such customer: '${customer}'`,
        "resource_missing",
        "customer",
      );
    const session: StripeObject = {
      id: id("bps"),
      object: "billing_portal.session",
      customer,
      return_url: body.return_url ?? null,
      url: "",
    };
    session.url = `${standIn.url}/portal/${session.id}`;
    standIn.portalSessions.set(session.id, session);
    return { status: 200, body: session };
  }

  function answerApi(method: string, path: string, body: Record<string, unknown>) {
    if (method === "POST" && path === "/v1/customers") return createCustomer(body);
    if (method === "POST" && path === "/v1/billing_portal/sessions") return createPortalSession(body);
    if (method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(body);
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === "POST" && customerPath) {
      const found = standIn.customers.get(decodeURIComponent(customerPath[1] as string));
      if (!found) return stripeError(404, "invalid_request_error", "No such customer", "resource_missing", "id");
      if (body.invoice_settings) found.invoice_settings = body.invoice_settings;
      return { status: 200, body: found };
    }
    const setupIntent = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && setupIntent) {
      const found = standIn.setupIntents.get(decodeURIComponent(setupIntent[1] as string));
      if (!found) return stripeError(404, "invalid_request_error", "No such setupintent", "resource_missing", "id");
      const expand = Object.entries(body).some(
        ([key, value]) => key.startsWith("expand") && value === "payment_method",
      );
      return {
        status: 200,
        body: expand ? { ...found, payment_method: cardOf(String(found.payment_method)) } : found,
      };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(body);
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && session) {
      const found = standIn.sessions.get(decodeURIComponent(session[1] as string));
      return found
        ? { status: 200, body: found }
        : stripeError(404, "invalid_request_error", "No such checkout.session", "resource_missing", "id");
    }
    const invoice = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (method === "GET" && invoice) {
      const found = standIn.invoices.get(decodeURIComponent(invoice[1] as string));
      return found
        ? { status: 200, body: found }
        : stripeError(404, "invalid_request_error", "No such invoice", "resource_missing", "id");
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, text: string) {
    const url = new URL(request.url ?? "/", standIn.url);
    const method = request.method ?? "GET";
    const portal = /^\/portal\/([^/]+)$/.exec(url.pathname);
    if (portal) {
      const session = standIn.portalSessions.get(decodeURIComponent(portal[1] as string));
      if (!session) return void response.writeHead(404, { "Content-Type": "text/plain" }).end("no such session");
      const back = String(session.return_url).replace(/[<>"&]/g, "");
      const page = `<!doctype html><title>Billing portal</title><h1>Stripe stand-in portal</h1><p>${String(session.customer)}</p><a href="${back}">Return</a>`;
      return void response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
    }
    const pay = /^\/pay\/([^/]+)$/.exec(url.pathname);
    if (pay) {
      const sessionId = decodeURIComponent(pay[1] as string);
      const session = standIn.sessions.get(sessionId);
      if (!session) return void response.writeHead(404, { "Content-Type": "text/plain" }).end("no such session");
      if (method === "POST") {
        // A setup session saves the card; a payment session pays. Either sends its event, then returns.
        if (session.mode === "setup") {
          await standIn.completeSetup(sessionId);
          return void response.writeHead(303, { Location: String(session.success_url) }).end();
        }
        const { redirect } = await standIn.pay(sessionId);
        return void response.writeHead(303, { Location: redirect }).end();
      }
      const page = `<!doctype html><title>Pay</title><h1>Stripe stand-in</h1><p>${Number(session.amount_total)} ${String(session.currency)}</p><form method="post"><button type="submit">Pay</button></form>`;
      return void response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
    }
    const send = ({ status, body }: { status: number; body: unknown }) =>
      response
        .writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") })
        .end(JSON.stringify(body));
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return send(stripeError(401, "invalid_request_error", "Invalid API Key provided.", "api_key_invalid"));
    const body = method === "POST" ? parseStripeForm(text) : Object.fromEntries(url.searchParams);
    const key = request.headers["idempotency-key"];
    const idempotencyKey = typeof key === "string" ? key : null;
    standIn.requests.push({ method, path: url.pathname, body, idempotencyKey });
    const scoped = idempotencyKey && `${method} ${url.pathname} ${idempotencyKey}`;
    const earlier = scoped ? idempotent.get(scoped) : undefined;
    if (earlier) return send(earlier);
    const answer = answerApi(method, url.pathname, body);
    if (scoped && answer.status < 500) idempotent.set(scoped, answer);
    send(answer);
  }

  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      handle(request, response, Buffer.concat(chunks).toString("utf8")).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
