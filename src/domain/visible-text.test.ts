import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signUpBodySchema } from './auth';
import { categoryBodySchema } from './admin';
import { addressBodySchema } from './addresses';
import { createProductBodySchema, updateProductBodySchema } from './listings';
import { MESSAGE_EMPTY, canSendMessage, messageContentSchema } from './messages';
import { reviewBodySchema } from './reviews';
import { contactMessageSchema } from './support';
import { updateNamesBodySchema } from './users';
import { DIRECTION_CONTROL_MESSAGE, hasDirectionControl, removeInvisibleCharacters } from './visible-text';
import { visibleText } from './visible-text-schema';

/** Text that shows what it says (docs/rules/running.md, Bad input and failure). */

const ZWSP = '\u200B';
const ZWNJ = '\u200C';
const ZWJ = '\u200D';
const RLO = '\u202E';
const FAMILY = '👨‍👩‍👧‍👦';

/** The first message of each field of a failed parse, as the server's 400 shows them. */
function fieldsOf(result: { success: boolean; error?: z.ZodError }): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('removeInvisibleCharacters', () => {
  it('removes the zero-width and other invisible format characters', () => {
    expect(removeInvisibleCharacters(`Bo${ZWSP}oks`)).toBe('Books');
    expect(removeInvisibleCharacters(`${ZWSP}${ZWSP}`)).toBe('');
    for (const invisible of ['\u2060', '\uFEFF', '\u180E', '\u00AD', ZWNJ, ZWJ, '\u2063', '\u206F']) {
      expect(removeInvisibleCharacters(`Jo${invisible}hn`), invisible.codePointAt(0)?.toString(16)).toBe(
        'John',
      );
    }
  });

  it('removes tag characters, which can hide text, but keeps a flag spelled with them', () => {
    const tags = (text: string) =>
      [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(removeInvisibleCharacters(`Hello${tags('ignore this')}`)).toBe('Hello');
    const scotland = `🏴${tags('gbsct')}\u{E007F}`;
    expect(removeInvisibleCharacters(`Go ${scotland}`)).toBe(`Go ${scotland}`);
  });

  it('keeps a zero-width joiner between two pictographs, skin tones and heart included', () => {
    for (const emoji of [FAMILY, '👨🏽‍👩🏽‍👧🏽', '👩‍❤️‍👨', '🏳️‍🌈', '🧑‍💻']) {
      expect(removeInvisibleCharacters(`Hi ${emoji}!`)).toBe(`Hi ${emoji}!`);
    }
    // Not between two pictographs: removed.
    expect(removeInvisibleCharacters(`👨${ZWJ}a`)).toBe('👨a');
    expect(removeInvisibleCharacters(`a${ZWJ}👨`)).toBe('a👨');
    expect(removeInvisibleCharacters(`👨${ZWSP}${ZWJ}👩`)).toBe('👨👩');
  });

  it('keeps a joiner or non-joiner inside words of scripts that spell with them', () => {
    const persian = `می${ZWNJ}خواهم`;
    const hindi = `क्${ZWJ}ष`;
    expect(removeInvisibleCharacters(persian)).toBe(persian);
    expect(removeInvisibleCharacters(hindi)).toBe(hindi);
    expect(removeInvisibleCharacters(`${ZWNJ}می`)).toBe('می');
  });

  it('leaves other text alone, and removing twice changes nothing more', () => {
    expect(removeInvisibleCharacters('Café 🚲 — 10% off\nline two')).toBe('Café 🚲 — 10% off\nline two');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = removeInvisibleCharacters(text);
        expect(removeInvisibleCharacters(once)).toBe(once);
        expect(once).not.toMatch(/[\u200B\u2060\uFEFF\u00AD\u180E]/u);
      }),
    );
  });
});

describe('hasDirectionControl', () => {
  it('finds every bidirectional control, and nothing else', () => {
    const controls = ['\u202A', '\u202B', '\u202C', '\u202D', RLO, '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const control of [...controls, '\u200E', '\u200F', '\u061C']) {
      expect(hasDirectionControl(`Smith${control}`), control.codePointAt(0)?.toString(16)).toBe(true);
    }
    expect(hasDirectionControl('Smith')).toBe(false);
    expect(hasDirectionControl('שלום عربي')).toBe(false);
  });
});

