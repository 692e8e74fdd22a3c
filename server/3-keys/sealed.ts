/**
 * Secrets the service must read again, never store in the clear: webhook signing secrets. Sealed
 * with AES-256-GCM under a key derived from AUTH_SECRET (HKDF-SHA-256, its own `info`, so it is
 * never the key that signs sessions). A sealed value is `v1.<iv>.<ciphertext>.<tag>` in base64url;
 * one that was tampered with, or sealed under another AUTH_SECRET, does not open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { appSecret } from "./app-secret";

const INFO = "market-positioning sealed secrets v1";

function key(env: NodeJS.ProcessEnv = process.env): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret(env), Buffer.alloc(0), INFO, 32));
}

export function seal(plain: string, env: NodeJS.ProcessEnv = process.env): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(env), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export class SealBrokenError extends Error {
  constructor() {
    super("a sealed secret does not open: was AUTH_SECRET changed?");
    this.name = "SealBrokenError";
  }
}

export function unseal(sealed: string, env: NodeJS.ProcessEnv = process.env): string {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== "v1" || !iv || data === undefined || !tag) throw new SealBrokenError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(env), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealBrokenError();
  }
}
