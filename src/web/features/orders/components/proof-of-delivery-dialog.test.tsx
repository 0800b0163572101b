// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installDomStubs, renderWithProviders } from '../../../test-support/render';
import { DEFAULT_DELIVERY_PROOF } from '@domain/delivery-proof';
import { asDriverSeesIt, DRIVER_ID, makeOrder } from '../testing/order-fixtures';
import type { PhotoUploader } from './delivery-photo-dialog';
import { ProofOfDeliveryDialog } from './proof-of-delivery-dialog';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

/** An uploader that "uploads" at once on its button. */
const instantUploader: PhotoUploader = ({ label, onUploaded }) => (
  <button type="button" onClick={() => onUploaded('/objects/uploads/10000000-0000-4000-8000-0000000000aa')}>
    {label}
  </button>
);

function renderDialog(requiresTrailer: boolean, onConfirm = vi.fn()) {
  const order = asDriverSeesIt(makeOrder({ status: 'in-transit', driverId: DRIVER_ID, requiresTrailer }));
  renderWithProviders(
    <ProofOfDeliveryDialog
      order={order}
      settings={DEFAULT_DELIVERY_PROOF}
      open
      onOpenChange={() => {}}
      uploader={instantUploader}
      onConfirm={onConfirm}
      isSaving={false}
    />,
  );
  return onConfirm;
}

describe('Proof of Delivery (docs/rules/screens-work.md, Driver dashboard)', () => {
  it('on a trailer order, confirms only with the photo and the 4 digits, and sends them', async () => {
    const onConfirm = renderDialog(true);
    const user = userEvent.setup();
    const confirm = screen.getByRole('button', { name: 'Confirm Delivery' });
    expect(confirm).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Take or choose a photo' }));
    expect(confirm).toBeDisabled();
    const code = screen.getByLabelText('Delivery code from the buyer');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '12a3');
    expect(confirm).toBeDisabled();
    await user.type(code, '4');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith({
      dropOffPhotoUrl: '/objects/uploads/10000000-0000-4000-8000-0000000000aa',
      code: '1234',
    });
  });

  it('on a standard order, asks no code: the photo is enough', async () => {
    const onConfirm = renderDialog(false);
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Delivery code from the buyer')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Take or choose a photo' }));
    await user.click(screen.getByRole('button', { name: 'Confirm Delivery' }));
    expect(onConfirm).toHaveBeenCalledWith({
      dropOffPhotoUrl: '/objects/uploads/10000000-0000-4000-8000-0000000000aa',
    });
  });
});
