-- One MCP connection per person, client and organization through identity assertions (ID-JAG,
-- docs/enterprise-mcp.md), enforced by a unique index rather than a read before the write: twenty
-- exchanges at once made up to fifteen connections. A binding now says which client and how it
-- was made; only `id-jag` bindings are unique (consent may connect one client several times).
ALTER TABLE "connection_organizations" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD COLUMN "via" text DEFAULT 'consent' NOT NULL;--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD CONSTRAINT "connection_organizations_via" CHECK ("connection_organizations"."via" in ('consent', 'id-jag'));--> statement-breakpoint
-- Existing bindings: the client from their grant, and `id-jag` for those whose creation the audit
-- trail records as made by an identity assertion.
UPDATE "connection_organizations" AS c SET "client_id" = r."payload"->>'clientId'
  FROM "oauth_records" AS r WHERE r."model" = 'Grant' AND r."id" = c."grant_id";--> statement-breakpoint
UPDATE "connection_organizations" AS c SET "via" = 'id-jag'
  WHERE EXISTS (SELECT 1 FROM "audit_events" AS e
    WHERE e."action" = 'connection.create' AND e."target_id" = c."grant_id" AND e."details"->>'via' = 'id-jag');--> statement-breakpoint
-- Duplicates the race made: the newest live one of each person, client and organization stays;
-- the others are revoked as /connect revokes (the grant with every code and token of it, and its
-- binding), each recorded in its organization's audit trail as the system's act. Their clients'
-- next assertion gets a token of the one that stays.
CREATE TEMPORARY TABLE "id_jag_duplicates" AS
  SELECT "grant_id", "organization_id" FROM (
    SELECT c."grant_id", c."organization_id", row_number() OVER (
      PARTITION BY c."organization_id", c."user_id", c."client_id"
      ORDER BY (r."id" IS NOT NULL AND (r."expires_at" IS NULL OR r."expires_at" > now())) DESC, c."created_at" DESC, c."grant_id"
    ) AS "rank"
    FROM "connection_organizations" AS c
    LEFT JOIN "oauth_records" AS r ON r."model" = 'Grant' AND r."id" = c."grant_id"
    WHERE c."via" = 'id-jag'
  ) AS ranked WHERE "rank" > 1;--> statement-breakpoint
INSERT INTO "audit_events" ("organization_id", "actor_kind", "actor_label", "action", "target_type", "target_id", "details")
  SELECT "organization_id", 'system', 'migration 0022: one ID-JAG connection per person and client', 'connection.revoke', 'connection', "grant_id", '{"reason":"duplicate"}'::jsonb
  FROM "id_jag_duplicates";--> statement-breakpoint
DELETE FROM "oauth_records" WHERE ("model" = 'Grant' AND "id" IN (SELECT "grant_id" FROM "id_jag_duplicates"))
  OR "grant_id" IN (SELECT "grant_id" FROM "id_jag_duplicates");--> statement-breakpoint
DELETE FROM "connection_organizations" WHERE "grant_id" IN (SELECT "grant_id" FROM "id_jag_duplicates");--> statement-breakpoint
DROP TABLE "id_jag_duplicates";--> statement-breakpoint
CREATE UNIQUE INDEX "connection_organizations_id_jag" ON "connection_organizations" USING btree ("organization_id","user_id","client_id") WHERE "connection_organizations"."via" = 'id-jag';
