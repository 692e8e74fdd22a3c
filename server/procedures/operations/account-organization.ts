import { z } from "zod";
import { organizationAccount } from "../../accounts/usage";
import { notFound } from "../../errors/api-error";
import { rateLimiterConfigFromEnv } from "../../limits/rate-limiter";
import { requestLimits } from "../../limits/request-limits";
import { defaultRateLimit } from "../../limits/shared-rate-limit";
import { declareLive } from "../declaration";
import { organizationSchema } from "../schemas";

export const accountOrganization = declareLive({
  group: "account",
  name: "organization",
  scope: null,
  credits: 0,
  path: "/organization",
  summary: "Your organization",
  description:
    "The organization the token belongs to: its balance now, its rate limit with what is left of the current window, and how many metered calls it may have running and waiting at once. Any valid token may call it, whatever its scopes.",
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
    };
  },
  tool: {
    name: "service_account_get",
    title: "Your organization: balance and limits",
    text: (o) =>
      `${o.name}: ${o.balance.toLocaleString("en")} credits left; rate limit ${o.rateLimit.limit} calls per ${o.rateLimit.windowSeconds} s (${o.rateLimit.remaining} left, resets in ${o.rateLimit.resetSeconds} s); at most ${o.concurrency.maxInFlight} calls at once.`,
  },
});
