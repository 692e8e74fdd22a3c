-- What satisfying each control evidences of the EU Cloud Sovereignty Framework's objectives (docs/sovereignty.md).
ALTER TABLE "controls" ADD COLUMN "sov" jsonb;