import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { COMPANY } from '../../../domain/company';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW_STEPS,
} from '../../../domain/two-factor';

/**
 * The secrets and codes of two-factor sign-in (docs/decisions/0024-two-factor-sign-in.md): TOTP of
 * RFC 6238 with otpauth, the secret kept encrypted (AES-256-GCM), recovery codes kept as sha256.
 */

/** The key that encrypts authenticator secrets, derived from the app's signing key (the session secret). */
export function twoFactorKeyOf(signingKey: Buffer): Buffer {
  return crypto.createHmac('sha256', signingKey).update('two-factor secrets').digest();
}

export function encryptSecret(key: Buffer, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, or null when it cannot be read (another session secret sealed it). */
export function decryptSecret(key: Buffer, stored: string): string | null {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** A new secret of 160 bits (RFC 4226's recommendation), in base32. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: COMPANY.name,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/**
 * The time step a code belongs to, when it is the code of the current step or of one step either
 * side; null otherwise. The caller takes a step only once (`last_used_step`).
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const totp = totpOf(secret);
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW_STEPS });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

/** The setup's QR code: the otpauth:// address as an SVG, made here so the browser loads no QR library. */
export async function qrCodeOf(secret: string, accountName: string): Promise<string> {
  const svg = await QRCode.toString(totpOf(secret, accountName).toString(), {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Letters and digits that cannot be taken for one another (no 0, o, 1, l, i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function recoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(recoveryCode());
  return [...codes];
}

/** A recovery code's stored form: the sha256 of its letters and digits, whatever the case and dash. */
export function hashRecoveryCode(code: string): string {
  return crypto
    .createHash('sha256')
    .update(code.replace(/[\s-]+/g, '').toLowerCase())
    .digest('hex');
}
