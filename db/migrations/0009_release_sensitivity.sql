-- How sure each score and rank of a release is (the sensitivity analysis run at publish time); null
-- for releases published before it existed, which the readings analyse on first read instead.
ALTER TABLE "releases" ADD COLUMN "sensitivity" jsonb;