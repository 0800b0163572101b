/**
 * Sign-in through an outside identity provider (docs/rules/running.md, Running modes and adapters:
 * OpenID Connect in production).
 */
export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** Whether the provider vouches for the email; only then may it link to an existing account. */
  emailVerified: boolean;
  firstName: string | undefined;
  lastName: string | undefined;
  picture: string | undefined;
}

/** What must survive between the redirect to the provider and its callback. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  returnTo: string;
  intent: 'seller' | 'driver' | undefined;
}

export interface IdentityProvider {
  /** The provider's authorization URL for a new sign-in, and what to keep until the callback. */
  beginSignIn(
    redirectUri: string,
  ): Promise<{ url: string; pending: Pick<PendingSignIn, 'state' | 'codeVerifier'> }>;
  /** Exchanges the callback's code (with PKCE) for the user's claims; throws on any mismatch. */
  completeSignIn(callbackUrl: URL, pending: PendingSignIn): Promise<IdentityClaims>;
}
