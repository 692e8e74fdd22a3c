-- Changes that in-memory caches must hear about, announced on the channel `mps_changes` (NOTIFY is
-- delivered at commit, to every listening connection of every instance): `credentials` when a
-- token or what a token's holder carries changes (revocation, home country, rate limit, a grant
-- or adjustment), `catalogue` when a release is published or a market listed or archived.
CREATE FUNCTION "notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mps_changes', TG_ARGV[0]);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "api_tokens_changed" AFTER UPDATE OR DELETE ON "api_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('credentials');--> statement-breakpoint
CREATE TRIGGER "organizations_changed" AFTER UPDATE OF "home_country", "rate_limit" OR DELETE ON "organizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('credentials');--> statement-breakpoint
CREATE TRIGGER "credits_granted" AFTER INSERT ON "credit_ledger"
  FOR EACH ROW WHEN (NEW."kind" <> 'debit') EXECUTE FUNCTION "notify_change"('credentials');--> statement-breakpoint
CREATE TRIGGER "releases_published" AFTER INSERT ON "releases"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('catalogue');--> statement-breakpoint
CREATE TRIGGER "markets_changed" AFTER INSERT OR UPDATE OR DELETE ON "markets"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('catalogue');
