import { z } from "zod";
import { ROLES } from "../../1-domain/roles";
import { notFound } from "../../1-errors/api-error";
import { countedNames } from "../../2-formats/name-list";
import { rateLimiterConfigFromEnv } from "../../3-limits/rate-limiter";
import { requestLimits } from "../../3-limits/request-limits";
import { defaultRateLimit } from "../../3-limits/shared-rate-limit";
import { organizationAccount } from "../../4-organizations/organization-account";
import { declareLive } from "../declaration";
import { credits, timestamp } from "../schemas";

export const organizationSchema = z
  .object({
    organizationId: z.string(),
    name: z.string(),
    homeCountry: z.string().meta({ description: "The country readings engage when a call names none." }),
    balance: credits.meta({ description: "Credits left now: the sum of the ledger." }),
    rateLimit: z
      .object({
        limit: z.number().int().positive().meta({ description: "Calls per window, for the whole organization." }),
        windowSeconds: z.number().int().positive(),
        remaining: z.number().int().min(0).meta({ description: "Calls left in the current window, this one counted." }),
        resetSeconds: z.number().int().min(0).meta({ description: "Seconds until the window starts again." }),
      })
      .meta({ description: "The organization's rate limit (429 rate_limited beyond it)." }),
    concurrency: z
      .object({
        maxInFlight: z.number().int().positive(),
        maxQueued: z.number().int().min(0),
      })
      .meta({
        description:
          "Metered calls the organization may have running at once on one instance, and waiting behind them; beyond, 429 too_many_concurrent.",
      }),
    members: z
      .array(
        z.object({
          userId: z.string(),
          email: z.string().nullable(),
          name: z.string().nullable(),
          role: z.enum(ROLES).meta({
            description:
              "owner: everything; admin: members, tokens, webhooks, connections, settings; member: markets and their own tokens and connections; billing: credits and usage.",
          }),
          joinedAt: timestamp,
        }),
      )
      .meta({ description: "Who belongs to the organization, with their role, in the order they joined." }),
  })
  .meta({ id: "Organization", description: "The calling token's organization: balance, limits and members." });

export const accountOrganization = declareLive({
  group: "account",
  name: "organization",
  scope: null,
  credits: 0,
  path: "/organization",
  summary: "Your organization",
  description:
    "The organization the token belongs to: its balance now, its rate limit with what is left of the current window, and how many metered calls it may have running and waiting at once, and its members with their roles. Any valid token may call it, whatever its scopes.",
  input: z.object({}),
  output: organizationSchema,
  example: {},
  caching: "live",
  answer: async (ctx) => {
    const organization = ctx.caller?.organization;
    const account = organization ? await organizationAccount(ctx.db, organization.id) : undefined;
    if (!organization || !account) throw notFound("The token's organization no longer exists.");
    const limit = account.rateLimit ?? defaultRateLimit();
    const decision = ctx.facts.rateLimit;
    const limits = requestLimits();
    return {
      organizationId: organization.id,
      name: account.name,
      homeCountry: account.homeCountry,
      balance: account.balance,
      rateLimit: {
        limit,
        windowSeconds: rateLimiterConfigFromEnv().windowSeconds,
        remaining: decision?.remaining ?? limit,
        resetSeconds: decision?.resetSeconds ?? 0,
      },
      concurrency: { maxInFlight: limits.orgMaxInFlight, maxQueued: limits.orgMaxQueued },
      members: account.members.map((member) => ({ ...member, joinedAt: member.joinedAt.toISOString() })),
    };
  },
  tool: {
    name: "service_account_get",
    title: "Your organization: balance, limits and members",
    text: (o) =>
      `${o.name}: ${o.balance.toLocaleString("en")} credits left; rate limit ${o.rateLimit.limit} calls per ${o.rateLimit.windowSeconds} s (${o.rateLimit.remaining} left, resets in ${o.rateLimit.resetSeconds} s); at most ${o.concurrency.maxInFlight} calls at once; ${countedNames(
        o.members.map((m) => `${m.name ?? m.email ?? m.userId} (${m.role})`),
        "member",
      )}.`,
  },
});
