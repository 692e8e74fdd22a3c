/** The operator CLI: `npm run ops -- <group> <command> …`. One entry; groups register here. */
import { DatabaseInUseError } from "../../db/client";
import { CatalogFileError } from "../1-domain/definition-checks";
import { CatalogStateError } from "../3-catalog/store";
import {
  CREDITS_USAGE,
  creditsCommand,
  isAccountRefusal,
  ORG_USAGE,
  orgCommand,
  TOKEN_USAGE,
  tokenCommand,
} from "./accounts";
import { CATALOG_USAGE, catalogCommand } from "./catalog";
import { EMBED_USAGE, embedCommand } from "./embeds";
import { type CliContext, UsageError } from "./io";
import { NOTIFICATIONS_USAGE, notificationsCommand } from "./notifications";

const GROUPS: Record<string, { usage: string; run: (args: string[], ctx: CliContext) => Promise<number> }> = {
  catalog: { usage: CATALOG_USAGE, run: catalogCommand },
  org: { usage: ORG_USAGE, run: orgCommand },
  token: { usage: TOKEN_USAGE, run: tokenCommand },
  credits: { usage: CREDITS_USAGE, run: creditsCommand },
  notifications: { usage: NOTIFICATIONS_USAGE, run: notificationsCommand },
  embed: { usage: EMBED_USAGE, run: embedCommand },
};

const USAGE = `usage: npm run ops -- <group> <command> [options]\n\n${Object.values(GROUPS)
  .map((g) => g.usage)
  .join("\n\n")}`;

/** Runs one command; returns the exit code: 0 done, 1 refused (bad input or state), 2 usage. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const [groupName, ...args] = argv;
  if (!groupName || groupName === "help" || groupName === "--help") {
    ctx.io.out(USAGE);
    return groupName ? 0 : 2;
  }
  const group = GROUPS[groupName];
  try {
    if (!group) throw new UsageError(`unknown group "${groupName}"`);
    return await group.run(args, ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.io.err(`error: ${error.message}\n\n${group?.usage ?? USAGE}`);
      return 2;
    }
    if (error instanceof CatalogFileError) {
      ctx.io.err(`error: ${error.issues.length} problem(s); nothing was written\n${error.message}`);
      return 1;
    }
    if (error instanceof CatalogStateError || error instanceof DatabaseInUseError || isAccountRefusal(error)) {
      ctx.io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
