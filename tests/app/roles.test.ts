/**
 * The roles table walked against the running app: for every role and every permission of
 * server/1-domain/roles.ts (the one table; docs/accounts.md's copy is checked equal to it), a real
 * call that needs that permission — a dashboard procedure over HTTP with the person's session
 * cookie, or, for `connections.own`, the ID-JAG exchange at /oauth/token — is allowed exactly when
 * the table says so. Changes are probed with an input the procedure refuses after its permission
 * check (400 when allowed, 403 naming the permission when not), so the walk changes nothing.
 * A permission without a probe fails the walk: every power in the table is enforced somewhere.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES, type Role } from "@/server/1-domain/roles";
import { organization } from "../helpers/accounts";
import { dashboardCall, type TrpcAnswer } from "../helpers/dashboard";
import {
  exchangeAssertion,
  type InlineIdp,
  inlineIdp,
  type JwtBearerClient,
  jwtBearerClient,
  memberWithSession,
  type SessionPerson,
} from "../helpers/id-jag";
import { type OwnApp, startOwnApp } from "../helpers/own-app";

interface Person extends SessionPerson {
  subject: string;
}
type People = Record<Role, Person>;

let app: OwnApp<{ id: string; people: People }>;
let base: string;
let idp: InlineIdp;
let client: JwtBearerClient;
/** An API token the owner made: those who manage every token see it, the others do not. */
let ownersTokenId: string;

beforeAll(async () => {
  idp = await inlineIdp("https://idp.roles-walk.example", "walk-1");
  app = await startOwnApp({}, async (db) => {
    const org = await organization(db, "Roles walk", { credits: 1000 });
    await idp.setFor(db, org.id);
    const people = {} as People;
    for (const role of ROLES) {
      const who = await memberWithSession(db, org.id, role);
      await idp.link(db, org.id, `${role}-sub`, who.userId);
      people[role] = { ...who, subject: `${role}-sub` };
    }
    return { id: org.id, people };
  });
  base = app.url;
  client = await jwtBearerClient(base, "Roles walk client");
  const made = await dashboardCall(
    base,
    app.prepared.people.owner.session,
    "tokens.create",
    { name: "owner's", scopes: [] },
    { mutation: true },
  );
  ownersTokenId = (made.data as { token: { id: string } }).token.id;
});
afterAll(async () => {
  await app?.close();
});

type Outcome = "allowed" | "refused";

/** A dashboard answer: refused when it is 403 naming the permission (or the 404 `audit.read` answers). */
function judged(answer: TrpcAnswer, permission: Permission): Outcome | string {
  if (answer.status === 403 && answer.problem?.code === "forbidden")
    return answer.problem.detail.includes(permission)
      ? "refused"
      : `refused for another reason: ${answer.problem.detail}`;
  if (answer.status === 200 || answer.status === 400) return "allowed";
  return `answered ${answer.status} ${JSON.stringify(answer.problem)}`;
}

const query = (procedure: string, input?: unknown) => (who: Person, permission: Permission) =>
  dashboardCall(base, who.session, procedure, input).then((answer) => judged(answer, permission));
/** A mutation sent an input it refuses: 400 once past the permission check, 403 before it. */
const refusedInput = (procedure: string) => (who: Person, permission: Permission) =>
  dashboardCall(base, who.session, procedure, { "not-an-input": true }, { mutation: true }).then((answer) =>
    judged(answer, permission),
  );

async function idJagExchange(who: Person): Promise<Outcome | string> {
  const { status, body } = await exchangeAssertion(base, idp, client, who.subject);
  if (status === 200) return "allowed";
  if (body.error === "invalid_grant" && body.error_description?.includes("connections.own")) return "refused";
  return `answered ${status} ${JSON.stringify(body)}`;
}

/** One real call per permission, and how its answer reads. */
const PROBES: Record<Permission, (who: Person, permission: Permission) => Promise<Outcome | string>> = {
  "markets.read": query("readings.snapshot", { marketId: "foundation-model-apis" }),
  "members.read": query("members.list"),
  "members.manage": refusedInput("members.invite"),
  "tokens.manage_all": async (who, permission) => {
    const answer = await dashboardCall(base, who.session, "tokens.list");
    if (answer.status !== 200)
      return judged(answer, "tokens.own") === "refused" ? "refused" : judged(answer, permission);
    const ids = (answer.data as { id: string }[]).map((token) => token.id);
    return ids.includes(ownersTokenId) ? "allowed" : "refused";
  },
  "tokens.own": refusedInput("tokens.create"),
  "webhooks.manage": query("webhooks.list"),
  "connections.manage_all": query("connections.organizationList"),
  "connections.own": idJagExchange,
  "credits.read": query("credits.summary"),
  "credits.manage": refusedInput("credits.setLowBalanceThreshold"),
  "credits.cap": refusedInput("billing.setCap"),
  "organization.settings": refusedInput("organizations.updateSettings"),
  "organization.delete": refusedInput("organizations.delete"),
  "ownership.transfer": refusedInput("members.transferOwnership"),
  "audit.read": async (who, permission) => {
    const answer = await dashboardCall(base, who.session, "audit.list", {});
    // Documented: the trail is not found for those who may not read it.
    if (answer.status === 404 && answer.problem?.code === "not_found") return "refused";
    return judged(answer, permission);
  },
  "embeds.manage": query("embeds.list"),
  "sso.manage": query("identityProvider.show"),
};

describe("the roles table", () => {
  it("is the table docs/accounts.md shows", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/accounts.md"), "utf8");
    const section = doc.slice(doc.indexOf("\n## Roles\n"), doc.indexOf("\n### The last owner\n"));
    const rows = section.split("\n").filter((line) => /^\| `[a-z_.]+` +\|/.test(line));
    const table = Object.fromEntries(
      rows.map((line) => {
        const cells = line.split("|").map((cell) => cell.trim());
        const permission = cells[1]?.replaceAll("`", "") as string;
        return [permission, ROLES.filter((_, index) => cells[3 + index] === "✓")];
      }),
    );
    expect(Object.keys(table)).toEqual([...PERMISSIONS]);
    for (const permission of PERMISSIONS)
      expect(table[permission], permission).toEqual(
        ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission)),
      );
  });

  it("is enforced for every role and every permission through a real call", async () => {
    expect(Object.keys(PROBES).sort()).toEqual([...PERMISSIONS].sort());
    const seen: string[] = [];
    const expected: string[] = [];
    for (const permission of PERMISSIONS)
      for (const role of ROLES) {
        const outcome = await PROBES[permission](app.prepared.people[role], permission);
        seen.push(`${role} ${permission}: ${outcome}`);
        expected.push(`${role} ${permission}: ${ROLE_PERMISSIONS[role].includes(permission) ? "allowed" : "refused"}`);
      }
    expect(seen).toEqual(expected);
  });
});
