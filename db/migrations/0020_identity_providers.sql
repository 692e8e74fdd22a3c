-- Enterprise sign-in (docs/enterprise.md): an organization's own identity provider (OpenID
-- Connect for the dashboard, the issuer of ID-JAGs for MCP clients) and the e-mail domains it
-- speaks for. A domain counts only once verified by a DNS TXT record; a verified domain belongs to
-- one organization, and an issuer to one organization, so neither can be claimed twice.
-- identity_links: which person an IdP subject is in the organization (made at SSO sign-in), with
-- the IdP's refresh token (sealed) that tells, when refreshed, whether the person is still there.
-- assertion_replays: the `jti` of every ID-JAG exchanged, until it expires (single use).
CREATE TABLE "identity_providers" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text,
	"client_secret_sealed" text,
	"jwks" jsonb,
	"default_role" "membership_role" DEFAULT 'member' NOT NULL,
	"require_sso" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_providers_issuer_unique" UNIQUE("issuer"),
	CONSTRAINT "identity_providers_client_pair" CHECK (("identity_providers"."client_id" is null) = ("identity_providers"."client_secret_sealed" is null)),
	CONSTRAINT "identity_providers_default_role" CHECK ("identity_providers"."default_role" <> 'owner')
);
--> statement-breakpoint
CREATE TABLE "organization_domains" (
	"organization_id" text NOT NULL,
	"domain" text NOT NULL,
	"verification_token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_domains_organization_id_domain_pk" PRIMARY KEY("organization_id","domain"),
	CONSTRAINT "organization_domains_domain_lower" CHECK ("organization_domains"."domain" = lower("organization_domains"."domain"))
);
--> statement-breakpoint
CREATE TABLE "identity_links" (
	"organization_id" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"refresh_token_sealed" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_links_organization_id_subject_pk" PRIMARY KEY("organization_id","subject"),
	CONSTRAINT "identity_links_organization_user" UNIQUE("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "assertion_replays" (
	"issuer" text NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "assertion_replays_issuer_jti_pk" PRIMARY KEY("issuer","jti")
);
--> statement-breakpoint
ALTER TABLE "identity_providers" ADD CONSTRAINT "identity_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_domains" ADD CONSTRAINT "organization_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assertion_replays_expires" ON "assertion_replays" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_domains_verified" ON "organization_domains" USING btree ("domain") WHERE "organization_domains"."verified_at" is not null;
