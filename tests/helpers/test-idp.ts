/**
 * An organization's identity provider for the tests: panva's oidc-provider (the library the app's
 * own authorization server is built on) in the test process, on a loopback port, with its own RSA
 * signing key. Its interaction signs in whichever account the test chose (no login form), grants
 * the scopes asked for, or denies (`access_denied`). Refresh tokens are issued to clients allowed
 * the refresh_token grant; revoking a person destroys their grants, so a refresh answers
 * `invalid_grant` — the IdP saying the person is gone. Reusable by any suite that needs an
 * enterprise IdP (OpenID Connect sign-in, ID-JAG): `signingKey` signs assertions of its own.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import Provider, { type ClientMetadata } from "oidc-provider";

export interface TestIdpAccount {
  /** The subject (`sub`). */
  id: string;
  email: string;
  emailVerified?: boolean;
}

export interface TestIdp {
  /** The issuer, `http://127.0.0.1:PORT`. */
  issuer: string;
  provider: Provider;
  /** The private signing key (RS256, with its `kid`): to mint tokens or assertions as this IdP. */
  signingKey: JWK;
  /** Who signs in at the next authorization request; null: the IdP denies it (`access_denied`). */
  signInAs(account: TestIdpAccount | null): void;
  /** Registers a confidential client (client_secret_post, code + refresh_token) for these redirect URIs. */
  addClient(client: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  /** The person is gone at the IdP: every grant of theirs destroyed (their refresh tokens stop working). */
  revoke(accountId: string): Promise<void>;
  /**
   * From now on, every ID token the token endpoint answers is rewritten by `change` and signed again
   * (with the IdP's own key, or with `foreignKey` a key it never published under the same `kid`);
   * null: answered as issued.
   */
  tamperIdTokens(change: ((claims: JWTPayload) => JWTPayload) | null, options?: { foreignKey?: boolean }): void;
  /**
   * What a browser does at the IdP, without one: follows the authorization URL through the
   * interaction to the client's redirect URI, and answers that URL (with `code`, `state`, `iss`, or `error`).
   */
  authorize(url: string | URL): Promise<URL>;
  /** Stops answering (connections refused) until `resume`; the issuer's port is kept. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestIdp(options: { port?: number } = {}): Promise<TestIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: `test-idp-${port}`, alg: "RS256", use: "sig" };
  const accounts = new Map<string, TestIdpAccount>();
  const grantsOf = new Map<string, Set<string>>();
  const clients: ClientMetadata[] = [];
  let current: TestIdpAccount | null = null;
  let tamper: { change: (claims: JWTPayload) => JWTPayload; foreignKey: boolean } | null = null;
  const foreign = (await generateKeyPair("RS256")).privateKey;

  async function rewritten(idToken: string): Promise<string> {
    if (!tamper) return idToken;
    const header = decodeProtectedHeader(idToken);
    const key = tamper.foreignKey ? foreign : await importJWK(signingKey, "RS256");
    return new SignJWT(tamper.change(decodeJwt(idToken)))
      .setProtectedHeader({ alg: "RS256", kid: header.kid as string, typ: header.typ })
      .sign(key);
  }

  /** Buffers the token endpoint's answer and rewrites its id_token before it goes out. */
  function tamperAnswer(res: import("node:http").ServerResponse) {
    const chunks: Buffer[] = [];
    const end = res.end.bind(res);
    res.write = ((chunk: unknown) => {
      chunks.push(Buffer.from(chunk as Buffer));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk as Buffer));
      void (async () => {
        let out = Buffer.concat(chunks).toString("utf8");
        try {
          const body = JSON.parse(out) as { id_token?: string };
          if (body.id_token) body.id_token = await rewritten(body.id_token);
          out = JSON.stringify(body);
        } catch {
          // not JSON: as it is
        }
        res.setHeader("content-length", Buffer.byteLength(out));
        end(out);
      })();
      return res;
    }) as typeof res.end;
  }

  let provider = makeProvider();
  function makeProvider(): Provider {
    const made = new Provider(issuer, {
      clients,
      jwks: { keys: [signingKey] },
      claims: { openid: ["sub"], email: ["email", "email_verified"] },
      scopes: ["openid", "email", "offline_access"],
      // Address claims in the ID token itself, as enterprise IdPs put them.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
      findAccount: async (_ctx, id) => {
        const account = accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified ?? true }),
        };
      },
      cookies: { keys: ["test-idp-cookies"] },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      ttl: {
        RefreshToken: 24 * 3600,
        Grant: 24 * 3600,
        Session: 3600,
        Interaction: 600,
        AccessToken: 600,
        IdToken: 600,
      },
    });
    return made;
  }

  // The interaction: no form, the chosen account signs in and every scope asked for is granted.
  server.on("request", async (req, res) => {
    try {
      if (req.url?.startsWith("/interaction/")) {
        const details = await provider.interactionDetails(req, res);
        if (!current) {
          await provider.interactionFinished(
            req,
            res,
            { error: "access_denied", error_description: "the test IdP denies this sign-in" },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        accounts.set(current.id, current);
        const clientId = String(details.params.client_id);
        const grant = new provider.Grant({ accountId: current.id, clientId });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        grant.addOIDCClaims(["email", "email_verified"]);
        const grantId = await grant.save();
        const mine = grantsOf.get(current.id) ?? new Set<string>();
        mine.add(grantId);
        grantsOf.set(current.id, mine);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: current.id }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      if (tamper && req.method === "POST" && req.url === "/token") tamperAnswer(res);
      provider.callback()(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });

  let paused = false;
  return {
    issuer,
    get provider() {
      return provider;
    },
    signingKey,
    signInAs(account) {
      current = account;
      if (account) accounts.set(account.id, account);
    },
    addClient(client) {
      clients.push({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      });
      // Clients are read when the provider is made: a new one knows them all (its grants are kept in memory by class).
      provider = makeProvider();
    },
    tamperIdTokens(change, options = {}) {
      tamper = change ? { change, foreignKey: options.foreignKey === true } : null;
    },
    async authorize(url) {
      const jar = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== issuer) return next;
        const response = await fetch(next, {
          redirect: "manual",
          headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(";");
          const at = pair?.indexOf("=") ?? -1;
          if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get("location");
        if (!location)
          throw new Error(`the test IdP answered ${response.status} without a redirect: ${await response.text()}`);
        next = new URL(location, next);
      }
      throw new Error("too many redirects at the test IdP");
    },
    async revoke(accountId) {
      for (const grantId of grantsOf.get(accountId) ?? []) {
        const grant = await provider.Grant.find(grantId);
        await grant?.destroy();
      }
      grantsOf.delete(accountId);
    },
    async pause() {
      if (paused) return;
      paused = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async resume() {
      if (!paused) return;
      paused = false;
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
    async close() {
      if (paused) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
