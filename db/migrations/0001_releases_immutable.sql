-- Releases are immutable: a change is a new release, never an edit. Refuse UPDATE and DELETE on
-- releases and their per-country results at the database itself, whatever the client.
CREATE FUNCTION "refuse_release_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'releases are immutable: % on % refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "releases_immutable" BEFORE UPDATE OR DELETE ON "releases"
  FOR EACH ROW EXECUTE FUNCTION "refuse_release_change"();--> statement-breakpoint
CREATE TRIGGER "release_country_results_immutable" BEFORE UPDATE OR DELETE ON "release_country_results"
  FOR EACH ROW EXECUTE FUNCTION "refuse_release_change"();
