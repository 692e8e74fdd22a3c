/**
 * `ops embed create|list|revoke`: an organization's embeds from the command line (docs/embeds.md).
 * `create` pays for the release the embed shows at once, as the dashboard does, and prints the
 * embed's URL last (APP_URL's origin, else this machine's server on PORT).
 */

import { EMBED_READINGS, EMBED_THEMES, type EmbedReading, type EmbedTheme, viewFor } from "../1-domain/embeds";
import { ApiError } from "../1-errors/api-error";
import { mailLinkOrigin } from "../2-http/origin";
import { findEmbed, listEmbeds, revokeEmbed } from "../4-api-access/embeds";
import { requireOrganization } from "../4-organizations/organizations";
import { createEmbed, embedPrice } from "../7-procedures/embeds";
import { type CliContext, parse, UsageError, withDatabase } from "./io";

export const EMBED_USAGE = `ops embed <command>
  create --org ORG_ID --market MARKET --reading ${EMBED_READINGS.join("|")}
         [--country CC] [--release N] [--view map|bars] [--theme auto|light|dark] [--origin ORIGIN]…
                                          create an embed, paying for the release it shows
                                          (no --release: it follows the latest); prints its URL last
  list --org ORG_ID                       the organization's embeds: id, reading, release, views, state
  revoke EMBED_ID                         revoke an embed (every instance answers 410 at once)`;

function required(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** An embed URL of this service, as a page would frame it. */
export const embedUrl = (embedId: string, env: NodeJS.ProcessEnv = process.env) =>
  `${mailLinkOrigin(env)}/embed/${embedId}`;

export async function embedCommand(args: string[], ctx: CliContext): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === "create") return await create(rest, ctx);
    if (command === "list") return await list(rest, ctx);
    if (command === "revoke") return await revoke(rest, ctx);
  } catch (error) {
    if (error instanceof ApiError) {
      ctx.io.err(`error: ${error.detail}`);
      return 1;
    }
    throw error;
  }
  throw new UsageError(command ? `unknown command "embed ${command}"` : "missing command");
}

async function create(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(
    args,
    {
      org: { type: "string" },
      market: { type: "string" },
      reading: { type: "string" },
      country: { type: "string" },
      release: { type: "string" },
      view: { type: "string" },
      theme: { type: "string" },
      origin: { type: "string", multiple: true },
    },
    0,
  );
  const reading = required("reading", values.reading) as EmbedReading;
  if (!EMBED_READINGS.includes(reading))
    throw new UsageError(`--reading must be one of ${EMBED_READINGS.join(", ")}, not "${reading}"`);
  const theme = (values.theme ?? "auto") as EmbedTheme;
  if (!EMBED_THEMES.includes(theme)) throw new UsageError(`--theme must be auto, light or dark, not "${theme}"`);
  if (values.view !== undefined && viewFor(reading, values.view) !== values.view)
    throw new UsageError(`--view ${values.view} is not a view of ${reading}`);
  let release: number | null = null;
  if (values.release !== undefined) {
    if (!/^\d+$/.test(values.release) || Number(values.release) < 1)
      throw new UsageError(`--release must be a whole number ≥ 1, not "${values.release}"`);
    release = Number(values.release);
  }
  const organizationId = required("org", values.org);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const embed = await createEmbed(db, {
      organizationId,
      marketId: required("market", values.market),
      reading,
      country: values.country ?? null,
      release,
      view: viewFor(reading, values.view),
      theme,
      allowedOrigins: values.origin ?? [],
      createdByUserId: null,
    });
    ctx.io.out(
      `created ${embed.id}: ${reading} of ${embed.marketId}${embed.country ? ` under ${embed.country}` : ""}, ${
        release === null ? "latest release" : `release ${release}`
      }; ${embedPrice(reading)} credits per release shown`,
    );
    ctx.io.out(embedUrl(embed.id));
    return 0;
  });
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { org: { type: "string" } }, 0);
  const organizationId = required("org", values.org);
  return withDatabase(ctx, async ({ db }) => {
    await requireOrganization(db, organizationId);
    const embeds = await listEmbeds(db, organizationId);
    if (embeds.length === 0) ctx.io.out("no embeds");
    for (const e of embeds)
      ctx.io.out(
        [
          e.id,
          e.reading,
          e.marketId,
          e.country ?? "-",
          e.release === null ? "latest" : `release ${e.release}`,
          e.view,
          `${e.views} views`,
          `paid releases ${e.chargedReleases.join(",") || "-"}`,
          e.revokedAt ? `revoked ${e.revokedAt.toISOString()}` : "active",
        ].join("\t"),
      );
    return 0;
  });
}

async function revoke(args: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parse(args, {}, 1);
  const embedId = positionals[0] as string;
  return withDatabase(ctx, async ({ db }) => {
    const embed = await findEmbed(db, embedId);
    if (!embed || embed.revokedAt || !(await revokeEmbed(db, embed.organizationId, embedId))) {
      ctx.io.err(`error: no active embed "${embedId}"`);
      return 1;
    }
    ctx.io.out(`revoked ${embedId}`);
    return 0;
  });
}
