import zlib from 'node:zlib';
import { test, expect, signUpFresh } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';

/** A PNG made here, `size` x `size` pixels of one colour (8-bit RGB, no filter). */
function makePng(size: number, rgb: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour
  const row = Buffer.from([0, ...Array.from({ length: size }, () => rgb).flat()]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test.describe('profile (docs/product-rules.md, Account pages)', () => {
  test('changes first and last name', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/profile');
    await expect(page.getByTestId('text-display-name')).toHaveText('Eve Tester');
    await expect(page.getByTestId('input-email')).toHaveAttribute('readonly', '');

    await page.getByTestId('input-first-name').fill('Ada');
    await page.getByTestId('input-last-name').fill('Lovelace');
    await page.getByTestId('button-save-profile').click();
    await expect(page.getByText('Profile updated', { exact: true })).toBeVisible();
    await expect(page.getByTestId('text-display-name')).toHaveText('Ada Lovelace');

    // The header names the signed-in user on its profile link.
    await expect(page.getByTestId('link-profile')).toHaveAttribute('aria-label', 'Profile: Ada Lovelace');
    await page.reload();
    await expect(page.getByTestId('link-profile')).toHaveAttribute('aria-label', 'Profile: Ada Lovelace');
    await expect(page.getByTestId('text-display-name')).toHaveText('Ada Lovelace');
    await expect(page.getByTestId('input-first-name')).toHaveValue('Ada');
    await expect(page.getByTestId('input-last-name')).toHaveValue('Lovelace');
  });

  test('uploads a profile photo, which the header then shows', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/profile');
    await expect(page.getByTestId('img-avatar-initials')).toHaveText('ET');
    await expect(page.getByTestId('img-header-avatar')).toHaveCount(0);

    const chooserShown = page.waitForEvent('filechooser');
    await page.getByTestId('button-upload-photo').click();
    const chooser = await chooserShown;
    expect(chooser.isMultiple()).toBe(false);

    const claimed = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/users/profile-image') && response.request().method() === 'PUT',
    );
    await chooser.setFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: makePng(8, [16, 150, 110]) });
    const answer = await claimed;
    expect(answer.status()).toBe(200);
    const { profileImageUrl } = (await answer.json()) as { profileImageUrl: string };
    expect(profileImageUrl).toMatch(OBJECT_PATH);
    await expect(page.getByText('Profile photo updated', { exact: true })).toBeVisible();

    const headerAvatar = page.getByTestId('img-header-avatar');
    await expect(headerAvatar).toHaveAttribute('src', profileImageUrl);
    await expect(headerAvatar).toHaveAttribute('alt', '');
    await expect
      .poll(() => headerAvatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(8);
    await expect(page.getByTestId('img-avatar')).toHaveAttribute('src', profileImageUrl);
    await expect(page.getByTestId('upload-progress')).toHaveCount(0);

    // It was saved, and it is public: another browser without a session can load it too.
    await page.reload();
    await expect(page.getByTestId('img-header-avatar')).toHaveAttribute('src', profileImageUrl);
    const anonymous = await page.context().browser()?.newContext();
    const fetched = await anonymous?.request.get(new URL(profileImageUrl, page.url()).href);
    expect(fetched?.status()).toBe(200);
    expect(fetched?.headers()['content-type']).toBe('image/png');
    await anonymous?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`refuses a file that is not an image or is over 10 MB, with the spec messages (${theme})`, async ({
      page,
    }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signUpFresh(page);
      await page.goto('/profile');
      const input = page.getByTestId('input-profile-image');
      const notices = page.getByTestId('upload-notices');

      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect(notices).toContainText('You can only upload: image/*');

      await input.setInputFiles({
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: Buffer.alloc(10_485_761),
      });
      await expect(notices).toContainText('File exceeds maximum allowed size');
      await expect(page.getByTestId('img-avatar-initials')).toBeVisible();

      // The page, with its notices showing, has no serious accessibility problem in either theme.
      await expectNoAccessibilityViolations(page);
    });
  }
});
