import { test, expect, signUpFresh } from './support/fixtures';
import { expectNoAccessibilityViolations } from './support/accessibility';

test.describe('addresses page', () => {
  test('adds, validates, edits, sets primary and deletes addresses', async ({ page }) => {
    await signUpFresh(page);
    await page.goto('/addresses');
    await expect(page.getByRole('heading', { level: 1, name: 'My Addresses' })).toBeVisible();
    await expect(page.getByText('No addresses yet')).toBeVisible();

    // Add the first address and validate it: the city comes back in its standard spelling.
    await page.getByRole('button', { name: 'Add Address' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Address' });
    const validate = addDialog.getByRole('button', { name: 'Validate Address' });
    await expect(validate).toBeDisabled();
    await addDialog.getByLabel('Address line 1').fill('100 Main St');
    await addDialog.getByLabel('City').fill('springfield');
    await addDialog.getByLabel('State').fill('il');
    await expect(validate).toBeDisabled();
    await addDialog.getByLabel('ZIP code').fill('62701');
    await expect(validate).toBeEnabled();
    await validate.click();
    await expect(addDialog.getByText('Address verified')).toBeVisible();
    await expect(addDialog.getByText(/Location found at 39\.\d+, -89\.\d+/)).toBeVisible();
    await expect(addDialog.getByLabel('City')).toHaveValue('Springfield');
    await expect(addDialog.getByLabel('State')).toHaveValue('IL');
    await addDialog.getByRole('button', { name: 'Save Address' }).click();
    await expect(addDialog).toBeHidden();

    const cards = page.getByRole('list', { name: 'Your addresses' }).getByRole('listitem');
    await expect(cards).toHaveCount(1);
    const home = cards.filter({ hasText: 'Main St' });
    await expect(home.getByText('Springfield, IL 62701')).toBeVisible();
    await expect(home.getByText('Primary', { exact: true })).toBeVisible();
    await expect(home.getByText('Verified', { exact: true })).toBeVisible();
    await expect(home.getByRole('button', { name: /^Set as Primary/ })).toHaveCount(0);

    // Edit it.
    await home.getByRole('button', { name: 'Edit 100 Main St' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Address' });
    await expect(editDialog.getByLabel('Address line 1')).toHaveValue('100 Main St');
    await editDialog.getByLabel('Address line 1').fill('101 Main St');
    await editDialog.getByLabel('Address line 2').fill('Apt 4');
    await editDialog.getByRole('button', { name: 'Save Address' }).click();
    await expect(editDialog).toBeHidden();
    await expect(home.getByText('101 Main St')).toBeVisible();
    await expect(home.getByText('Apt 4')).toBeVisible();
    // Its fields changed since they were verified: the badge goes
    // (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
    await expect(home.getByText('Verified', { exact: true })).toHaveCount(0);

    // Add a second one without validating: it is saved, and not primary.
    await page.getByRole('button', { name: 'Add Address' }).click();
    const secondDialog = page.getByRole('dialog', { name: 'Add Address' });
    await secondDialog.getByLabel('Address line 1').fill('200 Oak Ave');
    await secondDialog.getByLabel('City').fill('Chicago');
    await secondDialog.getByLabel('State').fill('IL');
    await secondDialog.getByLabel('ZIP code').fill('60601');
    await secondDialog.getByRole('button', { name: 'Save Address' }).click();
    await expect(secondDialog).toBeHidden();
    await expect(cards).toHaveCount(2);
    const office = cards.filter({ hasText: '200 Oak Ave' });
    await expect(office.getByText('Primary', { exact: true })).toHaveCount(0);
    await expect(office.getByText('Verified', { exact: true })).toHaveCount(0);

    // Make it primary: the badge moves and it is listed first.
    await office.getByRole('button', { name: 'Set as Primary 200 Oak Ave' }).click();
    await expect(office.getByText('Primary', { exact: true })).toBeVisible();
    await expect(home.getByText('Primary', { exact: true })).toHaveCount(0);
    await expect(cards.first()).toContainText('200 Oak Ave');

    // Delete asks first; Cancel keeps the address.
    await home.getByRole('button', { name: 'Delete 101 Main St' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this address?' });
    await expect(confirm).toContainText('101 Main St, Apt 4, Springfield, IL 62701 will be removed');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(cards).toHaveCount(2);

    await home.getByRole('button', { name: 'Delete 101 Main St' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Address' }).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('200 Oak Ave');
    await expect(page.getByText('Address deleted', { exact: true })).toBeVisible();
  });

  test('an unknown ZIP code is "Validation unavailable" and the address can still be saved', async ({
    page,
  }) => {
    await signUpFresh(page);
    await page.goto('/addresses');
    await page.getByRole('button', { name: 'Add Address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Address' });
    await dialog.getByLabel('Address line 1').fill('1 Nowhere Rd');
    await dialog.getByLabel('City').fill('Nowhere');
    await dialog.getByLabel('State').fill('IL');
    await dialog.getByLabel('ZIP code').fill('00000');
    await dialog.getByRole('button', { name: 'Validate Address' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Validation unavailable' });
    await expect(toast).toContainText('you can still save it');
    await expect(dialog.getByTestId('validation-result')).toHaveAttribute('data-status', 'unavailable');
    await dialog.getByRole('button', { name: 'Save Address' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('list', { name: 'Your addresses' }).getByRole('listitem');
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Primary', { exact: true })).toBeVisible();
    await expect(card.getByText('Verified', { exact: true })).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the list and the validated dialog have no serious violation, ${theme} theme`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signUpFresh(page);
      // Verified only with the proof of a validation of exactly these fields
      // (docs/rules/catalog-and-orders.md, Addresses, availability and slots).
      const fields = { addressLine1: '100 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' };
      const validated = await page.request.post('/api/addresses/validate', { data: fields });
      const { validationToken } = (await validated.json()) as { validationToken: string | null };
      const created = await page.request.post('/api/addresses', { data: { ...fields, validationToken } });
      expect(created.status()).toBe(201);
      await page.goto('/addresses');
      await expect(page.getByText('Verified', { exact: true })).toBeVisible();
      await expectNoAccessibilityViolations(page);

      await page.getByRole('button', { name: 'Add Address' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Address' });
      await dialog.getByLabel('Address line 1').fill('200 Oak Ave');
      await dialog.getByLabel('City').fill('chicago');
      await dialog.getByLabel('State').fill('IL');
      await dialog.getByLabel('ZIP code').fill('60601');
      await dialog.getByRole('button', { name: 'Validate Address' }).click();
      await expect(dialog.getByText('Address verified')).toBeVisible();
      await expectNoAccessibilityViolations(page);
    });
  }
});
