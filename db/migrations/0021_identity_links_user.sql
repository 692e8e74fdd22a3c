-- Dashboard sign-in through an organization's IdP (docs/enterprise.md): every dashboard request of
-- a signed-in person asks which of their identity links are due for a recheck at the IdP
-- (user_id, checked_at older than SSO_RECHECK_SECONDS). The primary key and the unique
-- (organization_id, user_id) index cannot answer by person alone: this one does, without a scan.
CREATE INDEX "identity_links_user_checked" ON "identity_links" USING btree ("user_id","checked_at");