describe('visibleText', () => {
  const name = visibleText(z.string({ error: 'Required' }).trim().min(1, 'Required').max(5, 'Too long'));

  it('removes invisible characters before the field trims and checks it', () => {
    expect(name.parse(` Bo${ZWSP}b${ZWSP} `)).toBe('Bob');
    expect(fieldsOf(name.safeParse(`${ZWSP}${ZWSP}`))).toEqual({ '': 'Required' });
    expect(fieldsOf(name.safeParse(` ${ZWSP} \uFEFF `))).toEqual({ '': 'Required' });
    // Length counts what is seen.
    expect(name.parse(`ab${ZWSP.repeat(10)}cde`)).toBe('abcde');
  });

  it('refuses direction-changing characters with its own message, and only that one', () => {
    expect(fieldsOf(name.safeParse(`ab${RLO}c`))).toEqual({ '': DIRECTION_CONTROL_MESSAGE });
    expect(name.safeParse(RLO).error?.issues).toHaveLength(1);
  });

  it("leaves what is not text to the field's own message", () => {
    expect(fieldsOf(name.safeParse(42))).toEqual({ '': 'Required' });
    expect(fieldsOf(name.optional().safeParse(undefined))).toEqual({});
  });

  it("keeps the field's input and output types, and its JSON Schema", () => {
    const object = z.strictObject({ name, other: name.optional() });
    const input: z.input<typeof object> = { name: 'x' };
    expect(object.parse(input)).toEqual({ name: 'x' });
    expect(z.toJSONSchema(object, { io: 'input' })).toMatchObject({
      properties: { name: { type: 'string', minLength: 1, maxLength: 5 } },
      required: ['name'],
    });
  });
});

describe('the user-written fields', () => {
  it('names: only invisible characters is no name; a right-to-left override is refused', () => {
    expect(fieldsOf(updateNamesBodySchema.safeParse({ firstName: ZWSP, lastName: `Smith${RLO}` }))).toEqual({
      firstName: 'Required',
      lastName: DIRECTION_CONTROL_MESSAGE,
    });
    const signUp = signUpBodySchema.safeParse({
      email: 'a@example.com',
      password: 'long enough',
      firstName: `${ZWSP}\u2060`,
      lastName: `Ev${RLO}il`,
    });
    expect(fieldsOf(signUp)).toEqual({
      firstName: 'First name is required',
      lastName: DIRECTION_CONTROL_MESSAGE,
    });
  });

  it('categories and products: invisible characters removed, names of nothing refused', () => {
    expect(categoryBodySchema.parse({ name: `Bo${ZWSP}oks` })).toEqual({ name: 'Books' });
    expect(fieldsOf(categoryBodySchema.safeParse({ name: `${ZWSP} ` }))).toEqual({
      name: 'Name is required',
    });
    const product = { price: '1.00', category: 'Books', stock: 1 };
    expect(fieldsOf(createProductBodySchema.safeParse({ ...product, name: ZWSP + ZWSP }))).toEqual({
      name: 'Required',
    });
    expect(createProductBodySchema.parse({ ...product, name: 'Lamp', description: ZWSP })).toMatchObject({
      description: null,
    });
    expect(fieldsOf(updateProductBodySchema.safeParse({ description: `x${RLO}` }))).toEqual({
      description: DIRECTION_CONTROL_MESSAGE,
    });
  });

  it('addresses, messages, reviews and the contact form', () => {
    const address = { addressLine1: `${ZWSP}`, city: 'Spring\u00ADfield', state: 'IL', zipCode: '62701' };
    expect(fieldsOf(addressBodySchema.safeParse(address))).toEqual({
      addressLine1: 'Address line 1 is required',
    });
    expect(addressBodySchema.parse({ ...address, addressLine1: '1 Main St' })).toMatchObject({
      city: 'Springfield',
    });

    expect(messageContentSchema.parse(`Hi from us ${FAMILY}`)).toBe(`Hi from us ${FAMILY}`);
    expect(fieldsOf(messageContentSchema.safeParse(ZWSP))).toEqual({ '': MESSAGE_EMPTY });
    expect(canSendMessage(`${ZWSP}${ZWJ}`)).toBe(false);

    const review = { orderId: crypto.randomUUID(), revieweeId: crypto.randomUUID() };
    const parsed = reviewBodySchema.parse({
      ...review,
      revieweeRole: 'seller',
      reviewerRole: 'buyer',
      rating: 5,
      comment: ZWSP,
    });
    expect(parsed.comment).toBeNull();

    const contact = {
      name: 'Al',
      email: 'al@example.com',
      subject: 'Hello',
      message: 'A long enough message',
    };
    expect(fieldsOf(contactMessageSchema.safeParse({ ...contact, name: `A${ZWSP}` }))).toEqual({
      name: 'Name must be at least 2 characters',
    });
    expect(fieldsOf(contactMessageSchema.safeParse({ ...contact, subject: `Hel${RLO}lo` }))).toEqual({
      subject: DIRECTION_CONTROL_MESSAGE,
    });
  });
});
