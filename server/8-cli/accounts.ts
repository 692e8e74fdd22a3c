import { oneLine } from "../1-domain/audit";
import { createApiToken, TOKEN_SCOPES, type TokenScope } from "../4-api-access/tokens";
import { CreditsError, changeCredits, creditBalance } from "../4-credits/credits";
import { auditCsv, auditPage } from "../4-organizations/audit";
import { createOrganization, OrganizationError, requireOrganization } from "../4-organizations/organizations";
import { IDP_USAGE, idpCommand } from "./identity-providers";
import { type CliContext, parse, UsageError, withDatabase } from "./io";
import { isMemberRefusal, MEMBER_USAGE, memberCommand } from "./members";
import { audited } from "./operator-audit";

export const ORG_USAGE = `ops org <command>
  create --name NAME --country CC [--credits N] [--rate-limit N]
                                          create an organization (no members yet); prints its id last
                                          (--credits: starting grant, default STARTING_CREDITS or 1000)
  audit --org ORG_ID [--limit N] [--csv]  the organization's audit trail, newest first (default 50,
                                          at most 10000); --csv: as CSV, with every column
${MEMBER_USAGE}
${IDP_USAGE}`;

export const TOKEN_USAGE = `ops token <command>
  create --org ORG_ID --name NAME [--scope ${TOKEN_SCOPES.join("|")}] [--expires-in-days N]
                                          create an API token; prints the secret once, last
                                          (no --scope: a token with no scope)`;

export const CREDITS_USAGE = `ops credits <command>
  grant --org ORG_ID --amount N [--note TEXT]    add N > 0 credits; prints the new balance last
  adjust --org ORG_ID --amount ±N --note TEXT    correct the balance (never below 0); prints it last
  balance --org ORG_ID                           prints the balance`;

/** A whole number from an option; `min` bounds it. */
function integerOption(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, not "${raw}"`);
  return value;
}

function required(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

const subcommand = (group: string, command: string | undefined) =>
  new UsageError(command ? `unknown command "${group} ${command}"` : "missing command");

async function auditCommand(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { org: { type: "string" }, limit: { type: "string" }, csv: { type: "boolean" } }, 0);
  const organizationId = required("org", values.org);
  const limit = integerOption("limit", values.limit, 1) ?? 50;
  if (limit > 10_000) throw new UsageError(`--limit must be at most 10000, not ${limit}`);
  const { events } = await withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    return auditPage(db, organizationId, { limit });
  });
  if (values.csv) {
    ctx.io.out(auditCsv(events).replace(/\r\n$/, ""));
    return 0;
  }
  if (events.length === 0) ctx.io.out("no events");
  for (const e of events) {
    const actor = e.actorLabel ?? e.actorUserId ?? e.actorTokenId ?? "";
    const target = e.targetType ? ` ${e.targetType}:${e.targetId ?? ""}` : "";
    const where = e.clientAddress ? ` from ${e.clientAddress}` : "";
    // One line per event, whatever the recorded text holds.
    ctx.io.out(
      oneLine(
        `${e.occurredAt.toISOString()}  ${e.action}${target}  by ${e.actorKind}:${actor}${where}  ${JSON.stringify(e.details)}`,
      ),
    );
  }
  return 0;
}

export async function orgCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  if (command === "member") return memberCommand(rest, ctx);
  if (command === "idp") return idpCommand(rest, ctx);
  if (command === "audit") return auditCommand(rest, ctx);
  if (command !== "create") throw subcommand("org", command);
  const { values } = parse(
    rest,
    {
      name: { type: "string" },
      country: { type: "string" },
      credits: { type: "string" },
      "rate-limit": { type: "string" },
    },
    0,
  );
  const input = {
    name: required("name", values.name),
    homeCountry: required("country", values.country),
    credits: integerOption("credits", values.credits, 0),
    rateLimit: integerOption("rate-limit", values["rate-limit"], 1) ?? null,
  };
  const organization = await withDatabase(ctx, ({ db }) =>
    audited(
      db,
      (tx) => createOrganization(tx, input),
      (created) => ({
        organizationId: created.id,
        action: "organization.create",
        targetType: "organization",
        targetId: created.id,
        details: {
          name: created.name,
          homeCountry: created.homeCountry,
          startingCredits: created.creditBalance,
          rateLimit: input.rateLimit,
        },
      }),
    ),
  );
  ctx.io.out(
    `created organization "${organization.name}" (${organization.homeCountry}) with ${organization.creditBalance} credits`,
  );
  ctx.io.out(organization.id);
  return 0;
}

export async function tokenCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  if (command !== "create") throw subcommand("token", command);
  const { values } = parse(
    rest,
    {
      org: { type: "string" },
      name: { type: "string" },
      scope: { type: "string", multiple: true },
      "expires-in-days": { type: "string" },
    },
    0,
  );
  const scopes = (values.scope ?? []).map((scope) => {
    if (!(TOKEN_SCOPES as readonly string[]).includes(scope))
      throw new UsageError(`unknown scope "${scope}"; known: ${TOKEN_SCOPES.join(", ")}`);
    return scope as TokenScope;
  });
  const days = integerOption("expires-in-days", values["expires-in-days"], 1);
  const organizationId = required("org", values.org);
  const name = required("name", values.name);
  const { token, secret } = await withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    return audited(
      db,
      (tx) =>
        createApiToken(tx, {
          organizationId,
          name,
          scopes,
          expiresAt: days ? new Date(ctx.now().getTime() + days * 86_400_000) : null,
        }),
      (created) => ({
        organizationId,
        action: "token.create",
        targetType: "token",
        targetId: created.token.id,
        // Never the secret.
        details: { name, scopes, expiresInDays: days ?? null },
      }),
    );
  });
  ctx.io.out(
    `created token ${token.id} "${token.name}" (${token.scopes.join(", ") || "no scope"}${token.expiresAt ? `, expires ${token.expiresAt.toISOString()}` : ""}); the secret is shown once:`,
  );
  ctx.io.out(secret);
  return 0;
}

export async function creditsCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  if (command !== "grant" && command !== "adjust" && command !== "balance") throw subcommand("credits", command);
  if (command === "balance") {
    const { values } = parse(rest, { org: { type: "string" } }, 0);
    const organizationId = required("org", values.org);
    ctx.io.out(String(await withDatabase(ctx, ({ db }) => creditBalance(db, organizationId))));
    return 0;
  }
  const { values } = parse(rest, { org: { type: "string" }, amount: { type: "string" }, note: { type: "string" } }, 0);
  const organizationId = required("org", values.org);
  const amount = integerOption("amount", required("amount", values.amount), command === "grant" ? 1 : -Infinity);
  const note = command === "adjust" ? required("note", values.note) : (values.note ?? null);
  const balance = await withDatabase(ctx, ({ db }) =>
    audited(
      db,
      (tx) =>
        changeCredits(tx, {
          organizationId,
          kind: command === "grant" ? "grant" : "adjustment",
          amount: amount ?? 0,
          note,
        }),
      (balanceAfter) => ({
        organizationId,
        action: command === "grant" ? "credits.grant" : "credits.adjust",
        targetType: "organization",
        targetId: organizationId,
        details: { amount, note, balanceAfter },
      }),
    ),
  );
  ctx.io.out(balance.toString());
  return 0;
}

/** Refusals of account commands: bad state, not bad words (exit 1). */
export const isAccountRefusal = (error: unknown): error is Error =>
  error instanceof OrganizationError || error instanceof CreditsError || isMemberRefusal(error);
