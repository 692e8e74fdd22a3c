/** What the consent page shows about one pending authorization. */
import type { Database } from "../../db/client";
import { MARKET_READ_SCOPE } from "../1-domain/operations";
import { metadataDocumentHost } from "../4-organizations/connections";
import { providerFor } from "./host";

export interface ConsentRequest {
  clientName: string;
  /**
   * The host of the client's metadata document URL, which vouches for its name; null when the
   * client registered itself (DCR), whose name nobody vouches for.
   */
  vouchedForBy: string | null;
  /** Where the browser goes back to: the host (or scheme) of the redirect URI, to tell clients apart. */
  returnsTo: string;
  /** Whether the client asked for market data (without it, only the free tools answer). */
  readsMarketData: boolean;
  /** Whether the client may stay connected (a refresh token) beyond the first hour. */
  staysConnected: boolean;
}

function returnsTo(redirectUri: unknown): string {
  const parsed = typeof redirectUri === "string" ? URL.parse(redirectUri) : null;
  if (!parsed) return "an unknown address";
  return parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
}

/** The pending authorization `uid`, or null when it is unknown or expired. */
export async function consentRequest(db: Database, origin: string, uid: string): Promise<ConsentRequest | null> {
  const provider = await providerFor(db, origin);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const client = await provider.Client.find(String(interaction.params.client_id));
  if (!client) return null;
  const scopes = new Set(String(interaction.params.scope ?? "").split(" "));
  return {
    clientName: client.clientName ?? client.clientId,
    vouchedForBy: (client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument
      ? metadataDocumentHost(client.clientId)
      : null,
    returnsTo: returnsTo(interaction.params.redirect_uri),
    readsMarketData: scopes.has(MARKET_READ_SCOPE),
    staysConnected: client.grantTypeAllowed("refresh_token"),
  };
}
