import { describe, expect, it } from 'vitest';
import {
  addressBodySchema,
  addressPatchBodySchema,
  normaliseUsState,
  normaliseZipCode,
  ZIP_CODE_MESSAGE,
} from './addresses';

const valid = { addressLine1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' };

function fieldMessages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.') || 'body'] ??= issue.message;
  return fields;
}

describe('normaliseUsState', () => {
  it('turns codes and names into the 2-letter code', () => {
    expect(normaliseUsState('il')).toBe('IL');
    expect(normaliseUsState(' Illinois ')).toBe('IL');
    expect(normaliseUsState('new  york')).toBe('NY');
    expect(normaliseUsState('District of Columbia')).toBe('DC');
  });
  it('leaves anything else as typed', () => {
    expect(normaliseUsState('Ontario')).toBe('Ontario');
    expect(normaliseUsState('xx')).toBe('xx');
  });
});

describe('normaliseZipCode', () => {
  it('keeps 5 digits and writes ZIP+4 with a dash', () => {
    expect(normaliseZipCode('62701')).toBe('62701');
    expect(normaliseZipCode('627011234')).toBe('62701-1234');
    expect(normaliseZipCode('62701 1234')).toBe('62701-1234');
    expect(normaliseZipCode('62701-1234')).toBe('62701-1234');
  });
});

describe('addressBodySchema', () => {
  it('trims, normalises state and ZIP and defaults the country to US', () => {
    const parsed = addressBodySchema.parse({
      addressLine1: '  1 Main St ',
      city: ' springfield ',
      state: 'illinois',
      zipCode: '627011234',
    });
    expect(parsed).toEqual({
      addressLine1: '1 Main St',
      city: 'springfield',
      state: 'IL',
      zipCode: '62701-1234',
      country: 'US',
    });
    expect(addressBodySchema.parse({ ...valid, country: 'us' }).country).toBe('US');
  });

  it('gives one message per missing or bad field', () => {
    expect(fieldMessages(addressBodySchema.safeParse({}))).toEqual({
      addressLine1: 'Address line 1 is required',
      city: 'City is required',
      state: 'State is required',
      zipCode: 'ZIP code is required',
    });
    expect(
      fieldMessages(
        addressBodySchema.safeParse({
          addressLine1: ' ',
          city: '',
          state: 'Narnia',
          zipCode: '1234',
          country: 'CA',
        }),
      ),
    ).toEqual({
      addressLine1: 'Address line 1 is required',
      city: 'City is required',
      state: 'State must be a US state, for example IL',
      zipCode: ZIP_CODE_MESSAGE,
      country: 'Only US addresses are supported',
    });
  });

  it('refuses server-owned fields (mass assignment)', () => {
    const result = addressBodySchema.safeParse({ ...valid, isPrimary: true, latitude: 1, userId: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['isPrimary', 'latitude', 'userId'],
    });
  });
});

describe('addressPatchBodySchema', () => {
  it('accepts any subset and refuses unknown keys', () => {
    expect(addressPatchBodySchema.parse({ city: ' Chicago ' })).toEqual({ city: 'Chicago' });
    expect(addressPatchBodySchema.parse({ addressLine2: null })).toEqual({ addressLine2: null });
    expect(addressPatchBodySchema.safeParse({ isVerified: true }).success).toBe(false);
  });
});
