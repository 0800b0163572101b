import { test, expect, signUpFresh } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';
import { makePng } from './support/png';

const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test.describe('profile (docs/rules/screens-buyer.md, Account pages)', () => {
  test('changes first and last name', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/profile');
    await expect(page.getByTestId('text-display-name')).toHaveText('Eve Tester');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');

    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Profile updated', { exact: true })).toBeVisible();
    await expect(page.getByTestId('text-display-name')).toHaveText('Ada Lovelace');

    // The header names the signed-in user on its profile link.
    const profileLink = page.getByRole('banner').getByRole('link', { name: 'Profile: Ada Lovelace' });
    await expect(profileLink).toHaveAttribute('href', '/profile');
    await page.reload();
    await expect(profileLink).toHaveAttribute('href', '/profile');
    await expect(page.getByTestId('text-display-name')).toHaveText('Ada Lovelace');
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');
  });

  test.describe('password', () => {
    // The refused current password is a 400, which Chromium logs.
    test.use({ allowedConsoleErrors: [/status of 40[01] \((Bad Request|Unauthorized)\)/] });

    test('changes the password: a wrong current one is refused, then the other devices are signed out', async ({
      page,
      browser,
    }) => {
      const { email, password } = await signUpFresh(page);
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      expect((await otherPage.request.post('/api/login', { data: { email, password } })).status()).toBe(200);
      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Password', exact: true });
      await expect(card.getByText('Your email address is verified.', { exact: true })).toBeVisible();
      await card.getByLabel('Current password').fill('not my password');
      await card.getByLabel('New password', { exact: true }).fill('a new password');
      await card.getByLabel('Confirm new password').fill('a new password');
      await card.getByRole('button', { name: 'Change Password' }).click();
      await expect(card.getByText('The current password is not correct.')).toBeVisible();
      await card.getByLabel('Current password').fill(password);
      await card.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByText('Password changed', { exact: true })).toBeVisible();
      expect((await otherPage.request.get('/api/auth/user')).status()).toBe(401);
      await other.close();
      expect((await page.request.get('/api/auth/user')).status()).toBe(200);
    });
  });

  test('uploads a profile photo, which the header then shows', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/profile');
    await expect(page.getByTestId('img-avatar-initials')).toHaveText('ET');
    // The header's picture is in its profile link, which names the user: the picture itself says nothing.
    const headerAvatar = page
      .getByRole('banner')
      .getByRole('link', { name: /^Profile: / })
      .locator('img');
    await expect(headerAvatar).toHaveCount(0);

    const chooserShown = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload photo' }).click();
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

    await expect(headerAvatar).toHaveAttribute('src', profileImageUrl);
    await expect(headerAvatar).toHaveAttribute('alt', '');
    await expect
      .poll(() => headerAvatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(8);
    await expect(page.getByTestId('img-avatar')).toHaveAttribute('src', profileImageUrl);
    await expect(page.getByTestId('upload-progress')).toHaveCount(0);

    // It was saved, and it is public: another browser without a session can load it too.
    await page.reload();
    await expect(headerAvatar).toHaveAttribute('src', profileImageUrl);
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
      // The photo button is enabled once the uploader has loaded: only then can a person pick a file.
      await expect(page.getByRole('button', { name: 'Upload photo' })).toBeEnabled();

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
