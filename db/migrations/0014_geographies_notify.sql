-- The geographies and their controls are part of the catalogue that in-memory caches keep (the
-- geographies list, server/7-procedures/procedure.ts): a change to them is announced on
-- `mps_changes` as `catalogue`, like a release published or a market listed (0005).
CREATE TRIGGER "geographies_changed" AFTER INSERT OR UPDATE OR DELETE ON "geographies"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('catalogue');--> statement-breakpoint
CREATE TRIGGER "geography_controls_changed" AFTER INSERT OR UPDATE OR DELETE ON "geography_controls"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('catalogue');--> statement-breakpoint
CREATE TRIGGER "controls_changed" AFTER INSERT OR UPDATE OR DELETE ON "controls"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_change"('catalogue');
