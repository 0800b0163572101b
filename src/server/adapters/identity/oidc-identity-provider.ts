import * as client from 'openid-client';
import type { IdentityClaims, IdentityProvider, PendingSignIn } from './identity-provider';
import type { OidcConfig } from '../../config';

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** OpenID Connect, authorization code flow with PKCE, through openid-client. */
export class OidcIdentityProvider implements IdentityProvider {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly settings: OidcConfig) {}

  /** Discovered on first use, so the marketplace starts even while the provider is down. */
  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuerUrl);
      this.configuration = client
        .discovery(
          issuer,
          this.settings.clientId,
          this.settings.clientSecret,
          undefined,
          // Plain HTTP only for a provider on this machine (development and tests).
          isLoopback(issuer) && issuer.protocol === 'http:'
            ? { execute: [client.allowInsecureRequests] }
            : undefined,
        )
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw error;
        });
    }
    return this.configuration;
  }

  async beginSignIn(redirectUri: string) {
    const config = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url: url.href, pending: { state, codeVerifier } };
  }

  async completeSignIn(callbackUrl: URL, pending: PendingSignIn): Promise<IdentityClaims> {
    const config = await this.discover();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The identity provider returned no ID token');
    let profile: Record<string, unknown> = claims;
    if (!stringClaim(claims.email)) {
      profile = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    }
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: stringClaim(profile.email)?.toLowerCase(),
      emailVerified: profile.email_verified === true,
      firstName: stringClaim(profile.given_name),
      lastName: stringClaim(profile.family_name),
      picture: stringClaim(profile.picture),
    };
  }
}
