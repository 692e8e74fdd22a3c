/**
 * A release read straight from the database, past every cache: what catalogue tests compare
 * (the app itself loads releases only through server/3-catalog/releases.ts).
 */
import { findRelease, readReleaseById } from "@/server/3-catalog/store";

type Reader = Parameters<typeof findRelease>[0];

export async function readRelease(db: Reader, marketId: string, release?: number) {
  const pointer = await findRelease(db, marketId, release);
  return pointer ? readReleaseById(db, pointer.id) : undefined;
}
