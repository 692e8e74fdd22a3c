-- MCP connections belong to an organization (docs/accounts.md, "MCP connections"): each OAuth
-- grant made on the consent page is bound to the organization the person had active then, and
-- acts for it alone. Grants are oidc-provider's rows in oauth_records (no foreign key to them:
-- their key is (model, id)); a binding whose grant is gone binds nothing. Removing a person from
-- an organization deletes the grants bound to it.
CREATE TABLE "connection_organizations" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD CONSTRAINT "connection_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_organizations" ADD CONSTRAINT "connection_organizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_organizations_organization" ON "connection_organizations" USING btree ("organization_id","user_id");
